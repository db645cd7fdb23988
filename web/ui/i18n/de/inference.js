// Die Meldungen der Inferenz-Lektionen (FlashAttention, KV-Cache, Positionen). Glossar zusätzlich zu
// common.js: tile = Kachel; row block / column block = Zeilenblock / Spaltenblock; running max / sum =
// laufendes Maximum / laufende Summe; unnormalised output = unnormierte Ausgabe; key/value head =
// Key/Value-Kopf; cache = Cache; slot = Platz; sliding window = gleitendes Fenster; ring buffer =
// Ringpuffer; full causal pass = vollständiger kausaler Durchlauf; layer = Schicht; decoder = Decoder.
export default {
  'inference.explain.title': 'Wie wurde diese Zahl berechnet?',
  'inference.explain.idle':
    'Zeigen Sie auf eine Zahl dieser Lektion, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde.',
  'inference.explain.longSum': '{first} + … + {last}  ({count} Terme)',
  'inference.cannotCompute': 'Keine Berechnung möglich: {message}',
  'inference.coreRefused': 'Der Kern hat abgelehnt: {message}',

  'inference.flash.intro':
    'FlashAttention berechnet softmax(S′)·V, ohne je die n × m große Score-Matrix zu halten. Es geht die Scores Kachel für Kachel durch und behält für jede Query-Zeile nur ein laufendes Maximum m, eine laufende Summe ℓ von exp(S′ − m) und eine unnormierte Ausgabe Õ. Hebt eine Kachel das Maximum einer Zeile an, wird das bisher Summierte mit e^(m_old − m_new) umskaliert. Gehen Sie die Kacheln des Kopfes im Explorer Schritt für Schritt durch.',
  'inference.flash.causal': 'Kausale Maske',
  'inference.flash.step': 'Schritt',
  'inference.flash.play': 'Abspielen',
  'inference.flash.pause': 'Pause',
  'inference.flash.reset': 'Zurücksetzen',
  'inference.flash.blockRows': 'Zeilen pro Block Bᵣ',
  'inference.flash.blockCols': 'Spalten pro Block B_c',
  'inference.flash.tile.nowSkipped': 'Kachel ({row}, {col}): jetzt, übersprungen',
  'inference.flash.tile.now': 'Kachel ({row}, {col}): jetzt',
  'inference.flash.tile.skipped': 'Kachel ({row}, {col}): übersprungen',
  'inference.flash.tile.done': 'Kachel ({row}, {col}): erledigt',
  'inference.flash.tile.toCome': 'Kachel ({row}, {col}): kommt noch',
  'inference.flash.tilesCaption': 'Kacheln (Zeilenblöcke × Spaltenblöcke)',
  'inference.flash.rescale.none': 'Query {query} ({label}): noch kein sichtbarer Key (m = −∞).',
  'inference.flash.rescale.first':
    'Query {query} ({label}): erste sichtbare Keys, m beginnt beim größten Score der Kachel (nichts umzuskalieren).',
  'inference.flash.rescale.kept': 'Query {query} ({label}): das Maximum bleibt {max}; nichts wird umskaliert.',
  'inference.flash.rescale.moved':
    'Query {query} ({label}): das Maximum stieg von {from} auf {to}, also werden ℓ und Õ mit e^({from} − {to}) = {factor} multipliziert.',
  'inference.flash.before': {
    one: 'Vor der ersten Kachel: {count} Kachel ist zu besuchen. Drücken Sie auf Schritt.',
    other: 'Vor der ersten Kachel: {count} Kacheln sind zu besuchen. Drücken Sie auf Schritt.',
  },
  'inference.flash.at': 'Kachel {k} von {count}: Zeilenblock {row}, Spaltenblock {col}.',
  'inference.flash.skipped':
    'Kachel {k} von {count}: Zeilenblock {row}, Spaltenblock {col}, übersprungen (die kausale Maske verdeckt sie ganz).',
  'inference.flash.end': 'Alle Kacheln besucht: Õ jedes Zeilenblocks, geteilt durch sein ℓ, ist die Ausgabe.',
  'inference.flash.map.scores': 'Skalierte Scores S′, in Kacheln zerlegt',
  'inference.flash.map.state': 'Laufendes Maximum m und laufende Summe ℓ des Zeilenblocks',
  'inference.flash.map.partial': 'Unnormierte Ausgabe Õ des Zeilenblocks',
  'inference.flash.map.tiled': 'Gekachelte Ausgabe Õ / ℓ',
  'inference.flash.map.naive': 'softmax(S′)·V',
  'inference.flash.scoresTitle': 'Skalierte Scores S′ = scale·QKᵀ, die aktuelle Kachel umrandet',
  'inference.flash.stateTitle': 'Je Zeile: m und ℓ nach dieser Kachel',
  'inference.flash.partialTitle': 'Je Zeile: Õ (noch nicht durch ℓ geteilt)',
  'inference.flash.tiledTitle': 'Gekachelt: Õ / ℓ nach der letzten Kachel',
  'inference.flash.naiveTitle': 'Gewöhnlich: softmax(S′)·V',
  'inference.flash.difference': 'Größte Abweichung |gekachelt − gewöhnlich|:',
  'inference.flash.memory': 'Speicher, den ein Kachelschritt braucht, verglichen mit der Score-Matrix:',
  'inference.flash.memoryTile': 'Für eine Kachel:',
  'inference.flash.memoryFull': 'Für die n × m Scores:',
  'inference.flash.floats': { one: '{count} Float ({bytes} B)', other: '{count} Floats ({bytes} B)' },
  'inference.flash.explain.score': 'S′[{i},{j}] = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.flash.explain.hidden': '= −∞ (verdeckt)',
  'inference.flash.explain.hiddenWhy':
    'Die kausale Maske verdeckt Key {key} vor Query {query}: er kommt später. Eine Kachel, deren Paare alle verdeckt sind, wird übersprungen.',
  'inference.flash.explain.scoreTile':
    'Dieser Score gehört zur Kachel ({row}, {col}): Zeilenblock {row}, Spaltenblock {col}. FlashAttention berechnet ihn nur, solange diese Kachel im schnellen Speicher liegt, und speichert ihn nie.',
  'inference.flash.explain.scoreTitle': 'S′: Score von Query {query} und Key {key}',
  'inference.flash.explain.skipped':
    'Kachel ({row}, {col}) wurde übersprungen: die kausale Maske verdeckt jedes Paar darin, also wird nichts berechnet und der Zustand bleibt, wie er war.',
  'inference.flash.explain.max': 'm{sub} = max(m_old, Maximum der Scores dieser Kachel) = max({old}, {tile})',
  'inference.flash.explain.maxWhy':
    'Der größte bisher gesehene Score dieser Zeile. Ihn vor exp abzuziehen hält jede Exponentialfunktion bei höchstens 1, so läuft nichts über.',
  'inference.flash.explain.maxTitle': 'Laufendes Maximum m von Query {query}',
  'inference.flash.explain.sum': 'ℓ{sub} = ℓ_old × e^(m_old − m_new) + Σ e^(S′ − m_new) = {old} × {factor} + {sum}',
  'inference.flash.explain.sumFirst': 'Die ersten sichtbaren Keys dieser Zeile: noch gibt es nichts umzuskalieren.',
  'inference.flash.explain.sumRescaled':
    'Was gegen das alte Maximum summiert wurde, wird auf das neue umskaliert; dann kommen die Terme dieser Kachel dazu.',
  'inference.flash.explain.sumTitle': 'Laufende Summe ℓ von Query {query}',
  'inference.flash.explain.partial':
    'Õ[{i},{x}] = Õ_old × e^(m_old − m_new) + Σ e^(S′ − m_new)·v[j,{x}] = {old} × {factor} + {sum}',
  'inference.flash.explain.partialWhy':
    'Noch nicht durch ℓ geteilt: die Division geschieht einmal, nach der letzten Kachel der Zeile.',
  'inference.flash.explain.partialTitle': 'Unnormierte Ausgabe Õ von Query {query}',
  'inference.flash.explain.tiledWhy':
    'Das gekachelte Ergebnis: die unnormierte Ausgabe nach der letzten Kachel des Zeilenblocks, geteilt durch die laufende Summe.',
  'inference.flash.explain.tiledTitle': 'Gekachelte Ausgabe [{i},{x}]',
  'inference.flash.explain.naive': 'O[{i},{x}] = Σⱼ A[{i},j]·v[j,{x}] = {sum}',
  'inference.flash.explain.naiveWhy': 'Die gewöhnliche Rechnung: die ganze Zeile der Scores, ihr Softmax A, dann A·V.',
  'inference.flash.explain.naiveTitle': 'softmax(S′)·V [{i},{x}]',
  'inference.flash.explain.difference': 'max |O_tiled − O_naive| über {n} × {dv} Zellen = {value}',
  'inference.flash.explain.differenceWhy':
    'Bis auf float32-Rundung dieselben Zahlen: der Online-Softmax ist exakte Algebra, nur die Reihenfolge der Additionen ist anders.',
  'inference.flash.explain.differenceTitle': 'Größte Abweichung, gekachelt gegen gewöhnlich',
  'inference.flash.explain.memoryTile':
    'Kachel: Bᵣ·dₖ + B_c·(dₖ + dᵥ) + Bᵣ·B_c + 2·Bᵣ + Bᵣ·dᵥ = {rows}·{dk} + {cols}·({dk} + {dv}) + {rows}·{cols} + 2·{rows} + {rows}·{dv} = {count} Floats = {bytes} B',
  'inference.flash.explain.memoryFull':
    'Scores: n·m = {n}·{m} = {count} Floats = {bytes} B (und die Gewichte A noch einmal)',
  'inference.flash.explain.memoryWhy':
    'Der Speicher einer Kachel hängt nur von den Blockgrößen ab; die Score-Matrix wächst mit n × m. Deshalb rechnet FlashAttention lange Sequenzen im kleinen On-Chip-Speicher einer GPU.',
  'inference.flash.explain.memoryTitle': 'Speicher: eine Kachel gegen die ganze Matrix',

  'inference.kv.intro':
    'Ein Modell, das Text schreibt, erzeugt ein Token nach dem anderen. Keys und Values früherer Token ändern sich nie (Attention ist kausal), also hält ein Decoder sie in einem Cache: jeder Schritt berechnet nur q, k und v des neuen Tokens, hängt k und v an und lässt die neue Query über den Cache attendieren. Hier wird der Kopf des Explorers so vom Decoder des Kerns decodiert, und jeder Schritt wird mit einem vollständigen kausalen Durchlauf verglichen.',
  'inference.kv.previous': '◀ Zurück',
  'inference.kv.next': 'Nächstes Token ▶',
  'inference.kv.heads': 'Key/Value-Köpfe',
  'inference.kv.window': 'Gleitendes Fenster W (0 = keines)',
  'inference.kv.slot': 'Platz {slot}: {position}',
  'inference.kv.map.weights': 'Die Gewichte der neuen Query über den Cache, je Kopf',
  'inference.kv.map.full': 'Dieselbe Zeile des vollständigen kausalen Durchlaufs',
  'inference.kv.map.keys': 'K-Cache',
  'inference.kv.map.values': 'V-Cache',
  'inference.kv.strip': 'Bisher decodierte Token',
  'inference.kv.ring': 'Plätze im Cache',
  'inference.kv.bytesLine': 'Bytes im Cache (decoder.cacheBytes):',
  'inference.kv.differenceLine':
    'Größte Abweichung zwischen dem Schritt mit Cache und dem vollständigen Durchlauf (Gewichte und Logits):',
  'inference.kv.tableIdle':
    'Zeigen Sie auf eine Cache-Größe in der Tabelle, tippen Sie sie an oder fokussieren Sie sie, um zu sehen, wie sie berechnet wurde.',
  'inference.kv.tableTitle': 'Wie viel Speicher die Caches echter Modelle belegen',
  'inference.kv.status':
    'Token {i} von {count} wird decodiert ({label}): sein k und v kommen in den Cache, seine Query attendiert über ihn.',
  'inference.kv.ringNote':
    'Ringpuffer mit {count} Plätzen: Position p liegt auf Platz p mod {count} und überschreibt die Position {count} davor.',
  'inference.kv.bytes':
    'Cache: {bytes} Bytes = 2 (Keys und Values) · 1 Schicht · {kvHeads} Key/Value-Köpfe · head_dim {headDim} · {tokens} behaltene Token · 4 Bytes je Zahl.',
  'inference.kv.shrink': {
    one: '{heads} Query-Köpfe teilen sich {count} Key/Value-Kopf: der Cache ist {ratio}× kleiner als mit einem Key/Value-Kopf je Query-Kopf.',
    other:
      '{heads} Query-Köpfe teilen sich {count} Key/Value-Köpfe: der Cache ist {ratio}× kleiner als mit einem Key/Value-Kopf je Query-Kopf.',
  },
  'inference.kv.oneHead':
    'Der Explorer zeigt einen Kopf, es gibt also nichts zu teilen: wählen Sie im Satzmodus mehrere Köpfe (das Feld „Köpfe h“ des Explorers), um Grouped-Query- und Multi-Query-Attention zu sehen.',
  'inference.kv.pooled':
    'Mit weniger Key/Value-Köpfen sind Keys und Values jeder Gruppe der Mittelwert ihrer Köpfe (so wandeln Ainslie et al. ein Multi-Head-Modell in Grouped-Query-Attention um); daher weichen die Gewichte von den Köpfen des Explorers ab, der Schritt mit Cache gleicht aber weiterhin dem vollständigen Durchlauf.',
  'inference.kv.padded':
    'head_dim ist hier {d}, nicht {dk}: das Modell liest jedes Token als One-Hot-Vektor, also muss Köpfe × head_dim die Zahl der Token erreichen; die zusätzlichen Spalten von q, k und v sind Nullen und ändern keinen Score.',
  'inference.kv.cross':
    'Cross-Attention ist an: ein Decoder cacht seine eigenen Token, daher decodiert diese Lektion die ersten Token des Satzes gegen sich selbst.',
  'inference.kv.decoderTitle': 'Decoder: die neue Query über den Cache',
  'inference.kv.fullTitle': 'Vollständiger kausaler Durchlauf: dieselbe Zeile',
  'inference.kv.keysTitle': 'K-Cache (Reihenfolge der Plätze)',
  'inference.kv.valuesTitle': 'V-Cache (Reihenfolge der Plätze)',
  'inference.kv.headRow': 'Kopf {head}',
  'inference.kv.explain.leftWindow':
    'a = 0 exakt: Position {position} hat das Fenster von {window} verlassen (sie ist nicht mehr im Cache).',
  'inference.kv.explain.weightTitle': 'Kopf {head}: Gewicht von Position {position}',
  'inference.kv.explain.score': 's = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.kv.explain.weight': 'a = e^s / Σ über den Cache von e^s = {value}',
  'inference.kv.explain.weightWhy':
    'Die neue Query von Kopf {head} ({query}) gegen den gecachten Key von {key}, gelesen aus Key/Value-Kopf {group}.',
  'inference.kv.explain.decoderTitle': 'Kopf {head}: Gewicht von Position {position} (Decoder)',
  'inference.kv.explain.full': 'A[{i},{j}] von Kopf {head} in model.forward über die Token 1…{i} = {value}',
  'inference.kv.explain.fullWhy':
    'Der Decoder ergab {value}: der Cache ändert, wie gerechnet wird, nicht das Ergebnis.',
  'inference.kv.explain.fullTitle': 'Kopf {head}: vollständiger kausaler Durchlauf, Zeile {row}',
  'inference.kv.explain.slot':
    'Platz {slot} hält Position {position} ({label}), geschrieben, als dieses Token decodiert wurde, und nie neu berechnet.',
  'inference.kv.explain.group': 'Key/Value-Kopf {group}: der Mittelwert der {name}-Zeilen seiner {count} Query-Köpfe.',
  'inference.kv.explain.keysTitle': 'K-Cache, Platz {slot}, Spalte {column}',
  'inference.kv.explain.valuesTitle': 'V-Cache, Platz {slot}, Spalte {column}',
  'inference.kv.explain.bytes':
    'decoder.cacheBytes = 2 · Schichten · kv_heads · head_dim · behalten · 4 = 2 · 1 · {kvHeads} · {headDim} · {kept} · 4',
  'inference.kv.explain.bytesWindow':
    'Mit einem Fenster von {window} behält der Cache höchstens {window} Token, wie lang der Text auch wird.',
  'inference.kv.explain.bytesGrow': 'Ohne Fenster wächst er mit jedem Schritt um die Keys und Values eines Tokens.',
  'inference.kv.explain.bytesTitle': 'Bytes im Cache',
  'inference.kv.explain.difference':
    'max |Decoder − vollständiger Durchlauf| über Gewichte und Logits von Token {token} = {value}',
  'inference.kv.explain.differenceWhy':
    'Der Decoder verwendet die gecachten Keys und Values wieder, statt sie neu zu berechnen; die Zahlen sind bis auf float32-Rundung dieselben.',
  'inference.kv.explain.differenceTitle': 'Schritt mit Cache gegen vollständigen Durchlauf',
  'inference.kv.table.model': 'Modell',
  'inference.kv.table.layers': 'Schichten',
  'inference.kv.table.kvHeads': 'KV-Köpfe',
  'inference.kv.table.headDim': 'Kopfdimension',
  'inference.kv.table.tokens': 'Token',
  'inference.kv.table.windowSize': 'Fenster (0 = keines)',
  'inference.kv.table.bytes': 'Bytes je Zahl',
  'inference.kv.table.cache': 'Cache',
  'inference.kv.table.caption':
    'Speicher des KV-Caches: 2 · Schichten · kv_heads · head_dim · Token · Bytes (jedes Feld ist änderbar)',
  'inference.kv.table.input': '{model}: {field}',
  'inference.kv.table.reset': 'Tabelle zurücksetzen',
  'inference.kv.table.formula':
    '2 · Schichten · kv_heads · head_dim · Token · Bytes = 2 · {layers} · {kvHeads} · {headDim} · {kept} · {bytes}',
  'inference.kv.table.why':
    'Keys und Values (die 2) für jede Schicht, jeden Key/Value-Kopf und jedes behaltene Token, in {type}.',
  'inference.kv.table.whyBytes':
    'Keys und Values (die 2) für jede Schicht, jeden Key/Value-Kopf und jedes behaltene Token, in Zahlen zu {count} Bytes.',
  'inference.kv.table.window':
    'Das gleitende Fenster behält nur die letzten {window} der {tokens} Token: der Cache ist ein Ringpuffer und wächst nicht weiter.',
  'inference.kv.table.size': '{bytes} B ≈ {size}',
  'inference.kv.table.title': 'KV-Cache von {name}',

  'inference.positions.intro':
    'Attention allein ist blind für die Reihenfolge. Hier werden ein Query-Vektor q und ein Key-Vektor k des Kopfes im Explorer an jedes Positionspaar (m, n) gesetzt; jede Karte zeigt ihren Score. Eine absolute Kodierung addiert zu jedem einen Positionsvektor, also hängt der Score von m und n einzeln ab und ändert sich entlang der Diagonalen. RoPE dreht q und k stattdessen, um Winkel proportional zu ihren Positionen: der Score hängt nur vom Abstand m − n ab, jede Diagonale ist also konstant. ALiBi addiert eine Strafe, die mit dem Abstand wächst.',
  'inference.positions.sinusoidal.title': 'Sinusförmig (addiert)',
  'inference.positions.sinusoidal.formula': '(q + pₘ)·(k + pₙ), p der Sinus-/Kosinus-Vektor von Vaswani et al.',
  'inference.positions.sinusoidal.label': 'Sinusförmig (addiert): Score von q bei m und k bei n',
  'inference.positions.learned.title': 'Gelernt (addiert)',
  'inference.positions.learned.formula':
    '(q + pₘ)·(k + pₙ), p ein Zufallsvektor je Position, wie eine gelernte Tabelle vor dem Training',
  'inference.positions.learned.label': 'Gelernt (addiert): Score von q bei m und k bei n',
  'inference.positions.rope.title': 'RoPE (gedreht)',
  'inference.positions.rope.formula':
    'rope(q, m)·rope(k, n): q und k um Winkel proportional zu ihren Positionen gedreht',
  'inference.positions.rope.label': 'RoPE (gedreht): Score von q bei m und k bei n',
  'inference.positions.alibi.title': 'ALiBi (Bias)',
  'inference.positions.alibi.formula': 'scale·q·k − slope·(m − n) für den gewählten Kopf; spätere Keys verdeckt',
  'inference.positions.alibi.label': 'ALiBi (Bias): Score von q bei m und k bei n',
  'inference.positions.odd':
    'RoPE dreht Paare von Merkmalen und braucht daher eine gerade Dimension: dₖ = {dk}, und die Lektion nutzt die ersten {used} Merkmale.',
  'inference.positions.tooNarrow': 'RoPE braucht mindestens zwei Merkmale je Kopf: erhöhen Sie dₖ im Explorer.',
  'inference.positions.spread': 'Größte Streuung entlang einer Diagonale:',
  'inference.positions.clocks':
    'Die Frequenzen von RoPE bei Position {p}: Paar i dreht sich um {p}·θᵢ mit θᵢ = base^(−2i/d). Die ersten Paare drehen sich schnell (sie unterscheiden nahe Positionen), die letzten langsam (sie ändern sich noch über große Abstände).',
  'inference.positions.alibi':
    'Die Bias-Matrizen von ALiBi, eine je Kopf: −slopeₕ·(m − n). Steile Köpfe sehen nur auf die letzten paar Token, flache weit zurück.',
  'inference.positions.alibiTitle': 'ALiBi, Kopf für Kopf',
  'inference.positions.clocksTitle': 'Die Frequenzen von RoPE als Uhrzeiger',
  'inference.positions.clockIdle':
    'Zeigen Sie auf eine Uhr, tippen Sie sie an oder fokussieren Sie sie, um ihre Frequenz und ihren Winkel zu sehen.',
  'inference.positions.clockPosition': 'Position der Uhren',
  'inference.positions.query': 'Query-Zeile q',
  'inference.positions.key': 'Key-Zeile k',
  'inference.positions.count': 'Positionen',
  'inference.positions.base': 'RoPE-Basis',
  'inference.positions.alibiHeads': 'ALiBi-Köpfe',
  'inference.positions.alibiHead': 'Gezeigter ALiBi-Kopf',
  'inference.positions.clock': 'Position p der Uhren',
  'inference.positions.pair': 'Paar {pair}',
  'inference.positions.clockLabel': 'Paar {pair}: um {angle} Radiant gedreht bei Position {p}',
  'inference.positions.head': 'Kopf {head}',
  'inference.positions.valueText': 'Position {p}',
  'inference.positions.alibiMap': 'ALiBi-Bias von Kopf {head}',
  'inference.positions.slope': 'Kopf {head}: Steigung {slope}',
  'inference.positions.explain.alibiTitle': 'ALiBi: Query bei {m}, Key bei {n}',
  'inference.positions.explain.alibiHidden': 'verdeckt: mit kausaler Maske sieht eine Query nie einen späteren Key',
  'inference.positions.explain.alibi': 'scale·q·k − slope·(m − n) = {scale}×{content} − {slope}×{distance}',
  'inference.positions.explain.alibiWhy':
    'Der inhaltliche Score ist an jeder Position gleich; der Bias von Kopf {head} fällt um {slope} je Token Abstand.',
  'inference.positions.explain.rope': 'rope(q, {m})·rope(k, {n}) = {sum}',
  'inference.positions.explain.added': '(q + p{pm})·(k + p{pn}) = {sum}',
  'inference.positions.explain.ropeWhy':
    'm − n = {distance}: jede Zelle dieser Diagonale hat denselben Score (bis auf float32-Rundung), denn beide Vektoren um denselben zusätzlichen Winkel zu drehen erhält ihr Skalarprodukt.',
  'inference.positions.explain.addedWhy':
    'Die Positionsvektoren werden zu q und k addiert, also mischt der Score q·pₙ und pₘ·k: er hängt davon ab, wo das Paar liegt, nicht nur von m − n = {distance}.',
  'inference.positions.explain.sinusoidalTitle': 'Sinusförmig: Query bei {m}, Key bei {n}',
  'inference.positions.explain.learnedTitle': 'Gelernt: Query bei {m}, Key bei {n}',
  'inference.positions.explain.ropeTitle': 'RoPE: Query bei {m}, Key bei {n}',
  'inference.positions.explain.spread':
    'max über die Diagonalen m − n = δ von (größter − kleinster Score darauf) = {value}',
  'inference.positions.explain.spreadNone':
    'Etwa 0: der Score hängt nur vom Abstand m − n ab (was bleibt, ist float32-Rundung).',
  'inference.positions.explain.spreadFar':
    'Weit weg von 0: derselbe Abstand gibt an verschiedenen Stellen verschiedene Scores, also muss das Modell lernen, was jede absolute Position bedeutet.',
  'inference.positions.explain.spreadTitle': 'Konstant entlang der Diagonalen?',
  'inference.positions.explain.biasHidden': '−∞: die kausale Maske verdeckt spätere Keys',
  'inference.positions.explain.bias': '−slope × (m − n) = −{slope} × {distance} = {value}',
  'inference.positions.explain.slopes':
    'Kopf {head} von {heads}: Steigung 2^(−8·{head}/{heads}) (Press et al., wie BLOOM sie berechnet).',
  'inference.positions.explain.slopesOdd':
    'Kopf {head} von {heads}: {heads} ist keine Zweierpotenz, also sind die Steigungen die von {power} Köpfen, dann jede zweite Steigung von doppelt so vielen (die Regel von BLOOM).',
  'inference.positions.explain.biasTitle': 'ALiBi-Bias von Kopf {head} bei ({m}, {n})',
  'inference.positions.explain.theta': 'θ{sub} = base^(−2·{i}/{d}) = {base}^({exponent}) = {theta} rad je Position',
  'inference.positions.explain.angle': 'Winkel bei Position {p} = {p} × {theta} = {angle} rad',
  'inference.positions.explain.turned': 'attn.rope(e{sub}, Position {p}) = (cos, sin) = ({cos}, {sin})',
  'inference.positions.explain.pair':
    'Paar {pair} sind die Merkmale {pair} und {other} (rotate_half von Hugging Face Llama paart die beiden Hälften des Kopfes).',
  'inference.positions.explain.clockTitle': 'RoPE-Paar {pair} bei Position {p}',
};
