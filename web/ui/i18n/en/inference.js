// The inference lessons' messages (web/ui/lessons/flash-*.js, kv-*.js, positions*.js): FlashAttention
// tile by tile, the KV cache, where positions come from. Formulas are messages too, so a translation can
// reword their words and keep their symbols.
export default {
  'inference.explain.title': 'How was this number computed?',
  'inference.explain.idle': 'Point at, tap or focus any number of this lesson to see how it was computed.',
  'inference.explain.longSum': '{first} + … + {last}  ({count} terms)',
  'inference.cannotCompute': 'Cannot compute: {message}',
  'inference.coreRefused': 'The core refused: {message}',

  'inference.flash.intro':
    'FlashAttention computes softmax(S′)·V without ever holding the n × m score matrix. It walks the scores tile by tile and keeps, for each query row, only a running max m, a running sum ℓ of exp(S′ − m) and an unnormalised output Õ. When a tile raises a row’s max, what was summed so far is rescaled by e^(m_old − m_new). Step through the tiles of the explorer’s head.',
  'inference.flash.causal': 'Causal mask',
  'inference.flash.step': 'Step',
  'inference.flash.play': 'Play',
  'inference.flash.pause': 'Pause',
  'inference.flash.reset': 'Reset',
  'inference.flash.blockRows': 'Block rows Bᵣ',
  'inference.flash.blockCols': 'Block columns B_c',
  'inference.flash.tile.nowSkipped': 'Tile ({row}, {col}): now, skipped',
  'inference.flash.tile.now': 'Tile ({row}, {col}): now',
  'inference.flash.tile.skipped': 'Tile ({row}, {col}): skipped',
  'inference.flash.tile.done': 'Tile ({row}, {col}): done',
  'inference.flash.tile.toCome': 'Tile ({row}, {col}): to come',
  'inference.flash.tilesCaption': 'Tiles (row blocks × column blocks)',
  'inference.flash.rescale.none': 'Query {query} ({label}): no visible key yet (m = −∞).',
  'inference.flash.rescale.first':
    'Query {query} ({label}): first visible keys, m starts at the tile’s largest score (nothing to rescale).',
  'inference.flash.rescale.kept': 'Query {query} ({label}): the max stays {max}; nothing is rescaled.',
  'inference.flash.rescale.moved':
    'Query {query} ({label}): the max moved from {from} to {to}, so ℓ and Õ are multiplied by e^({from} − {to}) = {factor}.',
  'inference.flash.before': {
    one: 'Before the first tile: {count} tile to visit. Press Step.',
    other: 'Before the first tile: {count} tiles to visit. Press Step.',
  },
  'inference.flash.at': 'Tile {k} of {count}: row block {row}, column block {col}.',
  'inference.flash.skipped':
    'Tile {k} of {count}: row block {row}, column block {col}, skipped (the causal mask hides all of it).',
  'inference.flash.end': 'Every tile visited: each row block’s Õ divided by its ℓ is the output.',
  'inference.flash.map.scores': 'Scaled scores S′ cut into tiles',
  'inference.flash.map.state': 'Running max m and running sum ℓ of the row block',
  'inference.flash.map.partial': 'Unnormalised output Õ of the row block',
  'inference.flash.map.tiled': 'Tiled output Õ / ℓ',
  'inference.flash.map.naive': 'softmax(S′)·V',
  'inference.flash.scoresTitle': 'Scaled scores S′ = scale·QKᵀ, the current tile outlined',
  'inference.flash.stateTitle': 'Per row: m and ℓ after this tile',
  'inference.flash.partialTitle': 'Per row: Õ (not yet divided by ℓ)',
  'inference.flash.tiledTitle': 'Tiled: Õ / ℓ after the last tile',
  'inference.flash.naiveTitle': 'Ordinary: softmax(S′)·V',
  'inference.flash.difference': 'Largest difference |tiled − ordinary|:',
  'inference.flash.memory': 'Memory a tile step needs, against the score matrix:',
  'inference.flash.memoryTile': 'For a tile:',
  'inference.flash.memoryFull': 'For the n × m scores:',
  'inference.flash.floats': { one: '{count} float ({bytes} B)', other: '{count} floats ({bytes} B)' },
  'inference.flash.explain.score': 'S′[{i},{j}] = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.flash.explain.hidden': '= −∞ (hidden)',
  'inference.flash.explain.hiddenWhy':
    'The causal mask hides key {key} from query {query}: it comes later. A tile whose every pair is hidden is skipped.',
  'inference.flash.explain.scoreTile':
    'This score belongs to tile ({row}, {col}): row block {row}, column block {col}. FlashAttention computes it only while that tile is in fast memory, and never stores it.',
  'inference.flash.explain.scoreTitle': 'S′: score of query {query} and key {key}',
  'inference.flash.explain.skipped':
    'Tile ({row}, {col}) was skipped: the causal mask hides every pair in it, so nothing is computed and the state stays as it was.',
  'inference.flash.explain.max': 'm{sub} = max(m_old, max of this tile’s scores) = max({old}, {tile})',
  'inference.flash.explain.maxWhy':
    'The largest score seen so far in this row. Subtracting it before exp keeps every exponential at most 1, so nothing overflows.',
  'inference.flash.explain.maxTitle': 'Running max m of query {query}',
  'inference.flash.explain.sum': 'ℓ{sub} = ℓ_old × e^(m_old − m_new) + Σ e^(S′ − m_new) = {old} × {factor} + {sum}',
  'inference.flash.explain.sumFirst': 'The first visible keys of this row: there is nothing to rescale yet.',
  'inference.flash.explain.sumRescaled':
    'What was summed against the old max is rescaled to the new one, then this tile’s terms are added.',
  'inference.flash.explain.sumTitle': 'Running sum ℓ of query {query}',
  'inference.flash.explain.partial':
    'Õ[{i},{x}] = Õ_old × e^(m_old − m_new) + Σ e^(S′ − m_new)·v[j,{x}] = {old} × {factor} + {sum}',
  'inference.flash.explain.partialWhy': 'Not yet divided by ℓ: the division happens once, after the row’s last tile.',
  'inference.flash.explain.partialTitle': 'Unnormalised output Õ of query {query}',
  'inference.flash.explain.tiledWhy':
    'The tiled result: the unnormalised output after the row block’s last tile, divided by the running sum.',
  'inference.flash.explain.tiledTitle': 'Tiled output [{i},{x}]',
  'inference.flash.explain.naive': 'O[{i},{x}] = Σⱼ A[{i},j]·v[j,{x}] = {sum}',
  'inference.flash.explain.naiveWhy': 'The ordinary computation: the whole row of scores, its softmax A, then A·V.',
  'inference.flash.explain.naiveTitle': 'softmax(S′)·V [{i},{x}]',
  'inference.flash.explain.difference': 'max |O_tiled − O_naive| over {n} × {dv} cells = {value}',
  'inference.flash.explain.differenceWhy':
    'The same numbers up to float32 rounding: the online softmax is exact algebra, only the order of the additions differs.',
  'inference.flash.explain.differenceTitle': 'Largest difference, tiled against ordinary',
  'inference.flash.explain.memoryTile':
    'tile: Bᵣ·dₖ + B_c·(dₖ + dᵥ) + Bᵣ·B_c + 2·Bᵣ + Bᵣ·dᵥ = {rows}·{dk} + {cols}·({dk} + {dv}) + {rows}·{cols} + 2·{rows} + {rows}·{dv} = {count} floats = {bytes} B',
  'inference.flash.explain.memoryFull': 'scores: n·m = {n}·{m} = {count} floats = {bytes} B (and the weights A again)',
  'inference.flash.explain.memoryWhy':
    'The tile’s memory depends on the block sizes only; the score matrix grows with n × m. That is why FlashAttention runs long sequences in a GPU’s small on-chip memory.',
  'inference.flash.explain.memoryTitle': 'Memory: a tile against the whole matrix',

  'inference.kv.intro':
    'A model writing text produces one token at a time. The keys and values of earlier tokens never change (attention is causal), so a decoder keeps them in a cache: each step computes only the new token’s q, k and v, appends k and v, and lets the new query attend over the cache. Here the explorer’s head is decoded that way by the core’s decoder, and every step is checked against a full causal pass.',
  'inference.kv.previous': '◀ Previous',
  'inference.kv.next': 'Next token ▶',
  'inference.kv.heads': 'Key/value heads',
  'inference.kv.window': 'Sliding window W (0 = none)',
  'inference.kv.slot': 'slot {slot}: {position}',
  'inference.kv.map.weights': 'The new query’s weights over the cache, per head',
  'inference.kv.map.full': 'The same row of the full causal pass',
  'inference.kv.map.keys': 'K cache',
  'inference.kv.map.values': 'V cache',
  'inference.kv.strip': 'Tokens decoded so far',
  'inference.kv.ring': 'Cache slots',
  'inference.kv.bytesLine': 'Bytes in the cache (decoder.cacheBytes):',
  'inference.kv.differenceLine': 'Largest difference between the cached step and the full pass (weights and logits):',
  'inference.kv.tableIdle': 'Point at, tap or focus a cache size in the table to see how it was computed.',
  'inference.kv.tableTitle': 'How much memory real models’ caches take',
  'inference.kv.status':
    'Decoding token {i} of {count} ({label}): its k and v join the cache, its query attends over it.',
  'inference.kv.ringNote':
    'Ring buffer of {count} slots: position p is kept in slot p mod {count}, overwriting the position {count} before it.',
  'inference.kv.bytes':
    'Cache: {bytes} bytes = 2 (keys and values) · 1 layer · {kvHeads} key/value heads · head_dim {headDim} · {tokens} tokens kept · 4 bytes per number.',
  'inference.kv.shrink': {
    one: '{heads} query heads share {count} key/value head: the cache is {ratio}× smaller than with one key/value head per query head.',
    other:
      '{heads} query heads share {count} key/value heads: the cache is {ratio}× smaller than with one key/value head per query head.',
  },
  'inference.kv.oneHead':
    'The explorer shows one head, so there is nothing to share: choose several heads in sentence mode (the explorer’s “heads h”) to see grouped-query and multi-query attention.',
  'inference.kv.pooled':
    'With fewer key/value heads, each group’s keys and values are the mean of its heads’ (as Ainslie et al. convert a multi-head model to grouped-query attention), so the weights differ from the explorer’s heads; the cached step still equals the full pass.',
  'inference.kv.padded':
    'head_dim is {d} here, not {dk}: the model reads each token as a one-hot vector, so heads × head_dim must reach the number of tokens; the extra columns of q, k and v are zeros and change no score.',
  'inference.kv.cross':
    'Cross-attention is on: a decoder caches its own tokens, so this lesson decodes the first tokens of the sentence against themselves.',
  'inference.kv.decoderTitle': 'Decoder: the new query over the cache',
  'inference.kv.fullTitle': 'Full causal pass: the same row',
  'inference.kv.keysTitle': 'K cache (slot order)',
  'inference.kv.valuesTitle': 'V cache (slot order)',
  'inference.kv.headRow': 'head {head}',
  'inference.kv.explain.leftWindow':
    'a = 0 exactly: position {position} left the window of {window} (it is no longer in the cache).',
  'inference.kv.explain.weightTitle': 'Head {head}: weight of position {position}',
  'inference.kv.explain.score': 's = scale × q{qi}·k{kj} = {scale} × ({sum})',
  'inference.kv.explain.weight': 'a = e^s / Σ over the cache of e^s = {value}',
  'inference.kv.explain.weightWhy':
    'Head {head}’s new query ({query}) against the cached key of {key}, read from key/value head {group}.',
  'inference.kv.explain.decoderTitle': 'Head {head}: weight of position {position} (decoder)',
  'inference.kv.explain.full': 'A[{i},{j}] of head {head} in model.forward over tokens 1…{i} = {value}',
  'inference.kv.explain.fullWhy': 'The decoder gave {value}: the cache changes how the work is done, not the result.',
  'inference.kv.explain.fullTitle': 'Head {head}: full causal pass, row {row}',
  'inference.kv.explain.slot':
    'Slot {slot} holds position {position} ({label}), written when that token was decoded and never recomputed.',
  'inference.kv.explain.group': 'Key/value head {group}: the mean of its {count} query heads’ {name} rows.',
  'inference.kv.explain.keysTitle': 'K cache, slot {slot}, column {column}',
  'inference.kv.explain.valuesTitle': 'V cache, slot {slot}, column {column}',
  'inference.kv.explain.bytes':
    'decoder.cacheBytes = 2 · layers · kv_heads · head_dim · kept · 4 = 2 · 1 · {kvHeads} · {headDim} · {kept} · 4',
  'inference.kv.explain.bytesWindow':
    'With a window of {window} the cache keeps at most {window} tokens, however long the text grows.',
  'inference.kv.explain.bytesGrow': 'Without a window it grows by one token’s keys and values every step.',
  'inference.kv.explain.bytesTitle': 'Bytes in the cache',
  'inference.kv.explain.difference': 'max |decoder − full pass| over the weights and logits of token {token} = {value}',
  'inference.kv.explain.differenceWhy':
    'The decoder reuses the cached keys and values instead of recomputing them; the numbers are the same up to float32 rounding.',
  'inference.kv.explain.differenceTitle': 'Cached step against the full pass',
  'inference.kv.table.model': 'Model',
  'inference.kv.table.layers': 'Layers',
  'inference.kv.table.kvHeads': 'KV heads',
  'inference.kv.table.headDim': 'Head dim',
  'inference.kv.table.tokens': 'Tokens',
  'inference.kv.table.windowSize': 'Window (0 = none)',
  'inference.kv.table.bytes': 'Bytes per number',
  'inference.kv.table.cache': 'Cache',
  'inference.kv.table.caption': 'KV-cache memory: 2 · layers · kv_heads · head_dim · tokens · bytes (edit any field)',
  'inference.kv.table.input': '{model}: {field}',
  'inference.kv.table.reset': 'Reset the table',
  'inference.kv.table.formula':
    '2 · layers · kv_heads · head_dim · tokens · bytes = 2 · {layers} · {kvHeads} · {headDim} · {kept} · {bytes}',
  'inference.kv.table.why': 'Keys and values (the 2) for every layer, key/value head and kept token, in {type}.',
  'inference.kv.table.whyBytes':
    'Keys and values (the 2) for every layer, key/value head and kept token, in {count}-byte numbers.',
  'inference.kv.table.window':
    'The sliding window keeps only the last {window} of the {tokens} tokens: the cache is a ring buffer and stops growing.',
  'inference.kv.table.size': '{bytes} B ≈ {size}',
  'inference.kv.table.title': 'KV cache of {name}',

  'inference.positions.intro':
    'Attention alone is blind to order. Here one query vector q and one key vector k of the explorer’s head are placed at every pair of positions (m, n); each map is their score. An absolute encoding adds a position vector to each, so the score depends on m and n separately and changes along the diagonals. RoPE turns q and k instead, by angles proportional to their positions: the score depends only on the distance m − n, so each diagonal is constant. ALiBi adds a penalty that grows with the distance.',
  'inference.positions.sinusoidal.title': 'Sinusoidal (added)',
  'inference.positions.sinusoidal.formula': '(q + pₘ)·(k + pₙ), p the sine/cosine vector of Vaswani et al.',
  'inference.positions.sinusoidal.label': 'Sinusoidal (added): score of q at m and k at n',
  'inference.positions.learned.title': 'Learned (added)',
  'inference.positions.learned.formula':
    '(q + pₘ)·(k + pₙ), p a random vector per position, as a trained table would be before training',
  'inference.positions.learned.label': 'Learned (added): score of q at m and k at n',
  'inference.positions.rope.title': 'RoPE (rotated)',
  'inference.positions.rope.formula': 'rope(q, m)·rope(k, n): q and k turned by angles proportional to their positions',
  'inference.positions.rope.label': 'RoPE (rotated): score of q at m and k at n',
  'inference.positions.alibi.title': 'ALiBi (bias)',
  'inference.positions.alibi.formula': 'scale·q·k − slope·(m − n) for the chosen head; later keys hidden',
  'inference.positions.alibi.label': 'ALiBi (bias): score of q at m and k at n',
  'inference.positions.odd':
    'RoPE turns pairs of features, so it needs an even dimension: dₖ = {dk}, and the lesson uses its first {used} features.',
  'inference.positions.tooNarrow': 'RoPE needs at least two features per head: raise the explorer’s dₖ.',
  'inference.positions.spread': 'Largest spread along a diagonal:',
  'inference.positions.clocks':
    'RoPE’s frequencies at position {p}: pair i turns by {p}·θᵢ with θᵢ = base^(−2i/d). The first pairs spin fast (they tell nearby positions apart), the last ones slowly (they still change over long distances).',
  'inference.positions.alibi':
    'ALiBi’s bias matrices, one per head: −slopeₕ·(m − n). Steep heads look only at the last few tokens, shallow ones far back.',
  'inference.positions.alibiTitle': 'ALiBi, head by head',
  'inference.positions.clocksTitle': 'RoPE’s frequencies as clock hands',
  'inference.positions.clockIdle': 'Point at, tap or focus a clock to see its frequency and angle.',
  'inference.positions.clockPosition': 'Position of the clocks',
  'inference.positions.query': 'Query row q',
  'inference.positions.key': 'Key row k',
  'inference.positions.count': 'Positions',
  'inference.positions.base': 'RoPE base',
  'inference.positions.alibiHeads': 'ALiBi heads',
  'inference.positions.alibiHead': 'ALiBi head shown',
  'inference.positions.clock': 'Clock position p',
  'inference.positions.pair': 'pair {pair}',
  'inference.positions.clockLabel': 'pair {pair}: turned by {angle} radians at position {p}',
  'inference.positions.head': 'head {head}',
  'inference.positions.valueText': 'position {p}',
  'inference.positions.alibiMap': 'ALiBi bias of head {head}',
  'inference.positions.slope': 'head {head}: slope {slope}',
  'inference.positions.explain.alibiTitle': 'ALiBi: query at {m}, key at {n}',
  'inference.positions.explain.alibiHidden': 'hidden: with a causal mask a query never sees a later key',
  'inference.positions.explain.alibi': 'scale·q·k − slope·(m − n) = {scale}×{content} − {slope}×{distance}',
  'inference.positions.explain.alibiWhy':
    'The content score is the same at every position; the bias of head {head} falls by {slope} per token of distance.',
  'inference.positions.explain.rope': 'rope(q, {m})·rope(k, {n}) = {sum}',
  'inference.positions.explain.added': '(q + p{pm})·(k + p{pn}) = {sum}',
  'inference.positions.explain.ropeWhy':
    'm − n = {distance}: every cell on this diagonal has the same score (up to float32 rounding), because turning both vectors by the same extra angle keeps their dot product.',
  'inference.positions.explain.addedWhy':
    'The position vectors are added to q and k, so the score mixes q·pₙ and pₘ·k: it depends on where the pair is, not only on m − n = {distance}.',
  'inference.positions.explain.sinusoidalTitle': 'Sinusoidal: query at {m}, key at {n}',
  'inference.positions.explain.learnedTitle': 'Learned: query at {m}, key at {n}',
  'inference.positions.explain.ropeTitle': 'RoPE: query at {m}, key at {n}',
  'inference.positions.explain.spread': 'max over diagonals m − n = δ of (largest − smallest score on it) = {value}',
  'inference.positions.explain.spreadNone':
    'About 0: the score depends on the distance m − n only (what is left is float32 rounding).',
  'inference.positions.explain.spreadFar':
    'Far from 0: the same distance gives different scores at different places, so the model must learn what each absolute position means.',
  'inference.positions.explain.spreadTitle': 'Constant along the diagonals?',
  'inference.positions.explain.biasHidden': '−∞: the causal mask hides later keys',
  'inference.positions.explain.bias': '−slope × (m − n) = −{slope} × {distance} = {value}',
  'inference.positions.explain.slopes':
    'Head {head} of {heads}: slope 2^(−8·{head}/{heads}) (Press et al., as BLOOM computes it).',
  'inference.positions.explain.slopesOdd':
    'Head {head} of {heads}: {heads} is not a power of two, so the slopes are those of {power} heads, then every other slope of twice as many (BLOOM’s rule).',
  'inference.positions.explain.biasTitle': 'ALiBi bias of head {head} at ({m}, {n})',
  'inference.positions.explain.theta': 'θ{sub} = base^(−2·{i}/{d}) = {base}^({exponent}) = {theta} rad per position',
  'inference.positions.explain.angle': 'angle at position {p} = {p} × {theta} = {angle} rad',
  'inference.positions.explain.turned': 'attn.rope(e{sub}, position {p}) = (cos, sin) = ({cos}, {sin})',
  'inference.positions.explain.pair':
    'Pair {pair} is features {pair} and {other} (Hugging Face Llama’s rotate_half pairs the two halves of the head).',
  'inference.positions.explain.clockTitle': 'RoPE pair {pair} at position {p}',
};
