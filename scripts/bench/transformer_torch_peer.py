# PyTorch peer of scripts/bench/transformer-bench.mjs: the same GPT-2-style model (pre-LN blocks,
# optional MLP, untied or tied unembedding) trained with torch.optim.Adam on one thread, timed in
# chunks on request so that the Node side can interleave its own chunks with ours.
#   stdin:  one JSON config line, then lines "<steps>"; stdout: one line of ms per step per chunk.
import json
import sys
import time

import torch

torch.set_num_threads(1)
cfg = json.loads(sys.stdin.readline())
V, T, E, H, L, B = (cfg[k] for k in ('vocabSize', 'contextLength', 'dModel', 'numHeads', 'numLayers', 'batch'))
MLP, TIED = cfg['mlp'], cfg['tieEmbeddings']


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = torch.nn.LayerNorm(E)
        self.c_attn = torch.nn.Linear(E, 3 * E)
        self.c_proj = torch.nn.Linear(E, E)
        if MLP:
            self.ln_2 = torch.nn.LayerNorm(E)
            self.c_fc = torch.nn.Linear(E, 4 * E)
            self.mlp_proj = torch.nn.Linear(4 * E, E)

    def forward(self, x, mask):
        q, k, v = self.c_attn(self.ln_1(x)).split(E, dim=-1)
        heads = lambda t: t.view(B, T, H, E // H).transpose(1, 2)
        att = (heads(q) @ heads(k).transpose(-1, -2)) / (E // H) ** 0.5
        att = att.masked_fill(mask, float('-inf')).softmax(-1)
        x = x + self.c_proj((att @ heads(v)).transpose(1, 2).reshape(B, T, E))
        if MLP:
            x = x + self.mlp_proj(torch.nn.functional.gelu(self.c_fc(self.ln_2(x)), approximate='tanh'))
        return x


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = torch.nn.Embedding(V, E)
        self.wpe = torch.nn.Embedding(T, E)
        self.h = torch.nn.ModuleList([Block() for _ in range(L)])
        self.ln_f = torch.nn.LayerNorm(E)
        self.lm_head = None if TIED else torch.nn.Linear(E, V, bias=False)
        self.register_buffer('mask', torch.triu(torch.ones(T, T, dtype=torch.bool), 1))

    def forward(self, tokens):
        x = self.wte(tokens) + self.wpe(torch.arange(T))
        for block in self.h:
            x = block(x, self.mask)
        x = self.ln_f(x)
        return x @ self.wte.weight.T if TIED else self.lm_head(x)


model = Model()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
tokens = torch.tensor(cfg['tokens'], dtype=torch.long)
targets = torch.tensor(cfg['targets'], dtype=torch.long)


def step():
    optimizer.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(tokens).view(-1, V), targets.view(-1), ignore_index=-1)
    loss.backward()
    optimizer.step()


print(torch.__version__, flush=True)
for line in sys.stdin:
    steps = int(line)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    print((time.perf_counter() - start) * 1000 / steps, flush=True)
