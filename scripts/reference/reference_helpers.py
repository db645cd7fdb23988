"""Shared pieces of the attention reference generators (generate_reference.py and
generate_grad_reference.py): the JSON encoding of tensors, seeded float32 inputs and masks, the
hidden-key rule of the textbook formula, and the setup of a torch.nn.MultiheadAttention case.

The JSON conventions are described in generate_reference.py's docstring. Every function here draws
random numbers in a fixed order, so the generated files stay the same byte for byte.
"""

import json
import math
import os
import sys

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rounded(x):
    x = float(x)
    if math.isinf(x):
        return "-Infinity" if x < 0 else "Infinity"
    if math.isnan(x):
        raise ValueError("NaN in reference data")
    return float("%.9g" % x)


def tensor(t):
    """Float tensor (torch or numpy) -> {shape, data}, 9 significant digits."""
    a = t.detach().cpu().double().numpy() if isinstance(t, torch.Tensor) else np.asarray(t, np.float64)
    return {"shape": list(a.shape), "data": [rounded(x) for x in a.reshape(-1)]}


def bool_tensor(t):
    a = t.cpu().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)
    return {"shape": list(a.shape), "dtype": "bool", "data": [1 if x else 0 for x in a.reshape(-1)]}


def exact_tensor(a):
    """float64 array -> {shape, data} at full precision."""
    a = np.asarray(a, np.float64)
    return {"shape": list(a.shape), "data": [float(x) for x in a.reshape(-1)]}


def randn32(gen, *shape):
    """Float32 values (the JS API computes in float32), held as float64 for the reference."""
    return torch.randn(*shape, generator=gen, dtype=torch.float32).double()


def visible_mask(gen, shape, p_hidden=0.35):
    """Random bool mask (True = hidden) with at least one visible key in every row."""
    mask = torch.rand(*shape, generator=gen) < p_hidden
    flat = mask.view(-1, shape[-1])
    for r in range(flat.shape[0]):
        if bool(flat[r].all()):
            flat[r, int(torch.randint(shape[-1], (1,), generator=gen))] = False
    return mask


def hidden_keys(lead, n, m, causal=False, mask=None, key_padding_mask=None):
    """Bool [*lead, n, m], True where query i may not see key j."""
    hidden = torch.zeros(lead + (n, m), dtype=torch.bool)
    if causal:
        # Top-left aligned: query i sees keys j <= i.
        hidden = hidden | ~torch.tril(torch.ones(n, m, dtype=torch.bool))
    if mask is not None:
        hidden = hidden | mask
    if key_padding_mask is not None:
        hidden = hidden | key_padding_mask.unsqueeze(-2)
    return hidden


def sdpa_inputs(seed, batch, n, m, dk, dv):
    """q [*batch, n, dk], k [*batch, m, dk], v [*batch, m, dv] from a generator seeded with `seed`,
    and the generator, for whatever a case draws next."""
    gen = torch.Generator().manual_seed(seed)
    q = randn32(gen, *batch, n, dk)
    k = randn32(gen, *batch, m, dk)
    v = randn32(gen, *batch, m, dv)
    return q, k, v, gen


def drawn(x, gen):
    """x itself, or what x draws from gen when it is a function (a case's random mask or bias)."""
    return x(gen) if callable(x) else x


def sdpa_options(causal, mask, bias, key_padding_mask, scale):
    """The JS API's scaledDotProductAttention options for a case."""
    options = {}
    if causal:
        options["causal"] = True
    if mask is not None:
        options["mask"] = bool_tensor(mask)
    if bias is not None:
        options["bias"] = tensor(bias)
    if key_padding_mask is not None:
        options["keyPaddingMask"] = bool_tensor(key_padding_mask)
    if scale is not None:
        options["scale"] = scale
    return options


class MhaCase:
    """A seeded torch.nn.MultiheadAttention (batch_first) and float32 inputs for it.

    The weights come from the module's own init under torch.manual_seed(seed); its biases start at
    zero there, so they are drawn at random to make them count. Then query, key and value are
    drawn ([batch, tokens, features], or [tokens, features] when batch is None), and the causal
    mask, when asked for, becomes torch 1.13's bool mask above the diagonal (it has no is_causal).
    """

    def __init__(self, seed, embed_dim, num_heads, n, m, batch, bias, kdim, vdim, self_attention,
                 causal, attn_mask):
        torch.manual_seed(seed)
        module = torch.nn.MultiheadAttention(embed_dim, num_heads, bias=bias, kdim=kdim, vdim=vdim,
                                             batch_first=True)
        with torch.no_grad():
            if bias:
                module.in_proj_bias.normal_(0.0, 0.2)
                module.out_proj.bias.normal_(0.0, 0.2)
        self.module = module
        self.state = {key: tensor(value) for key, value in module.state_dict().items()}
        self.config = {"embedDim": embed_dim, "numHeads": num_heads, "bias": bias}
        if kdim is not None:
            self.config["kdim"] = kdim
        if vdim is not None:
            self.config["vdim"] = vdim
        self.lead = (batch,) if batch is not None else ()
        self.query = torch.randn(*self.lead, n, embed_dim, dtype=torch.float32)
        if self_attention:
            self.key = self.value = self.query
        else:
            self.key = torch.randn(*self.lead, m, kdim if kdim is not None else embed_dim, dtype=torch.float32)
            self.value = torch.randn(*self.lead, m, vdim if vdim is not None else embed_dim, dtype=torch.float32)
        self.causal = causal
        self.mask = attn_mask
        if causal:
            assert attn_mask is None
            self.mask = torch.triu(torch.ones(n, m, dtype=torch.bool), diagonal=1)

    def torch_mask(self):
        """The attn_mask for the float64 module: a float (additive) mask in float64."""
        mask = self.mask
        return mask.double() if mask is not None and mask.is_floating_point() else mask

    def options(self, key_padding_mask, **extra):
        """The JS API's MultiHeadAttention options for this case."""
        options = dict(extra)
        if self.causal:
            options["causal"] = True
        elif self.mask is not None:
            options["attnMask"] = bool_tensor(self.mask) if self.mask.dtype == torch.bool else tensor(self.mask)
        if key_padding_mask is not None:
            options["keyPaddingMask"] = bool_tensor(key_padding_mask)
        return options


def write_json(path, data, summary):
    """Writes data compactly (no NaN) and says what was written and how large it is."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")
    print("wrote %s (%d bytes): %s" % (os.path.relpath(path, ROOT), len(text) + 1, summary), file=sys.stderr)
