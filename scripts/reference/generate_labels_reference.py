#!/usr/bin/python3
"""Reference data for Hugging Face's `labels` convention, computed with PyTorch autograd in float64.

Run from the repository root (`npm run reference` runs every generator):

    /usr/bin/python3 scripts/reference/generate_labels_reference.py

Output: tests/data/labels-reference.json, read by tests/js/transformer-labels.test.mjs.

Hugging Face's GPT2LMHeadModel(input_ids, labels=labels) shifts inside: the logits at position t
are scored against labels[t + 1], the last position against nothing, and -100 is ignored
(torch.nn.CrossEntropyLoss's default ignore_index):

    shift_logits = logits[..., :-1, :]; shift_labels = labels[..., 1:]
    loss = CrossEntropyLoss()(shift_logits.reshape(-1, V), shift_labels.reshape(-1))

That is the loss computed here, on the model of generate_transformer_reference.py (the same plain
torch forward, imported from it), with its gradient for every parameter. Each case also stores the
last position's logits (what forward(tokens, { logits: 'last' }) returns). Values are float64
references rounded to 9 significant digits; the state is float32-representable.
"""

import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_transformer_reference import ROOT, config, forward, random_state, rounded, tensor_json  # noqa: E402

OUT_PATH = os.path.join(ROOT, "tests", "data", "labels-reference.json")


def hugging_face_loss(logits, labels):
    V = logits.shape[-1]
    shift_logits = logits[..., :-1, :].reshape(-1, V)
    shift_labels = labels[..., 1:].reshape(-1)
    return torch.nn.CrossEntropyLoss()(shift_logits, shift_labels)  # ignore_index = -100


def make_case(name, cfg, tokens, labels, seed):
    rng = np.random.RandomState(seed)
    state = random_state(cfg, rng)
    P = {n: torch.tensor(a, dtype=torch.float64, requires_grad=True) for n, a in state.items()}
    logits, _ = forward(cfg, P, torch.tensor(tokens, dtype=torch.long))
    loss = hugging_face_loss(logits, torch.tensor(labels, dtype=torch.long))
    loss.backward()
    return {
        "name": name,
        "config": cfg,
        "state": {n: tensor_json(a) for n, a in state.items()},
        "tokens": tokens,
        "labels": labels,
        "loss": rounded(loss.item()),
        "grads": {n: tensor_json(p.grad) for n, p in P.items()},
        "lastLogits": tensor_json(logits[:, -1:, :]),
    }


def main():
    torch.set_num_threads(1)
    rng = np.random.RandomState(7)
    tokens = rng.randint(0, 11, size=(2, 6)).tolist()
    padded = [row[:] for row in tokens]
    padded[1][4:] = [-100, -100]  # Hugging Face pads labels with -100
    cases = [
        make_case("labels = input_ids, full GPT-2 block, tied",
                  config(11, 7, 8, 2, 2, True, True, "learned", True), tokens, tokens, 1),
        make_case("labels padded with -100, attention-only, untied, no positions",
                  config(11, 6, 8, 2, 2, False, False, "none", False), tokens, padded, 2),
    ]
    data = {"generator": "scripts/reference/generate_labels_reference.py", "torch": torch.__version__,
            "cases": cases}
    with open(OUT_PATH, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print("wrote %s (%d cases, %d bytes)" % (OUT_PATH, len(cases), os.path.getsize(OUT_PATH)))
    for c in cases:
        print("  %-70s loss %.9f" % (c["name"], c["loss"]))


if __name__ == "__main__":
    main()
