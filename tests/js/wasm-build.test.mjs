// The two WebAssembly builds are what they claim: the SIMD build's code really uses 128-bit
// vector instructions (f32x4 arithmetic), the scalar build uses none, so it runs on any engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const wasm = (variant) => fileURLToPath(new URL(`../../web/lib/wasm/attention-${variant}.wasm`, import.meta.url));
const disassemble = (variant) =>
  execFileSync('wasm-objdump', ['-d', wasm(variant)], { maxBuffer: 256 * 2 ** 20 }).toString();

test('the SIMD build computes with f32x4 instructions', () => {
  const code = disassemble('simd');
  for (const op of ['f32x4.mul', 'f32x4.add', 'f32x4.splat', 'v128.load'])
    assert.ok(code.includes(op), `${op} missing from the SIMD build`);
});

test('the scalar build has no vector instructions', () => {
  const code = disassemble('scalar');
  assert.ok(!/\b(v128|f32x4|i32x4|i8x16)\./.test(code), 'the scalar build contains SIMD instructions');
  assert.ok(code.includes('f32.mul'));
});
