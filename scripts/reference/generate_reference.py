#!/usr/bin/python3
"""Reference data for the JS API tests, computed independently with PyTorch and NumPy.

Run from the repository root:

    npm run reference
    # which runs: /usr/bin/python3 scripts/reference/generate_reference.py

It needs Debian's system Python (packages python3-torch 1.13 and python3-numpy); the data is
generated once and committed, neither is a runtime or test dependency. Output:
tests/data/torch-reference.json, read by tests/js/torch-reference.test.mjs.

Conventions of the JSON file:
- Every tensor is {"shape": [...], "data": [...]} in row-major order.
- Float32 inputs (and the float32 PyTorch weights) are stored with 9 significant digits, which
  round-trips a float32 exactly; outputs are float64 references rounded to 9 digits.
- -Infinity (allowed in additive masks) is stored as the string "-Infinity", because JSON has no
  infinities.
- Boolean masks are stored as 0/1 with 1 = hidden (PyTorch's bool-mask convention) and carry
  "dtype": "bool", which tells them from float (additive) masks.
- NumPy RNG values are stored at full double precision (Python's repr round-trips): the JS RNG must
  reproduce them bit for bit.
"""

import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_helpers import (  # noqa: E402
    ROOT, MhaCase, bool_tensor, drawn, exact_tensor, hidden_keys, sdpa_inputs, sdpa_options, tensor,
    visible_mask, write_json)

OUT_PATH = os.path.join(ROOT, "tests", "data", "torch-reference.json")


# --------------------------------------------------------------------------------------------
# 1. Scaled dot-product attention.
# torch 1.13 has no F.scaled_dot_product_attention, so the reference is the textbook formula in
# explicit float64 torch ops: softmax(q @ k^T * scale + bias, hidden -> -inf) @ v.
# --------------------------------------------------------------------------------------------

def sdpa_reference(q, k, v, causal=False, mask=None, bias=None, key_padding_mask=None, scale=None):
    n, dk = q.shape[-2], q.shape[-1]
    m = k.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(dk)
    scores = q @ k.transpose(-2, -1)
    scaled = scores * scale
    hidden = hidden_keys(q.shape[:-2], n, m, causal, mask, key_padding_mask)
    masked = scaled.clone()
    if bias is not None:
        masked = masked + bias
    masked = masked.masked_fill(hidden, float("-inf"))
    weights = torch.softmax(masked, dim=-1)
    output = weights @ v
    return {"scores": scores, "scaled": scaled, "masked": masked, "weights": weights, "output": output}


def sdpa_cases():
    cases = []

    def add(name, seed, batch, n, m, dk, dv, causal=False, mask=None, bias=None, kpm=None,
            scale=None, trace=False, description=""):
        q, k, v, gen = sdpa_inputs(seed, batch, n, m, dk, dv)
        mask_t, bias_t, kpm_t = drawn(mask, gen), drawn(bias, gen), drawn(kpm, gen)
        ref = sdpa_reference(q, k, v, causal, mask_t, bias_t, kpm_t, scale)
        if torch.isnan(ref["output"]).any():
            raise AssertionError(name + ": a fully hidden row; torch gives NaN there")
        case = {
            "name": name,
            "description": description,
            "q": tensor(q), "k": tensor(k), "v": tensor(v),
            "options": sdpa_options(causal, mask_t, bias_t, kpm_t, scale),
            "output": tensor(ref["output"]),
            "weights": tensor(ref["weights"]),
            "fullyMaskedRows": [],
        }
        if trace:
            case["trace"] = {key: tensor(ref[key]) for key in ("scores", "scaled", "masked")}
        cases.append(case)

    # Sizes below, equal to and above the 4-wide vector, so every tail path runs.
    add("sdpa_plain_n1_m1_d1", 101, (), 1, 1, 1, 1, description="single query, single key: weight 1")
    add("sdpa_plain_n3_m5_dk3_dv2", 102, (), 3, 5, 3, 2)
    add("sdpa_plain_n4_m4_d4", 103, (), 4, 4, 4, 4)
    add("sdpa_plain_n5_m9_dk9_dv7", 104, (), 5, 9, 9, 7, trace=True,
        description="also records the trace: scores = q k^T, scaled, masked")
    add("sdpa_plain_n8_m16_dk16_dv8", 105, (), 8, 16, 16, 8)
    add("sdpa_scale_1_n4_m6", 106, (), 4, 6, 5, 3, scale=1.0)
    add("sdpa_scale_0p3_n4_m6", 107, (), 4, 6, 5, 3, scale=0.3)
    add("sdpa_causal_n4_m4", 108, (), 4, 4, 6, 5, causal=True)
    add("sdpa_causal_n3_m5", 109, (), 3, 5, 4, 4, causal=True,
        description="n < m: top-left aligned, keys j > i hidden; the last keys are never seen")
    add("sdpa_causal_n5_m3", 110, (), 5, 3, 4, 2, causal=True, trace=True,
        description="n > m: rows i >= m see every key")
    add("sdpa_mask_n4_m6", 111, (), 4, 6, 5, 5, mask=lambda g: visible_mask(g, (4, 6)), trace=True,
        description="bool mask, true = hidden")
    add("sdpa_bias_n4_m5", 112, (), 4, 5, 3, 4,
        bias=lambda g: torch.randn(4, 5, generator=g, dtype=torch.float32).double(),
        description="additive float bias")
    add("sdpa_bias_neg_inf_n3_m5", 113, (), 3, 5, 4, 3,
        bias=lambda g: torch.tensor([[0.0, -math.inf, 0.5, -1.0, 0.0],
                                     [-math.inf, -math.inf, 2.0, 0.0, -0.25],
                                     [1.0, 0.0, -math.inf, -math.inf, -math.inf]], dtype=torch.float64),
        trace=True, description="bias with -Infinity entries hides those keys")
    add("sdpa_key_padding_n3_m6", 114, (), 3, 6, 4, 4,
        kpm=torch.tensor([False, False, False, False, True, True]),
        description="key padding mask [m], true = padding")
    add("sdpa_causal_mask_n5_m5", 115, (), 5, 5, 4, 3, causal=True,
        mask=torch.tensor([[0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 1, 0, 1, 1], [1, 0, 1, 0, 0],
                           [0, 0, 0, 0, 1]], dtype=torch.bool))
    add("sdpa_causal_bias_padding_n4_m6", 116, (), 4, 6, 5, 3, causal=True,
        bias=lambda g: torch.randn(4, 6, generator=g, dtype=torch.float32).double(),
        kpm=torch.tensor([False, True, False, False, False, True]),
        description="causal + bias + key padding")
    add("sdpa_mask_bias_scale_n3_m7", 117, (), 3, 7, 6, 5, scale=0.3,
        mask=lambda g: visible_mask(g, (3, 7)),
        bias=lambda g: torch.randn(3, 7, generator=g, dtype=torch.float32).double())
    add("sdpa_batched_b2_n3_m4", 118, (2,), 3, 4, 5, 3)
    add("sdpa_batched_b2x3_n2_m5", 119, (2, 3), 2, 5, 4, 6, description="two batch dimensions")
    add("sdpa_batched_causal_b2_n4_m3", 120, (2,), 4, 3, 4, 4, causal=True)
    add("sdpa_batched_mask_b2_n3_m5", 121, (2,), 3, 5, 4, 3, mask=lambda g: visible_mask(g, (2, 3, 5)),
        description="per-batch bool mask [B, n, m]")
    add("sdpa_batched_shared_mask_b3_n3_m4", 122, (3,), 3, 4, 4, 2, mask=lambda g: visible_mask(g, (3, 4)),
        description="mask [n, m] broadcast over the batch")
    add("sdpa_batched_key_padding_b2_n3_m5", 123, (2,), 3, 5, 4, 3,
        kpm=torch.tensor([[False, False, False, True, True], [False, True, False, False, False]]),
        description="key padding mask [B, m]")
    add("sdpa_batched_all_b2_n4_m6", 124, (2,), 4, 6, 8, 5, causal=True, scale=0.5,
        mask=torch.tensor([[[0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0]],
                           [[0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 1, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0]]],
                          dtype=torch.bool),
        bias=lambda g: torch.randn(4, 6, generator=g, dtype=torch.float32).double(),
        kpm=torch.tensor([[False, False, False, False, False, True], [False, False, True, False, True, True]]),
        description="causal + per-batch mask + shared bias + key padding + scale")

    # One explicit fully hidden row. Torch's softmax over an all -inf row gives NaN; the API
    # defines that row's weights and output as zeros and lists it in fullyMaskedRows, so this
    # script replaces the NaN rows with 0 and records their flattened row indices.
    batch, n, m, dk, dv = (2,), 3, 4, 4, 3
    q, k, v, _ = sdpa_inputs(125, batch, n, m, dk, dv)
    mask = torch.tensor([[[0, 1, 0, 0], [1, 1, 1, 1], [0, 0, 1, 0]],
                         [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0]]], dtype=torch.bool)
    kpm = torch.tensor([[False, False, False, False], [False, False, True, False]])
    ref = sdpa_reference(q, k, v, mask=mask, key_padding_mask=kpm)
    weights = ref["weights"].reshape(-1, m)
    output = ref["output"].reshape(-1, dv)
    nan_rows = [r for r in range(weights.shape[0]) if bool(torch.isnan(weights[r]).any())]
    assert nan_rows == [1], nan_rows
    weights[nan_rows] = 0.0
    output[nan_rows] = 0.0
    cases.append({
        "name": "sdpa_fully_masked_row_b2_n3_m4",
        "description": "row 1 of batch 0 hides every key: weights and output are zeros there "
                       "(torch gives NaN; replaced by 0 in the generator)",
        "q": tensor(q), "k": tensor(k), "v": tensor(v),
        "options": {"mask": bool_tensor(mask), "keyPaddingMask": bool_tensor(kpm)},
        "output": tensor(output.reshape(*batch, n, dv)),
        "weights": tensor(weights.reshape(*batch, n, m)),
        "fullyMaskedRows": nan_rows,
    })
    return cases


# --------------------------------------------------------------------------------------------
# 2. torch.nn.MultiheadAttention, batch_first, eval mode, no grad.
# Weights come from the module's own seeded init (biases start at zero there, so they are then
# drawn at random to make them count). The float32 state dict is recorded; the reference output
# runs a float64 copy of the same module, so it is not limited by float32 rounding.
# --------------------------------------------------------------------------------------------

def mha_cases():
    cases = []

    def add(name, seed, embed_dim, num_heads, n, m, batch=2, bias=True, kdim=None, vdim=None,
            self_attention=False, causal=False, attn_mask=None, key_padding_mask=None,
            need_weights=True, average=True, description=""):
        c = MhaCase(seed, embed_dim, num_heads, n, m, batch, bias, kdim, vdim, self_attention, causal,
                    attn_mask(n, m) if callable(attn_mask) else attn_mask)
        c.module.eval()
        parameter_count = sum(p.numel() for p in c.module.parameters())
        module64 = c.module.double()
        with torch.no_grad():
            out, weights = module64(c.query.double(), c.key.double(), c.value.double(),
                                    key_padding_mask=key_padding_mask, need_weights=need_weights,
                                    attn_mask=c.torch_mask(), average_attn_weights=average)
        if torch.isnan(out).any():
            raise AssertionError(name + ": NaN output (a fully hidden row)")

        cases.append({
            "name": name,
            "description": description,
            "config": c.config,
            "parameterCount": parameter_count,
            "state": c.state,
            "selfAttention": self_attention,
            "query": tensor(c.query), "key": tensor(c.key), "value": tensor(c.value),
            "options": c.options(key_padding_mask, needWeights=need_weights, averageWeights=average),
            "output": tensor(out),
            "weights": tensor(weights) if weights is not None else None,
        })

    add("mha_self_e8_h2_b2_n4", 201, 8, 2, 4, 4, self_attention=True)
    add("mha_self_e8_h2_b2_n4_per_head", 202, 8, 2, 4, 4, self_attention=True, average=False,
        description="average_attn_weights=False: weights [B, h, n, m]")
    add("mha_cross_e8_h4_b2_n3_m5", 203, 8, 4, 3, 5)
    add("mha_cross_e12_h3_b2_n5_m2_per_head", 204, 12, 3, 5, 2, average=False)
    add("mha_kdim5_vdim6_e8_h2_b2_n3_m4", 205, 8, 2, 3, 4, kdim=5, vdim=6,
        description="kdim/vdim != embed_dim: separate q/k/v projection weights")
    add("mha_kdim3_vdim7_e6_h3_b2_n2_m5_nobias", 206, 6, 3, 2, 5, kdim=3, vdim=7, bias=False)
    add("mha_nobias_e6_h3_b2_n4_m3", 207, 6, 3, 4, 3, bias=False)
    add("mha_causal_self_e8_h2_b2_n5", 208, 8, 2, 5, 5, self_attention=True, causal=True)
    add("mha_causal_cross_e8_h2_b2_n4_m6", 209, 8, 2, 4, 6, causal=True, average=False)
    add("mha_bool_mask_e8_h4_b2_n3_m5", 210, 8, 4, 3, 5,
        attn_mask=torch.tensor([[0, 1, 0, 0, 1], [1, 0, 0, 1, 0], [0, 0, 1, 0, 0]], dtype=torch.bool),
        average=False)
    add("mha_float_mask_e8_h2_b2_n4_m4", 211, 8, 2, 4, 4, self_attention=True,
        attn_mask=torch.tensor([[0.0, -1.5, 0.25, -math.inf], [0.5, 0.0, -math.inf, 1.0],
                                [-0.75, 2.0, 0.0, -0.5], [-math.inf, 0.0, 0.3, 0.0]], dtype=torch.float32),
        description="float attn_mask is added to the scores; -Infinity hides")
    add("mha_key_padding_e8_h2_b2_n3_m5", 212, 8, 2, 3, 5,
        key_padding_mask=torch.tensor([[False, False, False, True, True], [False, True, False, False, False]]))
    add("mha_bool_mask_key_padding_e8_h2_b2_n4_m5_per_head", 213, 8, 2, 4, 5,
        attn_mask=torch.tensor([[0, 0, 1, 0, 0], [0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1]],
                               dtype=torch.bool),
        key_padding_mask=torch.tensor([[False, False, False, False, True], [True, False, False, False, False]]),
        average=False)
    add("mha_float_mask_key_padding_e8_h4_b2_n3_m4", 214, 8, 4, 3, 4,
        attn_mask=torch.tensor([[0.1, -0.2, 0.3, 0.0], [-1.0, 0.0, 0.5, 0.25], [0.0, 0.7, -0.4, 0.2]],
                               dtype=torch.float32),
        key_padding_mask=torch.tensor([[False, False, True, False], [False, False, False, True]]))
    add("mha_no_weights_e8_h2_b2_n4_m3", 215, 8, 2, 4, 3, need_weights=False,
        description="need_weights=False: output only")
    add("mha_no_weights_self_e8_h2_b2_n4", 216, 8, 2, 4, 4, self_attention=True, need_weights=False)
    add("mha_unbatched_self_e8_h2_n4", 217, 8, 2, 4, 4, batch=None, self_attention=True,
        description="unbatched (n, E) input: output (n, E), weights (n, m)")
    add("mha_unbatched_cross_e8_h4_n3_m5_per_head", 218, 8, 4, 3, 5, batch=None, average=False,
        key_padding_mask=torch.tensor([False, False, True, False, False]),
        description="unbatched with key padding mask (m,): weights (h, n, m)")
    add("mha_unbatched_kdim4_vdim3_e4_h1_n2_m3", 219, 4, 1, 2, 3, batch=None, kdim=4, vdim=3)
    add("mha_e16_h4_b2_n9_m7", 220, 16, 4, 9, 7, description="sizes past the vector width")
    return cases


# --------------------------------------------------------------------------------------------
# 3. NumPy legacy RNG (MT19937 + polar Box-Muller with a cached second gaussian).
# --------------------------------------------------------------------------------------------

def rng_cases():
    sequences = [
        ("rng_seed0_randn5", 0, [("randn", [5])]),
        ("rng_seed0_rand2x3", 0, [("rand", [2, 3])]),
        ("rng_seed42_lesson", 42, [("randn", [4, 8]), ("randn", [8, 4]), ("randn", [8, 4]), ("randn", [8, 4])]),
        ("rng_seed42_rand4", 42, [("rand", [4])]),
        ("rng_seed_max_randn4", 2 ** 32 - 1, [("randn", [4]), ("rand", [3])]),
        ("rng_seed7_odd_randn3_randn2", 7, [("randn", [3]), ("randn", [2])]),
        ("rng_seed7_odd_randn1x5", 7, [("randn", [1]), ("randn", [1]), ("randn", [1]), ("randn", [1]), ("randn", [1])]),
        ("rng_seed123_mixed", 123, [("randn", [3]), ("rand", [2]), ("randn", [1]), ("rand", [1, 3]), ("randn", [2, 3])]),
        ("rng_seed1_rand_then_randn", 1, [("rand", [5]), ("randn", [3, 3]), ("rand", [2, 2])]),
        ("rng_seed2024_randn_3d", 2024, [("randn", [2, 3, 5])]),
    ]
    cases = []
    for name, seed, calls in sequences:
        np.random.seed(seed)
        recorded = []
        for fn, shape in calls:
            values = getattr(np.random, fn)(*shape)
            recorded.append({"fn": fn, "shape": shape, "data": [float(x) for x in np.asarray(values).reshape(-1)]})
        cases.append({"name": name, "seed": seed, "calls": recorded})
    return cases


# --------------------------------------------------------------------------------------------
# 4. The lesson example end to end, all in float64 NumPy.
# --------------------------------------------------------------------------------------------

def lesson_case():
    np.random.seed(42)
    X = np.random.randn(4, 8)
    Wq, Wk, Wv = [np.random.randn(8, 4) for _ in range(3)]
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(4)
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=1, keepdims=True)
    return {
        "name": "lesson_seed42_x4x8_w8x4",
        "description": "np.random.seed(42); X = randn(4, 8); Wq, Wk, Wv = [randn(8, 4) for _ in range(3)]; "
                       "Q = X @ Wq, ...; weights = softmax(Q K^T / sqrt(4)); output = weights @ V",
        "seed": 42,
        "X": exact_tensor(X), "Wq": exact_tensor(Wq), "Wk": exact_tensor(Wk), "Wv": exact_tensor(Wv),
        "Q": exact_tensor(Q), "K": exact_tensor(K), "V": exact_tensor(V),
        "weights": exact_tensor(weights),
        "output": exact_tensor(weights @ V),
    }


def main():
    torch.set_num_threads(1)
    data = {
        "meta": {
            "generator": "scripts/reference/generate_reference.py",
            "torch": torch.__version__,
            "numpy": np.__version__,
            "notes": "Tensors are {shape, data} row-major; bool masks 0/1 with 1 = hidden; "
                     "\"-Infinity\" strings stand for -inf; RNG doubles are exact.",
        },
        "sdpa": sdpa_cases(),
        "mha": mha_cases(),
        "rng": rng_cases(),
        "lesson": lesson_case(),
    }
    write_json(OUT_PATH, data, "%d sdpa, %d mha, %d rng cases + lesson"
               % (len(data["sdpa"]), len(data["mha"]), len(data["rng"])))

if __name__ == "__main__":
    main()
