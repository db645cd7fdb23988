// The typing warm-up (web/ui/warm-up.js): after the first drawing of each kind and size of page,
// an edit is drawn and then the real state again, in that order, once per kind; the edit changes
// one number, widening its matrix's colour range.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { presetById } from '../../web/ui/model/presets.js';
import { activeMatrices, reconcile } from '../../web/ui/model/state.js';
import { createWarmUp, kindOf, nudged } from '../../web/ui/warm-up.js';
import { pageState } from './support/page-state.mjs';

let attn;
let fill;
let embed;
before(async () => {
  ({ attn, fill, embed } = await pageState());
});

const stateOf = (id, extra = {}) => reconcile({ ...presetById(id).build(attn), ...extra }, fill, embed);
const largest = (data) => Math.max(...Array.from(data, Math.abs));

test('the edit changes one number of the first editable matrix, past its largest', () => {
  for (const id of ['lesson', 'hand', 'heads']) {
    const s = stateOf(id);
    const [name] = activeMatrices(s)[0];
    const edited = nudged(s);
    const before = s.matrices[name].data;
    const after = edited.matrices[name].data;
    const changed = Array.from(after.keys()).filter((k) => after[k] !== before[k]);
    assert.deepEqual(changed, [0], `${id}: only ${name}[0, 0] changes`);
    assert.ok(largest(after) > largest(before), `${id}: the colour range widens`);
    for (const other of Object.keys(s.matrices)) {
      if (other !== name) assert.equal(edited.matrices[other], s.matrices[other], `${id}: ${other} is the same object`);
    }
    assert.notEqual(s.matrices[name].data[0], after[0], `${id}: the state given is not changed`);
  }
});

test('pages of another kind or size are another kind; the same page is the same', () => {
  const heads = stateOf('heads');
  assert.equal(kindOf(heads), kindOf(stateOf('heads')));
  assert.notEqual(kindOf(heads), kindOf(stateOf('hand')));
  assert.notEqual(kindOf(heads), kindOf(reconcile({ ...heads, dModel: heads.dModel * 2 }, fill, embed)));
  assert.notEqual(kindOf(heads), kindOf(reconcile({ ...heads, biases: !heads.biases }, fill, embed)));
});

test('the edit is drawn, then the state itself, once per kind of page', () => {
  const drawn = [];
  const warm = createWarmUp(
    (s) => drawn.push(s),
    (s) => ({ ...s, reconciled: true }),
  );
  const a = stateOf('heads');
  warm(a);
  assert.equal(drawn.length, 2);
  assert.equal(drawn[0].reconciled, true, 'the edit as the store would make it');
  assert.notEqual(drawn[0].matrices, a.matrices);
  assert.equal(drawn[1], a, 'the real state drawn last');
  warm({ ...a });
  assert.equal(drawn.length, 2, 'a page of a kind already drawn is not warmed again');
  warm(stateOf('hand'));
  assert.equal(drawn.length, 4);
});

test('drawing the edit may fail: the real state is drawn after it, and the failure is only a warning', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const drawn = [];
  const warm = createWarmUp(
    (s) => {
      drawn.push(s);
      if (drawn.length === 1) throw new Error('drawing failed');
    },
    (s) => s,
  );
  const a = stateOf('lesson');
  warm(a);
  assert.equal(drawn.length, 2);
  assert.equal(drawn[1], a);
  assert.equal(warn.mock.callCount(), 1);
});
