#!/usr/bin/python3
"""Reference data for the tiny GPT-2-architecture transformer, computed with PyTorch autograd in float64.

Run from the repository root (`npm run reference` runs every generator):

    /usr/bin/python3 scripts/reference/generate_transformer_reference.py

Needs Debian's system Python with python3-torch 1.13 and python3-numpy; neither is a test or
runtime dependency. Output: tests/data/transformer-reference.json, read by
tests/js/transformer-torch.test.mjs.

The model is written here in plain torch (no torch.nn modules, no Hugging Face code), from the
architecture of GPT-2 with switchable parts:
  x = wte[token] (+ wpe[pos] unless positions == 'none')
  per layer: a = LN1(x); qkv = a·c_attn.W + c_attn.b (W is [E, 3E], Conv1D layout x·W);
             q, k, v = the three column blocks, head h = columns h·d … (h+1)·d − 1 of each;
             causal softmax(q·kᵀ/√d)·v per head; heads concatenated; x += concat·c_proj.W + c_proj.b
             with mlp: x += c_proj(GELU_tanh(c_fc(LN2(x))))
  logits = LN_f(x)·Uᵀ, U = wte (tied) or lm_head.weight [V, E]
  LayerNorm eps 1e-5 with weight and bias; layerNorm False removes LN1, LN2 and LN_f.
  loss = mean cross-entropy over targets != -1.

Conventions of the JSON file:
- Tensors are {"shape": [...], "data": [...]} row-major. The initial state is drawn in float64 and
  rounded to float32 (stored with 9 significant digits, which round-trips a float32 exactly), so a
  float32 model loads exactly the numbers the float64 reference used.
- Outputs (logits, attentions, loss, gradients, parameters after the optimizer) are float64
  references rounded to 9 significant digits.
- "steps" holds the optimizer run: the same (tokens, targets) batch is used for every step;
  "losses" are the losses before each update (what trainStep returns); "after" is the state after
  the last step. Weight decay (AdamW) applies to every parameter, as
  torch.optim.AdamW(model.parameters()) does; clip_grad_norm_ clips the total norm of all gradients.
- "float32Deviation": for each checked quantity, the largest |float32 − float64| that the same
  torch code gives when run in float32 from the same state. The test derives its tolerances from
  it (float32 rounding, not the model, is the limit), next to a floor relative to the largest
  magnitude.
- "zeroGradient": index ranges whose gradient is zero in exact arithmetic (the key bias: adding a
  constant to every key score of a query leaves its softmax unchanged). In float32 such a gradient
  is rounding noise, and Adam, which divides by the gradient's own scale, turns that noise into a
  step of up to ~lr in a random direction: the test checks those entries by Adam's step bound, not
  against the float64 value.
"""

import json
import math
import os

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_PATH = os.path.join(ROOT, "tests", "data", "transformer-reference.json")
LN_EPS = 1e-5


def rounded(x):
    return float("%.9g" % float(x))


def tensor_json(t):
    a = t.detach().cpu().double().numpy() if isinstance(t, torch.Tensor) else np.asarray(t, dtype=np.float64)
    return {"shape": list(a.shape), "data": [rounded(x) for x in a.reshape(-1)]}


def state_names(cfg):
    """The Hugging Face GPT-2 names (without the 'transformer.' prefix) with their shapes."""
    V, T, E, L = cfg["vocabSize"], cfg["contextLength"], cfg["dModel"], cfg["numLayers"]
    names = [("wte.weight", [V, E])]
    if cfg["positions"] == "learned":
        names.append(("wpe.weight", [T, E]))
    for i in range(L):
        p = "h.%d." % i
        if cfg["layerNorm"]:
            names += [(p + "ln_1.weight", [E]), (p + "ln_1.bias", [E])]
        names += [(p + "attn.c_attn.weight", [E, 3 * E]), (p + "attn.c_attn.bias", [3 * E]),
                  (p + "attn.c_proj.weight", [E, E]), (p + "attn.c_proj.bias", [E])]
        if cfg["mlp"]:
            if cfg["layerNorm"]:
                names += [(p + "ln_2.weight", [E]), (p + "ln_2.bias", [E])]
            names += [(p + "mlp.c_fc.weight", [E, 4 * E]), (p + "mlp.c_fc.bias", [4 * E]),
                      (p + "mlp.c_proj.weight", [4 * E, E]), (p + "mlp.c_proj.bias", [E])]
    if cfg["layerNorm"]:
        names += [("ln_f.weight", [E]), ("ln_f.bias", [E])]
    if not cfg["tieEmbeddings"]:
        names.append(("lm_head.weight", [V, E]))
    return names


def random_state(cfg, rng):
    """Small random weights, float32-representable. LayerNorm weights around 1, biases nonzero
    (so every bias gradient path is exercised), embeddings of unit scale."""
    state = {}
    for name, shape in state_names(cfg):
        if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            a = 1.0 + 0.2 * rng.standard_normal(shape)
        elif name in ("wte.weight", "wpe.weight", "lm_head.weight"):
            a = 0.8 * rng.standard_normal(shape)
        elif name.endswith(".bias"):
            a = 0.1 * rng.standard_normal(shape)
        else:  # a linear weight [in, out]
            a = rng.standard_normal(shape) / math.sqrt(shape[0])
        state[name] = a.astype(np.float32).astype(np.float64)
    return state


def layer_norm(x, w, b):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)  # biased variance, as torch.nn.LayerNorm
    return (x - mu) / torch.sqrt(var + LN_EPS) * w + b


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(cfg, P, tokens):
    """tokens: LongTensor [B, T] → logits [B, T, V], attentions (one [B, H, T, T] per layer)."""
    B, T = tokens.shape
    E, H = cfg["dModel"], cfg["numHeads"]
    d = E // H
    x = P["wte.weight"][tokens]
    if cfg["positions"] == "learned":
        x = x + P["wpe.weight"][:T].unsqueeze(0)
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    attentions = []
    for i in range(cfg["numLayers"]):
        p = "h.%d." % i
        a = layer_norm(x, P[p + "ln_1.weight"], P[p + "ln_1.bias"]) if cfg["layerNorm"] else x
        qkv = a @ P[p + "attn.c_attn.weight"] + P[p + "attn.c_attn.bias"]
        q, k, v = qkv.split(E, dim=-1)
        heads = lambda t: t.reshape(B, T, H, d).transpose(1, 2)  # [B, H, T, d]
        q, k, v = heads(q), heads(k), heads(v)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(d)
        scores = scores.masked_fill(~causal, float("-inf"))
        w = torch.softmax(scores, dim=-1)
        attentions.append(w)
        concat = (w @ v).transpose(1, 2).reshape(B, T, E)
        x = x + concat @ P[p + "attn.c_proj.weight"] + P[p + "attn.c_proj.bias"]
        if cfg["mlp"]:
            m = layer_norm(x, P[p + "ln_2.weight"], P[p + "ln_2.bias"]) if cfg["layerNorm"] else x
            hdn = gelu_tanh(m @ P[p + "mlp.c_fc.weight"] + P[p + "mlp.c_fc.bias"])
            x = x + hdn @ P[p + "mlp.c_proj.weight"] + P[p + "mlp.c_proj.bias"]
    if cfg["layerNorm"]:
        x = layer_norm(x, P["ln_f.weight"], P["ln_f.bias"])
    U = P["wte.weight"] if cfg["tieEmbeddings"] else P["lm_head.weight"]
    return x @ U.t(), attentions


def loss_of(logits, targets):
    V = logits.shape[-1]
    return torch.nn.functional.cross_entropy(logits.reshape(-1, V), targets.reshape(-1), ignore_index=-1)


def check_pieces():
    """The hand-written LayerNorm and GELU agree with torch's own (a guard on this file)."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(4, 8, dtype=torch.float64, generator=g) * 3
    w, b = torch.randn(8, dtype=torch.float64, generator=g), torch.randn(8, dtype=torch.float64, generator=g)
    assert torch.allclose(layer_norm(x, w, b), torch.nn.functional.layer_norm(x, (8,), w, b, LN_EPS), atol=1e-12)
    assert torch.allclose(gelu_tanh(x), torch.nn.functional.gelu(x, approximate="tanh"), atol=1e-12)


def run(cfg, state, tokens, targets, opt, dtype):
    """Forward, gradients and the optimizer steps in one dtype; returns plain float64 numpy data."""
    P = {n: torch.tensor(a, dtype=dtype, requires_grad=True) for n, a in state.items()}
    tok = torch.tensor(tokens, dtype=torch.long)
    tgt = torch.tensor(targets, dtype=torch.long)
    logits, attentions = forward(cfg, P, tok)
    loss = loss_of(logits, tgt)
    loss.backward()
    out = {
        "logits": logits.detach().double().numpy(),
        "attentions": [w.detach().double().numpy() for w in attentions],
        "loss": float(loss),
        "grads": {n: p.grad.detach().double().numpy() for n, p in P.items()},
    }
    params = list(P.values())
    for p in params:
        p.grad = None
    kwargs = dict(lr=opt["learningRate"], betas=tuple(opt["betas"]), eps=opt["eps"])
    if opt["weightDecay"] > 0:
        optimizer = torch.optim.AdamW(params, weight_decay=opt["weightDecay"], **kwargs)
    else:
        optimizer = torch.optim.Adam(params, **kwargs)
    losses, norms = [], []
    for _ in range(opt["steps"]):
        optimizer.zero_grad()
        step_loss = loss_of(forward(cfg, P, tok)[0], tgt)
        step_loss.backward()
        if opt.get("clipNorm") is not None:
            norms.append(float(torch.nn.utils.clip_grad_norm_(params, opt["clipNorm"])))
        losses.append(float(step_loss))
        optimizer.step()
    out["losses"] = losses
    out["gradNorms"] = norms
    out["after"] = {n: p.detach().double().numpy() for n, p in P.items()}
    return out


def max_dev(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) if np.size(a) else 0.0


def make_case(name, cfg, batch, seq, opt, seed, ignore_fraction=0.25):
    rng = np.random.RandomState(seed)
    state = random_state(cfg, rng)
    V = cfg["vocabSize"]
    tokens = rng.randint(0, V, size=(batch, seq))
    targets = rng.randint(0, V, size=(batch, seq))
    targets[rng.rand(batch, seq) < ignore_fraction] = -1
    targets[0, 0] = -1  # at least one ignored target in every case
    ref = run(cfg, state, tokens, targets, opt, torch.float64)
    check_pieces()
    f32 = run(cfg, state, tokens, targets, opt, torch.float32)
    E = cfg["dModel"]
    zero = [{"name": "h.%d.attn.c_attn.bias" % i, "start": E, "end": 2 * E} for i in range(cfg["numLayers"])]
    deviation = {
        "logits": max_dev(ref["logits"], f32["logits"]),
        "attentions": max(max_dev(a, b) for a, b in zip(ref["attentions"], f32["attentions"])),
        "loss": abs(ref["loss"] - f32["loss"]),
        "grads": {n: max_dev(ref["grads"][n], f32["grads"][n]) for n in state},
        "after": {n: max_dev(ref["after"][n], f32["after"][n]) for n in state},
    }
    for z in zero:  # the deviation of the noise-driven entries says nothing about the rest
        n = z["name"]
        keep = np.ones(3 * E, dtype=bool)
        keep[z["start"]:z["end"]] = False
        deviation["after"][n] = max_dev(ref["after"][n][keep], f32["after"][n][keep])
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


def config(V, T, E, L, H, mlp, layer_norm, positions, tied):
    return {"vocabSize": V, "contextLength": T, "dModel": E, "numLayers": L, "numHeads": H,
            "mlp": mlp, "layerNorm": layer_norm, "positions": positions, "tieEmbeddings": tied}


def adam(lr=1e-2, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, clip=None):
    return {"learningRate": lr, "betas": list(betas), "eps": eps, "weightDecay": weight_decay,
            "clipNorm": clip, "steps": 3}


def main():
    torch.set_num_threads(1)
    cases = [
        make_case("full GPT-2 block: MLP, LayerNorm, learned positions, tied",
                  config(11, 7, 8, 2, 2, True, True, "learned", True), 2, 6, adam(), 1),
        make_case("attention-only, no LayerNorm, no positions, untied",
                  config(11, 6, 8, 2, 2, False, False, "none", False), 2, 5, adam(), 2),
        make_case("one layer with MLP, LayerNorm, learned positions, untied, E = 16",
                  config(13, 8, 16, 1, 2, True, True, "learned", False), 3, 7,
                  adam(lr=3e-3, betas=(0.8, 0.99), eps=1e-6), 3),
        make_case("attention-only, LayerNorm, tied; AdamW with weight decay and gradient clipping",
                  config(11, 7, 12, 2, 2, False, True, "learned", True), 2, 7,
                  adam(weight_decay=0.1, clip=0.5), 4),
        make_case("MLP without LayerNorm or positions, tied, T = contextLength",
                  config(9, 5, 8, 1, 2, True, False, "none", True), 2, 5, adam(lr=5e-3), 5),
    ]
    for c in cases:  # the clipping case must really clip
        if c["optimizer"]["clipNorm"] is not None:
            assert min(c["steps"]["gradNorms"]) > c["optimizer"]["clipNorm"], c["steps"]["gradNorms"]
    data = {
        "generator": "scripts/reference/generate_transformer_reference.py",
        "torch": torch.__version__,
        "cases": cases,
    }
    with open(OUT_PATH, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote %s (%d cases, %d bytes)" % (OUT_PATH, len(cases), os.path.getsize(OUT_PATH)))
    for c in cases:
        dev = c["float32Deviation"]
        print("  %-80s loss %.6f  f32 dev: logits %.2e grads %.2e after %.2e" % (
            c["name"], c["loss"], dev["logits"], max(dev["grads"].values()), max(dev["after"].values())))


if __name__ == "__main__":
    main()
