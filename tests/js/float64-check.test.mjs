// The page's "two implementations agree" line: its plain float64 JavaScript recomputation is right
// (checked by hand on the small example), and on every preset and setting it agrees with the
// core's float32 numbers to < 1e-6 (more only when the scores are large, as float32 allows).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { createComputer } from '../../web/ui/model/compute.js';
import { agreement, recompute } from '../../web/ui/model/float64-check.js';
import { makeEmbedder, makeFiller, PRESETS, presetById } from '../../web/ui/model/presets.js';
import { reconcile, setCell } from '../../web/ui/model/state.js';

let attn;
let fill;
before(async () => {
  attn = await createAttention();
  fill = makeFiller(attn, () => 42);
});

test('by hand: q = (1, 0), keys (1, 0), (0, 1), (1, 1), scale 1/√2, causal', () => {
  const s = reconcile({ ...presetById('hand').build(attn), mask: { kind: 'causal' } }, fill);
  const { weights, output } = recompute(s);
  assert.deepEqual(Array.from(weights[0].slice(0, 3)), [1, 0, 0]);
  const e = Math.exp(1 / Math.sqrt(2)); // query 3 = (1, 1): scores 1, 1, 2 over √2
  const row = [e, e, e * e].map((x) => x / (2 * e + e * e));
  weights[0].slice(6, 9).forEach((w, j) => assert.ok(Math.abs(w - row[j]) < 1e-15));
  // V = (1, 0), (0, 1), (0.5, 0.5): output 3 = row · V.
  assert.ok(Math.abs(output[4] - (row[0] + 0.5 * row[2])) < 1e-15);
});

test('every preset, masks, scales and heads: the core agrees with the float64 recomputation to < 1e-6', () => {
  const computer = createComputer(attn);
  const embed = makeEmbedder(attn);
  let checked = 0;
  for (const p of PRESETS) {
    for (const mask of ['none', 'causal', 'padding']) {
      for (const scaling of [
        { sqrtDk: true, temperature: 1 },
        { sqrtDk: false, temperature: 0.5 },
      ]) {
        const s = reconcile({ ...p.build(attn), scaling, mask: { kind: mask, pad: [false, true] } }, fill, embed);
        const a = agreement(s, computer.compute(s));
        // The lessons' 1e-6 at the default scale; float32's share of large scores otherwise.
        assert.ok(a.worst < (scaling.sqrtDk ? 1e-6 : a.bound), `${p.id} ${mask}: ${JSON.stringify(a)}`);
        assert.ok(a.bound < 1e-4);
        checked++;
      }
    }
  }
  assert.equal(checked, PRESETS.length * 6);
  computer.dispose();
});

test('a wrong page number is caught', () => {
  const computer = createComputer(attn);
  const s = reconcile(presetById('lesson').build(attn), fill);
  const r = computer.compute(s);
  const changed = reconcile(setCell(s, 'X', 0, 0, 3), fill);
  assert.ok(agreement(changed, r).weights.abs > 1e-3);
  assert.ok(agreement(changed, r).worst > 1e-3);
  computer.dispose();
});
