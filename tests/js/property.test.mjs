// Differential tests: random attention problems (shapes of 1, around and across the SIMD width and
// the streaming tiles; batches; random, causal, padding and fully masked rows; additive -Infinity;
// scales from 1e-4 to 1e4; values from subnormal to 1e4, so scores reach ±1e4 and beyond) run
// through both WebAssembly builds and are compared with an independent float64 implementation
// (support/float64-reference.mjs).
//
// Tolerance: per element, 4 × a first-order float32 error bound computed with the reference + 2⁻¹²⁶
// (see support/float64-reference.mjs and support/compare.mjs). On top of that, exact checks: hidden
// keys get weight exactly 0, fully masked rows are all-zero and listed, no NaN anywhere, and every
// weight row sums to 1 within (m + 8)·4·2⁻²⁴ however badly conditioned the scores are.
//
// Runs: `npm test` draws a few thousand cases. ATTN_PROPERTY_RUNS=N runs N cases of each of the
// three properties on each build (6·N in all; `npm run test:long` uses N = 17000, over 10⁵).
// ATTN_PROPERTY_SEED=s replays a run. A failing case is printed as JSON: add it to
// regressions/property-cases.json, where it runs on every `npm test` from then on (with a
// "knownBug" field, and optionally "knownBugBuilds": ["SIMD"], it runs as a `todo` test there until
// the bug is fixed).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';

import { createAttention } from '../../web/lib/attention.js';
import { referenceAttention, referenceMultiHead, U } from './support/float64-reference.mjs';
import { mismatch, sameList } from './support/compare.mjs';
import { hugeScoreCase, materializeMha, materializeSdpa, mhaCase, sdpaCase } from './support/attention-cases.mjs';

const LONG_RUNS = Number(process.env.ATTN_PROPERTY_RUNS) || 0;
const RUNS = { sdpa: LONG_RUNS || 1000, huge: LONG_RUNS || 250, mha: LONG_RUNS || 500 };
// `npm test` replays the same cases every time (a CI failure is reproducible and never flaky);
// long runs draw a fresh seed each time and print it with any failure.
const SEED =
  process.env.ATTN_PROPERTY_SEED !== undefined
    ? Number(process.env.ATTN_PROPERTY_SEED)
    : LONG_RUNS
      ? undefined
      : 20261129;
const REGRESSIONS = JSON.parse(readFileSync(new URL('./regressions/property-cases.json', import.meta.url), 'utf8'));

const indices = (flags) => Array.from(flags).flatMap((f, i) => (f ? [i] : []));

function expectShape(tensor, shape, what) {
  assert.ok(tensor && tensor.data instanceof Float32Array, `${what}: expected a Float32Array tensor`);
  assert.deepEqual(tensor.shape, shape, `${what}: shape`);
}

function expectClose(actual, expected, bound, shape, what) {
  expectShape(actual, shape, what);
  const problem = mismatch(actual.data, expected, bound, shape, what);
  if (problem) assert.fail(problem);
}

// Rows of `weights` (rows × m) sum to 1 (or are all 0 when fully masked); hidden keys exactly 0.
function expectSoftmaxRows(weights, masked, fullyMasked, m, what) {
  const tol = 4 * (m + 8) * U;
  for (let row = 0; row < fullyMasked.length; row++) {
    let sum = 0;
    for (let j = 0; j < m; j++) {
      const w = weights[row * m + j];
      if (masked && masked[row * m + j] === -Infinity && w !== 0)
        assert.fail(`${what}: row ${row}, key ${j} is hidden but has weight ${w}`);
      if (!(w >= 0 && w <= 1)) assert.fail(`${what}: row ${row}, key ${j} has weight ${w}`);
      sum += w;
    }
    const want = fullyMasked[row] ? 0 : 1;
    if (!(Math.abs(sum - want) <= tol)) assert.fail(`${what}: row ${row} sums to ${sum}, expected ${want}`);
  }
}

export function checkSdpa(attn, c) {
  const { t, inputs, options } = materializeSdpa(c);
  const ref = referenceAttention({ ...t, scale: Math.fround(t.scale) });
  const r = attn.scaledDotProductAttention(...inputs, options);
  const { lead, n, m, dv } = t;
  expectClose(r.output, ref.output, ref.eOutput, [...lead, n, dv], 'output');
  assert.equal(sameList(r.fullyMaskedRows, indices(ref.fullyMasked), 'fullyMaskedRows'), null);
  if (c.needWeights) {
    expectClose(r.weights, ref.weights, ref.eWeights, [...lead, n, m], 'weights');
    expectSoftmaxRows(r.weights.data, ref.masked, ref.fullyMasked, m, 'weights');
  } else {
    assert.equal(r.weights, null, 'weights with needWeights: false');
  }
  if (c.trace) {
    expectClose(r.trace.scores, ref.scores, ref.eScores, [...lead, n, m], 'trace.scores');
    expectClose(r.trace.scaled, ref.scaled, ref.eScaled, [...lead, n, m], 'trace.scaled');
    expectClose(r.trace.masked, ref.masked, ref.eMasked, [...lead, n, m], 'trace.masked');
  } else {
    assert.equal(r.trace, undefined, 'trace without trace: true');
  }
  return true;
}

export function checkMha(attn, c) {
  const { t, config, weights, args, options } = materializeMha(c);
  const layer = attn.multiHeadAttention(config);
  try {
    if (weights) layer.setWeights(weights);
    const w = Object.fromEntries(Object.entries(layer.getWeights()).map(([name, x]) => [name, x.data]));
    const ref = referenceMultiHead({ ...t, weights: w });
    const r =
      args.length === 1 ? layer.forward(args[0], undefined, undefined, options) : layer.forward(...args, options);
    const { lead, B, n, m, E, H, kdim, vdim } = t;
    assert.equal(layer.parameterCount(), 2 * E * E + kdim * E + vdim * E + (c.bias ? 4 * E : 0), 'parameterCount');
    expectClose(r.output, ref.output, ref.eOutput, [...lead, n, E], 'output');
    assert.equal(sameList(r.fullyMaskedRows, indices(ref.fullyMasked), 'fullyMaskedRows'), null);
    if (!c.needWeights) {
      assert.equal(r.weights, null, 'weights with needWeights: false');
    } else if (c.averageWeights) {
      expectClose(r.weights, ref.averaged, ref.eAveraged, [...lead, n, m], 'averaged weights');
      expectSoftmaxRows(r.weights.data, null, ref.fullyMasked, m, 'averaged weights');
    } else {
      expectClose(r.weights, ref.headWeights, ref.eHeadWeights, [...lead, H, n, m], 'per-head weights');
    }
    if (c.trace) {
      expectClose(r.trace.q, ref.q, ref.eQ, [...lead, n, E], 'trace.q');
      expectClose(r.trace.k, ref.k, ref.eK, [...lead, m, E], 'trace.k');
      expectClose(r.trace.v, ref.v, ref.eV, [...lead, m, E], 'trace.v');
      expectClose(r.trace.weights, ref.headWeights, ref.eHeadWeights, [...lead, H, n, m], 'trace.weights');
      expectClose(r.trace.concat, ref.concat, ref.eConcat, [...lead, n, E], 'trace.concat');
    }
    assert.equal(B * n, ref.fullyMasked.length);
  } finally {
    layer.dispose();
  }
  return true;
}

const CHECKS = { sdpa: checkSdpa, huge: checkSdpa, mha: checkMha };
const ARBITRARIES = { sdpa: sdpaCase, huge: hugeScoreCase, mha: mhaCase };

function runProperty(attn, name, build) {
  const details = fc.check(
    fc.property(ARBITRARIES[name], (c) => CHECKS[name](attn, c)),
    {
      numRuns: RUNS[name],
      seed: SEED,
    },
  );
  if (!details.failed) return;
  const [counterexample] = details.counterexample ?? [];
  assert.fail(
    `property "${name}" failed on the ${build} build after ${details.numRuns} runs ` +
      `(seed ${details.seed}, path "${details.counterexamplePath}"):\n` +
      `${details.errorInstance?.message ?? details.error}\n` +
      `Add this entry to tests/js/regressions/property-cases.json:\n` +
      JSON.stringify({ property: name === 'huge' ? 'sdpa' : name, note: '…', case: counterexample }),
  );
}

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';
  describe(`${build} build vs the float64 reference`, () => {
    let attn;
    before(async () => {
      attn = await createAttention({ simd });
    });

    const open = (r) => r.knownBug && (!r.knownBugBuilds || r.knownBugBuilds.includes(build));
    const fixed = REGRESSIONS.filter((r) => !open(r));
    test(`regression cases (${fixed.length})`, () => {
      for (const { property, note, case: c } of fixed) {
        try {
          CHECKS[property](attn, c);
        } catch (err) {
          assert.fail(`regression case (${property}: ${note}) fails: ${err.message}`);
        }
      }
    });
    // Cases of bugs reported but not fixed yet: they run as `todo` until the fix lands; then drop
    // their knownBug field.
    for (const { property, note, knownBug, case: c } of REGRESSIONS.filter(open)) {
      test(`known bug: ${note}`, { todo: knownBug }, () => {
        CHECKS[property](attn, c);
      });
    }

    test(`scaled dot-product attention, ${RUNS.sdpa} random cases`, () => runProperty(attn, 'sdpa', build));
    test(`scores of ±1e4 and beyond, ${RUNS.huge} random cases`, () => runProperty(attn, 'huge', build));
    test(`multi-head attention, ${RUNS.mha} random cases`, () => runProperty(attn, 'mha', build));
  });
}
