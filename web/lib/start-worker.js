// The one place that starts the project's Workers: a module Worker in browsers, a worker_threads
// Worker in Node, and the fallbacks a framed lesson needs.
//
// In an opaque origin (an <iframe sandbox="allow-scripts"> without allow-same-origin, as several
// learning platforms frame content) `new Worker(serverUrl)` throws "cannot be accessed from origin
// 'null'". A Worker whose script is a data: URL (or a blob: URL) with one line that imports the
// real module by absolute URL may start there: it needs the server's CORS headers (as the frame's
// own module scripts do) and a CSP whose worker-src allows it. Where no Worker can start (the strict
// CSP, no CORS, no Worker at all), the Worker's code runs in this thread on a MessageChannel,
// through the caller's `inThread`, and the result's `mode` says so. docs/training.md has the details.
//
// The Worker's module must post one message as soon as it listens: startWorker consumes it as the
// sign that the module loaded, so an import that fails falls back (or rejects) instead of hanging.

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

/** The endpoint a Worker's code talks through when it runs in this thread (a MessagePort's side). */
export function portEndpoint(port) {
  return {
    post: (message, transfer = []) => port.postMessage(message, transfer),
    listen: (handler) => {
      port.addEventListener('message', (e) => handler(e.data));
      port.start();
    },
  };
}

// Messages wait here until the caller listens; the first one only says the module has loaded.
function messageQueue() {
  let handler = null;
  let waiting = [];
  let loaded;
  const ready = new Promise((resolve) => {
    loaded = resolve;
  });
  let first = true;
  return {
    ready,
    deliver(message) {
      if (first) {
        first = false;
        loaded(true);
      } else if (handler) handler(message);
      else waiting.push(message);
    },
    failed: () => loaded(false),
    listen(h) {
      handler = h;
      const queued = waiting;
      waiting = [];
      for (const m of queued) h(m);
    },
  };
}

function errorHandlers() {
  const handlers = [];
  return {
    add: (h) => handlers.push(h),
    fire: (err) => {
      for (const h of handlers) h(err);
    },
  };
}

function describeEvent(event, fallback) {
  return new Error(event?.message || fallback);
}

// Resolves with the handle once the Worker's first message arrived, with null when it failed to
// load (an error event first).
async function browserHandle(worker, name) {
  const queue = messageQueue();
  const errors = errorHandlers();
  let loaded = false;
  worker.addEventListener('message', (e) => queue.deliver(e.data));
  worker.addEventListener('messageerror', () =>
    errors.fire(new Error(`${name}: a message from the Worker could not be read`)),
  );
  worker.addEventListener('error', (e) => {
    if (!loaded) queue.failed();
    else errors.fire(describeEvent(e, `${name}: the Worker failed`));
  });
  loaded = await queue.ready;
  if (!loaded) {
    worker.terminate();
    return null;
  }
  return {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onMessage: queue.listen,
    onError: errors.add,
    terminate: async () => worker.terminate(),
  };
}

// One line that imports the module by absolute URL, as a data: or a blob: Worker script. In an
// opaque origin Chromium 156 starts the data: one (a Worker with an opaque origin of its own) but
// not the blob: one; a page whose module comes from another origin (a CDN) can use either. Both
// need the module's server to send CORS headers and a CSP that lets worker-src allow them.
function bootstrapScript(url, kind) {
  const source = `import ${JSON.stringify(new URL(url, globalThis.location?.href).href)};\n`;
  if (kind === 'data') return { script: `data:text/javascript,${encodeURIComponent(source)}`, release: () => {} };
  const blobUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return { script: blobUrl, release: () => URL.revokeObjectURL(blobUrl) };
}

async function tryWorker(make, name, reasons, failure) {
  try {
    const handle = await browserHandle(make({ type: 'module', name }), name);
    if (handle) return handle;
    reasons.push(failure);
  } catch (err) {
    reasons.push(err.message);
  }
  return null;
}

async function startBrowserWorker({ create, url, name }) {
  const reasons = [];
  if (typeof Worker !== 'function') return { handle: null, reasons: ['this environment has no Worker'] };
  const direct = await tryWorker(
    create ?? ((options) => new Worker(url, options)),
    name,
    reasons,
    'the Worker module failed to load',
  );
  if (direct || !url) return { handle: direct, reasons };
  for (const kind of ['data', 'blob']) {
    const { script, release } = bootstrapScript(url, kind);
    const handle = await tryWorker(
      (options) => new Worker(script, options),
      name,
      reasons,
      `a ${kind}: Worker could not import ${url} (the server must send CORS headers; the CSP must allow worker-src ${kind}:)`,
    );
    release();
    if (handle) return { handle, reasons };
  }
  return { handle: null, reasons };
}

async function startNodeWorker({ url, name }) {
  const { Worker: NodeWorker } = await import('node:worker_threads');
  const worker = new NodeWorker(url, { name });
  const queue = messageQueue();
  const errors = errorHandlers();
  let loaded = false;
  let ended = false;
  let loadError = null;
  worker.on('message', (m) => queue.deliver(m));
  worker.on('error', (err) => {
    if (!loaded) {
      loadError = err;
      queue.failed();
    } else errors.fire(err);
  });
  worker.on('exit', (code) => {
    if (!loaded) queue.failed();
    else if (!ended) errors.fire(new Error(`${name}: the Worker exited (code ${code})`));
  });
  loaded = await queue.ready;
  if (!loaded) throw loadError ?? new Error(`${name}: the Worker exited before it loaded`);
  return {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onMessage: queue.listen,
    onError: errors.add,
    terminate: async () => {
      ended = true;
      await worker.terminate();
    },
  };
}

async function startInThread(inThread) {
  const { port1, port2 } = new MessageChannel();
  const queue = messageQueue();
  port1.addEventListener('message', (e) => queue.deliver(e.data));
  port1.start();
  const host = await inThread(portEndpoint(port2));
  await queue.ready;
  return {
    post: (message, transfer = []) => port1.postMessage(message, transfer),
    onMessage: queue.listen,
    onError: () => {},
    terminate: async () => {
      host?.terminate?.();
      port1.close();
      port2.close();
    },
  };
}

/**
 * Starts a Worker and resolves with { mode: 'worker' | 'main-thread', post(message, transfer),
 * onMessage(handler), onError(handler), terminate(): Promise }.
 * - create(options): the browser Worker, written by the caller as `new Worker(new URL('./x.js',
 *   import.meta.url), options)` so bundlers build the Worker's module graph;
 * - url: that module's URL (worker_threads in Node; the blob: bootstrap in opaque origins);
 * - inThread(endpoint): runs the Worker's code in this thread, talking through endpoint
 *   { post, listen }, and returns { terminate() } (optional: without it there is no fallback);
 * - mode: 'auto' (default: a Worker if one can start, else this thread), 'worker' or 'main-thread'.
 */
export async function startWorker({ create, url, name = 'worker', inThread, mode = 'auto' }) {
  if (!['auto', 'worker', 'main-thread'].includes(mode))
    throw new Error(`${name}: mode must be 'auto', 'worker' or 'main-thread', got ${String(mode)}`);
  if (mode !== 'main-thread') {
    if (isNode) return { mode: 'worker', ...(await startNodeWorker({ url, name })) };
    const { handle, reasons } = await startBrowserWorker({ create, url, name });
    if (handle) return { mode: 'worker', ...handle };
    if (mode === 'worker' || !inThread) throw new Error(`${name}: no Worker could start here (${reasons.join('; ')})`);
  }
  if (!inThread) throw new Error(`${name}: this Worker cannot run on the main thread`);
  return { mode: 'main-thread', ...(await startInThread(inThread)) };
}
