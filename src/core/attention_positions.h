// Positions inside attention, applied to one head's scores and to its q and k views:
//   - which keys a query sees: a causal mask aligned top-left or lower-right, and a sliding window
//     (HeadMasks::causal, query_offset, window);
//   - ALiBi, a linear bias on the distance between query and key (HeadMasks::alibi_slope);
//   - RoPE, rotary position embeddings of q and k rows, with the inverse rotation for the backward.
// Query i of a head sits at key position p = i + query_offset. Key j is visible when
// j ≤ p (with causal) and j > p − window (with a window > 0); every other mask (bias, boolean mask,
// key padding) combines with these. Internal to the core.
#pragma once
#include <cstddef>

#include "attention_head.h"
#include "status.h"

namespace attn {

// Keys [begin, end) of the m keys; empty when begin ≥ end.
struct KeySpan {
  size_t begin = 0, end = 0;
};

// The keys the causal mask and the window leave visible to query i.
KeySpan visible_keys(const HeadMasks& masks, size_t i, size_t m);

// The keys visible to any of the queries [i0, i0 + rows): tiles outside it are hidden from the
// whole block, so the kernels skip them.
KeySpan block_visible_keys(const HeadMasks& masks, size_t i0, size_t rows, size_t m);

// True when a row's scores need more than cutting to its visible span: a bias, a boolean mask,
// key padding or ALiBi.
bool masks_need_scores(const HeadMasks& masks);

// s: raw scores of query i against keys [j0, j0 + len) of m. Scales them, adds the bias and the
// ALiBi term, and hides masked keys with −inf, so that exp() gives them a weight of exactly 0.
// scaled_trace / masked_trace (len floats, may be null) receive the row after scaling and after
// masking. The one masking rule of the forward and the backward, materialized and streaming.
void scale_and_mask_scores(float* s, size_t len, size_t i, size_t j0, size_t m, float scale,
                           const HeadMasks& masks, float* scaled_trace, float* masked_trace);

// The ALiBi slope of head h of H (Press et al.; the rule of BLOOM's build_alibi_tensor): with
// P the largest power of two ≤ H, heads h < P get 2^(−8(h+1)/P) and the others, in order, the odd
// powers 2^(−4(2k+1)/P), k = 0, 1, …: for H a power of two, 2^(−8(h+1)/H).
double alibi_slope(size_t head, size_t num_heads);

// ---- RoPE (Hugging Face Llama's rotate_half form) --------------------------------------------
// For a head of d features (d even), frequency i < d/2 turns by angle p·base^(−2i/d) at position p:
//   x'[i] = x[i]·cos − x[i + d/2]·sin,   x'[i + d/2] = x[i + d/2]·cos + x[i]·sin.
// The inverse rotation (angle −θ) is the transpose, so it carries a gradient of x' back to x.

// Floats of scratch rope_rotate_rows needs: the cosines and sines of one position.
inline size_t rope_scratch_floats(size_t d) { return d; }

// x: rows × (heads · d) at row stride ld, each row at position positions[r] (or first_position + r
// when positions is null). Rotates every head of every row in place; angles in double, so a
// position of 10⁵ loses nothing to float32 before the cosine.
void rope_rotate_rows(float* x, size_t rows, size_t ld, size_t heads, size_t d,
                      const double* positions, double first_position, double base, bool inverse,
                      float* scratch);

// The lesson function attn.rope: x (items × T × d, contiguous) rotated in place, row t of every
// item at positions[t] (0, 1, … when null). Checks d even, the base positive and finite and the
// positions finite. scratch: rope_scratch_floats(d).
Status rope_rotate(float* x, size_t items, size_t T, size_t d, const double* positions, double base,
                   float* scratch);

}  // namespace attn
