// NumPy's legacy RandomState (np.random.seed / randn / rand), computed by the C++ core so that
// lesson examples written with NumPy give the same numbers here, call after call.
import { checkSeed, fail, product, show } from './checks.js';
import { isArray, readList } from './read-input.js';
import { OwnedBlock } from './instance.js';

const MAX_DRAW = 2 ** 27; // 1 GiB of doubles

const freeState = (module, address) => module._free(address);

function readDims(dims, method) {
  // One array argument (np.random.rand([2, 3])) is read once into a plain array.
  const list = dims.length === 1 && isArray(dims[0]) ? readList(dims[0], method) : dims;
  for (const d of list)
    if (!Number.isSafeInteger(d) || d < 0)
      fail(`${method}: dimensions must be non-negative integers, got ${list.map(show).join(', ')}`);
  if (product(list) > MAX_DRAW)
    fail(`${method}: ${product(list)} values is more than the ${MAX_DRAW} one call may draw`);
  return list;
}

export class RandomState {
  #instance;
  #block;

  constructor(instance, seed) {
    this.#instance = instance;
    checkSeed(seed); // before allocating, so a refused seed holds no memory
    const module = instance.live();
    const address = module._malloc(module._randomStateBytes()) >>> 0; // unsigned past 2 GiB
    if (!address) fail('randomState: out of WebAssembly memory');
    this.#block = new OwnedBlock(this, instance, address, freeState, 'RandomState');
    this.seed(seed);
  }

  /** Re-seeds like np.random.seed(seed): an integer from 0 to 2**32 - 1. */
  seed(seed) {
    checkSeed(seed);
    const state = this.#live();
    this.#instance.module._randomSeed(state, seed);
    return this;
  }

  /** np.random.randn(...dims): standard normal doubles; no dims gives a single number. */
  randn(...dims) {
    return this.#draw(dims, 'randn', '_randomFillRandn');
  }

  /** np.random.rand(...dims): uniform doubles in [0, 1); no dims gives a single number. */
  rand(...dims) {
    return this.#draw(dims, 'rand', '_randomFillRand');
  }

  dispose() {
    this.#block.dispose();
  }

  /** The state's address, or an Error when it or its attention instance was disposed. */
  #live() {
    this.#block.live();
    return this.#block.address;
  }

  #draw(dims, method, fill) {
    const shape = readDims(dims, method);
    const count = shape.length ? product(shape) : 1;
    const state = this.#live();
    const heap = this.#instance.heap;
    const [out] = heap.layout([count * 8], method);
    this.#instance.module[fill](state, out, count);
    const data = heap.readF64(out, count);
    heap.settle();
    return shape.length ? { data, shape: shape.slice() } : data[0];
  }
}
