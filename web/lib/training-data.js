// Training data for the lessons' tiny transformers, deterministic from a seed and identical in
// browsers, workers and Node: repeated random tokens (the task that grows induction heads) and
// character-level text. Plain JavaScript, no WebAssembly: the trainer's Worker calls it per step.

function fail(message) {
  throw new Error(message);
}

function checkInteger(value, name, min, max = Number.MAX_SAFE_INTEGER) {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    fail(`${name} must be an integer from ${min} to ${max}, got ${typeof value === 'number' ? value : typeof value}`);
  return value;
}

/**
 * A small seeded generator (SplitMix32-style mixing of a Weyl sequence): the same seed gives the
 * same numbers everywhere. Not NumPy's generator: data only needs to be reproducible here.
 */
export class SeededRandom {
  #state;

  constructor(seed = 0) {
    checkInteger(seed, 'seed', 0, 0xffffffff);
    this.#state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32() {
    this.#state = (this.#state + 0x9e3779b9) >>> 0;
    let z = this.#state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** A uniform integer in [0, n), without modulo bias. */
  int(n) {
    const limit = Math.floor(0x100000000 / n) * n;
    let x;
    do x = this.nextUint32();
    while (x >= limit);
    return x % n;
  }
}

export const BOS = 0;
export const FILLER = 1;

/**
 * Sequences of length `seqLength`: BOS, r random tokens, the same r tokens again, then filler.
 * Random tokens are drawn from [2, vocabSize) (0 is BOS, 1 the filler). The repeat length r varies
 * per sequence, uniformly over `repeatLengths` (default: every r from `minRepeat` to
 * `maxRepeat`, itself by default 2 … ⌊(seqLength − 1) / 2⌋): with one fixed r a model can learn
 * the period instead of induction.
 *
 * targets[i] is the next token, tokens[i + 1], only where it can be predicted from the context: in
 * the second copy, from its first token to its second-to-last (positions r + 1 … 2r − 1). Every
 * other target is −1 (ignored by the loss): the first copy is random, where the repeat starts is
 * not knowable, and the filler teaches nothing about attention. So the loss measures induction
 * alone, and a model that has learned it drives the loss towards 0.
 * With `allTargets: true`, every position but the last predicts its next token instead.
 *
 * Returns { tokens, targets } as nested arrays [batchSize][seqLength] and the r of each sequence.
 */
export function repeatedTokens(options) {
  const o = options ?? {};
  const known = [
    'vocabSize',
    'seqLength',
    'batchSize',
    'seed',
    'minRepeat',
    'maxRepeat',
    'repeatLengths',
    'allTargets',
  ];
  for (const key of Object.keys(o))
    if (!known.includes(key)) fail(`repeatedTokens has no option "${key}"; known: ${known.join(', ')}`);
  const vocabSize = checkInteger(o.vocabSize, 'vocabSize', 3);
  const seqLength = checkInteger(o.seqLength, 'seqLength', 3);
  const batchSize = checkInteger(o.batchSize ?? 1, 'batchSize', 1);
  const longest = Math.floor((seqLength - 1) / 2);
  let lengths = o.repeatLengths;
  if (lengths === undefined) {
    const lo = checkInteger(o.minRepeat ?? 2, 'minRepeat', 1, longest);
    const hi = checkInteger(o.maxRepeat ?? longest, 'maxRepeat', lo, longest);
    lengths = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  } else {
    if (!Array.isArray(lengths) || lengths.length === 0) fail('repeatLengths must be a non-empty array of integers');
    lengths.forEach((r, i) => checkInteger(r, `repeatLengths[${i}]`, 1, longest));
  }
  const rng = new SeededRandom(o.seed ?? 0);
  const tokens = [];
  const targets = [];
  const repeats = [];
  for (let b = 0; b < batchSize; b++) {
    const r = lengths[rng.int(lengths.length)];
    const first = Array.from({ length: r }, () => 2 + rng.int(vocabSize - 2));
    const seq = [BOS, ...first, ...first];
    while (seq.length < seqLength) seq.push(FILLER);
    const tgt = seq.map((_, i) => {
      if (i === seqLength - 1) return -1;
      if (o.allTargets) return seq[i + 1];
      return i >= r + 1 && i <= 2 * r - 1 ? seq[i + 1] : -1;
    });
    tokens.push(seq);
    targets.push(tgt);
    repeats.push(r);
  }
  return { tokens, targets, repeatLengths: repeats };
}

/**
 * The characters of `text` (code points, sorted) as a vocabulary: `encode(string)` → ids (an
 * Error names a character outside it), `decode(ids)` → string.
 */
export function charVocabulary(text) {
  if (typeof text !== 'string' || text.length === 0) fail('text must be a non-empty string');
  const chars = Array.from(new Set(Array.from(text))).sort();
  const index = new Map(chars.map((c, i) => [c, i]));
  return {
    chars,
    size: chars.length,
    encode(string) {
      if (typeof string !== 'string') fail('encode needs a string');
      return Array.from(string, (c, i) => {
        const id = index.get(c);
        if (id === undefined) fail(`character ${JSON.stringify(c)} at ${i} is not in the vocabulary`);
        return id;
      });
    },
    decode(ids) {
      return Array.from(
        ids,
        (id) => chars[id] ?? fail(`token id ${id} is not in the vocabulary (0 to ${chars.length - 1})`),
      ).join('');
    },
  };
}

/**
 * A batch of `batchSize` windows of `seqLength` characters from `text` at random offsets
 * (deterministic from `seed`): tokens = text[s … s + T), targets = text[s + 1 … s + T] (the next
 * character at every position). `vocabulary` defaults to charVocabulary(text).
 */
export function textBatch(options) {
  const o = options ?? {};
  const known = ['text', 'vocabulary', 'seqLength', 'batchSize', 'seed'];
  for (const key of Object.keys(o))
    if (!known.includes(key)) fail(`textBatch has no option "${key}"; known: ${known.join(', ')}`);
  const vocabulary = o.vocabulary ?? charVocabulary(o.text);
  const ids = vocabulary.encode(o.text);
  const seqLength = checkInteger(o.seqLength, 'seqLength', 1);
  const batchSize = checkInteger(o.batchSize ?? 1, 'batchSize', 1);
  if (ids.length < seqLength + 1)
    fail(`text has ${ids.length} characters; a window of seqLength ${seqLength} needs at least ${seqLength + 1}`);
  const rng = new SeededRandom(o.seed ?? 0);
  const tokens = [];
  const targets = [];
  for (let b = 0; b < batchSize; b++) {
    const s = rng.int(ids.length - seqLength);
    tokens.push(ids.slice(s, s + seqLength));
    targets.push(ids.slice(s + 1, s + seqLength + 1));
  }
  return { tokens, targets };
}
