// What the page's state functions take besides the state: the attention module, the seeded
// filler of random matrices (seed 42) and the word embedder, made as the page makes them.
import { createAttention } from '../../../web/lib/attention.js';
import { makeEmbedder, makeFiller } from '../../../web/ui/model/presets.js';

/** Resolves to { attn, fill, embed }. */
export async function pageState() {
  const attn = await createAttention();
  return { attn, fill: makeFiller(attn, () => 42), embed: makeEmbedder(attn) };
}
