//! `cargo bench -p kiln-runtime --bench eager`: the runtime as an eager
//! framework backend (not run in CI; medians printed; the table is in
//! `bench/README.md`).
//!
//! - Host time per `ops` call on a cache hit (the program compiled and
//!   loaded by an earlier call of the same shape class), for several ops,
//!   beside a raw `Stream::dispatch` of a memref kernel: the median over
//!   runs of the mean of `ENQUEUES` calls (the stream synced between runs,
//!   outside the timing). Target: <= 10 µs a call.
//! - A new batch size: the host time of the first `ops::matmul` call of a
//!   batch size not seen before (its shape class is compiled: no
//!   recompile).
//! - An MLP `softmax(relu(x W1 + b1) W2 + b2)` of `[B, 64]` inputs, 128
//!   hidden units and 10 classes, per batch (`BATCHES` batches enqueued,
//!   then one sync): eager (6 `ops` calls a batch), the same MLP as one
//!   compiled tensor program (`Program::enqueue`), and a plain
//!   single-threaded CPU loop in Rust, and the eager calls captured once
//!   (`ops::capture`) and replayed (`Graph::run`); the results compared.
//! - The same 6 calls on a lazy stream (`Stream::set_lazy`): deferred,
//!   materialised as one compiled graph at the sync (or at
//!   `ops::MAX_PENDING` calls), replayed from the stream's graph cache;
//!   its results compared too, its host time per batch measured with the
//!   results held (the materialisations at the limit included).
//! - The replay's host time per dispatch (its host enqueue over the
//!   graph's dispatches: one copy in, the recorded command buffer, one
//!   copy out) beside the raw `Stream::dispatch` above and a raw
//!   `Stream::copy` of one input (the part a replay spends on its input);
//!   target: <= 1 us per replayed dispatch in a release build.
//!
//! - A deep graph: `DEPTH` layers `relu(h W + b)` of width `IN`
//!   captured and replayed (one dispatch a layer after fusion), so that
//!   the replay's host time per dispatch is measured where its fixed cost
//!   is spread over many dispatches, with its marginal cost per dispatch
//!   (deep minus MLP over the difference in dispatches); its result
//!   compared with a CPU loop.
//!
//! `KILN_BENCH_RUNS` sets the number of timed runs (default 21),
//! `KILN_BENCH_BATCH` the batch size B (default 32),
//! `KILN_BENCH_ONLY=replay` runs only the replays (MLP and deep graph, no
//! per-op table, no eager or compiled rows: for profilers),
//! `KILN_BENCH_ONLY=lazy` only the lazy stream's rows, each split into
//! its calls, its flush and its wait (three patterns: 20 batches then one
//! sync, a sync per batch, a flush per batch and one sync), each run
//! alternating with the compiled program's,
//! `KILN_BENCH_ONLY=multi` `KILN_BENCH_MULTI` (default 10) MLPs captured
//! as one graph and replayed, beside the compiled program,
//! `KILN_BENCH_ONLY=mlp` only the MLP's rows (with `KILN_PROFILE=1`: the
//! device time of its kernels alone).

use std::hint::black_box;
use std::time::{Duration, Instant};

use kiln_runtime::ops;
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, KernelSource, Stream, Tensor};

const ENQUEUES: u32 = 50;
const BATCHES: usize = 20;
const IN: usize = 64;
const HIDDEN: usize = 128;
const OUT: usize = 10;
/// Layers of the deep graph.
const DEPTH: usize = 24;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The median over `runs` of the mean host time of `ENQUEUES` calls of
/// `f` (the stream synced after each run, outside the timing).
fn enqueue_time(runs: usize, stream: &Stream, mut f: impl FnMut()) -> Duration {
    f();
    stream.sync().unwrap();
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..ENQUEUES {
                    f();
                }
                let d = t.elapsed() / ENQUEUES;
                stream.sync().unwrap();
                d
            })
            .collect(),
    )
}

/// Deterministic values in [-1, 1).
fn values(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect()
}

/// The host time per call of each op, and of a raw dispatch (returned).
fn op_costs(device: &Device, runs: usize) -> Duration {
    let stream = device.stream();
    let kernel = device
        .load_kernel(KernelSource::memref(
            kiln_runtime::bench::overhead::INCREMENT,
            "increment",
        ))
        .unwrap();
    let v64 = Tensor::from_slice(device, &values(64, 1), &[64]).unwrap();
    let y64 = Tensor::zeros(device, DType::F32, &[64]).unwrap();
    let x = Tensor::from_slice(device, &values(32 * 64, 2), &[32, 64]).unwrap();
    let row = Tensor::from_slice(device, &values(64, 3), &[64]).unwrap();
    let w = Tensor::from_slice(device, &values(64 * 64, 4), &[64, 64]).unwrap();
    let gamma = Tensor::full(device, 1.0f32, &[64]).unwrap();
    type Call<'a> = Box<dyn Fn(&Stream) -> Tensor + 'a>;
    let calls: Vec<(&str, Call<'_>)> = vec![
        (
            "ops::add, [64] + [64]",
            Box::new(|s| ops::add(s, &v64, &v64).unwrap()),
        ),
        (
            "ops::add, [32, 64] + [64] (broadcast)",
            Box::new(|s| ops::add(s, &x, &row).unwrap()),
        ),
        (
            "ops::relu, [32, 64]",
            Box::new(|s| ops::relu(s, &x).unwrap()),
        ),
        (
            "ops::matmul, [32, 64] x [64, 64]",
            Box::new(|s| ops::matmul(s, &x, &w).unwrap()),
        ),
        (
            "ops::softmax, [32, 64] axis 1",
            Box::new(|s| ops::softmax(s, &x, 1).unwrap()),
        ),
        (
            "ops::sum, [32, 64] axis 1",
            Box::new(|s| ops::sum(s, &x, &[1], false).unwrap()),
        ),
        (
            "ops::rms_norm, [32, 64]",
            Box::new(|s| ops::rms_norm(s, &x, &gamma, 1e-5).unwrap()),
        ),
        (
            "ops::transpose, [32, 64]",
            Box::new(|s| ops::transpose(s, &x, &[1, 0]).unwrap()),
        ),
        (
            "ops::cast, [32, 64] f32 -> f16",
            Box::new(|s| ops::cast(s, &x, DType::F16).unwrap()),
        ),
    ];
    println!(
        "host time per call on a cache hit (median of {runs} runs of the mean of {ENQUEUES}):"
    );
    let raw = enqueue_time(runs, &stream, || {
        stream.dispatch(&kernel, &[&v64, &y64], [1, 1, 1]).unwrap();
    });
    println!(
        "{:<44} {:>8.2} us",
        "raw Stream::dispatch, [64] f32",
        us(raw)
    );
    for (name, call) in &calls {
        let t = enqueue_time(runs, &stream, || {
            black_box(call(&stream));
        });
        println!(
            "{name:<44} {:>8.2} us   ({:.1}x the raw dispatch)",
            us(t),
            us(t) / us(raw)
        );
    }
    // The device's cost of a dispatch on this driver: `FLOOR` trivial
    // dispatches then a sync, per dispatch, as a dependent chain (each
    // reads what the one before wrote: a barrier between each two) and
    // independent (each writes its own buffer: no barrier).
    const FLOOR: usize = 20;
    let ys: Vec<Tensor> = (0..FLOOR)
        .map(|_| Tensor::zeros(device, DType::F32, &[64]).unwrap())
        .collect();
    let floor = |dependent: bool| {
        let run = || {
            let t = Instant::now();
            for (k, own) in ys.iter().enumerate() {
                let (x, y) = match (dependent, k % 2) {
                    (true, 0) => (&v64, &y64),
                    (true, _) => (&y64, &v64),
                    (false, _) => (&v64, own),
                };
                stream.dispatch(&kernel, &[x, y], [1, 1, 1]).unwrap();
            }
            stream.sync().unwrap();
            t.elapsed() / FLOOR as u32
        };
        run();
        median((0..runs).map(|_| run()).collect())
    };
    let (chain, apart) = (floor(true), floor(false));
    println!(
        "{:<44} {:>8.2} us   (independent dispatches: {:.2} us)",
        "trivial dispatch with device time, chained",
        us(chain),
        us(apart)
    );
    // A new batch size: the matmul's shape class is already compiled.
    let before = ops::cache_stats(device).compiled;
    let x2 = Tensor::from_slice(device, &values(48 * 64, 5), &[48, 64]).unwrap();
    let t = Instant::now();
    black_box(ops::matmul(&stream, &x2, &w).unwrap());
    let first = t.elapsed();
    stream.sync().unwrap();
    println!(
        "{:<44} {:>8.2} us   ({} programs compiled)",
        "ops::matmul, a new batch size (48), 1st call",
        us(first),
        ops::cache_stats(device).compiled - before
    );
    raw
}

/// The MLP's weights on the host and on the device.
struct Mlp {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    dev: [Tensor; 4],
}

impl Mlp {
    fn new(device: &Device) -> Self {
        let (w1, b1) = (values(IN * HIDDEN, 11), values(HIDDEN, 12));
        let (w2, b2) = (values(HIDDEN * OUT, 13), values(OUT, 14));
        let dev = [
            Tensor::from_slice(device, &w1, &[IN, HIDDEN]).unwrap(),
            Tensor::from_slice(device, &b1, &[HIDDEN]).unwrap(),
            Tensor::from_slice(device, &w2, &[HIDDEN, OUT]).unwrap(),
            Tensor::from_slice(device, &b2, &[OUT]).unwrap(),
        ];
        Self {
            w1,
            b1,
            w2,
            b2,
            dev,
        }
    }

    /// 6 op calls.
    fn eager(&self, s: &Stream, x: &Tensor) -> Tensor {
        let [w1, b1, w2, b2] = &self.dev;
        let h = ops::matmul(s, x, w1).unwrap();
        let h = ops::add(s, &h, b1).unwrap();
        let h = ops::relu(s, &h).unwrap();
        let y = ops::matmul(s, &h, w2).unwrap();
        let y = ops::add(s, &y, b2).unwrap();
        ops::softmax(s, &y, 1).unwrap()
    }

    /// The plain single-threaded CPU loop.
    fn cpu(&self, x: &[f32], batch: usize) -> Vec<f32> {
        let mut h = vec![0f32; batch * HIDDEN];
        for r in 0..batch {
            let hr = &mut h[r * HIDDEN..(r + 1) * HIDDEN];
            hr.copy_from_slice(&self.b1);
            for k in 0..IN {
                let a = x[r * IN + k];
                for (o, w) in hr.iter_mut().zip(&self.w1[k * HIDDEN..(k + 1) * HIDDEN]) {
                    *o += a * w;
                }
            }
            for v in hr.iter_mut() {
                *v = v.max(0.0);
            }
        }
        let mut y = vec![0f32; batch * OUT];
        for r in 0..batch {
            let yr = &mut y[r * OUT..(r + 1) * OUT];
            yr.copy_from_slice(&self.b2);
            for k in 0..HIDDEN {
                let a = h[r * HIDDEN + k];
                for (o, w) in yr.iter_mut().zip(&self.w2[k * OUT..(k + 1) * OUT]) {
                    *o += a * w;
                }
            }
            let m = yr.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            for v in yr.iter_mut() {
                *v = (*v - m).exp();
                sum += *v;
            }
            for v in yr.iter_mut() {
                *v /= sum;
            }
        }
        y
    }
}

/// The MLP as one tensor program, for any batch size.
fn mlp_program() -> String {
    format!(
        r#"
func.func @mlp(%x: tensor<?x{IN}xf32>, %w1: tensor<{IN}x{HIDDEN}xf32>, %b1: tensor<{HIDDEN}xf32>,
               %w2: tensor<{HIDDEN}x{OUT}xf32>, %b2: tensor<{OUT}xf32>) -> tensor<?x{OUT}xf32> {{
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x{IN}xf32>
  %e1 = tensor.empty(%n) : tensor<?x{HIDDEN}xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x{HIDDEN}xf32>) -> tensor<?x{HIDDEN}xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<?x{IN}xf32>, tensor<{IN}x{HIDDEN}xf32>) outs(%f1 : tensor<?x{HIDDEN}xf32>) -> tensor<?x{HIDDEN}xf32>
  %h = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%m1, %b1 : tensor<?x{HIDDEN}xf32>, tensor<{HIDDEN}xf32>) outs(%e1 : tensor<?x{HIDDEN}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }} -> tensor<?x{HIDDEN}xf32>
  %e2 = tensor.empty(%n) : tensor<?x{OUT}xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x{OUT}xf32>) -> tensor<?x{OUT}xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<?x{HIDDEN}xf32>, tensor<{HIDDEN}x{OUT}xf32>) outs(%f2 : tensor<?x{OUT}xf32>) -> tensor<?x{OUT}xf32>
  %l = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%m2, %b2 : tensor<?x{OUT}xf32>, tensor<{OUT}xf32>) outs(%e2 : tensor<?x{OUT}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> tensor<?x{OUT}xf32>
  %e3 = tensor.empty(%n) : tensor<?x{OUT}xf32>
  %y = linalg.softmax dimension(1) ins(%l : tensor<?x{OUT}xf32>) outs(%e3 : tensor<?x{OUT}xf32>) -> tensor<?x{OUT}xf32>
  return %y : tensor<?x{OUT}xf32>
}}
"#
    )
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// The MLP's rows (only the replay's with `only_replay`); returns the
/// replay's host time and its dispatches.
fn mlp(
    device: &Device,
    runs: usize,
    batch: usize,
    raw: Option<Duration>,
    only_replay: bool,
) -> (Duration, usize) {
    let stream = device.stream();
    let net = Mlp::new(device);
    let xs: Vec<Vec<f32>> = (0..BATCHES)
        .map(|i| values(batch * IN, 100 + i as u32))
        .collect();
    let xd: Vec<Tensor> = xs
        .iter()
        .map(|x| Tensor::from_slice(device, x, &[batch, IN]).unwrap())
        .collect();
    let module = kiln_runtime::load_tensor_program(&mlp_program()).unwrap();
    let program = device.compile(&module).unwrap();
    let compiled = |x: &Tensor| {
        let mut args = vec![x.clone()];
        args.extend(net.dev.iter().cloned());
        program.enqueue(&stream, "mlp", &args).unwrap().remove(0)
    };
    // The eager calls captured once as a graph (ops::capture), replayed.
    let (_, graph) = ops::capture(&stream, &[&xd[0]], |s, x| Ok(vec![net.eager(s, x[0])])).unwrap();
    if std::env::var_os("KILN_BENCH_GRAPH").is_some() {
        println!("{}", graph.text());
    }
    let replay = |x: &Tensor| graph.run(&stream, &[x]).unwrap().remove(0);
    // The same calls on a lazy stream.
    let lazy = device.stream();
    lazy.set_lazy(true).unwrap();
    // The five agree.
    let want = net.cpu(&xs[0], batch);
    let eager_y = net.eager(&stream, &xd[0]).to_vec::<f32>().unwrap();
    let compiled_y = compiled(&xd[0]).to_vec::<f32>().unwrap();
    let replay_y = replay(&xd[1]).to_vec::<f32>().unwrap();
    let (de, dc) = (max_diff(&eager_y, &want), max_diff(&compiled_y, &want));
    let dr = max_diff(&replay_y, &net.cpu(&xs[1], batch));
    let lazy_ys: Vec<Tensor> = xd.iter().map(|x| net.eager(&lazy, x)).collect();
    lazy.sync().unwrap();
    let dl = lazy_ys
        .iter()
        .zip(&xs)
        .map(|(y, x)| max_diff(&y.to_vec::<f32>().unwrap(), &net.cpu(x, batch)))
        .fold(0.0, f32::max);
    drop(lazy_ys);
    assert!(
        de < 1e-5 && dc < 1e-5 && dr < 1e-5 && dl < 1e-5,
        "eager {de}, compiled {dc}, replayed {dr}, lazy {dl} from the CPU loop"
    );
    if std::env::var("KILN_BENCH_ONLY").is_ok_and(|v| v == "multi") {
        multi(&stream, &net, &xd, &xs, batch, runs, &compiled);
        return (Duration::ZERO, 0);
    }
    if std::env::var("KILN_BENCH_ONLY").is_ok_and(|v| v == "lazy") {
        // The lazy rows alone, split: the calls (with materialisations at
        // the limit), the flush (materialising the rest, submitting) and
        // the wait.
        for (name, per, sync_each) in [
            ("20 batches, one sync", BATCHES, true),
            ("a sync per batch", 1, true),
            ("a flush per batch, one sync", 1, false),
        ] {
            // The compiled program's batch, alternating with the lazy
            // runs: the ratio of each pair.
            let mut parts: [Vec<Duration>; 4] = Default::default();
            let mut ratios: Vec<f64> = Vec::new();
            for _ in 0..runs {
                let at = Instant::now();
                let ys: Vec<Tensor> = xd.iter().map(compiled).collect();
                stream.sync().unwrap();
                let whole = at.elapsed() / BATCHES as u32;
                black_box(ys);
                let mut t = [Duration::ZERO; 4];
                t[3] = whole * BATCHES as u32;
                let mut held = Vec::new();
                let chunks = xd.chunks(per).count();
                for (k, chunk) in xd.chunks(per).enumerate() {
                    let at = Instant::now();
                    let ys: Vec<Tensor> = chunk.iter().map(|x| net.eager(&lazy, x)).collect();
                    let calls = at.elapsed();
                    lazy.flush().unwrap();
                    let flushed = at.elapsed();
                    if sync_each || k + 1 == chunks {
                        lazy.sync().unwrap();
                    }
                    t[0] += calls;
                    t[1] += flushed - calls;
                    t[2] += at.elapsed() - flushed;
                    held.push(ys);
                }
                black_box(held);
                let lazy_t = (t[0] + t[1] + t[2]).as_secs_f64();
                ratios.push(lazy_t / t[3].as_secs_f64());
                for (p, d) in parts.iter_mut().zip(t) {
                    p.push(d / BATCHES as u32);
                }
            }
            ratios.sort_by(f64::total_cmp);
            let [c, f, w, whole] = parts.map(median);
            println!(
                "lazy, {name}: per batch calls {:.1} us, flush {:.1} us, wait {:.1} us; compiled {:.1} us; lazy / compiled {:.2}x",
                us(c),
                us(f),
                us(w),
                us(whole),
                ratios[ratios.len() / 2]
            );
        }
        return (Duration::ZERO, 0);
    }
    if only_replay {
        let replay_host = enqueue_time(runs, &stream, || {
            black_box(replay(&xd[0]));
        });
        println!(
            "MLP replay host time {:.2} us, {} dispatches, {:.3} us per dispatch",
            us(replay_host),
            graph.dispatches(),
            us(replay_host) / graph.dispatches() as f64
        );
        return (replay_host, graph.dispatches());
    }
    // Per batch: BATCHES batches, then one sync (the device work
    // included). The four alternate run by run, so that a change of the
    // machine's load meanwhile reaches all of them alike; the ratios are
    // medians of the runs' own ratios.
    let mut eager_f = || {
        let ys: Vec<Tensor> = xd.iter().map(|x| net.eager(&stream, x)).collect();
        stream.sync().unwrap();
        black_box(ys);
    };
    let mut whole_f = || {
        let ys: Vec<Tensor> = xd.iter().map(compiled).collect();
        stream.sync().unwrap();
        black_box(ys);
    };
    let mut replay_f = || {
        let ys: Vec<Tensor> = xd.iter().map(replay).collect();
        stream.sync().unwrap();
        black_box(ys);
    };
    let mut lazy_f = || {
        let ys: Vec<Tensor> = xd.iter().map(|x| net.eager(&lazy, x)).collect();
        lazy.sync().unwrap();
        black_box(ys);
    };
    // Each batch materialised by a sync of its own (one MLP per graph).
    let mut lazy1_f = || {
        for x in &xd {
            let y = net.eager(&lazy, x);
            lazy.sync().unwrap();
            black_box(y);
        }
    };
    let mut cpu_f = || {
        for x in &xs {
            black_box(net.cpu(black_box(x), batch));
        }
    };
    let before = device.counters();
    eager_f();
    let after = device.counters();
    let eager_submits = (after.submits - before.submits) as f64;
    let eager_dispatches = (after.dispatches - before.dispatches) as f64 / BATCHES as f64;
    lazy_f();
    let before = device.counters();
    lazy_f();
    let after = device.counters();
    let lazy_dispatches = (after.dispatches - before.dispatches) as f64 / BATCHES as f64;
    let mut fs: [&mut dyn FnMut(); 6] = [
        &mut eager_f,
        &mut whole_f,
        &mut replay_f,
        &mut cpu_f,
        &mut lazy_f,
        &mut lazy1_f,
    ];
    for f in fs.iter_mut() {
        f();
    }
    let mut times: [Vec<Duration>; 6] = Default::default();
    for _ in 0..runs {
        for (f, t) in fs.iter_mut().zip(times.iter_mut()) {
            let at = Instant::now();
            f();
            t.push(at.elapsed() / BATCHES as u32);
        }
    }
    let ratio = |a: usize, b: usize| {
        let mut r: Vec<f64> = times[a]
            .iter()
            .zip(&times[b])
            .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
            .collect();
        r.sort_by(f64::total_cmp);
        r[r.len() / 2]
    };
    let (eager_whole, replay_whole) = (ratio(0, 1), ratio(2, 1));
    let (lazy_whole, lazy1_whole) = (ratio(4, 1), ratio(5, 1));
    let [eager, whole, replayed, cpu, lazy_t, lazy1] = times.map(median);
    // The lazy calls' host time per batch, results held (materialisations
    // at the limit included), the sync outside the timing.
    let lazy_host = median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                let ys: Vec<Tensor> = xd.iter().map(|x| net.eager(&lazy, x)).collect();
                let d = t.elapsed() / BATCHES as u32;
                lazy.sync().unwrap();
                black_box(ys);
                d
            })
            .collect(),
    );
    let lazy_stats = lazy.lazy_stats();
    // The host time alone: enqueueing one batch.
    let eager_host = enqueue_time(runs, &stream, || {
        black_box(net.eager(&stream, &xd[0]));
    });
    let whole_host = enqueue_time(runs, &stream, || {
        black_box(compiled(&xd[0]));
    });
    let replay_host = enqueue_time(runs, &stream, || {
        black_box(replay(&xd[0]));
    });
    let copy_to = Tensor::empty(device, DType::F32, &[batch, IN]).unwrap();
    let copy_host = enqueue_time(runs, &stream, || {
        stream.copy(&xd[0], &copy_to).unwrap();
    });
    // 1,000 replays, each result compared with the CPU loop's.
    let thousand: Vec<(usize, Tensor)> = (0..1000).map(|i| (i, replay(&xd[i % BATCHES]))).collect();
    let worst = thousand
        .iter()
        .map(|(i, y)| {
            let want = net.cpu(&xs[i % BATCHES], batch);
            max_diff(&y.to_vec::<f32>().unwrap(), &want)
        })
        .fold(0.0, f32::max);
    assert!(worst < 1e-5, "1,000 replays: {worst} from the CPU loop");
    println!(
        "\nMLP [{batch}, {IN}] -> {HIDDEN} -> {OUT}, per batch ({BATCHES} batches then a sync, median of {runs}):"
    );
    println!(
        "{:<44} {:>8.1} us   (host enqueue alone {:.1} us)",
        "eager, 6 ops calls",
        us(eager),
        us(eager_host)
    );
    println!(
        "  ({eager_dispatches:.1} dispatches a batch; submissions per {BATCHES} batches and their sync: {eager_submits:.0})"
    );
    println!(
        "{:<44} {:>8.1} us   (host enqueue alone {:.1} us)",
        "compiled program (Program::enqueue)",
        us(whole),
        us(whole_host)
    );
    println!(
        "{:<44} {:>8.1} us   (host enqueue alone {:.1} us, {} dispatches)",
        "eager calls captured, replayed (Graph::run)",
        us(replayed),
        us(replay_host),
        graph.dispatches()
    );
    println!(
        "{:<44} {:>8.1} us   (host calls alone {:.1} us, {lazy_dispatches:.1} dispatches a batch)",
        "lazy stream, the same 6 ops calls",
        us(lazy_t),
        us(lazy_host)
    );
    println!(
        "{:<44} {:>8.1} us",
        "lazy stream, a sync after each batch",
        us(lazy1)
    );
    println!(
        "  (lazy stream: {} calls deferred, {} materialisations, {} graphs compiled, {} answered from its cache, fell back: {})",
        lazy_stats.deferred,
        lazy_stats.materialised,
        lazy_stats.compiled,
        lazy_stats.hits,
        lazy_stats.fell_back
    );
    println!(
        "{:<44} {:>8.1} us",
        "plain single-threaded CPU loop",
        us(cpu)
    );
    let per_dispatch = us(replay_host) / graph.dispatches() as f64;
    println!(
        "replay host time per dispatch: {per_dispatch:.2} us (target <= 1 us); raw Stream::dispatch {:.2} us; raw Stream::copy of the input {:.2} us; 1,000 replays within {worst:e} of the CPU loop",
        raw.map_or(f64::NAN, us),
        us(copy_host)
    );
    println!(
        "eager / compiled: {eager_whole:.2}x, replayed / compiled: {replay_whole:.2}x, lazy / compiled: {lazy_whole:.2}x (a sync per batch: {lazy1_whole:.2}x) (target <= 1.3x; medians of the runs' ratios); compiled / CPU: {:.2}x",
        us(whole) / us(cpu)
    );
    println!(
        "eager minus compiled per batch: {:.1} us, {:.1} us per extra dispatch ({} against {})",
        us(eager) - us(whole),
        (us(eager) - us(whole)) / (6 - graph.dispatches()) as f64,
        6,
        graph.dispatches()
    );
    (replay_host, graph.dispatches())
}

/// `KILN_BENCH_ONLY=multi`: `KILN_BENCH_MULTI` (default 10) MLPs of
/// different inputs captured as one graph and replayed, per batch, beside
/// the compiled program (what a lazy stream's graph of several batches
/// is); with `KILN_BENCH_GRAPH` its text is printed.
fn multi(
    stream: &Stream,
    net: &Mlp,
    xd: &[Tensor],
    xs: &[Vec<f32>],
    batch: usize,
    runs: usize,
    compiled: &dyn Fn(&Tensor) -> Tensor,
) {
    let k = env_usize("KILN_BENCH_MULTI", 10).clamp(1, BATCHES);
    let inputs: Vec<&Tensor> = xd[..k].iter().collect();
    let (_, graph) = ops::capture(stream, &inputs, |s, x| {
        Ok(x.iter().map(|x| net.eager(s, x)).collect())
    })
    .unwrap();
    if std::env::var_os("KILN_BENCH_GRAPH").is_some() {
        println!("{}", graph.text());
    }
    let ys = graph.run(stream, &inputs).unwrap();
    for (i, y) in ys.iter().enumerate() {
        let d = max_diff(&y.to_vec::<f32>().unwrap(), &net.cpu(&xs[i], batch));
        assert!(d < 1e-5, "multi graph result {i}: {d} from the CPU loop");
    }
    let multi_f = || {
        let ys: Vec<Vec<Tensor>> = (0..BATCHES / k)
            .map(|_| graph.run(stream, &inputs).unwrap())
            .collect();
        stream.sync().unwrap();
        black_box(ys);
    };
    let whole_f = || {
        let ys: Vec<Tensor> = xd[..k * (BATCHES / k)].iter().map(compiled).collect();
        stream.sync().unwrap();
        black_box(ys);
    };
    multi_f();
    whole_f();
    let per = (k * (BATCHES / k)) as u32;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let at = Instant::now();
        multi_f();
        a.push(at.elapsed() / per);
        let at = Instant::now();
        whole_f();
        b.push(at.elapsed() / per);
    }
    let mut r: Vec<f64> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
        .collect();
    r.sort_by(f64::total_cmp);
    println!(
        "{k} MLPs captured as one graph ({} dispatches), replayed: {:.1} us a batch; compiled {:.1} us; ratio {:.2}x",
        graph.dispatches(),
        us(median(a)),
        us(median(b)),
        r[r.len() / 2]
    );
}

/// The deep graph (`DEPTH` layers `relu(h W + b)`, `[batch, IN]`)
/// captured and replayed: the replay's host time and its dispatches.
fn deep(device: &Device, runs: usize, batch: usize) -> (Duration, usize) {
    let stream = device.stream();
    let ws: Vec<Vec<f32>> = (0..DEPTH)
        .map(|l| {
            values(IN * IN, 200 + l as u32)
                .iter()
                .map(|v| v * 0.25)
                .collect()
        })
        .collect();
    let bs: Vec<Vec<f32>> = (0..DEPTH).map(|l| values(IN, 300 + l as u32)).collect();
    let wd: Vec<Tensor> = ws
        .iter()
        .map(|w| Tensor::from_slice(device, w, &[IN, IN]).unwrap())
        .collect();
    let bd: Vec<Tensor> = bs
        .iter()
        .map(|b| Tensor::from_slice(device, b, &[IN]).unwrap())
        .collect();
    let xs: Vec<Vec<f32>> = (0..2).map(|i| values(batch * IN, 400 + i)).collect();
    let xd: Vec<Tensor> = xs
        .iter()
        .map(|x| Tensor::from_slice(device, x, &[batch, IN]).unwrap())
        .collect();
    let layers = |s: &Stream, x: &Tensor| -> kiln_runtime::Result<Tensor> {
        let mut h = x.clone();
        for (w, b) in wd.iter().zip(&bd) {
            h = ops::relu(s, &ops::add(s, &ops::matmul(s, &h, w)?, b)?)?;
        }
        Ok(h)
    };
    let (_, graph) = ops::capture(&stream, &[&xd[0]], |s, x| Ok(vec![layers(s, x[0])?])).unwrap();
    let replay = |x: &Tensor| graph.run(&stream, &[x]).unwrap().remove(0);
    // The replay of a new input against a CPU loop.
    let mut h = xs[1].clone();
    for (w, b) in ws.iter().zip(&bs) {
        let mut next = vec![0f32; batch * IN];
        for r in 0..batch {
            let o = &mut next[r * IN..(r + 1) * IN];
            o.copy_from_slice(b);
            for k in 0..IN {
                let a = h[r * IN + k];
                for (o, w) in o.iter_mut().zip(&w[k * IN..(k + 1) * IN]) {
                    *o += a * w;
                }
            }
            for v in o.iter_mut() {
                *v = v.max(0.0);
            }
        }
        h = next;
    }
    let got = replay(&xd[1]).to_vec::<f32>().unwrap();
    let scale = h.iter().fold(1f32, |m, v| m.max(v.abs()));
    let d = max_diff(&got, &h);
    assert!(
        d <= 1e-5 * scale,
        "deep graph replay {d} from the CPU loop (scale {scale})"
    );
    let host = enqueue_time(runs, &stream, || {
        black_box(replay(&xd[0]));
    });
    println!(
        "deep graph, {DEPTH} layers relu(h W + b), [{batch}, {IN}]: replay host time {:.2} us, {} dispatches, {:.3} us per dispatch (within {d:e} of the CPU loop, scale {scale})",
        us(host),
        graph.dispatches(),
        us(host) / graph.dispatches() as f64
    );
    (host, graph.dispatches())
}

fn main() {
    let runs = env_usize("KILN_BENCH_RUNS", 21).max(1);
    let batch = env_usize("KILN_BENCH_BATCH", 32).max(1);
    let device = Device::new(&DeviceOptions {
        cache: CacheLocation::Disabled,
        max_dispatches_per_submit: 1000,
        ..DeviceOptions::default()
    })
    .expect("a Vulkan device");
    println!("on {}", device.info().name);
    let only = std::env::var("KILN_BENCH_ONLY").unwrap_or_default();
    let only_replay = only == "replay";
    let raw = only.is_empty().then(|| op_costs(&device, runs));
    let (small, small_n) = mlp(&device, runs, batch, raw, only_replay);
    if only == "mlp" || only == "lazy" || only == "multi" {
        return;
    }
    let (big, big_n) = deep(&device, runs, batch);
    if big_n > small_n {
        println!(
            "replay marginal host time per dispatch: {:.3} us (deep minus MLP over {} more dispatches)",
            (us(big) - us(small)) / (big_n - small_n) as f64,
            big_n - small_n
        );
    }
}
