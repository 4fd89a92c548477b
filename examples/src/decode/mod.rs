//! A Llama-style decoder's generation loop on kiln: RMSNorm, rotary
//! position embeddings (RoPE, the rotate-half form), grouped-query
//! attention, a SiLU-gated MLP, with f16 or 4-bit (GGUF Q4_0) weights, the
//! KV cache resident on the device, a prompt prefilled at once and then
//! greedy decoding one token per step.
//!
//! How it is built, and why this way: the model is a handful of tensor
//! programs (MLIR text that [`program::text`] writes for a [`Config`], a
//! [`Format`] and the [`program::Forms`] wanted: one layer's norm +
//! projections + RoPE, one layer's attention + MLP, the output head; the
//! layer's functions in a form whose row count is dynamic, for a prompt,
//! and a one-row form whose projections are matvecs, for a decode step)
//! compiled once by `Device::compile` and run on device tensors with
//! `Program::enqueue`. The KV cache is two preallocated device tensors per
//! layer; each pass copies its new keys and values into a row range of
//! them (`Stream::copy` into a `narrow` view) and the attention reads the
//! filled prefix as a tensor whose length is dynamic, so one compiled
//! program serves every position. Token embedding and the greedy choice
//! are kiln-runtime's eager `ops::embedding` and `ops::argmax`; nothing
//! but the chosen token id comes back to the host per step. A framework
//! author would copy this rather than the eager ops alone: the 4-bit
//! weights stay packed only in a compiled program, where kiln fuses the
//! dequantizing `linalg.generic` into the matvec or matmul that reads it
//! (`core/src/codegen/dequant.rs`), and one program per half layer
//! enqueues its dispatches in one call instead of one per op.
//!
//! The weights are seeded ([`Weights::random`], `crate::Rng`), so that
//! `reference.py` in `examples/decode/` rebuilds them bit for bit and runs
//! the same model in float64 numpy as the oracle; its greedy tokens are
//! committed in `examples/decode/expected_tokens.txt`.

pub mod model;
pub mod program;

use kiln_runtime::half::f16;

/// A decoder's sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Model width.
    pub dim: usize,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads (grouped-query attention: `heads` is a multiple).
    pub kv_heads: usize,
    /// The MLP's hidden width.
    pub hidden: usize,
    /// Vocabulary size.
    pub vocab: usize,
    /// Decoder layers.
    pub layers: usize,
    /// The KV cache's length: the most tokens a sequence may hold.
    pub max_seq: usize,
}

/// RMSNorm's epsilon.
pub const EPS: f32 = 1e-5;
/// RoPE's base.
pub const ROPE_THETA: f64 = 10_000.0;
/// The Q4_0 block: 32 weights share one f16 scale.
pub const Q4_BLOCK: usize = 32;

impl Config {
    /// The size CI checks token for token: width 64, 4 query heads and 2
    /// key/value heads of 16, MLP 192, vocabulary 256, 2 layers.
    pub const TINY: Config = Config {
        dim: 64,
        heads: 4,
        kv_heads: 2,
        hidden: 192,
        vocab: 256,
        layers: 2,
        max_seq: 128,
    };

    /// The width of a head.
    pub fn head_dim(&self) -> usize {
        self.dim / self.heads
    }

    /// Whether the sizes fit the model: heads divide the width, key/value
    /// heads divide the heads, a head's width is even (RoPE pairs), and
    /// every contraction's length is a multiple of the Q4_0 block.
    pub fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.heads > 0 && self.kv_heads > 0 && self.layers > 0 && self.vocab > 0,
            "{self:?}: heads, key/value heads, layers and vocabulary must be positive"
        );
        anyhow::ensure!(
            self.dim % self.heads == 0 && self.heads % self.kv_heads == 0,
            "{self:?}: heads must divide the width and key/value heads the heads"
        );
        anyhow::ensure!(self.head_dim() % 2 == 0, "{self:?}: odd head width");
        anyhow::ensure!(
            self.dim % Q4_BLOCK == 0 && self.hidden % Q4_BLOCK == 0,
            "{self:?}: width and MLP width must be multiples of {Q4_BLOCK}"
        );
        Ok(())
    }
}

/// How the projection weights are stored on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// f16 weights, f32 arithmetic.
    F16,
    /// GGUF Q4_0: blocks of 32 weights along a row, 4-bit codes (element
    /// `j` of a block in the low nibble of byte `j`, element `j + 16` in
    /// the high one; weight = (code - 8) × scale) and one f16 scale.
    Q4_0,
}

impl Format {
    /// The name `expected_tokens.txt` and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Format::F16 => "f16",
            Format::Q4_0 => "q4_0",
        }
    }

    /// Stored bytes of an `n × k` weight matrix.
    pub fn bytes(self, n: usize, k: usize) -> usize {
        match self {
            Format::F16 => 2 * n * k,
            Format::Q4_0 => n * k / 2 + 2 * n * (k / Q4_BLOCK),
        }
    }
}

/// One layer's weights (row-major, projections `[out, in]`).
pub struct Layer {
    /// The attention's RMSNorm gain `[dim]`.
    pub attn_norm: Vec<f32>,
    /// `[heads · head_dim, dim]`.
    pub wq: Vec<f32>,
    /// `[kv_heads · head_dim, dim]`.
    pub wk: Vec<f32>,
    /// `[kv_heads · head_dim, dim]`.
    pub wv: Vec<f32>,
    /// `[dim, dim]`.
    pub wo: Vec<f32>,
    /// The MLP's RMSNorm gain `[dim]`.
    pub ffn_norm: Vec<f32>,
    /// `[hidden, dim]`.
    pub w_gate: Vec<f32>,
    /// `[hidden, dim]`.
    pub w_up: Vec<f32>,
    /// `[dim, hidden]`.
    pub w_down: Vec<f32>,
}

/// The model's weights in f32, before they are stored as a [`Format`].
pub struct Weights {
    /// The sizes.
    pub config: Config,
    /// Token embeddings `[vocab, dim]`.
    pub embedding: Vec<f32>,
    /// The layers.
    pub layers: Vec<Layer>,
    /// The final RMSNorm's gain `[dim]`.
    pub out_norm: Vec<f32>,
    /// The output projection `[vocab, dim]`.
    pub w_out: Vec<f32>,
}

impl Weights {
    /// Seeded random weights, drawn from `crate::Rng::new(seed)` in this
    /// order (`reference.py` draws them the same way): the embedding
    /// (uniform ±1); per layer the attention gain (1 + 0.1·u), wq, wk, wv,
    /// wo (±1/√dim), the MLP gain, w_gate, w_up (±1/√dim), w_down
    /// (±1/√hidden); the final gain and the output projection (±1/√dim).
    /// Products and scales are f32 operations.
    pub fn random(config: Config, seed: u64) -> Weights {
        let mut rng = crate::Rng::new(seed);
        let mut v = |n: usize, scale: f32| (0..n).map(|_| rng.next() * scale).collect::<Vec<_>>();
        let (d, hd, f) = (config.dim, config.head_dim(), config.hidden);
        let sd = (1.0f32 / d as f32).sqrt();
        let sf = (1.0f32 / f as f32).sqrt();
        let gain = |g: Vec<f32>| g.into_iter().map(|u| 1.0 + u).collect::<Vec<_>>();
        let embedding = v(config.vocab * d, 1.0);
        let layers = (0..config.layers)
            .map(|_| Layer {
                attn_norm: gain(v(d, 0.1)),
                wq: v(config.heads * hd * d, sd),
                wk: v(config.kv_heads * hd * d, sd),
                wv: v(config.kv_heads * hd * d, sd),
                wo: v(d * d, sd),
                ffn_norm: gain(v(d, 0.1)),
                w_gate: v(f * d, sd),
                w_up: v(f * d, sd),
                w_down: v(d * f, sf),
            })
            .collect();
        let out_norm = gain(v(d, 0.1));
        let w_out = v(config.vocab * d, sd);
        Weights {
            config,
            embedding,
            layers,
            out_norm,
            w_out,
        }
    }
}

/// `w` (`[n, k]`, `k` a multiple of 32) quantized as GGUF Q4_0, as
/// llama.cpp's `quantize_row_q4_0_ref` does in f32: per block, `d` = the
/// element of largest magnitude ÷ -8, code = min(15, ⌊x/d + 8.5⌋) (x·(1/d)
/// in f32), the scale stored as f16. Returns the codes (`[n, k/2]` bytes)
/// and the scales (`[n, k/32]`).
pub fn quantize_q4_0(w: &[f32], k: usize) -> (Vec<i8>, Vec<f16>) {
    let blocks = w.len() / Q4_BLOCK;
    let mut codes = vec![0i8; w.len() / 2];
    let mut scales = Vec::with_capacity(blocks);
    debug_assert_eq!(k % Q4_BLOCK, 0);
    for (b, x) in w.chunks_exact(Q4_BLOCK).enumerate() {
        let max = x
            .iter()
            .fold(0f32, |m, &v| if v.abs() > m.abs() { v } else { m });
        let d = max / -8.0;
        let id = if d != 0.0 { 1.0 / d } else { 0.0 };
        let code = |v: f32| ((v * id + 8.5) as i32).min(15) as u8;
        for j in 0..Q4_BLOCK / 2 {
            let byte = code(x[j]) | (code(x[j + Q4_BLOCK / 2]) << 4);
            codes[b * Q4_BLOCK / 2 + j] = byte as i8;
        }
        scales.push(f16::from_f32(d));
    }
    (codes, scales)
}

/// One line of `expected_tokens.txt` (written by `reference.py`):
/// `FORMAT prompt=T,T,... tokens=T,T,...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The weights' [`Format::name`].
    pub format: String,
    /// The prompt's token ids.
    pub prompt: Vec<i64>,
    /// The greedy tokens after it.
    pub tokens: Vec<i64>,
}

/// The lines of `expected_tokens.txt` (`#` comments and blank lines
/// skipped).
pub fn expected_tokens(text: &str) -> anyhow::Result<Vec<Expected>> {
    let list = |s: &str| -> anyhow::Result<Vec<i64>> {
        s.split(',').map(|t| Ok(t.trim().parse::<i64>()?)).collect()
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(fmt), Some(prompt), Some(tokens)) = (parts.next(), parts.next(), parts.next())
        else {
            anyhow::bail!("line {}: want `FORMAT prompt=... tokens=...`", n + 1);
        };
        let (Some(p), Some(t)) = (
            prompt.strip_prefix("prompt="),
            tokens.strip_prefix("tokens="),
        ) else {
            anyhow::bail!("line {}: want `FORMAT prompt=... tokens=...`", n + 1);
        };
        let at = |e: anyhow::Error| anyhow::anyhow!("line {}: {e}", n + 1);
        out.push(Expected {
            format: fmt.to_owned(),
            prompt: list(p).map_err(at)?,
            tokens: list(t).map_err(at)?,
        });
    }
    Ok(out)
}

/// `examples/decode/expected_tokens.txt`.
pub const EXPECTED_TOKENS: &str = include_str!("../../decode/expected_tokens.txt");
