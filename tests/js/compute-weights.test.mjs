// The page's computer (web/ui/model/compute.js) gives the multi-head layer its weights only when they
// changed: an edit of X reuses the weights already in the layer (copying four d_model × d_model
// matrices per keystroke was wasted work), an edit of a weight or a bias sends them again, and
// every result equals a fresh computer's for the same state.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createComputer } from '../../web/ui/model/compute.js';
import { presetById } from '../../web/ui/model/presets.js';
import { reconcile, setCell } from '../../web/ui/model/state.js';
import { pageState } from './support/page-state.mjs';

let attn;
let fill;
let embed;
before(async () => {
  ({ attn, fill, embed } = await pageState());
});

// `object` with its methods bound to it (its private fields need the real `this`), and
// `replace`'s functions in place of some of them.
const wrap = (object, replace) =>
  new Proxy(object, {
    get(target, key) {
      if (key in replace) return replace[key];
      const value = target[key];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

// The API with every layer's setWeights counted (the objects are sealed: wrapped, not patched).
function counting(api) {
  const counter = { calls: 0 };
  const spy = wrap(api, {
    multiHeadAttention: (config) => {
      const layer = api.multiHeadAttention(config);
      return wrap(layer, {
        setWeights: (weights) => {
          counter.calls += 1;
          return layer.setWeights(weights);
        },
      });
    },
  });
  return { spy, counter };
}

const outputOf = (result) => Array.from(result.multi.output.data);

test("an edit of X reuses the layer's weights; an edit of W or a bias sends them again", () => {
  const { spy, counter } = counting(attn);
  const computer = createComputer(spy);
  const fresh = (s) => {
    const other = createComputer(attn);
    const out = outputOf(other.compute(s));
    other.dispose();
    return out;
  };
  const s0 = reconcile({ ...presetById('heads').build(attn), biases: true }, fill, embed);
  assert.ok(s0.heads > 1, 'a multi-head example');
  assert.deepEqual(outputOf(computer.compute(s0)), fresh(s0));
  assert.equal(counter.calls, 1);

  const s1 = setCell(s0, 'X', 0, 0, 1.5);
  assert.deepEqual(outputOf(computer.compute(s1)), fresh(s1));
  assert.equal(counter.calls, 1, 'X changed, the weights did not');

  const s2 = setCell(s1, 'WQ', 0, 1, -0.75);
  assert.deepEqual(outputOf(computer.compute(s2)), fresh(s2));
  assert.equal(counter.calls, 2, 'W_Q changed');

  if (s2.matrices.BO) {
    const s3 = setCell(s2, 'BO', 0, 0, 0.5);
    assert.deepEqual(outputOf(computer.compute(s3)), fresh(s3));
    assert.equal(counter.calls, 3, 'b_O changed');
  }
  computer.dispose();
});
