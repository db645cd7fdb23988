// Los textos del explorador en español. Glosario como en common.js; además: heatmap = mapa de
// calor; example = ejemplo; embed = incrustación; share = compartir.
export default {
  'explorer.page.title': 'Explorador de atención: atención de producto escalar y multicabeza, en vivo',
  'explorer.page.embedTitle': 'Explorador de atención (incrustado)',
  'explorer.page.description':
    'Edita consultas, claves, valores o una frase y observa cómo cada paso de softmax(QKᵀ/√dₖ)V se actualiza en vivo, calculado en WebAssembly.',
  'explorer.page.heading': 'Explorador de atención',
  'explorer.page.tagline': ', calculado en vivo en WebAssembly.',
  'explorer.page.taglineMore': ' Cambia cualquier número y observa cómo le sigue cada paso.',
  'explorer.page.skipSteps': 'Saltar a los pasos de la atención',
  'explorer.page.skipHeads': 'Saltar a las cabezas',
  'explorer.page.skipBuilder': 'Saltar al generador de incrustaciones',
  'explorer.page.tools': 'Herramientas',
  'explorer.page.toolsLabel': 'Herramientas de tema, compartir y exportar',
  'explorer.views.label': 'Vistas',
  'explorer.views.explorer': 'Explorador',
  'explorer.views.train': 'Entrenar',
  'explorer.views.trainMore': ' un transformer diminuto',
  'explorer.views.trainName': 'Entrenar un transformer diminuto',
  'explorer.views.embed': 'Incrustar',
  'explorer.views.embedMore': ' una lección',
  'explorer.views.embedName': 'Incrustar una lección',
  'explorer.status.loading': 'Cargando el núcleo de atención…',
  'explorer.status.coreFailed': 'No se pudo cargar el núcleo de atención: {reason}',
  'explorer.status.drawFailed': 'Algo salió mal al dibujar: {reason}',
  'explorer.notice.trainingLesson': 'La lección «{id}» está en la vista de entrenamiento (view="train").',
  'explorer.notice.unknownLesson': 'No hay ninguna lección llamada «{id}». Lecciones: {ids}.',
  'explorer.notice.badParentOrigin':
    'El ajuste parentOrigin no es una lista de orígenes como https://lessons.example: se ignoran los mensajes de la página de la lección.',
  'explorer.builder.title': 'Incrustar una lección',
  'explorer.builder.intro':
    'Elige una lección y sus opciones; el marco de la derecha muestra la lección tal como la verán tus lectores. Copia el elemento (para una página que pueda alojar los archivos del explorador) o el iframe (para cualquier plataforma de cursos). docs/embedding.md describe todas las opciones.',
  'explorer.builder.whole': 'El explorador completo',
  'explorer.builder.group.tabs': 'Lecciones',
  'explorer.builder.group.steps': 'Pasos del proceso',
  'explorer.builder.group.training': 'Entrenar un transformer',
  'explorer.builder.lessonOption': '{title} ({id})',
  'explorer.builder.controls.own': 'Los de la lección (mínimos)',
  'explorer.builder.controls.none': 'Ninguno',
  'explorer.builder.controls.minimal': 'Mínimos',
  'explorer.builder.controls.full': 'Todos',
  'explorer.builder.readOnly': 'Solo lectura: los números y los ajustes no se pueden editar',
  'explorer.builder.reveal': 'Predecir y luego revelar: quien aprende adivina antes de ver la respuesta',
  'explorer.builder.theme.auto': 'El del sistema del lector',
  'explorer.builder.theme.light': 'Claro',
  'explorer.builder.theme.dark': 'Oscuro',
  'explorer.builder.lang.reader': 'El idioma del navegador del lector',
  'explorer.builder.lang.en': 'Inglés (English)',
  'explorer.builder.lang.de': 'Alemán (Deutsch)',
  'explorer.builder.lang.es': 'Español',
  'explorer.builder.start': 'Números iniciales (opcional)',
  'explorer.builder.hint.q': 'consultas, una fila cada una: [[1, 0], [0, 1]] o 1 0; 0 1',
  'explorer.builder.hint.k': 'claves, con tantas columnas como q',
  'explorer.builder.hint.v': 'valores, una fila por clave (opcional)',
  'explorer.builder.hint.x': 'vectores de tokens, una fila por palabra de la frase',
  'explorer.builder.hint.sentence': 'palabras: dan nombre a las filas',
  'explorer.builder.hint.mask': 'none, causal, padding, custom o filas JSON de 0/1',
  'explorer.builder.lesson': 'Lección',
  'explorer.builder.controls': 'Controles',
  'explorer.builder.theme': 'Tema',
  'explorer.builder.lang': 'Idioma',
  'explorer.builder.langHint':
    'El idioma de los textos y números de la lección; sin elegir, la lección sigue al navegador del lector.',
  'explorer.builder.noQuestion':
    'Esta lección no tiene pregunta: elige weights, softmax-row, pitfalls, sqrt-dk o induction.',
  'explorer.builder.copy.element': 'Copiar el elemento',
  'explorer.builder.copy.iframe': 'Copiar el iframe',
  'explorer.builder.elementSnippet': 'Elemento (<attention-explorer>)',
  'explorer.builder.iframeSnippet': 'iframe (embed.html)',
  'explorer.builder.preview': 'Vista previa de la lección incrustada',
  'explorer.builder.frameTitle': 'Explorador de atención: {lesson}',
  'explorer.builder.copied.element':
    'Elemento copiado. Necesita los archivos del explorador en el sitio de tu lección: cambia la dirección del script a esa copia.',
  'explorer.builder.copied.iframe':
    'iframe copiado. Carga la lección desde este sitio y funciona en cualquier página de lecciones.',
  'explorer.builder.copyByHand': 'Copia este texto (Ctrl+C o ⌘C):',
  'explorer.preset.lesson.label': 'Ejemplo NumPy de la lección (semilla 42, X 4×8, W 8×4)',
  'explorer.preset.lesson.description':
    'np.random.seed(42); X = randn(4, 8); Wq, Wk, Wv = tres randn(8, 4). Los pesos coinciden con la salida de la lección (filas con 0.85 y 0.62).',
  'explorer.preset.hand.label': 'A mano: 3 tokens, dₖ = 2',
  'explorer.preset.hand.description': 'Números enteros pequeños que puedes comprobar en papel.',
  'explorer.preset.causal.label': 'Máscara causal (decodificador al estilo GPT)',
  'explorer.preset.causal.description':
    'Cada token solo se ve a sí mismo y a los tokens anteriores: el triángulo superior de los pesos es exactamente 0.',
  'explorer.preset.padding.label': 'Máscara de relleno (tokens [PAD])',
  'explorer.preset.padding.description':
    'Una frase corta rellenada hasta longitud 6; nadie atiende a las claves [PAD].',
  'explorer.preset.saturation.label': 'Por qué √dₖ: Q y K de varianza unitaria con dₖ = 32',
  'explorer.preset.saturation.description':
    'Desactiva √dₖ: las puntuaciones se dispersan hasta unos ±√32 y los pesos se saturan hacia one-hot.',
  'explorer.preset.heads.label': 'Cuatro cabezas, cuatro tareas (d_model = 16, h = 4)',
  'explorer.preset.heads.description':
    'Cabezas hechas a mano: token anterior, misma palabra, primer token y una media amplia.',
  'explorer.preset.mixing.label': 'Mezclar en el plano: 4 tokens, dᵥ = 2',
  'explorer.preset.mixing.description':
    'Cada valor es un punto del plano; cada salida es una media ponderada de ellos y cae dentro de su envolvente. Arrastra los puntos en la lección «Mezcla» más abajo.',
  'explorer.preset.fully-masked.label': 'Una fila totalmente enmascarada (máscara personalizada)',
  'explorer.preset.fully-masked.description':
    'La consulta 2 no puede ver ninguna clave: sus pesos son 0, no NaN, y su salida es 0.',
  'explorer.controls.label': 'Controles',
  'explorer.controls.hide': 'Ocultar los controles',
  'explorer.controls.show': 'Mostrar los controles',
  'explorer.controls.example': 'Ejemplo',
  'explorer.controls.choose': 'Elige un ejemplo…',
  'explorer.controls.preset': 'Ejemplo predefinido',
  'explorer.controls.presetHelp': 'Elige un ejemplo ya preparado o edita cualquier número.',
  'explorer.controls.input': 'Entrada',
  'explorer.controls.mode.sentence': 'Frase → X·W',
  'explorer.controls.mode.qkv': 'Q, K, V directamente',
  'explorer.controls.tokens.self': {
    one: 'n = m = {count} token (de la frase).',
    other: 'n = m = {count} tokens (de la frase).',
  },
  'explorer.controls.tokens.cross': 'n = {n} tokens de consulta, m = {m} tokens de memoria (de las frases).',
  'explorer.controls.tokens.perHead': 'Cada cabeza recibe dₖ = dᵥ = d_model / h.',
  'explorer.controls.sizes': 'Tamaños',
  'explorer.controls.size.n': 'n (consultas)',
  'explorer.controls.size.m': 'm (claves)',
  'explorer.controls.size.heads': 'cabezas h',
  'explorer.controls.random': 'Valores aleatorios',
  'explorer.controls.randomize': 'Aleatorizar',
  'explorer.controls.randomizeTitle': 'Sacar valores nuevos con la siguiente semilla',
  'explorer.controls.seed': 'Semilla',
  'explorer.controls.temperature': 'Temperatura T',
  'explorer.controls.temperatureNumber': 'Temperatura T (número)',
  'explorer.controls.temperatureReset': 'Restablecer a T = 1',
  'explorer.controls.scaling': 'Escalado',
  'explorer.controls.sqrtDk': 'dividir entre √dₖ',
  'explorer.controls.scaledBy': 'QKᵀ escalado por {scale}',
  'explorer.controls.scaleNote.multi':
    'Cada cabeza se escala por 1/(T·√dₖ) con su propio dₖ = d_model / h. T < 1 agudiza el softmax, T > 1 lo aplana.',
  'explorer.controls.scaleNote.one':
    'T < 1 agudiza el softmax, T > 1 lo aplana. Desactiva √dₖ para ver cómo se saturan los pesos.',
  'explorer.controls.mask': 'Máscara',
  'explorer.controls.mask.none': 'Ninguna',
  'explorer.controls.mask.causal': 'Causal',
  'explorer.controls.mask.padding': 'Relleno',
  'explorer.controls.mask.custom': 'Personalizada',
  'explorer.controls.maskHelp.none': 'Cada consulta ve todas las claves.',
  'explorer.controls.maskHelp.causal': 'La consulta i solo ve las claves 1..i: nada de mirar tokens posteriores.',
  'explorer.controls.maskHelp.padding':
    'Las claves marcadas [PAD] quedan ocultas para todas las consultas. Cambia las claves abajo.',
  'explorer.controls.maskHelp.custom':
    'Haz clic en una celda de las puntuaciones (o pulsa Intro sobre ella) para ocultar o mostrar ese par consulta–clave.',
  'explorer.controls.padKeys': 'Claves marcadas como [PAD]',
  'explorer.controls.padOn': '{key} es [PAD] (oculta); haz clic para desmarcar',
  'explorer.controls.padOff': 'Marcar {key} como [PAD]',
  'explorer.controls.showAllPairs': 'Mostrar todos los pares',
  'explorer.controls.headShown': 'Cabeza mostrada',
  'explorer.controls.headShownLabel': 'Cabeza mostrada en los pasos',
  'explorer.controls.head': 'Cabeza {k}',
  'explorer.controls.headNamed': 'Cabeza {k}: {name}',
  'explorer.display.theme': 'Tema',
  'explorer.display.theme.auto': 'Sistema',
  'explorer.display.theme.light': 'Claro',
  'explorer.display.theme.dark': 'Oscuro',
  'explorer.display.palette': 'Paleta de los pesos',
  'explorer.display.palette.viridis': 'Viridis',
  'explorer.display.palette.cividis': 'Cividis',
  'explorer.display.palette.blues': 'Azules',
  'explorer.extras.legend': 'Sesgo y atención cruzada',
  'explorer.extras.bias': 'Sumar una matriz de sesgo B a las puntuaciones',
  'explorer.extras.biasStarts': 'B empieza como',
  'explorer.extras.biasPreset.zeros': 'ceros (sin efecto)',
  'explorer.extras.biasPreset.alibi': 'al estilo ALiBi: −0.5 × |i − j|',
  'explorer.extras.biasPreset.causal-inf': 'causal, −∞ sobre la diagonal',
  'explorer.extras.biasPreset.causal-large': 'causal, −10000 sobre la diagonal',
  'explorer.extras.biasPreset.random': 'aleatoria (con semilla)',
  'explorer.extras.biasHelp':
    'B se suma a las puntuaciones escaladas antes del softmax (una máscara aditiva); se combina con la máscara de arriba. Escribe -inf en una celda para ocultar un par.',
  'explorer.extras.biases': 'Sesgos de proyección b_Q, b_K, b_V, b_O',
  'explorer.extras.biasesHelp.qkv': 'Solo en modo frase: los sesgos pertenecen a las proyecciones X·W.',
  'explorer.extras.biasesHelp.multi':
    'Q = X·W_Q + b_Q (y K, V igual), salida = concat·W_O + b_O: la capa se construye con bias: true.',
  'explorer.extras.biasesHelp.one':
    'Q = X·W_Q + b_Q, K = X·W_K + b_K, V = X·W_V + b_V (una sola cabeza no tiene W_O, así que tampoco b_O).',
  'explorer.extras.cross': 'Atención cruzada: claves y valores de una frase de memoria',
  'explorer.extras.memory': 'Frase de memoria (claves y valores)',
  'explorer.extras.crossHelp.qkv':
    'Solo en modo frase (con Q, K, V escritos directamente, K y V ya pueden tener m ≠ n filas).',
  'explorer.extras.crossHelp.on':
    'Consultas de la frase (n = {n}), claves y valores de la memoria (m = {m} tokens, como mucho {max}): K = X_mem·W_K, V = X_mem·W_V.',
  'explorer.extras.crossHelp.self': 'Autoatención: consultas, claves y valores salen todos de la frase.',
  'explorer.vectors.from': 'Vectores de tokens de',
  'explorer.vectors.source.random': 'Aleatorios por palabra',
  'explorer.vectors.source.text-model': 'El modelo de texto entrenado',
  'explorer.vectors.source.trained-head': 'Una cabeza entrenada (capa, cabeza, sonda)',
  'explorer.vectors.source.checkpoint': 'El checkpoint abierto (GPT-2)',
  'explorer.vectors.layer': 'Capa del modelo',
  'explorer.vectors.head': 'Cabeza del modelo',
  'explorer.vectors.layerN': 'Capa {k}',
  'explorer.vectors.headN': 'Cabeza {k}',
  'explorer.vectors.loadingModel': 'Cargando el modelo de texto entrenado…',
  'explorer.vectors.modelFailed': 'No se pudo cargar el modelo de texto: {reason}',
  'explorer.vectors.trainedOption': 'Entrenada: {name}',
  'explorer.vectors.randomNote':
    'Aleatorios por palabra: el vector de cada palabra es aleatorio pero fijo, según la semilla; ningún modelo los ha aprendido, así que los patrones de atención aún no significan nada.',
  'explorer.vectors.handBuiltNote':
    'Escritos a mano para este ejemplo: el vector de cada palabra contiene los rasgos que leen sus cabezas (dónde está la palabra, qué palabra es), así que cada cabeza muestra el patrón que da su nombre. Si cambias la frase, la semilla, d_model o las posiciones, los vectores vuelven a ser aleatorios por palabra y las cabezas pierden sus nombres.',
  'explorer.vectors.randomNoteLeft':
    'Aleatorios por palabra: el vector de cada palabra es aleatorio pero fijo, según la semilla; ningún modelo los ha aprendido, así que los patrones de atención aún no significan nada. (La X de la cabeza entrenada pertenecía a su secuencia de sondeo y a sus tamaños: tras ese cambio X vuelve a ser aleatoria por palabra; las matrices de pesos se quedan como estaban hasta que las cambies.)',
  'explorer.vectors.modelNote':
    'El modelo de texto entrenado: un transformer pequeño entrenado con los cuentos incluidos en esta página (web/trained/text), un carácter por token; X y W son sus entradas y pesos reales para la cabeza elegida, así que los pesos de atención muestran a qué atiende de verdad.',
  'explorer.vectors.readingCheckpoint': 'Leyendo la frase con el checkpoint…',
  'explorer.vectors.typeFirst': 'Escribe primero una frase.',
  'explorer.vectors.checkpointFailed': 'El checkpoint no pudo leer la frase: {reason}',
  'explorer.vectors.openedCheckpoint': 'El checkpoint abierto ({name})',
  'explorer.vectors.reopenCheckpoint':
    'Vuelve a abrir el checkpoint en la vista de entrenamiento para leer una frase nueva con él.',
  'explorer.trained.model.induction': 'del ejemplo de inducción entrenado',
  'explorer.trained.model.text': 'del ejemplo de texto entrenado',
  'explorer.trained.model.trained': 'del modelo entrenado en la vista de entrenamiento',
  'explorer.trained.task.text': 'texto a nivel de carácter',
  'explorer.trained.task.induction': 'tokens aleatorios repetidos',
  'explorer.trained.heads': { one: '{count} cabeza', other: '{count} cabezas' },
  'explorer.trained.size': { one: '{count} capa de {heads}', other: '{count} capas de {heads}' },
  'explorer.trained.origin': '{name} {model} ({size}, {steps} pasos con {task})',
  'explorer.trained.shownHelp':
    'Abierta desde la vista de entrenamiento: {origin}, leyendo su secuencia de sondeo. Elige un ejemplo para salir.',
  'explorer.trained.textOption': 'Modelo de texto {name}',
  'explorer.trained.textHelp':
    'Tu frase, leída por la cabeza del modelo de texto entrenado (Vectores de tokens de, abajo). Elige un ejemplo para salir.',
  'explorer.trained.checkpointOption': 'Checkpoint {name}',
  'explorer.trained.checkpointHelp':
    'Tu frase, leída por la cabeza de {model} (Vectores de tokens de, abajo). Elige un ejemplo para salir.',
  'explorer.trained.dModelCheckpoint':
    'd_model = {dModel}: las {rank} direcciones que generan los vectores de tu frase dentro de las {width} del modelo, más una columna de unos cuya fila en cada W es el sesgo de la cabeza.',
  'explorer.trained.dModel':
    'd_model = {dModel}: los {features} rasgos del modelo más una columna de unos, cuya fila en cada W es el sesgo de la cabeza (X·W + b = [X, 1]·[W; b]).',
  'explorer.trained.where.first': 'su embedding de token más el embedding aprendido de su posición',
  'explorer.trained.where.later': {
    one: 'sus embeddings de token y de posición tras la capa {range} (el flujo residual)',
    other: 'sus embeddings de token y de posición tras las capas {range} (el flujo residual)',
  },
  'explorer.trained.inputs.token':
    'cada fila de X es lo que ve la atención de la capa {layer} para un token: {where}, tras la LayerNorm de la capa ({columns} columnas), más una última columna de unos. W_Q, W_K y W_V son los pesos entrenados de la cabeza {head}, su última fila su sesgo. El modelo aprendió sus propias posiciones, así que están dentro de X y aquí no se añade información de posición.',
  'explorer.trained.inputs.char':
    'cada fila de X es lo que ve la atención de la capa {layer} para un carácter: {where}, tras la LayerNorm de la capa ({columns} columnas), más una última columna de unos. W_Q, W_K y W_V son los pesos entrenados de la cabeza {head}, su última fila su sesgo. El modelo aprendió sus propias posiciones, así que están dentro de X y aquí no se añade información de posición.',
  'explorer.trained.probe.text': 'un fragmento del texto con el que se entrenó',
  'explorer.trained.probe.induction':
    'B (el token de inicio), tokens aleatorios y luego los mismos tokens otra vez, cada uno mostrado por su id',
  'explorer.trained.source':
    'Una cabeza entrenada: {origin}. X y W son las entradas y los pesos propios del modelo para su secuencia de sondeo, así que los pesos de abajo son la atención real de la cabeza sobre ella, no una ilustración.',
  'explorer.trained.help':
    'La secuencia de sondeo con la que la vista de entrenamiento muestra las cabezas: {probe}. Escribir una frase abandona la cabeza entrenada (X pasa a ser aleatoria por palabra).',
  'explorer.trained.note': 'Vectores entrenados: {inputs}',
  'explorer.trained.explorerLimit': 'el explorador muestra como mucho {max} tokens',
  'explorer.trained.chars': {
    one: '{count} carácter, un token cada uno (como mucho {max}).',
    other: '{count} caracteres, un token cada uno (como mucho {max}).',
  },
  'explorer.trained.textNote':
    'Vectores entrenados: {inputs} Así que los pesos de abajo son las probabilidades de atención propias del modelo para tu texto (causal: un carácter solo ve los anteriores).',
  'explorer.share.link': 'Copiar enlace',
  'explorer.share.linkTitle': 'Copiar un enlace que abre exactamente este ejemplo',
  'explorer.share.embed': 'Copiar código para incrustar',
  'explorer.share.embedTitle':
    'Copiar el HTML del elemento <attention-explorer> (necesita los archivos del explorador en el sitio de tu lección)',
  'explorer.share.iframe': 'Copiar código del iframe',
  'explorer.share.iframeTitle':
    'Copiar un <iframe> que muestra este ejemplo desde este sitio, en cualquier página de lecciones',
  'explorer.share.textToCopy': 'Texto para copiar',
  'explorer.share.hostNote':
    'Sustituye {placeholder} por la dirección donde está alojada la carpeta web/ de attention-explorer.',
  'explorer.share.noPage':
    'Esta aplicación incluye el explorador sin su página independiente, así que no hay página a la que enlazar: aloja la carpeta web/ de attention-explorer (la salida de npm run build o node_modules/attention-explorer/web) e indica su index.html como link-base.',
  'explorer.share.copied.link': 'Enlace copiado.',
  'explorer.share.copied.embed':
    'Código para incrustar copiado. Necesita los archivos del explorador alojados en el sitio de tu lección: cambia la dirección del script a esa copia (un script de otro sitio se bloquea).',
  'explorer.share.copied.iframe':
    'Código del iframe copiado. Carga el explorador desde este sitio y funciona en cualquier página de lecciones; el marco informa de su altura (docs/embedding.md).',
  'explorer.start.title': 'Empieza aquí',
  'explorer.start.gotIt': 'Entendido',
  'explorer.start.gotItLabel': 'Entendido: ocultar «Empieza aquí»',
  'explorer.start.one': 'Escribe una frase: cada palabra se convierte en una fila y una columna.',
  'explorer.start.oneAction': 'Escribir',
  'explorer.start.two': 'Señala un peso para ver cómo se calculó.',
  'explorer.start.twoAction': 'Muéstramelo',
  'explorer.start.three': 'Oculta el futuro con la máscara causal.',
  'explorer.start.threeAction': 'Máscara causal',
  'explorer.start.hide': 'Ocultar',
  'explorer.start.show': 'Tres cosas para probar',
  'explorer.sentence.label': 'Frase',
  'explorer.sentence.addPad': 'Añadir un token de relleno (ocúltalo con la máscara de relleno)',
  'explorer.sentence.tokens': 'Tokens',
  'explorer.sentence.empty': 'Escribe al menos una palabra: los tokens dan nombre a las filas y columnas.',
  'explorer.sentence.help': {
    one: '{count} token (como mucho {max}); las palabras y los signos de puntuación se vuelven tokens, {pad} es un token de relleno.',
    other:
      '{count} tokens (como mucho {max}); las palabras y los signos de puntuación se vuelven tokens, {pad} es un token de relleno.',
  },
  'explorer.sentence.positional': 'Información de posición sumada a X',
  'explorer.sentence.positional.none': 'ninguna (la atención no distingue el orden)',
  'explorer.sentence.positional.sinusoidal': 'sinusoidal (sin/cos de la posición)',
  'explorer.sentence.positional.learned': 'al estilo aprendido (un vector aleatorio por posición)',
  'explorer.sentence.vectorsNote':
    'El vector de cada palabra es aleatorio pero fijo: la misma palabra recibe siempre el mismo vector (del generador de NumPy, con una semilla hecha de un hash de la palabra en minúsculas y la semilla). Ningún modelo los ha aprendido, así que palabras parecidas no están cerca. Cambiar la frase, la semilla, d_model o las posiciones reconstruye X; las ediciones de X duran hasta entonces.',
  'explorer.inputs.title': 'Entradas',
  'explorer.inputs.title.Q': 'Consultas Q',
  'explorer.inputs.title.K': 'Claves K',
  'explorer.inputs.title.V': 'Valores V',
  'explorer.inputs.title.X': 'Vectores de tokens X',
  'explorer.inputs.title.XM': 'Vectores de memoria X_mem',
  'explorer.inputs.hint.Q': 'Lo que busca cada token de consulta.',
  'explorer.inputs.hint.K': 'Lo que ofrece cada token clave para emparejarse.',
  'explorer.inputs.hint.V': 'Lo que transmite cada token clave cuando se le atiende.',
  'explorer.inputs.hint.X':
    'Una fila por token (en una frase escrita: el vector de su palabra más el de su posición). Edítala para cambiar lo que «significa» un token.',
  'explorer.inputs.hint.WQ': 'Proyecta un vector de token en su consulta.',
  'explorer.inputs.hint.WK': 'Proyecta un vector de token en su clave.',
  'explorer.inputs.hint.WV': 'Proyecta un vector de token en su valor.',
  'explorer.inputs.hint.WO': 'Mezcla las salidas concatenadas de las cabezas en la salida de la capa.',
  'explorer.inputs.hint.XM':
    'Una fila por token de memoria (atención cruzada): las claves y los valores se calculan a partir de estas filas.',
  'explorer.inputs.hint.BQ': 'Se suma a cada fila de Q = X·W_Q + b_Q.',
  'explorer.inputs.hint.BK':
    'Se suma a cada fila de K. Un sesgo en las claves desplaza por igual todas las puntuaciones de una consulta, así que el softmax lo anula.',
  'explorer.inputs.hint.BV':
    'Se suma a cada fila de V, así que pasa sin cambios a cada fila de salida (los pesos suman 1).',
  'explorer.inputs.hint.BO': 'Se suma a cada fila de la salida de la capa.',
  'explorer.inputs.projectionLabel': '{name} = X por W_{name}',
  'explorer.inputs.split':
    'Las columnas se reparten en {heads} cabezas de {width}: la cabeza 1 lee las columnas 1–{width}, y así sucesivamente.',
  'explorer.inputs.projections': 'Proyecciones, calculadas por el núcleo',
  'explorer.inputs.sub.sentenceOnly': 'Escribe una frase: todos los números de abajo se actualizan al instante.',
  'explorer.inputs.sub.sentence':
    'Escribe una frase y luego edita los vectores de tokens y los pesos de proyección (d_model = {dModel}). Todos los números de abajo se actualizan al instante.',
  'explorer.inputs.sub.qkvOnly': 'Edita cualquier número. Todos los números de abajo se actualizan al instante.',
  'explorer.inputs.sub.qkv':
    'Edita cualquier consulta, clave o valor. Todos los números de abajo se actualizan al instante.',
  'explorer.inputs.biasShape': '1 × {c}, uno por columna de {of}',
  'explorer.inputs.biasShapeOutput': '1 × {c}, uno por columna de la salida',
  'explorer.inputs.reset': 'Restablecer',
  'explorer.inputs.resetTitle': 'Devolver {name} a los valores exactos del ejemplo',
  'explorer.inputs.resetLabel': 'Restablecer {name} a los valores del ejemplo',
  'explorer.inputs.showMatrix': 'Mostrar la matriz',
  'explorer.inputs.hideMatrix': 'Ocultar la matriz',
  'explorer.inputs.showMatrixCells': {
    one: 'Mostrar la matriz ({count} celda)',
    other: 'Mostrar la matriz ({count} celdas)',
  },
  'explorer.bias.title': 'Matriz de sesgo B',
  'explorer.bias.formula': 'sumada a S′ antes del softmax',
  'explorer.bias.hint':
    'Una máscara aditiva: cada entrada se suma a su puntuación escalada. 0 no cambia nada, los números negativos rebajan una clave, −∞ (escribe ‑inf) la oculta igual que una máscara.',
  'explorer.bias.reset': 'Restablecer la matriz de sesgo B a los valores de su ajuste',
  'explorer.bias.fullyMasked': {
    one: '{count} fila de las puntuaciones es −∞ en todas partes: el núcleo da a esa fila pesos 0 y salida 0 en lugar de NaN.',
    other:
      '{count} filas de las puntuaciones son −∞ en todas partes: el núcleo da a esas filas pesos 0 y salida 0 en lugar de NaN.',
  },
  'explorer.pipeline.title': 'La atención, paso a paso',
  'explorer.pipeline.sub.multi':
    'Se muestra la cabeza {k} de {heads} (dₖ = d_model / h = {dk}). Elige otra cabeza en los controles o en la cuadrícula de cabezas de abajo.',
  'explorer.pipeline.sub.one': 'n = {n} consultas, m = {m} claves, dₖ = {dk}, dᵥ = {dv}.',
  'explorer.pipeline.sub.cross':
    'Atención cruzada: las filas son los {n} tokens de la frase (consultas), las columnas los {m} tokens de la memoria (claves y valores).',
  'explorer.pipeline.scaledNoSqrt': 'S′ = S / T  (sin √dₖ) = S × ',
  'explorer.pipeline.scalingOff': 'S′ = S  (escalado desactivado)',
  'explorer.pipeline.scalingOffNote':
    'El escalado está desactivado: compara la entropía de los pesos con √dₖ activado.',
  'explorer.pipeline.sameScale':
    'Todas las cabezas usan la misma escala (su propio dₖ = {dk}); torch.nn.MultiheadAttention usa siempre 1/√dₖ.',
  'explorer.pipeline.summary':
    'Entropía media {entropy} nats (atención uniforme sobre {m} claves: ln {m} = {uniform}); peso máximo medio {max}.',
  'explorer.pipeline.allMasked': 'Todas las filas están totalmente enmascaradas: ninguna consulta ve ninguna clave.',
  'explorer.pipeline.stat.sum': 'suma de la fila (1 salvo que todas las claves estén ocultas)',
  'explorer.pipeline.stat.entropy': 'entropía de la fila en nats',
  'explorer.pipeline.stat.max': 'máx',
  'explorer.pipeline.stat.maxTitle': 'mayor peso de la fila',
  'explorer.pipeline.quoted': '«{label}»',
  'explorer.pipeline.fullyMasked': {
    one: 'Fila totalmente enmascarada {names}: ninguna clave visible, así que los pesos son todos 0 (no NaN) y la fila de salida es 0.',
    other:
      'Filas totalmente enmascaradas {names}: ninguna clave visible, así que los pesos son todos 0 (no NaN) y la fila de salida es 0.',
  },
  'explorer.pipeline.scores': 'Puntuaciones',
  'explorer.pipeline.scoresHint':
    'Fila = consulta, columna = clave: el producto escalar dice lo bien que cada clave encaja con lo que busca la consulta.',
  'explorer.pipeline.customNote':
    'Máscara personalizada: haz clic en una celda (o pulsa Intro sobre ella) para ocultar o mostrar ese par.',
  'explorer.pipeline.scaled': 'Puntuaciones escaladas',
  'explorer.pipeline.scaledHint':
    'Los productos escalares crecen con dₖ; dividir entre √dₖ mantiene su dispersión cerca de 1 para que el softmax siga siendo suave.',
  'explorer.pipeline.maskName.none': 'sin máscara',
  'explorer.pipeline.maskName.causal': 'máscara causal',
  'explorer.pipeline.maskName.padding': 'máscara de relleno',
  'explorer.pipeline.maskName.custom': 'máscara personalizada',
  'explorer.pipeline.masked': 'M = S′ + máscara  ({mask})',
  'explorer.pipeline.maskedBias': 'M = S′ + B + máscara  ({mask}; puntuación + sesgo = puntuación enmascarada)',
  'explorer.pipeline.maskedTitle': 'Puntuaciones enmascaradas',
  'explorer.pipeline.maskedFormula': 'M = S′ + máscara',
  'explorer.pipeline.maskedHint':
    'Los pares ocultos pasan a −∞ antes del softmax, así que reciben exactamente peso cero y el resto sigue sumando 1.',
  'explorer.pipeline.noMask':
    'Sin máscara: M = S′, los mismos números que en el paso 2. Elige una máscara para ocultar pares consulta–clave.',
  'explorer.pipeline.weights': 'Pesos de atención',
  'explorer.pipeline.weightsFormula': 'A = softmax(M), fila a fila',
  'explorer.pipeline.weightsHint':
    'Cada fila es una distribución de probabilidad sobre las claves. H es su entropía en nats: cerca de 0 significa que una clave se lo lleva casi todo.',
  'explorer.pipeline.output': 'Salida',
  'explorer.pipeline.outputHint':
    'Cada fila de salida es una media ponderada de las filas de valores: la atención mezcla valores, nunca inventa otros nuevos.',
  'explorer.pipeline.error': 'No se puede calcular: {reason}',
  'explorer.pipeline.titleHead': '{title} — cabeza {k}',
  'explorer.pipeline.titleHeadNamed': '{title} — cabeza {k} ({name})',
  'explorer.agree.agree':
    'Dos implementaciones coinciden: la página (WebAssembly, float32) y JavaScript float64 sencillo escrito a partir de la fórmula.',
  'explorer.agree.disagree':
    'Dos implementaciones no coinciden: la página (WebAssembly, float32) y JavaScript float64 sencillo escrito a partir de la fórmula.',
  'explorer.agree.difference':
    'Mayor diferencia en {weightCount} pesos: {weights}; en {outputCount} salidas: {outputs}.',
  'explorer.agree.differenceRelative':
    'Mayor diferencia en {weightCount} pesos: {weights}; en {outputCount} salidas: {outputs} ({relative} de la mayor salida).',
  'explorer.agree.tooLarge': 'Eso es más de lo que explica el redondeo de float32.',
  'explorer.agree.rounding': 'Es el redondeo de float32, por debajo de 1e−6.',
  'explorer.agree.roundingLarge':
    'Es el redondeo de float32: aquí por encima de 1e−6 porque las puntuaciones llegan a ±{scores}, y float32 guarda unas 7 cifras significativas de cada una.',
  'explorer.heatmap.allHidden': 'todo oculto',
  'explorer.heatmap.hiddenCell': '{value}, oculta',
  'explorer.heatmap.legendHidden': 'oculto (−∞ antes del softmax)',
  'explorer.heatmap.legendValues': 'valores de {min} a {max}, centrados en 0',
  'explorer.heatmap.legendNone': 'ningún valor visible',
  'explorer.heatmap.legendWeights': 'pesos de {min} a {max}',
  'explorer.heatmap.legendLabel': 'Escala de color de {min} a {max}',
  'explorer.matrix.cell': '{matrix}, fila {row}, columna {col}',
  'explorer.matrix.cellNamed': '{matrix}, fila {row} ({label}), columna {col}',
  'explorer.heads.all': 'Todas las cabezas',
  'explorer.heads.allHint':
    'Cada cabeza atiende con su propia porción de W_Q, W_K y W_V, así que cada una puede seguir una relación distinta. Elige una para ver sus pasos arriba.',
  'explorer.heads.allHintAlone':
    'Cada cabeza atiende con su propia porción de W_Q, W_K y W_V, así que cada una puede seguir una relación distinta.',
  'explorer.heads.average': 'Media de las cabezas',
  'explorer.heads.averageHint':
    'Los pesos que devuelve torch.nn.MultiheadAttention por defecto. Una media puede ocultar lo que hacen las cabezas por separado.',
  'explorer.heads.averageLabel': 'Media de los pesos de atención de las cabezas',
  'explorer.heads.concat': 'Cabezas concatenadas',
  'explorer.heads.concatHint': 'Las salidas de las cabezas lado a lado: ninguna cabeza ha visto aún a otra.',
  'explorer.heads.concatLabel': 'Salidas concatenadas de las cabezas',
  'explorer.heads.output': 'Salida de la capa',
  'explorer.heads.outputHint': 'W_O es el único lugar donde se combina información de cabezas distintas.',
  'explorer.heads.outputLabel': 'Salida multicabeza, concat por W_O',
  'explorer.heads.tileLabel': 'Pesos de atención de la cabeza {k}',
  'explorer.heads.sizes': '{heads} cabezas de dₕ = {width} rasgos cada una (d_model = {dModel}).',
  'explorer.heads.seeAll':
    'Cada cabeza ve los {m} tokens: cada uno de los {heads} mapas de pesos de abajo es {n} × {m}. Las cabezas solo difieren en cuáles {width} de las {dModel} columnas de Q, K y V leen, el subespacio al que proyectan W_Q, W_K y W_V. Dividir en cabezas es un cambio de forma de Q ({n} × {dModel} → {heads} × {n} × {width}), no un bucle sobre tokens o cabezas.',
  'explorer.params.layerBiases': 'Esta capa tiene los sesgos b_Q, b_K, b_V, b_O: {count} parámetros.',
  'explorer.params.layerNoBiases': 'Esta capa no tiene sesgos: {count} parámetros.',
  'explorer.params.oneHead':
    'W_Q, W_K, W_V y W_O contienen {weights} pesos (4·d_model²), o {withBiases} con los sesgos b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), con una cabeza de d_model = {dModel} de ancho. Más cabezas se reparten esas columnas, así que la cuenta es la misma para cualquier h.',
  'explorer.params.heads':
    'W_Q, W_K, W_V y W_O contienen {weights} pesos (4·d_model²), o {withBiases} con los sesgos b_Q, b_K, b_V, b_O (4·d_model² + 4·d_model), sea cual sea el número de cabezas: no h × 4·d_model² = {wrong}, porque las {heads} cabezas se reparten d_model = {dModel} en lugar de recibir cada una matrices de tamaño completo.',
  'explorer.params.single':
    'Esta cabeza única tiene W_Q y W_K (d_model × d_k = {dModel} × {dk}) y W_V ({dModel} × {dv}): {count} parámetros (d_model·(2d_k + d_v)), y ningún W_O: su salida es la de la propia cabeza. Una capa de una cabeza (nn.MultiheadAttention con num_heads = 1) hace cada W de ancho d_model y añade W_O: {layerCount} parámetros (4·d_model²).',
  'explorer.params.singleBiases':
    'Esta cabeza única tiene W_Q y W_K (d_model × d_k = {dModel} × {dk}) y W_V ({dModel} × {dv}) con sus sesgos: {count} parámetros (d_model·(2d_k + d_v) + 2d_k + d_v), y ningún W_O: su salida es la de la propia cabeza. Una capa de una cabeza (nn.MultiheadAttention con num_heads = 1) hace cada W de ancho d_model y añade W_O: {layerCount} parámetros (4·d_model² + 4·d_model).',
  'explorer.export.menu': 'Exportar',
  'explorer.export.pick': 'Matriz o panel',
  'explorer.export.saveAs': 'Guardar la matriz o el panel elegido como',
  'explorer.export.png': 'Guardar como imagen PNG',
  'explorer.export.svg': 'Guardar como imagen SVG',
  'explorer.export.csv': 'Guardar los números como CSV (una matriz)',
  'explorer.export.json': 'Guardar los números como JSON',
  'explorer.export.code': 'El ejemplo completo como código Python',
  'explorer.export.numpy': 'Código NumPy',
  'explorer.export.numpyTitle': 'Un script de NumPy que vuelve a calcular estos números',
  'explorer.export.pytorch': 'Código PyTorch',
  'explorer.export.pytorchTitle': 'Un script de PyTorch que vuelve a calcular estos números',
  'explorer.export.script': 'El ejemplo completo como script:',
  'explorer.export.saved': 'Guardado {file}.',
  'explorer.export.nothing': 'todavía no hay nada que exportar',
  'explorer.export.failed': 'No se pudo exportar: {reason}',
  'explorer.export.loadFailed': 'No se pudo cargar el código de exportación: {reason}',
  'explorer.export.title.Q': 'Consultas Q',
  'explorer.export.title.K': 'Claves K',
  'explorer.export.title.V': 'Valores V',
  'explorer.export.title.X': 'Vectores de tokens X',
  'explorer.export.title.XM': 'Vectores de memoria X_mem',
  'explorer.export.title.B': 'Matriz de sesgo B',
  'explorer.export.title.scores': 'Puntuaciones S = Q·Kᵀ',
  'explorer.export.title.scaled': 'Puntuaciones escaladas S′',
  'explorer.export.title.masked': 'Puntuaciones enmascaradas M',
  'explorer.export.title.weights': 'Pesos de atención A = softmax(M)',
  'explorer.export.title.output': 'Salida O = A·V',
  'explorer.export.title.average': 'Media de las cabezas',
  'explorer.export.title.concat': 'Cabezas concatenadas',
  'explorer.export.title.mha-output': 'Salida multicabeza concat·W_O',
  'explorer.export.title.panel-inputs': 'Panel de entradas',
  'explorer.export.title.panel-pipeline': 'Panel de pasos de la atención',
  'explorer.export.title.panel-heads': 'Panel multicabeza',
  'explorer.explain.title': '¿Cómo se calculó este número?',
  'explorer.explain.idle':
    'Señala, toca o enfoca cualquier celda para ver cómo se calculó. En una matriz, las flechas mueven entre celdas.',
  'explorer.explain.idleLesson': 'Señala, toca o enfoca cualquier número de esta lección para ver cómo se calculó.',
  'explorer.explain.hide': 'Ocultar',
  'explorer.explain.show': 'Mostrar',
  'explorer.explain.hideLabel': 'Ocultar la explicación',
  'explorer.explain.showLabel': 'Mostrar la explicación',
  'explorer.explain.ofHead': ' (cabeza {k})',
  'explorer.explain.terms': '({count} términos)',
  'explorer.explain.reason.bias': 'matriz de sesgo: B[{i},{j}] = −∞',
  'explorer.explain.reason.causal':
    'máscara causal: la clave {j} ({key}) va después de la consulta {i}, así que está en el futuro',
  'explorer.explain.reason.padding':
    'máscara de relleno: la clave {j} es un token [PAD], oculto para todas las consultas',
  'explorer.explain.reason.custom':
    'máscara personalizada: este par se ocultó con un clic (haz clic otra vez para mostrarlo)',
  'explorer.explain.reason.masked': 'enmascarado',
  'explorer.explain.scores.sum': '{cell} = Σ sobre dₖ = {dk} dimensiones',
  'explorer.explain.scores.meaning':
    'Cuánto encaja la clave {key} con lo que busca la consulta {query}{head}. Grande y positivo: un buen emparejamiento.',
  'explorer.explain.scores.title': 'Puntuación: {query} → {key}',
  'explorer.explain.scaled.none': '1 (sin escalado)',
  'explorer.explain.scaled.scale': 'escala = {how} = {scale}',
  'explorer.explain.scaled.title': 'Puntuación escalada: {query} → {key}',
  'explorer.explain.masked.title': 'Tras la máscara: {query} → {key}',
  'explorer.explain.masked.titleBias': 'Tras el sesgo y la máscara: {query} → {key}',
  'explorer.explain.masked.hidden': 'Oculto por la {reason}.',
  'explorer.explain.masked.thenMask': '{how}, y luego la máscara lo convierte en −∞',
  'explorer.explain.masked.zero': '{how}  →  exp(−∞) = 0, así que esta clave recibe exactamente peso cero.',
  'explorer.explain.masked.infNote':
    'Un −∞ en B oculta un par exactamente como una máscara booleana; un número negativo grande como −10000 solo casi (una fila de ellos sigue repartiendo su peso).',
  'explorer.explain.masked.noMask': 'No se aplica ninguna máscara: la puntuación escalada pasa sin cambios.',
  'explorer.explain.masked.visible': 'Este par es visible: la puntuación escalada pasa sin cambios.',
  'explorer.explain.masked.bias':
    'La matriz de sesgo B se suma a la puntuación escalada antes del softmax: puntuación + sesgo = puntuación enmascarada.',
  'explorer.explain.masked.negative':
    'Un sesgo negativo reduce el peso de esta clave por un factor {power} = {factor} antes de normalizar la fila.',
  'explorer.explain.softmax.hidden': 'Esta clave está oculta: {cell} exactamente.',
  'explorer.explain.softmax.hiddenKeys': {
    one: '{count} clave oculta suma e^−∞ = 0.',
    other: '{count} claves ocultas suman e^−∞ = 0.',
  },
  'explorer.explain.softmax.stable':
    '(El núcleo resta el máximo de la fila antes de exp; la proporción es la misma y nada se desborda.)',
  'explorer.explain.weights.rowInf': 'La fila {row} de M es −∞ en todas partes ({reason}, y así para cada clave).',
  'explorer.explain.weights.allHidden':
    'Todas las claves están ocultas para la consulta {query}. Un softmax sobre nada sería 0 / 0 = NaN; el núcleo marca la fila y le da en su lugar pesos todos cero y una salida cero.',
  'explorer.explain.weights.titleMasked': 'Peso: {query} → {key} (fila totalmente enmascarada)',
  'explorer.explain.weights.row':
    'Fila {query}: suma = {sum}, máximo = {max}, entropía H = {entropy} nats (uniforme sobre {m} sería ln {m} = {uniform}).',
  'explorer.explain.weights.title': 'Peso: cuánto atiende {query} a {key}{head}',
  'explorer.explain.output.sum': 'O[{i},{j}] = Σ sobre las claves de A[{i},clave] × V[clave,{j}]',
  'explorer.explain.output.none': 'Esta consulta no ve ninguna clave, así que su fila de salida es toda ceros.',
  'explorer.explain.output.average':
    'Una media ponderada de la columna {col} de V: la salida siempre está entre el valor más pequeño y el más grande.',
  'explorer.explain.output.title': 'Salida de {query}, dimensión {col}{head}',
  'explorer.predict.lead': 'Primero predice: ',
  'explorer.predict.check': 'Comprobar mi respuesta',
  'explorer.predict.again': 'Preguntar otra vez',
  'explorer.predict.cover': 'Oculto hasta que respondas',
  'explorer.predict.pickFirst': 'Elige primero una respuesta.',
  'explorer.predict.right': 'Correcto.',
  'explorer.predict.wrong': 'No exactamente.',
  'explorer.predict.topKey.none': 'aquí cada consulta ve menos de dos claves, así que no hay nada entre lo que elegir.',
  'explorer.predict.topKey.question': '¿qué clave recibe más peso de la consulta {query} (fila {row})?',
  'explorer.predict.topKey.hint':
    'Los pesos son el softmax de la fila de puntuaciones: piensa en cuál es la puntuación más grande.',
  'explorer.predict.topKey.right':
    '{key} se lleva {weight} de la atención de {query}: el softmax conserva el orden de las puntuaciones, así que la mayor puntuación recibe el mayor peso.',
  'explorer.predict.topKey.wrong':
    'Elegiste {guess} ({guessWeight}); {key} se lleva más, {weight}. El softmax conserva el orden de las puntuaciones: la mayor puntuación de la fila recibe el mayor peso.',
  'explorer.predict.rowSum.exactly-1': 'exactamente 1',
  'explorer.predict.rowSum.less-than-1': 'menos de 1',
  'explorer.predict.rowSum.more-than-1': 'más de 1',
  'explorer.predict.rowSum.question':
    'con la máscara aplicada después del softmax (el error), ¿cuánto suma la fila de {query} (fila {row}) de los pesos?',
  'explorer.predict.rowSum.hint':
    'La máscara es: {mask}. El softmax recorre primero todas las claves y luego los pesos ocultos se ponen a 0.',
  'explorer.predict.rowSum.whyLess':
    'El softmax ya dio parte de la fila a las claves ocultas; ponerlas a cero después tira esa parte y nada vuelve a normalizar el resto.',
  'explorer.predict.rowSum.whyAll':
    'Esta fila no oculta ninguna clave, así que poner a cero los pesos ocultos tras el softmax no quita nada. Las filas que ocultan claves suman menos de 1.',
  'explorer.predict.rowSum.sums': 'La fila de {query} suma {sum}.',
  'explorer.predict.entropy.unscaled': 'sin √dₖ (las puntuaciones en bruto)',
  'explorer.predict.entropy.scaled': 'con √dₖ (las puntuaciones divididas entre √dₖ)',
  'explorer.predict.entropy.same': 'igual',
  'explorer.predict.entropy.question':
    'una fila de {row} puntuaciones (q·k con dₖ = {dk}) pasa dos veces por un softmax: tal cual y dividida entre √dₖ = {sqrt}. ¿Qué pesos están repartidos de forma más uniforme (la mayor entropía)?',
  'explorer.predict.entropy.hint':
    'Los histogramas de abajo muestran cuánto se dispersan las puntuaciones antes y después de la división.',
  'explorer.predict.entropy.why.scaled':
    'Sin la división las puntuaciones se dispersan unas √{dk} veces más, así que el softmax lo pone casi todo en la mayor (peso máximo {maxRaw}, entropía {raw} nats). Dividida entre √dₖ la fila sigue suave: entropía {scaled} nats, peso máximo {maxScaled}.',
  'explorer.predict.entropy.why.same':
    'Con dₖ = {dk}, √dₖ = 1: dividir no cambia nada (entropía {raw} nats en ambos casos).',
  'explorer.predict.entropy.why.unscaled': 'Aquí la fila en bruto tiene entropía {raw} nats y la escalada {scaled}.',
  'explorer.export.option': '{title} [{id}]',
  'explorer.notice.unknownPreset': 'No hay ningún ejemplo llamado «{name}». Se muestra el ejemplo por defecto.',
  'explorer.notice.badLink': 'No se pudo abrir el ejemplo de este enlace: {reason}. Se muestra el ejemplo por defecto.',
  'explorer.notice.badState': 'No se pudo abrir el ejemplo: {reason}. Se muestra el ejemplo por defecto.',
  'explorer.notice.badStart': 'Algunos números iniciales no se pudieron usar: {reasons}.',
  'explorer.notice.unknownPresetKept': 'No hay ningún ejemplo llamado «{name}». El ejemplo mostrado no cambia.',
  'explorer.notice.badLinkKept': 'No se pudo abrir el ejemplo de este enlace: {reason}. El ejemplo mostrado no cambia.',
  'explorer.explain.head.text':
    'La cabeza {k} calcula el mismo softmax(QₕKₕᵀ/√dₕ)Vₕ sobre su propia porción de {width} columnas de Q, K y V. Haz clic (o pulsa Intro) para ver los pasos de esta cabeza.',
  'explorer.explain.head.title': 'Cabeza {k}: {query} → {key}',
  'explorer.explain.average.text':
    'La media sobre las cabezas, que torch.nn.MultiheadAttention devuelve por defecto (average_attn_weights=True).',
  'explorer.explain.average.title': 'Media de las cabezas: {query} → {key}',
  'explorer.explain.concat.text':
    'Las columnas {from}–{to} contienen la cabeza {k}. Concatenar solo pone las cabezas una al lado de otra; aún no han interactuado.',
  'explorer.explain.concat.title': 'Cabezas concatenadas: {query}, columna {col}',
  'explorer.explain.mha.sum': '{formula}, sobre las {columns} columnas de concat',
  'explorer.explain.mha.text': 'W_O es donde se mezclan las cabezas: cada rasgo de salida lee todas las cabezas.',
  'explorer.explain.mha.title': 'Salida multicabeza: {query}, rasgo {col}',
  'explorer.explain.proj.sum': '{formula}, sobre d_model = {dModel}',
  'explorer.explain.proj.head': 'La columna {col} pertenece a la cabeza {k}.',
  'explorer.explain.proj.role.Q': 'Fila {token} de Q: lo que busca este token.',
  'explorer.explain.proj.role.K': 'Fila {token} de K: lo que ofrece este token para que lo encuentren.',
  'explorer.explain.proj.role.V': 'Fila {token} de V: lo que transmite este token cuando se le atiende.',
  'explorer.explain.proj.title': '{title}: token {token}, columna {col}',
  'explorer.explain.input.Q': 'Consulta {query}: cambia la fila {i} de las puntuaciones.',
  'explorer.explain.input.K': 'Clave {key}: cambia la columna {i} de las puntuaciones.',
  'explorer.explain.input.V':
    'Valor de {key}: cambia la columna {j} de cada fila de salida, en proporción a cuánto atiende cada consulta a {key}.',
  'explorer.explain.input.X': 'Rasgo {j} del vector de {token}: cambia la fila {i} de Q, K y V.',
  'explorer.explain.input.W': 'Peso del rasgo de entrada {i} a la columna {j} de {of} (para cada token).',
  'explorer.explain.input.WO': 'Peso de la columna {i} de las cabezas concatenadas al rasgo de salida {j}.',
  'explorer.explain.input.B':
    'Se suma a la puntuación escalada de la consulta {query} y la clave {key} antes del softmax. Escribe -inf para ocultar el par; una fila de −∞ da pesos 0 (no NaN).',
  'explorer.explain.input.XM':
    'Rasgo {j} del token de memoria {key}: cambia la fila {i} de K y V (las claves y los valores salen de la memoria).',
  'explorer.explain.input.bias':
    'Sesgo de la columna {j} de {of}: se suma a esa columna para cada token ({of} = X·W_{of} + b_{of}).',
  'explorer.explain.input.BO':
    'Sesgo del rasgo de salida {j}: se suma a cada fila de salida (una consulta que no ve ninguna clave da b_O).',
  'explorer.explain.input.edit':
    'Escribe un número nuevo: todos los pasos de abajo se actualizan al instante. Las flechas mueven, Intro confirma y baja, Esc restaura.',
  'explorer.explain.input.title': 'Entrada {name}, fila {row}, columna {col}',
  'explorer.explain.trained.ones':
    'La columna {col} de X vale 1 para cada token: se encuentra con la última fila de W_Q, W_K y W_V, que es el sesgo de la cabeza, así que X·W suma el sesgo como hace el modelo.',
  'explorer.explain.trained.input':
    'Entrada entrenada: rasgo {feature} de lo que ve la atención de la capa {layer} para {token} (el flujo residual tras la LayerNorm de la capa), recalculado a partir del modelo.',
  'explorer.explain.trained.bias':
    'La fila {row} es el sesgo de la cabeza {head}: {name} en el archivo del modelo; se encuentra con la columna de unos de X.',
  'explorer.explain.trained.weight':
    'Peso entrenado de la cabeza {head} (capa {layer}): {name} en el archivo del modelo.',
  'explorer.explain.split.same':
    'La columna {row} de la concatenación (columna {col} de la cabeza {head}) va a la columna de salida {to}: este W_O solo mueve columnas, de vuelta a donde las tenía la cabeza única (ver Tamaños).',
  'explorer.explain.split.other':
    'La columna {row} de la concatenación (columna {col} de la cabeza {head}) va a la columna de salida {to}, no a la {cell}: este W_O solo mueve columnas (ver Tamaños).',
  'explorer.predict.induction.question':
    '¿qué cabeza es una cabeza de inducción? Juzga a partir de los mapas de atención de abajo.',
  'explorer.predict.induction.hint':
    'Cada mapa es una secuencia de sondeo: BOS, una serie de tokens y la misma serie otra vez. En la segunda copia, una cabeza de inducción atiende al token que sigue a la aparición anterior del token actual.',
  'explorer.predict.induction.yours': '{head} tiene una puntuación de inducción de {score}.',
  'explorer.predict.induction.heads':
    'Cabezas de inducción aquí (puntuación ≥ {threshold}): {list}; la más alta es {best} con {score}.',
  'explorer.predict.induction.noneYet': 'ninguna todavía',
  'explorer.predict.induction.why':
    'En la segunda copia, una cabeza de inducción mira el token que siguió al mismo token en la primera copia: una franja diagonal un paso a la derecha de la copia anterior.',
  'explorer.pixelMap.cell': 'consulta {row} «{query}» → clave {col} «{key}»: {value}',
  'explorer.pixelMap.label': '{label}: {rows} × {cols} pesos dibujados como imagen. Las flechas leen una celda.',
  'explorer.pixelMap.labelPooled':
    '{label}: {rows} × {cols} pesos dibujados como imagen (cada píxel el mayor de unas {across} × {down} celdas). Las flechas leen una celda.',
  'explorer.pixelMap.idle': 'Señala el mapa, o enfócalo y usa las flechas, para leer una celda.',
  'explorer.headSplit.each': '{count} cada una',
  'explorer.headSplit.eachRange': '{low} o {high} cada una',
  'explorer.headSplit.padded': ', al principio de sus {columns} columnas; las demás son 0',
  'explorer.headSplit.split':
    'Las {dk} columnas de W_Q y W_K y las {dv} de W_V de la cabeza única se repartieron entre las {heads} cabezas ({each}{padded}): las puntuaciones brutas QKᵀ de las cabezas suman las de la cabeza única.',
  'explorer.headSplit.identity':
    'W_O es la identidad: devuelve las columnas de valor de las cabezas al orden de la cabeza única, de modo que, si cada cabeza hubiera atendido como la cabeza única, las primeras {dv} columnas de la salida serían su salida.',
  'explorer.headSplit.permutation':
    'W_O es una permutación: devuelve las columnas de valor de las cabezas al orden de la cabeza única, de modo que, si cada cabeza hubiera atendido como la cabeza única, las primeras {dv} columnas de la salida serían su salida.',
};
