#!/usr/bin/env python3
"""Writes models/testdata/bert-tiny: a randomly initialised BERT of the real
architecture (Devlin et al. 2019; the layout of Hugging Face's BertModel:
post-LayerNorm blocks, learned absolute positions, token types, exact-erf
GELU) as a Hugging Face directory (config.json, model.safetensors), and
reference.json: the last hidden states, mean-pooled and [CLS] vectors that
PyTorch computes for a few id sequences. strata's native encoder
(models/bert.go) is tested against it. Needs Debian's python3-torch.

Usage: /usr/bin/python3 scripts/bert_reference.py [OUTDIR]
"""
import json, math, os, struct, sys
import torch

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "models", "testdata", "bert-tiny")
os.makedirs(out, exist_ok=True)
cfg = {"architectures": ["BertModel"], "model_type": "bert", "vocab_size": 40, "hidden_size": 32,
       "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 64, "hidden_act": "gelu",
       "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0}
g = torch.Generator().manual_seed(1234)
H, I, L, V, P = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["vocab_size"], cfg["max_position_embeddings"]
W = {}
def rnd(name, *shape, std=0.2, mean=0.0):
    W[name] = (torch.randn(*shape, generator=g, dtype=torch.float32) * std + mean).contiguous()
rnd("embeddings.word_embeddings.weight", V, H)
rnd("embeddings.position_embeddings.weight", P, H)
rnd("embeddings.token_type_embeddings.weight", 2, H)
rnd("embeddings.LayerNorm.weight", H, std=0.1, mean=1.0)
rnd("embeddings.LayerNorm.bias", H, std=0.1)
for l in range(L):
    p = f"encoder.layer.{l}."
    for n in ("query", "key", "value"):
        rnd(p + f"attention.self.{n}.weight", H, H)
        rnd(p + f"attention.self.{n}.bias", H, std=0.1)
    rnd(p + "attention.output.dense.weight", H, H)
    rnd(p + "attention.output.dense.bias", H, std=0.1)
    rnd(p + "attention.output.LayerNorm.weight", H, std=0.1, mean=1.0)
    rnd(p + "attention.output.LayerNorm.bias", H, std=0.1)
    rnd(p + "intermediate.dense.weight", I, H)
    rnd(p + "intermediate.dense.bias", I, std=0.1)
    rnd(p + "output.dense.weight", H, I)
    rnd(p + "output.dense.bias", H, std=0.1)
    rnd(p + "output.LayerNorm.weight", H, std=0.1, mean=1.0)
    rnd(p + "output.LayerNorm.bias", H, std=0.1)
rnd("pooler.dense.weight", H, H)  # present in real checkpoints, unused by sentence encoders
rnd("pooler.dense.bias", H, std=0.1)

def lin(x, name):
    return x @ W[name + ".weight"].T + W[name + ".bias"]

def ln(x, name):
    return torch.nn.functional.layer_norm(x, (H,), W[name + ".weight"], W[name + ".bias"], cfg["layer_norm_eps"])

def forward(ids, types):
    ids, types = torch.tensor(ids), torch.tensor(types)
    T = len(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:T] + W["embeddings.token_type_embeddings.weight"][types]
    x = ln(x, "embeddings.LayerNorm")
    nh = cfg["num_attention_heads"]; hd = H // nh
    for l in range(L):
        p = f"encoder.layer.{l}."
        q = lin(x, p + "attention.self.query").view(T, nh, hd).transpose(0, 1)
        k = lin(x, p + "attention.self.key").view(T, nh, hd).transpose(0, 1)
        v = lin(x, p + "attention.self.value").view(T, nh, hd).transpose(0, 1)
        a = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(hd), dim=-1) @ v
        a = a.transpose(0, 1).reshape(T, H)
        x = ln(lin(a, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        h = torch.nn.functional.gelu(lin(x, p + "intermediate.dense"))
        x = ln(lin(h, p + "output.dense") + x, p + "output.LayerNorm")
    return x

cases = [([2, 11, 8, 9, 4, 6, 7, 3], [0] * 8), ([2, 5, 3], [0, 0, 0]),
         ([2, 12, 13, 14, 15, 3, 16, 17, 3], [0, 0, 0, 0, 0, 0, 1, 1, 1]),
         ([2] + [(i * 7) % 38 + 1 for i in range(14)] + [3], [0] * 16)]
ref = []
with torch.no_grad():
    for ids, types in cases:
        h = forward(ids, types)
        ref.append({"ids": ids, "types": types, "hidden": [round(float(v), 7) for v in h.flatten()],
                    "mean": [round(float(v), 7) for v in h.mean(0)], "cls": [round(float(v), 7) for v in h[0]]})

# safetensors, written by hand (no PyPI here): an 8-byte little-endian header
# length, the JSON header, then the tensors' bytes in order.
names = sorted(W)
header, off, blobs = {}, 0, []
for n in names:
    b = W[n].numpy().astype("<f4").tobytes()
    header[n] = {"dtype": "F32", "shape": list(W[n].shape), "data_offsets": [off, off + len(b)]}
    off += len(b); blobs.append(b)
hj = json.dumps(header, separators=(",", ":")).encode()
hj += b" " * ((8 - len(hj) % 8) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(hj))); f.write(hj)
    for b in blobs:
        f.write(b)
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(cfg, f, indent=2); f.write("\n")
with open(os.path.join(out, "reference.json"), "w") as f:
    json.dump({"torch": torch.__version__, "cases": ref}, f); f.write("\n")
print(f"{out}: {len(names)} tensors, {off} bytes, {len(ref)} reference cases")
