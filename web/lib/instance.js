// One loaded WebAssembly module and its scratch block, shared by the API object and every layer
// and generator made from it. dispose() lets go of the module: WebAssembly memory never shrinks,
// so the only way to give it back is to drop the whole instance and let the engine collect it.
import { fail } from './checks.js';
import { WasmHeap } from './wasm-heap.js';
import { registerBaseInstance, stillLoading } from './api-parts.js';
import { loadModule } from './load-module.js';

export class Instance {
  #variant;
  #whole; // the instance with every function: this one, or (base build) a second, once loaded
  #loadingWhole = null;
  #registration = null;

  /** `build` is 'whole' or 'base' (the smaller build the bundled page loads first; api-parts.js). */
  constructor(module, { variant, build = 'whole' } = {}) {
    this.module = module;
    this.heap = new WasmHeap(module);
    this.#variant = variant;
    this.#whole = build === 'whole' ? this : null;
    if (!this.#whole) this.#registration = registerBaseInstance(this);
  }

  /** The module, or an Error once the instance was disposed. */
  live() {
    if (!this.module)
      fail('this attention instance was disposed (attn.dispose()); call createAttention() again for a new one');
    return this.module;
  }

  /**
   * The instance whose module has every function, for `call` into `part` (api-parts.js): this one,
   * or for a base build the whole build once loaded; until then an Error that says to await
   * apiReady(part), and the load starts.
   */
  whole(part, call) {
    this.live();
    if (this.#whole) return this.#whole;
    this.loadWhole().catch(() => {});
    throw stillLoading(call, part);
  }

  /**
   * Resolves with the whole build's instance (loaded once; a failed load is tried again next time);
   * `loading`, when given, is that build's module already under way.
   */
  loadWhole(loading = null) {
    this.live();
    if (this.#whole) return Promise.resolve(this.#whole);
    this.#loadingWhole ??= (loading ?? loadModule(this.#variant, 'whole')).then(
      (module) => {
        this.#loadingWhole = null;
        if (!this.module) return this.live(); // disposed meanwhile: throws
        this.#whole = new Instance(module, { variant: this.#variant });
        return this.#whole;
      },
      (err) => {
        this.#loadingWhole = null;
        throw err;
      },
    );
    return this.#loadingWhole;
  }

  dispose() {
    if (!this.module) return;
    this.#registration?.forget();
    if (this.#whole && this.#whole !== this) this.#whole.dispose();
    this.heap.releaseAll();
    this.heap.module = null;
    this.module = null;
  }
}

// The safety net for owned blocks that are never disposed. It holds the instance, not the module,
// so a disposed instance lets its whole WebAssembly memory go even while its objects live.
const blocks = new FinalizationRegistry(({ instance, address, free }) => {
  if (instance.module) free(instance.module, address);
});

/**
 * A block of an instance's WebAssembly memory owned by one API object (a layer's weights, a
 * generator's state): dispose() frees it once, and if the owner is collected undisposed, a
 * FinalizationRegistry frees it. `free(module, address)` releases it in the core; `name` names the
 * owner in the error of a call after dispose().
 */
export class OwnedBlock {
  #instance;
  #address;
  #free;
  #name;

  constructor(owner, instance, address, free, name) {
    this.#instance = instance;
    this.#address = address;
    this.#free = free;
    this.#name = name;
    blocks.register(owner, { instance, address, free }, this);
  }

  /** The block's address (0 once disposed). */
  get address() {
    return this.#address;
  }

  /** The module, or an Error when the block or its instance was disposed. */
  live() {
    if (!this.#address) fail(`this ${this.#name} was disposed`);
    return this.#instance.live();
  }

  dispose() {
    if (!this.#address) return;
    blocks.unregister(this);
    const module = this.#instance.module;
    if (module) this.#free(module, this.#address);
    this.#address = 0;
  }
}
