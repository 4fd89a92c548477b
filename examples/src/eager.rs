//! A framework-shaped use of kiln-runtime's `ops`: a tiny text classifier
//! (token embedding, mean over the sequence, two dense layers with a tanh
//! GELU, softmax, the predicted class) run op by op on device tensors, the way a
//! framework's eager mode calls a backend. Weights are uploaded once;
//! each batch is a handful of op calls enqueued on one stream, with no
//! host round trip until the results are read. The dense head (two
//! layers and the softmax: 6 op calls) can be captured once
//! ([`Model::capture_head`], `ops::capture`) and replayed per batch as one
//! compiled program. Its twin, [`host_forward`], computes the same model
//! in f64 on the host as the oracle.

use kiln_runtime::ops::{self, Graph};
use kiln_runtime::{Device, Stream, Tensor};

/// The model's sizes.
pub const VOCAB: usize = 50;
/// Embedding width.
pub const DIM: usize = 16;
/// Hidden width.
pub const HIDDEN: usize = 32;
/// Classes.
pub const CLASSES: usize = 5;

/// The model's weights on the host (row-major f32).
pub struct Weights {
    /// `[VOCAB, DIM]`.
    pub table: Vec<f32>,
    /// `[DIM, HIDDEN]`.
    pub w1: Vec<f32>,
    /// `[HIDDEN]`.
    pub b1: Vec<f32>,
    /// `[HIDDEN, CLASSES]`.
    pub w2: Vec<f32>,
    /// `[CLASSES]`.
    pub b2: Vec<f32>,
}

impl Weights {
    /// Seeded random weights.
    pub fn random(seed: u64) -> Weights {
        let mut rng = crate::Rng::new(seed);
        let mut v = |n: usize, scale: f32| (0..n).map(|_| rng.next() * scale).collect::<Vec<_>>();
        Weights {
            table: v(VOCAB * DIM, 1.0),
            w1: v(DIM * HIDDEN, 0.5),
            b1: v(HIDDEN, 0.1),
            w2: v(HIDDEN * CLASSES, 0.5),
            b2: v(CLASSES, 0.1),
        }
    }
}

/// The weights as device tensors (uploaded once).
pub struct Model {
    table: Tensor,
    w1: Tensor,
    b1: Tensor,
    w2: Tensor,
    b2: Tensor,
    /// The dense head captured as a graph, once [`capture_head`](Self::capture_head) ran.
    head: Option<Graph>,
}

impl Model {
    /// Uploads `w` to `device`.
    pub fn upload(device: &Device, w: &Weights) -> kiln_runtime::Result<Model> {
        Ok(Model {
            table: Tensor::from_slice(device, &w.table, &[VOCAB, DIM])?,
            w1: Tensor::from_slice(device, &w.w1, &[DIM, HIDDEN])?,
            b1: Tensor::from_slice(device, &w.b1, &[HIDDEN])?,
            w2: Tensor::from_slice(device, &w.w2, &[HIDDEN, CLASSES])?,
            b2: Tensor::from_slice(device, &w.b2, &[CLASSES])?,
            head: None,
        })
    }

    /// Class probabilities `[B, CLASSES]` and the predicted class `[B]`
    /// (`i64`) of `tokens` (`[B, T]`, `i64` in `0..VOCAB`), enqueued on
    /// `stream`. A token out of range is an error naming
    /// `ops::embedding`.
    pub fn forward(
        &self,
        stream: &Stream,
        tokens: &Tensor,
    ) -> kiln_runtime::Result<(Tensor, Tensor)> {
        let e = ops::embedding(stream, &self.table, tokens)?; // [B, T, DIM]
        let pooled = ops::mean(stream, &e, &[1], false)?; // [B, DIM]
        let probs = match &self.head {
            Some(graph) => graph.run(stream, &[&pooled])?.remove(0),
            None => self.head(stream, &pooled)?,
        };
        let class = ops::argmax(stream, &probs, 1, false)?;
        Ok((probs, class))
    }

    /// The dense head, eagerly: `softmax(gelu(p W1 + b1) W2 + b2)`.
    fn head(&self, stream: &Stream, pooled: &Tensor) -> kiln_runtime::Result<Tensor> {
        let h = ops::add(stream, &ops::matmul(stream, pooled, &self.w1)?, &self.b1)?;
        let h = ops::gelu_tanh(stream, &h)?;
        let logits = ops::add(stream, &ops::matmul(stream, &h, &self.w2)?, &self.b2)?;
        ops::softmax(stream, &logits, 1)
    }

    /// Captures the dense head's op calls on an example input (`[B, DIM]`
    /// f32; any batch size replays) as one program that
    /// [`forward`](Self::forward) replays from now on; returns how many
    /// dispatches a replay enqueues.
    pub fn capture_head(
        &mut self,
        stream: &Stream,
        example: &Tensor,
    ) -> kiln_runtime::Result<usize> {
        let (_, graph) = ops::capture(stream, &[example], |s, x| Ok(vec![self.head(s, x[0])?]))?;
        let n = graph.dispatches();
        self.head = Some(graph);
        Ok(n)
    }
}

/// The same model on the host in f64: probabilities `[B, CLASSES]`.
pub fn host_forward(w: &Weights, tokens: &[i64], batch: usize) -> Vec<f64> {
    let t = tokens.len() / batch;
    let mut out = Vec::with_capacity(batch * CLASSES);
    for b in 0..batch {
        let mut pooled = [0f64; DIM];
        for &tok in &tokens[b * t..(b + 1) * t] {
            for (d, p) in pooled.iter_mut().enumerate() {
                *p += f64::from(w.table[tok as usize * DIM + d]) / t as f64;
            }
        }
        let mut h = [0f64; HIDDEN];
        for (j, hj) in h.iter_mut().enumerate() {
            let mut s = f64::from(w.b1[j]);
            for (d, p) in pooled.iter().enumerate() {
                s += p * f64::from(w.w1[d * HIDDEN + j]);
            }
            let c = (2.0 / std::f64::consts::PI).sqrt();
            *hj = 0.5 * s * (1.0 + (c * (s + 0.044715 * s * s * s)).tanh());
        }
        let mut logits = [0f64; CLASSES];
        for (k, l) in logits.iter_mut().enumerate() {
            *l = f64::from(w.b2[k])
                + (0..HIDDEN)
                    .map(|j| h[j] * f64::from(w.w2[j * CLASSES + k]))
                    .sum::<f64>();
        }
        let m = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = logits.iter().map(|l| (l - m).exp()).sum();
        out.extend(logits.iter().map(|l| (l - m).exp() / z));
    }
    out
}
