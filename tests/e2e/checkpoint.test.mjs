// Checkpoints in the browser, under the page's strict CSP (headless Chromium): a model saved with
// toSafetensorsAsync() as a Blob opens again from a File with loadTransformer, parameter for
// parameter; the trained text model opens from its same-origin URL and computes what the
// loadState path computes; an AbortSignal rejects with an AbortError; the page stays free of
// errors and CSP violations.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, recordProblems } from './helpers.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

test(
  "save as a Blob, open from a File and from a URL, cancel: in Chromium under the page's CSP",
  { timeout: 120_000 },
  async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const problems = [];
    await recordProblems(page, problems);
    await page.goto(new URL('index.html', env.url).href);
    const result = await page.evaluate(async () => {
      const { createAttention } = await import('/lib/attention.js');
      const { decodeSafetensors } = await import('/lib/safetensors.js');
      const { charVocabulary } = await import('/lib/training-data.js');
      const { TINY_CORPUS } = await import('/lib/tiny-corpus.js');
      const attn = await createAttention();
      const same = (a, b) => Object.keys(a).every((k) => a[k].data.every((x, i) => Object.is(x, b[k].data[i])));

      const model = attn.transformer({
        vocabSize: 500,
        contextLength: 16,
        dModel: 32,
        numLayers: 2,
        numHeads: 4,
        seed: 9,
      });
      const blob = await model.toSafetensorsAsync();
      const file = new File([blob], 'model.safetensors');
      const progress = [];
      const fromFile = await attn.loadTransformer(file, model.config, { onProgress: (p) => progress.push(p.loaded) });
      const fileSame = same(model.getState(), fromFile.getState());

      const vocabSize = charVocabulary(TINY_CORPUS).chars.length;
      const config = {
        vocabSize,
        contextLength: 32,
        dModel: 32,
        numLayers: 2,
        numHeads: 2,
        mlp: false,
        tieEmbeddings: false,
      };
      const fromUrl = await attn.loadTransformer('/trained/text.safetensors', config);
      const reference = attn.transformer(config);
      reference.loadState(
        decodeSafetensors(new Uint8Array(await (await fetch('/trained/text.safetensors')).arrayBuffer())),
      );
      const tokens = [1, 2, 3, 4, 5, 6];
      const a = fromUrl.forward(tokens).logits.data;
      const b = reference.forward(tokens).logits.data;
      const urlSame = a.length === b.length && a.every((x, i) => x === b[i]);

      const controller = new AbortController();
      let abortName = null;
      try {
        await attn.loadTransformer('/trained/text.safetensors', config, {
          signal: controller.signal,
          onProgress: () => controller.abort(),
        });
      } catch (err) {
        abortName = err.name;
      }
      for (const m of [model, fromFile, fromUrl, reference]) m.dispose();
      return { fileSame, urlSame, abortName, progress, size: blob.size, yields: typeof globalThis.scheduler?.yield };
    });
    assert.ok(result.fileSame, 'the File gives every parameter back');
    assert.ok(result.urlSame, "the URL gives the loadState model's logits");
    assert.equal(result.abortName, 'AbortError');
    assert.equal(result.progress.at(-1), result.size);
    assert.equal(result.yields, 'function', 'Chromium has scheduler.yield, which the loader yields with');
    assert.deepEqual(problems, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
    await context.close();
  },
);
