// La vista de entrenamiento. Glosario de esta parte (además de common.js): layer = capa;
// step = paso; loss = pérdida; induction head = cabeza de inducción; previous-token head = cabeza
// de token anterior; duplicate-token head = cabeza de token duplicado; probe = secuencia de prueba;
// ablate = desactivar; prompt = prompt; cache = caché; learning rate = tasa de aprendizaje;
// seed = semilla.
export default {
  // Controls
  'training.controls.title': 'Entrena un transformer diminuto',
  'training.task.legend': 'Tarea',
  'training.task.repeated': 'Tokens aleatorios repetidos',
  'training.task.text': 'Texto, carácter a carácter',
  'training.task.textPlaceholder': 'Vacío: los cuentos incluidos (unos 6000 caracteres, en inglés)',
  'training.task.textLabel': 'Tu texto (opcional)',
  'training.task.explain.repeated':
    'Tokens aleatorios repetidos: una serie aleatoria de tokens y luego la misma serie otra vez. La primera copia no se puede predecir; la segunda sí, mirando qué siguió al token actual la última vez. Ese es el trabajo de una cabeza de inducción.',
  'training.task.explain.text':
    'Texto, carácter a carácter: predecir el siguiente carácter de un cuento (o de tu propio texto). Un modelo puede aprender ortografía y palabras frecuentes y copiar un nombre repetido de más atrás.',
  'training.model.legend': 'Modelo y optimizador',
  'training.setting.layers': 'Capas',
  'training.setting.heads': 'Cabezas por capa',
  'training.setting.dModelHint': 'un múltiplo de las cabezas',
  'training.setting.lr': 'Tasa de aprendizaje (Adam)',
  'training.setting.batch': 'Lote',
  'training.setting.seed': 'Semilla',
  'training.setting.mlp': 'MLP en cada bloque (sin ella: solo atención)',
  'training.setting.layerNorm': 'LayerNorm',
  'training.setting.positions': 'Posiciones',
  'training.setting.kvHeads': 'Cabezas de clave/valor',
  'training.setting.kvHeadsHint': 'compartidas por las cabezas de consulta: una caché KV más pequeña',
  'training.setting.windowSize': 'Ventana de atención',
  'training.setting.windowSizeHint': '0 = ninguna; si no, cada token ve solo los últimos W',
  'training.positions.learned': 'Aprendidas (la tabla de vectores de posición de GPT-2)',
  'training.positions.none': 'Ninguna (solo la máscara causal)',
  'training.positions.rope': 'RoPE (q y k girados según su posición)',
  'training.positions.alibi': 'ALiBi (una penalización que crece con la distancia)',
  'training.kvHeads.mha': '{k} (MHA: una por cabeza)',
  'training.kvHeads.mqa': '{k} (MQA: una compartida)',
  'training.kvHeads.gqa': '{k} (GQA: cada una compartida por {share} cabezas)',
  'training.action.train': 'Entrenar',
  'training.action.pause': 'Pausa',
  'training.action.step': 'Un paso',
  'training.action.reset': 'Reiniciar',
  'training.action.defaults': 'Valores por defecto',

  // Run status
  'training.status.building': 'Construyendo el modelo…',
  'training.status.ready': '{parameters} parámetros. Pulsa «Entrenar».',
  'training.status.readyMainThread':
    '{parameters} parámetros. Pulsa «Entrenar». El entrenamiento se ejecuta en el propio hilo de esta página, en tramos cortos: este marco no puede iniciar un Worker.',
  'training.status.step': 'Paso {step}: pérdida {loss}',
  'training.status.stepPaused': 'Paso {step}: pérdida {loss} (en pausa)',
  'training.status.loaded': 'Paso {step}: parámetros entrenados cargados. «Entrenar» continúa desde ellos.',
  'training.status.error': 'El entrenamiento se detuvo: {reason}',

  // Line charts
  'training.chart.step': 'paso {step}',
  'training.chart.range': 'pasos 0–{last}',

  // Loss panel
  'training.loss.title': 'Pérdida',
  'training.loss.rate': '{rate} pasos/s',
  'training.loss.chart': 'Pérdida a lo largo de los pasos (entropía cruzada, nats)',
  'training.loss.series.train': 'lote de entrenamiento',
  'training.loss.series.repeated': 'mitad repetida (prueba)',
  'training.loss.series.all': 'secuencia entera (prueba)',
  'training.loss.series.probe': 'prueba',
  'training.loss.uniform': 'adivinanza uniforme, {lnV}',
  'training.loss.hint.text':
    'Un modelo que adivina el siguiente carácter de manera uniforme entre los V = {V} caracteres pierde {lnV} nats por carácter (la línea de trazo y punto); cada nat menos es conocimiento del texto.',
  'training.loss.hint.repeated':
    'El modelo solo entrena con la mitad repetida (línea continua): se puede predecir perfectamente, y el desplome de su pérdida es la cabeza de inducción formándose. La secuencia entera (discontinua) también puntúa la primera copia, que es aleatoria, y el relleno tras la segunda: ningún modelo puede predecirlos. Una adivinanza uniforme entre los V = {V} tokens perdería allí {lnV} nats por token (la línea de trazo y punto), pero este modelo nunca entrena en esas posiciones y, en cuanto copia, las adivina con seguridad; una adivinanza segura y errónea cuesta más que una uniforme, así que la pérdida de la secuencia entera puede subir por encima de {lnV} mientras la de la mitad repetida baja.',
  'training.loss.general.title': 'Generalización',
  'training.loss.general.idle': 'Entrena unos cientos de pasos para comparar.',
  'training.loss.general.real':
    'Mejor puntuación de inducción en las longitudes de repetición entrenadas: {trained} (pérdida {trainedLoss}); en longitudes nunca vistas ({lengths}): {heldOut} (pérdida {heldOutLoss}). Así que copia lo que siguió la última vez a cualquier distancia: una verdadera cabeza de inducción.',
  'training.loss.general.memorised':
    'Mejor puntuación de inducción en las longitudes de repetición entrenadas: {trained} (pérdida {trainedLoss}); en longitudes nunca vistas ({lengths}): {heldOut} (pérdida {heldOutLoss}). Así que lo hace mucho peor en las longitudes nuevas: puede que haya memorizado periodos.',
  'training.loss.general.none':
    'Mejor puntuación de inducción en las longitudes de repetición entrenadas: {trained} (pérdida {trainedLoss}); en longitudes nunca vistas ({lengths}): {heldOut} (pérdida {heldOutLoss}). Así que aún no hay cabeza de inducción.',

  // Head cards
  'training.heads.title': 'Cada cabeza, en una secuencia de prueba',
  'training.heads.note':
    'Una cabeza recibe un nombre cuando una puntuación supera su umbral: token anterior ≥ {previousToken}, inducción ≥ {induction}. Las puntuaciones se miden en {probes} secuencias de prueba; el mapa muestra la primera.',
  'training.head.title': 'Capa {layer} · cabeza {head}',
  'training.head.chart': 'Capa {layer} · cabeza {head}: puntuaciones a lo largo de los pasos',
  'training.head.map':
    'Capa {layer} · cabeza {head}: atención en la secuencia de prueba (filas: consultas, columnas: claves)',
  'training.head.ablate': 'Desactivar',
  'training.head.restore': 'Restaurar',
  'training.head.ablateTitle': 'Anular la salida de esta cabeza y ver qué pierden la pérdida y las puntuaciones',
  'training.head.open': 'Abrir en el explorador',
  'training.head.label.induction': 'cabeza de inducción',
  'training.head.label.previousToken': 'cabeza de token anterior',
  'training.head.label.duplicateToken': 'cabeza de token duplicado',
  'training.score.previousToken': 'token anterior',
  'training.score.induction': 'inducción',
  'training.score.duplicateToken': 'token duplicado',
  'training.score.previousToken.short': 'ant.',
  'training.score.induction.short': 'inducción',
  'training.score.duplicateToken.short': 'dup.',

  // Ablation
  'training.ablation.drop': '{head} {score} {before} → {after}',
  'training.ablation.drops': 'Sin {heads}: pérdida de prueba {before} → {after}. Puntuaciones perdidas: {drops}.',
  'training.ablation.none':
    'Sin {heads}: pérdida de prueba {before} → {after}. Ninguna cabeza pierde más de 0,05 de una puntuación.',

  // Your text
  'training.yourText.title': 'Tu texto',
  'training.yourText.label': 'Escribe una frase: el modelo de texto la lee carácter a carácter',
  'training.yourText.hint':
    'Cada carácter es un token (como mucho {max}, la longitud de contexto del modelo). Las filas son consultas y las columnas las claves a las que atiende cada una; las puntuaciones se miden en tu texto. El modelo conoce estos {count} caracteres: {known}.',
  'training.yourText.space': 'espacio',
  'training.yourText.newLine': 'salto de línea',
  'training.yourText.empty': 'Escribe al menos un carácter.',
  'training.yourText.map': 'Capa {layer} · cabeza {head}: atención en tu texto (filas: consultas, columnas: claves)',
  'training.yourText.building': 'El modelo aún se está construyendo.',
  'training.yourText.unreadable': 'El modelo no puede leer este texto: {reason}',
  'training.yourText.failed': 'El modelo no pudo leer tu texto: {reason}',
  'training.chars.pair': '«{typed}» como «{read}»',
  'training.chars.replaced': 'No están en el vocabulario del modelo, así que se leen como otro carácter: {list}.',
  'training.chars.replacedMore': {
    one: 'No están en el vocabulario del modelo, así que se leen como otro carácter: {list} y {count} más.',
    other: 'No están en el vocabulario del modelo, así que se leen como otro carácter: {list} y {count} más.',
  },
  'training.chars.clamped.context':
    'Solo se muestran los primeros {max} de tus {total} caracteres: la longitud de contexto del modelo es {max}.',
  'training.chars.clamped.room':
    'Solo se muestran los primeros {max} de tus {total} caracteres: el prompt debe dejar sitio para tokens nuevos.',

  // Trained examples and model files
  'training.examples.title': 'Ejemplos entrenados y archivos de modelo',
  'training.examples.hint':
    'Checkpoints entrenados con el propio entrenador de esta página (npm run train-examples): se abren al instante, con sus cabezas etiquetadas.',
  'training.examples.open.induction': 'Abrir el modelo de inducción',
  'training.examples.open.text': 'Abrir el modelo de texto',
  'training.examples.about.induction':
    'Modelo de inducción: 2 capas, solo atención, entrenado con tokens aleatorios repetidos',
  'training.examples.about.text':
    'Modelo de texto: 2 capas de 2 cabezas, solo atención, entrenado carácter a carácter con los cuentos incluidos',
  'training.examples.yourself': 'Entrénalo tú',
  'training.examples.save': 'Guardar el modelo (.safetensors)',
  'training.examples.openFile': 'Abrir un archivo de modelo',
  'training.examples.unknown': 'No hay ningún ejemplo entrenado llamado «{name}».',
  'training.examples.loading': 'Cargando…',
  'training.examples.opened.induction':
    'Modelo de inducción: 2 capas, solo atención, entrenado con tokens aleatorios repetidos; {steps} pasos (semilla {seed}).',
  'training.examples.opened.text':
    'Modelo de texto: 2 capas de 2 cabezas, solo atención, entrenado carácter a carácter con los cuentos incluidos; {steps} pasos (semilla {seed}).',
  'training.examples.failed': 'No se pudo abrir el ejemplo entrenado: {reason}',
  'training.examples.retraining':
    'Entrenando los mismos ajustes desde cero: las cabezas deberían reaparecer hacia el paso {step}.',
  'training.examples.saveFailed': 'No se pudo guardar el modelo: {reason}',
  'training.examples.fileFailed': 'No se pudo abrir {name}: {reason}',
  'training.examples.fileOpened': '{name} abierto.',
  'training.examples.theFile': 'el archivo',
  'training.examples.noSettings': 'sus metadatos no contienen ajustes (guarda los modelos con esta página)',
  'training.examples.badSettings': 'los ajustes de sus metadatos no son JSON',

  // Attention import
  'training.import.title': 'La atención de tu propio modelo',
  'training.import.button': 'Importar JSON de atención',
  'training.import.hint': 'Un archivo {format}, cada fila una softmax, p. ej. de GPT-2 con output_attentions=True:',
  'training.import.snippet': 'Python que escribe un archivo así',
  'training.import.limits':
    'Límites: archivos de hasta {megabytes} MB, como mucho {tokens} tokens, {heads} cabezas y {weights} pesos en total. Los mapas de más de {tableTokens} tokens (o de muchísimas cabezas) se dibujan como imágenes: señala uno, o dale el foco y usa las flechas, para leer una celda.',
  'training.import.cancel': 'Cancelar',
  'training.import.progress': 'Progreso de la importación',
  'training.import.theFile': 'el archivo',
  'training.import.reading': 'Leyendo {name}…',
  'training.import.done': '{name}: {layers} capas, {heads} cabezas, {tokens} tokens.',
  'training.import.failed': 'No se pudo importar {name}: {reason}.',
  'training.import.cancelled': 'Importación cancelada; lo que se mostraba antes se mantiene.',
  'training.import.map': 'Importada: capa {layer} · cabeza {head}, atención (filas: consultas, columnas: claves)',

  // The attention file's problems (attention-json.js)
  'training.json.kind.string': 'una cadena',
  'training.json.kind.array': 'un array',
  'training.json.kind.object': 'un objeto',
  'training.json.kind.boolean': 'true o false',
  'training.json.kind.null': 'null',
  'training.json.kind.number': 'un número',
  'training.json.notJson.endsInString': 'el archivo no es JSON (termina en medio de una cadena)',
  'training.json.notJson.unclosed': 'el archivo no es JSON (termina antes de que se cierre su objeto)',
  'training.json.notJson.empty': 'el archivo no es JSON (está vacío)',
  'training.json.notJson.trailing': 'el archivo no es JSON (hay algo más tras cerrarse su objeto, en "{at}")',
  'training.json.notJson.fieldName': 'el archivo no es JSON (se esperaba un nombre de campo y hay "{found}")',
  'training.json.notJson.colon': 'el archivo no es JSON (se esperaba ":" tras un nombre de campo y hay "{found}")',
  'training.json.notJson.comma': 'el archivo no es JSON (se esperaba "," o "{closer}" y hay "{found}")',
  'training.json.notJson.unexpected': 'el archivo no es JSON (inesperado: "{at}")',
  'training.json.notJson.badString': 'el archivo no es JSON (una cadena incorrecta: {at})',
  'training.json.notJson.badNumber': 'el archivo no es JSON (un número incorrecto en "{at}")',
  'training.json.longString': 'el archivo contiene una cadena de más de {max} caracteres',
  'training.json.nested': 'el archivo está anidado a más de {max} niveles',
  'training.json.notObject': 'el archivo debe contener un objeto { "tokens": [...], "attentions": [...] }',
  'training.json.tokensTwice': 'el archivo tiene "tokens" dos veces',
  'training.json.tokensArray': '"tokens" debe ser un array no vacío de cadenas',
  'training.json.attentionsTwice': 'el archivo tiene "attentions" dos veces',
  'training.json.attentionsArray': '"attentions" debe ser un array no vacío: [layer][head][query][key]',
  'training.json.tokenString': '{where} debe ser una cadena',
  'training.json.headsArray': '{where} debe ser un array no vacío de cabezas',
  'training.json.rows': '{where} debe tener {rows} filas (una por token), pero tiene {got}',
  'training.json.rowPerToken': '{where} debe tener una fila por token, pero tiene {got}',
  'training.json.numbers': '{where} debe tener {numbers} números, pero tiene {got}',
  'training.json.numberPerToken': '{where} debe tener un número por token, pero tiene {got}',
  'training.json.weight': '{where} debe ser un número ≥ 0, pero es {got}',
  'training.json.rowSum': '{where} suma {sum}; las filas de atención suman 1 (¿es una softmax?)',
  'training.json.tooManyLayers': 'el archivo tiene más de {max} capas',
  'training.json.tooManyHeads': 'el archivo tiene más de {max} cabezas; se pueden mostrar como mucho {max}',
  'training.json.tooManyRows': '{where} tiene más de {max} filas; se pueden mostrar como mucho {max} tokens',
  'training.json.tooManyTokens': '"tokens" tiene más de {max} tokens; se pueden mostrar como mucho {max}',
  'training.json.longToken': '{where} tiene más de {max} caracteres',
  'training.json.tooManyNumbers': '{where} tiene más de {max} números',
  'training.json.tooManyWeights': 'el archivo tiene más de {max} pesos de atención',
  'training.json.longNumber': 'el archivo contiene un número de más de {max} caracteres',
  'training.json.tooLarge': 'el archivo ocupa {size} MB; la importación lee archivos de como mucho {max} MB',
  'training.json.notUtf8': 'el archivo no es texto UTF-8',

  // Generate
  'training.generate.title': 'Generar',
  'training.generate.none': 'Aún no hay modelo: entrena uno, abre un ejemplo entrenado o un checkpoint.',
  'training.generate.ready': 'Continúa tu prompt con {name}.',
  'training.generate.name.text': 'el modelo de caracteres de esta vista',
  'training.generate.name.repeated': 'el modelo de tokens repetidos de esta vista',
  'training.generate.model': 'Modelo',
  'training.generate.model.view': 'El modelo de esta vista',
  'training.generate.model.checkpoint': 'El checkpoint abierto',
  'training.generate.prompt': 'Prompt',
  'training.generate.count': 'Tokens nuevos',
  'training.generate.temperature': 'Temperatura',
  'training.generate.temperatureHint': '0 = voraz',
  'training.generate.topK': 'Top-k',
  'training.generate.topKHint': '0 = todos los tokens',
  'training.generate.seed': 'Semilla',
  'training.generate.layer': 'Capa mostrada',
  'training.generate.head': 'Cabeza mostrada (cachés)',
  'training.generate.layerOption': 'capa {n}',
  'training.generate.headOption': 'cabeza {n}',
  'training.generate.headRow': 'cabeza {n}',
  'training.generate.greedy': 'Voraz (siempre el token más probable)',
  'training.generate.check': 'Comprobar cada token con una pasada completa',
  'training.generate.generate': 'Generar',
  'training.generate.step': 'Paso',
  'training.generate.stop': 'Parar',
  'training.generate.explainIdle':
    'Señala, toca o enfoca cualquier número de un token generado para ver cómo se calculó.',
  'training.generate.explainTitle': '¿Cómo se calculó este número?',
  'training.generate.noPrompt': 'Escribe primero un prompt.',
  'training.generate.notNumber': '{field}: escribe primero un número de {min} a {max}.',
  'training.generate.fieldNote': '{field}: {note}',
  'training.generate.running': 'Token {made} de {total}…',
  'training.generate.ended.done': { one: '{count} token generado.', other: '{count} tokens generados.' },
  'training.generate.ended.length': {
    one: '{count} token generado: el contexto del modelo está lleno.',
    other: '{count} tokens generados: el contexto del modelo está lleno.',
  },
  'training.generate.ended.cancelled': { one: 'Detenido tras {count} token.', other: 'Detenido tras {count} tokens.' },
  'training.generate.ended.modelChanged': {
    one: 'Detenido tras {count} token: el modelo cambió (entrenamiento o un modelo nuevo).',
    other: 'Detenido tras {count} tokens: el modelo cambió (entrenamiento o un modelo nuevo).',
  },
  'training.generate.failed': 'La generación se detuvo: {reason}',
  'training.generate.shown': 'Se muestran las últimas {shown} de {total} posiciones.',
  'training.generate.bytes':
    'Caché: {bytes} bytes = 2 · {layers} capas · {kvHeads} cabezas de clave/valor · head_dim {headDim} · {kept} posiciones · 4 bytes.',
  'training.generate.bytesValue': '{bytes} B',
  'training.generate.ms': '{ms} ms',
  'training.generate.underResolution': 'por debajo de la resolución del temporizador',
  'training.generate.notMeasured': 'no medido',
  'training.generate.notChecked': 'no comprobado',
  'training.generate.stat.bytes': 'Bytes en la caché',
  'training.generate.stat.cached': 'Tiempo medio por token con la caché',
  'training.generate.stat.full': 'Tiempo medio por token recalculando el prefijo',
  'training.generate.stat.difference': 'Mayor diferencia, logits de la caché frente a una pasada completa',
  'training.generate.map.attention': 'Los pesos de la nueva consulta sobre la caché, cada cabeza',
  'training.generate.map.keys': 'Caché K de la cabeza mostrada',
  'training.generate.map.values': 'Caché V de la cabeza mostrada',
  'training.generate.title.attention': 'Capa {layer}: la consulta de «{token}» sobre la caché, cada cabeza',
  'training.generate.title.keys': 'Caché K de la capa {layer}, cabeza de clave/valor {kvHead} (posición: token)',
  'training.generate.title.values': 'Caché V de la capa {layer}, cabeza de clave/valor {kvHead}',
  'training.prompt.ids': {
    one: '{count} token: ids de 0 a {last} (B = 0, el token inicial; 1 es el relleno).',
    other: '{count} tokens: ids de 0 a {last} (B = 0, el token inicial; 1 es el relleno).',
  },
  'training.prompt.leftOut': 'Omitidos, no son tokens de este modelo: {tokens}.',
  'training.prompt.clamped': 'Solo se leen los primeros {max}: el prompt debe dejar sitio para tokens nuevos.',
  'training.prompt.chars': {
    one: '{count} carácter, un token cada uno.',
    other: '{count} caracteres, un token cada uno.',
  },
  'training.prompt.unreadable': 'El modelo no puede leer este prompt: {reason}',

  // "How was this number computed?" in Generate
  'training.explain.attention.title': 'Capa {layer}, cabeza {head}: peso en la posición {position}',
  'training.explain.attention.what':
    'Cabeza {head} de la capa {layer}: la consulta de {query} (posición {queryPosition}) sobre la clave en caché de {key} (posición {keyPosition}), softmax(q·k/√d) sobre todas las posiciones que la caché aún guarda.',
  'training.explain.attention.window': 'Exactamente 0: la posición {position} ha salido de la ventana de {window}.',
  'training.explain.attention.next': 'El siguiente token, {token}, se extrajo de los logits que produjo este paso.',
  'training.explain.cache.titleKeys': 'Caché K, hueco {slot}, columna {column}',
  'training.explain.cache.titleValues': 'Caché V, hueco {slot}, columna {column}',
  'training.explain.cache.what':
    'El hueco {slot} guarda la posición {position} ({token}) de la cabeza de clave/valor {kvHead} en la capa {layer}: se calculó una vez, al añadir ese token, y lo lee cada consulta posterior.',
  'training.explain.cache.rope':
    'Las claves se guardan en caché después de que RoPE las gire, tal como las usan las cabezas.',
  'training.explain.cache.ring':
    'Con una ventana de {window}, la posición p vive en el hueco p mod {window}: un búfer circular.',
  'training.explain.bytes.title': 'Bytes en la caché de clave/valor',
  'training.explain.bytes.formula':
    '2 · capas · kv_heads · head_dim · guardadas · 4 = 2 · {layers} · {kvHeads} · {headDim} · {kept} · 4',
  'training.explain.bytes.result': '= {bytes} B (decoder.cacheBytes)',
  'training.explain.bytes.window':
    'La ventana guarda como mucho {window} posiciones por capa: ahí la caché deja de crecer.',
  'training.explain.bytes.grows': 'Crece con cada token en las claves y los valores de ese token, en cada capa.',
  'training.explain.timing.title': 'Milisegundos por token',
  'training.explain.timing.cached': 'con la caché: {ms} ms (media {mean} ms en {count} tokens)',
  'training.explain.timing.full': 'recalculando el prefijo: {ms} ms (media {mean} ms)',
  'training.explain.timing.how':
    'Medido en el Worker con performance.now(): decoder.sample pasa el único token nuevo por el modelo usando la caché; model.forward sobre los {tokens} tokens es lo que un modelo sin caché calcularía para este token. La diferencia crece con la longitud.',
  'training.explain.difference.title': 'Logits de la caché frente a una pasada completa',
  'training.explain.difference.formula': 'máximo sobre los tokens de maxᵥ |logit_cached − logit_full| = {difference}',
  'training.explain.difference.how':
    'Para cada token, el Worker también ejecutó model.forward sobre todo el prefijo y comparó sus últimos logits con los del paso en caché ({logits} logits cada uno): los mismos números salvo el redondeo de float32.',
};
