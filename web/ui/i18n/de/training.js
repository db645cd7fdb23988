// Die Trainingsansicht. Glossar dieses Teils (zusätzlich zu common.js): layer = Schicht;
// step = Schritt; loss = Loss; induction head = Induktionskopf; previous-token head =
// Vorgänger-Kopf; duplicate-token head = Duplikat-Kopf; probe = Testsequenz; ablate = abschalten;
// prompt = Prompt; cache = Cache; learning rate = Lernrate; seed = Seed.
export default {
  // Controls
  'training.controls.title': 'Einen winzigen Transformer trainieren',
  'training.task.legend': 'Aufgabe',
  'training.task.repeated': 'Wiederholte zufällige Token',
  'training.task.text': 'Text, Zeichen für Zeichen',
  'training.task.textPlaceholder': 'Leer: die mitgelieferten Kurzgeschichten (etwa 6.000 Zeichen, auf Englisch)',
  'training.task.textLabel': 'Ihr Text (optional)',
  'training.task.explain.repeated':
    'Wiederholte zufällige Token: eine zufällige Folge von Token, dann dieselbe Folge noch einmal. Die erste Kopie lässt sich nicht vorhersagen; die zweite schon, indem man nachsieht, was beim letzten Mal auf das aktuelle Token folgte. Genau das ist die Aufgabe eines Induktionskopfs.',
  'training.task.explain.text':
    'Text, Zeichen für Zeichen: das nächste Zeichen einer Kurzgeschichte (oder Ihres eigenen Texts) vorhersagen. Ein Modell kann Schreibweisen und häufige Wörter lernen und einen wiederholten Namen von weiter vorn kopieren.',
  'training.model.legend': 'Modell und Optimierer',
  'training.setting.layers': 'Schichten',
  'training.setting.heads': 'Köpfe pro Schicht',
  'training.setting.dModelHint': 'ein Vielfaches der Köpfe',
  'training.setting.lr': 'Lernrate (Adam)',
  'training.setting.batch': 'Batch',
  'training.setting.seed': 'Seed',
  'training.setting.mlp': 'MLP in jedem Block (aus: nur Attention)',
  'training.setting.layerNorm': 'LayerNorm',
  'training.setting.positions': 'Positionen',
  'training.setting.kvHeads': 'Key/Value-Köpfe',
  'training.setting.kvHeadsHint': 'von den Query-Köpfen geteilt: ein kleinerer KV-Cache',
  'training.setting.windowSize': 'Attention-Fenster',
  'training.setting.windowSizeHint': '0 = keines; sonst sieht jedes Token nur die letzten W',
  'training.positions.learned': 'Gelernt (die Tabelle der Positionsvektoren von GPT-2)',
  'training.positions.none': 'Keine (nur die kausale Maske)',
  'training.positions.rope': 'RoPE (q und k um ihre Position gedreht)',
  'training.positions.alibi': 'ALiBi (eine mit dem Abstand wachsende Strafe)',
  'training.kvHeads.mha': '{k} (MHA: einer pro Kopf)',
  'training.kvHeads.mqa': '{k} (MQA: einer für alle)',
  'training.kvHeads.gqa': '{k} (GQA: je {share} Köpfe teilen sich einen)',
  'training.action.train': 'Trainieren',
  'training.action.pause': 'Pause',
  'training.action.step': 'Ein Schritt',
  'training.action.reset': 'Zurücksetzen',
  'training.action.defaults': 'Standardwerte',

  // Run status
  'training.status.building': 'Das Modell wird gebaut…',
  'training.status.ready': '{parameters} Parameter. Drücken Sie „Trainieren“.',
  'training.status.readyMainThread':
    '{parameters} Parameter. Drücken Sie „Trainieren“. Das Training läuft in kurzen Abschnitten im eigenen Thread dieser Seite: Dieser Frame kann keinen Worker starten.',
  'training.status.step': 'Schritt {step}: Loss {loss}',
  'training.status.stepPaused': 'Schritt {step}: Loss {loss} (pausiert)',
  'training.status.loaded': 'Schritt {step}: trainierte Parameter geladen. „Trainieren“ macht mit ihnen weiter.',
  'training.status.error': 'Das Training wurde angehalten: {reason}',

  // Line charts
  'training.chart.step': 'Schritt {step}',
  'training.chart.range': 'Schritte 0–{last}',

  // Loss panel
  'training.loss.title': 'Loss',
  'training.loss.rate': '{rate} Schritte/s',
  'training.loss.chart': 'Loss über die Schritte (Kreuzentropie, Nats)',
  'training.loss.series.train': 'Trainings-Batch',
  'training.loss.series.repeated': 'wiederholte Hälfte (Testsequenzen)',
  'training.loss.series.all': 'ganze Sequenz (Testsequenzen)',
  'training.loss.series.probe': 'Testsequenzen',
  'training.loss.uniform': 'gleichverteiltes Raten, {lnV}',
  'training.loss.hint.text':
    'Ein Modell, das das nächste Zeichen gleichverteilt unter den V = {V} Zeichen rät, verliert {lnV} Nats pro Zeichen (die Strich-Punkt-Linie); jedes Nat weniger ist Wissen über den Text.',
  'training.loss.hint.repeated':
    'Das Modell trainiert nur auf der wiederholten Hälfte (durchgezogene Linie): Sie lässt sich perfekt vorhersagen, und der Absturz ihres Loss ist der Induktionskopf, der entsteht. Die ganze Sequenz (gestrichelt) bewertet auch die erste Kopie, die zufällig ist, und das Füllzeichen nach der zweiten: Das kann kein Modell vorhersagen. Gleichverteiltes Raten unter den V = {V} Token verlöre dort {lnV} Nats pro Token (die Strich-Punkt-Linie), aber dieses Modell trainiert nie auf diesen Positionen und rät sie, sobald es kopiert, mit Überzeugung; ein überzeugter falscher Tipp kostet mehr als ein gleichverteilter, daher kann der Loss der ganzen Sequenz über {lnV} steigen, während der der wiederholten Hälfte fällt.',
  'training.loss.general.title': 'Verallgemeinerung',
  'training.loss.general.idle': 'Trainieren Sie ein paar hundert Schritte, um zu vergleichen.',
  'training.loss.general.real':
    'Bester Induktions-Score auf trainierten Wiederholungslängen: {trained} (Loss {trainedLoss}); auf nie gesehenen Längen ({lengths}): {heldOut} (Loss {heldOutLoss}). Es kopiert also in jedem Abstand, was beim letzten Mal folgte: ein echter Induktionskopf.',
  'training.loss.general.memorised':
    'Bester Induktions-Score auf trainierten Wiederholungslängen: {trained} (Loss {trainedLoss}); auf nie gesehenen Längen ({lengths}): {heldOut} (Loss {heldOutLoss}). Auf den neuen Längen ist es also viel schlechter: Es hat vielleicht Perioden auswendig gelernt.',
  'training.loss.general.none':
    'Bester Induktions-Score auf trainierten Wiederholungslängen: {trained} (Loss {trainedLoss}); auf nie gesehenen Längen ({lengths}): {heldOut} (Loss {heldOutLoss}). Also noch kein Induktionskopf.',

  // Head cards
  'training.heads.title': 'Jeder Kopf, auf einer Testsequenz',
  'training.heads.note':
    'Ein Kopf bekommt einen Namen, sobald ein Score seine Schwelle überschreitet: Vorgänger ≥ {previousToken}, Induktion ≥ {induction}. Die Scores werden auf {probes} Testsequenzen gemessen; die Karte zeigt die erste.',
  'training.head.title': 'Schicht {layer} · Kopf {head}',
  'training.head.chart': 'Schicht {layer} · Kopf {head}: Scores über die Schritte',
  'training.head.map': 'Schicht {layer} · Kopf {head}: Attention auf der Testsequenz (Zeilen: Queries, Spalten: Keys)',
  'training.head.ablate': 'Abschalten',
  'training.head.restore': 'Wiederherstellen',
  'training.head.ablateTitle': 'Die Ausgabe dieses Kopfs auf null setzen und sehen, was Loss und Scores verlieren',
  'training.head.open': 'Im Explorer öffnen',
  'training.head.label.induction': 'Induktionskopf',
  'training.head.label.previousToken': 'Vorgänger-Kopf',
  'training.head.label.duplicateToken': 'Duplikat-Kopf',
  'training.score.previousToken': 'Vorgänger',
  'training.score.induction': 'Induktion',
  'training.score.duplicateToken': 'Duplikat',
  'training.score.previousToken.short': 'vorh.',
  'training.score.induction.short': 'Induktion',
  'training.score.duplicateToken.short': 'dupl.',

  // Ablation
  'training.ablation.drop': '{head} {score} {before} → {after}',
  'training.ablation.drops': 'Ohne {heads}: Loss der Testsequenzen {before} → {after}. Verlorene Scores: {drops}.',
  'training.ablation.none':
    'Ohne {heads}: Loss der Testsequenzen {before} → {after}. Kein Kopf verliert mehr als 0,05 eines Scores.',

  // Your text
  'training.yourText.title': 'Ihr Text',
  'training.yourText.label': 'Tippen Sie einen Satz: Das Textmodell liest ihn Zeichen für Zeichen',
  'training.yourText.hint':
    'Jedes Zeichen ist ein Token (höchstens {max}, die Kontextlänge des Modells). Zeilen sind Queries, Spalten die Keys, auf die jede achtet; die Scores werden auf Ihrem Text gemessen. Das Modell kennt diese {count} Zeichen: {known}.',
  'training.yourText.space': 'Leerzeichen',
  'training.yourText.newLine': 'Zeilenumbruch',
  'training.yourText.empty': 'Tippen Sie mindestens ein Zeichen.',
  'training.yourText.map': 'Schicht {layer} · Kopf {head}: Attention auf Ihrem Text (Zeilen: Queries, Spalten: Keys)',
  'training.yourText.building': 'Das Modell wird noch gebaut.',
  'training.yourText.unreadable': 'Das Modell kann diesen Text nicht lesen: {reason}',
  'training.yourText.failed': 'Das Modell konnte Ihren Text nicht lesen: {reason}',
  'training.chars.pair': '„{typed}“ als „{read}“',
  'training.chars.replaced': 'Nicht im Vokabular des Modells, daher als anderes Zeichen gelesen: {list}.',
  'training.chars.replacedMore': {
    one: 'Nicht im Vokabular des Modells, daher als anderes Zeichen gelesen: {list} und {count} weiteres.',
    other: 'Nicht im Vokabular des Modells, daher als anderes Zeichen gelesen: {list} und {count} weitere.',
  },
  'training.chars.clamped.context':
    'Nur die ersten {max} Ihrer {total} Zeichen werden gezeigt: Die Kontextlänge des Modells ist {max}.',
  'training.chars.clamped.room':
    'Nur die ersten {max} Ihrer {total} Zeichen werden gezeigt: Der Prompt muss Platz für neue Token lassen.',

  // Trained examples and model files
  'training.examples.title': 'Trainierte Beispiele und Modelldateien',
  'training.examples.hint':
    'Checkpoints, die mit dem eigenen Trainer dieser Seite trainiert wurden (npm run train-examples): Sie öffnen sofort, mit benannten Köpfen.',
  'training.examples.open.induction': 'Das Induktionsmodell öffnen',
  'training.examples.open.text': 'Das Textmodell öffnen',
  'training.examples.about.induction':
    'Induktionsmodell: 2 Schichten, nur Attention, trainiert auf wiederholten zufälligen Token',
  'training.examples.about.text':
    'Textmodell: 2 Schichten mit je 2 Köpfen, nur Attention, Zeichen für Zeichen auf den mitgelieferten Geschichten trainiert',
  'training.examples.yourself': 'Selbst trainieren',
  'training.examples.save': 'Das Modell speichern (.safetensors)',
  'training.examples.openFile': 'Eine Modelldatei öffnen',
  'training.examples.unknown': 'Es gibt kein trainiertes Beispiel namens „{name}“.',
  'training.examples.loading': 'Wird geladen…',
  'training.examples.opened.induction':
    'Induktionsmodell: 2 Schichten, nur Attention, trainiert auf wiederholten zufälligen Token; {steps} Schritte (Seed {seed}).',
  'training.examples.opened.text':
    'Textmodell: 2 Schichten mit je 2 Köpfen, nur Attention, Zeichen für Zeichen auf den mitgelieferten Geschichten trainiert; {steps} Schritte (Seed {seed}).',
  'training.examples.failed': 'Das trainierte Beispiel konnte nicht geöffnet werden: {reason}',
  'training.examples.retraining':
    'Dieselben Einstellungen werden von vorn trainiert: Die Köpfe sollten um Schritt {step} wieder auftauchen.',
  'training.examples.saveFailed': 'Das Modell konnte nicht gespeichert werden: {reason}',
  'training.examples.fileFailed': '{name} konnte nicht geöffnet werden: {reason}',
  'training.examples.fileOpened': '{name} geöffnet.',
  'training.examples.theFile': 'die Datei',
  'training.examples.noSettings':
    'Die Metadaten enthalten keine Einstellungen (speichern Sie Modelle mit dieser Seite)',
  'training.examples.badSettings': 'Die Einstellungen in ihren Metadaten sind kein JSON',

  // Attention import
  'training.import.title': 'Die Attention Ihres eigenen Modells',
  'training.import.button': 'Attention-JSON importieren',
  'training.import.hint': 'Eine Datei {format}, jede Zeile ein Softmax, z. B. von GPT-2 mit output_attentions=True:',
  'training.import.snippet': 'Python, das eine solche Datei schreibt',
  'training.import.limits':
    'Grenzen: Dateien bis {megabytes} MB, höchstens {tokens} Token, insgesamt {heads} Köpfe und {weights} Gewichte. Karten mit mehr als {tableTokens} Token (oder sehr vielen Köpfen) werden als Bilder gezeichnet: Zeigen Sie auf eine oder fokussieren Sie sie und nutzen Sie die Pfeiltasten, um eine Zelle zu lesen.',
  'training.import.cancel': 'Abbrechen',
  'training.import.progress': 'Fortschritt des Imports',
  'training.import.theFile': 'die Datei',
  'training.import.reading': '{name} wird gelesen…',
  'training.import.done': '{name}: {layers} Schichten, {heads} Köpfe, {tokens} Token.',
  'training.import.failed': '{name} konnte nicht importiert werden: {reason}.',
  'training.import.cancelled': 'Import abgebrochen; was vorher gezeigt wurde, bleibt.',
  'training.import.map': 'Importiert: Schicht {layer} · Kopf {head}, Attention (Zeilen: Queries, Spalten: Keys)',

  // The attention file's problems (attention-json.js)
  'training.json.kind.string': 'ein String',
  'training.json.kind.array': 'ein Array',
  'training.json.kind.object': 'ein Objekt',
  'training.json.kind.boolean': 'true oder false',
  'training.json.kind.null': 'null',
  'training.json.kind.number': 'eine Zahl',
  'training.json.notJson.endsInString': 'die Datei ist kein JSON (sie endet mitten in einem String)',
  'training.json.notJson.unclosed': 'die Datei ist kein JSON (sie endet, bevor ihr Objekt geschlossen ist)',
  'training.json.notJson.empty': 'die Datei ist kein JSON (sie ist leer)',
  'training.json.notJson.trailing': 'die Datei ist kein JSON (nach ihrem Objekt folgt noch etwas, bei "{at}")',
  'training.json.notJson.fieldName': 'die Datei ist kein JSON (ein Feldname erwartet, "{found}" gefunden)',
  'training.json.notJson.colon': 'die Datei ist kein JSON (":" nach einem Feldnamen erwartet, "{found}" gefunden)',
  'training.json.notJson.comma': 'die Datei ist kein JSON ("," oder "{closer}" erwartet, "{found}" gefunden)',
  'training.json.notJson.unexpected': 'die Datei ist kein JSON (unerwartet: "{at}")',
  'training.json.notJson.badString': 'die Datei ist kein JSON (ein fehlerhafter String: {at})',
  'training.json.notJson.badNumber': 'die Datei ist kein JSON (eine fehlerhafte Zahl bei "{at}")',
  'training.json.longString': 'die Datei enthält einen String mit mehr als {max} Zeichen',
  'training.json.nested': 'die Datei ist tiefer als {max} Ebenen verschachtelt',
  'training.json.notObject': 'die Datei muss ein Objekt { "tokens": [...], "attentions": [...] } enthalten',
  'training.json.tokensTwice': 'die Datei enthält "tokens" zweimal',
  'training.json.tokensArray': '"tokens" muss ein nicht leeres Array von Strings sein',
  'training.json.attentionsTwice': 'die Datei enthält "attentions" zweimal',
  'training.json.attentionsArray': '"attentions" muss ein nicht leeres Array sein: [layer][head][query][key]',
  'training.json.tokenString': '{where} muss ein String sein',
  'training.json.headsArray': '{where} muss ein nicht leeres Array von Köpfen sein',
  'training.json.rows': '{where} muss {rows} Zeilen haben (eine pro Token), gefunden: {got}',
  'training.json.rowPerToken': '{where} muss eine Zeile pro Token haben, gefunden: {got}',
  'training.json.numbers': '{where} muss {numbers} Zahlen haben, gefunden: {got}',
  'training.json.numberPerToken': '{where} muss eine Zahl pro Token haben, gefunden: {got}',
  'training.json.weight': '{where} muss eine Zahl ≥ 0 sein, gefunden: {got}',
  'training.json.rowSum': '{where} hat die Summe {sum}; Attention-Zeilen summieren sich zu 1 (ist das ein Softmax?)',
  'training.json.tooManyLayers': 'die Datei hat mehr als {max} Schichten',
  'training.json.tooManyHeads': 'die Datei hat mehr als {max} Köpfe; höchstens {max} können gezeigt werden',
  'training.json.tooManyRows': '{where} hat mehr als {max} Zeilen; höchstens {max} Token können gezeigt werden',
  'training.json.tooManyTokens': '"tokens" hat mehr als {max} Token; höchstens {max} können gezeigt werden',
  'training.json.longToken': '{where} ist länger als {max} Zeichen',
  'training.json.tooManyNumbers': '{where} hat mehr als {max} Zahlen',
  'training.json.tooManyWeights': 'die Datei hat mehr als {max} Attention-Gewichte',
  'training.json.longNumber': 'die Datei enthält eine Zahl mit mehr als {max} Zeichen',
  'training.json.tooLarge': 'die Datei ist {size} MB groß; der Import liest Dateien bis höchstens {max} MB',
  'training.json.notUtf8': 'die Datei ist kein UTF-8-Text',

  // Generate
  'training.generate.title': 'Generieren',
  'training.generate.none':
    'Noch kein Modell: Trainieren Sie eines, öffnen Sie ein trainiertes Beispiel oder einen Checkpoint.',
  'training.generate.ready': 'Setzt Ihren Prompt fort mit {name}.',
  'training.generate.name.text': 'dem zeichenweisen Modell dieser Ansicht',
  'training.generate.name.repeated': 'dem Modell wiederholter Token dieser Ansicht',
  'training.generate.model': 'Modell',
  'training.generate.model.view': 'Das Modell dieser Ansicht',
  'training.generate.model.checkpoint': 'Der geöffnete Checkpoint',
  'training.generate.prompt': 'Prompt',
  'training.generate.count': 'Neue Token',
  'training.generate.temperature': 'Temperatur',
  'training.generate.temperatureHint': '0 = Greedy',
  'training.generate.topK': 'Top-k',
  'training.generate.topKHint': '0 = jedes Token',
  'training.generate.seed': 'Seed',
  'training.generate.layer': 'Gezeigte Schicht',
  'training.generate.head': 'Gezeigter Kopf (Caches)',
  'training.generate.layerOption': 'Schicht {n}',
  'training.generate.headOption': 'Kopf {n}',
  'training.generate.headRow': 'Kopf {n}',
  'training.generate.greedy': 'Greedy (immer das wahrscheinlichste Token)',
  'training.generate.check': 'Jedes Token mit einem vollen Durchlauf prüfen',
  'training.generate.generate': 'Generieren',
  'training.generate.step': 'Schritt',
  'training.generate.stop': 'Stopp',
  'training.generate.explainIdle':
    'Zeigen Sie auf eine Zahl eines generierten Tokens, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde.',
  'training.generate.explainTitle': 'Wie wurde diese Zahl berechnet?',
  'training.generate.noPrompt': 'Geben Sie zuerst einen Prompt ein.',
  'training.generate.notNumber': '{field}: Geben Sie zuerst eine Zahl von {min} bis {max} ein.',
  'training.generate.fieldNote': '{field}: {note}',
  'training.generate.running': 'Token {made} von {total}…',
  'training.generate.ended.done': { one: '{count} Token generiert.', other: '{count} Token generiert.' },
  'training.generate.ended.length': {
    one: '{count} Token generiert: Der Kontext des Modells ist voll.',
    other: '{count} Token generiert: Der Kontext des Modells ist voll.',
  },
  'training.generate.ended.cancelled': {
    one: 'Nach {count} Token angehalten.',
    other: 'Nach {count} Token angehalten.',
  },
  'training.generate.ended.modelChanged': {
    one: 'Nach {count} Token angehalten: Das Modell hat sich geändert (Training oder ein neues Modell).',
    other: 'Nach {count} Token angehalten: Das Modell hat sich geändert (Training oder ein neues Modell).',
  },
  'training.generate.failed': 'Die Generierung wurde angehalten: {reason}',
  'training.generate.shown': 'Gezeigt werden die letzten {shown} von {total} Positionen.',
  'training.generate.bytes':
    'Cache: {bytes} Bytes = 2 · {layers} Schichten · {kvHeads} Key/Value-Köpfe · head_dim {headDim} · {kept} Positionen · 4 Bytes.',
  'training.generate.bytesValue': '{bytes} B',
  'training.generate.ms': '{ms} ms',
  'training.generate.underResolution': 'unter der Auflösung des Timers',
  'training.generate.notMeasured': 'nicht gemessen',
  'training.generate.notChecked': 'nicht geprüft',
  'training.generate.stat.bytes': 'Bytes im Cache',
  'training.generate.stat.cached': 'Mittlere Zeit pro Token mit dem Cache',
  'training.generate.stat.full': 'Mittlere Zeit pro Token, wenn der Präfix neu berechnet wird',
  'training.generate.stat.difference': 'Größte Abweichung, Logits aus dem Cache gegen einen vollen Durchlauf',
  'training.generate.map.attention': 'Die Gewichte der neuen Query über den Cache, jeder Kopf',
  'training.generate.map.keys': 'K-Cache des gezeigten Kopfs',
  'training.generate.map.values': 'V-Cache des gezeigten Kopfs',
  'training.generate.title.attention': 'Schicht {layer}: die Query von „{token}“ über den Cache, jeder Kopf',
  'training.generate.title.keys': 'K-Cache der Schicht {layer}, Key/Value-Kopf {kvHead} (Slot: Token)',
  'training.generate.title.values': 'V-Cache der Schicht {layer}, Key/Value-Kopf {kvHead}',
  'training.prompt.ids': {
    one: '{count} Token: IDs von 0 bis {last} (B = 0, das Start-Token; 1 ist das Füllzeichen).',
    other: '{count} Token: IDs von 0 bis {last} (B = 0, das Start-Token; 1 ist das Füllzeichen).',
  },
  'training.prompt.leftOut': 'Weggelassen, kein Token dieses Modells: {tokens}.',
  'training.prompt.clamped': 'Nur die ersten {max} werden gelesen: Der Prompt muss Platz für neue Token lassen.',
  'training.prompt.chars': { one: '{count} Zeichen, je ein Token.', other: '{count} Zeichen, je ein Token.' },
  'training.prompt.unreadable': 'Das Modell kann diesen Prompt nicht lesen: {reason}',

  // "How was this number computed?" in Generate
  'training.explain.attention.title': 'Schicht {layer}, Kopf {head}: Gewicht auf Position {position}',
  'training.explain.attention.what':
    'Kopf {head} der Schicht {layer}: die Query von {query} (Position {queryPosition}) über den gecachten Key von {key} (Position {keyPosition}), softmax(q·k/√d) über alle Positionen, die der Cache noch hält.',
  'training.explain.attention.window': 'Genau 0: Position {position} hat das Fenster von {window} verlassen.',
  'training.explain.attention.next':
    'Das nächste Token, {token}, wurde aus den Logits gezogen, die dieser Schritt erzeugt hat.',
  'training.explain.cache.titleKeys': 'K-Cache, Slot {slot}, Spalte {column}',
  'training.explain.cache.titleValues': 'V-Cache, Slot {slot}, Spalte {column}',
  'training.explain.cache.what':
    'Slot {slot} hält Position {position} ({token}) des Key/Value-Kopfs {kvHead} in Schicht {layer}: einmal berechnet, als dieses Token angehängt wurde, und von jeder späteren Query gelesen.',
  'training.explain.cache.rope': 'Keys werden gecacht, nachdem RoPE sie gedreht hat, so wie die Köpfe sie verwenden.',
  'training.explain.cache.ring':
    'Mit einem Fenster von {window} liegt Position p in Slot p mod {window}: ein Ringpuffer.',
  'training.explain.bytes.title': 'Bytes im Key/Value-Cache',
  'training.explain.bytes.formula':
    '2 · Schichten · kv_heads · head_dim · behalten · 4 = 2 · {layers} · {kvHeads} · {headDim} · {kept} · 4',
  'training.explain.bytes.result': '= {bytes} B (decoder.cacheBytes)',
  'training.explain.bytes.window':
    'Das Fenster behält höchstens {window} Positionen pro Schicht: Dort hört der Cache auf zu wachsen.',
  'training.explain.bytes.grows': 'Er wächst mit jedem Token um dessen Keys und Values, in jeder Schicht.',
  'training.explain.timing.title': 'Millisekunden pro Token',
  'training.explain.timing.cached': 'mit dem Cache: {ms} ms (Mittel {mean} ms über {count} Token)',
  'training.explain.timing.full': 'Präfix neu berechnet: {ms} ms (Mittel {mean} ms)',
  'training.explain.timing.how':
    'Im Worker mit performance.now() gemessen: decoder.sample schickt das eine neue Token mit dem Cache durch das Modell; model.forward über alle {tokens} Token ist, was ein Modell ohne Cache für dieses Token rechnen müsste. Der Abstand wächst mit der Länge.',
  'training.explain.difference.title': 'Logits aus dem Cache gegen einen vollen Durchlauf',
  'training.explain.difference.formula': 'Maximum über die Token von maxᵥ |logit_cached − logit_full| = {difference}',
  'training.explain.difference.how':
    'Für jedes Token hat der Worker auch model.forward über den ganzen Präfix laufen lassen und dessen letzte Logits mit denen des gecachten Schritts verglichen (je {logits} Logits): dieselben Zahlen bis auf float32-Rundung.',
};
