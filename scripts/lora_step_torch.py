#!/usr/bin/env python3
"""One LoRA listwise step in PyTorch on CPU: the reference for strata's
BenchmarkLoRAStep (models/bench_test.go).

The same step as strata's: a random Qwen3-architecture decoder (4 layers,
hidden 256, 8/4 heads of 32, MLP 768, vocabulary 8,192, tied embeddings,
q/k RMSNorm, RoPE theta 1e6), rank-32 adapters (alpha 64) on q, k, v, o,
gate, up and down of every layer with the base frozen, one group of 8
prompts of 128 tokens, the loss -log softmax(z)[positive] over the prompts'
log-odds z = logit_yes - logit_no at the last position, then the backward
pass. It prints the median seconds per step over --steps timed steps.

Runs on Debian's python3-torch (apt-get install python3-torch), 2 threads
unless --threads says otherwise. Without torch it prints a 'skipped' line
and exits 0; no test depends on it.

    python3 scripts/lora_step_torch.py [--tokens 128] [--seqs 8] [--threads 2]
"""

import argparse
import statistics
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("lora_step_torch: skipped (torch is not importable; apt-get install python3-torch)")
    sys.exit(0)

VOCAB, HIDDEN, INTER, LAYERS, HEADS, KV_HEADS, HEAD_DIM = 8192, 256, 768, 4, 8, 4, 32
EPS, THETA = 1e-6, 1e6
YES, NO = 5, 6


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w


def rope_tables(T):
    inv = 1.0 / THETA ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float64) / HEAD_DIM)
    f = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
    f = torch.cat([f, f], dim=-1)
    return f.cos().float(), f.sin().float()


def rope(x, cos, sin):  # x [B, heads, T, hd]
    half = HEAD_DIM // 2
    rot = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rot * sin


class LoRALinear:
    def __init__(self, out_f, in_f, rank, alpha, g):
        self.w = torch.randn(out_f, in_f, generator=g) * 0.02
        bound = 1 / in_f ** 0.5
        self.a = ((torch.rand(rank, in_f, generator=g) * 2 - 1) * bound).requires_grad_()
        self.b = (torch.randn(out_f, rank, generator=g) * 0.01).requires_grad_()
        self.scale = alpha / rank

    def __call__(self, x):
        return x @ self.w.t() + self.scale * ((x @ self.a.t()) @ self.b.t())


class Model:
    def __init__(self, rank, alpha, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.embed = torch.randn(VOCAB, HIDDEN, generator=g) * 0.02
        self.norm = torch.ones(HIDDEN)
        qd, kd = HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM
        self.layers = []
        for _ in range(LAYERS):
            mk = lambda o, i: LoRALinear(o, i, rank, alpha, g)
            self.layers.append(dict(
                q=mk(qd, HIDDEN), k=mk(kd, HIDDEN), v=mk(kd, HIDDEN), o=mk(HIDDEN, qd),
                gate=mk(INTER, HIDDEN), up=mk(INTER, HIDDEN), down=mk(HIDDEN, INTER),
                n1=torch.ones(HIDDEN), n2=torch.ones(HIDDEN),
                qn=torch.ones(HEAD_DIM), kn=torch.ones(HEAD_DIM)))

    def params(self):
        return [p for L in self.layers for k in ("q", "k", "v", "o", "gate", "up", "down") for p in (L[k].a, L[k].b)]

    def log_odds(self, ids):  # ids [B, T] -> [B]
        B, T = ids.shape
        x = self.embed[ids]
        cos, sin = rope_tables(T)
        mask = torch.full((T, T), float("-inf")).triu(1)
        for L in self.layers:
            h = rms_norm(x, L["n1"])
            q = rms_norm(L["q"](h).view(B, T, HEADS, HEAD_DIM), L["qn"]).transpose(1, 2)
            k = rms_norm(L["k"](h).view(B, T, KV_HEADS, HEAD_DIM), L["kn"]).transpose(1, 2)
            v = L["v"](h).view(B, T, KV_HEADS, HEAD_DIM).transpose(1, 2)
            q, k = rope(q, cos, sin), rope(k, cos, sin)
            rep = HEADS // KV_HEADS
            k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
            s = q @ k.transpose(-1, -2) / HEAD_DIM ** 0.5 + mask
            att = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, HEADS * HEAD_DIM)
            x = x + L["o"](att)
            h = rms_norm(x, L["n2"])
            x = x + L["down"](F.silu(L["gate"](h)) * L["up"](h))
        last = rms_norm(x[:, -1], self.norm)
        return last @ (self.embed[YES] - self.embed[NO])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--seqs", type=int, default=8)
    ap.add_argument("--rank", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=3)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    m = Model(a.rank, 2 * a.rank)
    ids = torch.randint(0, VOCAB, (a.seqs, a.tokens), generator=torch.Generator().manual_seed(1))
    times = []
    for step in range(a.steps + 1):  # the first step warms up
        t0 = time.perf_counter()
        z = m.log_odds(ids)
        loss = -torch.log_softmax(z, dim=0)[0]
        loss.backward()
        for p in m.params():
            p.grad = None
        if step > 0:
            times.append(time.perf_counter() - t0)
    print(f"lora_step_torch: torch {torch.__version__}, {a.threads} threads, {a.seqs} prompts x {a.tokens} tokens, "
          f"rank {a.rank}: {statistics.median(times):.3f} s/step (median of {len(times)})")


if __name__ == "__main__":
    main()
