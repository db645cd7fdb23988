"""PyTorch peer of `npm run bench:transformer`: the same GPT-2-architecture model trained with
torch.optim.Adam on one thread, driven over stdin/stdout so the bench can interleave its samples
with ours.

Protocol, one JSON object per line:
  in:  {"config": {...}, "state": {name: {"data": [...], "shape": [...]}}, "tokens": [[...]],
        "targets": [[...]], "learningRate": 0.003}
  out: {"ready": true, "torch": version, "loss": loss before any step, "lossAfter3": loss after 3 steps}
  in:  {"steps": K}            out: {"ms": milliseconds for K training steps, "cpuMs": the process's CPU time for them}
  in:  {"quit": true}
"""
import json
import math
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)


class Gpt2(torch.nn.Module):
    """x = wte[t] + wpe[p]; pre-LN blocks of causal attention (and an optional MLP); LN_f; logits."""

    def __init__(self, config, state):
        super().__init__()
        self.c = config
        self.p = torch.nn.ParameterDict(
            {name.replace('.', '__'): torch.nn.Parameter(
                torch.tensor(value['data'], dtype=torch.float32).reshape(value['shape']))
             for name, value in state.items()})

    def w(self, name):
        return self.p[name.replace('.', '__')]

    def ln(self, x, name):
        if not self.c['layerNorm']:
            return x
        return F.layer_norm(x, (x.shape[-1],), self.w(name + '.weight'), self.w(name + '.bias'), 1e-5)

    def attention(self, x, i):
        B, T, E = x.shape
        H = self.c['numHeads']
        d = E // H
        qkv = self.ln(x, f'h.{i}.ln_1') @ self.w(f'h.{i}.attn.c_attn.weight') + self.w(f'h.{i}.attn.c_attn.bias')
        q, k, v = (t.view(B, T, H, d).transpose(1, 2) for t in qkv.split(E, dim=2))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        hidden = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        y = scores.masked_fill(hidden, float('-inf')).softmax(-1) @ v
        y = y.transpose(1, 2).reshape(B, T, E)
        return y @ self.w(f'h.{i}.attn.c_proj.weight') + self.w(f'h.{i}.attn.c_proj.bias')

    def mlp(self, x, i):
        h = self.ln(x, f'h.{i}.ln_2') @ self.w(f'h.{i}.mlp.c_fc.weight') + self.w(f'h.{i}.mlp.c_fc.bias')
        h = F.gelu(h, approximate='tanh')
        return h @ self.w(f'h.{i}.mlp.c_proj.weight') + self.w(f'h.{i}.mlp.c_proj.bias')

    def forward(self, tokens):
        T = tokens.shape[1]
        x = self.w('wte.weight')[tokens]
        if self.c['positions'] == 'learned':
            x = x + self.w('wpe.weight')[:T]
        for i in range(self.c['numLayers']):
            x = x + self.attention(x, i)
            if self.c['mlp']:
                x = x + self.mlp(x, i)
        x = self.ln(x, 'ln_f')
        head = self.w('wte.weight') if self.c['tieEmbeddings'] else self.w('lm_head.weight')
        return x @ head.t()


def main():
    setup = json.loads(sys.stdin.readline())
    model = Gpt2(setup['config'], setup['state'])
    tokens = torch.tensor(setup['tokens'], dtype=torch.long)
    targets = torch.tensor(setup['targets'], dtype=torch.long)
    optimizer = torch.optim.Adam(model.parameters(), lr=setup['learningRate'])
    vocab = setup['config']['vocabSize']

    def step():
        optimizer.zero_grad()
        loss = F.cross_entropy(model(tokens).reshape(-1, vocab), targets.reshape(-1), ignore_index=-1)
        loss.backward()
        optimizer.step()
        return loss.item()

    first = step()
    step()
    step()
    with torch.no_grad():
        after = F.cross_entropy(model(tokens).reshape(-1, vocab), targets.reshape(-1), ignore_index=-1).item()
    print(json.dumps({'ready': True, 'torch': torch.__version__, 'loss': first, 'lossAfter3': after}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if request.get('quit'):
            break
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(request['steps']):
            step()
        print(json.dumps({'ms': (time.perf_counter() - start) * 1000,
                          'cpuMs': (time.process_time() - cpu) * 1000}), flush=True)


if __name__ == '__main__':
    main()
