// Die Lektionen (web/ui/lessons/, ohne die Inferenz-Lektionen). Glossar zusätzlich zu common.js:
// dot product = Skalarprodukt; softmax = Softmax; entropy = Entropie; hull = (konvexe) Hülle;
// projection = Projektion; loss = Verlust; gradient = Gradient; backward pass = Rückwärtsdurchlauf;
// learning rate = Lernrate; nudge = Anstoß; seed = Seed; output = Ausgabe; row = Zeile.
export default {
  'lessons.error.compute': 'Berechnung nicht möglich: {error}',
  'lessons.error.refused': 'Der Kern hat abgelehnt: {error}',

  'lessons.plot.computing': 'Diagramm, wird berechnet',
  'lessons.plot.sigma': '±1 Std.-Abw. = ±{std}',

  'lessons.sqrtDk.intro':
    'Ein Skalarprodukt summiert dₖ Produkte. Hat jeder Eintrag von q und k Mittelwert 0 und Varianz 1, so hat jedes Produkt Varianz 1 und die Summe Varianz dₖ: Ihre Streuung wächst wie √dₖ. Die Division durch √dₖ bringt sie auf 1 zurück, egal wie groß dₖ ist. Hier zieht der Kern die Vektoren (mit dem Generator von NumPy, mit Seed) und misst nach.',
  'lessons.sqrtDk.dkSlider': 'dₖ (Schieberegler, logarithmisch)',
  'lessons.sqrtDk.dkField': 'dₖ, die Länge von q und k',
  'lessons.sqrtDk.pairs': 'Paare N',
  'lessons.sqrtDk.seed': 'Seed',
  'lessons.sqrtDk.row': 'Keys in der Zeile',
  'lessons.sqrtDk.newSeed': 'Neuer Seed',
  'lessons.sqrtDk.rawTitle': 'Rohe Scores q·k',
  'lessons.sqrtDk.rawCaption': 'Std.-Abw. {std} {expected}, Varianz {variance} (Ziel dₖ), Mittelwert {mean}',
  'lessons.sqrtDk.scaledTitle': 'Skalierte Scores q·k / √dₖ',
  'lessons.sqrtDk.scaledCaption': 'Std.-Abw. {std} (Ziel 1), Varianz {variance} (Ziel 1), Mittelwert {mean}',
  'lessons.sqrtDk.rawDescription':
    'Histogramm von {count} rohen Skalarprodukten für dₖ = {dk}: von {lo} bis {hi}, Standardabweichung {std}.',
  'lessons.sqrtDk.scaledDescription':
    'Histogramm derselben {count} Skalarprodukte, geteilt durch √{dk}: Standardabweichung {std}.',
  'lessons.sqrtDk.softRawTitle': 'softmax(Scores), unskaliert',
  'lessons.sqrtDk.softScaledTitle': 'softmax(Scores / √dₖ)',
  'lessons.sqrtDk.softCaption': 'Entropie {entropy} nats, größtes Gewicht {max}',
  'lessons.sqrtDk.uniform': {
    one: 'Zum Vergleich: Gleiche Gewichte auf {count} Key haben die Entropie ln {count} = {entropy} nats; eine One-hot-Zeile hat 0. Nahe 0 gibt die Softmax fast das ganze Gewicht an einen Key, und ihr Gradient verschwindet fast.',
    other:
      'Zum Vergleich: Gleiche Gewichte auf {count} Keys haben die Entropie ln {count} = {entropy} nats; eine One-hot-Zeile hat 0. Nahe 0 gibt die Softmax fast das ganze Gewicht an einen Key, und ihr Gradient verschwindet fast.',
  },
  'lessons.sqrtDk.softIntro':
    'Jetzt eine Zeile Attention: {count} Keys, deren Scores die ersten {count} Skalarprodukte von oben sind (dₖ = {dk}), durch eine Softmax ohne und mit Skalierung.',
  'lessons.sqrtDk.softRawDescription':
    'Softmax von {count} unskalierten Scores: größtes Gewicht {max}, Entropie {entropy} nats.',
  'lessons.sqrtDk.softScaledDescription':
    'Softmax derselben Scores, geteilt durch √{dk}: größtes Gewicht {max}, Entropie {entropy} nats.',
  'lessons.sqrtDk.failed': 'Der Kern konnte keine Stichprobe ziehen: {error}',
  'lessons.sqrtDk.status': '{count} Paare standardnormalverteilter Vektoren der Länge {dk}, Seed {seed}.',
  'lessons.sqrtDk.sampling': '{count} Paare von Vektoren der Länge {dk} werden gezogen…',

  'lessons.pitfalls.intro':
    'Die Q, K und V des Explorers (sein Beispiel und seine Maske), einmal richtig berechnet und einmal mit einem klassischen Fehler. Abweichende Zellen sind umrandet; Σ ist die Summe jeder Zeile.',
  'lessons.pitfalls.mistake': 'Fehler',
  'lessons.pitfalls.useCausal': 'Kausale Maske verwenden',
  'lessons.pitfalls.correct': 'Richtig',
  'lessons.pitfalls.wrong': 'Mit dem Fehler',
  'lessons.pitfalls.weights': 'Aufmerksamkeitsgewichte',
  'lessons.pitfalls.averageWeights': 'Über die Köpfe gemittelte Aufmerksamkeitsgewichte',
  'lessons.pitfalls.output': 'Ausgabe',
  'lessons.pitfalls.headOutput': 'Ausgabe A·V',
  'lessons.pitfalls.layerOutput': 'Ausgabe der Schicht (concat·W_O)',
  'lessons.pitfalls.layerOutputNoWo': 'Ausgabe der Schicht (die Verkettung, ohne W_O)',
  'lessons.pitfalls.weightsLabel': '{side}: Aufmerksamkeitsgewichte',
  'lessons.pitfalls.outputLabel': '{side}: Ausgabe',
  'lessons.pitfalls.rowSum': 'Zeilensumme',
  'lessons.pitfalls.noMask':
    'Dieser Fehler wirkt sich nur aus, wo Keys verborgen sind, und es ist keine Maske gewählt: Beide Seiten sind gleich.',
  'lessons.pitfalls.ownScale':
    'Die richtige Seite verwendet die Skalierung des Explorers (×{scale}); der Fehler ersetzt sie.',
  'lessons.pitfalls.nothing': 'Noch nichts zu vergleichen.',
  'lessons.pitfalls.weightsDiffer': '{count} von {total} Gewichten weichen ab (um bis zu {diff})',
  'lessons.pitfalls.weightsSame': 'Die Gewichte sind gleich',
  'lessons.pitfalls.outputDiffers': '{count} von {total} Ausgabewerten weichen ab (um bis zu {diff})',
  'lessons.pitfalls.outputSame': 'die Ausgabe ist gleich',
  'lessons.pitfalls.rowsShort': {
    one: '{count} Zeile summiert sich auf weniger als 1 (kleinste {smallest})',
    other: '{count} Zeilen summieren sich auf weniger als 1 (kleinste {smallest})',
  },
  'lessons.pitfalls.summary': '{weights}; {output}.',
  'lessons.pitfalls.summaryShort': '{weights}; {output}; {short}.',
  'lessons.pitfalls.mask-after-softmax.label': 'Maske erst nach der Softmax angewandt',
  'lessons.pitfalls.mask-after-softmax.text':
    'Die Softmax läuft über alle Keys, danach werden die verborgenen Gewichte auf 0 gesetzt. Nichts normiert den Rest neu: Eine Zeile mit verborgenen Keys summiert sich auf weniger als 1, und ihre Ausgabe schrumpft Richtung 0.',
  'lessons.pitfalls.mask-value-zero.label': 'Maskenwert 0 statt −∞',
  'lessons.pitfalls.mask-value-zero.text':
    'Verborgene Scores werden 0 statt −∞. Aber e⁰ = 1 ist ein gewöhnliches Gewicht: Verborgene Keys wirken weiter mit und gewinnen, sobald die sichtbaren Scores negativ sind.',
  'lessons.pitfalls.scale-by-dk.label': 'Skalierung mit dₖ statt √dₖ',
  'lessons.pitfalls.scale-by-dk.text':
    'Die Division durch dₖ verkleinert die Scores √dₖ-mal zu stark: Die Gewichte driften zur Gleichverteilung, und das Modell kann sich nicht mehr fokussieren (bei dₖ = 1 kein Unterschied).',
  'lessons.pitfalls.scale-by-dmodel.label': 'Skalierung mit √d_model statt mit √dₖ des Kopfes',
  'lessons.pitfalls.scale-by-dmodel.text':
    'Jeder Kopf summiert über seine eigenen dₖ = d_model / h Merkmale; diese Streuung ist zu korrigieren. Die Division durch √d_model macht die Scores jedes Kopfes √h-mal zu klein.',
  'lessons.pitfalls.skip-wo.label': 'W_O ausgelassen',
  'lessons.pitfalls.skip-wo.text':
    'Die verketteten Köpfe werden unverändert zurückgegeben. Die Gewichte ändern sich nicht, aber jede Ausgabespalte stammt jetzt von nur einem Kopf: Die Köpfe mischen sich nie.',

  'lessons.hull.intro':
    'Jede Ausgabezeile ist ein gewichteter Mittelwert der Value-Vektoren: Die Gewichte sind nie negativ und summieren sich zu 1. Mit zwei Zahlen pro Value (dᵥ = 2) sind die Values Punkte in der Ebene, und jede Ausgabe landet in der Form, die sie aufspannen, ihrer konvexen Hülle. Attention kann nur mischen, was die Values anbieten.',
  'lessons.hull.convert': 'Dieses Beispiel mit dᵥ = 2 verwenden',
  'lessons.hull.tableCaption': 'Ausgaben, vom Kern berechnet',
  'lessons.hull.column.query': 'Query',
  'lessons.hull.column.output': 'Ausgabe (x, y)',
  'lessons.hull.column.inside': 'in der Hülle',
  'lessons.hull.draggable': 'verschiebbarer Punkt',
  'lessons.hull.headDims':
    'Jeder Kopf hat hier {count} Value-Dimensionen. Setzen Sie d_model = 2 × Köpfe (zum Beispiel d_model 8 mit 4 Köpfen) oder übernehmen Sie diesen Kopf in den Q-, K-, V-Modus mit zwei Value-Dimensionen:',
  'lessons.hull.valueDims':
    'Die Values haben hier {count} Dimensionen. Setzen Sie dᵥ = 2 oder übernehmen Sie Q und K dieses Beispiels (und die ersten beiden Spalten von V) in den Q-, K-, V-Modus:',
  'lessons.hull.drag':
    'Ziehen Sie einen Value-Punkt (oder fokussieren Sie ihn und nutzen Sie die Pfeiltasten; Umschalt für kleine Schritte): V ändert sich, und jede Ausgabe bewegt sich mit, ohne die Hülle je zu verlassen.',
  'lessons.hull.fromX':
    'Hier kommen die Values aus X·W_V. Um sie zu ziehen, übernehmen Sie dieses Beispiel in den Q-, K-, V-Modus:',
  'lessons.hull.legend':
    'Kreise: die Values v₁…{last}; Rauten: die Ausgaben. Linien: die Gewichte von „{query}“ (dicker = mehr Gewicht); wählen Sie eine andere Ausgabe, um deren Gewichte zu sehen.',
  'lessons.hull.outside': {
    one: '{count} Ausgabe liegt außerhalb der Hülle.',
    other: '{count} Ausgaben liegen außerhalb der Hülle.',
  },
  'lessons.hull.inside': 'Alle {count} Ausgaben liegen in der Hülle der {values} Values.',
  'lessons.hull.plotLabel':
    'Value-Vektoren als Punkte, ihre konvexe Hülle mit {corners} Ecken und die {count} Ausgaben darin',
  'lessons.hull.valuePoint': '{name}: der Value von {key}, bei {point}',
  'lessons.hull.valuePointDrag':
    '{name}: der Value von {key}, bei {point}. Pfeiltasten verschieben ihn; Umschalt+Pfeil verschiebt ihn ein wenig.',
  'lessons.hull.outputPoint': '{query}: seine Ausgabe, bei {point}; seine Gewichte zeigen',
  'lessons.hull.noKey': 'kein sichtbarer Key: Ausgabe 0',
  'lessons.hull.yes': 'ja',
  'lessons.hull.no': 'nein',

  'lessons.cost.intro':
    'Die Projektionen kosten pro Token gleich viel, egal wie lang der Text ist; die Score-Matrix wächst mit n × m. Bei kurzen Eingaben überwiegen die Projektionen, bei langen der quadratische Term, und die h Attention-Matrizen müssen auch in den Speicher passen. Zahlen aus attn.lessons.attentionCost für eine Schicht; solange der Explorer einen einzelnen Kopf zeigt (der kein W_O hat), aus den Matrizen dieses Kopfes (eine Multiplikation mit Addition zählt als 2 FLOPs).',
  'lessons.cost.follow': 'Größen des Explorers verwenden',
  'lessons.cost.field.n': 'n (Queries)',
  'lessons.cost.field.m': 'm (Keys)',
  'lessons.cost.field.heads': 'Köpfe h',
  'lessons.cost.parameters.label': 'Parameter: W_Q, W_K, W_V, W_O und ihre Biases',
  'lessons.cost.parameters.headLabel': 'Parameter: W_Q, W_K, W_V und ihre Biases (kein W_O)',
  'lessons.cost.parameters.layer': '4·d² + 4·d, unabhängig von h',
  'lessons.cost.parameters.head': 'd·(2dₖ + dᵥ), kein W_O (+ 2dₖ + dᵥ mit Biases)',
  'lessons.cost.projectionFlops.label': 'Projektionen Q, K, V und Ausgabe',
  'lessons.cost.projectionFlops.headLabel': 'Projektionen Q, K, V (keine Ausgabeprojektion)',
  'lessons.cost.projectionFlops.layer': '2·d²·(2n + 2m): linear in n',
  'lessons.cost.projectionFlops.head': '2·d·(n·dₖ + m·dₖ + m·dᵥ), keine Ausgabeprojektion',
  'lessons.cost.scoreFlops.label': 'Scores Q·Kᵀ und Gewichte·V',
  'lessons.cost.scoreFlops.layer': '4·n·m·d: quadratisch in n',
  'lessons.cost.scoreFlops.head': '2·n·m·(dₖ + dᵥ): quadratisch in n',
  'lessons.cost.softmaxFlops.label': 'Softmax',
  'lessons.cost.softmaxFlops.layer': 'etwa 5 pro Gewicht: 5·h·n·m',
  'lessons.cost.softmaxFlops.head': 'etwa 5 pro Gewicht: 5·n·m',
  'lessons.cost.totalFlops.label': 'Gesamt',
  'lessons.cost.attentionMatrixBytes.label': 'Attention-Matrizen (h mal n × m, float32)',
  'lessons.cost.attentionMatrixBytes.headLabel': 'Attention-Matrix (n × m, float32)',
  'lessons.cost.attentionMatrixBytes.layer': '4·h·n·m Bytes',
  'lessons.cost.attentionMatrixBytes.head': '4·n·m Bytes (eine Matrix)',
  'lessons.cost.legend.proj': 'Projektionen (∝ n·d²)',
  'lessons.cost.legend.quad': 'Scores, Gewichte·V und Softmax (∝ n²·d)',
  'lessons.cost.legend.now': 'das gewählte n',
  'lessons.cost.xLabel': 'Tokens n (Self-Attention, m = n)',
  'lessons.cost.yLabel': 'FLOPs',
  'lessons.cost.failed': 'Der Kern kann diese Größen nicht berechnen: {error}',
  'lessons.cost.captionHead':
    'n = {n}, m = {m}, der einzelne Kopf des Explorers: d_model = {dModel}, dₖ = {dk}, dᵥ = {dv} (kein W_O)',
  'lessons.cost.captionTyped':
    'n = {n}, m = {m}, der einzelne Kopf des Explorers: Q, K, V direkt eingegeben, dₖ = {dk}, dᵥ = {dv} (kein W_O)',
  'lessons.cost.captionLayer': 'n = {n}, m = {m}, d_model = {dModel}, h = {heads} (Kopfbreite {width})',
  'lessons.cost.typed': 'Q, K und V sind direkt eingegeben: Es gibt keine Projektionsgewichte zu zählen.',
  'lessons.cost.verdictTyped':
    'Mit direkt eingegebenen Q, K, V gibt es keine Projektionen: Jeder FLOP steckt in den Scores, den Gewichte·V und der Softmax. Die Attention-Matrix braucht {bytes} bei n = {n}, m = {m}.',
  'lessons.cost.verdictHead':
    'Für diesen Kopf (d_model = {dModel}, dₖ = {dk}, dᵥ = {dv}) kosten die quadratischen Terme ab n = {star} Tokens mehr als die Projektionen. Seine Attention-Matrix braucht {bytes} bei n = {n}, m = {m}.',
  'lessons.cost.verdictLayer': {
    one: 'Mit d_model = {dModel} und {count} Kopf kosten die quadratischen Terme ab n = {star} Tokens mehr als die Projektionen (etwa 2·d_model). Die h Attention-Matrizen brauchen {bytes} bei n = {n}, m = {m}.',
    other:
      'Mit d_model = {dModel} und {count} Köpfen kosten die quadratischen Terme ab n = {star} Tokens mehr als die Projektionen (etwa 2·d_model). Die h Attention-Matrizen brauchen {bytes} bei n = {n}, m = {m}.',
  },
  'lessons.cost.equalAt': 'gleich bei n = {n}',
  'lessons.cost.plotDescription':
    'FLOPs über n, doppelt logarithmisch: Die Projektionen wachsen linear, die quadratischen Terme überholen sie bei n = {n}.',

  'lessons.steps.intro':
    'Ein Modell, das Text schreibt, hat im Schritt i nur die Tokens 1..i. Das Training rechnet alle Schritte auf einmal auf dem ganzen Satz, wobei die kausale Maske jeder Query ihre Zukunft verbirgt. Beides liefert dieselben Zahlen – deshalb ist dieses parallele Training ehrlich.',
  'lessons.steps.token': 'Token i',
  'lessons.steps.previous': '◀ Zurück',
  'lessons.steps.next': 'Weiter ▶',
  'lessons.steps.play': 'Abspielen',
  'lessons.steps.pause': 'Pause',
  'lessons.steps.strip': 'Bisher erzeugte Tokens',
  'lessons.steps.future': 'noch nicht erzeugt',
  'lessons.steps.fullTitle': 'Kausale Attention über den ganzen Satz (alle Zeilen auf einmal)',
  'lessons.steps.fullLabel': 'Kausale Aufmerksamkeitsgewichte, alle Zeilen',
  'lessons.steps.weightsLabel': '{side}: Gewichte',
  'lessons.steps.outputLabel': '{side}: Ausgabe',
  'lessons.steps.output': 'Ausgabe',
  'lessons.steps.causalRow': 'Zeile i der kausalen Attention',
  'lessons.steps.prefixRow': 'Query i nur über die Keys 1..i',
  'lessons.steps.causalHeading': 'Zeile {i} der kausalen Attention',
  'lessons.steps.prefixHeading': {
    one: 'Query {i} nur über die Keys 1..{count} ({count} Key)',
    other: 'Query {i} nur über die Keys 1..{count} ({count} Keys)',
  },
  'lessons.steps.valueText': 'Token {i} von {n}: {token}',
  'lessons.steps.position': '{i} von {n}',
  'lessons.steps.ignoresMask.padding':
    'Diese Ansicht wendet immer die kausale Maske an und ignoriert die im Explorer gewählte Padding-Maske.',
  'lessons.steps.ignoresMask.custom':
    'Diese Ansicht wendet immer die kausale Maske an und ignoriert die im Explorer gewählte eigene Maske.',
  'lessons.steps.identical': 'Gleich: Die kausale Zeile gibt den Keys nach {k} genau 0, und der Rest ist identisch.',
  'lessons.steps.rounding':
    'Gleich: Die kausale Zeile gibt den Keys nach {k} genau 0, und der Rest stimmt bis auf float32-Rundung überein (größte Abweichung {diff}).',
  'lessons.steps.notEqual': 'Nicht gleich: größte Abweichung {diff}.',
  'lessons.steps.leaked': {
    one: 'Nicht gleich: größte Abweichung {diff}, {count} künftiger Key mit Gewicht.',
    other: 'Nicht gleich: größte Abweichung {diff}, {count} künftige Keys mit Gewicht.',
  },

  'lessons.permutation.intro':
    'Attention vergleicht jede Query mit jedem Key, und nichts an diesem Vergleich weiß, wo ein Token steht. Tauschen Sie zwei Tokens, und die Ausgaben sind dieselben Zeilen, nur vertauscht. Deshalb fügen Transformer den Token-Vektoren Positionsinformation hinzu.',
  'lessons.permutation.swap': 'Tauschen Sie Token',
  'lessons.permutation.with': 'mit Token',
  'lessons.permutation.before': 'Ausgabe, Tokens in Reihenfolge',
  'lessons.permutation.after': 'Ausgabe mit den zwei getauschten Tokens',
  'lessons.permutation.outputLabel': '{side}: Ausgabe',
  'lessons.permutation.order': 'Reihenfolge: {tokens}',
  'lessons.permutation.needsTwo': 'Zum Tauschen braucht es zwei verschiedene Tokens.',
  'lessons.permutation.note.causal':
    'Im Explorer ist die kausale Maske gewählt: Sie verbirgt Keys nach Position, also sieht nach dem Tausch jedes Token andere Keys.',
  'lessons.permutation.note.sinusoidal':
    'Zu X werden Positionen addiert (sinusförmig): Die zwei Wörter tauschen die Plätze, aber jede Position behält ihren eigenen Vektor, also ändern sich die Vektoren der getauschten Tokens.',
  'lessons.permutation.note.learned':
    'Zu X werden Positionen addiert (wie gelernt): Die zwei Wörter tauschen die Plätze, aber jede Position behält ihren eigenen Vektor, also ändern sich die Vektoren der getauschten Tokens.',
  'lessons.permutation.note.none':
    'Zu X wird keine Positionsinformation addiert (siehe „Positionsinformation“ unter dem Satz): Wählen Sie eine, damit die Reihenfolge zählt.',
  'lessons.permutation.note.multi': 'Verglichen wird die ganze Multi-Head-Schicht (concat·W_O).',
  'lessons.permutation.swapped':
    'Die Zeilen {i} und {j} der Ausgabe haben die Plätze getauscht; sonst ist jede Zeile gleich (größte Abweichung {diff}).',
  'lessons.permutation.changed':
    'Die Zeilen wurden nicht nur getauscht: {count} Werte haben sich geändert (um bis zu {diff}). Hier zählt die Position.',

  'lessons.gradients.intro':
    'Jedes Gewicht in Attention bewegt sich entlang eines Gradienten. Wählen Sie, was der Kopf lernen soll; der Kern führt den Rückwärtsdurchlauf des Kopfes im Explorer aus und zeigt jeden Schritt davon, vom Verlust zurück bis Q, K und V.',
  'lessons.gradients.headNote':
    'Mehrere Köpfe: Dies ist der Rückwärtsdurchlauf von Kopf {head} (gewählt mit „Gezeigter Kopf“ im Explorer), mit der eigenen Ausgabe des Kopfes als O und seinen Ausschnitten der Projektionen als Q, K, V.',
  'lessons.gradients.goal': 'Was gelernt wird',
  'lessons.gradients.goal.target': 'Eine Zielausgabe T erreichen: L = ½‖O − T‖²',
  'lessons.gradients.goal.cell': 'Eine Ausgabezelle erhöhen: L = O[i, j]',
  'lessons.gradients.row': 'Zeile i',
  'lessons.gradients.column': 'Spalte j',
  'lessons.gradients.targetLabel': 'Zielausgabe T',
  'lessons.gradients.targetTitle': 'Ziel T (bearbeitbar)',
  'lessons.gradients.copyOutput': 'T = aktuelle Ausgabe',
  'lessons.gradients.loss': 'Verlust L = {loss}',
  'lessons.gradients.mapsNote':
    'Vorwärts: Scores S → Softmax A → Ausgabe O = A·V. Rückwärts geht es andersherum: dO → dA → dS → dQ, dK (und dV direkt aus dO). Klicken Sie eine Zelle von dQ, dK oder dV an, um diese Eingabe unten anzustoßen.',
  'lessons.gradients.mapLabel': 'Gradient {formula}',
  'lessons.gradients.explainTitle': 'Wie wurde diese Zahl berechnet?',
  'lessons.gradients.explainIdle':
    'Zeigen Sie auf eine Zelle der Gradienten, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde.',
  'lessons.gradients.explain.terms': '{count} Terme',
  'lessons.gradients.explain.dOCell':
    'Der Verlust ist eine einzige Ausgabezelle, also gibt nur diese Zelle einen Gradienten zurück.',
  'lessons.gradients.explain.dOTarget':
    'Beim Verlust ½‖O − T‖² wird jede Ausgabezelle so stark geschoben, wie weit sie von ihrem Ziel entfernt ist.',
  'lessons.gradients.explain.dOTitle': 'dO: Gradient des Verlusts an Ausgabe [{i},{j}]',
  'lessons.gradients.explain.dA':
    'Wie stark sich der Verlust je Einheit Gewicht auf Key {j} ändern würde: seine Value-Zeile gegen den Schub auf Ausgabe {i}.',
  'lessons.gradients.explain.dATitle': 'dA: Gradient an Gewicht [{i},{j}]',
  'lessons.gradients.explain.dSHidden':
    'Dieser Key ist verborgen: Sein Gewicht ist genau 0, also bekommt sein Score keinen Gradienten und kann nicht lernen.',
  'lessons.gradients.explain.dSHiddenTitle': 'dS: verborgene Zelle [{i},{j}]',
  'lessons.gradients.explain.dS':
    'Die Softmax gibt das Gewicht zurück, multipliziert damit, wie viel besser als der Durchschnitt dieser Key abschneiden würde; ein Key mit Gewicht nahe 0 bekommt fast nichts.',
  'lessons.gradients.explain.dSTitle': 'dS: Gradient an Score [{i},{j}]',
  'lessons.gradients.explain.dQ': 'dQ[{i},{j}] = scale × Σ über Keys l: dS[{i},l]·K[l,{j}]',
  'lessons.gradients.explain.dK': 'dK[{i},{j}] = scale × Σ über Queries l: dS[l,{i}]·Q[l,{j}]',
  'lessons.gradients.explain.dQTitle': 'dQ: Gradient an Query [{i},{j}]',
  'lessons.gradients.explain.dKTitle': 'dK: Gradient an Key [{i},{j}]',
  'lessons.gradients.explain.dVSum': 'dV[{i},{j}] = Σ über Queries l: A[l,{i}]·dO[l,{j}] = {sum}',
  'lessons.gradients.explain.dV':
    'Eine Value-Zeile lernt von jeder Query, die sie liest, im Verhältnis zu deren Gewicht.',
  'lessons.gradients.explain.dVTitle': 'dV: Gradient an Value [{i},{j}]',
  'lessons.gradients.nudgeTitle': 'Anstoß-Probe',
  'lessons.gradients.nudgeNote':
    'Addieren Sie ε zu einer Eingabe und rechnen Sie den Vorwärtsdurchlauf erneut: Der Verlust ändert sich in erster Ordnung um ε × Gradient.',
  'lessons.gradients.nudge':
    '{cell} + {eps}: Der Verlust geht von {before} auf {after}, eine Änderung um {change}; ε × Gradient = {eps} × {gradient} = {predicted}.',
  'lessons.gradients.stepsTitle': 'Gradientenschritte',
  'lessons.gradients.stepsNote':
    'x ← x − Lernrate × ∂L/∂x auf der gewählten Matrix, mit einem neuen Rückwärtsdurchlauf vor jedem Schritt, zurückgeschrieben in den Explorer: Sehen Sie zu, wie sich die Gewichte des Explorers bewegen und der Verlust fällt.',
  'lessons.gradients.update': 'Aktualisieren',
  'lessons.gradients.rate': 'Lernrate',
  'lessons.gradients.perClick': 'Schritte pro Klick',
  'lessons.gradients.takeSteps': { one: 'Einen Schritt machen', other: '{count} Schritte machen' },
  'lessons.gradients.useQkv': 'Q, K, V direkt verwenden',
  'lessons.gradients.stepsTaken': {
    one: '{count} Schritt auf {matrix}: Verlust {losses}',
    other: '{count} Schritte auf {matrix}: Verlust {losses}',
  },
  'lessons.gradients.projected':
    'Hier sind Q, K und V Projektionen von X (Satzmodus): Schalten Sie den Explorer auf freie Q, K, V um, um direkt auf ihnen Schritte zu machen.',
  'lessons.gradients.stepsUpdate': 'Die Schritte ändern {matrix} in den Eingaben des Explorers.',
  'lessons.gradients.history': 'Verlust nach jedem Klick: {losses}',
  'lessons.gradients.keys.title': 'Welche Keys lernen?',
  'lessons.gradients.keys.note':
    'dₖ = 64, eine Query, 64 zufällige Keys, 200 Stichproben (standardnormalverteilt, aus dem Generator des Kerns). Rohe Scores streuen wie √64 = 8, die Softmax sättigt, und fast jeder Key bekommt keinen Gradienten; skalierte Scores geben den meisten von ihnen Gradienten.',
  'lessons.gradients.keys.threshold': '|dS|-Schwelle',
  'lessons.gradients.keys.column.scores': 'Scores',
  'lessons.gradients.keys.column.keys': 'Keys mit |dS| über der Schwelle (von 64)',
  'lessons.gradients.keys.column.norm': 'Gradientennorm ‖(dQ, dK, dV)‖',
  'lessons.gradients.keys.scaled': 'Scores ÷ √dₖ',
  'lessons.gradients.keys.unscaled': 'rohe Scores (ohne ÷√dₖ)',
  'lessons.gradients.keys.norm':
    'Ohne Skalierung ist die Norm größer: dQ und dK tragen den Skalierungsfaktor, also bekommen die wenigen Keys, die noch lernen, 8× größere, sprunghaftere Änderungen, die übrigen gar keine.',
};
