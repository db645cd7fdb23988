// Los mensajes de las lecciones de inferencia (FlashAttention, caché KV, posiciones). Glosario además de
// common.js: tile = bloque (tesela); row block / column block = bloque de filas / de columnas; running
// max / sum = máximo / suma acumulados; unnormalised output = salida sin normalizar; key/value head =
// cabeza de clave/valor; cache = caché; slot = casilla; sliding window = ventana deslizante; ring
// buffer = búfer circular; full causal pass = pasada causal completa; layer = capa; decoder = decodificador.
export default {
  'inference.explain.title': '¿Cómo se calculó este número?',
  'inference.explain.idle': 'Señala, toca o enfoca cualquier número de esta lección para ver cómo se calculó.',
  'inference.explain.longSum': '{first} + … + {last}  ({count} términos)',
  'inference.cannotCompute': 'No se puede calcular: {message}',
  'inference.coreRefused': 'El núcleo lo rechazó: {message}',

  'inference.flash.intro':
    'FlashAttention calcula softmax(S′)·V sin guardar nunca la matriz de puntuaciones de n × m. Recorre las puntuaciones tesela a tesela y conserva, para cada fila de consulta, solo un máximo acumulado m, una suma acumulada ℓ de exp(S′ − m) y una salida sin normalizar Õ. Cuando una tesela eleva el máximo de una fila, lo sumado hasta entonces se reescala por e^(m_old − m_new). Recorre paso a paso las teselas de la cabeza del explorador.',
  'inference.flash.causal': 'Máscara causal',
  'inference.flash.step': 'Paso',
  'inference.flash.play': 'Reproducir',
  'inference.flash.pause': 'Pausa',
  'inference.flash.reset': 'Reiniciar',
  'inference.flash.blockRows': 'Filas por bloque Bᵣ',
  'inference.flash.blockCols': 'Columnas por bloque B_c',
  'inference.flash.tile.nowSkipped': 'Tesela ({row}, {col}): ahora, omitida',
  'inference.flash.tile.now': 'Tesela ({row}, {col}): ahora',
  'inference.flash.tile.skipped': 'Tesela ({row}, {col}): omitida',
  'inference.flash.tile.done': 'Tesela ({row}, {col}): hecha',
  'inference.flash.tile.toCome': 'Tesela ({row}, {col}): pendiente',
  'inference.flash.tilesCaption': 'Teselas (bloques de filas × bloques de columnas)',
  'inference.flash.rescale.none': 'Consulta {query} ({label}): todavía ninguna clave visible (m = −∞).',
  'inference.flash.rescale.first':
    'Consulta {query} ({label}): primeras claves visibles, m empieza en la mayor puntuación de la tesela (nada que reescalar).',
  'inference.flash.rescale.kept': 'Consulta {query} ({label}): el máximo sigue en {max}; no se reescala nada.',
  'inference.flash.rescale.moved':
    'Consulta {query} ({label}): el máximo pasó de {from} a {to}, así que ℓ y Õ se multiplican por e^({from} − {to}) = {factor}.',
  'inference.flash.before': {
    one: 'Antes de la primera tesela: queda {count} tesela por visitar. Pulsa Paso.',
    other: 'Antes de la primera tesela: quedan {count} teselas por visitar. Pulsa Paso.',
  },
  'inference.flash.at': 'Tesela {k} de {count}: bloque de filas {row}, bloque de columnas {col}.',
  'inference.flash.skipped':
    'Tesela {k} de {count}: bloque de filas {row}, bloque de columnas {col}, omitida (la máscara causal la oculta entera).',
  'inference.flash.end': 'Todas las teselas visitadas: la Õ de cada bloque de filas dividida entre su ℓ es la salida.',
  'inference.flash.map.scores': 'Puntuaciones escaladas S′ cortadas en teselas',
  'inference.flash.map.state': 'Máximo acumulado m y suma acumulada ℓ del bloque de filas',
  'inference.flash.map.partial': 'Salida sin normalizar Õ del bloque de filas',
  'inference.flash.map.tiled': 'Salida por teselas Õ / ℓ',
  'inference.flash.map.naive': 'softmax(S′)·V',
  'inference.flash.scoresTitle': 'Puntuaciones escaladas S′ = scale·QKᵀ, con la tesela actual recuadrada',
  'inference.flash.stateTitle': 'Por fila: m y ℓ tras esta tesela',
  'inference.flash.partialTitle': 'Por fila: Õ (aún sin dividir entre ℓ)',
  'inference.flash.tiledTitle': 'Por teselas: Õ / ℓ tras la última tesela',
  'inference.flash.naiveTitle': 'Ordinaria: softmax(S′)·V',
  'inference.flash.difference': 'Mayor diferencia |por teselas − ordinaria|:',
  'inference.flash.memory': 'Memoria que necesita un paso de tesela, frente a la matriz de puntuaciones:',
  'inference.flash.memoryTile': 'Para una tesela:',
  'inference.flash.memoryFull': 'Para las n × m puntuaciones:',
  'inference.flash.floats': { one: '{count} float ({bytes} B)', other: '{count} floats ({bytes} B)' },
  'inference.flash.explain.score': 'S′[{i},{j}] = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.flash.explain.hidden': '= −∞ (oculta)',
  'inference.flash.explain.hiddenWhy':
    'La máscara causal oculta la clave {key} a la consulta {query}: viene después. Una tesela con todos sus pares ocultos se omite.',
  'inference.flash.explain.scoreTile':
    'Esta puntuación pertenece a la tesela ({row}, {col}): bloque de filas {row}, bloque de columnas {col}. FlashAttention solo la calcula mientras esa tesela está en la memoria rápida, y nunca la guarda.',
  'inference.flash.explain.scoreTitle': 'S′: puntuación de la consulta {query} y la clave {key}',
  'inference.flash.explain.skipped':
    'La tesela ({row}, {col}) se omitió: la máscara causal oculta todos sus pares, así que no se calcula nada y el estado queda como estaba.',
  'inference.flash.explain.max': 'm{sub} = max(m_old, máximo de las puntuaciones de esta tesela) = max({old}, {tile})',
  'inference.flash.explain.maxWhy':
    'La mayor puntuación vista hasta ahora en esta fila. Restarla antes de exp mantiene cada exponencial en 1 como mucho, así nada se desborda.',
  'inference.flash.explain.maxTitle': 'Máximo acumulado m de la consulta {query}',
  'inference.flash.explain.sum': 'ℓ{sub} = ℓ_old × e^(m_old − m_new) + Σ e^(S′ − m_new) = {old} × {factor} + {sum}',
  'inference.flash.explain.sumFirst': 'Las primeras claves visibles de esta fila: aún no hay nada que reescalar.',
  'inference.flash.explain.sumRescaled':
    'Lo sumado con el máximo anterior se reescala al nuevo y luego se añaden los términos de esta tesela.',
  'inference.flash.explain.sumTitle': 'Suma acumulada ℓ de la consulta {query}',
  'inference.flash.explain.partial':
    'Õ[{i},{x}] = Õ_old × e^(m_old − m_new) + Σ e^(S′ − m_new)·v[j,{x}] = {old} × {factor} + {sum}',
  'inference.flash.explain.partialWhy':
    'Aún sin dividir entre ℓ: la división se hace una vez, tras la última tesela de la fila.',
  'inference.flash.explain.partialTitle': 'Salida sin normalizar Õ de la consulta {query}',
  'inference.flash.explain.tiledWhy':
    'El resultado por teselas: la salida sin normalizar tras la última tesela del bloque de filas, dividida entre la suma acumulada.',
  'inference.flash.explain.tiledTitle': 'Salida por teselas [{i},{x}]',
  'inference.flash.explain.naive': 'O[{i},{x}] = Σⱼ A[{i},j]·v[j,{x}] = {sum}',
  'inference.flash.explain.naiveWhy': 'El cálculo ordinario: la fila entera de puntuaciones, su softmax A y luego A·V.',
  'inference.flash.explain.naiveTitle': 'softmax(S′)·V [{i},{x}]',
  'inference.flash.explain.difference': 'max |O_tiled − O_naive| en {n} × {dv} celdas = {value}',
  'inference.flash.explain.differenceWhy':
    'Los mismos números salvo el redondeo de float32: el softmax en línea es álgebra exacta, solo cambia el orden de las sumas.',
  'inference.flash.explain.differenceTitle': 'Mayor diferencia, por teselas frente a ordinaria',
  'inference.flash.explain.memoryTile':
    'tesela: Bᵣ·dₖ + B_c·(dₖ + dᵥ) + Bᵣ·B_c + 2·Bᵣ + Bᵣ·dᵥ = {rows}·{dk} + {cols}·({dk} + {dv}) + {rows}·{cols} + 2·{rows} + {rows}·{dv} = {count} floats = {bytes} B',
  'inference.flash.explain.memoryFull':
    'puntuaciones: n·m = {n}·{m} = {count} floats = {bytes} B (y otra vez los pesos A)',
  'inference.flash.explain.memoryWhy':
    'La memoria de una tesela solo depende del tamaño de los bloques; la matriz de puntuaciones crece con n × m. Por eso FlashAttention procesa secuencias largas en la pequeña memoria del chip de una GPU.',
  'inference.flash.explain.memoryTitle': 'Memoria: una tesela frente a la matriz entera',

  'inference.kv.intro':
    'Un modelo que escribe texto produce un token cada vez. Las claves y los valores de los tokens anteriores no cambian nunca (la atención es causal), así que un decodificador los guarda en una caché: cada paso calcula solo q, k y v del token nuevo, añade k y v, y deja que la nueva consulta atienda sobre la caché. Aquí la cabeza del explorador se decodifica así con el decodificador del núcleo, y cada paso se compara con una pasada causal completa.',
  'inference.kv.previous': '◀ Anterior',
  'inference.kv.next': 'Siguiente token ▶',
  'inference.kv.heads': 'Cabezas de clave/valor',
  'inference.kv.window': 'Ventana deslizante W (0 = ninguna)',
  'inference.kv.slot': 'casilla {slot}: {position}',
  'inference.kv.map.weights': 'Los pesos de la nueva consulta sobre la caché, por cabeza',
  'inference.kv.map.full': 'La misma fila de la pasada causal completa',
  'inference.kv.map.keys': 'Caché K',
  'inference.kv.map.values': 'Caché V',
  'inference.kv.strip': 'Tokens decodificados hasta ahora',
  'inference.kv.ring': 'Casillas de la caché',
  'inference.kv.bytesLine': 'Bytes en la caché (decoder.cacheBytes):',
  'inference.kv.differenceLine': 'Mayor diferencia entre el paso con caché y la pasada completa (pesos y logits):',
  'inference.kv.tableIdle': 'Señala, toca o enfoca un tamaño de caché de la tabla para ver cómo se calculó.',
  'inference.kv.tableTitle': 'Cuánta memoria ocupan las cachés de modelos reales',
  'inference.kv.status':
    'Decodificando el token {i} de {count} ({label}): su k y su v entran en la caché y su consulta atiende sobre ella.',
  'inference.kv.ringNote':
    'Búfer circular de {count} casillas: la posición p se guarda en la casilla p mod {count} y sobrescribe la posición {count} anterior.',
  'inference.kv.bytes':
    'Caché: {bytes} bytes = 2 (claves y valores) · 1 capa · {kvHeads} cabezas de clave/valor · head_dim {headDim} · {tokens} tokens guardados · 4 bytes por número.',
  'inference.kv.shrink': {
    one: '{heads} cabezas de consulta comparten {count} cabeza de clave/valor: la caché es {ratio}× más pequeña que con una cabeza de clave/valor por cabeza de consulta.',
    other:
      '{heads} cabezas de consulta comparten {count} cabezas de clave/valor: la caché es {ratio}× más pequeña que con una cabeza de clave/valor por cabeza de consulta.',
  },
  'inference.kv.oneHead':
    'El explorador muestra una sola cabeza, así que no hay nada que compartir: elige varias cabezas en el modo frase (el campo «cabezas h» del explorador) para ver la atención de consultas agrupadas y de consulta múltiple.',
  'inference.kv.pooled':
    'Con menos cabezas de clave/valor, las claves y los valores de cada grupo son la media de los de sus cabezas (así convierten Ainslie et al. un modelo multicabeza en atención de consultas agrupadas), por lo que los pesos difieren de las cabezas del explorador; el paso con caché sigue igualando a la pasada completa.',
  'inference.kv.padded':
    'head_dim vale aquí {d}, no {dk}: el modelo lee cada token como un vector one-hot, así que cabezas × head_dim debe alcanzar el número de tokens; las columnas de más de q, k y v son ceros y no cambian ninguna puntuación.',
  'inference.kv.cross':
    'La atención cruzada está activada: un decodificador guarda en caché sus propios tokens, así que esta lección decodifica los primeros tokens de la frase contra sí mismos.',
  'inference.kv.decoderTitle': 'Decodificador: la nueva consulta sobre la caché',
  'inference.kv.fullTitle': 'Pasada causal completa: la misma fila',
  'inference.kv.keysTitle': 'Caché K (orden de las casillas)',
  'inference.kv.valuesTitle': 'Caché V (orden de las casillas)',
  'inference.kv.headRow': 'cabeza {head}',
  'inference.kv.explain.leftWindow':
    'a = 0 exactamente: la posición {position} salió de la ventana de {window} (ya no está en la caché).',
  'inference.kv.explain.weightTitle': 'Cabeza {head}: peso de la posición {position}',
  'inference.kv.explain.score': 's = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.kv.explain.weight': 'a = e^s / Σ sobre la caché de e^s = {value}',
  'inference.kv.explain.weightWhy':
    'La nueva consulta de la cabeza {head} ({query}) frente a la clave en caché de {key}, leída de la cabeza de clave/valor {group}.',
  'inference.kv.explain.decoderTitle': 'Cabeza {head}: peso de la posición {position} (decodificador)',
  'inference.kv.explain.full': 'A[{i},{j}] de la cabeza {head} en model.forward sobre los tokens 1…{i} = {value}',
  'inference.kv.explain.fullWhy':
    'El decodificador dio {value}: la caché cambia cómo se hace el trabajo, no el resultado.',
  'inference.kv.explain.fullTitle': 'Cabeza {head}: pasada causal completa, fila {row}',
  'inference.kv.explain.slot':
    'La casilla {slot} guarda la posición {position} ({label}), escrita cuando se decodificó ese token y nunca recalculada.',
  'inference.kv.explain.group':
    'Cabeza de clave/valor {group}: la media de las filas {name} de sus {count} cabezas de consulta.',
  'inference.kv.explain.keysTitle': 'Caché K, casilla {slot}, columna {column}',
  'inference.kv.explain.valuesTitle': 'Caché V, casilla {slot}, columna {column}',
  'inference.kv.explain.bytes':
    'decoder.cacheBytes = 2 · capas · kv_heads · head_dim · guardados · 4 = 2 · 1 · {kvHeads} · {headDim} · {kept} · 4',
  'inference.kv.explain.bytesWindow':
    'Con una ventana de {window}, la caché guarda como mucho {window} tokens, por mucho que crezca el texto.',
  'inference.kv.explain.bytesGrow': 'Sin ventana crece en cada paso con las claves y los valores de un token.',
  'inference.kv.explain.bytesTitle': 'Bytes en la caché',
  'inference.kv.explain.difference':
    'max |decodificador − pasada completa| sobre los pesos y logits del token {token} = {value}',
  'inference.kv.explain.differenceWhy':
    'El decodificador reutiliza las claves y los valores de la caché en vez de recalcularlos; los números son los mismos salvo el redondeo de float32.',
  'inference.kv.explain.differenceTitle': 'Paso con caché frente a la pasada completa',
  'inference.kv.table.model': 'Modelo',
  'inference.kv.table.layers': 'Capas',
  'inference.kv.table.kvHeads': 'Cabezas KV',
  'inference.kv.table.headDim': 'Dim. de cabeza',
  'inference.kv.table.tokens': 'Tokens',
  'inference.kv.table.windowSize': 'Ventana (0 = ninguna)',
  'inference.kv.table.bytes': 'Bytes por número',
  'inference.kv.table.cache': 'Caché',
  'inference.kv.table.caption':
    'Memoria de la caché KV: 2 · capas · kv_heads · head_dim · tokens · bytes (cualquier campo es editable)',
  'inference.kv.table.input': '{model}: {field}',
  'inference.kv.table.reset': 'Reiniciar la tabla',
  'inference.kv.table.formula':
    '2 · capas · kv_heads · head_dim · tokens · bytes = 2 · {layers} · {kvHeads} · {headDim} · {kept} · {bytes}',
  'inference.kv.table.why':
    'Claves y valores (el 2) para cada capa, cabeza de clave/valor y token guardado, en {type}.',
  'inference.kv.table.whyBytes':
    'Claves y valores (el 2) para cada capa, cabeza de clave/valor y token guardado, en números de {count} bytes.',
  'inference.kv.table.window':
    'La ventana deslizante guarda solo los últimos {window} de los {tokens} tokens: la caché es un búfer circular y deja de crecer.',
  'inference.kv.table.size': '{bytes} B ≈ {size}',
  'inference.kv.table.title': 'Caché KV de {name}',

  'inference.positions.intro':
    'La atención por sí sola no ve el orden. Aquí un vector de consulta q y un vector de clave k de la cabeza del explorador se colocan en cada par de posiciones (m, n); cada mapa muestra su puntuación. Una codificación absoluta suma a cada uno un vector de posición, así que la puntuación depende de m y de n por separado y cambia a lo largo de las diagonales. RoPE, en cambio, gira q y k en ángulos proporcionales a sus posiciones: la puntuación solo depende de la distancia m − n, así que cada diagonal es constante. ALiBi suma una penalización que crece con la distancia.',
  'inference.positions.sinusoidal.title': 'Sinusoidal (sumada)',
  'inference.positions.sinusoidal.formula': '(q + pₘ)·(k + pₙ), p el vector de senos y cosenos de Vaswani et al.',
  'inference.positions.sinusoidal.label': 'Sinusoidal (sumada): puntuación de q en m y k en n',
  'inference.positions.learned.title': 'Aprendida (sumada)',
  'inference.positions.learned.formula':
    '(q + pₘ)·(k + pₙ), p un vector aleatorio por posición, como sería una tabla aprendida antes del entrenamiento',
  'inference.positions.learned.label': 'Aprendida (sumada): puntuación de q en m y k en n',
  'inference.positions.rope.title': 'RoPE (girada)',
  'inference.positions.rope.formula': 'rope(q, m)·rope(k, n): q y k girados en ángulos proporcionales a sus posiciones',
  'inference.positions.rope.label': 'RoPE (girada): puntuación de q en m y k en n',
  'inference.positions.alibi.title': 'ALiBi (sesgo)',
  'inference.positions.alibi.formula': 'scale·q·k − slope·(m − n) para la cabeza elegida; claves posteriores ocultas',
  'inference.positions.alibi.label': 'ALiBi (sesgo): puntuación de q en m y k en n',
  'inference.positions.odd':
    'RoPE gira pares de rasgos, así que necesita una dimensión par: dₖ = {dk}, y la lección usa sus primeros {used} rasgos.',
  'inference.positions.tooNarrow': 'RoPE necesita al menos dos rasgos por cabeza: sube la dₖ del explorador.',
  'inference.positions.spread': 'Mayor dispersión a lo largo de una diagonal:',
  'inference.positions.clocks':
    'Las frecuencias de RoPE en la posición {p}: el par i gira {p}·θᵢ con θᵢ = base^(−2i/d). Los primeros pares giran rápido (distinguen posiciones cercanas), los últimos despacio (siguen cambiando a grandes distancias).',
  'inference.positions.alibi':
    'Las matrices de sesgo de ALiBi, una por cabeza: −slopeₕ·(m − n). Las cabezas empinadas solo miran los últimos tokens, las suaves miran muy atrás.',
  'inference.positions.alibiTitle': 'ALiBi, cabeza a cabeza',
  'inference.positions.clocksTitle': 'Las frecuencias de RoPE como agujas de reloj',
  'inference.positions.clockIdle': 'Señala, toca o enfoca un reloj para ver su frecuencia y su ángulo.',
  'inference.positions.clockPosition': 'Posición de los relojes',
  'inference.positions.query': 'Fila de consulta q',
  'inference.positions.key': 'Fila de clave k',
  'inference.positions.count': 'Posiciones',
  'inference.positions.base': 'Base de RoPE',
  'inference.positions.alibiHeads': 'Cabezas de ALiBi',
  'inference.positions.alibiHead': 'Cabeza de ALiBi mostrada',
  'inference.positions.clock': 'Posición p de los relojes',
  'inference.positions.pair': 'par {pair}',
  'inference.positions.clockLabel': 'par {pair}: girado {angle} radianes en la posición {p}',
  'inference.positions.head': 'cabeza {head}',
  'inference.positions.valueText': 'posición {p}',
  'inference.positions.alibiMap': 'Sesgo ALiBi de la cabeza {head}',
  'inference.positions.slope': 'cabeza {head}: pendiente {slope}',
  'inference.positions.explain.alibiTitle': 'ALiBi: consulta en {m}, clave en {n}',
  'inference.positions.explain.alibiHidden': 'oculta: con máscara causal una consulta nunca ve una clave posterior',
  'inference.positions.explain.alibi': 'scale·q·k − slope·(m − n) = {scale}×{content} − {slope}×{distance}',
  'inference.positions.explain.alibiWhy':
    'La puntuación de contenido es la misma en cada posición; el sesgo de la cabeza {head} baja {slope} por cada token de distancia.',
  'inference.positions.explain.rope': 'rope(q, {m})·rope(k, {n}) = {sum}',
  'inference.positions.explain.added': '(q + p{pm})·(k + p{pn}) = {sum}',
  'inference.positions.explain.ropeWhy':
    'm − n = {distance}: todas las celdas de esta diagonal tienen la misma puntuación (salvo el redondeo de float32), porque girar ambos vectores el mismo ángulo extra conserva su producto escalar.',
  'inference.positions.explain.addedWhy':
    'Los vectores de posición se suman a q y k, así que la puntuación mezcla q·pₙ y pₘ·k: depende de dónde está el par, no solo de m − n = {distance}.',
  'inference.positions.explain.sinusoidalTitle': 'Sinusoidal: consulta en {m}, clave en {n}',
  'inference.positions.explain.learnedTitle': 'Aprendida: consulta en {m}, clave en {n}',
  'inference.positions.explain.ropeTitle': 'RoPE: consulta en {m}, clave en {n}',
  'inference.positions.explain.spread':
    'máximo sobre las diagonales m − n = δ de (mayor − menor puntuación en ella) = {value}',
  'inference.positions.explain.spreadNone':
    'Casi 0: la puntuación solo depende de la distancia m − n (lo que queda es redondeo de float32).',
  'inference.positions.explain.spreadFar':
    'Lejos de 0: la misma distancia da puntuaciones distintas en sitios distintos, así que el modelo debe aprender qué significa cada posición absoluta.',
  'inference.positions.explain.spreadTitle': '¿Constante a lo largo de las diagonales?',
  'inference.positions.explain.biasHidden': '−∞: la máscara causal oculta las claves posteriores',
  'inference.positions.explain.bias': '−slope × (m − n) = −{slope} × {distance} = {value}',
  'inference.positions.explain.slopes':
    'Cabeza {head} de {heads}: pendiente 2^(−8·{head}/{heads}) (Press et al., como la calcula BLOOM).',
  'inference.positions.explain.slopesOdd':
    'Cabeza {head} de {heads}: {heads} no es potencia de dos, así que las pendientes son las de {power} cabezas y luego una de cada dos pendientes del doble de cabezas (la regla de BLOOM).',
  'inference.positions.explain.biasTitle': 'Sesgo ALiBi de la cabeza {head} en ({m}, {n})',
  'inference.positions.explain.theta': 'θ{sub} = base^(−2·{i}/{d}) = {base}^({exponent}) = {theta} rad por posición',
  'inference.positions.explain.angle': 'ángulo en la posición {p} = {p} × {theta} = {angle} rad',
  'inference.positions.explain.turned': 'attn.rope(e{sub}, posición {p}) = (cos, sin) = ({cos}, {sin})',
  'inference.positions.explain.pair':
    'El par {pair} son los rasgos {pair} y {other} (rotate_half de Llama en Hugging Face empareja las dos mitades de la cabeza).',
  'inference.positions.explain.clockTitle': 'Par {pair} de RoPE en la posición {p}',
};
