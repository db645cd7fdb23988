// Die Texte des Explorers auf Deutsch. Glossar wie in common.js; dazu: heatmap = Heatmap;
// pipeline step = Schritt; preset/example = Beispiel; embed = Einbettung.
export default {
  'explorer.page.title': 'Attention-Explorer: Skalarprodukt- und Multi-Head-Attention, live',
  'explorer.page.embedTitle': 'Attention-Explorer (eingebettet)',
  'explorer.page.description':
    'Bearbeiten Sie Queries, Keys, Values oder einen Satz und sehen Sie jeden Schritt von softmax(QKᵀ/√dₖ)V live mitrechnen, berechnet in WebAssembly.',
  'explorer.page.heading': 'Attention-Explorer',
  'explorer.page.tagline': ', live berechnet in WebAssembly.',
  'explorer.page.taglineMore': ' Ändern Sie eine beliebige Zahl und sehen Sie, wie jeder Schritt folgt.',
  'explorer.page.skipSteps': 'Zu den Attention-Schritten springen',
  'explorer.page.skipHeads': 'Zu den Köpfen springen',
  'explorer.page.skipBuilder': 'Zum Einbettungs-Baukasten springen',
  'explorer.page.tools': 'Werkzeuge',
  'explorer.page.toolsLabel': 'Werkzeuge für Farbschema, Teilen und Export',
  'explorer.views.label': 'Ansichten',
  'explorer.views.explorer': 'Explorer',
  'explorer.views.train': 'Trainieren',
  'explorer.views.trainMore': ' (ein winziger Transformer)',
  'explorer.views.trainName': 'Einen winzigen Transformer trainieren',
  'explorer.views.embed': 'Einbetten',
  'explorer.views.embedMore': ' (eine Lektion)',
  'explorer.views.embedName': 'Eine Lektion einbetten',
  'explorer.status.loading': 'Der Attention-Kern wird geladen …',
  'explorer.status.coreFailed': 'Der Attention-Kern konnte nicht geladen werden: {reason}',
  'explorer.status.drawFailed': 'Beim Zeichnen ist etwas schiefgegangen: {reason}',
  'explorer.notice.trainingLesson': 'Die Lektion „{id}“ gehört zur Trainingsansicht (view="train").',
  'explorer.notice.unknownLesson': 'Es gibt keine Lektion namens „{id}“. Lektionen: {ids}.',
  'explorer.notice.badParentOrigin':
    'Die Einstellung parentOrigin ist keine Liste von Origins wie https://lessons.example: Nachrichten der Lektionsseite werden ignoriert.',
  'explorer.builder.title': 'Eine Lektion einbetten',
  'explorer.builder.intro':
    'Wählen Sie eine Lektion und ihre Optionen; der Rahmen rechts zeigt die Lektion so, wie Ihre Leserinnen und Leser sie sehen. Kopieren Sie das Element (für eine Seite, die die Dateien des Explorers bereitstellen kann) oder den iframe (für jede Lernplattform). docs/embedding.md beschreibt jede Option.',
  'explorer.builder.whole': 'Der ganze Explorer',
  'explorer.builder.group.tabs': 'Lektionen',
  'explorer.builder.group.steps': 'Schritte der Pipeline',
  'explorer.builder.group.training': 'Einen Transformer trainieren',
  'explorer.builder.lessonOption': '{title} ({id})',
  'explorer.builder.controls.own': 'Die der Lektion (minimal)',
  'explorer.builder.controls.none': 'Keine',
  'explorer.builder.controls.minimal': 'Minimal',
  'explorer.builder.controls.full': 'Alle',
  'explorer.builder.readOnly': 'Schreibgeschützt: Zahlen und Einstellungen lassen sich nicht ändern',
  'explorer.builder.reveal': 'Erst vorhersagen, dann aufdecken: die Lernenden raten, bevor die Antwort erscheint',
  'explorer.builder.theme.auto': 'Wie das System der Lesenden',
  'explorer.builder.theme.light': 'Hell',
  'explorer.builder.theme.dark': 'Dunkel',
  'explorer.builder.lang.reader': 'Die Browsersprache der Lesenden',
  'explorer.builder.lang.en': 'Englisch (English)',
  'explorer.builder.lang.de': 'Deutsch',
  'explorer.builder.lang.es': 'Spanisch (Español)',
  'explorer.builder.start': 'Startzahlen (optional)',
  'explorer.builder.hint.q': 'Queries, je eine Zeile: [[1, 0], [0, 1]] oder 1 0; 0 1',
  'explorer.builder.hint.k': 'Keys, so viele Spalten wie q',
  'explorer.builder.hint.v': 'Values, eine Zeile pro Key (optional)',
  'explorer.builder.hint.x': 'Token-Vektoren, eine Zeile pro Wort des Satzes',
  'explorer.builder.hint.sentence': 'Wörter: sie beschriften die Zeilen',
  'explorer.builder.hint.mask': 'none, causal, padding, custom oder JSON-Zeilen aus 0/1',
  'explorer.builder.lesson': 'Lektion',
  'explorer.builder.controls': 'Bedienelemente',
  'explorer.builder.theme': 'Farbschema',
  'explorer.builder.lang': 'Sprache',
  'explorer.builder.langHint':
    'Die Sprache der Wörter und Zahlen der Lektion; ohne Auswahl folgt die Lektion dem Browser der Lesenden.',
  'explorer.builder.noQuestion':
    'Diese Lektion hat keine Frage: wählen Sie weights, softmax-row, pitfalls, sqrt-dk oder induction.',
  'explorer.builder.copy.element': 'Element kopieren',
  'explorer.builder.copy.iframe': 'iframe kopieren',
  'explorer.builder.elementSnippet': 'Element (<attention-explorer>)',
  'explorer.builder.iframeSnippet': 'iframe (embed.html)',
  'explorer.builder.preview': 'Vorschau der eingebetteten Lektion',
  'explorer.builder.frameTitle': 'Attention-Explorer: {lesson}',
  'explorer.builder.copied.element':
    'Element kopiert. Es braucht die Dateien des Explorers auf der Website Ihrer Lektion: ändern Sie die Adresse des Skripts auf diese Kopie.',
  'explorer.builder.copied.iframe':
    'iframe kopiert. Er lädt die Lektion von dieser Website und funktioniert auf jeder Lektionsseite.',
  'explorer.builder.copyByHand': 'Kopieren Sie diesen Text (Strg+C oder ⌘C):',
  'explorer.preset.lesson.label': 'NumPy-Beispiel der Lektion (Seed 42, X 4×8, W 8×4)',
  'explorer.preset.lesson.description':
    'np.random.seed(42); X = randn(4, 8); Wq, Wk, Wv = dreimal randn(8, 4). Die Gewichte stimmen mit dem Ausdruck der Lektion überein (Zeilen mit 0.85 und 0.62).',
  'explorer.preset.hand.label': 'Von Hand: 3 Tokens, dₖ = 2',
  'explorer.preset.hand.description': 'Kleine ganze Zahlen, die Sie auf Papier nachrechnen können.',
  'explorer.preset.causal.label': 'Kausale Maske (Decoder wie bei GPT)',
  'explorer.preset.causal.description':
    'Jedes Token sieht nur sich selbst und frühere Tokens: das obere Dreieck der Gewichte ist genau 0.',
  'explorer.preset.padding.label': 'Padding-Maske ([PAD]-Tokens)',
  'explorer.preset.padding.description': 'Ein kurzer Satz, auf Länge 6 aufgefüllt; niemand achtet auf die [PAD]-Keys.',
  'explorer.preset.saturation.label': 'Warum √dₖ: Q und K mit Varianz 1 und dₖ = 32',
  'explorer.preset.saturation.description':
    'Schalten Sie √dₖ aus: die Scores streuen bis etwa ±√32 und die Gewichte sättigen sich in Richtung One-Hot.',
  'explorer.preset.heads.label': 'Vier Köpfe, vier Aufgaben (d_model = 16, h = 4)',
  'explorer.preset.heads.description':
    'Von Hand gebaute Köpfe: vorheriges Token, gleiches Wort, erstes Token und ein breiter Mittelwert.',
  'explorer.preset.mixing.label': 'Mischen in der Ebene: 4 Tokens, dᵥ = 2',
  'explorer.preset.mixing.description':
    'Jeder Value ist ein Punkt in der Ebene; jede Ausgabe ist ein gewichteter Mittelwert davon und landet in ihrer Hülle. Ziehen Sie die Punkte in der Lektion „Mischen“ weiter unten.',
  'explorer.preset.fully-masked.label': 'Eine vollständig maskierte Zeile (eigene Maske)',
  'explorer.preset.fully-masked.description':
    'Query 2 darf keinen einzigen Key sehen: ihre Gewichte sind 0, nicht NaN, und ihre Ausgabe ist 0.',
  'explorer.controls.label': 'Bedienelemente',
  'explorer.controls.hide': 'Bedienelemente ausblenden',
  'explorer.controls.show': 'Bedienelemente einblenden',
  'explorer.controls.example': 'Beispiel',
  'explorer.controls.choose': 'Beispiel wählen …',
  'explorer.controls.preset': 'Vorlage',
  'explorer.controls.presetHelp': 'Wählen Sie ein fertiges Beispiel oder ändern Sie eine beliebige Zahl.',
  'explorer.controls.input': 'Eingabe',
  'explorer.controls.mode.sentence': 'Satz → X·W',
  'explorer.controls.mode.qkv': 'Q, K, V direkt',
  'explorer.controls.tokens.self': {
    one: 'n = m = {count} Token (aus dem Satz).',
    other: 'n = m = {count} Tokens (aus dem Satz).',
  },
  'explorer.controls.tokens.cross': 'n = {n} Query-Tokens, m = {m} Gedächtnis-Tokens (aus den Sätzen).',
  'explorer.controls.tokens.perHead': 'Jeder Kopf bekommt dₖ = dᵥ = d_model / h.',
  'explorer.controls.sizes': 'Größen',
  'explorer.controls.size.n': 'n (Queries)',
  'explorer.controls.size.m': 'm (Keys)',
  'explorer.controls.size.heads': 'Köpfe h',
  'explorer.controls.random': 'Zufallswerte',
  'explorer.controls.randomize': 'Neu würfeln',
  'explorer.controls.randomizeTitle': 'Neue Werte mit dem nächsten Seed ziehen',
  'explorer.controls.seed': 'Seed',
  'explorer.controls.temperature': 'Temperatur T',
  'explorer.controls.temperatureNumber': 'Temperatur T (Zahl)',
  'explorer.controls.temperatureReset': 'Auf T = 1 zurücksetzen',
  'explorer.controls.scaling': 'Skalierung',
  'explorer.controls.sqrtDk': 'durch √dₖ teilen',
  'explorer.controls.scaledBy': 'QKᵀ skaliert mit {scale}',
  'explorer.controls.scaleNote.multi':
    'Jeder Kopf wird mit 1/(T·√dₖ) skaliert, mit seinem eigenen dₖ = d_model / h. T < 1 schärft den Softmax, T > 1 glättet ihn.',
  'explorer.controls.scaleNote.one':
    'T < 1 schärft den Softmax, T > 1 glättet ihn. Schalten Sie √dₖ aus, um die Gewichte sättigen zu sehen.',
  'explorer.controls.mask': 'Maske',
  'explorer.controls.mask.none': 'Keine',
  'explorer.controls.mask.causal': 'Kausal',
  'explorer.controls.mask.padding': 'Padding',
  'explorer.controls.mask.custom': 'Eigene',
  'explorer.controls.maskHelp.none': 'Jede Query sieht jeden Key.',
  'explorer.controls.maskHelp.causal': 'Query i sieht nur die Keys 1..i: kein Blick auf spätere Tokens.',
  'explorer.controls.maskHelp.padding':
    'Als [PAD] markierte Keys sind für jede Query verborgen. Schalten Sie Keys unten um.',
  'explorer.controls.maskHelp.custom':
    'Klicken Sie auf eine Zelle der Scores (oder drücken Sie dort Enter), um dieses Query-Key-Paar zu verbergen oder zu zeigen.',
  'explorer.controls.padKeys': 'Als [PAD] markierte Keys',
  'explorer.controls.padOn': '{key} ist [PAD] (verborgen); klicken zum Aufheben',
  'explorer.controls.padOff': '{key} als [PAD] markieren',
  'explorer.controls.showAllPairs': 'Alle Paare zeigen',
  'explorer.controls.headShown': 'Gezeigter Kopf',
  'explorer.controls.headShownLabel': 'In den Schritten gezeigter Kopf',
  'explorer.controls.head': 'Kopf {k}',
  'explorer.controls.headNamed': 'Kopf {k}: {name}',
  'explorer.display.theme': 'Farbschema',
  'explorer.display.theme.auto': 'System',
  'explorer.display.theme.light': 'Hell',
  'explorer.display.theme.dark': 'Dunkel',
  'explorer.display.palette': 'Farbpalette der Gewichte',
  'explorer.display.palette.viridis': 'Viridis',
  'explorer.display.palette.cividis': 'Cividis',
  'explorer.display.palette.blues': 'Blautöne',
  'explorer.extras.legend': 'Bias und Cross-Attention',
  'explorer.extras.bias': 'Eine Bias-Matrix B zu den Scores addieren',
  'explorer.extras.biasStarts': 'B beginnt als',
  'explorer.extras.biasPreset.zeros': 'Nullen (keine Wirkung)',
  'explorer.extras.biasPreset.alibi': 'wie ALiBi: −0.5 × |i − j|',
  'explorer.extras.biasPreset.causal-inf': 'kausal, −∞ über der Diagonale',
  'explorer.extras.biasPreset.causal-large': 'kausal, −10000 über der Diagonale',
  'explorer.extras.biasPreset.random': 'zufällig (mit Seed)',
  'explorer.extras.biasHelp':
    'B wird vor dem Softmax zu den skalierten Scores addiert (eine additive Maske); es wirkt zusammen mit der Maske oben. Tippen Sie -inf in eine Zelle, um ein Paar zu verbergen.',
  'explorer.extras.biases': 'Projektions-Biases b_Q, b_K, b_V, b_O',
  'explorer.extras.biasesHelp.qkv': 'Nur im Satzmodus: die Biases gehören zu den Projektionen X·W.',
  'explorer.extras.biasesHelp.multi':
    'Q = X·W_Q + b_Q (K und V ebenso), Ausgabe = concat·W_O + b_O: die Schicht wird mit bias: true gebaut.',
  'explorer.extras.biasesHelp.one':
    'Q = X·W_Q + b_Q, K = X·W_K + b_K, V = X·W_V + b_V (ein einzelner Kopf hat kein W_O, also kein b_O).',
  'explorer.extras.cross': 'Cross-Attention: Keys und Values aus einem Gedächtnissatz',
  'explorer.extras.memory': 'Gedächtnissatz (Keys und Values)',
  'explorer.extras.crossHelp.qkv':
    'Nur im Satzmodus (mit direkt eingegebenen Q, K, V dürfen K und V schon m ≠ n Zeilen haben).',
  'explorer.extras.crossHelp.on':
    'Queries aus dem Satz (n = {n}), Keys und Values aus dem Gedächtnis (m = {m} Tokens, höchstens {max}): K = X_mem·W_K, V = X_mem·W_V.',
  'explorer.extras.crossHelp.self': 'Self-Attention: Queries, Keys und Values kommen alle aus dem Satz.',
  'explorer.vectors.from': 'Token-Vektoren aus',
  'explorer.vectors.source.random': 'Zufällig pro Wort',
  'explorer.vectors.source.text-model': 'Dem trainierten Textmodell',
  'explorer.vectors.source.trained-head': 'Einem trainierten Kopf (Schicht, Kopf, Probe)',
  'explorer.vectors.source.checkpoint': 'Dem geöffneten Checkpoint (GPT-2)',
  'explorer.vectors.layer': 'Schicht des Modells',
  'explorer.vectors.head': 'Kopf des Modells',
  'explorer.vectors.layerN': 'Schicht {k}',
  'explorer.vectors.headN': 'Kopf {k}',
  'explorer.vectors.loadingModel': 'Das trainierte Textmodell wird geladen …',
  'explorer.vectors.modelFailed': 'Das Textmodell konnte nicht geladen werden: {reason}',
  'explorer.vectors.trainedOption': 'Trainiert: {name}',
  'explorer.vectors.randomNote':
    'Zufällig pro Wort: der Vektor jedes Wortes ist zufällig, aber fest, aus dem Seed; kein Modell hat sie gelernt, die Attention-Muster bedeuten also noch nichts.',
  'explorer.vectors.handBuiltNote':
    'Für dieses Beispiel von Hand geschrieben: der Vektor jedes Wortes enthält die Merkmale, die seine Köpfe lesen (wo das Wort steht, welches Wort es ist), daher zeigt jeder Kopf das Muster, nach dem er benannt ist. Ändern Sie den Satz, den Seed, d_model oder die Positionen, werden die Vektoren wieder zufällig pro Wort, und die Köpfe verlieren ihre Namen.',
  'explorer.vectors.randomNoteLeft':
    'Zufällig pro Wort: der Vektor jedes Wortes ist zufällig, aber fest, aus dem Seed; kein Modell hat sie gelernt, die Attention-Muster bedeuten also noch nichts. (Das X des trainierten Kopfes gehörte zu seiner Probe-Sequenz und deren Größen: nach dieser Änderung ist X wieder zufällig pro Wort; die Gewichtsmatrizen bleiben, bis Sie sie ändern.)',
  'explorer.vectors.modelNote':
    'Das trainierte Textmodell: ein kleiner Transformer, trainiert auf den mitgelieferten Geschichten dieser Seite (web/trained/text), ein Zeichen pro Token; X und W sind seine echten Eingaben und Gewichte für den gewählten Kopf, die Aufmerksamkeitsgewichte zeigen also, worauf er wirklich achtet.',
  'explorer.vectors.readingCheckpoint': 'Der Satz wird mit dem Checkpoint gelesen …',
  'explorer.vectors.typeFirst': 'Geben Sie zuerst einen Satz ein.',
  'explorer.vectors.checkpointFailed': 'Der Checkpoint konnte den Satz nicht lesen: {reason}',
  'explorer.vectors.openedCheckpoint': 'Der geöffnete Checkpoint ({name})',
  'explorer.vectors.reopenCheckpoint':
    'Öffnen Sie den Checkpoint erneut in der Trainingsansicht, um damit einen neuen Satz zu lesen.',
  'explorer.trained.model.induction': 'des trainierten Induktionsbeispiels',
  'explorer.trained.model.text': 'des trainierten Textbeispiels',
  'explorer.trained.model.trained': 'des in der Trainingsansicht trainierten Modells',
  'explorer.trained.task.text': 'Text auf Zeichenebene',
  'explorer.trained.task.induction': 'wiederholten Zufallstokens',
  'explorer.trained.heads': { one: '{count} Kopf', other: '{count} Köpfen' },
  'explorer.trained.size': { one: '{count} Schicht mit {heads}', other: '{count} Schichten mit {heads}' },
  'explorer.trained.origin': '{name} {model} ({size}, {steps} Schritte mit {task})',
  'explorer.trained.shownHelp':
    'Aus der Trainingsansicht geöffnet: {origin}, beim Lesen seiner Probe-Sequenz. Wählen Sie ein Beispiel, um ihn zu verlassen.',
  'explorer.trained.textOption': 'Textmodell {name}',
  'explorer.trained.textHelp':
    'Ihr Satz, gelesen vom Kopf des trainierten Textmodells (Token-Vektoren aus, unten). Wählen Sie ein Beispiel, um ihn zu verlassen.',
  'explorer.trained.checkpointOption': 'Checkpoint {name}',
  'explorer.trained.checkpointHelp':
    'Ihr Satz, gelesen vom Kopf von {model} (Token-Vektoren aus, unten). Wählen Sie ein Beispiel, um ihn zu verlassen.',
  'explorer.trained.dModelCheckpoint':
    'd_model = {dModel}: die {rank} Richtungen, die die Vektoren Ihres Satzes in den {width} des Modells aufspannen, plus eine Spalte aus Einsen, deren Zeile in jedem W der Bias des Kopfes ist.',
  'explorer.trained.dModel':
    'd_model = {dModel}: die {features} Merkmale des Modells plus eine Spalte aus Einsen, deren Zeile in jedem W der Bias des Kopfes ist (X·W + b = [X, 1]·[W; b]).',
  'explorer.trained.where.first': 'seine Token-Einbettung plus die gelernte Einbettung seiner Position',
  'explorer.trained.where.later': {
    one: 'seine Token- und Positionseinbettungen nach Schicht {range} (der Residualstrom)',
    other: 'seine Token- und Positionseinbettungen nach den Schichten {range} (der Residualstrom)',
  },
  'explorer.trained.inputs.token':
    'jede Zeile von X ist das, was die Attention von Schicht {layer} für ein Token sieht: {where}, durch die LayerNorm der Schicht ({columns} Spalten), plus eine letzte Spalte aus Einsen. W_Q, W_K und W_V sind die trainierten Gewichte von Kopf {head}, ihre letzte Zeile sein Bias. Das Modell hat seine Positionen selbst gelernt, sie stecken also in X, und hier wird keine Positionsinformation addiert.',
  'explorer.trained.inputs.char':
    'jede Zeile von X ist das, was die Attention von Schicht {layer} für ein Zeichen sieht: {where}, durch die LayerNorm der Schicht ({columns} Spalten), plus eine letzte Spalte aus Einsen. W_Q, W_K und W_V sind die trainierten Gewichte von Kopf {head}, ihre letzte Zeile sein Bias. Das Modell hat seine Positionen selbst gelernt, sie stecken also in X, und hier wird keine Positionsinformation addiert.',
  'explorer.trained.probe.text': 'ein Abschnitt des Textes, auf dem es trainiert wurde',
  'explorer.trained.probe.induction':
    'B (das Start-Token), zufällige Tokens, dann dieselben Tokens noch einmal, jedes mit seiner ID gezeigt',
  'explorer.trained.source':
    'Ein trainierter Kopf: {origin}. X und W sind die eigenen Eingaben und Gewichte des Modells für seine Probe-Sequenz, die Aufmerksamkeitsgewichte unten sind also die echte Attention des Kopfes darauf, keine Illustration.',
  'explorer.trained.help':
    'Die Probe-Sequenz, auf der die Trainingsansicht die Köpfe zeigt: {probe}. Wer einen Satz eintippt, verlässt den trainierten Kopf (X wird dann zufällig pro Wort).',
  'explorer.trained.note': 'Trainierte Vektoren: {inputs}',
  'explorer.trained.explorerLimit': 'der Explorer zeigt höchstens {max} Tokens',
  'explorer.trained.chars': {
    one: '{count} Zeichen, je ein Token (höchstens {max}).',
    other: '{count} Zeichen, je ein Token (höchstens {max}).',
  },
  'explorer.trained.textNote':
    'Trainierte Vektoren: {inputs} Die Aufmerksamkeitsgewichte unten sind also die eigenen Attention-Wahrscheinlichkeiten des Modells für Ihren Text (kausal: ein Zeichen sieht nur die vor ihm).',
  'explorer.share.link': 'Link kopieren',
  'explorer.share.linkTitle': 'Einen Link kopieren, der genau dieses Beispiel öffnet',
  'explorer.share.embed': 'Einbettungscode kopieren',
  'explorer.share.embedTitle':
    'HTML für das Element <attention-explorer> kopieren (braucht die Dateien des Explorers auf der Website Ihrer Lektion)',
  'explorer.share.iframe': 'iframe-Code kopieren',
  'explorer.share.iframeTitle':
    'Einen <iframe> kopieren, der dieses Beispiel von dieser Website auf jeder Lektionsseite zeigt',
  'explorer.share.textToCopy': 'Zu kopierender Text',
  'explorer.share.hostNote':
    'Ersetzen Sie {placeholder} durch die Adresse, unter der der Ordner web/ von attention-explorer liegt.',
  'explorer.share.noPage':
    'Diese App bündelt den Explorer ohne seine eigenständige Seite, es gibt also keine Seite zum Verlinken: stellen Sie den Ordner web/ von attention-explorer bereit (die Ausgabe von npm run build oder node_modules/attention-explorer/web) und geben Sie dessen index.html als link-base an.',
  'explorer.share.copied.link': 'Link kopiert.',
  'explorer.share.copied.embed':
    'Einbettungscode kopiert. Er braucht die Dateien des Explorers auf der Website Ihrer Lektion: ändern Sie die Adresse des Skripts auf diese Kopie (ein Skript von einer anderen Website wird blockiert).',
  'explorer.share.copied.iframe':
    'iframe-Code kopiert. Er lädt den Explorer von dieser Website und funktioniert auf jeder Lektionsseite; der Rahmen meldet seine Höhe (docs/embedding.md).',
  'explorer.start.title': 'Hier anfangen',
  'explorer.start.gotIt': 'Verstanden',
  'explorer.start.gotItLabel': 'Verstanden: „Hier anfangen“ ausblenden',
  'explorer.start.one': 'Tippen Sie einen Satz: jedes Wort wird eine Zeile und eine Spalte.',
  'explorer.start.oneAction': 'Tippen',
  'explorer.start.two': 'Zeigen Sie auf ein Gewicht, um zu sehen, wie es berechnet wurde.',
  'explorer.start.twoAction': 'Vorführen',
  'explorer.start.three': 'Verbergen Sie die Zukunft mit der kausalen Maske.',
  'explorer.start.threeAction': 'Kausale Maske',
  'explorer.start.hide': 'Ausblenden',
  'explorer.start.show': 'Drei Dinge zum Ausprobieren',
  'explorer.sentence.label': 'Satz',
  'explorer.sentence.addPad': 'Ein Padding-Token anhängen (mit der Padding-Maske verbergen)',
  'explorer.sentence.tokens': 'Tokens',
  'explorer.sentence.empty': 'Tippen Sie mindestens ein Wort: die Tokens beschriften die Zeilen und Spalten.',
  'explorer.sentence.help': {
    one: '{count} Token (höchstens {max}); Wörter und Satzzeichen werden zu Tokens, {pad} ist ein Padding-Token.',
    other: '{count} Tokens (höchstens {max}); Wörter und Satzzeichen werden zu Tokens, {pad} ist ein Padding-Token.',
  },
  'explorer.sentence.positional': 'Zu X addierte Positionsinformation',
  'explorer.sentence.positional.none': 'keine (Attention kann die Reihenfolge nicht erkennen)',
  'explorer.sentence.positional.sinusoidal': 'sinusförmig (sin/cos der Position)',
  'explorer.sentence.positional.learned': 'wie gelernt (ein Zufallsvektor pro Position)',
  'explorer.sentence.vectorsNote':
    'Der Vektor jedes Wortes ist zufällig, aber fest: dasselbe Wort bekommt immer denselben Vektor (aus dem Generator von NumPy, gesät mit einem Hash des kleingeschriebenen Wortes und dem Seed). Kein Modell hat sie gelernt, ähnliche Wörter liegen also nicht nah beieinander. Wer den Satz, den Seed, d_model oder die Positionen ändert, baut X neu; Änderungen an X halten bis dahin.',
  'explorer.inputs.title': 'Eingaben',
  'explorer.inputs.title.Q': 'Queries Q',
  'explorer.inputs.title.K': 'Keys K',
  'explorer.inputs.title.V': 'Values V',
  'explorer.inputs.title.X': 'Token-Vektoren X',
  'explorer.inputs.title.XM': 'Gedächtnisvektoren X_mem',
  'explorer.inputs.hint.Q': 'Wonach jedes Query-Token sucht.',
  'explorer.inputs.hint.K': 'Was jedes Key-Token zum Abgleich anbietet.',
  'explorer.inputs.hint.V': 'Was jedes Key-Token weitergibt, wenn auf es geachtet wird.',
  'explorer.inputs.hint.X':
    'Eine Zeile pro Token (bei einem getippten Satz: der Vektor seines Wortes plus der seiner Position). Bearbeiten Sie sie, um zu ändern, was ein Token „bedeutet“.',
  'explorer.inputs.hint.WQ': 'Projiziert einen Token-Vektor auf seine Query.',
  'explorer.inputs.hint.WK': 'Projiziert einen Token-Vektor auf seinen Key.',
  'explorer.inputs.hint.WV': 'Projiziert einen Token-Vektor auf seinen Value.',
  'explorer.inputs.hint.WO': 'Mischt die aneinandergehängten Kopf-Ausgaben zur Ausgabe der Schicht.',
  'explorer.inputs.hint.XM':
    'Eine Zeile pro Gedächtnis-Token (Cross-Attention): Keys und Values werden aus diesen Zeilen berechnet.',
  'explorer.inputs.hint.BQ': 'Wird zu jeder Zeile von Q = X·W_Q + b_Q addiert.',
  'explorer.inputs.hint.BK':
    'Wird zu jeder Zeile von K addiert. Ein Bias auf den Keys verschiebt alle Scores einer Query gleich, der Softmax hebt ihn also auf.',
  'explorer.inputs.hint.BV':
    'Wird zu jeder Zeile von V addiert und geht daher unverändert in jede Ausgabezeile ein (die Gewichte summieren sich zu 1).',
  'explorer.inputs.hint.BO': 'Wird zu jeder Zeile der Ausgabe der Schicht addiert.',
  'explorer.inputs.projectionLabel': '{name} = X mal W_{name}',
  'explorer.inputs.split':
    'Die Spalten werden auf {heads} Köpfe zu je {width} verteilt: Kopf 1 liest die Spalten 1–{width} und so weiter.',
  'explorer.inputs.projections': 'Projektionen, vom Kern berechnet',
  'explorer.inputs.sub.sentenceOnly': 'Tippen Sie einen Satz: jede Zahl unten folgt sofort.',
  'explorer.inputs.sub.sentence':
    'Tippen Sie einen Satz und bearbeiten Sie dann die Token-Vektoren und die Projektionsgewichte (d_model = {dModel}). Jede Zahl unten folgt sofort.',
  'explorer.inputs.sub.qkvOnly': 'Ändern Sie eine beliebige Zahl. Jede Zahl unten folgt sofort.',
  'explorer.inputs.sub.qkv':
    'Ändern Sie eine beliebige Query, einen Key oder einen Value. Jede Zahl unten folgt sofort.',
  'explorer.inputs.biasShape': '1 × {c}, einer pro Spalte von {of}',
  'explorer.inputs.biasShapeOutput': '1 × {c}, einer pro Spalte der Ausgabe',
  'explorer.inputs.reset': 'Zurücksetzen',
  'explorer.inputs.resetTitle': '{name} auf die genauen Werte des Beispiels zurücksetzen',
  'explorer.inputs.resetLabel': '{name} auf die Werte des Beispiels zurücksetzen',
  'explorer.inputs.showMatrix': 'Matrix zeigen',
  'explorer.inputs.hideMatrix': 'Matrix ausblenden',
  'explorer.inputs.showMatrixCells': { one: 'Matrix zeigen ({count} Zelle)', other: 'Matrix zeigen ({count} Zellen)' },
  'explorer.bias.title': 'Bias-Matrix B',
  'explorer.bias.formula': 'vor dem Softmax zu S′ addiert',
  'explorer.bias.hint':
    'Eine additive Maske: jeder Eintrag wird zu seinem skalierten Score addiert. 0 ändert nichts, negative Zahlen drücken einen Key nach unten, −∞ (tippen Sie ‑inf) verbirgt ihn genau wie eine Maske.',
  'explorer.bias.reset': 'Bias-Matrix B auf die Werte ihrer Vorlage zurücksetzen',
  'explorer.bias.fullyMasked': {
    one: '{count} Zeile der Scores ist überall −∞: der Kern gibt einer solchen Zeile Gewichte 0 und Ausgabe 0 statt NaN.',
    other:
      '{count} Zeilen der Scores sind überall −∞: der Kern gibt einer solchen Zeile Gewichte 0 und Ausgabe 0 statt NaN.',
  },
  'explorer.pipeline.title': 'Attention, Schritt für Schritt',
  'explorer.pipeline.sub.multi':
    'Gezeigt wird Kopf {k} von {heads} (dₖ = d_model / h = {dk}). Wählen Sie einen anderen Kopf in den Bedienelementen oder im Kopfraster unten.',
  'explorer.pipeline.sub.one': 'n = {n} Queries, m = {m} Keys, dₖ = {dk}, dᵥ = {dv}.',
  'explorer.pipeline.sub.cross':
    'Cross-Attention: Zeilen sind die {n} Tokens des Satzes (Queries), Spalten die {m} Tokens des Gedächtnisses (Keys und Values).',
  'explorer.pipeline.scaledNoSqrt': 'S′ = S / T  (ohne √dₖ) = S × ',
  'explorer.pipeline.scalingOff': 'S′ = S  (Skalierung aus)',
  'explorer.pipeline.scalingOffNote':
    'Die Skalierung ist aus: vergleichen Sie die Entropie der Gewichte mit eingeschaltetem √dₖ.',
  'explorer.pipeline.sameScale':
    'Jeder Kopf nutzt dieselbe Skalierung (sein eigenes dₖ = {dk}); torch.nn.MultiheadAttention nutzt immer 1/√dₖ.',
  'explorer.pipeline.summary':
    'Mittlere Entropie {entropy} nats (gleichmäßige Attention über {m} Keys: ln {m} = {uniform}); mittleres Maximalgewicht {max}.',
  'explorer.pipeline.allMasked': 'Jede Zeile ist vollständig maskiert: keine Query sieht einen Key.',
  'explorer.pipeline.stat.sum': 'Zeilensumme (1, außer wenn jeder Key verborgen ist)',
  'explorer.pipeline.stat.entropy': 'Entropie der Zeile in nats',
  'explorer.pipeline.stat.max': 'max',
  'explorer.pipeline.stat.maxTitle': 'größtes Gewicht der Zeile',
  'explorer.pipeline.quoted': '„{label}“',
  'explorer.pipeline.fullyMasked': {
    one: 'Vollständig maskierte Zeile {names}: kein sichtbarer Key, die Gewichte sind also alle 0 (nicht NaN) und die Ausgabezeile ist 0.',
    other:
      'Vollständig maskierte Zeilen {names}: kein sichtbarer Key, die Gewichte sind also alle 0 (nicht NaN) und die Ausgabezeile ist 0.',
  },
  'explorer.pipeline.scores': 'Scores',
  'explorer.pipeline.scoresHint':
    'Zeile = Query, Spalte = Key: das Skalarprodukt sagt, wie gut jeder Key zu dem passt, wonach die Query sucht.',
  'explorer.pipeline.customNote':
    'Eigene Maske: klicken Sie auf eine Zelle (oder drücken Sie dort Enter), um dieses Paar zu verbergen oder zu zeigen.',
  'explorer.pipeline.scaled': 'Skalierte Scores',
  'explorer.pipeline.scaledHint':
    'Skalarprodukte wachsen mit dₖ; die Division durch √dₖ hält ihre Streuung nahe 1, damit der Softmax weich bleibt.',
  'explorer.pipeline.maskName.none': 'keine Maske',
  'explorer.pipeline.maskName.causal': 'kausale Maske',
  'explorer.pipeline.maskName.padding': 'Padding-Maske',
  'explorer.pipeline.maskName.custom': 'eigene Maske',
  'explorer.pipeline.masked': 'M = S′ + Maske  ({mask})',
  'explorer.pipeline.maskedBias': 'M = S′ + B + Maske  ({mask}; Score + Bias = maskierter Score)',
  'explorer.pipeline.maskedTitle': 'Maskierte Scores',
  'explorer.pipeline.maskedFormula': 'M = S′ + Maske',
  'explorer.pipeline.maskedHint':
    'Verborgene Paare werden vor dem Softmax zu −∞, bekommen also genau das Gewicht null, und der Rest summiert sich weiter zu 1.',
  'explorer.pipeline.noMask':
    'Keine Maske: M = S′, dieselben Zahlen wie in Schritt 2. Wählen Sie eine Maske, um Query-Key-Paare zu verbergen.',
  'explorer.pipeline.weights': 'Aufmerksamkeitsgewichte',
  'explorer.pipeline.weightsFormula': 'A = softmax(M), Zeile für Zeile',
  'explorer.pipeline.weightsHint':
    'Jede Zeile ist eine Wahrscheinlichkeitsverteilung über die Keys. H ist ihre Entropie in nats: nahe 0 heißt, ein Key bekommt fast alles.',
  'explorer.pipeline.output': 'Ausgabe',
  'explorer.pipeline.outputHint':
    'Jede Ausgabezeile ist ein gewichteter Mittelwert der Value-Zeilen: Attention mischt Values, sie erfindet nie neue.',
  'explorer.pipeline.error': 'Berechnung nicht möglich: {reason}',
  'explorer.pipeline.titleHead': '{title} – Kopf {k}',
  'explorer.pipeline.titleHeadNamed': '{title} – Kopf {k} ({name})',
  'explorer.agree.agree':
    'Zwei Implementierungen stimmen überein: die Seite (WebAssembly, float32) und schlichtes float64-JavaScript, direkt aus der Formel geschrieben.',
  'explorer.agree.disagree':
    'Zwei Implementierungen weichen voneinander ab: die Seite (WebAssembly, float32) und schlichtes float64-JavaScript, direkt aus der Formel geschrieben.',
  'explorer.agree.difference':
    'Größte Abweichung über {weightCount} Gewichte: {weights}; über {outputCount} Ausgaben: {outputs}.',
  'explorer.agree.differenceRelative':
    'Größte Abweichung über {weightCount} Gewichte: {weights}; über {outputCount} Ausgaben: {outputs} ({relative} der größten Ausgabe).',
  'explorer.agree.tooLarge': 'Das ist mehr, als die Rundung von float32 erklärt.',
  'explorer.agree.rounding': 'Das ist die Rundung von float32, unter 1e−6.',
  'explorer.agree.roundingLarge':
    'Das ist die Rundung von float32: hier über 1e−6, weil die Scores ±{scores} erreichen und float32 von jedem etwa 7 signifikante Stellen behält.',
  'explorer.heatmap.allHidden': 'alle verborgen',
  'explorer.heatmap.hiddenCell': '{value}, verborgen',
  'explorer.heatmap.legendHidden': 'verborgen (−∞ vor dem Softmax)',
  'explorer.heatmap.legendValues': 'Werte {min} bis {max}, um 0 zentriert',
  'explorer.heatmap.legendNone': 'keine sichtbaren Werte',
  'explorer.heatmap.legendWeights': 'Gewichte von {min} bis {max}',
  'explorer.heatmap.legendLabel': 'Farbskala von {min} bis {max}',
  'explorer.matrix.cell': '{matrix}, Zeile {row}, Spalte {col}',
  'explorer.matrix.cellNamed': '{matrix}, Zeile {row} ({label}), Spalte {col}',
  'explorer.heads.all': 'Alle Köpfe',
  'explorer.heads.allHint':
    'Jeder Kopf achtet mit seinem eigenen Ausschnitt von W_Q, W_K und W_V, jeder kann also einer anderen Beziehung folgen. Wählen Sie einen, um seine Schritte oben zu sehen.',
  'explorer.heads.allHintAlone':
    'Jeder Kopf achtet mit seinem eigenen Ausschnitt von W_Q, W_K und W_V, jeder kann also einer anderen Beziehung folgen.',
  'explorer.heads.average': 'Mittelwert der Köpfe',
  'explorer.heads.averageHint':
    'Die Gewichte, die torch.nn.MultiheadAttention standardmäßig zurückgibt. Ein Mittelwert kann verbergen, was einzelne Köpfe tun.',
  'explorer.heads.averageLabel': 'Mittelwert der Aufmerksamkeitsgewichte über die Köpfe',
  'explorer.heads.concat': 'Aneinandergehängte Köpfe',
  'explorer.heads.concatHint': 'Die Ausgaben der Köpfe nebeneinander: noch kein Kopf hat einen anderen gesehen.',
  'explorer.heads.concatLabel': 'Aneinandergehängte Ausgaben der Köpfe',
  'explorer.heads.output': 'Ausgabe der Schicht',
  'explorer.heads.outputHint': 'W_O ist die einzige Stelle, an der sich Information verschiedener Köpfe verbindet.',
  'explorer.heads.outputLabel': 'Multi-Head-Ausgabe, concat mal W_O',
  'explorer.heads.tileLabel': 'Aufmerksamkeitsgewichte von Kopf {k}',
  'explorer.heads.sizes': '{heads} Köpfe mit je dₕ = {width} Merkmalen (d_model = {dModel}).',
  'explorer.heads.seeAll':
    'Jeder Kopf sieht alle {m} Tokens: jede der {heads} Gewichtskarten unten ist {n} × {m}. Die Köpfe unterscheiden sich nur darin, welche {width} der {dModel} Spalten von Q, K und V sie lesen, also in den Unterraum, auf den W_Q, W_K und W_V projizieren. Die Aufteilung in Köpfe ist ein Umformen von Q ({n} × {dModel} → {heads} × {n} × {width}), keine Schleife über Tokens oder Köpfe.',
  'explorer.params.layerBiases': 'Diese Schicht hat die Biases b_Q, b_K, b_V, b_O: {count} Parameter.',
  'explorer.params.layerNoBiases': 'Diese Schicht hat keine Biases: {count} Parameter.',
  'explorer.params.oneHead':
    'W_Q, W_K, W_V und W_O enthalten {weights} Gewichte (4·d_model²), oder {withBiases} mit den Biases b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), bei einem Kopf, der d_model = {dModel} breit ist. Mehr Köpfe teilen diese Spalten unter sich auf, die Zahl bleibt also für jedes h gleich.',
  'explorer.params.heads':
    'W_Q, W_K, W_V und W_O enthalten {weights} Gewichte (4·d_model²), oder {withBiases} mit den Biases b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), egal wie viele Köpfe: nicht h × 4·d_model² = {wrong}, denn die {heads} Köpfe teilen d_model = {dModel} unter sich auf, statt dass jeder Matrizen in voller Größe bekommt.',
  'explorer.params.single':
    'Dieser einzelne Kopf hat W_Q und W_K (d_model × d_k = {dModel} × {dk}) und W_V ({dModel} × {dv}): {count} Parameter (d_model·(2d_k + d_v)), und kein W_O: seine Ausgabe ist die des Kopfes selbst. Eine Schicht mit einem Kopf (nn.MultiheadAttention mit num_heads = 1) macht jedes W d_model breit und fügt W_O hinzu: {layerCount} Parameter (4·d_model²).',
  'explorer.params.singleBiases':
    'Dieser einzelne Kopf hat W_Q und W_K (d_model × d_k = {dModel} × {dk}) und W_V ({dModel} × {dv}) mit ihren Biases: {count} Parameter (d_model·(2d_k + d_v) + 2d_k + d_v), und kein W_O: seine Ausgabe ist die des Kopfes selbst. Eine Schicht mit einem Kopf (nn.MultiheadAttention mit num_heads = 1) macht jedes W d_model breit und fügt W_O hinzu: {layerCount} Parameter (4·d_model² + 4·d_model).',
  'explorer.export.menu': 'Exportieren',
  'explorer.export.pick': 'Matrix oder Bereich',
  'explorer.export.saveAs': 'Gewählte Matrix oder gewählten Bereich speichern als',
  'explorer.export.png': 'Als PNG-Bild speichern',
  'explorer.export.svg': 'Als SVG-Bild speichern',
  'explorer.export.csv': 'Die Zahlen als CSV speichern (eine Matrix)',
  'explorer.export.json': 'Die Zahlen als JSON speichern',
  'explorer.export.code': 'Das ganze Beispiel als Python-Code',
  'explorer.export.numpy': 'NumPy-Code',
  'explorer.export.numpyTitle': 'Ein NumPy-Skript, das diese Zahlen nachrechnet',
  'explorer.export.pytorch': 'PyTorch-Code',
  'explorer.export.pytorchTitle': 'Ein PyTorch-Skript, das diese Zahlen nachrechnet',
  'explorer.export.script': 'Das ganze Beispiel als Skript:',
  'explorer.export.saved': '{file} gespeichert.',
  'explorer.export.nothing': 'noch nichts zu exportieren',
  'explorer.export.failed': 'Export nicht möglich: {reason}',
  'explorer.export.loadFailed': 'Der Export-Code konnte nicht geladen werden: {reason}',
  'explorer.export.title.Q': 'Queries Q',
  'explorer.export.title.K': 'Keys K',
  'explorer.export.title.V': 'Values V',
  'explorer.export.title.X': 'Token-Vektoren X',
  'explorer.export.title.XM': 'Gedächtnisvektoren X_mem',
  'explorer.export.title.B': 'Bias-Matrix B',
  'explorer.export.title.scores': 'Scores S = Q·Kᵀ',
  'explorer.export.title.scaled': 'Skalierte Scores S′',
  'explorer.export.title.masked': 'Maskierte Scores M',
  'explorer.export.title.weights': 'Aufmerksamkeitsgewichte A = softmax(M)',
  'explorer.export.title.output': 'Ausgabe O = A·V',
  'explorer.export.title.average': 'Mittelwert der Köpfe',
  'explorer.export.title.concat': 'Aneinandergehängte Köpfe',
  'explorer.export.title.mha-output': 'Multi-Head-Ausgabe concat·W_O',
  'explorer.export.title.panel-inputs': 'Bereich Eingaben',
  'explorer.export.title.panel-pipeline': 'Bereich Attention-Schritte',
  'explorer.export.title.panel-heads': 'Bereich Multi-Head',
  'explorer.explain.title': 'Wie wurde diese Zahl berechnet?',
  'explorer.explain.idle':
    'Zeigen Sie auf eine Zelle, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde. In einer Matrix wechseln die Pfeiltasten zwischen den Zellen.',
  'explorer.explain.idleLesson':
    'Zeigen Sie auf eine Zahl dieser Lektion, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde.',
  'explorer.explain.hide': 'Ausblenden',
  'explorer.explain.show': 'Einblenden',
  'explorer.explain.hideLabel': 'Erklärung ausblenden',
  'explorer.explain.showLabel': 'Erklärung einblenden',
  'explorer.explain.ofHead': ' (Kopf {k})',
  'explorer.explain.terms': '({count} Terme)',
  'explorer.explain.reason.bias': 'Bias-Matrix: B[{i},{j}] = −∞',
  'explorer.explain.reason.causal': 'kausale Maske: Key {j} ({key}) kommt nach Query {i}, liegt also in der Zukunft',
  'explorer.explain.reason.padding': 'Padding-Maske: Key {j} ist ein [PAD]-Token, verborgen vor jeder Query',
  'explorer.explain.reason.custom':
    'eigene Maske: dieses Paar wurde per Klick verborgen (erneut klicken, um es zu zeigen)',
  'explorer.explain.reason.masked': 'maskiert',
  'explorer.explain.scores.sum': '{cell} = Σ über dₖ = {dk} Dimensionen',
  'explorer.explain.scores.meaning':
    'Wie gut Key {key} zu dem passt, wonach Query {query} sucht{head}. Groß und positiv: eine starke Übereinstimmung.',
  'explorer.explain.scores.title': 'Score: {query} → {key}',
  'explorer.explain.scaled.none': '1 (keine Skalierung)',
  'explorer.explain.scaled.scale': 'Skalierung = {how} = {scale}',
  'explorer.explain.scaled.title': 'Skalierter Score: {query} → {key}',
  'explorer.explain.masked.title': 'Nach der Maske: {query} → {key}',
  'explorer.explain.masked.titleBias': 'Nach Bias und Maske: {query} → {key}',
  'explorer.explain.masked.hidden': 'Verborgen durch: {reason}.',
  'explorer.explain.masked.thenMask': '{how}, dann macht die Maske daraus −∞',
  'explorer.explain.masked.zero': '{how}  →  exp(−∞) = 0, dieser Key bekommt also genau das Gewicht null.',
  'explorer.explain.masked.infNote':
    'Ein −∞ in B verbirgt ein Paar genau wie eine boolesche Maske; eine große negative Zahl wie −10000 tut das nur fast (eine Zeile davon teilt ihr Gewicht trotzdem auf).',
  'explorer.explain.masked.noMask': 'Es wird keine Maske angewandt: der skalierte Score geht unverändert durch.',
  'explorer.explain.masked.visible': 'Dieses Paar ist sichtbar: der skalierte Score geht unverändert durch.',
  'explorer.explain.masked.bias':
    'Die Bias-Matrix B wird vor dem Softmax zum skalierten Score addiert: Score + Bias = maskierter Score.',
  'explorer.explain.masked.negative':
    'Ein negativer Bias senkt das Gewicht dieses Keys um den Faktor {power} = {factor}, bevor die Zeile normiert wird.',
  'explorer.explain.softmax.hidden': 'Dieser Key ist verborgen: {cell} exakt.',
  'explorer.explain.softmax.hiddenKeys': {
    one: '{count} verborgener Key trägt e^−∞ = 0 zur Summe bei.',
    other: '{count} verborgene Keys tragen e^−∞ = 0 zur Summe bei.',
  },
  'explorer.explain.softmax.stable':
    '(Der Kern zieht vor exp das Zeilenmaximum ab; das Verhältnis bleibt gleich und nichts läuft über.)',
  'explorer.explain.weights.rowInf': 'Zeile {row} von M ist überall −∞ ({reason}, und so für jeden Key).',
  'explorer.explain.weights.allHidden':
    'Jeder Key ist vor Query {query} verborgen. Ein Softmax über nichts wäre 0 / 0 = NaN; der Kern markiert die Zeile und gibt ihr stattdessen nur Nullgewichte und eine Ausgabe von null.',
  'explorer.explain.weights.titleMasked': 'Gewicht: {query} → {key} (Zeile vollständig maskiert)',
  'explorer.explain.weights.row':
    'Zeile {query}: Summe = {sum}, Maximum = {max}, Entropie H = {entropy} nats (gleichmäßig über {m} wäre ln {m} = {uniform}).',
  'explorer.explain.weights.title': 'Gewicht: wie stark {query} auf {key} achtet{head}',
  'explorer.explain.output.sum': 'O[{i},{j}] = Σ über die Keys von A[{i},Key] × V[Key,{j}]',
  'explorer.explain.output.none': 'Diese Query sieht keinen Key, ihre Ausgabezeile ist also nur Nullen.',
  'explorer.explain.output.average':
    'Ein gewichteter Mittelwert von Spalte {col} von V: die Ausgabe liegt immer zwischen dem kleinsten und dem größten Value.',
  'explorer.explain.output.title': 'Ausgabe von {query}, Dimension {col}{head}',
  'explorer.predict.lead': 'Erst vorhersagen: ',
  'explorer.predict.check': 'Meine Antwort prüfen',
  'explorer.predict.again': 'Noch einmal fragen',
  'explorer.predict.cover': 'Verborgen, bis Sie antworten',
  'explorer.predict.pickFirst': 'Wählen Sie zuerst eine Antwort.',
  'explorer.predict.right': 'Richtig.',
  'explorer.predict.wrong': 'Nicht ganz.',
  'explorer.predict.topKey.none': 'jede Query sieht hier weniger als zwei Keys, es gibt also nichts zu wählen.',
  'explorer.predict.topKey.question': 'welcher Key bekommt das größte Gewicht von der Query {query} (Zeile {row})?',
  'explorer.predict.topKey.hint':
    'Die Gewichte sind der Softmax der Score-Zeile: überlegen Sie, welcher Score am größten ist.',
  'explorer.predict.topKey.right':
    '{key} bekommt {weight} der Attention von {query}: der Softmax erhält die Reihenfolge der Scores, der größte Score bekommt also das größte Gewicht.',
  'explorer.predict.topKey.wrong':
    'Sie haben {guess} gewählt ({guessWeight}); {key} bekommt am meisten, {weight}. Der Softmax erhält die Reihenfolge der Scores: der größte Score der Zeile bekommt das größte Gewicht.',
  'explorer.predict.rowSum.exactly-1': 'genau 1',
  'explorer.predict.rowSum.less-than-1': 'weniger als 1',
  'explorer.predict.rowSum.more-than-1': 'mehr als 1',
  'explorer.predict.rowSum.question':
    'wenn die Maske nach dem Softmax angewandt wird (der Fehler): was ergibt die Summe der Zeile von {query} (Zeile {row}) der Gewichte?',
  'explorer.predict.rowSum.hint':
    'Die Maske ist: {mask}. Der Softmax läuft zuerst über jeden Key, dann werden verborgene Gewichte auf 0 gesetzt.',
  'explorer.predict.rowSum.whyLess':
    'Der Softmax hat einen Teil der Zeile schon den verborgenen Keys gegeben; wer sie danach auf null setzt, wirft diesen Teil weg, und nichts normiert den Rest neu.',
  'explorer.predict.rowSum.whyAll':
    'Diese Zeile verbirgt keinen Key, das Nullsetzen verborgener Gewichte nach dem Softmax nimmt also nichts weg. Zeilen, die Keys verbergen, summieren sich zu weniger als 1.',
  'explorer.predict.rowSum.sums': 'Die Zeile von {query} ergibt in Summe {sum}.',
  'explorer.predict.entropy.unscaled': 'ohne √dₖ (die rohen Scores)',
  'explorer.predict.entropy.scaled': 'mit √dₖ (die Scores geteilt durch √dₖ)',
  'explorer.predict.entropy.same': 'gleich',
  'explorer.predict.entropy.question':
    'eine Zeile aus {row} Scores (q·k mit dₖ = {dk}) geht zweimal durch einen Softmax: so wie sie ist und geteilt durch √dₖ = {sqrt}. Welche Gewichte sind gleichmäßiger verteilt (die höhere Entropie)?',
  'explorer.predict.entropy.hint':
    'Die Histogramme unten zeigen, wie weit die Scores vor und nach der Division streuen.',
  'explorer.predict.entropy.why.scaled':
    'Ohne die Division streuen die Scores etwa √{dk}-mal weiter, der Softmax legt also fast alles auf den größten (größtes Gewicht {maxRaw}, Entropie {raw} nats). Geteilt durch √dₖ bleibt die Zeile weich: Entropie {scaled} nats, größtes Gewicht {maxScaled}.',
  'explorer.predict.entropy.why.same':
    'Mit dₖ = {dk} ist √dₖ = 1: die Division ändert nichts (Entropie {raw} nats in beiden Fällen).',
  'explorer.predict.entropy.why.unscaled':
    'Hier hat die rohe Zeile die Entropie {raw} nats und die skalierte {scaled}.',
  'explorer.export.option': '{title} [{id}]',
  'explorer.notice.unknownPreset':
    'Es gibt kein Beispiel namens „{name}“. Stattdessen wird das Standardbeispiel gezeigt.',
  'explorer.notice.badLink':
    'Das Beispiel dieses Links konnte nicht geöffnet werden: {reason}. Stattdessen wird das Standardbeispiel gezeigt.',
  'explorer.notice.badState':
    'Das Beispiel konnte nicht geöffnet werden: {reason}. Stattdessen wird das Standardbeispiel gezeigt.',
  'explorer.notice.badStart': 'Einige Startzahlen konnten nicht verwendet werden: {reasons}.',
  'explorer.notice.unknownPresetKept':
    'Es gibt kein Beispiel namens „{name}“. Das gezeigte Beispiel bleibt unverändert.',
  'explorer.notice.badLinkKept':
    'Das Beispiel dieses Links konnte nicht geöffnet werden: {reason}. Das gezeigte Beispiel bleibt unverändert.',
  'explorer.explain.head.text':
    'Kopf {k} rechnet dasselbe softmax(QₕKₕᵀ/√dₕ)Vₕ auf seinem eigenen Ausschnitt von {width} Spalten aus Q, K und V. Klicken (oder Enter), um die Schritte dieses Kopfes zu zeigen.',
  'explorer.explain.head.title': 'Kopf {k}: {query} → {key}',
  'explorer.explain.average.text':
    'Der Mittelwert über die Köpfe, den torch.nn.MultiheadAttention standardmäßig zurückgibt (average_attn_weights=True).',
  'explorer.explain.average.title': 'Mittelwert der Köpfe: {query} → {key}',
  'explorer.explain.concat.text':
    'Die Spalten {from}–{to} enthalten Kopf {k}. Das Aneinanderhängen stellt die Köpfe nur nebeneinander; sie haben noch nicht zusammengewirkt.',
  'explorer.explain.concat.title': 'Aneinandergehängte Köpfe: {query}, Spalte {col}',
  'explorer.explain.mha.sum': '{formula}, über die {columns} Spalten von concat',
  'explorer.explain.mha.text': 'In W_O mischen sich die Köpfe: jedes Ausgabemerkmal liest jeden Kopf.',
  'explorer.explain.mha.title': 'Multi-Head-Ausgabe: {query}, Merkmal {col}',
  'explorer.explain.proj.sum': '{formula}, über d_model = {dModel}',
  'explorer.explain.proj.head': 'Spalte {col} gehört zu Kopf {k}.',
  'explorer.explain.proj.role.Q': 'Zeile {token} von Q: wonach dieses Token sucht.',
  'explorer.explain.proj.role.K': 'Zeile {token} von K: womit dieses Token gefunden werden kann.',
  'explorer.explain.proj.role.V': 'Zeile {token} von V: was dieses Token weitergibt, wenn auf es geachtet wird.',
  'explorer.explain.proj.title': '{title}: Token {token}, Spalte {col}',
  'explorer.explain.input.Q': 'Query {query}: ändert Zeile {i} der Scores.',
  'explorer.explain.input.K': 'Key {key}: ändert Spalte {i} der Scores.',
  'explorer.explain.input.V':
    'Value von {key}: ändert Spalte {j} jeder Ausgabezeile, im Verhältnis dazu, wie stark jede Query auf {key} achtet.',
  'explorer.explain.input.X': 'Merkmal {j} des Vektors von {token}: ändert Zeile {i} von Q, K und V.',
  'explorer.explain.input.W': 'Gewicht vom Eingabemerkmal {i} zu Spalte {j} von {of} (für jedes Token).',
  'explorer.explain.input.WO': 'Gewicht von Spalte {i} der aneinandergehängten Köpfe zum Ausgabemerkmal {j}.',
  'explorer.explain.input.B':
    'Wird vor dem Softmax zum skalierten Score von Query {query} und Key {key} addiert. Tippen Sie -inf, um das Paar zu verbergen; eine Zeile aus −∞ ergibt Gewichte 0 (nicht NaN).',
  'explorer.explain.input.XM':
    'Merkmal {j} des Gedächtnis-Tokens {key}: ändert Zeile {i} von K und V (Keys und Values kommen aus dem Gedächtnis).',
  'explorer.explain.input.bias':
    'Bias von Spalte {j} von {of}: wird für jedes Token zu dieser Spalte addiert ({of} = X·W_{of} + b_{of}).',
  'explorer.explain.input.BO':
    'Bias des Ausgabemerkmals {j}: wird zu jeder Ausgabezeile addiert (eine Query, die keinen Key sieht, gibt b_O aus).',
  'explorer.explain.input.edit':
    'Tippen Sie eine neue Zahl: jeder Schritt unten ändert sich sofort. Pfeiltasten bewegen, Enter übernimmt und geht nach unten, Esc stellt wieder her.',
  'explorer.explain.input.title': 'Eingabe {name}, Zeile {row}, Spalte {col}',
  'explorer.explain.trained.ones':
    'Spalte {col} von X ist für jedes Token 1: sie trifft die letzte Zeile von W_Q, W_K und W_V, den Bias des Kopfes, X·W addiert den Bias also wie das Modell.',
  'explorer.explain.trained.input':
    'Trainierte Eingabe: Merkmal {feature} dessen, was die Attention von Schicht {layer} für {token} sieht (der Residualstrom nach der LayerNorm der Schicht), aus dem Modell nachgerechnet.',
  'explorer.explain.trained.bias':
    'Zeile {row} ist der Bias von Kopf {head}: {name} in der Datei des Modells; sie trifft die Einserspalte von X.',
  'explorer.explain.trained.weight':
    'Trainiertes Gewicht von Kopf {head} (Schicht {layer}): {name} in der Datei des Modells.',
  'explorer.explain.split.same':
    'Spalte {row} der Aneinanderhängung (Spalte {col} von Kopf {head}) geht in Ausgabespalte {to}: dieses W_O verschiebt nur Spalten, zurück an die Stelle, an der der einzelne Kopf sie hatte (siehe Größen).',
  'explorer.explain.split.other':
    'Spalte {row} der Aneinanderhängung (Spalte {col} von Kopf {head}) geht in Ausgabespalte {to}, nicht in {cell}: dieses W_O verschiebt nur Spalten (siehe Größen).',
  'explorer.predict.induction.question':
    'welcher Kopf ist ein Induktionskopf? Urteilen Sie nach den Attention-Karten unten.',
  'explorer.predict.induction.hint':
    'Jede Karte ist eine Probe-Sequenz: BOS, eine Folge von Tokens, dieselbe Folge noch einmal. In der zweiten Kopie achtet ein Induktionskopf auf das Token direkt nach dem früheren Vorkommen des aktuellen Tokens.',
  'explorer.predict.induction.yours': '{head} hat einen Induktionswert von {score}.',
  'explorer.predict.induction.heads':
    'Induktionsköpfe hier (Wert ≥ {threshold}): {list}; der höchste ist {best} mit {score}.',
  'explorer.predict.induction.noneYet': 'noch keine',
  'explorer.predict.induction.why':
    'In der zweiten Kopie schaut ein Induktionskopf auf das Token, das in der ersten Kopie auf dasselbe Token folgte: ein diagonaler Streifen, einen Schritt rechts von der früheren Kopie.',
  'explorer.pixelMap.cell': 'Query {row} „{query}“ → Key {col} „{key}“: {value}',
  'explorer.pixelMap.label':
    '{label}: {rows} × {cols} Gewichte als Bild gezeichnet. Die Pfeiltasten lesen eine Zelle vor.',
  'explorer.pixelMap.labelPooled':
    '{label}: {rows} × {cols} Gewichte als Bild gezeichnet (jedes Pixel das größte von etwa {across} × {down} Zellen). Die Pfeiltasten lesen eine Zelle vor.',
  'explorer.pixelMap.idle':
    'Zeigen Sie auf die Karte oder fokussieren Sie sie und nutzen Sie die Pfeiltasten, um eine Zelle zu lesen.',
  'explorer.headSplit.each': 'je {count}',
  'explorer.headSplit.eachRange': 'je {low} oder {high}',
  'explorer.headSplit.padded': ', am Anfang seiner {columns} Spalten; die übrigen sind 0',
  'explorer.headSplit.split':
    'Die {dk} Spalten von W_Q und W_K und die {dv} von W_V des einzelnen Kopfes wurden auf die {heads} Köpfe aufgeteilt ({each}{padded}): Die rohen Scores QKᵀ der Köpfe ergeben zusammen die des einzelnen Kopfes.',
  'explorer.headSplit.identity':
    'W_O ist die Identität: Sie bringt die Value-Spalten der Köpfe in die Reihenfolge des einzelnen Kopfes zurück; hätte jeder Kopf wie der einzelne Kopf gewichtet, wären die ersten {dv} Spalten der Ausgabe dessen Ausgabe.',
  'explorer.headSplit.permutation':
    'W_O ist eine Permutation: Sie bringt die Value-Spalten der Köpfe in die Reihenfolge des einzelnen Kopfes zurück; hätte jeder Kopf wie der einzelne Kopf gewichtet, wären die ersten {dv} Spalten der Ausgabe dessen Ausgabe.',
};
