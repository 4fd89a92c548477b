//! The decoder on a device: weights uploaded once in their [`Format`],
//! the programs of [`super::program`] compiled once, a KV cache per layer,
//! and the greedy generation loop ([`Model::generate`]).

use std::time::{Duration, Instant};

use kiln_runtime::half::f16;
use kiln_runtime::{ops, DType, Device, Program, Stream, Tensor};

use super::program::Forms;
use super::{quantize_q4_0, Config, Format, Weights, ROPE_THETA};

/// One layer's device tensors: weights (one tensor per f16 weight, codes
/// and scales per Q4_0 one) and its KV cache `[max_seq, kv_heads, hd]`.
struct DeviceLayer {
    attn_norm: Tensor,
    wq: Vec<Tensor>,
    wk: Vec<Tensor>,
    wv: Vec<Tensor>,
    wo: Vec<Tensor>,
    ffn_norm: Tensor,
    w_gate: Vec<Tensor>,
    w_up: Vec<Tensor>,
    w_down: Vec<Tensor>,
    k_cache: Tensor,
    v_cache: Tensor,
}

/// The decoder on a device.
pub struct Model {
    config: Config,
    format: Format,
    forms: Forms,
    program: Program,
    embedding: Tensor,
    layers: Vec<DeviceLayer>,
    out_norm: Tensor,
    w_out: Vec<Tensor>,
    /// RoPE's `cos`/`sin` of every position `[max_seq, hd/2]`.
    cos: Tensor,
    sin: Tensor,
}

/// Where the time of [`Model::generate`] went.
#[derive(Clone, Copy, Debug)]
pub struct Timings {
    /// The prompt's prefill, up to the first generated token read back.
    pub prefill: Duration,
    /// The decode steps after it (one token each).
    pub decode: Duration,
    /// How many decode steps `decode` covers.
    pub decode_steps: usize,
}

/// `w` (`[n, k]`) as device tensors in `format`.
fn upload_weight(
    device: &Device,
    format: Format,
    w: &[f32],
    n: usize,
    k: usize,
) -> anyhow::Result<Vec<Tensor>> {
    Ok(match format {
        Format::F16 => {
            let h: Vec<f16> = w.iter().map(|&x| f16::from_f32(x)).collect();
            vec![Tensor::from_slice(device, &h, &[n, k])?]
        }
        Format::Q4_0 => {
            let (codes, scales) = quantize_q4_0(w, k);
            vec![
                Tensor::from_slice(device, &codes, &[n, k / 2])?,
                Tensor::from_slice(device, &scales, &[n, k / super::Q4_BLOCK])?,
            ]
        }
    })
}

impl Model {
    /// Compiles the programs for `weights.config`, `format` and `forms`
    /// on `device` and uploads the weights, stored as `format`.
    pub fn new(
        device: &Device,
        weights: &Weights,
        format: Format,
        forms: Forms,
    ) -> anyhow::Result<Model> {
        let c = weights.config;
        c.check()?;
        let module = kiln_runtime::load_tensor_program(&super::program::text(&c, format, forms))?;
        let program = device.compile(&module)?;
        let (d, hd, f) = (c.dim, c.head_dim(), c.hidden);
        let (nq, nkv) = (c.heads * hd, c.kv_heads * hd);
        let up = |w: &[f32], n: usize, k: usize| upload_weight(device, format, w, n, k);
        let vec1 = |v: &[f32]| Tensor::from_slice(device, v, &[v.len()]);
        let mut layers = Vec::with_capacity(c.layers);
        for l in &weights.layers {
            layers.push(DeviceLayer {
                attn_norm: vec1(&l.attn_norm)?,
                wq: up(&l.wq, nq, d)?,
                wk: up(&l.wk, nkv, d)?,
                wv: up(&l.wv, nkv, d)?,
                wo: up(&l.wo, d, d)?,
                ffn_norm: vec1(&l.ffn_norm)?,
                w_gate: up(&l.w_gate, f, d)?,
                w_up: up(&l.w_up, f, d)?,
                w_down: up(&l.w_down, d, f)?,
                k_cache: Tensor::zeros(device, DType::F32, &[c.max_seq, c.kv_heads, hd])?,
                v_cache: Tensor::zeros(device, DType::F32, &[c.max_seq, c.kv_heads, hd])?,
            });
        }
        // RoPE: position p, pair i turns by p · theta^(-2i/hd).
        let half = hd / 2;
        let angle = |p: usize, i: usize| p as f64 * ROPE_THETA.powf(-2.0 * i as f64 / hd as f64);
        let table = |f: fn(f64) -> f64| -> Vec<f32> {
            (0..c.max_seq * half)
                .map(|k| f(angle(k / half, k % half)) as f32)
                .collect()
        };
        Ok(Model {
            config: c,
            format,
            forms,
            program,
            embedding: Tensor::from_slice(device, &weights.embedding, &[c.vocab, d])?,
            layers,
            out_norm: vec1(&weights.out_norm)?,
            w_out: up(&weights.w_out, c.vocab, d)?,
            cos: Tensor::from_slice(device, &table(f64::cos), &[c.max_seq, half])?,
            sin: Tensor::from_slice(device, &table(f64::sin), &[c.max_seq, half])?,
        })
    }

    /// The weights' stored bytes that one decode step reads: every
    /// projection of every layer and the output head (the embedding reads
    /// one row, the gains are negligible and not counted).
    pub fn weight_bytes_per_token(&self) -> usize {
        let c = &self.config;
        let (d, hd, f) = (c.dim, c.head_dim(), c.hidden);
        let b = |n, k| self.format.bytes(n, k);
        let layer = b(c.heads * hd, d) + 2 * b(c.kv_heads * hd, d) + b(d, d) + 3 * b(f, d);
        c.layers * layer + b(c.vocab, d)
    }

    /// Multiply-adds per token of the projections (2 FLOPs each), the
    /// prefill's arithmetic without the attention's scores.
    pub fn flops_per_token(&self) -> f64 {
        let c = &self.config;
        let (d, hd, f) = (c.dim, c.head_dim(), c.hidden);
        let layer = (c.heads + 2 * c.kv_heads) * hd * d + d * d + 3 * f * d;
        2.0 * (c.layers * layer + c.vocab * d) as f64
    }

    /// One pass of the layers over `x` (`[rows, dim]`) at positions
    /// `pos..pos + rows`, the keys and values written into the caches.
    fn layers(&self, stream: &Stream, mut x: Tensor, pos: usize) -> anyhow::Result<Tensor> {
        let rows = x.shape()[0];
        let matvec = match self.forms {
            Forms::Dynamic => false,
            Forms::MatvecDecode => rows == 1,
            Forms::DecodeOnly => {
                anyhow::ensure!(rows == 1, "DecodeOnly forms take one row a pass");
                true
            }
        };
        let (qkv, attn) = if matvec {
            ("qkv_decode", "attn_decode")
        } else {
            ("qkv", "attn")
        };
        let cos = self.cos.narrow(0, pos, rows)?;
        let sin = self.sin.narrow(0, pos, rows)?;
        for l in &self.layers {
            let mut args = vec![x.clone(), l.attn_norm.clone()];
            args.extend(l.wq.iter().chain(&l.wk).chain(&l.wv).cloned());
            args.extend([cos.clone(), sin.clone()]);
            let out = self.program.enqueue(stream, qkv, &args)?;
            let [q, k, v] = <[Tensor; 3]>::try_from(out)
                .map_err(|r| anyhow::anyhow!("@{qkv} returned {} results", r.len()))?;
            stream.copy(&k, &l.k_cache.narrow(0, pos, rows)?)?;
            stream.copy(&v, &l.v_cache.narrow(0, pos, rows)?)?;
            let keys = l.k_cache.narrow(0, 0, pos + rows)?;
            let values = l.v_cache.narrow(0, 0, pos + rows)?;
            let mut args = vec![x, q, keys, values];
            args.extend(l.wo.iter().cloned());
            args.push(l.ffn_norm.clone());
            args.extend(l.w_gate.iter().chain(&l.w_up).chain(&l.w_down).cloned());
            x = self.program.enqueue(stream, attn, &args)?.remove(0);
        }
        Ok(x)
    }

    /// The greedy next token (`i64 [1]`, on the device) after the last
    /// row of `x`.
    fn next_token(&self, stream: &Stream, x: &Tensor) -> anyhow::Result<Tensor> {
        let last = x.narrow(0, x.shape()[0] - 1, 1)?;
        let mut args = vec![last, self.out_norm.clone()];
        args.extend(self.w_out.iter().cloned());
        let logits = self.program.enqueue(stream, "head", &args)?.remove(0);
        Ok(ops::argmax(stream, &logits, 1, false)?)
    }

    /// Prefills `prompt` (token ids below the vocabulary size) and decodes
    /// `n` tokens greedily; returns them and where the time went. The KV
    /// cache is overwritten from position 0.
    pub fn generate(
        &self,
        stream: &Stream,
        prompt: &[i64],
        n: usize,
    ) -> anyhow::Result<(Vec<i64>, Timings)> {
        let c = &self.config;
        anyhow::ensure!(
            !prompt.is_empty() && n > 0 && prompt.len() + n <= c.max_seq,
            "a prompt of {} tokens and {n} more (at least one of each) must fit the cache of {}",
            prompt.len(),
            c.max_seq
        );
        let device = stream.device();
        let start = Instant::now();
        let ids = Tensor::from_slice(&device, prompt, &[prompt.len()])?;
        let x = ops::embedding(stream, &self.embedding, &ids)?;
        let x = if self.forms == Forms::DecodeOnly {
            // One token a pass.
            let mut last = None;
            for p in 0..prompt.len() {
                last = Some(self.layers(stream, x.narrow(0, p, 1)?, p)?);
            }
            last.ok_or_else(|| anyhow::anyhow!("an empty prompt"))?
        } else {
            self.layers(stream, x, 0)?
        };
        let mut token = self.next_token(stream, &x)?;
        let mut out = vec![token.to_vec::<i64>()?[0]];
        let prefill = start.elapsed();
        let start = Instant::now();
        for step in 1..n {
            let pos = prompt.len() + step - 1;
            let x = ops::embedding(stream, &self.embedding, &token)?;
            let x = self.layers(stream, x, pos)?;
            token = self.next_token(stream, &x)?;
            out.push(token.to_vec::<i64>()?[0]);
        }
        Ok((
            out,
            Timings {
                prefill,
                decode: start.elapsed(),
                decode_steps: n.saturating_sub(1),
            },
        ))
    }
}
