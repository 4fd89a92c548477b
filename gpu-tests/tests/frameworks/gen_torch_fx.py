#!/usr/bin/env python3
"""PyTorch programs through torch-mlir's FX importer as kiln end-to-end tests.

Each program below is a small `torch.nn.Module` with seeded random weights.
It is exported with `torch_mlir.fx.export_and_import(model, *inputs,
output_type="linalg-on-tensors")` (torch.export, then torch-mlir's
torch → linalg pipeline, the path issue 30 names for PyTorch users): the
module's parameters and buffers arrive as `dense_resource` constants whose
bytes sit in the `{-# dialect_resources ... #-}` section, as the importer
writes them. The function is wrapped as a test in IREE's end-to-end format
by `ci/onnx_node_linalg.py`'s `wrap`: the inputs become
`util.unfoldable_constant`s and PyTorch's own outputs (eager mode on the
CPU) become `check.expect_almost_eq_const` / `check.expect_eq_const`. The
expected values are PyTorch's, never kiln's.

Writes `torch_NAME.mlir` beside this script. Needs a venv with
`torch==2.15.0 torch-mlir==20261001 numpy` (authoring only, not in CI: the
written files are committed and run like the JAX programs):

    python3 -m venv /work/venvs/torch
    /work/venvs/torch/bin/pip install torch==2.15.0 torch-mlir==20261001 numpy
    /work/venvs/torch/bin/python gpu-tests/tests/frameworks/gen_torch_fx.py [NAME...]
"""

import os
import re
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "ci"))
import onnx_node_linalg  # noqa: E402  (wrap: the e2e test around a function)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402
from torch_mlir import fx  # noqa: E402


def rand(g, *shape, scale=1.0):
    return torch.randn(*shape, generator=g) * scale


def randomise(module, g, scale=0.3):
    """Every parameter and floating buffer re-drawn from `g` (PyTorch's
    default initialisation is seeded from the global generator)."""
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(rand(g, *p.shape, scale=scale))
    return module


def mlp(g):
    """nn.Linear, ReLU, nn.Linear, softmax: weights are module parameters
    (dense_resource constants)."""
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8), nn.Softmax(dim=-1))
    return randomise(model, g), [rand(g, 4, 16)], 1e-5


class CnnBlock(nn.Module):
    """conv, batch norm (eval: running statistics), ReLU, max pool, strided
    conv with padding, avg pool, flatten, linear."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 6, 3, stride=2, padding=1)
        self.fc = nn.Linear(6 * 2 * 2, 5)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn(self.c1(x))), 2)
        y = F.avg_pool2d(self.c2(y), 2)
        return self.fc(torch.flatten(y, 1))


def cnn(g):
    model = randomise(CnnBlock(), g)
    with torch.no_grad():
        model.bn.running_mean.copy_(rand(g, 8, scale=0.2))
        model.bn.running_var.copy_(rand(g, 8).abs() + 0.5)
    return model.eval(), [rand(g, 2, 3, 16, 16)], 1e-4


class Attention(nn.Module):
    """layer norm, fused QKV projection, causal scaled_dot_product_attention
    (two heads), output projection, GELU, softmax.

    Not `F.gelu(y, approximate="tanh")`: torch-mlir 20261001's linalg
    lowering writes sqrt(2/pi) as 0.7977240352174656 (it is 0.7978845608), so
    its program differs from PyTorch by ~5e-5 (kiln computes the program as
    written; checked in the reference evaluator, the CPU runner and on
    lavapipe alike)."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(16)
        self.qkv = nn.Linear(16, 48)
        self.out = nn.Linear(16, 16)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln(x)).split(16, dim=-1)
        q, k, v = (z.reshape(b, t, 2, 8).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = self.out(a.transpose(1, 2).reshape(b, t, c))
        return F.gelu(y), torch.softmax(y, dim=-1)


def attention(g):
    model = randomise(Attention(), g)
    return model.eval(), [rand(g, 2, 6, 16)], 1e-5


class Indexing(nn.Module):
    """embedding lookup, argmax, cumsum (f32 and i64), gather along
    dimension 1, where, integer arithmetic."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)

    def forward(self, ids, x, idx):
        e = self.emb(ids)
        a = torch.argmax(x, dim=1)
        c = torch.cumsum(x, dim=1)
        ci = torch.cumsum(ids, dim=1)
        gth = torch.gather(x, 1, idx)
        w = torch.where(x > 0, x, 0.1 * x)
        return e, a, c, ci, gth, w, ids * 3 - 7


def indexing(g):
    model = randomise(Indexing(), g)
    ids = torch.randint(0, 10, (3, 5), generator=g)
    x = rand(g, 3, 7)
    idx = torch.randint(0, 7, (3, 4), generator=g)
    return model.eval(), [ids, x, idx], 1e-5


class PositionIds(nn.Module):
    """GPT-2-style position ids from an attention mask (cumsum of the
    mask, minus one, masked_fill where padded), token plus position
    embeddings."""

    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(12, 8)
        self.wpe = nn.Embedding(6, 8)

    def forward(self, ids, mask):
        pos = torch.cumsum(mask, dim=-1) - 1
        pos = pos.masked_fill(mask == 0, 1)
        return self.wte(ids) + self.wpe(pos), pos


def position_ids(g):
    model = randomise(PositionIds(), g)
    ids = torch.randint(0, 12, (2, 6), generator=g)
    mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]], dtype=torch.int64)
    return model.eval(), [ids, mask], 1e-5


class IndexPut(nn.Module):
    """index_put with accumulate (duplicate rows add up), x[i] = v,
    x[:, i] += v, x[i, j] += v: torch-mlir's tm_tensor.scatter with
    unit update dims for the indexed dims."""

    def forward(self, x, i, v, c, w, r, s, u):
        a = x.index_put((i,), v, accumulate=True)
        b = x.index_put((i[:2],), v[:2])
        col = torch.ops.aten.index_put(c, [None, i], w, True)
        pt = c.index_put((r, s), u, accumulate=True)
        return a, b, col, pt


def index_put(g):
    x, v = rand(g, 5, 3), rand(g, 4, 3)
    c, w = rand(g, 3, 6), rand(g, 3, 4)
    i = torch.tensor([4, 0, 2, 2])
    r, s = torch.tensor([2, 0, 2, 1]), torch.tensor([5, 0, 5, 3])
    return IndexPut().eval(), [x, i, v, c, w, r, s, rand(g, 4)], 1e-5


class SelectK(nn.Module):
    """kthvalue (torch-mlir's tm_tensor.topk), topk largest and smallest
    and a descending sort (tm_tensor.sort); distinct values (PyTorch does
    not promise which index a tie gives)."""

    def forward(self, x):
        kv, ki = torch.kthvalue(x, 3, dim=1)
        tv, ti = torch.topk(x, 2, dim=1)
        sv, si = torch.topk(x, 2, dim=0, largest=False)
        dv, di = torch.sort(x, dim=1, descending=True)
        return kv, ki, tv, ti, sv, si, dv, di


def select_k(g):
    return SelectK().eval(), [rand(g, 4, 7)], 1e-6


class Gpt2Block(nn.Module):
    """A GPT-2 block exported with a dynamic batch size (`tensor<?x8x16xf32>`
    in and out): layer norms, fused QKV, a causal mask from a `tril`
    buffer with masked_fill(-inf), softmax, residuals, an MLP with GELU."""

    def __init__(self, d=16, heads=2, ctx=8):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.register_buffer("bias", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.attn(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (c // self.heads) ** 0.5)
        att = F.softmax(att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf")), dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))
        return x + self.fc2(F.gelu(self.fc(self.ln2(x))))


def gpt2_block(g):
    model = randomise(Gpt2Block(), g)
    batch = torch.export.Dim("batch", min=1, max=64)
    return model.eval(), [rand(g, 3, 8, 16)], 1e-5, {"x": {0: batch}}


class BertEncoder(nn.Module):
    """token and position embeddings, two nn.TransformerEncoderLayers
    (post-norm, GELU) with a boolean key padding mask (one sequence padded
    after five tokens)."""

    def __init__(self):
        super().__init__()
        self.emb, self.pos = nn.Embedding(30, 16), nn.Embedding(8, 16)
        layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, ids, pad):
        x = self.emb(ids) + self.pos(torch.arange(ids.shape[1]))
        return self.enc(x, src_key_padding_mask=pad)


def bert_encoder(g):
    model = randomise(BertEncoder(), g)
    ids = torch.randint(0, 30, (2, 8), generator=g)
    pad = torch.tensor([[False] * 8, [False] * 5 + [True] * 3])
    return model.eval(), [ids, pad], 1e-5


class LlamaBlock(nn.Module):
    """A Llama-style decoder block: RMSNorm, rotary position embeddings
    from a non-persistent `inv_freq` buffer (as transformers registers it;
    torch-mlir's importer needs it made persistent, see `fx_test`), grouped
    query attention (4 query heads over 2 key/value heads, repeat_kv),
    causal softmax, a SiLU-gated MLP, residuals."""

    def __init__(self, d=16, heads=4, kv_heads=2, inter=24):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d // heads
        self.n1, self.n2 = nn.Parameter(torch.ones(d)), nn.Parameter(torch.ones(d))
        self.q, self.k = nn.Linear(d, d, bias=False), nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v, self.o = nn.Linear(d, kv_heads * self.hd, bias=False), nn.Linear(d, d, bias=False)
        self.gate, self.up = nn.Linear(d, inter, bias=False), nn.Linear(d, inter, bias=False)
        self.down = nn.Linear(inter, d, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2, dtype=torch.float32) / self.hd))
        self.register_buffer("inv_freq", inv, persistent=False)

    @staticmethod
    def rms(x, w):
        return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5))

    @staticmethod
    def rotate(x, cos, sin):
        a, b = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return x * cos + torch.cat((-b, a), dim=-1) * sin

    def forward(self, x):
        b, t, d = x.shape
        ang = torch.arange(t, dtype=torch.float32)[:, None] * self.inv_freq[None, :]
        emb = torch.cat((ang, ang), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        h = self.rms(x, self.n1)
        q = self.q(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
        rep = self.heads // self.kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / self.hd ** 0.5
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        att = F.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
        h = self.rms(x, self.n2)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def llama_block(g):
    model = randomise(LlamaBlock(), g)
    return model.eval(), [rand(g, 2, 6, 16)], 1e-5


PROGRAMS = {
    "mlp": mlp,
    "cnn": cnn,
    "attention": attention,
    "indexing": indexing,
    "position_ids": position_ids,
    "index_put": index_put,
    "select_k": select_k,
    "gpt2_block": gpt2_block,
    "bert_encoder": bert_encoder,
    "llama_block": llama_block,
}


def doc_of(name, model):
    doc = PROGRAMS[name].__doc__ or type(model).__doc__ or ""
    return " ".join(line.strip() for line in doc.split("\n")).strip()


def static_checks(test, args, outs):
    """The check function of a program with dynamic sizes in its signature:
    each input a static constant cast to the signature's type, each output
    cast to its static type before the check."""

    def static(ty, shape):
        return "tensor<%s>" % "x".join([str(d) for d in shape] + [onnx_node_linalg.element_type(ty)])

    lines = []
    for line in test.split("\n"):
        m = re.fullmatch(r"    %in(\d+) = util.unfoldable_constant (.*) : (tensor<[^>]*\?[^>]*>)", line)
        if m:
            k, lit, ty = int(m.group(1)), m.group(2), m.group(3)
            st = static(ty, args[k].shape)
            lines += ["    %%in%d_s = util.unfoldable_constant %s : %s" % (k, lit, st),
                      "    %%in%d = tensor.cast %%in%d_s : %s to %s" % (k, k, st, ty)]
            continue
        m = re.fullmatch(r"    check.expect_(\w+)_const\(%out(\d+), (.*) : (tensor<[^>]*\?[^>]*>)(.*) : tensor<[^>]*>", line)
        if m:
            kind, k, lit, ty, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4), m.group(5)
            st = static(ty, outs[k].shape)
            lines += ["    %%out%d_s = tensor.cast %%out%d : %s to %s" % (k, k, ty, st),
                      "    check.expect_%s_const(%%out%d_s, %s : %s%s : %s" % (kind, k, lit, st, rest, st)]
            continue
        lines.append(line)
    return "\n".join(lines)


def fx_test(model, args, rtol, atol, dynamic=None):
    """`model` on `args` (torch tensors) through
    `fx.export_and_import(..., output_type="linalg-on-tensors")` as an e2e
    test: (test module text, its `{-# dialect_resources #-}` section,
    PyTorch's eager outputs as numpy arrays). `dynamic`: torch.export's
    dynamic_shapes, the inputs and checks then cast to the static shapes.

    The model's non-persistent buffers are made persistent first (the same
    tensors): torch-mlir 20261001's `import_frozen_program` looks every
    buffer up in the exported program's state_dict, where torch.export
    leaves non-persistent ones out (they are in `constants`), and fails with
    "Could not find state mapping for buffer" (transformers' Llama rotary
    `inv_freq`, BERT's `position_ids`)."""
    for m in model.modules():
        m._non_persistent_buffers_set.clear()
    module = fx.export_and_import(model, *args, output_type="linalg-on-tensors", func_name="main",
                                  dynamic_shapes=dynamic)
    text = str(module)
    # The resource section follows the module: wrap the module alone.
    cut = text.find("\n{-#")
    text, resources = (text, "") if cut < 0 else (text[:cut + 1], text[cut + 1:])
    with torch.no_grad():
        outs = model(*args)
    outs = [o.numpy() for o in (outs if isinstance(outs, tuple) else (outs,))]
    test = onnx_node_linalg.wrap(text, "main", [a.numpy() for a in args], outs, rtol, atol)
    if dynamic:
        test = static_checks(test, args, outs)
    return test, resources, outs


def build(name):
    g = torch.Generator().manual_seed(zlib.crc32(name.encode()))
    model, args, tol, *dynamic = PROGRAMS[name](g)
    test, resources, _ = fx_test(model, args, tol, tol, dynamic[0] if dynamic else None)
    header = ["// Generated by gen_torch_fx.py (PyTorch %s, torch-mlir FX importer, linalg-on-tensors); do not edit."
              % torch.__version__.split("+")[0],
              "// " + doc_of(name, model)]
    with open(os.path.join(HERE, "torch_%s.mlir" % name), "w") as fh:
        fh.write("\n".join(header) + "\n" + test + resources)


def main():
    names = sys.argv[1:] or list(PROGRAMS)
    for name in names:
        build(name)
        print("wrote torch_%s.mlir" % name)


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
