// Las lecciones (web/ui/lessons/, sin las lecciones de inferencia). Glosario además de common.js:
// dot product = producto escalar; softmax = softmax; entropy = entropía; hull = envolvente (convexa);
// projection = proyección; loss = pérdida; gradient = gradiente; backward pass = pasada hacia atrás;
// learning rate = tasa de aprendizaje; nudge = empujón; seed = semilla; output = salida; row = fila.
export default {
  'lessons.error.compute': 'No se puede calcular: {error}',
  'lessons.error.refused': 'El núcleo se negó: {error}',

  'lessons.plot.computing': 'Gráfico, en cálculo',
  'lessons.plot.sigma': '±1 desv. = ±{std}',

  'lessons.sqrtDk.intro':
    'Un producto escalar suma dₖ productos. Si cada entrada de q y k tiene media 0 y varianza 1, cada producto tiene varianza 1, así que la suma tiene varianza dₖ: su dispersión crece como √dₖ. Dividir por √dₖ la devuelve a 1, sea cual sea dₖ. Aquí el núcleo genera los vectores (con el generador de NumPy, con semilla) y mide.',
  'lessons.sqrtDk.dkSlider': 'dₖ (deslizador, logarítmico)',
  'lessons.sqrtDk.dkField': 'dₖ, la longitud de q y k',
  'lessons.sqrtDk.pairs': 'pares N',
  'lessons.sqrtDk.seed': 'semilla',
  'lessons.sqrtDk.row': 'claves en la fila',
  'lessons.sqrtDk.newSeed': 'Nueva semilla',
  'lessons.sqrtDk.rawTitle': 'Puntuaciones brutas q·k',
  'lessons.sqrtDk.rawCaption': 'desv. típica {std} {expected}, varianza {variance} (objetivo dₖ), media {mean}',
  'lessons.sqrtDk.scaledTitle': 'Puntuaciones escaladas q·k / √dₖ',
  'lessons.sqrtDk.scaledCaption': 'desv. típica {std} (objetivo 1), varianza {variance} (objetivo 1), media {mean}',
  'lessons.sqrtDk.rawDescription':
    'Histograma de {count} productos escalares brutos para dₖ = {dk}: de {lo} a {hi}, desviación típica {std}.',
  'lessons.sqrtDk.scaledDescription':
    'Histograma de los mismos {count} productos escalares divididos por √{dk}: desviación típica {std}.',
  'lessons.sqrtDk.softRawTitle': 'softmax(puntuaciones), sin escalar',
  'lessons.sqrtDk.softScaledTitle': 'softmax(puntuaciones / √dₖ)',
  'lessons.sqrtDk.softCaption': 'entropía {entropy} nats, peso mayor {max}',
  'lessons.sqrtDk.uniform': {
    one: 'Para comparar: pesos iguales sobre {count} clave tienen entropía ln {count} = {entropy} nats; una fila one-hot tiene 0. Cerca de 0, la softmax da casi todo el peso a una clave y su gradiente casi desaparece.',
    other:
      'Para comparar: pesos iguales sobre {count} claves tienen entropía ln {count} = {entropy} nats; una fila one-hot tiene 0. Cerca de 0, la softmax da casi todo el peso a una clave y su gradiente casi desaparece.',
  },
  'lessons.sqrtDk.softIntro':
    'Ahora una fila de atención: {count} claves cuyas puntuaciones son los primeros {count} productos escalares de arriba (dₖ = {dk}), pasadas por una softmax sin y con el escalado.',
  'lessons.sqrtDk.softRawDescription':
    'Softmax de {count} puntuaciones sin escalar: peso mayor {max}, entropía {entropy} nats.',
  'lessons.sqrtDk.softScaledDescription':
    'Softmax de las mismas puntuaciones divididas por √{dk}: peso mayor {max}, entropía {entropy} nats.',
  'lessons.sqrtDk.failed': 'El núcleo no pudo muestrear: {error}',
  'lessons.sqrtDk.status': '{count} pares de vectores normales estándar de longitud {dk}, semilla {seed}.',
  'lessons.sqrtDk.sampling': 'Muestreando {count} pares de vectores de longitud {dk}…',

  'lessons.pitfalls.intro':
    'Las Q, K y V del explorador (su ejemplo y su máscara), calculadas bien y calculadas con un error clásico. Las celdas que difieren van recuadradas; Σ es la suma de cada fila.',
  'lessons.pitfalls.mistake': 'Error',
  'lessons.pitfalls.useCausal': 'Usar la máscara causal',
  'lessons.pitfalls.correct': 'Correcto',
  'lessons.pitfalls.wrong': 'Con el error',
  'lessons.pitfalls.weights': 'Pesos de atención',
  'lessons.pitfalls.averageWeights': 'Pesos de atención promediados entre cabezas',
  'lessons.pitfalls.output': 'Salida',
  'lessons.pitfalls.headOutput': 'Salida A·V',
  'lessons.pitfalls.layerOutput': 'Salida de la capa (concat·W_O)',
  'lessons.pitfalls.layerOutputNoWo': 'Salida de la capa (la concatenación, sin W_O)',
  'lessons.pitfalls.weightsLabel': '{side}: pesos de atención',
  'lessons.pitfalls.outputLabel': '{side}: salida',
  'lessons.pitfalls.rowSum': 'suma de la fila',
  'lessons.pitfalls.noMask':
    'Este error solo importa donde hay claves ocultas, y no hay ninguna máscara elegida: los dos lados son iguales.',
  'lessons.pitfalls.ownScale': 'El lado correcto usa la escala del explorador (×{scale}); el error la sustituye.',
  'lessons.pitfalls.nothing': 'Aún no hay nada que comparar.',
  'lessons.pitfalls.weightsDiffer': '{count} de {total} pesos difieren (hasta en {diff})',
  'lessons.pitfalls.weightsSame': 'Los pesos son iguales',
  'lessons.pitfalls.outputDiffers': '{count} de {total} valores de salida difieren (hasta en {diff})',
  'lessons.pitfalls.outputSame': 'la salida es igual',
  'lessons.pitfalls.rowsShort': {
    one: '{count} fila suma menos de 1 (la menor, {smallest})',
    other: '{count} filas suman menos de 1 (la menor, {smallest})',
  },
  'lessons.pitfalls.summary': '{weights}; {output}.',
  'lessons.pitfalls.summaryShort': '{weights}; {output}; {short}.',
  'lessons.pitfalls.mask-after-softmax.label': 'Máscara aplicada después de la softmax',
  'lessons.pitfalls.mask-after-softmax.text':
    'La softmax recorre todas las claves y después los pesos ocultos se ponen a 0. Nada vuelve a normalizar el resto, así que una fila con claves ocultas suma menos de 1 y su salida se encoge hacia 0.',
  'lessons.pitfalls.mask-value-zero.label': 'Valor de máscara 0 en vez de −∞',
  'lessons.pitfalls.mask-value-zero.text':
    'Las puntuaciones ocultas pasan a 0 en vez de −∞. Pero e⁰ = 1 es un peso corriente: las claves ocultas siguen participando, y ganan cuando las puntuaciones visibles son negativas.',
  'lessons.pitfalls.scale-by-dk.label': 'Escalar por dₖ en vez de √dₖ',
  'lessons.pitfalls.scale-by-dk.text':
    'Dividir por dₖ encoge las puntuaciones √dₖ veces de más: los pesos tienden a la uniforme y el modelo ya no puede concentrarse (sin diferencia con dₖ = 1).',
  'lessons.pitfalls.scale-by-dmodel.label': 'Escalar por √d_model en vez de por la √dₖ de la cabeza',
  'lessons.pitfalls.scale-by-dmodel.text':
    'Cada cabeza suma sobre sus propias dₖ = d_model / h características, así que esa es la dispersión que hay que corregir. Dividir por √d_model hace las puntuaciones de cada cabeza √h veces demasiado pequeñas.',
  'lessons.pitfalls.skip-wo.label': 'W_O omitida',
  'lessons.pitfalls.skip-wo.text':
    'Las cabezas concatenadas se devuelven tal cual. Los pesos no cambian, pero cada columna de salida viene ahora de una sola cabeza: las cabezas nunca se mezclan.',

  'lessons.hull.intro':
    'Cada fila de salida es una media ponderada de los vectores de valor: los pesos nunca son negativos y suman 1. Con dos números por valor (dᵥ = 2) los valores son puntos del plano, y cada salida cae dentro de la figura que abarcan, su envolvente convexa. La atención solo puede mezclar lo que ofrecen los valores.',
  'lessons.hull.convert': 'Usar este ejemplo con dᵥ = 2',
  'lessons.hull.tableCaption': 'Salidas, calculadas por el núcleo',
  'lessons.hull.column.query': 'consulta',
  'lessons.hull.column.output': 'salida (x, y)',
  'lessons.hull.column.inside': 'dentro de la envolvente',
  'lessons.hull.draggable': 'punto arrastrable',
  'lessons.hull.headDims':
    'Cada cabeza tiene aquí {count} dimensiones de valor. Pon d_model = 2 × cabezas (por ejemplo, d_model 8 con 4 cabezas) o copia esta cabeza al modo Q, K, V con dos dimensiones de valor:',
  'lessons.hull.valueDims':
    'Los valores tienen aquí {count} dimensiones. Pon dᵥ = 2 o copia Q y K de este ejemplo (y las dos primeras columnas de V) al modo Q, K, V:',
  'lessons.hull.drag':
    'Arrastra un punto de valor (o dale el foco y usa las flechas; Mayús para pasos pequeños): V cambia y cada salida se mueve con él, sin salir nunca de la envolvente.',
  'lessons.hull.fromX': 'Aquí los valores salen de X·W_V. Para arrastrarlos, copia este ejemplo al modo Q, K, V:',
  'lessons.hull.legend':
    'Círculos: los valores v₁…{last}; rombos: las salidas. Líneas: los pesos de «{query}» (más gruesa = más peso); elige otra salida para ver sus pesos.',
  'lessons.hull.outside': {
    one: '{count} salida queda fuera de la envolvente.',
    other: '{count} salidas quedan fuera de la envolvente.',
  },
  'lessons.hull.inside': 'Las {count} salidas quedan dentro de la envolvente de los {values} valores.',
  'lessons.hull.plotLabel':
    'Vectores de valor como puntos, su envolvente convexa con {corners} vértices y las {count} salidas dentro de ella',
  'lessons.hull.valuePoint': '{name}: el valor de {key}, en {point}',
  'lessons.hull.valuePointDrag':
    '{name}: el valor de {key}, en {point}. Las flechas lo mueven; Mayús+flecha lo mueve un poco.',
  'lessons.hull.outputPoint': '{query}: su salida, en {point}; mostrar sus pesos',
  'lessons.hull.noKey': 'ninguna clave visible: salida 0',
  'lessons.hull.yes': 'sí',
  'lessons.hull.no': 'no',

  'lessons.cost.intro':
    'Las proyecciones cuestan lo mismo por token, sea cual sea la longitud del texto; la matriz de puntuaciones crece con n × m. Con entradas cortas dominan las proyecciones, con largas el término cuadrático, y las h matrices de atención también tienen que caber en memoria. Cifras de attn.lessons.attentionCost para una capa; mientras el explorador muestra una sola cabeza (que no tiene W_O), de las matrices de esa cabeza (una multiplicación y suma cuenta como 2 FLOPs).',
  'lessons.cost.follow': 'Usar los tamaños del explorador',
  'lessons.cost.field.n': 'n (consultas)',
  'lessons.cost.field.m': 'm (claves)',
  'lessons.cost.field.heads': 'cabezas h',
  'lessons.cost.parameters.label': 'Parámetros: W_Q, W_K, W_V, W_O y sus sesgos',
  'lessons.cost.parameters.headLabel': 'Parámetros: W_Q, W_K, W_V y sus sesgos (sin W_O)',
  'lessons.cost.parameters.layer': '4·d² + 4·d, sea cual sea h',
  'lessons.cost.parameters.head': 'd·(2dₖ + dᵥ), sin W_O (+ 2dₖ + dᵥ con sesgos)',
  'lessons.cost.projectionFlops.label': 'Proyecciones Q, K, V y la de salida',
  'lessons.cost.projectionFlops.headLabel': 'Proyecciones Q, K, V (sin proyección de salida)',
  'lessons.cost.projectionFlops.layer': '2·d²·(2n + 2m): lineal en n',
  'lessons.cost.projectionFlops.head': '2·d·(n·dₖ + m·dₖ + m·dᵥ), sin proyección de salida',
  'lessons.cost.scoreFlops.label': 'Puntuaciones Q·Kᵀ y pesos·V',
  'lessons.cost.scoreFlops.layer': '4·n·m·d: cuadrático en n',
  'lessons.cost.scoreFlops.head': '2·n·m·(dₖ + dᵥ): cuadrático en n',
  'lessons.cost.softmaxFlops.label': 'Softmax',
  'lessons.cost.softmaxFlops.layer': 'unos 5 por peso: 5·h·n·m',
  'lessons.cost.softmaxFlops.head': 'unos 5 por peso: 5·n·m',
  'lessons.cost.totalFlops.label': 'Total',
  'lessons.cost.attentionMatrixBytes.label': 'Matrices de atención (h de n × m, float32)',
  'lessons.cost.attentionMatrixBytes.headLabel': 'Matriz de atención (n × m, float32)',
  'lessons.cost.attentionMatrixBytes.layer': '4·h·n·m bytes',
  'lessons.cost.attentionMatrixBytes.head': '4·n·m bytes (una matriz)',
  'lessons.cost.legend.proj': 'proyecciones (∝ n·d²)',
  'lessons.cost.legend.quad': 'puntuaciones, pesos·V y softmax (∝ n²·d)',
  'lessons.cost.legend.now': 'la n elegida',
  'lessons.cost.xLabel': 'tokens n (autoatención, m = n)',
  'lessons.cost.yLabel': 'FLOPs',
  'lessons.cost.failed': 'El núcleo no puede calcular el coste de estos tamaños: {error}',
  'lessons.cost.captionHead':
    'n = {n}, m = {m}, la cabeza única del explorador: d_model = {dModel}, dₖ = {dk}, dᵥ = {dv} (sin W_O)',
  'lessons.cost.captionTyped':
    'n = {n}, m = {m}, la cabeza única del explorador: Q, K, V escritas directamente, dₖ = {dk}, dᵥ = {dv} (sin W_O)',
  'lessons.cost.captionLayer': 'n = {n}, m = {m}, d_model = {dModel}, h = {heads} (ancho de cabeza {width})',
  'lessons.cost.typed': 'Q, K y V se escriben directamente: no hay pesos de proyección que contar.',
  'lessons.cost.verdictTyped':
    'Con Q, K, V escritas directamente no hay proyecciones: cada FLOP está en las puntuaciones, los pesos·V y la softmax. La matriz de atención necesita {bytes} con n = {n}, m = {m}.',
  'lessons.cost.verdictHead':
    'Para esta cabeza (d_model = {dModel}, dₖ = {dk}, dᵥ = {dv}), los términos cuadráticos cuestan más que las proyecciones a partir de n = {star} tokens. Su matriz de atención necesita {bytes} con n = {n}, m = {m}.',
  'lessons.cost.verdictLayer': {
    one: 'Con d_model = {dModel} y {count} cabeza, los términos cuadráticos cuestan más que las proyecciones a partir de n = {star} tokens (unos 2·d_model). Las h matrices de atención necesitan {bytes} con n = {n}, m = {m}.',
    other:
      'Con d_model = {dModel} y {count} cabezas, los términos cuadráticos cuestan más que las proyecciones a partir de n = {star} tokens (unos 2·d_model). Las h matrices de atención necesitan {bytes} con n = {n}, m = {m}.',
  },
  'lessons.cost.equalAt': 'iguales en n = {n}',
  'lessons.cost.plotDescription':
    'FLOPs frente a n en ejes log-log: las proyecciones crecen linealmente, los términos cuadráticos las superan en n = {n}.',

  'lessons.steps.intro':
    'Un modelo que escribe texto tiene, en el paso i, solo los tokens 1..i. El entrenamiento hace todos los pasos a la vez sobre la frase entera, con la máscara causal ocultando a cada consulta su futuro. Los dos dan los mismos números, y eso es lo que hace honesto ese entrenamiento en paralelo.',
  'lessons.steps.token': 'Token i',
  'lessons.steps.previous': '◀ Anterior',
  'lessons.steps.next': 'Siguiente ▶',
  'lessons.steps.play': 'Reproducir',
  'lessons.steps.pause': 'Pausa',
  'lessons.steps.strip': 'Tokens generados hasta ahora',
  'lessons.steps.future': 'aún no generado',
  'lessons.steps.fullTitle': 'Atención causal sobre la frase entera (todas las filas a la vez)',
  'lessons.steps.fullLabel': 'Pesos de atención causal, todas las filas',
  'lessons.steps.weightsLabel': '{side}: pesos',
  'lessons.steps.outputLabel': '{side}: salida',
  'lessons.steps.output': 'Salida',
  'lessons.steps.causalRow': 'Fila i de la atención causal',
  'lessons.steps.prefixRow': 'Consulta i solo sobre las claves 1..i',
  'lessons.steps.causalHeading': 'Fila {i} de la atención causal',
  'lessons.steps.prefixHeading': {
    one: 'Consulta {i} solo sobre las claves 1..{count} ({count} clave)',
    other: 'Consulta {i} solo sobre las claves 1..{count} ({count} claves)',
  },
  'lessons.steps.valueText': 'token {i} de {n}: {token}',
  'lessons.steps.position': '{i} de {n}',
  'lessons.steps.ignoresMask.padding':
    'Esta vista aplica siempre la máscara causal e ignora la máscara de relleno elegida en el explorador.',
  'lessons.steps.ignoresMask.custom':
    'Esta vista aplica siempre la máscara causal e ignora la máscara personalizada elegida en el explorador.',
  'lessons.steps.identical':
    'Iguales: la fila causal da a las claves después de la {k} exactamente 0, y el resto es idéntico.',
  'lessons.steps.rounding':
    'Iguales: la fila causal da a las claves después de la {k} exactamente 0, y el resto coincide hasta el redondeo de float32 (mayor diferencia {diff}).',
  'lessons.steps.notEqual': 'No son iguales: mayor diferencia {diff}.',
  'lessons.steps.leaked': {
    one: 'No son iguales: mayor diferencia {diff}, {count} clave futura con peso.',
    other: 'No son iguales: mayor diferencia {diff}, {count} claves futuras con peso.',
  },

  'lessons.permutation.intro':
    'La atención compara cada consulta con cada clave, y nada en esa comparación sabe dónde está un token. Intercambia dos tokens y las salidas son las mismas filas, intercambiadas. Por eso los transformers añaden información de posición a los vectores de los tokens.',
  'lessons.permutation.swap': 'Intercambiar el token',
  'lessons.permutation.with': 'con el token',
  'lessons.permutation.before': 'Salida, tokens en orden',
  'lessons.permutation.after': 'Salida con los dos tokens intercambiados',
  'lessons.permutation.outputLabel': '{side}: salida',
  'lessons.permutation.order': 'orden: {tokens}',
  'lessons.permutation.needsTwo': 'Para intercambiar hacen falta dos tokens distintos.',
  'lessons.permutation.note.causal':
    'En el explorador está elegida la máscara causal: oculta claves según la posición, así que tras el intercambio cada token ve otro conjunto de claves.',
  'lessons.permutation.note.sinusoidal':
    'Se suman posiciones a X (sinusoidales): las dos palabras cambian de sitio pero cada posición conserva su propio vector, así que cambian los vectores de los tokens intercambiados.',
  'lessons.permutation.note.learned':
    'Se suman posiciones a X (de estilo aprendido): las dos palabras cambian de sitio pero cada posición conserva su propio vector, así que cambian los vectores de los tokens intercambiados.',
  'lessons.permutation.note.none':
    'No se suma información de posición a X (mira «Información de posición» bajo la frase): elige una para ver que el orden importa.',
  'lessons.permutation.note.multi': 'Se compara la capa multicabeza entera (concat·W_O).',
  'lessons.permutation.swapped':
    'Las filas {i} y {j} de la salida cambiaron de sitio; por lo demás, cada fila es igual (mayor diferencia {diff}).',
  'lessons.permutation.changed':
    'Las filas no solo se intercambiaron: cambiaron {count} valores (hasta en {diff}). Aquí la posición importa.',

  'lessons.gradients.intro':
    'Cada peso de la atención se mueve según un gradiente. Elige qué debe aprender la cabeza; el núcleo ejecuta la pasada hacia atrás de la cabeza del explorador y muestra cada paso, desde la pérdida hasta Q, K y V.',
  'lessons.gradients.headNote':
    'Varias cabezas: esta es la pasada hacia atrás de la cabeza {head} (elegida con «Cabeza mostrada» en el explorador), con la salida propia de la cabeza como O y sus porciones de las proyecciones como Q, K, V.',
  'lessons.gradients.goal': 'Qué aprender',
  'lessons.gradients.goal.target': 'Alcanzar una salida objetivo T: L = ½‖O − T‖²',
  'lessons.gradients.goal.cell': 'Aumentar una celda de salida: L = O[i, j]',
  'lessons.gradients.row': 'Fila i',
  'lessons.gradients.column': 'Columna j',
  'lessons.gradients.targetLabel': 'Salida objetivo T',
  'lessons.gradients.targetTitle': 'Objetivo T (editable)',
  'lessons.gradients.copyOutput': 'T = salida actual',
  'lessons.gradients.loss': 'Pérdida L = {loss}',
  'lessons.gradients.mapsNote':
    'Hacia delante: puntuaciones S → softmax A → salida O = A·V. Hacia atrás se va al revés: dO → dA → dS → dQ, dK (y dV directamente de dO). Pulsa una celda de dQ, dK o dV para dar un empujón a esa entrada más abajo.',
  'lessons.gradients.mapLabel': 'Gradiente {formula}',
  'lessons.gradients.explainTitle': '¿Cómo se calculó este número?',
  'lessons.gradients.explainIdle': 'Señala, toca o enfoca cualquier celda de los gradientes para ver cómo se calculó.',
  'lessons.gradients.explain.terms': '{count} términos',
  'lessons.gradients.explain.dOCell':
    'La pérdida es una sola celda de salida, así que solo esa celda devuelve gradiente.',
  'lessons.gradients.explain.dOTarget':
    'Con la pérdida ½‖O − T‖², cada celda de salida recibe un empuje según lo lejos que está de su objetivo.',
  'lessons.gradients.explain.dOTitle': 'dO: gradiente de la pérdida en la salida [{i},{j}]',
  'lessons.gradients.explain.dA':
    'Cuánto cambiaría la pérdida por unidad de peso en la clave {j}: su fila de valor frente al empuje sobre la salida {i}.',
  'lessons.gradients.explain.dATitle': 'dA: gradiente en el peso [{i},{j}]',
  'lessons.gradients.explain.dSHidden':
    'Esta clave está oculta: su peso es exactamente 0, así que su puntuación no recibe gradiente y no puede aprender.',
  'lessons.gradients.explain.dSHiddenTitle': 'dS: celda oculta [{i},{j}]',
  'lessons.gradients.explain.dS':
    'La softmax devuelve el peso multiplicado por cuánto mejor que la media lo haría esta clave; una clave con peso cercano a 0 casi no recibe nada.',
  'lessons.gradients.explain.dSTitle': 'dS: gradiente en la puntuación [{i},{j}]',
  'lessons.gradients.explain.dQ': 'dQ[{i},{j}] = scale × Σ sobre las claves l: dS[{i},l]·K[l,{j}]',
  'lessons.gradients.explain.dK': 'dK[{i},{j}] = scale × Σ sobre las consultas l: dS[l,{i}]·Q[l,{j}]',
  'lessons.gradients.explain.dQTitle': 'dQ: gradiente en la consulta [{i},{j}]',
  'lessons.gradients.explain.dKTitle': 'dK: gradiente en la clave [{i},{j}]',
  'lessons.gradients.explain.dVSum': 'dV[{i},{j}] = Σ sobre las consultas l: A[l,{i}]·dO[l,{j}] = {sum}',
  'lessons.gradients.explain.dV': 'Una fila de valor aprende de cada consulta que la lee, en proporción a su peso.',
  'lessons.gradients.explain.dVTitle': 'dV: gradiente en el valor [{i},{j}]',
  'lessons.gradients.nudgeTitle': 'Prueba del empujón',
  'lessons.gradients.nudgeNote':
    'Suma ε a una entrada y repite la pasada hacia delante: la pérdida cambia en ε × gradiente, a primer orden.',
  'lessons.gradients.nudge':
    '{cell} + {eps}: la pérdida pasa de {before} a {after}, un cambio de {change}; ε × gradiente = {eps} × {gradient} = {predicted}.',
  'lessons.gradients.stepsTitle': 'Pasos de gradiente',
  'lessons.gradients.stepsNote':
    'x ← x − tasa de aprendizaje × ∂L/∂x sobre la matriz elegida, con una nueva pasada hacia atrás antes de cada paso, escrito de vuelta en el explorador: mira cómo se mueven los pesos del explorador y baja la pérdida.',
  'lessons.gradients.update': 'Actualizar',
  'lessons.gradients.rate': 'Tasa de aprendizaje',
  'lessons.gradients.perClick': 'Pasos por clic',
  'lessons.gradients.takeSteps': { one: 'Dar un paso', other: 'Dar {count} pasos' },
  'lessons.gradients.useQkv': 'Usar Q, K, V directamente',
  'lessons.gradients.stepsTaken': {
    one: '{count} paso sobre {matrix}: pérdida {losses}',
    other: '{count} pasos sobre {matrix}: pérdida {losses}',
  },
  'lessons.gradients.projected':
    'Aquí Q, K y V son proyecciones de X (modo frase): cambia el explorador a Q, K, V libres para dar pasos sobre ellas directamente.',
  'lessons.gradients.stepsUpdate': 'Los pasos actualizan {matrix} en las entradas del explorador.',
  'lessons.gradients.history': 'Pérdida tras cada clic: {losses}',
  'lessons.gradients.keys.title': '¿Qué claves aprenden?',
  'lessons.gradients.keys.note':
    'dₖ = 64, una consulta, 64 claves aleatorias, 200 muestras (normal estándar, del generador del núcleo). Las puntuaciones brutas se dispersan como √64 = 8, la softmax se satura y casi ninguna clave recibe gradiente; las puntuaciones escaladas pasan gradiente a la mayoría.',
  'lessons.gradients.keys.threshold': 'umbral de |dS|',
  'lessons.gradients.keys.column.scores': 'puntuaciones',
  'lessons.gradients.keys.column.keys': 'claves con |dS| por encima del umbral (de 64)',
  'lessons.gradients.keys.column.norm': 'norma del gradiente ‖(dQ, dK, dV)‖',
  'lessons.gradients.keys.scaled': 'puntuaciones ÷ √dₖ',
  'lessons.gradients.keys.unscaled': 'puntuaciones brutas (sin ÷√dₖ)',
  'lessons.gradients.keys.norm':
    'La norma es mayor sin el escalado: dQ y dK llevan el factor de escala, así que las pocas claves que aún aprenden reciben actualizaciones 8× mayores y más bruscas, y el resto ninguna.',
};
