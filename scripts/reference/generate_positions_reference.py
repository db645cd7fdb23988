#!/usr/bin/python3
"""Reference data for positions and efficient inference, computed with PyTorch in float64.

Run from the repository root (`npm run reference` runs every generator):

    /usr/bin/python3 scripts/reference/generate_positions_reference.py

Needs Debian's system Python with python3-torch 1.13 and python3-numpy; neither is a test or
runtime dependency. Output: tests/data/positions-reference.json, read by
tests/js/transformer-positions.test.mjs (and the decoder, rope and FlashAttention tests).

The model is generate_transformer_reference.py's GPT-2 (plain torch, float64) with what this file
adds inside attention, each written here from its published definition:
  - positions 'rope' (no wpe): q and k of every head are rotated after c_attn (bias included) as
    Hugging Face Llama does: inv_freq_i = ropeBase^(-2i/d), angle = p * inv_freq, cos/sin repeated
    over both halves, x' = x*cos + rotate_half(x)*sin with rotate_half(x) = [-x2, x1].
  - positions 'alibi' (no wpe): -slope_h * (i - j) is added to the scaled scores of head h, with
    the slopes of BLOOM's build_alibi_tensor (alibi_slopes below follows its code line by line).
  - numKVHeads: c_attn.weight is [E, E + 2*numKVHeads*d] (q, then k, then v columns); key/value
    head g serves query heads g*H/KV ... (g+1)*H/KV - 1, as Hugging Face's repeat_kv.
  - attentionWindow W: query i sees keys i - W < j <= i (Mistral's sliding window).
Everything else (JSON conventions, float32Deviation, zeroGradient, the Adam runs) is as in
generate_transformer_reference.py, whose helpers this file imports.

Further sections, each documented where it is built: decoding (greedy generation as an argmax
loop over full forwards, sampling with NumPy's generator, and a sliding-window model run far past
its contextLength), attn.rope, the FlashAttention trace, and scaled dot-product / multi-head
attention with a window and PyTorch's causal_lower_right alignment.
"""

import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate_transformer_reference as base  # noqa: E402
from reference_helpers import ROOT, write_json  # noqa: E402
from reference_helpers import rounded as rounded_or_infinity  # noqa: E402  (-inf as "-Infinity")

OUT_PATH = os.path.join(ROOT, "tests", "data", "positions-reference.json")
rounded, tensor_json = base.rounded, base.tensor_json


# ---- Positions inside attention ----------------------------------------------------------------

def rope_cos_sin(positions, d, rope_base):
    """Hugging Face Llama's rotary tables for float64 positions [T]: cos, sin of shape [T, d]."""
    inv_freq = 1.0 / (rope_base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    freqs = positions.double()[:, None] * inv_freq[None, :]
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def apply_rope(x, cos, sin):
    """x [..., T, d]; cos, sin [T, d]."""
    return x * cos + rotate_half(x) * sin


def alibi_slopes(num_heads):
    """BLOOM's build_alibi_tensor slopes, in float64."""
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    b = 2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3)))
    slopes = [b ** p for p in range(1, 1 + closest_power_of_2)]
    if closest_power_of_2 != num_heads:
        extra_base = 2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3)))
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        slopes += [extra_base ** p for p in range(1, 1 + 2 * num_remaining_heads, 2)]
    return torch.tensor(slopes, dtype=torch.float64)


def visible(n, m, causal=True, window=None, offset=0):
    """Bool [n, m]: query i (at key position i + offset) may see key j."""
    i = torch.arange(n).unsqueeze(1) + offset
    j = torch.arange(m).unsqueeze(0)
    ok = torch.ones(n, m, dtype=torch.bool)
    if causal:
        ok &= j <= i
    if window is not None:
        ok &= j > i - window
    return ok


def check_positions():
    """Guards on this file: RoPE equals a complex rotation; the slopes equal the paper's closed form."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(5, 8, dtype=torch.float64, generator=g)
    p = torch.tensor([0.0, 1.0, 7.0, 100.0, 4096.0], dtype=torch.float64)
    cos, sin = rope_cos_sin(p, 8, 10000.0)
    z = torch.complex(x[:, :4], x[:, 4:]) * torch.polar(torch.ones(5, 4, dtype=torch.float64),
                                                        p[:, None] / 10000.0 ** (torch.arange(0, 8, 2) / 8.0))
    assert torch.allclose(apply_rope(x, cos, sin), torch.cat([z.real, z.imag], -1), atol=1e-12)
    for H in (1, 2, 4, 8, 16):
        assert torch.allclose(alibi_slopes(H), 2.0 ** (-8.0 * torch.arange(1, H + 1, dtype=torch.float64) / H))


# ---- The model ---------------------------------------------------------------------------------

def kv_heads(cfg):
    return cfg.get("numKVHeads") or cfg["numHeads"]


def qkv_width(cfg):
    E, H = cfg["dModel"], cfg["numHeads"]
    return E + 2 * kv_heads(cfg) * (E // H)


def state_names(cfg):
    """generate_transformer_reference's names, with c_attn [E, E + 2*KV*d]."""
    names = []
    for name, shape in base.state_names(cfg):
        if name.endswith("attn.c_attn.weight"):
            shape = [cfg["dModel"], qkv_width(cfg)]
        elif name.endswith("attn.c_attn.bias"):
            shape = [qkv_width(cfg)]
        names.append((name, shape))
    return names


def random_state(cfg, rng):
    state = {}
    for name, shape in state_names(cfg):
        if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            a = 1.0 + 0.2 * rng.standard_normal(shape)
        elif name in ("wte.weight", "wpe.weight", "lm_head.weight"):
            a = 0.8 * rng.standard_normal(shape)
        elif name.endswith(".bias"):
            a = 0.1 * rng.standard_normal(shape)
        else:
            a = rng.standard_normal(shape) / math.sqrt(shape[0])
        state[name] = a.astype(np.float32).astype(np.float64)
    return state


def attention(cfg, qkv, B, T):
    """qkv [B, T, E + 2*KV*d] -> concat [B, T, E] and the weights [B, H, T, T]."""
    E, H = cfg["dModel"], cfg["numHeads"]
    KV, d = kv_heads(cfg), E // H
    q, k, v = qkv.split([E, KV * d, KV * d], dim=-1)
    q = q.reshape(B, T, H, d).transpose(1, 2)
    k = k.reshape(B, T, KV, d).transpose(1, 2)
    v = v.reshape(B, T, KV, d).transpose(1, 2)
    if cfg["positions"] == "rope":
        cos, sin = rope_cos_sin(torch.arange(T, dtype=torch.float64), d, cfg.get("ropeBase", 10000.0))
        cos, sin = cos.to(q.dtype), sin.to(q.dtype)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
    k = k.repeat_interleave(H // KV, dim=1)  # repeat_kv: query head h reads key/value head h // (H / KV)
    v = v.repeat_interleave(H // KV, dim=1)
    scores = (q @ k.transpose(-1, -2)) / math.sqrt(d)
    if cfg["positions"] == "alibi":
        distance = (torch.arange(T).unsqueeze(1) - torch.arange(T).unsqueeze(0)).double()
        scores = scores - alibi_slopes(H).to(scores.dtype)[:, None, None] * distance.to(scores.dtype)
    scores = scores.masked_fill(~visible(T, T, True, cfg.get("attentionWindow")), float("-inf"))
    w = torch.softmax(scores, dim=-1)
    return (w @ v).transpose(1, 2).reshape(B, T, E), w


def forward(cfg, P, tokens):
    """tokens: LongTensor [B, T] -> logits [B, T, V], attentions (one [B, H, T, T] per layer)."""
    B, T = tokens.shape
    x = P["wte.weight"][tokens]
    if cfg["positions"] == "learned":
        x = x + P["wpe.weight"][:T].unsqueeze(0)
    attentions = []
    for i in range(cfg["numLayers"]):
        p = "h.%d." % i
        a = base.layer_norm(x, P[p + "ln_1.weight"], P[p + "ln_1.bias"]) if cfg["layerNorm"] else x
        qkv = a @ P[p + "attn.c_attn.weight"] + P[p + "attn.c_attn.bias"]
        concat, w = attention(cfg, qkv, B, T)
        attentions.append(w)
        x = x + concat @ P[p + "attn.c_proj.weight"] + P[p + "attn.c_proj.bias"]
        if cfg["mlp"]:
            m = base.layer_norm(x, P[p + "ln_2.weight"], P[p + "ln_2.bias"]) if cfg["layerNorm"] else x
            hdn = base.gelu_tanh(m @ P[p + "mlp.c_fc.weight"] + P[p + "mlp.c_fc.bias"])
            x = x + hdn @ P[p + "mlp.c_proj.weight"] + P[p + "mlp.c_proj.bias"]
    if cfg["layerNorm"]:
        x = base.layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    U = P["wte.weight"] if cfg["tieEmbeddings"] else P["lm_head.weight"]
    return x @ U.t(), attentions


def zero_gradient(cfg):
    """The key bias: a constant added to every key score of a query leaves its softmax unchanged.
    With RoPE the bias is turned by each key's own angle, so it is no longer constant."""
    if cfg["positions"] == "rope":
        return []
    E, d = cfg["dModel"], cfg["dModel"] // cfg["numHeads"]
    return [{"name": "h.%d.attn.c_attn.bias" % i, "start": E, "end": E + kv_heads(cfg) * d}
            for i in range(cfg["numLayers"])]


def make_case(name, cfg, batch, seq, opt, seed):
    rng = np.random.RandomState(seed)
    state = random_state(cfg, rng)
    V = cfg["vocabSize"]
    tokens = rng.randint(0, V, size=(batch, seq))
    targets = rng.randint(0, V, size=(batch, seq))
    targets[rng.rand(batch, seq) < 0.25] = -1
    targets[0, 0] = -1
    ref = base.run(cfg, state, tokens, targets, opt, torch.float64)
    f32 = base.run(cfg, state, tokens, targets, opt, torch.float32)
    zero = zero_gradient(cfg)
    dev = base.max_dev
    deviation = {
        "logits": dev(ref["logits"], f32["logits"]),
        "attentions": max(dev(a, b) for a, b in zip(ref["attentions"], f32["attentions"])),
        "loss": abs(ref["loss"] - f32["loss"]),
        "grads": {n: dev(ref["grads"][n], f32["grads"][n]) for n in state},
        "after": {n: dev(ref["after"][n], f32["after"][n]) for n in state},
    }
    for z in zero:
        keep = np.ones(qkv_width(cfg), dtype=bool)
        keep[z["start"]:z["end"]] = False
        deviation["after"][z["name"]] = dev(ref["after"][z["name"]][keep], f32["after"][z["name"]][keep])
    return {
        "name": name,
        "config": cfg,
        "state": {n: tensor_json(a) for n, a in state.items()},
        "tokens": tokens.tolist(),
        "targets": targets.tolist(),
        "logits": tensor_json(ref["logits"]),
        "attentions": [tensor_json(a) for a in ref["attentions"]],
        "loss": rounded(ref["loss"]),
        "grads": {n: tensor_json(g) for n, g in ref["grads"].items()},
        "optimizer": opt,
        "steps": {
            "losses": [rounded(x) for x in ref["losses"]],
            "gradNorms": [rounded(x) for x in ref["gradNorms"]],
            "after": {n: tensor_json(a) for n, a in ref["after"].items()},
        },
        "zeroGradient": zero,
        "float32Deviation": deviation,
    }


def config(V, T, E, L, H, positions, mlp=True, layer_norm=True, tied=True, **extra):
    c = {"vocabSize": V, "contextLength": T, "dModel": E, "numLayers": L, "numHeads": H,
         "mlp": mlp, "layerNorm": layer_norm, "positions": positions, "tieEmbeddings": tied}
    c.update(extra)
    return c


def model_cases():
    adam = base.adam
    return [
        make_case("rope, four heads", config(11, 8, 8, 2, 4, "rope"), 2, 7, adam(), 11),
        make_case("rope with ropeBase 100 and head dimension 4, GQA (4 query heads, 2 key/value heads), untied",
                  config(11, 7, 16, 1, 4, "rope", tied=False, ropeBase=100.0, numKVHeads=2), 2, 7,
                  adam(lr=3e-3), 12),
        make_case("alibi, four heads (a power of two)", config(11, 8, 8, 2, 4, "alibi"), 2, 8, adam(), 13),
        make_case("alibi, six heads (not a power of two), attention-only",
                  config(11, 7, 12, 2, 6, "alibi", mlp=False), 2, 7, adam(), 14),
        make_case("MQA (one key/value head), learned positions",
                  config(11, 7, 8, 2, 4, "learned", numKVHeads=1), 2, 7, adam(), 15),
        make_case("sliding window of 3, learned positions; AdamW with clipping",
                  config(11, 8, 8, 2, 2, "learned", attentionWindow=3), 2, 8,
                  adam(weight_decay=0.1, clip=0.5), 16),
        make_case("window 2, no positions, no LayerNorm",
                  config(9, 6, 8, 1, 2, "none", layer_norm=False, attentionWindow=2), 2, 6, adam(), 17),
        make_case("all together: rope (ropeBase 500), GQA 4/2, window 3, untied",
                  config(11, 9, 8, 2, 4, "rope", tied=False, ropeBase=500.0, numKVHeads=2,
                         attentionWindow=3), 2, 9, adam(), 18),
        make_case("all together: alibi, MQA, window 4, attention-only",
                  config(11, 8, 8, 2, 4, "alibi", mlp=False, numKVHeads=1, attentionWindow=4), 2, 8,
                  adam(), 19),
    ]


# ---- Decoding ----------------------------------------------------------------------------------
# Greedy generation is PyTorch's argmax loop over full forwards of the growing sequence (no cache:
# an independent route to the decoder's tokens). Sampling follows attn's documented rule with
# NumPy's generator: np.random.seed(seed), then per token u = np.random.rand(); p over the top-k
# logits (ties to lower ids) in id order, exp((logit - max) / temperature); the token is
# searchsorted(cumsum(p), u * sum(p), side='right'). Margins (the gap between the two best logits,
# the distance of u * sum(p) from a cumulative boundary) are asserted large enough that float32
# logits pick the same tokens.

def state_tensors(state):
    return {n: torch.tensor(a, dtype=torch.float64) for n, a in state.items()}


def last_logits(cfg, P, seq):
    return forward(cfg, P, torch.tensor([seq], dtype=torch.long))[0][0, -1]


def greedy(cfg, P, prompt, count):
    seq, margins = list(prompt), []
    for _ in range(count):
        logits = last_logits(cfg, P, seq)
        top2 = torch.topk(logits, 2).values
        margins.append(float(top2[0] - top2[1]))
        seq.append(int(torch.argmax(logits)))
    assert min(margins) > 1e-3, margins
    return seq


def sample(cfg, P, prompt, count, seed, temperature, top_k):
    np.random.seed(seed)
    seq, margin = list(prompt), 1.0
    for _ in range(count):
        u = np.random.rand()
        logits = last_logits(cfg, P, seq).numpy()
        order = sorted(range(len(logits)), key=lambda i: (-logits[i], i))
        kept = sorted(order[:top_k] if top_k else order)
        p = np.exp((logits[kept] - logits.max()) / temperature)
        cumulative = np.cumsum(p)
        target = u * cumulative[-1]
        seq.append(kept[int(np.searchsorted(cumulative, target, side="right"))])
        margin = min(margin, float(np.min(np.abs(cumulative - target)) / cumulative[-1]))
    assert margin > 1e-4, margin
    return seq


def long_case(name, cfg, seed, T):
    """A model with a sliding window decoded far past its contextLength: the full forward in
    PyTorch has no length limit without learned positions, so it gives every logit row."""
    rng = np.random.RandomState(seed)
    state = random_state(cfg, rng)
    tokens = rng.randint(0, cfg["vocabSize"], size=(1, T))
    logits, attentions = forward(cfg, state_tensors(state), torch.tensor(tokens, dtype=torch.long))
    return {"name": name, "config": cfg, "state": {n: tensor_json(a) for n, a in state.items()},
            "tokens": tokens[0].tolist(), "logits": tensor_json(logits[0]),
            "attentions": [tensor_json(a[0]) for a in attentions],
            "greedy": {"prompt": tokens[0, :3].tolist(), "tokens": greedy(cfg, state_tensors(state), tokens[0, :3].tolist(), 14)}}


def decoding_cases(cases):
    generation = []
    for index, prompt, seed, temperature, top_k in [(7, [3, 1, 4], 5, 0.8, 5), (2, [5, 9], 2, 1.5, None),
                                                    (4, [0, 7, 7], 11, 1.0, 3)]:
        c = cases[index]
        cfg, P = c["config"], state_tensors({n: np.array(t["data"]).reshape(t["shape"]) for n, t in c["state"].items()})
        count = cfg["contextLength"] - len(prompt)
        generation.append({
            "case": c["name"], "prompt": prompt,
            "greedy": greedy(cfg, P, prompt, count),
            "sampled": {"seed": seed, "temperature": temperature, "topK": top_k,
                        "tokens": sample(cfg, P, prompt, count, seed, temperature, top_k)},
        })
    long = [
        long_case("rope, GQA 4/2, window 4, contextLength 6, decoded to 20",
                  config(11, 6, 8, 2, 4, "rope", numKVHeads=2, attentionWindow=4, ropeBase=100.0), 31, 20),
        long_case("alibi, MQA, window 3, attention-only, contextLength 5, decoded to 18",
                  config(11, 5, 8, 2, 4, "alibi", mlp=False, numKVHeads=1, attentionWindow=3), 32, 18),
    ]
    return {"generation": generation, "long": long}


# ---- Scaled dot-product and multi-head attention with a window and lower-right alignment -------
# torch 1.13 has neither option, so the masks are built here from their definitions: query i sits at
# key position i + m - n under causal: 'lower-right' (PyTorch 2's causal_lower_right), and a window
# W keeps keys j > p - W, aligned as the causal mask is. A query that sees no key gets zero weights
# and a zero output, as attn.scaledDotProductAttention does (torch would give NaN).

def alignment(n, m, causal, window):
    offset = m - n if causal == "lower-right" else 0
    return visible(n, m, causal is not False, window, offset)


def safe_softmax(scores, ok):
    """Softmax over the visible keys; a row with none gets zeros (and zero gradients)."""
    empty = ~ok.any(-1, keepdim=True)
    scores = scores.masked_fill(~ok, float("-inf")).masked_fill(empty, 0.0)
    return torch.softmax(scores, dim=-1) * (~empty)


def sdpa_case(name, seed, lead, n, m, dk, dv, causal, window):
    gen = torch.Generator().manual_seed(seed)
    draw = lambda *shape: torch.randn(*shape, generator=gen, dtype=torch.float32).double()
    q, k, v = draw(*lead, n, dk), draw(*lead, m, dk), draw(*lead, m, dv)
    grad_output = draw(*lead, n, dv)
    for t in (q, k, v):
        t.requires_grad_(True)
    w = safe_softmax((q @ k.transpose(-1, -2)) / math.sqrt(dk), alignment(n, m, causal, window))
    out = w @ v
    out.backward(grad_output)
    options = {"causal": causal}
    if window is not None:
        options["window"] = window
    return {"name": name, "q": tensor_json(q), "k": tensor_json(k), "v": tensor_json(v),
            "gradOutput": tensor_json(grad_output), "options": options, "output": tensor_json(out),
            "weights": tensor_json(w), "gradQ": tensor_json(q.grad), "gradK": tensor_json(k.grad),
            "gradV": tensor_json(v.grad)}


def mha_case(name, seed, n, m, causal, window):
    torch.manual_seed(seed)
    E, H = 8, 2
    module = torch.nn.MultiheadAttention(E, H, batch_first=True).double()
    with torch.no_grad():
        module.in_proj_bias.normal_(0.0, 0.2)
        module.out_proj.bias.normal_(0.0, 0.2)
        for p in module.parameters():
            p.copy_(p.float().double())  # float32 values, as the JS layer holds them
    query = torch.randn(2, n, E, dtype=torch.float32).double().requires_grad_(True)
    key = query if n == m else torch.randn(2, m, E, dtype=torch.float32).double().requires_grad_(True)
    grad_output = torch.randn(2, n, E, dtype=torch.float32).double()
    out, weights = module(query, key, key, attn_mask=~alignment(n, m, causal, window), need_weights=True)
    out.backward(grad_output)
    options = {"causal": causal}
    if window is not None:
        options["window"] = window
    W = module.in_proj_weight.grad
    case = {"name": name, "state": {k: tensor_json(v) for k, v in module.state_dict().items()},
            "query": tensor_json(query), "gradOutput": tensor_json(grad_output), "options": options,
            "output": tensor_json(out), "weights": tensor_json(weights),
            "gradQuery": tensor_json(query.grad), "gradWq": tensor_json(W[:E].t()),
            "gradWk": tensor_json(W[E:2 * E].t()), "gradWo": tensor_json(module.out_proj.weight.grad.t())}
    if n != m:
        case["key"] = tensor_json(key)
        case["gradKey"] = tensor_json(key.grad)
    return case


def attention_cases():
    sdpa = [
        sdpa_case("lower-right, n < m: three queries after six cached keys", 1, [2], 3, 9, 4, 3, "lower-right", None),
        sdpa_case("lower-right, n > m: the first two queries see no key", 2, [], 6, 4, 4, 2, "lower-right", None),
        sdpa_case("causal with a window of 3", 3, [2], 7, 7, 5, 4, True, 3),
        sdpa_case("a window of 2 without causal (later keys stay visible)", 4, [], 5, 8, 3, 3, False, 2),
        sdpa_case("lower-right with a window of 4", 5, [2], 4, 10, 4, 4, "lower-right", 4),
    ]
    mha = [
        mha_case("self-attention, causal with a window of 2", 6, 6, 6, True, 2),
        mha_case("cross-attention, lower-right with a window of 3", 7, 3, 7, "lower-right", 3),
    ]
    return {"sdpa": sdpa, "mha": mha}


# ---- attn.rope ------------------------------------------------------------------------------
# x [..., T, d] turned by apply_rope at the given positions (0 ... T-1 when none are given).

def rope_case(name, seed, shape, base_value, positions):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=gen, dtype=torch.float32).double()
    T, d = shape[-2], shape[-1]
    p = torch.arange(T, dtype=torch.float64) if positions is None else torch.tensor(positions, dtype=torch.float64)
    cos, sin = rope_cos_sin(p, d, base_value)
    case = {"name": name, "x": tensor_json(x), "output": tensor_json(apply_rope(x, cos, sin)), "options": {}}
    if base_value != 10000.0:
        case["options"]["base"] = base_value
    if positions is not None:
        case["options"]["positions"] = positions
    return case


def rope_cases():
    return [
        rope_case("[2, 5, 6], positions 0 ... 4, base 10000", 21, (2, 5, 6), 10000.0, None),
        rope_case("[8, 4], chosen positions up to 50000.5, base 500", 22, (8, 4), 500.0,
                  [3, 7, 100, 1000, 0, 1, 2, 50000.5]),
        rope_case("[2, 3, 3, 8], positions 0, 5, 10", 23, (2, 3, 3, 8), 10000.0, [0, 5, 10]),
    ]


# ---- The FlashAttention trace ------------------------------------------------------------------
# FlashAttention-2's forward in float64, written from the paper with block matrices: row blocks of
# Q outer, column blocks of K and V inner; per tile S = Q_i K_j^T * scale (masked), m' = max(m,
# rowmax(S)), P = exp(S - m'), l' = exp(m - m') l + rowsum(P), O' = exp(m - m') O + P V. A tile the
# causal mask hides entirely is skipped (the state stays); the output is O / l.

def flash_case(name, seed, n, m, dk, dv, block_rows, block_cols, causal, scale=None):
    gen = torch.Generator().manual_seed(seed)
    draw = lambda *shape: torch.randn(*shape, generator=gen, dtype=torch.float32).double()
    q, k, v = draw(n, dk), draw(m, dk), draw(m, dv)
    sc = 1.0 / math.sqrt(dk) if scale is None else scale
    ok = alignment(n, m, causal, None)
    steps = []
    output = torch.zeros(n, dv, dtype=torch.float64)
    for r, i0 in enumerate(range(0, n, block_rows)):
        rows = slice(i0, min(n, i0 + block_rows))
        mx = torch.full((rows.stop - i0,), float("-inf"), dtype=torch.float64)
        l = torch.zeros(rows.stop - i0, dtype=torch.float64)
        o = torch.zeros(rows.stop - i0, dv, dtype=torch.float64)
        for c, j0 in enumerate(range(0, m, block_cols)):
            cols = slice(j0, min(m, j0 + block_cols))
            visible_tile = ok[rows, cols]
            skipped = bool(not visible_tile.any())
            if not skipped:
                S = (q[rows] @ k[cols].t() * sc).masked_fill(~visible_tile, float("-inf"))
                new = torch.maximum(mx, S.max(dim=1).values)
                seen = new > float("-inf")
                correction = torch.where(seen, torch.exp(mx - new), torch.ones_like(new))
                P = torch.where(seen[:, None], torch.exp(S - new[:, None]), torch.zeros_like(S))
                l = torch.where(seen, correction * l + P.sum(1), l)
                o = torch.where(seen[:, None], correction[:, None] * o + P @ v[cols], o)
                mx = torch.where(seen, new, mx)
            steps.append({"rowBlock": r, "colBlock": c, "skipped": skipped,
                          "rowMax": [rounded_or_infinity(x) for x in mx], "rowSum": [rounded(x) for x in l],
                          "partialOutput": tensor_json(o)})
        output[rows] = torch.where(l[:, None] > 0, o / l.clamp_min(1e-300)[:, None], torch.zeros_like(o))
    w = safe_softmax(q @ k.t() * sc, ok)
    assert torch.allclose(output, w @ v, atol=1e-12), "the recurrence must give softmax(S) V"
    options = {"blockRows": block_rows, "blockCols": block_cols, "causal": causal}
    if scale is not None:
        options["scale"] = scale
    return {"name": name, "q": tensor_json(q), "k": tensor_json(k), "v": tensor_json(v),
            "options": options, "output": tensor_json(output), "steps": steps}


def flash_cases():
    return [
        flash_case("5 queries, 7 keys, tiles 2 x 3", 41, 5, 7, 3, 2, 2, 3, False),
        flash_case("5 queries, 7 keys, tiles 2 x 3, causal", 41, 5, 7, 3, 2, 2, 3, True),
        flash_case("8 x 8, tiles 4 x 4, causal: the tile above the diagonal is skipped", 42, 8, 8, 4, 4, 4, 4, True),
        flash_case("3 queries after 4 cached keys, tiles 2 x 2, lower-right, scale 0.5", 43, 3, 7, 2, 3, 2, 2,
                   "lower-right", 0.5),
        flash_case("6 queries, 4 keys, lower-right, tiles 3 x 2: rows before every key keep max -inf", 44, 6, 4,
                   3, 2, 3, 2, "lower-right"),
    ]


def main():
    torch.set_num_threads(1)
    base.forward = forward  # base.run (forward, gradients, Adam steps) calls its module's forward
    check_positions()
    base.check_pieces()
    cases = model_cases()
    for c in cases:  # the clipping case must really clip
        if c["optimizer"]["clipNorm"] is not None:
            assert min(c["steps"]["gradNorms"]) > c["optimizer"]["clipNorm"], c["steps"]["gradNorms"]
    data = {
        "generator": "scripts/reference/generate_positions_reference.py",
        "torch": torch.__version__,
        "cases": cases,
        "attention": attention_cases(),
        "rope": rope_cases(),
        "decoding": decoding_cases(cases),
        "flashAttention": flash_cases(),
    }
    write_json(OUT_PATH, data, "%d model cases, attention with windows" % len(cases))


if __name__ == "__main__":
    main()
