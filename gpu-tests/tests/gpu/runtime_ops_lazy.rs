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

#[test]
fn a_lazy_mlp_matches_the_host_model_and_replays_one_graph() {
    let device = device();
    let stream = device.stream();
    stream.set_lazy(true).unwrap();
    let (w1, b1, w2, b2) = (
        values(IN * HIDDEN, 1),
        values(HIDDEN, 2),
        values(HIDDEN * OUT, 3),
        values(OUT, 4),
    );
    let dev = |v: &[f32], shape: &[usize]| Tensor::from_slice(&device, v, shape).unwrap();
    let (w1d, b1d, w2d, b2d) = (
        dev(&w1, &[IN, HIDDEN]),
        dev(&b1, &[HIDDEN]),
        dev(&w2, &[HIDDEN, OUT]),
        dev(&b2, &[OUT]),
    );
    let mlp = |x: &Tensor| -> Tensor {
        let h = ops::matmul(&stream, x, &w1d).unwrap();
        let h = ops::add(&stream, &h, &b1d).unwrap();
        let h = ops::relu(&stream, &h).unwrap();
        let y = ops::matmul(&stream, &h, &w2d).unwrap();
        let y = ops::add(&stream, &y, &b2d).unwrap();
        ops::softmax(&stream, &y, 1).unwrap()
    };
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
        assert_close(
            &got,
            &host_mlp(&x, &w1, &b1, &w2, &b2, m),
            &format!("batch {batch}"),
        );
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
