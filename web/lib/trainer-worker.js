// The trainer's dedicated Worker: its own WebAssembly instance of the core, one TrainingSession
// (serveTrainer in trainer-session.js). Runs as a module Worker in browsers (also started from a
// data: or blob: bootstrap, start-worker.js) and as a worker_threads Worker in Node.
import { createAttention } from './attention.js';
import { serveTrainer } from './trainer-session.js';

const inBrowser = typeof WorkerGlobalScope !== 'undefined'; // Node's worker_threads have no such global

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

// Without top-level await, so that bundlers may also build this Worker as a classic script (Vite's
// default). serveTrainer posts 'loaded' once it listens: the main thread sends nothing before it,
// since a Worker that is still evaluating its imports may not have a listener yet.
channel().then((endpoint) => serveTrainer(endpoint, { createAttention }));
