// The NumPy and PyTorch scripts of Export reproduce the page's numbers for every setting: scale on
// and off, temperatures, every mask kind (clicked cells with a fully hidden row, causal, padding),
// one to four heads, and the pitfalls panel's mistaken side. The page's numbers come from the
// page's own compute module (the WebAssembly core, float32); the scripts run in float64 under
// /usr/bin/python3 (NumPy always; PyTorch where it is installed). The bias matrix (with −∞ cells
// and a fully hidden row), projection biases and cross-attention are combined with all of these.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/lib/attention.js';
import { createComputer } from '../../web/ui/model/compute.js';
import { numpyCode, torchCode } from '../../web/ui/export/code-export.js';
import { makeEmbedder, makeFiller, presetById } from '../../web/ui/model/presets.js';
import { dims, maskOptions, MULTI_HEAD_PITFALLS, PITFALLS, reconcile } from '../../web/ui/model/state.js';
import { biasPresetMatrix } from '../../web/ui/model/extras-state.js';
import { hasPythonModule, PYTHON, runPythonScripts } from './support/python.mjs';

const NUMPY = hasPythonModule('numpy');
const TORCH = NUMPY && hasPythonModule('torch');

let attn;
before(async () => {
  attn = await createAttention();
});

const BASES = [
  ['hand', (s) => s],
  ['lesson', (s) => s],
  ['lesson', (s) => ({ ...s, heads: 2 })],
  ['lesson', (s) => ({ ...s, heads: 4 })],
  ['heads', (s) => s],
];
const SCALINGS = [
  { sqrtDk: true, temperature: 1 },
  { sqrtDk: true, temperature: 2 },
  { sqrtDk: false, temperature: 1 },
  { sqrtDk: false, temperature: 0.5 },
];

// A mask of each kind; the custom one hides every key of the first query and a few other cells.
function withMask(s, kind) {
  const d = dims(s);
  const custom = Array.from({ length: d.n * d.m }, (_, k) => (k < d.m || k % 5 === 3 ? 1 : 0));
  const pad = Array.from({ length: d.m }, (_, j) => j === d.m - 1 || j === 1);
  return { ...s, mask: { kind, custom, customRows: d.n, pad, padTokens: d.cross ? s.cross.tokens : s.tokens } };
}

// The bias matrix B: a preset, or 'row-inf' (random values, one row all −∞ and one more −∞ cell).
function withBiasMatrix(s, kind, fill) {
  if (!kind) return s;
  const d = dims(s);
  let B = biasPresetMatrix(kind === 'row-inf' ? 'random' : kind, d.n, d.m, (count) => fill('B', count));
  if (kind === 'row-inf') {
    const data = B.data.slice();
    for (let j = 0; j < d.m; j++) data[(d.n - 1) * d.m + j] = -Infinity;
    data[1] = -Infinity;
    B = { ...B, data };
  }
  return {
    ...s,
    biasMatrix: { on: true, preset: kind === 'row-inf' ? 'random' : kind },
    matrices: { ...s.matrices, B },
  };
}

// The bias matrix, projection biases and cross-attention, on and off, over one- and multi-head
// examples (and typed Q, K, V for B), cycling through masks, scalings and mistakes.
function extraCases() {
  const fill = makeFiller(attn, () => 42);
  const out = [];
  let k = 0;
  const bases = [
    ['hand', (s) => s],
    ['lesson', (s) => s],
    ['lesson', (s) => ({ ...s, heads: 2 })],
    ['lesson', (s) => ({ ...s, heads: 4 })],
  ];
  for (const [id, tweak] of bases) {
    const sentence = id !== 'hand';
    for (const bias of [null, 'alibi', 'causal-large', 'row-inf']) {
      for (const biases of sentence ? [false, true] : [false]) {
        for (const cross of sentence ? [false, true] : [false]) {
          const mask = ['none', 'causal', 'padding', 'custom'][k % 4];
          const scaling = SCALINGS[k % SCALINGS.length];
          let s = reconcile(
            { ...tweak(presetById(id).build(attn)), biases, cross: { on: cross } },
            fill,
            makeEmbedder(attn),
          );
          s = reconcile(withBiasMatrix(withMask({ ...s, scaling }, mask), bias, fill), fill, makeEmbedder(attn));
          const d = dims(s);
          const choices = [null, ...PITFALLS.filter((p) => d.multi || !MULTI_HEAD_PITFALLS.includes(p))];
          const pitfall = choices[k++ % choices.length];
          out.push({
            name: `${id} h=${d.heads} B=${bias} biases=${biases} cross=${cross} mask=${mask} T=${scaling.temperature} sqrt=${scaling.sqrtDk} pitfall=${pitfall}`,
            state: s,
            pitfall,
          });
        }
      }
    }
  }
  return out;
}

function cases() {
  const fill = makeFiller(attn, () => 42);
  const out = [];
  let k = 0;
  for (const [id, tweak] of BASES) {
    for (const scaling of SCALINGS) {
      for (const mask of ['none', 'causal', 'padding', 'custom']) {
        let s = reconcile(tweak(presetById(id).build(attn)), fill);
        s = reconcile(withMask({ ...s, scaling }, mask), fill);
        const d = dims(s);
        const choices = [null, ...PITFALLS.filter((p) => d.multi || !MULTI_HEAD_PITFALLS.includes(p))];
        const pitfall = choices[k++ % choices.length];
        out.push({
          name: `${id} h=${d.heads} sqrtDk=${scaling.sqrtDk} T=${scaling.temperature} mask=${mask} pitfall=${pitfall}`,
          state: s,
          pitfall,
        });
      }
    }
  }
  return out;
}

// What the page shows for a case: weights per head (or the single head's), average, output, and
// the pitfalls panel's mistaken side.
function pageNumbers(computer, { state, pitfall }) {
  const r = computer.compute(state);
  assert.equal(r.error, null);
  const flat = (ts) => ts.flatMap((t) => Array.from(t.data));
  const page = r.multi
    ? {
        weights: flat(r.multi.heads),
        average: Array.from(r.multi.average.data),
        output: Array.from(r.multi.output.data),
      }
    : { weights: Array.from(r.head.weights.data), output: Array.from(r.head.output.data) };
  if (pitfall) {
    const bad = computer.variant({ ...maskOptions(state), pitfall });
    page[r.multi ? 'mistake_average' : 'mistake_weights'] = Array.from(bad.weights.data);
    page.mistake_output = Array.from(bad.output.data);
  }
  return page;
}

// Runs each case's script and lists where it disagrees with the page; `edit(code)` may change
// the script first (to check that a script missing a term fails).
function disagreements(lib, makeCode, all, edit = (code) => code) {
  const computer = createComputer(attn);
  const expected = all.map((c) => pageNumbers(computer, c));
  computer.dispose();
  const jobs = all.map((c, i) => ({
    name: c.name,
    code: edit(makeCode(c.state, { pitfall: c.pitfall })),
    names: Object.keys(expected[i]),
  }));
  const got = runPythonScripts(jobs);
  const failures = [];
  all.forEach((c, i) => {
    if (got[i].error) return failures.push(`${c.name}: ${got[i].error}`);
    assert.match(got[i].printed, /weights =/, `${c.name}: the script prints its weights`);
    for (const [key, want] of Object.entries(expected[i])) {
      const have = [got[i][key]].flat(Infinity);
      const atol = key.endsWith('output') ? 5e-5 : 5e-6;
      const bad = want.findIndex((w, j) => !(Math.abs(have[j] - w) <= atol + 1e-5 * Math.abs(w)));
      if (have.length !== want.length)
        failures.push(`${c.name} ${key}: ${have.length} values, expected ${want.length}`);
      else if (bad >= 0) failures.push(`${c.name} ${key}[${bad}]: ${lib} ${have[bad]}, page ${want[bad]}`);
    }
  });
  return failures;
}

function check(lib, makeCode, all = cases()) {
  const failures = disagreements(lib, makeCode, all);
  assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${all.length} ${lib} scripts disagree`);
  return all.length;
}

describe('exported code reproduces the page', () => {
  test('NumPy, every setting', { skip: !NUMPY && `${PYTHON} has no numpy` }, () => {
    assert.equal(check('numpy', numpyCode), 80);
  });

  test('PyTorch, every setting', { skip: !TORCH && `${PYTHON} has no torch` }, () => {
    assert.equal(check('pytorch', torchCode), 80);
  });

  test(
    'NumPy, with the bias matrix, projection biases and cross-attention',
    { skip: !NUMPY && `${PYTHON} has no numpy` },
    () => {
      assert.equal(check('numpy', numpyCode, extraCases()), 52);
    },
  );

  test(
    'PyTorch, with the bias matrix, projection biases and cross-attention',
    { skip: !TORCH && `${PYTHON} has no torch` },
    () => {
      assert.equal(check('pytorch', torchCode, extraCases()), 52);
    },
  );

  // The comparison is strict enough to notice a script that leaves out one of the new terms.
  test(
    'a script without the biases, the bias matrix or the memory disagrees with the page',
    { skip: !TORCH && `${PYTHON} has no torch` },
    () => {
      const all = extraCases();
      const pick = (re) => all.filter((c) => re.test(c.name));
      const dropBiases = (code) =>
        code
          .replace(/ \+ b_[QKVO]\b/g, '')
          .replace(/^.*'(in_proj_bias|out_proj\.bias)'.*$/gm, '')
          .replace('bias=True', 'bias=False')
          .replace(/^output\[weights.*$/m, '');
      const dropB = (code) =>
        code
          .replace(/ \+ B\b/g, '')
          .replace('attn_mask = B.masked_fill', 'attn_mask = torch.zeros_like(B).masked_fill');
      const dropMemory = (code) =>
        code.replace(/X_mem @/g, 'X[:X_mem.shape[0]] @').replace('memory_x, memory_x', 'x, x');
      for (const [lib, make] of [
        ['numpy', numpyCode],
        ['pytorch', torchCode],
      ]) {
        for (const [edit, re] of [
          [dropBiases, /biases=true/],
          [dropB, /B=(alibi|row-inf)/],
          [dropMemory, /cross=true/],
        ]) {
          const chosen = pick(re);
          assert.ok(chosen.length > 0);
          assert.deepEqual(disagreements(lib, make, chosen), [], `${lib}: the unedited scripts agree`);
          const failures = disagreements(lib, make, chosen, edit);
          const caught = chosen.filter((c) =>
            failures.some((f) => f.startsWith(`${c.name} `) || f.startsWith(`${c.name}:`)),
          );
          assert.equal(
            caught.length,
            chosen.length,
            `${lib} ${re}: only ${caught.length} of ${chosen.length} edited scripts disagree`,
          );
        }
      }
    },
  );

  test('several heads are a reshape in NumPy, not a loop over heads', () => {
    const s = reconcile(
      { ...presetById('lesson').build(attn), heads: 2 },
      makeFiller(attn, () => 42),
    );
    const code = numpyCode(s);
    assert.match(code, /reshape\(M\.shape\[0\], h, d_k\)/);
    assert.doesNotMatch(code, /for i in range\(h\):\n {4}cols/);
    assert.doesNotMatch(code.split('np.set_printoptions')[0], /\bfor\b/);
  });

  test('a mistake the example cannot make is refused with a message', () => {
    const s = reconcile(
      presetById('hand').build(attn),
      makeFiller(attn, () => 42),
    );
    assert.throws(() => numpyCode(s, { pitfall: 'skip-wo' }), /needs several heads/);
    assert.throws(() => torchCode(s, { pitfall: 'nonsense' }), /unknown mistake/);
  });
});
