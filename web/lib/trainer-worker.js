// The trainer's dedicated Worker: its own WebAssembly instance of the core, one TrainingSession.
// Runs as a module Worker in browsers and as a worker_threads Worker in Node.
import { createAttention } from './attention.js';
import { TrainingSession } from './trainer-session.js';

const inBrowser = typeof WorkerGlobalScope !== 'undefined';  // Node's worker_threads have no such global

async function channel() {
  if (inBrowser) {
    return {
      post: (message, transfer = []) => self.postMessage(message, transfer),
      listen: (handler) => self.addEventListener('message', (e) => handler(e.data)),
    };
  }
  const { parentPort } = await import('node:worker_threads');
  return {
    post: (message, transfer = []) => parentPort.postMessage(message, transfer),
    listen: (handler) => parentPort.on('message', handler),
  };
}

let post = null;  // set once the channel is open, before any message can be handled
let session = null;
// Messages that arrive while the module loads wait here, in order.
let queue = [];

async function init(message) {
  try {
    const attn = await createAttention({ simd: message.config?.simd ?? 'auto' });
    session = new TrainingSession(attn, message.config, post);
    session.ready(message.id);
  } catch (err) {
    post({ type: 'error', id: message.id, message: err.message });
  }
  const waiting = queue;
  queue = null;
  for (const m of waiting) dispatch(m);
}

function dispatch(message) {
  if (message?.type === 'init') {
    if (session || queue === null) return post({ type: 'error', id: message.id, message: 'the trainer is already initialized' });
    return init(message);
  }
  if (queue) return queue.push(message);
  if (!session) return post({ type: 'error', id: message?.id, message: 'the trainer failed to initialize' });
  return session.handle(message);
}

// Without top-level await, so that bundlers may also build this Worker as a classic script (Vite's
// default). The main thread sends nothing before 'loaded': a Worker that is still evaluating its
// imports may not have a listener yet.
channel().then((open) => {
  post = open.post;
  open.listen(dispatch);
  post({ type: 'loaded' });
});
