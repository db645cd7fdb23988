// The Worker trainer in headless Chromium under the page's strict CSP: a module Worker loads its own
// WebAssembly instance, trains, reports progress with probe attentions and head scores, pauses,
// resets and hands back the state, while the page's main thread keeps running (it counts its own
// event-loop turns during the run). No CSP violation, no console error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { collectProblems, launch, openExplorer } from './helpers.mjs';
import { STRICT_CSP, startServer } from '../../scripts/serve.mjs';
import { inductionConfig } from '../../scripts/train/induction.mjs';

let env;
let page;
let problems;
let hasModel = false;

before(async () => {
  env = await launch();
  ({ page, problems } = await openExplorer(env));
  hasModel = await page.evaluate(async () => {
    const { createAttention } = await import('/lib/attention.js');
    return typeof (await createAttention()).transformer === 'function';
  });
});

after(async () => {
  await env?.close();
});

test('trains in a module Worker: progress, probe, pause, reset, state; the page stays responsive', async (t) => {
  if (!hasModel) return t.skip('attn.transformer is not in this build yet');
  const r = await page.evaluate(async () => {
    const { createTrainer } = await import('/lib/trainer.js');
    const trainer = await createTrainer({
      model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 2, numHeads: 2, mlp: false, seed: 1 },
      batchSize: 8,
      reportEvery: 5,
      seed: 3,
      optimizer: { learningRate: 3e-3 },
      probe: { batchSize: 4 },
    });
    // The main thread counts its own event-loop turns while the Worker trains.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setTimeout(count, 0);
    };
    count();
    const progress = [];
    trainer.onProgress = (p) => progress.push({ step: p.step, losses: p.losses.length, probe: p.probe });
    const stopped = new Promise((resolve, reject) => {
      trainer.onStopped = resolve;
      trainer.onError = reject;
    });
    await trainer.start({ maxSteps: 30 });
    const stop = await stopped;
    counting = false;
    const runSteps = progress.map((p) => p.step);
    const one = await trainer.step(2);
    const state = await trainer.getState();
    const reset = await trainer.reset();
    const afterReset = await trainer.step(1);
    await trainer.terminate();
    const last = progress[progress.length - 1].probe;
    return {
      steps: runSteps,
      stop: stop.step,
      turns,
      one: one.step,
      reset: reset.step,
      afterReset: afterReset.step,
      names: Object.keys(state).length,
      wte: state['wte.weight'].shape,
      attention: last.attentions[0].shape,
      isF32: last.attentions[0].data instanceof Float32Array,
      scores: last.headScores.map((s) => s.induction.length),
      probeLoss: last.loss,
    };
  });
  assert.deepEqual(r.steps, [5, 10, 15, 20, 25, 30]);
  assert.equal(r.stop, 30);
  assert.equal(r.one, 32);
  assert.equal(r.reset, 0);
  assert.equal(r.afterReset, 1);
  assert.deepEqual(r.wte, [12, 16]);
  assert.ok(r.names >= 8, `${r.names} tensors in the state`);
  assert.deepEqual(r.attention, [2, 12, 12]);
  assert.ok(r.isF32);
  assert.deepEqual(r.scores, [2, 2]);
  assert.ok(Number.isFinite(r.probeLoss));
  assert.ok(r.turns > 6, `the main thread ran ${r.turns} event-loop turns while the Worker trained`);
  assert.deepEqual(await collectProblems(page, problems), []);
});

test('the Worker loads its WebAssembly instance under the strict CSP and reports errors as rejections', async () => {
  const message = await page.evaluate(async () => {
    const { createTrainer } = await import('/lib/trainer.js');
    try {
      await createTrainer({ model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 1, numHeads: 3 } });
      return 'no error';
    } catch (err) {
      return err.message;
    }
  });
  // The model rejects 3 heads for dModel 16; a build without the model has no attn.transformer yet.
  assert.match(message, /^trainer: .*(numHeads|transformer)/);
  assert.deepEqual(await collectProblems(page, problems), []);
});

test('the Worker grows an induction head in Chromium that works on an unseen repeat length', async (t) => {
  if (!hasModel) return t.skip('attn.transformer is not in this build yet');
  // The run of tests/js/induction.test.mjs (same preset, seed and steps), here through the Worker.
  const config = { ...inductionConfig('small', 2), reportEvery: 150 };
  const r = await page.evaluate(async (cfg) => {
    const { createTrainer } = await import('/lib/trainer.js');
    const trainer = await createTrainer(cfg);
    const before = await trainer.probe();
    const stopped = new Promise((resolve, reject) => {
      trainer.onStopped = resolve;
      trainer.onError = reject;
    });
    await trainer.start({ maxSteps: 450 });
    await stopped;
    const after = await trainer.probe();
    await trainer.terminate();
    return { before, after };
  }, config);
  const induction = r.after.headScores[1].induction;
  const summary = `held-out loss ${r.before.loss.toFixed(2)} → ${r.after.loss.toFixed(3)}, layer-2 induction ${induction.map((x) => x.toFixed(2))}`;
  assert.ok(r.before.loss > 3, summary);
  assert.ok(r.after.loss < 0.8, summary);
  assert.ok(Math.max(...induction) > 0.3, summary);
  assert.ok(induction[0] + induction[1] > 0.5, summary);
  assert.deepEqual(await collectProblems(page, problems), []);
});

// An opaque-origin frame (<iframe sandbox="allow-scripts">, as learning platforms frame lessons)
// from another origin: the host page on localhost, the frame on 127.0.0.1 (another port), served
// with Access-Control-Allow-Origin: * (without it an opaque origin cannot load module scripts at
// all) and the given CSP. The frame's script trains with createTrainer and posts what happened.
const FRAME_CONFIG = {
  model: { vocabSize: 12, contextLength: 12, dModel: 16, numLayers: 2, numHeads: 2, mlp: false, seed: 1 },
  batchSize: 8,
  reportEvery: 5,
  seed: 3,
  optimizer: { learningRate: 3e-3 },
  probe: { batchSize: 4 },
};
const FRAME_SCRIPT = `
import { createTrainer } from '/lib/trainer.js';
const config = ${JSON.stringify(FRAME_CONFIG)};
try {
  const trainer = await createTrainer(config);
  // The frame's own event loop, counted while the trainer runs (on this thread or in a Worker).
  let turns = 0;
  let counting = true;
  const count = () => { turns++; if (counting) setTimeout(count, 0); };
  count();
  const first = await trainer.step(5);
  const end = await trainer.start({ maxSteps: 20 });
  counting = false;
  const run = trainer.start();
  await new Promise((resolve) => { setTimeout(resolve, 30); });
  const paused = await trainer.pause();
  const runEnd = await run;
  const probe = await trainer.probe();
  await trainer.terminate();
  parent.postMessage({ mode: trainer.mode, origin: self.origin, losses: first.losses, end, paused: paused.step, runEnd, turns, probeLoss: probe.loss }, '*');
} catch (err) {
  parent.postMessage({ error: err.message }, '*');
}
`;

async function listen(server, host) {
  await new Promise((resolve) => {
    server.listen(0, host, resolve);
  });
  return {
    url: `http://${host}:${server.address().port}/`,
    close: () =>
      new Promise((done) => {
        server.close(done);
      }),
  };
}

// web/ as the project's server sends it, plus CORS and the frame's page and script.
async function frameOrigin(csp) {
  const web = await startServer({ csp });
  const own = {
    '/sandbox/frame.html': [
      'text/html',
      '<!doctype html><meta charset="utf-8"><script type="module" src="/sandbox/frame.js"></script>',
    ],
    '/sandbox/frame.js': ['text/javascript', FRAME_SCRIPT],
  };
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'content-security-policy': csp };
    if (own[req.url]) {
      res.writeHead(200, { 'content-type': own[req.url][0], ...cors }).end(own[req.url][1]);
      return;
    }
    const upstream = await fetch(new URL(req.url, web.url));
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
      ...cors,
    });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  const frame = await listen(server, '127.0.0.1');
  return {
    url: frame.url,
    close: async () => {
      await frame.close();
      await web.close();
    },
  };
}

// Opens `path` of the frame origin in a sandboxed frame of a host page and runs body(tab, frame).
async function inSandbox(csp, path, body) {
  const frame = await frameOrigin(csp);
  const host = await listen(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>window.results = [];
      addEventListener('message', (e) => results.push(e.data));</script>
      <iframe sandbox="allow-scripts" style="width: 1200px; height: 900px" src="${frame.url}${path}"></iframe>`);
    }),
    'localhost',
  );
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  try {
    const tab = await context.newPage();
    await tab.goto(host.url);
    return await body(tab, tab.frames()[1]);
  } finally {
    await context.close();
    await host.close();
    await frame.close();
  }
}

const trainInSandbox = (csp) =>
  inSandbox(csp, 'sandbox/frame.html', async (tab) => {
    await tab.waitForFunction(() => window.results.length > 0, null, { timeout: 120_000 });
    return (await tab.evaluate(() => window.results))[0];
  });

// The same five steps in a Worker of the ordinary page: the reference for the frame's losses.
async function workerLosses() {
  return page.evaluate(async (config) => {
    const { createTrainer } = await import('/lib/trainer.js');
    const trainer = await createTrainer(config);
    const { losses } = await trainer.step(5);
    await trainer.terminate();
    return { losses, mode: trainer.mode };
  }, FRAME_CONFIG);
}

test(
  "in a sandboxed frame of another origin under the strict CSP, training runs on the frame's thread in slices and says so",
  { timeout: 300_000 },
  async (t) => {
    if (!hasModel) return t.skip('attn.transformer is not in this build yet');
    const r = await trainInSandbox(STRICT_CSP);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.origin, 'null', 'an opaque origin');
    assert.equal(r.mode, 'main-thread', "no Worker can start: data: and blob: Workers are outside script-src 'self'");
    const reference = await workerLosses();
    assert.equal(reference.mode, 'worker');
    assert.deepEqual(r.losses, reference.losses, 'the same steps as in a Worker');
    assert.deepEqual(r.end, { step: 25, reason: 'maxSteps' }, 'maxSteps more steps after the first 5');
    assert.deepEqual(r.runEnd, { step: r.paused, reason: 'paused' });
    assert.ok(Number.isFinite(r.probeLoss));
    assert.ok(r.turns > 6, `the frame's event loop turned ${r.turns} times while 20 steps trained on it`);
  },
);

test(
  'in a sandboxed frame whose CSP allows data: Workers, a data: bootstrap starts a real Worker there',
  { timeout: 300_000 },
  async (t) => {
    if (!hasModel) return t.skip('attn.transformer is not in this build yet');
    const r = await trainInSandbox(`${STRICT_CSP}; worker-src 'self' data:`);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.origin, 'null');
    assert.equal(r.mode, 'worker');
    assert.deepEqual(r.losses, (await workerLosses()).losses);
    assert.deepEqual(r.end, { step: 25, reason: 'maxSteps' }, 'maxSteps more steps after the first 5');
    assert.deepEqual(r.runEnd, { step: r.paused, reason: 'paused' });
  },
);

test(
  "the training view in a sandboxed frame under the strict CSP trains, and says it trains on the frame's thread",
  { timeout: 300_000 },
  async (t) => {
    if (!hasModel) return t.skip('attn.transformer is not in this build yet');
    await inSandbox(STRICT_CSP, 'embed.html?view=train', async (tab, frame) => {
      await frame.waitForSelector('[data-training][data-ready="true"][data-trainer-mode]', { timeout: 120_000 });
      assert.equal(await frame.getAttribute('[data-training]', 'data-trainer-mode'), 'main-thread');
      assert.match(
        await frame.textContent('[data-training]'),
        /Training runs on this page’s own thread in short slices: this frame cannot start a Worker/,
      );
      await frame.click('[data-action="train"]');
      await frame.waitForFunction(() => Number(document.querySelector('[data-training]').dataset.step) >= 20, null, {
        timeout: 120_000,
      });
      await frame.click('[data-action="pause"]');
      await frame.waitForSelector('[data-training][data-running="false"]');
      const step = Number(await frame.getAttribute('[data-training]', 'data-step'));
      await new Promise((resolve) => {
        setTimeout(resolve, 300);
      });
      assert.equal(Number(await frame.getAttribute('[data-training]', 'data-step')), step, 'paused');
    });
  },
);

test(
  'a slow model (~1 s a step) in a Chromium Worker: pause() waits for at most the step under way; terminate() cuts step(3000) short',
  { timeout: 300_000 },
  async (t) => {
    if (!hasModel) return t.skip('attn.transformer is not in this build yet');
    const r = await page.evaluate(async () => {
      const { createTrainer } = await import('/lib/trainer.js');
      const trainer = await createTrainer({
        model: { vocabSize: 32, contextLength: 128, dModel: 256, numLayers: 2, numHeads: 4, mlp: true, seed: 1 },
        batchSize: 16,
        reportEvery: 2,
        probe: false,
      });
      const run = trainer.start();
      // Asked as the first progress (step 2) arrives: the old loop had begun 2 more steps by then.
      const { asked, paused } = await new Promise((resolve, reject) => {
        trainer.onError = reject;
        trainer.onProgress = (p) => {
          trainer.onProgress = null;
          trainer.pause().then((x) => resolve({ asked: p.step, paused: x.step }), reject);
        };
      });
      const end = await run;
      const long = trainer.step(3000).then(
        () => 'resolved',
        (err) => err.message,
      );
      await new Promise((resolve) => {
        setTimeout(resolve, 300);
      });
      const t0 = performance.now();
      await trainer.terminate();
      return { asked, paused, end, terminateMs: performance.now() - t0, long: await long };
    });
    assert.equal(r.asked, 2);
    assert.ok(r.paused - r.asked <= 1, `${r.paused - r.asked} steps ran after pause() was asked at step ${r.asked}`);
    assert.deepEqual(r.end, { step: r.paused, reason: 'paused' });
    assert.equal(r.long, 'trainer: step() did not finish: terminate() stopped the trainer');
    assert.ok(r.terminateMs < 2000, `terminate() took ${r.terminateMs.toFixed(0)} ms`);
    console.log(`# terminate() during a step took ${r.terminateMs.toFixed(0)} ms in Chromium`);
    assert.deepEqual(await collectProblems(page, problems), []);
  },
);
