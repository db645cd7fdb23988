// A module worker that runs attn.lessons.sampleDotProducts off the page's main thread: at
// d_k = 1024 and N = 10 000 it draws 2·10⁷ normal numbers (about a second), which would freeze the
// d_k slider. It has its own instance of the core and answers each request with the summaries and
// the first `keep` raw dot products (the "one row of scores" the panel passes through a softmax).
import { createAttention } from '../../lib/attention.js';

const ready = createAttention({ simd: 'auto' });

const summary = (s) => ({ mean: s.mean, std: s.std, histogram: s.histogram });

self.onmessage = async (event) => {
  const { id, dk, count, seed, bins, keep } = event.data;
  try {
    const attn = await ready;
    const r = attn.lessons.sampleDotProducts({ dk, count, seed, bins });
    self.postMessage({
      id,
      ok: true,
      dk: r.dk,
      count: r.count,
      seed: r.seed,
      raw: summary(r.raw),
      scaled: summary(r.scaled),
      row: Array.from(r.raw.values.subarray(0, keep)),
    });
  } catch (err) {
    self.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
