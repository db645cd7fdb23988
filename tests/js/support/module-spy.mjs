// The API keeps its WebAssembly module private. Its safety nets register every object that holds
// WebAssembly memory with a FinalizationRegistry, holding { instance, address } (RandomState,
// MultiHeadAttention: instance.module is the module) or { module, handle } (a transformer). This
// subclass sees those registrations and collects the modules, so tests can read the heap.
//
// Import it before the API loads: import this file statically, the API with a dynamic import().
// If the API ever stops registering such objects, `modules` stays empty and the tests say so.
export const modules = new Set();

globalThis.FinalizationRegistry = class extends FinalizationRegistry {
  register(target, held, token) {
    const module = held?.instance?.module ?? held?.module;
    if (module) modules.add(module);
    return super.register(target, held, token);
  }
};
