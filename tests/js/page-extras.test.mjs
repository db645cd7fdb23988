// The page's bias matrix B, projection biases and cross-attention (web/ui/model/compute.js with
// extras-state.js): the numbers the page shows against a float64 recomputation written in the
// test, a row of −∞ handled as the core does (weights 0, no NaN), the explanation of a masked
// score naming its bias term, the parameter count with biases, and links that carry it all.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { createComputer } from '../../web/ui/model/compute.js';
import { loadExplainers } from '../../web/ui/explain/explain.js';
import { agreement } from '../../web/ui/model/float64-check.js';
import { agreementText, widestText } from '../../web/ui/agreement-check.js';
import { parseBias } from '../../web/ui/bias-matrix.js';
import { biasPresetMatrix, setBiasMatrix } from '../../web/ui/model/extras-state.js';
import { makeEmbedder, makeFiller, presetById } from '../../web/ui/model/presets.js';
import { dims, reconcile, setCell } from '../../web/ui/model/state.js';
import { decodeState, encodeState } from '../../web/ui/model/url-state.js';
import { referenceAttention } from './support/attention-f64.mjs';

// The page loads the explanations after its first drawing (with their English text); here, at once.
const { explain } = await loadExplainers();

let attn;
let computer;
before(async () => {
  attn = await createAttention();
  computer = createComputer(attn);
});

const build = (patch, base = 'lesson') => {
  const fill = makeFiller(attn, () => 42);
  return reconcile({ ...presetById(base).build(attn), ...patch }, fill, makeEmbedder(attn));
};

// Largest |page − reference| over finite entries; −∞ must match −∞ exactly and nothing is NaN.
function compare(page, ref, what) {
  assert.equal(page.length, ref.length, `${what}: length`);
  let worst = 0;
  for (let k = 0; k < ref.length; k++) {
    assert.ok(!Number.isNaN(page[k]), `${what}[${k}] is NaN`);
    if (ref[k] === -Infinity) assert.equal(page[k], -Infinity, `${what}[${k}]`);
    else worst = Math.max(worst, Math.abs(page[k] - ref[k]) / Math.max(1, Math.abs(ref[k])));
  }
  assert.ok(worst < 2e-5, `${what}: largest relative difference ${worst}`);
}

function checkAgainstReference(s) {
  const r = computer.compute(s);
  assert.equal(r.error, null);
  const ref = referenceAttention(s);
  const heads = r.multi ? r.multi.heads : [r.head.weights];
  heads.forEach((w, h) => compare(Array.from(w.data), Array.from(ref.weights[h]), `weights of head ${h + 1}`));
  compare(Array.from(r.head.masked.data), Array.from(ref.masked[s.view.head]), 'masked scores');
  compare(Array.from((r.multi ? r.multi.output : r.head.output).data), Array.from(ref.output), 'output');
  return r;
}

describe('bias matrix, projection biases and cross-attention on the page', () => {
  for (const heads of [1, 2, 4]) {
    for (const preset of ['alibi', 'random', 'causal-inf']) {
      test(`h = ${heads}, B = ${preset}, biases and cross-attention on and off`, () => {
        for (const biases of [false, true]) {
          for (const on of [false, true]) {
            for (const kind of ['none', 'causal', 'padding', 'custom']) {
              let s = build({ heads, biases, cross: { on }, biasMatrix: { on: true, preset } });
              const { n, m } = dims(s);
              assert.equal(m, on ? 7 : s.tokens.length);
              // Padding hides key 2; the custom mask hides the first query's every key and a cell.
              const custom = Array.from({ length: n * m }, (_, t) => (t < m || t === m + 2 ? 1 : 0));
              s = reconcile({
                ...s,
                mask: { ...s.mask, kind, custom, pad: Array.from({ length: m }, (_, j) => j === 1) },
              });
              checkAgainstReference(s);
            }
          }
        }
      });
    }
  }

  test('the page\'s "two implementations agree" line includes B, the biases and the memory', () => {
    for (const heads of [1, 2]) {
      let s = build({ heads, biases: true, cross: { on: true }, biasMatrix: { on: true, preset: 'random' } });
      s = reconcile(setCell(setCell(s, 'BV', 0, 0, 3), 'B', 0, 0, -Infinity));
      const a = agreement(s, computer.compute(s));
      assert.ok(a.worst < a.bound, `h = ${heads}: ${a.worst} ≥ ${a.bound}`);
      // Without b_V in the recomputation the output would differ by about 3: the check sees it.
      const withoutB = reconcile({
        ...s,
        matrices: { ...s.matrices, BV: { ...s.matrices.BV, data: s.matrices.BV.data.map(() => 0) } },
      });
      assert.ok(agreement(s, computer.compute(withoutB)).output.abs > 1);
    }
  });

  test('the "two implementations agree" line keeps room for any of its texts at these sizes', () => {
    let s = build({ heads: 2, biases: true });
    const a = agreement(s, computer.compute(s));
    const widest = widestText(a);
    // The check as it is, each of its three endings, tiny and huge differences, large scores.
    const variants = [
      a,
      { ...a, worst: 1, bound: 0 },
      { ...a, worst: 0, bound: 1 },
      { ...a, worst: 1, bound: 2, scores: 12345.6 },
      { ...a, weights: { abs: 1.5e-300 }, output: { abs: 2.5e-300, rel: 1e-301 } },
      { ...a, weights: { abs: 0 }, output: { abs: 0, rel: 0 } },
    ];
    for (const v of variants) assert.ok(agreementText(v).length <= widest.length, agreementText(v));
    s = build({ heads: 1 });
    assert.notEqual(widestText(agreement(s, computer.compute(s))), widest, 'the counts follow the sizes');
  });

  test('lessons: a prefix keeps its entries of B, a reordering of every token keeps B on the positions', () => {
    const s = build({ biasMatrix: { on: true, preset: 'alibi' } }, 'hand');
    computer.compute(s);
    const { n, m } = dims(s);
    const rows = (M, order) => ({ ...M, data: order.flatMap((r) => M.data.slice(r * M.cols, (r + 1) * M.cols)) });
    const rev = Array.from({ length: n }, (_, i) => n - 1 - i);
    const revK = Array.from({ length: m }, (_, j) => m - 1 - j);
    const moved = computer.variant({ queries: rev, keys: revK });
    const swapped = {
      ...s,
      matrices: { ...s.matrices, Q: rows(s.matrices.Q, rev), K: rows(s.matrices.K, revK), V: rows(s.matrices.V, revK) },
    };
    compare(Array.from(moved.weights.data), Array.from(referenceAttention(swapped).weights[0]), 'reordered weights');
    const prefix = computer.variant({ queries: [2], keys: [0, 1, 2] });
    const cut = {
      ...s,
      n: 1,
      m: 3,
      matrices: {
        ...s.matrices,
        Q: rows(s.matrices.Q, [2]),
        K: rows(s.matrices.K, [0, 1, 2]),
        V: rows(s.matrices.V, [0, 1, 2]),
        B: { rows: 1, cols: 3, data: s.matrices.B.data.slice(2 * m, 2 * m + 3) },
      },
    };
    compare(Array.from(prefix.weights.data), Array.from(referenceAttention(cut).weights[0]), 'prefix weights');
  });

  test('typed Q, K, V with B: the bias is added to each scaled score', () => {
    const s = build({ biasMatrix: { on: true, preset: 'random' }, mask: { kind: 'causal' } }, 'hand');
    const r = checkAgainstReference(s);
    const { i, j } = { i: 2, j: 1 };
    const m = dims(s).m;
    assert.ok(
      Math.abs(r.head.masked.data[i * m + j] - (r.head.scaled.data[i * m + j] + s.matrices.B.data[i * m + j])) < 1e-5,
    );
  });

  test('a row of B that is all −∞ gets weights 0 and output 0 (or b_O), never NaN', () => {
    for (const heads of [1, 2]) {
      let s = build({ heads, biases: true, biasMatrix: { on: true, preset: 'alibi' } });
      const m = dims(s).m;
      for (let j = 0; j < m; j++) s = setCell(s, 'B', 1, j, -Infinity);
      s = reconcile(s);
      const r = checkAgainstReference(s);
      assert.deepEqual([...r.fullyMasked], [1]);
      assert.ok(Array.from(r.head.weights.data.subarray(m, 2 * m)).every((w) => w === 0));
      const out = r.multi ? r.multi.output : r.head.output;
      const E = out.shape[1];
      const want = r.multi ? s.matrices.BO.data : new Array(E).fill(0);
      for (let c = 0; c < E; c++) assert.ok(Math.abs(out.data[E + c] - want[c]) < 1e-6, `output[1, ${c}]`);
      const text = explain({ kind: 'weights', i: 1, j: 0 }, s, r)
        .lines.map((l) => l.text)
        .join('\n');
      assert.match(text, /B\[2,1\] = \u2212\u221e/);
      assert.match(text, /not NaN|NaN/);
    }
  });

  test('the explanation of a masked score writes score + bias = masked score with the numbers', () => {
    const s = build({ heads: 2, biasMatrix: { on: true, preset: 'alibi' } });
    const r = computer.compute(s);
    const m = dims(s).m;
    const e = explain({ kind: 'masked', i: 3, j: 0 }, s, r);
    const text = e.lines.map((l) => l.text).join('\n');
    assert.match(text, /score \+ bias = masked score/);
    assert.match(text, /\+ B\[4,1\] = .* \+ \(\u22121\.5\)/);
    assert.ok(text.includes(String(Number(r.head.masked.data[3 * m].toPrecision(4))).replace('-', '−')), text);
    const proj = explain(
      { kind: 'proj', name: 'K', i: 0, j: 0 },
      build({ heads: 2, biases: true, cross: { on: true } }),
      computer.compute(build({ heads: 2, biases: true, cross: { on: true } })),
    );
    assert.match(proj.title, /K = X_mem\u00b7W_K \+ b_K: token \u201cle\u201d/);
  });

  test('the layer is built with biases, and the parameter count says so', () => {
    const E = 8;
    const on = computer.compute(build({ heads: 2, biases: true }));
    assert.equal(on.multi.parameterCount, 4 * E * E + 4 * E);
    assert.equal(on.multi.biases, true);
    const off = computer.compute(build({ heads: 2 }));
    assert.equal(off.multi.parameterCount, 4 * E * E);
    assert.equal(off.multi.parameterCountWeights, 4 * E * E);
  });

  test('a preset fills B; a new shape follows the preset', () => {
    let s = build({ biasMatrix: { on: true, preset: 'alibi' } });
    assert.deepEqual(s.matrices.B.data.slice(0, 3), [0, -0.5, -1]);
    s = reconcile(setBiasMatrix(s, { preset: 'causal-large' }));
    assert.deepEqual(s.matrices.B.data.slice(0, 2), [0, -10000]);
    assert.deepEqual(biasPresetMatrix('causal-inf', 2, 2).data, [0, -Infinity, 0, 0]);
  });

  test('a link carries B (with −∞), the biases and the memory sentence exactly', async () => {
    let s = build({
      heads: 2,
      biases: true,
      cross: { on: true, sentence: 'un deux trois' },
      biasMatrix: { on: true, preset: 'random' },
    });
    s = reconcile(setCell(setCell(s, 'B', 0, 1, -Infinity), 'BQ', 0, 3, 0.125));
    const text = await encodeState(s);
    const r = await decodeState(text);
    assert.equal(r.ok, true, r.error);
    const back = reconcile(
      r.state,
      makeFiller(attn, () => 0),
      makeEmbedder(attn),
    );
    assert.equal(back.matrices.B.data[1], -Infinity);
    assert.deepEqual(back.matrices.B, s.matrices.B);
    for (const name of ['BQ', 'BK', 'BV', 'BO', 'XM', 'X'])
      assert.deepEqual(back.matrices[name], s.matrices[name], name);
    assert.deepEqual(back.cross.tokens, ['un', 'deux', 'trois']);
    assert.equal(back.biases, true);
    assert.deepEqual(back.biasMatrix, { on: true, preset: 'random' });
  });

  test('a link may hold "-inf" only in B', async () => {
    const s = build({ biasMatrix: { on: true, preset: 'zeros' } });
    const text = await encodeState(reconcile(setCell(s, 'B', 0, 0, -Infinity)));
    assert.equal((await decodeState(text)).ok, true);
    const { validateState } = await import('../../web/ui/model/url-state.js');
    assert.throws(
      () => validateState({ matrices: { X: { rows: 1, cols: 1, data: ['-inf'] } } }),
      /X\[1,1\] must be a number/,
    );
    assert.throws(
      () => validateState({ matrices: { X: { rows: 1, cols: 1, data: [-Infinity] } } }),
      /X\[1,1\] must be a number/,
    );
    // A state object (the element's state, a handle's getState()) holds −∞ as a number.
    assert.deepEqual(validateState({ matrices: { B: { rows: 1, cols: 2, data: [-Infinity, 1] } } }).matrices.B.data, [
      -Infinity,
      1,
    ]);
    assert.throws(() => validateState({ biasMatrix: { on: 'yes' } }), /biasMatrix\.on must be true or false/);
    assert.throws(() => validateState({ cross: { tokens: [] } }), /cross\.tokens must not be empty/);
  });
});

describe('what a bias cell reads', () => {
  test('-inf in its spellings is -Infinity, numbers are numbers, anything else is NaN (invalid)', () => {
    for (const t of ['-inf', '−∞', ' -Infinity ', '‑inf']) assert.equal(parseBias(t), -Infinity, t);
    assert.equal(parseBias('1.5'), 1.5);
    assert.equal(parseBias('−2,5'), -2.5);
    for (const t of ['abc', 'inf', '+inf', '1e999', '', '<b>1</b>']) assert.ok(Number.isNaN(parseBias(t)), t);
  });
});
