#!/usr/bin/env python3
"""The oracle of kiln's decode example (examples/src/decode/): the same
Llama-style decoder in float64 numpy, written independently of kiln.

It rebuilds the example's seeded weights bit for bit (the xorshift64*
generator of kiln_examples::Rng, f32 products as the Rust code does them),
stores them as the example does (f16; or GGUF Q4_0, quantized here as
llama.cpp's quantize_row_q4_0_ref does, in float32), dequantizes them to
float64 and runs the model without a KV cache: each step recomputes the
whole sequence with a causal mask and takes the last position's argmax
(greedy). Writes expected_tokens.txt next to this file (one line per
format) and prints each format's smallest gap between the best and the
second-best logit over the steps, the margin a device's rounding must stay
within for the tokens to match.

    python3 examples/decode/reference.py        # rewrites expected_tokens.txt
    python3 examples/decode/reference.py --check   # compares, writes nothing
"""
import os
import sys

import numpy as np

# kiln_examples::decode::Config::TINY and the example's seed, prompt, count.
DIM, HEADS, KV_HEADS, HIDDEN, VOCAB, LAYERS = 64, 4, 2, 192, 256, 2
SEED = 36
# A prompt of 7 tokens (the example's), and one of a single token (the CI
# test's: its prefill runs the one-row kernels, cheap to compile).
PROMPTS = [[1, 17, 42, 99, 3, 200, 7], [5]]
TOKENS = 64
EPS = 1e-5
THETA = 10000.0
M64 = (1 << 64) - 1


class Rng:
    """xorshift64*, as kiln_examples::Rng (24 random bits per float)."""

    def __init__(self, seed):
        self.s = ((seed * 0x9E3779B97F4A7C15) & M64) | 1

    def floats(self, n, scale):
        bits = np.empty(n, dtype=np.float32)
        s = self.s
        for k in range(n):
            s ^= s >> 12
            s ^= (s << 25) & M64
            s ^= s >> 27
            bits[k] = ((s * 0x2545F4914F6CDD1D) & M64) >> 40
        self.s = s
        u = bits / np.float32(1 << 23) - np.float32(1.0)  # exact in f32
        return (u * np.float32(scale)).astype(np.float32)


def weights():
    rng = Rng(SEED)
    hd = DIM // HEADS
    sd = np.sqrt(np.float32(1.0) / np.float32(DIM), dtype=np.float32)
    sf = np.sqrt(np.float32(1.0) / np.float32(HIDDEN), dtype=np.float32)

    def gain():
        return np.float32(1.0) + rng.floats(DIM, 0.1)

    def mat(n, k, scale):
        return rng.floats(n * k, scale).reshape(n, k)

    w = {"emb": mat(VOCAB, DIM, 1.0), "layers": []}
    for _ in range(LAYERS):
        layer = {}
        layer["attn_norm"] = gain()
        layer["wq"] = mat(HEADS * hd, DIM, sd)
        layer["wk"] = mat(KV_HEADS * hd, DIM, sd)
        layer["wv"] = mat(KV_HEADS * hd, DIM, sd)
        layer["wo"] = mat(DIM, DIM, sd)
        layer["ffn_norm"] = gain()
        layer["wgate"] = mat(HIDDEN, DIM, sd)
        layer["wup"] = mat(HIDDEN, DIM, sd)
        layer["wdown"] = mat(DIM, HIDDEN, sf)
        w["layers"].append(layer)
    w["out_norm"] = gain()
    w["wout"] = mat(VOCAB, DIM, sd)
    return w


def q4_0(w):
    """w [n, k] f32 -> its Q4_0 round trip in float64 (llama.cpp's
    reference quantizer: d = (value of largest magnitude) / -8, code =
    min(15, trunc(x * (1/d) + 8.5)), f16 scale)."""
    blocks = w.reshape(-1, 32).astype(np.float32)
    idx = np.argmax(np.abs(blocks), axis=1)  # the first on ties
    mx = blocks[np.arange(len(blocks)), idx]
    d = (mx / np.float32(-8.0)).astype(np.float32)
    with np.errstate(divide="ignore"):
        inv = np.where(d != 0, np.float32(1.0) / d, np.float32(0.0)).astype(np.float32)
    scaled = (blocks * inv[:, None]).astype(np.float32)
    codes = np.minimum(15, np.trunc(scaled + np.float32(8.5)).astype(np.int64))
    scale = d.astype(np.float16).astype(np.float64)
    return ((codes - 8) * scale[:, None]).reshape(w.shape)


def stored(w, fmt):
    if fmt == "f16":
        return w.astype(np.float16).astype(np.float64)
    return q4_0(w)


def rms_norm(x, g):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * g.astype(np.float64)


def rope(x, pos):
    """x [T, heads, hd] at positions pos: the rotate-half form."""
    hd = x.shape[-1]
    half = hd // 2
    freq = THETA ** (-2.0 * np.arange(half) / hd)
    ang = pos[:, None] * freq[None, :]
    c, s = np.cos(ang)[:, None, :], np.sin(ang)[:, None, :]
    x0, x1 = x[..., :half], x[..., half:]
    return np.concatenate([x0 * c - x1 * s, x1 * c + x0 * s], axis=-1)


def logits_of(model, tokens):
    t = len(tokens)
    hd = DIM // HEADS
    group = HEADS // KV_HEADS
    pos = np.arange(t, dtype=np.float64)
    x = model["emb"][tokens].astype(np.float64)
    mask = np.triu(np.ones((t, t), dtype=bool), k=1)
    for l in model["layers"]:
        y = rms_norm(x, l["attn_norm"])
        q = rope((y @ l["wq"].T).reshape(t, HEADS, hd), pos)
        k = rope((y @ l["wk"].T).reshape(t, KV_HEADS, hd), pos)
        v = (y @ l["wv"].T).reshape(t, KV_HEADS, hd)
        heads = []
        for h in range(HEADS):
            a = h // group
            sc = q[:, h, :] @ k[:, a, :].T / np.sqrt(hd)
            sc[mask] = -np.inf
            p = np.exp(sc - sc.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            heads.append(p @ v[:, a, :])
        x = x + np.concatenate(heads, axis=1) @ l["wo"].T
        y = rms_norm(x, l["ffn_norm"])
        gate, up = y @ l["wgate"].T, y @ l["wup"].T
        x = x + (gate / (1.0 + np.exp(-gate)) * up) @ l["wdown"].T
    return rms_norm(x[-1], model["out_norm"]) @ model["wout"].T


def generate(w, fmt, prompt):
    model = {
        "emb": w["emb"],
        "out_norm": w["out_norm"],
        "wout": stored(w["wout"], fmt),
        "layers": [
            {k: (stored(v, fmt) if k.startswith("w") else v) for k, v in l.items()}
            for l in w["layers"]
        ],
    }
    seq, out, margin = list(prompt), [], np.inf
    for _ in range(TOKENS):
        z = logits_of(model, np.array(seq))
        top = np.argsort(-z, kind="stable")
        margin = min(margin, z[top[0]] - z[top[1]])
        out.append(int(top[0]))
        seq.append(int(top[0]))
    return out, margin


def main():
    w = weights()
    lines = ["# Greedy tokens of kiln's decode example, written by reference.py (numpy, float64)."]
    for prompt in PROMPTS:
        for fmt in ["f16", "q4_0"]:
            tokens, margin = generate(w, fmt, prompt)
            print(f"{fmt} {prompt}: {tokens}\n  smallest top-1/top-2 logit gap {margin:.3e}")
            lines.append(
                f"{fmt} prompt={','.join(map(str, prompt))} tokens={','.join(map(str, tokens))}"
            )
    text = "\n".join(lines) + "\n"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected_tokens.txt")
    if "--check" in sys.argv:
        with open(path) as f:
            same = f.read() == text
        print("expected_tokens.txt is " + ("current" if same else "STALE"))
        sys.exit(0 if same else 1)
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
