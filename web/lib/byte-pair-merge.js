// The byte-pair merge of one pre-tokenized piece of text (GPT-2's BPE, tiktoken's byte_pair_merge
// rule): while some two neighbouring parts join into bytes that have a rank, join the pair of the
// lowest rank, the leftmost of equal ones; each final part's rank is a token id. The vendored BPE
// scans every pair again after each join (O(n²) lookups: 16 s for a piece of 16 000 'a', which a
// pasted DNA string or a row of '=' is), so this keeps the candidate pairs in a heap: O(n log n).

/** The token ids of `piece` (a Uint8Array); `ranks` maps bytes written as "b0,b1,…" to ranks. */
export function bytePairEncode(piece, ranks) {
  const n = piece.length;
  const key = (start, stop) => piece.subarray(start, stop).join(',');
  if (n === 1) return [ranks.get(key(0, 1))];
  // Parts are named by their first byte: end[s] is where the part starting at s ends (0 once it has
  // been joined into the part before it), before[s] where the part before it starts (-1: none).
  const end = new Int32Array(n);
  const before = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    before[i] = i - 1;
  }
  const heap = new PairHeap();
  // The pair of the part at s and the part after it, if its bytes have a rank.
  const offer = (s) => {
    const mid = end[s];
    if (mid >= n) return;
    const rank = ranks.get(key(s, end[mid]));
    if (rank !== undefined) heap.push(rank, s, end[mid]);
  };
  for (let i = 0; i + 1 < n; i++) offer(i);
  while (heap.size > 0) {
    const { start, stop } = heap.pop();
    // Parts only grow, so a pair that still spans start…stop as two parts is the pair offered, with
    // the same bytes and rank; any other entry is stale.
    const mid = end[start];
    if (mid === 0 || mid >= n || end[mid] !== stop) continue;
    end[start] = stop;
    end[mid] = 0;
    if (stop < n) before[stop] = start;
    if (before[start] >= 0) offer(before[start]);
    offer(start);
  }
  const ids = [];
  for (let s = 0; s < n; s = end[s]) {
    const id = ranks.get(key(s, end[s]));
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

// A binary min-heap of pairs ordered by rank, then by where they start (the leftmost first).
class PairHeap {
  #rank = [];
  #start = [];
  #stop = [];

  get size() {
    return this.#rank.length;
  }

  #less(i, j) {
    return this.#rank[i] < this.#rank[j] || (this.#rank[i] === this.#rank[j] && this.#start[i] < this.#start[j]);
  }

  #swap(i, j) {
    for (const a of [this.#rank, this.#start, this.#stop]) [a[i], a[j]] = [a[j], a[i]];
  }

  push(rank, start, stop) {
    this.#rank.push(rank);
    this.#start.push(start);
    this.#stop.push(stop);
    for (let i = this.size - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  pop() {
    const top = { start: this.#start[0], stop: this.#stop[0] };
    const last = this.size - 1;
    this.#swap(0, last);
    this.#rank.pop();
    this.#start.pop();
    this.#stop.pop();
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < last && this.#less(l, m)) m = l;
      if (r < last && this.#less(r, m)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
    return top;
  }
}
