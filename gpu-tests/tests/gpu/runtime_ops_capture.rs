//! `ops::capture` records op calls as one compiled program and
//! `Graph::run` replays it: the same results as the eager calls, for new
//! inputs and batch sizes, weights read at replay time, fewer dispatches
//! than ops (fused), and refusals of what a graph cannot hold.

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
    // New inputs and batch sizes: 1,000 replays against eager calls.
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
    for i in 0..1000 {
        let k = i % inputs.len();
        pending.push((k, graph.run(&s, &[&inputs[k]]).unwrap()));
        if pending.len() == 50 {
            for (k, outs) in pending.drain(..) {
                for (o, want) in outs.iter().zip(&eager[k]) {
                    assert!(close(&o.to_vec::<f32>().unwrap(), want), "input {k}");
                }
            }
        }
    }
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
    assert_no_validation_messages(device.context());
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
