//! kiln-runtime's lazy streams (`Stream::set_lazy`): op calls deferred
//! and run as one compiled graph. Every value is checked against a host
//! computation in f64 of the same model (never against kiln's output):
//! an MLP over batches (one graph compiled, later batches replayed, fewer
//! dispatches than calls), pending results read, copied, uploaded into,
//! dispatched on and used by another stream's ops, writes into a pending
//! call's operand after the call, the length limit, the fall-back to
//! eager, and index errors naming the op.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::ops;
use kiln_runtime::{DType, Error, Tensor};

use crate::runtime_support::{device, glsl_kernel, INCREMENT};

const IN: usize = 16;
const HIDDEN: usize = 32;
const OUT: usize = 10;

/// Small dyadic values (exact in f32), varied by `seed`.
fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i * 37 + seed * 11) % 17) as f32 - 8.0) / 16.0)
        .collect()
}

/// `softmax(relu(x w1 + b1) w2 + b2)` by rows, in f64.
fn host_mlp(x: &[f32], w1: &[f32], b1: &[f32], w2: &[f32], b2: &[f32], m: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(m * OUT);
    for r in 0..m {
        let h: Vec<f64> = (0..HIDDEN)
            .map(|j| {
                let s: f64 = (0..IN)
                    .map(|k| f64::from(x[r * IN + k]) * f64::from(w1[k * HIDDEN + j]))
                    .sum();
                (s + f64::from(b1[j])).max(0.0)
            })
            .collect();
        let y: Vec<f64> = (0..OUT)
            .map(|j| {
                let s: f64 = (0..HIDDEN).map(|k| h[k] * f64::from(w2[k * OUT + j])).sum();
                s + f64::from(b2[j])
            })
            .collect();
        let mx = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = y.iter().map(|v| (v - mx).exp()).collect();
        let sum: f64 = e.iter().sum();
        out.extend(e.iter().map(|v| v / sum));
    }
    out
}

fn assert_close(got: &[f32], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(*g) - w).abs() <= 1e-5,
            "{what}: element {i} is {g}, the f64 model's is {w}"
        );
    }
}

/// The MLP the tests run, its weights (from `seed`) on the host for the
/// f64 model and on the device.
struct Mlp {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w1d: Tensor,
    b1d: Tensor,
    w2d: Tensor,
    b2d: Tensor,
}

impl Mlp {
    fn new(device: &kiln_runtime::Device, seed: usize) -> Mlp {
        let (w1, b1, w2, b2) = (
            values(IN * HIDDEN, seed),
            values(HIDDEN, seed + 1),
            values(HIDDEN * OUT, seed + 2),
            values(OUT, seed + 3),
        );
        let dev = |v: &[f32], shape: &[usize]| Tensor::from_slice(device, v, shape).unwrap();
        Mlp {
            w1d: dev(&w1, &[IN, HIDDEN]),
            b1d: dev(&b1, &[HIDDEN]),
            w2d: dev(&w2, &[HIDDEN, OUT]),
            b2d: dev(&b2, &[OUT]),
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// Its 6 op calls on `stream`.
    fn run(&self, stream: &kiln_runtime::Stream, x: &Tensor) -> Tensor {
        let h = ops::matmul(stream, x, &self.w1d).unwrap();
        let h = ops::add(stream, &h, &self.b1d).unwrap();
        let h = ops::relu(stream, &h).unwrap();
        let y = ops::matmul(stream, &h, &self.w2d).unwrap();
        let y = ops::add(stream, &y, &self.b2d).unwrap();
        ops::softmax(stream, &y, 1).unwrap()
    }

    /// The f64 model's result for `m` rows `x`.
    fn host(&self, x: &[f32], m: usize) -> Vec<f64> {
        host_mlp(x, &self.w1, &self.b1, &self.w2, &self.b2, m)
    }
}

#[test]
fn a_lazy_mlp_matches_the_host_model_and_replays_one_graph() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    let net = Mlp::new(&device, 1);
    let dev = |v: &[f32], shape: &[usize]| Tensor::from_slice(&device, v, shape).unwrap();
    let mlp = |x: &Tensor| net.run(&stream, x);
    // Batches of 8 rows, then one of 5 (a dynamic size: no new graph).
    let mut dispatches = Vec::new();
    for (batch, m) in [8usize, 8, 8, 8, 5].into_iter().enumerate() {
        let x = values(m * IN, 10 + batch);
        let xd = dev(&x, &[m, IN]);
        let before = device.counters().dispatches;
        let y = mlp(&xd);
        assert_eq!(y.shape(), [m, OUT]);
        assert_eq!(
            device.counters().dispatches,
            before,
            "batch {batch}: the calls are deferred"
        );
        let got = y.to_vec::<f32>().unwrap();
        dispatches.push(device.counters().dispatches - before);
        assert_close(&got, &net.host(&x, m), &format!("batch {batch}"));
    }
    let stats = stream.lazy_stats();
    assert_eq!(stats.deferred, 30, "{stats:?}");
    assert_eq!(stats.materialised, 5, "{stats:?}");
    assert_eq!(stats.compiled, 1, "{stats:?}");
    assert_eq!(stats.hits, 4, "{stats:?}");
    assert!(
        dispatches.iter().all(|&d| d > 0 && d < 6),
        "dispatches per batch {dispatches:?} (6 op calls, fused)"
    );
    stream.sync().unwrap();
    assert_no_validation_messages(device.context());
}

#[test]
fn pending_results_are_seen_by_reads_copies_uploads_dispatches_and_other_streams() {
    let device = device();
    let lazy = device.stream();
    lazy.set_lazy(true).unwrap();
    let eager = device.stream();
    let n = 48;
    let x: Vec<f32> = (0..n).map(|i| i as f32 - 20.0).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    let xd = Tensor::from_slice(&device, &x, &[n]).unwrap();
    let bd = Tensor::from_slice(&device, &b, &[n]).unwrap();
    let sum: Vec<f32> = x.iter().zip(&b).map(|(x, b)| x + b).collect();
    let relu: Vec<f32> = x.iter().map(|v| v.max(0.0)).collect();

    // A copy out of a pending result, on another stream.
    let y = ops::add(&lazy, &xd, &bd).unwrap();
    let dst = Tensor::zeros(&device, DType::F32, &[n]).unwrap();
    eager.copy(&y, &dst).unwrap();
    assert_eq!(
        dst.to_vec::<f32>().unwrap(),
        sum,
        "copy from a pending result"
    );
    assert_eq!(y.to_vec::<f32>().unwrap(), sum, "read of the result");

    // An upload into a pending result lands after the call's write.
    let y = ops::add(&lazy, &xd, &bd).unwrap();
    let data: Vec<f32> = (0..n).map(|i| 100.0 + i as f32).collect();
    eager.upload(&y, &data).unwrap();
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        data,
        "upload into a pending result"
    );

    // A raw dispatch reading a pending result.
    let increment = glsl_kernel(&device, "increment", INCREMENT);
    let y = ops::relu(&lazy, &xd).unwrap();
    let out = Tensor::zeros(&device, DType::F32, &[n]).unwrap();
    lazy.dispatch(&increment, &[&y, &out], [1, 1, 1]).unwrap();
    let plus: Vec<f32> = relu.iter().map(|v| v + 1.0).collect();
    assert_eq!(
        out.to_vec::<f32>().unwrap(),
        plus,
        "dispatch on a pending result"
    );

    // An op of an eager stream reading a pending result.
    let y = ops::relu(&lazy, &xd).unwrap();
    let z = ops::add(&eager, &y, &bd).unwrap();
    let want: Vec<f32> = relu.iter().zip(&b).map(|(r, b)| r + b).collect();
    assert_eq!(
        z.to_vec::<f32>().unwrap(),
        want,
        "eager op on a pending result"
    );

    // A write into a pending call's operand after the call: the call reads
    // what the operand held when it was made.
    let operand = Tensor::from_slice(&device, &x, &[n]).unwrap();
    let y = ops::add(&lazy, &operand, &bd).unwrap();
    eager.fill(&operand, 7.0f32).unwrap();
    operand.upload(&vec![9.0f32; n]).unwrap();
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        sum,
        "write after a pending read"
    );
    assert_eq!(operand.to_vec::<f32>().unwrap(), vec![9.0; n]);

    // A view of a pending result as an operand (a reshape): the list runs
    // first, then the view is an ordinary operand.
    let y = ops::add(&lazy, &xd, &bd).unwrap();
    let y2 = ops::relu(&lazy, &y.reshape(&[6, 8]).unwrap()).unwrap();
    let want: Vec<f32> = sum.iter().map(|v| v.max(0.0)).collect();
    assert_eq!(
        y2.to_vec::<f32>().unwrap(),
        want,
        "op on a view of a pending result"
    );

    // A read future of a pending result.
    let y = ops::relu(&lazy, &xd).unwrap();
    assert_eq!(
        pollster::block_on(y.read::<f32>()).unwrap(),
        relu,
        "read future"
    );

    lazy.sync().unwrap();
    eager.sync().unwrap();
    assert!(lazy.lazy_stats().deferred >= 8);
    assert_no_validation_messages(device.context());
}

#[test]
fn a_long_chain_materialises_at_the_limit_and_dropped_streams_run_their_calls() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    let n = 20;
    let one = Tensor::from_slice(&device, &vec![1.0f32; n], &[n]).unwrap();
    let mut y = Tensor::zeros(&device, DType::F32, &[n]).unwrap();
    let calls = ops::MAX_PENDING + 6;
    for _ in 0..calls {
        y = ops::add(&stream, &y, &one).unwrap();
    }
    // The list ran once at the limit; the rest is pending.
    let stats = stream.lazy_stats();
    assert_eq!(stats.materialised, 1, "{stats:?}");
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![calls as f32; n]);

    // A stream dropped with calls pending runs them.
    let s2 = device.stream();
    s2.set_lazy(true).unwrap();
    let z = ops::add(&s2, &one, &one).unwrap();
    drop(s2);
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![2.0; n]);
    assert_no_validation_messages(device.context());
}

#[test]
fn batches_cut_at_the_limit_between_batches_and_keep_the_rest_ordered() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    let eager = device.stream();
    let net = Mlp::new(&device, 5);
    let dev = |v: &[f32], shape: &[usize]| Tensor::from_slice(&device, v, shape).unwrap();
    // 6 calls a batch; every intermediate held until the batch's end.
    let mlp = |x: &Tensor| net.run(&stream, x);
    let m = 4;
    let xs: Vec<Vec<f32>> = (0..24).map(|b| values(m * IN, 30 + b)).collect();
    let xd: Vec<Tensor> = xs.iter().map(|x| dev(x, &[m, IN])).collect();
    // One batch alone: its dispatches after fusion.
    let before = device.counters().dispatches;
    let y = mlp(&xd[0]);
    stream.sync().unwrap();
    let one = device.counters().dispatches - before;
    assert_close(
        &y.to_vec::<f32>().unwrap(),
        &net.host(&xs[0], m),
        "one batch",
    );
    // 20 batches, results held: the limit comes in batch 11 (call 64),
    // the list is cut after batch 10 (60 calls), and batch 11 fuses with
    // the rest: 20 batches in two graphs of 10, each batch as alone.
    let before = device.counters().dispatches;
    let stats0 = stream.lazy_stats();
    let ys: Vec<Tensor> = xd[..20].iter().map(&mlp).collect();
    stream.sync().unwrap();
    let stats = stream.lazy_stats();
    assert_eq!(stats.materialised - stats0.materialised, 2, "{stats:?}");
    assert_eq!(
        stats.compiled - stats0.compiled,
        1,
        "one graph of 10 batches, twice: {stats:?}"
    );
    assert_eq!(device.counters().dispatches - before, 20 * one);
    for (b, y) in ys.iter().enumerate() {
        assert_close(
            &y.to_vec::<f32>().unwrap(),
            &net.host(&xs[b], m),
            &format!("batch {b} of 20"),
        );
    }
    // The calls kept pending at the cut still read the weights as they
    // were at the call: 11 batches (the cut leaves batch 11's first four
    // calls pending, then two more), then a write into w1 and b2 on
    // another stream.
    let ys: Vec<Tensor> = xd[..11].iter().map(&mlp).collect();
    assert_eq!(stream.lazy_stats().materialised - stats.materialised, 1);
    eager.fill(&net.w1d, 0.0f32).unwrap();
    eager.fill(&net.b2d, 5.0f32).unwrap();
    for (b, y) in ys.iter().enumerate() {
        assert_close(
            &y.to_vec::<f32>().unwrap(),
            &net.host(&xs[b], m),
            &format!("batch {b} of 11, weights written after the calls"),
        );
    }
    stream.sync().unwrap();
    eager.sync().unwrap();
    assert_no_validation_messages(device.context());
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_calls_past_the_limit_read_what_a_sequential_model_holds() {
    // Long runs of deferred calls (independent ones and chains through
    // earlier results, so the list is cut at the limit where it can be
    // and run whole where it cannot), between rare writes of the weights
    // they read on another stream and reads of their results: every
    // result must hold what the host model computed at its call.
    let device = device();
    let lazy = device.stream();
    lazy.set_lazy(true).unwrap();
    let eager = device.stream();
    let n = 8;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut model: Vec<Vec<f32>> = (0..12)
        .map(|w| {
            (0..n)
                .map(|i| (i as f32 - 3.0) * (w as f32 + 1.0))
                .collect()
        })
        .collect();
    let weights: Vec<Tensor> = model
        .iter()
        .map(|m| Tensor::from_slice(&device, m, &[n]).unwrap())
        .collect();
    let mut results: Vec<(Tensor, Vec<f32>)> = Vec::new();
    let (mut calls, mut quiet, mut long_runs, mut cut_writes) = (0u64, 0usize, 0usize, 0);
    for step in 0..1200 {
        let dice = rng.below(1000);
        if dice < 8 {
            // A write of a weight on the other stream.
            let w = rng.below(weights.len());
            let v = rng.below(9) as f32 - 4.0;
            eager.fill(&weights[w], v).unwrap();
            model[w] = vec![v; n];
        } else if dice < 14 && !results.is_empty() {
            let k = rng.below(results.len());
            let (y, want) = results.swap_remove(k);
            let got = y.to_vec::<f32>().unwrap();
            assert_eq!(got, want, "step {step}: a read of a result");
        } else {
            let a = rng.below(weights.len());
            let materialised = lazy.lazy_stats().materialised;
            let (y, want) = match (rng.below(4), results.len()) {
                // A chain through one of the last results (dependencies
                // stay local: the list can often be cut).
                (0, r) if r > 0 => {
                    let k = r - 1 - rng.below(r.min(4));
                    let y = ops::add(&lazy, &results[k].0, &weights[a]).unwrap();
                    let want = results[k].1.iter().zip(&model[a]).map(|(x, w)| x + w);
                    (y, want.collect())
                }
                (1, r) if r > 0 => {
                    let k = r - 1 - rng.below(r.min(4));
                    let y = ops::relu(&lazy, &results[k].0).unwrap();
                    (y, results[k].1.iter().map(|v| v.max(0.0)).collect())
                }
                _ => {
                    let b = rng.below(weights.len());
                    let y = ops::sub(&lazy, &weights[a], &weights[b]).unwrap();
                    let want = model[a].iter().zip(&model[b]).map(|(x, w)| x - w);
                    (y, want.collect())
                }
            };
            results.push((y, want));
            // The call just made the list run at the limit (this call, at
            // least, is still pending): at once, a write of its weight,
            // then its result.
            if lazy.lazy_stats().materialised > materialised && rng.below(2) == 0 {
                let v = rng.below(9) as f32 - 4.0;
                eager.fill(&weights[a], v).unwrap();
                model[a] = vec![v; n];
                cut_writes += 1;
                let (y, want) = results.last().expect("pushed above");
                let got = y.to_vec::<f32>().unwrap();
                assert_eq!(&got, want, "step {step}: the call pending at the cut");
            }
            // Some results dropped (intermediates that fuse away).
            if results.len() > 40 {
                results.swap_remove(rng.below(results.len()));
            }
            // Every list is a new graph: re-armed, so that the stream
            // does not stay eager after `MAX_MISSES` compiles.
            if !lazy.is_lazy() {
                lazy.set_lazy(true).unwrap();
            }
            calls += 1;
            quiet += 1;
            if quiet == ops::MAX_PENDING {
                long_runs += 1;
            }
            continue;
        }
        quiet = 0;
    }
    let stats = lazy.lazy_stats();
    assert!(stats.deferred + 20 > calls, "{calls} calls: {stats:?}");
    for (k, (y, want)) in results.iter().enumerate() {
        assert_eq!(&y.to_vec::<f32>().unwrap(), want, "result {k} at the end");
    }
    assert!(
        long_runs >= 3 && cut_writes >= 3,
        "{long_runs} runs reached the limit, {cut_writes} writes right after it"
    );
    lazy.sync().unwrap();
    eager.sync().unwrap();
    assert_no_validation_messages(device.context());
}

#[test]
fn a_sequence_that_changes_every_time_falls_back_to_eager() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    for round in 0..(ops::MAX_MISSES as usize + 2) {
        // transpose's program is specialized for its exact shape: a new
        // graph each round.
        let (r, c) = (2 + round, 3);
        let x: Vec<f32> = (0..r * c).map(|i| i as f32).collect();
        let xd = Tensor::from_slice(&device, &x, &[r, c]).unwrap();
        let t = ops::transpose(&stream, &xd, &[1, 0]).unwrap();
        let y = ops::neg(&stream, &t).unwrap();
        let want: Vec<f32> = (0..c)
            .flat_map(|j| (0..r).map(move |i| -((i * c + j) as f32)))
            .collect();
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "round {round}");
    }
    let stats = stream.lazy_stats();
    assert!(stats.fell_back && !stream.is_lazy(), "{stats:?}");
    assert_eq!(stats.compiled, u64::from(ops::MAX_MISSES), "{stats:?}");
    assert_no_validation_messages(device.context());
}

#[test]
fn an_index_error_of_a_lazy_graph_names_the_op() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    let table: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let td = Tensor::from_slice(&device, &table, &[4, 3]).unwrap();
    let base = Tensor::from_slice(&device, &[0i32, 1, 2], &[3]).unwrap();
    // In range: rows 1, 2, 3.
    let one = Tensor::from_slice(&device, &[1i32, 1, 1], &[3]).unwrap();
    let ids = ops::add(&stream, &base, &one).unwrap();
    let rows = ops::index_select(&stream, &td, 0, &ids).unwrap();
    let want: Vec<f32> = (3..12).map(|i| i as f32).collect();
    assert_eq!(rows.to_vec::<f32>().unwrap(), want);
    // Out of range: 2, 3, 4 (the indices are pending: checked on the
    // device, reported at the materialisation).
    let two = Tensor::from_slice(&device, &[2i32, 2, 2], &[3]).unwrap();
    let ids = ops::add(&stream, &base, &two).unwrap();
    let rows = ops::index_select(&stream, &td, 0, &ids).unwrap();
    match stream.sync() {
        Err(Error::Index { what, .. }) => assert!(what.contains("ops::index_select"), "{what}"),
        other => panic!("expected an index error naming the op, got {other:?}"),
    }
    match rows.to_vec::<f32>() {
        Err(Error::Index { what, .. }) => assert!(what.contains("ops::index_select"), "{what}"),
        other => panic!("expected an index error naming the op, got {other:?}"),
    }
    // A later graph of the same calls in range is not failed by it.
    let ids = ops::add(&stream, &base, &one).unwrap();
    let rows = ops::index_select(&stream, &td, 0, &ids).unwrap();
    assert_eq!(rows.to_vec::<f32>().unwrap(), want);
    stream.sync().unwrap();
    assert_no_validation_messages(device.context());
}
