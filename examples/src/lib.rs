//! The models of kiln's runtime examples (`src/bin/mlp.rs`,
//! `src/bin/transformer.rs`) and what they share with the tests that run
//! them (`tests/examples/`): the tensor programs (`models/*.mlir`, MLIR 19
//! syntax), seeded random weights, the MLP's inference loop, and the
//! comparison with kiln-core's CPU reference evaluator.

pub mod decode;
pub mod eager;

use std::rc::Rc;

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Tensor, Value};
use kiln_core::tensor::{ElemType, TensorModule};

/// The MLP of `mlp.mlir`: 64 × 784 → 128 (ReLU) → 10.
pub const MLP: &str = include_str!("../models/mlp.mlir");
/// The transformer block of `transformer.mlir`: sequence 128, width 256,
/// 4 heads, MLP width 1024.
pub const TRANSFORMER: &str = include_str!("../models/transformer.mlir");

/// The transformer block with the sequence length dynamic
/// (`models/transformer_dynamic.mlir`): `@block` over `tensor<?x256xf32>`.
pub const TRANSFORMER_DYNAMIC: &str = include_str!("../models/transformer_dynamic.mlir");

/// A seeded generator of uniform floats (xorshift64*; examples need
/// repeatable data, not statistical quality).
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A float uniform in [-1, 1).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40; // 24 bits
        x as f32 / (1u64 << 23) as f32 - 1.0
    }

    /// An f32 tensor of `shape` with elements uniform in [-scale, scale).
    pub fn tensor(&mut self, shape: &[usize], scale: f32) -> Value {
        let n = shape.iter().product();
        let data: Vec<f32> = (0..n).map(|_| self.next() * scale).collect();
        f32_tensor(shape, data)
    }
}

/// An f32 tensor argument.
pub fn f32_tensor(shape: &[usize], data: Vec<f32>) -> Value {
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape: shape.to_vec(),
        data: Elements::F32(data),
    }))
}

/// The elements of an f32 tensor result.
pub fn f32_data(v: &Value) -> &[f32] {
    match v.tensor().map(|t| &t.data) {
        Some(Elements::F32(d)) => d,
        _ => &[],
    }
}

/// The largest |a - b| over two f32 results, relative to the largest |b|
/// (at least 1); infinite when their sizes differ.
pub fn relative_error(a: &Value, b: &Value) -> f64 {
    let (a, b) = (f32_data(a), f32_data(b));
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    let scale = b.iter().fold(1.0f64, |m, &x| m.max(f64::from(x).abs()));
    let diff = a.iter().zip(b).fold(0.0f64, |m, (&x, &y)| {
        m.max((f64::from(x) - f64::from(y)).abs())
    });
    diff / scale
}

/// The reference evaluator's results of `function` of `module`.
pub fn reference(
    module: &TensorModule,
    function: &str,
    args: &[Value],
) -> anyhow::Result<Vec<Value>> {
    kiln_core::tensor::eval::run(module, function, args)
        .map_err(|e| anyhow::anyhow!("the reference evaluator: {e}"))
}

/// The MLP's weights (seeded), in the order `@mlp` takes them after `x`;
/// scaled like Kaiming-uniform initialisation.
pub fn mlp_weights(seed: u64) -> Vec<Value> {
    let mut rng = Rng::new(seed);
    vec![
        rng.tensor(&[784, 128], (6.0f32 / 784.0).sqrt()),
        rng.tensor(&[128], 0.1),
        rng.tensor(&[128, 10], (6.0f32 / 128.0).sqrt()),
        rng.tensor(&[10], 0.1),
    ]
}

/// The transformer block's arguments (seeded): `x` then the weights, in
/// `@block`'s order.
pub fn transformer_args(seed: u64) -> Vec<Value> {
    transformer_args_of(seed, 128)
}

/// [`transformer_args`] for a sequence of `s` tokens (the dynamic block's
/// `x` is `s x 256`).
pub fn transformer_args_of(seed: u64, s: usize) -> Vec<Value> {
    let mut rng = Rng::new(seed);
    let (d, f) = (256, 1024);
    let w = |fan_in: usize| (1.0f32 / fan_in as f32).sqrt();
    let gain = |n: usize, rng: &mut Rng| {
        let data: Vec<f32> = (0..n).map(|_| 1.0 + 0.1 * rng.next()).collect();
        f32_tensor(&[n], data)
    };
    let x = rng.tensor(&[s, d], 1.0);
    let ln1_g = gain(d, &mut rng);
    let ln1_b = rng.tensor(&[d], 0.1);
    let wq = rng.tensor(&[d, d], w(d));
    let wk = rng.tensor(&[d, d], w(d));
    let wv = rng.tensor(&[d, d], w(d));
    let wo = rng.tensor(&[d, d], w(d));
    let ln2_g = gain(d, &mut rng);
    let ln2_b = rng.tensor(&[d], 0.1);
    let w1 = rng.tensor(&[d, f], w(d));
    let b1 = rng.tensor(&[f], 0.1);
    let w2 = rng.tensor(&[f, d], w(f));
    let b2 = rng.tensor(&[d], 0.1);
    vec![
        x, ln1_g, ln1_b, wq, wk, wv, wo, ln2_g, ln2_b, w1, b1, w2, b2,
    ]
}

/// Memory after one batch of [`mlp_loop`]: (reserved, in use) bytes.
pub type MemoryAfter = (u64, u64);

/// Runs the MLP's inference loop: `batches` batches of 64 random
/// 784-vectors through `program` (compiled from [`MLP`]) with the same
/// weights, each run's buffers taken from the device's pools and returned
/// to them when its work completed. The batches in `check` are compared
/// with the reference evaluator (relative error ≤ 1e-4). Returns the
/// device's memory after each batch and the loop's time without those
/// checks (the reference evaluator is far slower than a batch).
pub fn mlp_loop(
    device: &kiln_runtime::Device,
    program: &kiln_runtime::Program,
    batches: usize,
    check: &[usize],
) -> anyhow::Result<(Vec<MemoryAfter>, std::time::Duration)> {
    let module = kiln_core::tensor::load(MLP)?;
    let weights = mlp_weights(1);
    let mut rng = Rng::new(2);
    let mut memory = Vec::with_capacity(batches);
    let mut args = vec![rng.tensor(&[64, 784], 1.0)];
    args.extend(weights.iter().cloned());
    let mut running = std::time::Duration::ZERO;
    for b in 0..batches {
        let start = std::time::Instant::now();
        args[0] = rng.tensor(&[64, 784], 1.0);
        let out = program.run("mlp", &args)?;
        running += start.elapsed();
        if check.contains(&b) {
            let want = reference(&module, "mlp", &args)?;
            let err = relative_error(&out[0], &want[0]);
            anyhow::ensure!(
                err <= 1e-4,
                "batch {b}: relative error {err:e} against the reference"
            );
        }
        let report = device.memory_report();
        memory.push((report.reserved(), report.in_use()));
    }
    Ok((memory, running))
}

/// Whether memory stayed flat after the first batch: every later batch
/// leaves the same bytes reserved and in use as the first.
pub fn flat_after_first(memory: &[MemoryAfter]) -> bool {
    memory.windows(2).all(|w| w[0] == w[1])
}
