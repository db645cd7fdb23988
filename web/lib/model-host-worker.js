// The checkpoint host's dedicated Worker: its own WebAssembly instance of the core and one
// ModelHostSession (model-host-session.js). A module Worker in browsers (also from a data: or
// blob: bootstrap, start-worker.js), a worker_threads Worker in Node.
import { createAttention } from './attention.js';
import { serveModelHost } from './model-host-session.js';

const inBrowser = typeof WorkerGlobalScope !== 'undefined';

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

// Without top-level await (bundlers may build this Worker as a classic script); serveModelHost
// posts 'loaded' once it listens.
channel().then((endpoint) => serveModelHost(endpoint, { createAttention }));
