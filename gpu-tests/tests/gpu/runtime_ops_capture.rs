//! `ops::capture` records op calls as one compiled program and
//! `Graph::run` replays it (from a command buffer recorded once per set of
//! input shapes): the same results as the eager calls, for new inputs and
//! batch sizes, every replay of an input bit for bit the same, results
//! that later replays leave alone, ordering against other work on the
//! inputs on other streams, weights read at replay time, fewer dispatches
//! than ops (fused: a captured MLP runs in the dispatches of the same MLP
//! written as one program), and refusals of what a graph cannot hold.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::ops;
use kiln_runtime::{Device, Error, Stream, Tensor};

use crate::runtime_support::device;

fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            ((s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 23) as f32) - 1.0
        })
        .collect()
}

/// A transformer-style block: layer norm, dense + GELU, dense, residual,
/// softmax over the width (13 op calls).
struct Block {
    gamma: Tensor,
    beta: Tensor,
    w1: Tensor,
    b1: Tensor,
    w2: Tensor,
    b2: Tensor,
}

const D: usize = 16;
const H: usize = 32;

impl Block {
    fn new(device: &Device) -> Block {
        let t = |v: Vec<f32>, shape: &[usize]| Tensor::from_slice(device, &v, shape).unwrap();
        Block {
            gamma: t(values(D, 1).iter().map(|v| 1.0 + v / 4.0).collect(), &[D]),
            beta: t(values(D, 2), &[D]),
            w1: t(values(D * H, 3).iter().map(|v| v / 2.0).collect(), &[D, H]),
            b1: t(values(H, 4), &[H]),
            w2: t(values(H * D, 5).iter().map(|v| v / 2.0).collect(), &[H, D]),
            b2: t(values(D, 6), &[D]),
        }
    }

    fn forward(&self, s: &Stream, x: &Tensor) -> Result<Vec<Tensor>, Error> {
        let n = ops::layer_norm(s, x, &self.gamma, &self.beta, 1e-5)?;
        let h = ops::add(s, &ops::matmul(s, &n, &self.w1)?, &self.b1)?;
        let h = ops::gelu(s, &h)?;
        let y = ops::add(s, &ops::matmul(s, &h, &self.w2)?, &self.b2)?;
        let r = ops::add(s, x, &y)?;
        let p = ops::softmax(s, &r, 1)?;
        Ok(vec![r, p])
    }
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + y.abs()))
}

#[test]
fn a_captured_block_replays_like_its_eager_calls() {
    let device = device();
    let s = device.stream();
    let block = Block::new(&device);
    let x0 = Tensor::from_slice(&device, &values(8 * D, 10), &[8, D]).unwrap();
    let (eager0, graph) = ops::capture(&s, &[&x0], |s, x| block.forward(s, x[0])).unwrap();
    assert_eq!(graph.ops().len(), 8, "{:?}", graph.ops());
    assert!(
        graph.dispatches() < graph.ops().len(),
        "{} dispatches for {} ops",
        graph.dispatches(),
        graph.ops().len()
    );
    // The replay of the capture's own input gives what the eager calls gave.
    let again = graph.run(&s, &[&x0]).unwrap();
    for (a, b) in again.iter().zip(&eager0) {
        assert!(close(
            &a.to_vec::<f32>().unwrap(),
            &b.to_vec::<f32>().unwrap()
        ));
    }
    // New inputs and batch sizes: 1,000 replays against eager calls
    // (close: the graph's kernels are fused) and against the first replay
    // of the same input (exactly), each result read after up to 49 later
    // replays wrote the graph's buffers again.
    let inputs: Vec<Tensor> = [8usize, 3, 17]
        .iter()
        .enumerate()
        .map(|(k, &rows)| {
            Tensor::from_slice(&device, &values(rows * D, 20 + k as u64), &[rows, D]).unwrap()
        })
        .collect();
    let eager: Vec<Vec<Vec<f32>>> = inputs
        .iter()
        .map(|x| {
            block
                .forward(&s, x)
                .unwrap()
                .iter()
                .map(|t| t.to_vec::<f32>().unwrap())
                .collect()
        })
        .collect();
    let mut pending = Vec::new();
    let mut first: Vec<Option<Vec<Vec<u32>>>> = vec![None; inputs.len()];
    for i in 0..1000 {
        let k = i % inputs.len();
        pending.push((i, k, graph.run(&s, &[&inputs[k]]).unwrap()));
        if pending.len() == 50 {
            for (i, k, outs) in pending.drain(..) {
                let bits: Vec<Vec<u32>> = outs
                    .iter()
                    .map(|o| {
                        o.to_vec::<f32>()
                            .unwrap()
                            .iter()
                            .map(|v| v.to_bits())
                            .collect()
                    })
                    .collect();
                for (o, want) in bits.iter().zip(&eager[k]) {
                    let o: Vec<f32> = o.iter().map(|&b| f32::from_bits(b)).collect();
                    assert!(close(&o, want), "replay {i}, input {k}");
                }
                let first = first[k].get_or_insert_with(|| bits.clone());
                assert!(
                    *first == bits,
                    "replay {i} of input {k} differs from its first"
                );
            }
        }
    }
    // Each shape was recorded once, with all the graph's dispatches.
    for x in &inputs {
        let recorded = graph.recorded_dispatches(&s, &[x]).unwrap();
        assert_eq!(recorded, Some(graph.dispatches()));
    }
    // A replay reads its input as it is when the replay is enqueued:
    // after an upload queued on another stream (read after write), before
    // an upload queued after it on another stream (write after read).
    let other = device.stream();
    let x = Tensor::from_slice(&device, &values(3 * D, 40), &[3, D]).unwrap();
    other.upload(&x, &values(3 * D, 41)).unwrap();
    let replayed = graph.run(&s, &[&x]).unwrap();
    other.upload(&x, &values(3 * D, 42)).unwrap();
    let x41 = Tensor::from_slice(&device, &values(3 * D, 41), &[3, D]).unwrap();
    let want = block.forward(&s, &x41).unwrap();
    for (a, b) in replayed.iter().zip(&want) {
        assert!(close(
            &a.to_vec::<f32>().unwrap(),
            &b.to_vec::<f32>().unwrap()
        ));
    }
    other.sync().unwrap();
    // Weights are bound by reference: a replay reads their contents now.
    s.upload(&block.b2, &[5.0f32; D]).unwrap();
    let replayed = graph.run(&s, &[&inputs[1]]).unwrap();
    let eager_now = block.forward(&s, &inputs[1]).unwrap();
    assert!(close(
        &replayed[0].to_vec::<f32>().unwrap(),
        &eager_now[0].to_vec::<f32>().unwrap()
    ));
    assert!(!close(&replayed[0].to_vec::<f32>().unwrap(), &eager[1][0]));
    // A replay checks its inputs.
    let bad = Tensor::from_slice(&device, &values(D, 1), &[D]).unwrap();
    assert!(graph.run(&s, &[&bad]).is_err());
    assert!(graph.run(&s, &[]).is_err());
    // On the same device (some op programs compiled already): an MLP.
    a_captured_mlp_runs_in_the_dispatches_of_the_compiled_mlp(&device, &s);
    assert_no_validation_messages(device.context());
}

/// `softmax(relu(x W1 + b1) W2 + b2)` of `[?, D]` inputs, `H` hidden,
/// `O` classes, as one tensor program.
fn mlp_program() -> String {
    format!(
        r#"
func.func @mlp(%x: tensor<?x{D}xf32>, %w1: tensor<{D}x{H}xf32>, %b1: tensor<{H}xf32>,
               %w2: tensor<{H}x{O}xf32>, %b2: tensor<{O}xf32>) -> tensor<?x{O}xf32> {{
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x{D}xf32>
  %e1 = tensor.empty(%n) : tensor<?x{H}xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x{H}xf32>) -> tensor<?x{H}xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<?x{D}xf32>, tensor<{D}x{H}xf32>) outs(%f1 : tensor<?x{H}xf32>) -> tensor<?x{H}xf32>
  %h = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%m1, %b1 : tensor<?x{H}xf32>, tensor<{H}xf32>) outs(%e1 : tensor<?x{H}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }} -> tensor<?x{H}xf32>
  %e2 = tensor.empty(%n) : tensor<?x{O}xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x{O}xf32>) -> tensor<?x{O}xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<?x{H}xf32>, tensor<{H}x{O}xf32>) outs(%f2 : tensor<?x{O}xf32>) -> tensor<?x{O}xf32>
  %l = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%m2, %b2 : tensor<?x{O}xf32>, tensor<{O}xf32>) outs(%e2 : tensor<?x{O}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<?x{O}xf32>
  %e3 = tensor.empty(%n) : tensor<?x{O}xf32>
  %y = linalg.softmax dimension(1) ins(%l : tensor<?x{O}xf32>) outs(%e3 : tensor<?x{O}xf32>) -> tensor<?x{O}xf32>
  return %y : tensor<?x{O}xf32>
}}
"#
    )
}

const O: usize = 10;

/// The MLP in f64 on the host, for `rows` rows of `x`.
fn mlp_reference(x: &[f32], rows: usize, w: [&[f32]; 4]) -> Vec<f32> {
    let [w1, b1, w2, b2] = w;
    let mut out = Vec::with_capacity(rows * O);
    for r in 0..rows {
        let h: Vec<f64> = (0..H)
            .map(|j| {
                let s: f64 = (0..D)
                    .map(|k| f64::from(x[r * D + k]) * f64::from(w1[k * H + j]))
                    .sum();
                (s + f64::from(b1[j])).max(0.0)
            })
            .collect();
        let l: Vec<f64> = (0..O)
            .map(|j| {
                (0..H).map(|k| h[k] * f64::from(w2[k * O + j])).sum::<f64>() + f64::from(b2[j])
            })
            .collect();
        let m = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = l.iter().map(|v| (v - m).exp()).collect();
        let sum: f64 = e.iter().sum();
        out.extend(e.iter().map(|v| (v / sum) as f32));
    }
    out
}

/// The MLP's 6 op calls, captured: their graph compiles to the dispatches
/// of the MLP written as one program (3: each matmul with its bias and
/// activation, the softmax; 5 while the `tensor.cast`s joining the op
/// programs' shape classes kept each matmul from its bias add), and the
/// replay, the compiled program and a host reference agree.
fn a_captured_mlp_runs_in_the_dispatches_of_the_compiled_mlp(device: &Device, s: &Stream) {
    let (w1v, b1v) = (values(D * H, 31), values(H, 32));
    let (w2v, b2v) = (values(H * O, 33), values(O, 34));
    let t = |v: &[f32], shape: &[usize]| Tensor::from_slice(device, v, shape).unwrap();
    let (w1, b1, w2, b2) = (
        t(&w1v, &[D, H]),
        t(&b1v, &[H]),
        t(&w2v, &[H, O]),
        t(&b2v, &[O]),
    );
    let eager = |s: &Stream, x: &Tensor| -> Result<Vec<Tensor>, Error> {
        let h = ops::relu(s, &ops::add(s, &ops::matmul(s, x, &w1)?, &b1)?)?;
        let y = ops::add(s, &ops::matmul(s, &h, &w2)?, &b2)?;
        Ok(vec![ops::softmax(s, &y, 1)?])
    };
    let x0 = t(&values(4 * D, 35), &[4, D]);
    let (_, graph) = ops::capture(s, &[&x0], |s, x| eager(s, x[0])).unwrap();
    let module = kiln_runtime::load_tensor_program(&mlp_program()).unwrap();
    let program = device.compile(&module).unwrap();
    let compiled: usize = program
        .compiled()
        .functions
        .iter()
        .map(|f| f.dispatches.len())
        .sum();
    assert_eq!(compiled, 3);
    assert_eq!(graph.dispatches(), compiled, "{}", graph.text());
    let rows = 7;
    let xv = values(rows * D, 36);
    let x = t(&xv, &[rows, D]);
    let want = mlp_reference(&xv, rows, [&w1v, &b1v, &w2v, &b2v]);
    let replayed = graph.run(s, &[&x]).unwrap()[0].to_vec::<f32>().unwrap();
    let args = [x, w1.clone(), b1.clone(), w2.clone(), b2.clone()];
    let whole = program.enqueue(s, "mlp", &args).unwrap()[0]
        .to_vec::<f32>()
        .unwrap();
    assert!(close(&replayed, &want), "{replayed:?}\n{want:?}");
    assert!(close(&whole, &want), "{whole:?}\n{want:?}");
}

#[test]
fn a_capture_refuses_what_a_graph_cannot_hold() {
    let device = device();
    let s = device.stream();
    let x = Tensor::from_slice(&device, &values(12, 1), &[3, 4]).unwrap();
    let refused = |r: Result<(Vec<Tensor>, ops::Graph), Error>, words: &str| match r {
        Err(Error::Shape { what, reason }) => {
            assert_eq!(what, "ops::capture");
            assert!(reason.contains(words), "{reason}");
        }
        other => panic!("expected a refusal, got {:?}", other.map(|r| r.1)),
    };
    // An op reading a view of the input.
    refused(
        ops::capture(&s, &[&x], |s, x| {
            Ok(vec![ops::relu(s, &x[0].transpose(0, 1)?)?])
        }),
        "view",
    );
    // A result made outside ops.
    refused(
        ops::capture(&s, &[&x], |s, x| {
            ops::relu(s, x[0])?;
            Ok(vec![Tensor::from_slice(&s.device(), &[1f32], &[1])?])
        }),
        "not a tensor an op returned",
    );
    // No op at all.
    refused(
        ops::capture(&s, &[&x], |_, x| Ok(vec![x[0].clone()])),
        "no op",
    );
    // The device is usable after each, and a later capture works.
    let (_, g) = ops::capture(&s, &[&x], |s, x| Ok(vec![ops::neg(s, x[0])?])).unwrap();
    let y = g.run(&s, &[&x]).unwrap();
    let want: Vec<f32> = values(12, 1).iter().map(|v| -v).collect();
    assert_eq!(y[0].to_vec::<f32>().unwrap(), want);
    assert_no_validation_messages(device.context());
}

/// A profiled stream times every dispatch of a replay: the recording's
/// commands are issued again with a timestamp pair around each (on main
/// they were executed as a secondary command buffer and reported as
/// dispatches of 0 us, which a profile's means took in). The values are
/// those of an unprofiled replay, bit for bit.
#[test]
fn a_profiled_replay_times_every_dispatch_and_computes_the_same() {
    let device = device();
    let s = device.stream();
    let block = Block::new(&device);
    let x = Tensor::from_slice(&device, &values(8 * D, 30), &[8, D]).unwrap();
    let (_, graph) = ops::capture(&s, &[&x], |s, x| block.forward(s, x[0])).unwrap();
    let bits = |outs: Vec<Tensor>| -> Vec<Vec<u32>> {
        outs.iter()
            .map(|o| {
                o.to_vec::<f32>()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_bits())
                    .collect()
            })
            .collect()
    };
    let plain = bits(graph.run(&s, &[&x]).unwrap());
    s.sync().unwrap();
    drop(device.take_profile());
    s.profile(true);
    let runs: Vec<Vec<Tensor>> = (0..3).map(|_| graph.run(&s, &[&x]).unwrap()).collect();
    s.sync().unwrap();
    for outs in runs {
        assert_eq!(
            bits(outs),
            plain,
            "a profiled replay computes what a plain one does"
        );
    }
    let records = device.take_profile();
    assert_eq!(records.len(), 3 * graph.dispatches(), "{records:?}");
    for r in &records {
        let t = r
            .gpu_time
            .expect("every replayed dispatch is timed on lavapipe");
        assert!(t.as_nanos() > 0, "{r:?}");
    }
    assert_no_validation_messages(device.context());
}
