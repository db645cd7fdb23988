// Names of the deliberate mistakes the core can make on request (see src/core/pitfalls.h), so a
// lesson can put the correct result next to a wrong one computed from the same inputs.
import { fail, show } from './checks.js';

export const PITFALLS = {
  none: 0,
  'mask-after-softmax': 1, // softmax first, then zero hidden keys: rows no longer sum to 1
  'mask-value-zero': 2, // hidden scores set to 0 instead of -Infinity
  'scale-by-dk': 3, // divide by dk instead of √dk
  'scale-by-dmodel': 4, // multi-head: divide by √E instead of the per-head √d
  'skip-wo': 5, // multi-head: no output projection, heads never mix
};

const SINGLE_HEAD = ['none', 'mask-after-softmax', 'mask-value-zero', 'scale-by-dk'];

/** The core's code for a pitfall name, or null for none; `multiHead` allows the multi-head ones. */
export function pitfallCode(name, { multiHead, trace, alignment }) {
  if (name === undefined || name === 'none') return null;
  const allowed = multiHead ? Object.keys(PITFALLS) : SINGLE_HEAD;
  if (!allowed.includes(name))
    fail(`options.pitfall must be one of ${allowed.map((p) => `"${p}"`).join(', ')}, got ${show(name)}`);
  if (trace) fail('options.trace cannot be combined with options.pitfall');
  if (alignment && (alignment.window || alignment.lowerRight))
    fail("options.pitfall cannot be combined with options.window or causal: 'lower-right'");
  return PITFALLS[name];
}
