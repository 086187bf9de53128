// The training worker: its own engine (the page's stays free for the lab), one experiment, the
// protocol of web/train/protocol.js (served by web/train/host.js). A module worker from the
// page's origin: it runs under the page's Content-Security-Policy, and script-src 'self'
// 'wasm-unsafe-eval' is all it needs.
import { createEngine } from '../core/engine.js';
import { serveTraining } from './host.js';

serveTraining(createEngine(), {
  post: (message, transfer = []) => self.postMessage(message, transfer),
  listen: (receive) => self.addEventListener('message', (event) => receive(event.data)),
});
