#!/usr/bin/python3
"""Reference gradients for the JS API tests, computed with PyTorch autograd in float64.

Run from the repository root (`npm run reference` runs it after generate_reference.py). Output:
tests/data/grad-reference.json, read by tests/js/grad-reference.test.mjs. The tensor conventions
are generate_reference.py's: {shape, data} row-major, float32 inputs with 9 significant digits,
bool masks 0/1 with 1 = hidden and "dtype": "bool", "-Infinity" strings for -inf.

Every case records the inputs, gradOutput (dO, float32 values) and, for L = sum(output * dO),
the float64 gradients autograd gives. A row whose every key is hidden is, by the API's contract,
all-zero output with zero gradient; torch's softmax gives NaN there, so the reference zeroes such
rows explicitly (softmax of a finite stand-in, multiplied by 0), which autograd turns into exact
zero gradients.
"""

import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_helpers import (  # noqa: E402
    ROOT, MhaCase, drawn, hidden_keys, randn32, sdpa_inputs, sdpa_options, tensor, visible_mask,
    write_json)

OUT_PATH = os.path.join(ROOT, "tests", "data", "grad-reference.json")


def leaf(t):
    return t.detach().clone().double().requires_grad_(True)


def sdpa_with_grads(q, k, v, d_out, causal=False, mask=None, bias=None, key_padding_mask=None,
                    scale=None):
    """Forward and float64 autograd backward of the textbook attention formula."""
    q, k, v = leaf(q), leaf(k), leaf(v)
    n, dk = q.shape[-2], q.shape[-1]
    m = k.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(dk)
    pre = q @ k.transpose(-2, -1) * scale
    if bias is not None:
        # -inf entries of a bias hide keys; they are not learnable, so hide them with the masks.
        finite_bias = torch.where(torch.isinf(bias), torch.zeros_like(bias), bias)
        pre = pre + finite_bias
    pre.retain_grad()  # its gradient is dS, the gradient of the scaled, masked scores
    hidden = hidden_keys(q.shape[:-2], n, m, causal, mask, key_padding_mask)
    if bias is not None:
        hidden = hidden | torch.isinf(bias)
    full = hidden.all(dim=-1, keepdim=True)
    masked = pre.masked_fill(hidden, float("-inf")).masked_fill(full, 0.0)
    weights = torch.softmax(masked, dim=-1) * (~full)
    output = weights @ v
    (output * d_out).sum().backward()
    return {"output": output, "weights": weights, "gradQ": q.grad, "gradK": k.grad, "gradV": v.grad,
            "gradScores": pre.grad, "fullyMaskedRows": [int(i) for i in torch.nonzero(full.reshape(-1)).reshape(-1)]}


def sdpa_cases():
    cases = []

    def add(name, seed, batch, n, m, dk, dv, causal=False, mask=None, bias=None, kpm=None,
            scale=None, description=""):
        q, k, v, gen = sdpa_inputs(seed, batch, n, m, dk, dv)
        d_out = randn32(gen, *batch, n, dv)
        mask_t, bias_t = drawn(mask, gen), drawn(bias, gen)
        ref = sdpa_with_grads(q, k, v, d_out, causal, mask_t, bias_t, kpm, scale)
        case = {"name": name, "description": description, "q": tensor(q), "k": tensor(k),
                "v": tensor(v), "gradOutput": tensor(d_out),
                "options": sdpa_options(causal, mask_t, bias_t, kpm, scale),
                "fullyMaskedRows": ref["fullyMaskedRows"]}
        for key in ("output", "weights", "gradQ", "gradK", "gradV", "gradScores"):
            case[key] = tensor(ref[key])
        cases.append(case)

    def randn(*shape):
        return lambda g: torch.randn(*shape, generator=g, dtype=torch.float32).double()

    add("grad_sdpa_plain_n1_m1_d1", 301, (), 1, 1, 1, 1,
        description="one key: weight 1, so dQ, dK and dS are 0 and dV = dO")
    add("grad_sdpa_plain_n3_m5_dk3_dv2", 302, (), 3, 5, 3, 2, description="n != m, dk != dv")
    add("grad_sdpa_plain_n5_m9_dk9_dv7", 303, (), 5, 9, 9, 7, description="sizes past the 4-wide vector")
    add("grad_sdpa_scale_0p3_n4_m6", 304, (), 4, 6, 5, 3, scale=0.3, description="custom scale")
    add("grad_sdpa_causal_n4_m4", 305, (), 4, 4, 6, 5, causal=True)
    add("grad_sdpa_causal_n3_m5", 306, (), 3, 5, 4, 4, causal=True, description="n < m: the last keys get no gradient")
    add("grad_sdpa_causal_n5_m3", 307, (), 5, 3, 4, 2, causal=True)
    add("grad_sdpa_mask_n4_m6", 308, (), 4, 6, 5, 5, mask=lambda g: visible_mask(g, (4, 6)),
        description="bool mask, true = hidden")
    add("grad_sdpa_bias_n4_m5", 309, (), 4, 5, 3, 4, bias=randn(4, 5),
        description="additive bias: its gradient is gradScores")
    add("grad_sdpa_bias_neg_inf_n3_m5", 310, (), 3, 5, 4, 3,
        bias=lambda g: torch.tensor([[0.0, -math.inf, 0.5, -1.0, 0.0],
                                     [-math.inf, -math.inf, 2.0, 0.0, -0.25],
                                     [1.0, 0.0, -math.inf, -math.inf, -math.inf]], dtype=torch.float64),
        description="-Infinity bias entries hide keys: zero gradient there")
    add("grad_sdpa_key_padding_n3_m6", 311, (), 3, 6, 4, 4,
        kpm=torch.tensor([False, False, False, False, True, True]))
    add("grad_sdpa_causal_bias_padding_n4_m6", 312, (), 4, 6, 5, 3, causal=True, bias=randn(4, 6),
        kpm=torch.tensor([False, True, False, False, False, True]), description="causal + bias + key padding")
    add("grad_sdpa_mask_bias_scale_n3_m7", 313, (), 3, 7, 6, 5, scale=0.3,
        mask=lambda g: visible_mask(g, (3, 7)), bias=randn(3, 7))
    add("grad_sdpa_batched_b2_n3_m4", 314, (2,), 3, 4, 5, 3)
    add("grad_sdpa_batched_b2x3_n2_m5", 315, (2, 3), 2, 5, 4, 6, description="two batch dimensions")
    add("grad_sdpa_batched_mask_b2_n3_m5", 316, (2,), 3, 5, 4, 3, mask=lambda g: visible_mask(g, (2, 3, 5)),
        description="per-batch bool mask [B, n, m]")
    add("grad_sdpa_batched_bias_b2_n3_m4", 317, (2,), 3, 4, 4, 2, bias=randn(2, 3, 4),
        description="per-batch bias [B, n, m]")
    add("grad_sdpa_batched_key_padding_b2_n3_m5", 318, (2,), 3, 5, 4, 3,
        kpm=torch.tensor([[False, False, False, True, True], [False, True, False, False, False]]))
    add("grad_sdpa_fully_masked_row_b2_n3_m4", 319, (2,), 3, 4, 4, 3,
        mask=torch.tensor([[[0, 1, 0, 0], [1, 1, 1, 1], [0, 0, 1, 0]],
                           [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0]]], dtype=torch.bool),
        kpm=torch.tensor([[False, False, False, False], [False, False, True, False]]),
        description="row 1 of batch 0 hides every key: zero output and zero gradient there")
    add("grad_sdpa_n17_m33_d17", 320, (), 17, 33, 17, 16, causal=True, bias=randn(17, 33),
        description="panel tails (16-wide) on every side")
    return cases


def mha_cases():
    cases = []

    def add(name, seed, embed_dim, num_heads, n, m, batch=2, bias=True, kdim=None, vdim=None,
            self_attention=False, causal=False, attn_mask=None, key_padding_mask=None, description=""):
        c = MhaCase(seed, embed_dim, num_heads, n, m, batch, bias, kdim, vdim, self_attention, causal,
                    attn_mask)
        d_out = torch.randn(*c.lead, n, embed_dim, dtype=torch.float32)
        module64 = c.module.double()
        # Separate leaves even for self-attention: the API gives each argument its own gradient.
        q, k, v = leaf(c.query), leaf(c.key), leaf(c.value)
        out, _ = module64(q, k, v, key_padding_mask=key_padding_mask, need_weights=False,
                          attn_mask=c.torch_mask())
        if torch.isnan(out).any():
            raise AssertionError(name + ": NaN output (a fully hidden row)")
        (out * d_out.double()).sum().backward()

        E = embed_dim
        if module64._qkv_same_embed_dim:
            g = module64.in_proj_weight.grad
            wq, wk, wv = g[:E].T, g[E:2 * E].T, g[2 * E:].T
        else:
            wq, wk, wv = (module64.q_proj_weight.grad.T, module64.k_proj_weight.grad.T,
                          module64.v_proj_weight.grad.T)
        grad_weights = {"wq": tensor(wq), "wk": tensor(wk), "wv": tensor(wv), "wo": tensor(module64.out_proj.weight.grad.T)}
        if bias:
            b = module64.in_proj_bias.grad
            grad_weights.update({"bq": tensor(b[:E]), "bk": tensor(b[E:2 * E]), "bv": tensor(b[2 * E:]),
                                 "bo": tensor(module64.out_proj.bias.grad)})
        cases.append({
            "name": name, "description": description, "config": c.config, "state": c.state,
            "selfAttention": self_attention, "query": tensor(c.query), "key": tensor(c.key),
            "value": tensor(c.value), "gradOutput": tensor(d_out), "options": c.options(key_padding_mask),
            "output": tensor(out), "gradQuery": tensor(q.grad), "gradKey": tensor(k.grad),
            "gradValue": tensor(v.grad), "gradWeights": grad_weights,
        })

    add("grad_mha_self_e8_h2_b2_n4", 401, 8, 2, 4, 4, self_attention=True,
        description="one tensor as query, key and value: three separate gradients")
    add("grad_mha_cross_e8_h4_b2_n3_m5", 402, 8, 4, 3, 5, description="cross-attention, n != m")
    add("grad_mha_nobias_e6_h3_b2_n4_m3", 403, 6, 3, 4, 3, bias=False, description="no biases")
    add("grad_mha_kdim5_vdim6_e8_h2_b2_n3_m4", 404, 8, 2, 3, 4, kdim=5, vdim=6)
    add("grad_mha_causal_self_e8_h2_b2_n5", 405, 8, 2, 5, 5, self_attention=True, causal=True)
    add("grad_mha_causal_cross_e8_h2_b3_n4_m6", 406, 8, 2, 4, 6, batch=3, causal=True)
    add("grad_mha_bool_mask_e8_h4_b2_n3_m5", 407, 8, 4, 3, 5,
        attn_mask=torch.tensor([[0, 1, 0, 0, 1], [1, 0, 0, 1, 0], [0, 0, 1, 0, 0]], dtype=torch.bool))
    add("grad_mha_float_mask_e8_h2_b2_n4_m4", 408, 8, 2, 4, 4, self_attention=True,
        attn_mask=torch.tensor([[0.0, -1.5, 0.25, -math.inf], [0.5, 0.0, -math.inf, 1.0],
                                [-0.75, 2.0, 0.0, -0.5], [-math.inf, 0.0, 0.3, 0.0]], dtype=torch.float32))
    add("grad_mha_key_padding_e8_h2_b2_n3_m5", 409, 8, 2, 3, 5,
        key_padding_mask=torch.tensor([[False, False, False, True, True], [False, True, False, False, False]]))
    add("grad_mha_unbatched_cross_e8_h4_n3_m5", 410, 8, 4, 3, 5, batch=None,
        key_padding_mask=torch.tensor([False, False, True, False, False]), description="unbatched [n, E]")
    add("grad_mha_e20_h4_b2_n9_m7", 411, 20, 4, 9, 7, description="head size 5: past the vector width")
    return cases


def main():
    torch.set_num_threads(1)
    data = {
        "meta": {
            "generator": "scripts/reference/generate_grad_reference.py",
            "torch": torch.__version__,
            "notes": "Gradients of L = sum(output * gradOutput) by float64 autograd; MHA weight "
                     "gradients in the x·W layout (W [in, out]).",
        },
        "sdpa": sdpa_cases(),
        "mha": mha_cases(),
    }
    write_json(OUT_PATH, data, "%d sdpa, %d mha cases" % (len(data["sdpa"]), len(data["mha"])))

if __name__ == "__main__":
    main()
