// One loaded WebAssembly module and its scratch block, shared by the API object and every layer
// and generator made from it. dispose() lets go of the module: WebAssembly memory never shrinks,
// so the only way to give it back is to drop the whole instance and let the engine collect it.
import { fail } from './tensors.js';
import { WasmHeap } from './wasm-heap.js';

export class Instance {
  constructor(module) {
    this.module = module;
    this.heap = new WasmHeap(module);
  }

  /** The module, or an Error once the instance was disposed. */
  live() {
    if (!this.module)
      fail('this attention instance was disposed (attn.dispose()); call createAttention() again for a new one');
    return this.module;
  }

  dispose() {
    if (!this.module) return;
    this.heap.releaseAll();
    this.heap.module = null;
    this.module = null;
  }
}
