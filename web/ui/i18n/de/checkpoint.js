// Die Meldungen der Checkpoint-Panels (Checkpoint öffnen, Durchlauf über alle Köpfe, Hinweise im
// Generieren-Panel) und die Hinweise des Explorers zu einem Kopf eines Checkpoints. Glossar zusätzlich
// zu common.js: checkpoint = Checkpoint; layer = Schicht; sweep = Durchlauf; induction head =
// Induktionskopf; previous-token head = Vorgänger-Token-Kopf; duplicate-token head = Duplikat-Token-Kopf.
export default {
  'checkpoint.title': 'Einen Checkpoint öffnen',
  'checkpoint.intro':
    'Öffnen Sie einen echten GPT-2-Checkpoint: wählen Sie seine model.safetensors zusammen mit seiner config.json aus oder ziehen Sie beide hierher (gpt2, distilgpt2 und gpt2-medium passen; die Dateien kommen von Ihrer Festplatte, nichts wird aus dem Internet geladen). Eine Lehrkraft kann einen auf dieser Website bereitstellen und mit #checkpoint=models/gpt2/ in der Adresse darauf verlinken.',
  'checkpoint.choose': 'Checkpoint-Dateien (model.safetensors und config.json)',
  'checkpoint.drop': 'oder beide Dateien hier ablegen',
  'checkpoint.cancel': 'Abbrechen',
  'checkpoint.openingLabel': 'Der Checkpoint wird geöffnet',
  'checkpoint.needConfig':
    'Wählen Sie auch die config.json des Checkpoints aus: sie sagt, wie viele Schichten und Köpfe das Modell hat.',
  'checkpoint.needWeights': 'Wählen Sie auch die Datei model.safetensors aus: config.json beschreibt das Modell nur.',
  'checkpoint.badJson': 'config.json ließ sich nicht lesen: {message}.',
  'checkpoint.otherSite':
    'Der Checkpoint muss von dieser Website kommen; {url} liegt anderswo und wird daher nicht geöffnet.',
  'checkpoint.unnamed': 'der Checkpoint',
  'checkpoint.opening': '{name} wird geöffnet…',
  'checkpoint.progress': '{loaded} von {total}',
  'checkpoint.cancelled': 'Das Öffnen wurde abgebrochen; nichts ist geöffnet.',
  'checkpoint.tooLarge': 'Dieser Checkpoint ist zu groß für den Speicher dieses Tabs: {message}.',
  'checkpoint.notGpt2': 'Das ist kein GPT-2-Checkpoint, den diese Seite öffnen kann: {message}.',
  'checkpoint.failed': 'Der Checkpoint ließ sich nicht öffnen: {message}.',
  'checkpoint.opened':
    '{name} ist geöffnet: {layers} Schichten mit je {heads} Köpfen, d_model {dModel}, {parameters} Parameter, ein Kontext von {context} Token.',
  'checkpoint.mainThread':
    'Er läuft in Portionen im eigenen Thread dieser Seite: dieser Frame kann keinen Worker starten.',
  'checkpoint.worker': 'Er läuft in einem eigenen Worker, so bleibt die Seite bedienbar.',
  'checkpoint.notTokenizer':
    'Sein Vokabular hat {vocabulary} Token, nicht die 50 257 von GPT-2, daher kann diese Seite keinen Text für ihn zerlegen; der Durchlauf über die Köpfe funktioniert trotzdem.',
  'checkpoint.tokens': {
    one: '{count} GPT-2-Token (Ġ markiert ein Leerzeichen vor einem Token):',
    other: '{count} GPT-2-Token (Ġ markiert ein Leerzeichen vor einem Token):',
  },
  'checkpoint.tokenId': 'ID {id}',
  'checkpoint.tokensLabel': 'GPT-2-Token des Satzes',
  'checkpoint.showHead': 'Diesen Kopf im Explorer zeigen',
  'checkpoint.layer': 'Schicht',
  'checkpoint.head': 'Kopf',
  'checkpoint.sentence': 'Ein Satz',
  'checkpoint.layerOption': 'Schicht {layer}',
  'checkpoint.headOption': 'Kopf {head}',
  'checkpoint.notOpen': 'Kein Checkpoint ist geöffnet: öffnen Sie zuerst oben einen.',
  'checkpoint.headFailed': 'Dieser Kopf ließ sich nicht zeigen: {message}.',
  'checkpoint.explainTitle': 'Wie wurde diese Zahl berechnet?',

  'checkpoint.sweep.title': 'Alle Köpfe durchgehen',
  'checkpoint.sweep.run': 'Alle Köpfe bewerten',
  'checkpoint.sweep.progress': 'Fortschritt des Durchlaufs',
  'checkpoint.sweep.shown': 'Gezeigter Score',
  'checkpoint.sweep.score.induction': 'Induktion',
  'checkpoint.sweep.score.previousToken': 'Vorgänger-Token',
  'checkpoint.sweep.score.duplicateToken': 'Duplikat-Token',
  'checkpoint.sweep.idle':
    'Zeigen Sie auf einen Kopf im Raster, tippen Sie ihn an oder fokussieren Sie ihn, um seinen Score zu sehen.',
  'checkpoint.sweep.map': 'Score jedes Kopfes: Zeilen sind Schichten, Spalten Köpfe',
  'checkpoint.sweep.layerRow': 'Schicht {layer}',
  'checkpoint.sweep.intro':
    'Welche Köpfe kopieren? Jeder Kopf wird auf {count} Sequenzen bewertet, jede aus einem Starttoken, {repeat} zufälligen Token und denselben {repeat} Token noch einmal: ein Vorgänger-Token-Kopf attendiert auf das Token direkt davor, ein Duplikat-Token-Kopf auf frühere Kopien des aktuellen Tokens, ein Induktionskopf auf das Token, das einer früheren Kopie folgte (das lässt ein Modell eine Wiederholung fortsetzen).',
  'checkpoint.sweep.reported':
    'Anderswo für GPT-2 small berichtet (Schicht.Kopf ab 0 gezählt, wie diese Arbeiten zählen): Induktionsköpfe 5.1, 5.5, 6.9, 7.2 und 7.10 (Olsson et al., 2022; Wang et al., 2022), ein Vorgänger-Token-Kopf 4.11 (Wang et al., 2022). Die Seite zählt ab 1, also ist 5.1 Schicht 6 · Kopf 2; diese Zellen sind umrandet, wenn das Modell die Form von GPT-2 small hat. Sie sind das, was man in den veröffentlichten Gewichten erwarten sollte, nicht etwas, das diese Seite geprüft hat; ein Checkpoint mit Zufallsgewichten zeigt keinen davon.',
  'checkpoint.sweep.running': 'Sequenz {done} von {count}…',
  'checkpoint.sweep.done': { one: 'Auf {count} Sequenz bewertet.', other: 'Auf {count} Sequenzen bewertet.' },
  'checkpoint.sweep.cancelled': 'Der Durchlauf wurde abgebrochen.',
  'checkpoint.sweep.failed': 'Der Durchlauf wurde beendet: {message}',
  'checkpoint.sweep.none': 'Öffnen Sie zuerst einen Checkpoint.',
  'checkpoint.sweep.explain.score.induction': 'Induktions-Score = {value}',
  'checkpoint.sweep.explain.score.previousToken': 'Vorgänger-Token-Score = {value}',
  'checkpoint.sweep.explain.score.duplicateToken': 'Duplikat-Token-Score = {value}',
  'checkpoint.sweep.explain.why':
    'Schicht {layer} · Kopf {head} ({paper}, wenn man wie die Arbeiten ab 0 zählt): seine mittlere Attention, gemittelt über jede passende Query von {count} Sequenzen, berechnet vom Kern (attn.headScores) auf der eigenen Attention des Modells.',
  'checkpoint.sweep.explain.reported': 'Anderswo als Kopf dieser Art in GPT-2 small berichtet.',
  'checkpoint.sweep.explain.title.induction': 'Schicht {layer} · Kopf {head}: Induktion',
  'checkpoint.sweep.explain.title.previousToken': 'Schicht {layer} · Kopf {head}: Vorgänger-Token',
  'checkpoint.sweep.explain.title.duplicateToken': 'Schicht {layer} · Kopf {head}: Duplikat-Token',

  'checkpoint.generate.ids': {
    one: '{count} Token-ID (dieser Checkpoint hat kein GPT-2-Vokabular, um Text zu zerlegen).',
    other: '{count} Token-IDs (dieser Checkpoint hat kein GPT-2-Vokabular, um Text zu zerlegen).',
  },
  'checkpoint.generate.tokens': { one: '{count} GPT-2-Token: {pieces}', other: '{count} GPT-2-Token: {pieces}' },
  'checkpoint.generate.cut': {
    one: '{count} GPT-2-Token: {pieces} … (gekürzt, damit Platz für neue Token bleibt)',
    other: '{count} GPT-2-Token: {pieces} … (gekürzt, damit Platz für neue Token bleibt)',
  },

  'checkpoint.vectors.source':
    'Kopf eines Checkpoints: Schicht {layer} · Kopf {head} von {name} ({layers} Schichten mit je {heads} Köpfen, d_model {dModel}). X und W sind die eigenen Eingaben und Gewichte des Modells für Ihren Satz, die Gewichte unten sind also seine echte Attention.',
  'checkpoint.vectors.reading': 'Der Checkpoint liest Ihren Satz… (bis dahin ist X je Wort zufällig).',
  'checkpoint.vectors.help':
    'Vom Tokenizer von GPT-2 zerlegt, so wie das Modell ihn liest (Ġ markiert ein Leerzeichen vor einem Token; höchstens 24 Token).',
  'checkpoint.vectors.note':
    'Checkpoint-Vektoren: jede Zeile von X ist, was die Attention von Schicht {layer} · Kopf {head} von {name} ({layers} Schichten mit je {heads} Köpfen, d_model {dModel}) für ein Token liest (die LayerNorm der Schicht auf dem Residualstrom, {dModel} Zahlen), geschrieben in {rank} Koordinaten entlang einer Orthonormalbasis des Spanns der {dModel}-dimensionalen Vektoren Ihres Satzes (Token für Token aufgebaut), dazu eine Spalte aus Einsen. W_Q, W_K und W_V sind die Gewichte des Kopfes in dieser Basis, ihre letzte Zeile sein Bias: X·W ergibt genau q, k und v des Modells, also sind die Skalarprodukte und die Gewichte unten die des Modells selbst.',
};
