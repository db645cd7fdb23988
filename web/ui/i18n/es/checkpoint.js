// Los mensajes de los paneles de checkpoint (abrir un checkpoint, el barrido de cabezas, las notas del
// panel Generar) y las notas del explorador sobre una cabeza de un checkpoint. Glosario además de
// common.js: checkpoint = checkpoint; layer = capa; sweep = barrido; induction head = cabeza de
// inducción; previous-token head = cabeza de token anterior; duplicate-token head = cabeza de token duplicado.
export default {
  'checkpoint.title': 'Abrir un checkpoint',
  'checkpoint.intro':
    'Abre un checkpoint real de GPT-2: elige o suelta su model.safetensors junto con su config.json (caben gpt2, distilgpt2 y gpt2-medium; los archivos vienen de tu disco y no se descarga nada de internet). Un docente puede alojar uno en este sitio y enlazarlo con #checkpoint=models/gpt2/ en la dirección.',
  'checkpoint.choose': 'Archivos del checkpoint (model.safetensors y config.json)',
  'checkpoint.drop': 'o suelta aquí los dos archivos',
  'checkpoint.cancel': 'Cancelar',
  'checkpoint.openingLabel': 'Abriendo el checkpoint',
  'checkpoint.needConfig': 'Elige también el config.json del checkpoint: dice cuántas capas y cabezas tiene el modelo.',
  'checkpoint.needWeights': 'Elige también el archivo model.safetensors: config.json solo describe el modelo.',
  'checkpoint.badJson': 'No se pudo leer config.json: {message}.',
  'checkpoint.otherSite': 'El checkpoint debe venir de este sitio; {url} está en otro, así que no se abre.',
  'checkpoint.unnamed': 'el checkpoint',
  'checkpoint.opening': 'Abriendo {name}…',
  'checkpoint.progress': '{loaded} de {total}',
  'checkpoint.cancelled': 'Se canceló la apertura; no hay nada abierto.',
  'checkpoint.tooLarge': 'Este checkpoint es demasiado grande para la memoria de esta pestaña: {message}.',
  'checkpoint.notGpt2': 'Esto no es un checkpoint de GPT-2 que esta página pueda abrir: {message}.',
  'checkpoint.failed': 'No se pudo abrir el checkpoint: {message}.',
  'checkpoint.opened':
    '{name} está abierto: {layers} capas de {heads} cabezas, d_model {dModel}, {parameters} parámetros, un contexto de {context} tokens.',
  'checkpoint.mainThread':
    'Se ejecuta por partes en el hilo propio de esta página: este marco no puede iniciar un Worker.',
  'checkpoint.worker': 'Se ejecuta en su propio Worker, así la página sigue respondiendo.',
  'checkpoint.notTokenizer':
    'Su vocabulario tiene {vocabulary} tokens, no los 50 257 de GPT-2, así que esta página no puede dividir texto para él; el barrido sigue funcionando.',
  'checkpoint.tokens': {
    one: '{count} token de GPT-2 (Ġ marca un espacio antes de un token):',
    other: '{count} tokens de GPT-2 (Ġ marca un espacio antes de un token):',
  },
  'checkpoint.tokenId': 'id {id}',
  'checkpoint.tokensLabel': 'Tokens de GPT-2 de la frase',
  'checkpoint.showHead': 'Mostrar esta cabeza en el explorador',
  'checkpoint.layer': 'Capa',
  'checkpoint.head': 'Cabeza',
  'checkpoint.sentence': 'Una frase',
  'checkpoint.layerOption': 'capa {layer}',
  'checkpoint.headOption': 'cabeza {head}',
  'checkpoint.notOpen': 'No hay ningún checkpoint abierto: abre uno arriba primero.',
  'checkpoint.headFailed': 'No se pudo mostrar esta cabeza: {message}.',
  'checkpoint.explainTitle': '¿Cómo se calculó este número?',

  'checkpoint.sweep.title': 'Barrer todas las cabezas',
  'checkpoint.sweep.run': 'Puntuar todas las cabezas',
  'checkpoint.sweep.progress': 'Progreso del barrido',
  'checkpoint.sweep.shown': 'Puntuación mostrada',
  'checkpoint.sweep.score.induction': 'Inducción',
  'checkpoint.sweep.score.previousToken': 'Token anterior',
  'checkpoint.sweep.score.duplicateToken': 'Token duplicado',
  'checkpoint.sweep.idle': 'Señala, toca o enfoca una cabeza de la cuadrícula para ver su puntuación.',
  'checkpoint.sweep.map': 'La puntuación de cada cabeza: las filas son capas, las columnas cabezas',
  'checkpoint.sweep.layerRow': 'capa {layer}',
  'checkpoint.sweep.intro':
    '¿Qué cabezas copian? Cada cabeza se puntúa en {count} secuencias de un token inicial, {repeat} tokens aleatorios y los mismos {repeat} tokens otra vez: una cabeza de token anterior atiende al token justo anterior, una cabeza de token duplicado a copias anteriores del token actual, una cabeza de inducción al token que siguió a una copia anterior (lo que permite a un modelo continuar una repetición).',
  'checkpoint.sweep.reported':
    'Descrito en otros trabajos para GPT-2 small (capa.cabeza contadas desde 0, como cuentan esos artículos): cabezas de inducción 5.1, 5.5, 6.9, 7.2 y 7.10 (Olsson et al., 2022; Wang et al., 2022), una cabeza de token anterior 4.11 (Wang et al., 2022). La página cuenta desde 1, así que 5.1 es capa 6 · cabeza 2; esas celdas aparecen recuadradas cuando el modelo tiene la forma de GPT-2 small. Son lo que cabe esperar en los pesos publicados, no algo que esta página haya comprobado; un checkpoint de pesos aleatorios no muestra ninguna.',
  'checkpoint.sweep.running': 'Secuencia {done} de {count}…',
  'checkpoint.sweep.done': { one: 'Puntuado en {count} secuencia.', other: 'Puntuado en {count} secuencias.' },
  'checkpoint.sweep.cancelled': 'Se canceló el barrido.',
  'checkpoint.sweep.failed': 'El barrido se detuvo: {message}',
  'checkpoint.sweep.none': 'Abre primero un checkpoint.',
  'checkpoint.sweep.explain.score.induction': 'puntuación de inducción = {value}',
  'checkpoint.sweep.explain.score.previousToken': 'puntuación de token anterior = {value}',
  'checkpoint.sweep.explain.score.duplicateToken': 'puntuación de token duplicado = {value}',
  'checkpoint.sweep.explain.why':
    'Capa {layer} · cabeza {head} ({paper} contando desde 0, como los artículos): su atención media, agrupada sobre cada consulta válida de {count} secuencias, calculada por el núcleo (attn.headScores) sobre la propia atención del modelo.',
  'checkpoint.sweep.explain.reported': 'Descrita en otros trabajos como una cabeza de este tipo en GPT-2 small.',
  'checkpoint.sweep.explain.title.induction': 'Capa {layer} · cabeza {head}: inducción',
  'checkpoint.sweep.explain.title.previousToken': 'Capa {layer} · cabeza {head}: token anterior',
  'checkpoint.sweep.explain.title.duplicateToken': 'Capa {layer} · cabeza {head}: token duplicado',

  'checkpoint.generate.ids': {
    one: '{count} id de token (este checkpoint no tiene vocabulario de GPT-2 para dividir texto).',
    other: '{count} ids de token (este checkpoint no tiene vocabulario de GPT-2 para dividir texto).',
  },
  'checkpoint.generate.tokens': { one: '{count} token de GPT-2: {pieces}', other: '{count} tokens de GPT-2: {pieces}' },
  'checkpoint.generate.cut': {
    one: '{count} token de GPT-2: {pieces} … (recortado para dejar sitio a tokens nuevos)',
    other: '{count} tokens de GPT-2: {pieces} … (recortado para dejar sitio a tokens nuevos)',
  },

  'checkpoint.vectors.source':
    'Una cabeza de un checkpoint: capa {layer} · cabeza {head} de {name} ({layers} capas de {heads} cabezas, d_model {dModel}). X y W son las propias entradas y pesos del modelo para tu frase, así que los pesos de abajo son su atención real.',
  'checkpoint.vectors.reading': 'Leyendo tu frase con el checkpoint… (hasta entonces X es aleatoria por palabra).',
  'checkpoint.vectors.help':
    'Dividida por el tokenizador de GPT-2, tal como la lee el modelo (Ġ marca un espacio antes de un token; como mucho 24 tokens).',
  'checkpoint.vectors.note':
    'Vectores del checkpoint: cada fila de X es lo que lee la atención de la capa {layer} · cabeza {head} de {name} ({layers} capas de {heads} cabezas, d_model {dModel}) para un token (la LayerNorm de la capa sobre el flujo residual, {dModel} números), escrita en {rank} coordenadas sobre una base ortonormal del espacio generado por los vectores de {dModel} dimensiones de tu frase (construida token a token), más una columna de unos. W_Q, W_K y W_V son los pesos de la cabeza en esa base, su última fila el sesgo: X·W da exactamente q, k y v del modelo, así que los productos escalares, y los pesos de abajo, son los del propio modelo.',
};
