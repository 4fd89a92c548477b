//! kiln-runtime's ordering of memory accesses, checked against a
//! sequential model: thousands of random uploads (on a stream and through
//! `Tensor::upload`), fills, copies, dispatches (read-only, write-only and
//! read-write bindings), replays of a captured graph (`Graph::run`: its
//! input a view, its weight a view of a buffer the other operations write,
//! its result copied into a view), blocking reads and read futures over
//! overlapping views of two buffers, issued on two streams. Every read must see what a
//! plain `Vec<f32>` per buffer, updated in issue order on the host, holds
//! at the time the read was issued (read-after-write, write-after-read and
//! write-after-write, across streams and views).
//!
//! The same run over two *lazy* streams (`Stream::set_lazy`) also makes
//! op calls whose work is deferred (`w - x` over a view, `relu` of an
//! earlier deferred result), keeps their results pending while the other
//! operations write the buffers they read, and later copies them into a
//! view (on either stream) or reads them on the host: each must hold what
//! the model computed when the call was issued.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{ops, CacheLocation, DeviceOptions, ReadFuture, Stream, Tensor};

use crate::runtime_support::{glsl_kernel, test_device, INCREMENT};

/// x[i] = 3 - x[i] in place (one read-write binding).
const REFLECT: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < x.length()) {
        x[i] = 3.0 - x[i];
    }
}
"#;

/// Elements per buffer.
const N: usize = 64;
/// View starts are multiples of this many elements (16 bytes: lavapipe's
/// storage-buffer offset alignment).
const ALIGN: usize = 4;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A value exactly representable in f32 whatever the operations do
    /// to it here (small integers).
    fn value(&mut self) -> f32 {
        self.below(200) as f32 - 100.0
    }
}

/// A contiguous view: buffer, first element, length.
#[derive(Clone, Copy, Debug)]
struct View {
    buf: usize,
    start: usize,
    len: usize,
}

impl View {
    fn random(rng: &mut Rng, buf: usize) -> Self {
        let start = rng.below(N / ALIGN) * ALIGN;
        let len = 1 + rng.below((N - start).min(24));
        Self { buf, start, len }
    }

    /// A view of `len` elements in `buf` that does not overlap `other`
    /// when in the same buffer (a copy's or a dispatch's two ranges may not
    /// alias), if one exists.
    fn disjoint(rng: &mut Rng, buf: usize, len: usize, other: &View) -> Option<Self> {
        for _ in 0..16 {
            let start = rng.below((N - len) / ALIGN + 1) * ALIGN;
            let v = Self { buf, start, len };
            if buf != other.buf || v.start + len <= other.start || other.start + other.len <= start
            {
                return Some(v);
            }
        }
        None
    }

    /// A view of `len` elements in `buf`.
    fn of_len(rng: &mut Rng, buf: usize, len: usize) -> Self {
        let start = rng.below((N - len) / ALIGN + 1) * ALIGN;
        Self { buf, start, len }
    }

    fn tensor(&self, bufs: &[Tensor]) -> Tensor {
        bufs[self.buf].narrow(0, self.start, self.len).unwrap()
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len
    }
}

/// A read future and what the model held when it was issued.
struct PendingRead {
    op: usize,
    what: String,
    future: ReadFuture<f32>,
    want: Vec<f32>,
}

fn check(op: usize, what: &str, got: Vec<f32>, want: &[f32], log: &[String]) {
    if got != want {
        let from = log.len().saturating_sub(12);
        panic!(
            "op #{op} ({what}) read {got:?}, the sequential model holds {want:?}; the ops before it:\n{}",
            log[from..].join("\n")
        );
    }
}

/// Runs `ops` random operations with `seed` (on lazy streams with
/// `lazy`); panics at the first read that differs from the model.
fn run(unified: bool, lazy: bool, seed: u64, ops: usize) {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        unified_memory: unified,
        ..DeviceOptions::default()
    });
    let increment = glsl_kernel(&device, "increment", INCREMENT);
    let reflect = glsl_kernel(&device, "reflect", REFLECT);
    let mut rng = Rng(seed);
    let mut model: Vec<Vec<f32>> = (0..2)
        .map(|b| (0..N).map(|i| (i + 100 * b) as f32).collect())
        .collect();
    let bufs: Vec<Tensor> = model
        .iter()
        .map(|m| Tensor::from_slice(&device, m, &[N]).unwrap())
        .collect();
    let streams: Vec<Stream> = (0..2).map(|_| device.stream()).collect();
    if lazy {
        for s in &streams {
            s.set_lazy(true).unwrap();
        }
    }
    // Results of deferred op calls and what the model says they hold.
    let mut deferred: Vec<(Tensor, Vec<f32>, String)> = Vec::new();
    // y = w - x, w element W of buffer 1 (a weight, read at each replay).
    const W: usize = 4;
    let weight = bufs[1].narrow(0, W, 1).unwrap();
    let example = Tensor::from_slice(&device, &[0f32; 3], &[3]).unwrap();
    let (_, graph) = ops::capture(&streams[0], &[&example], |s, x| {
        Ok(vec![ops::sub(s, &weight, x[0])?])
    })
    .unwrap();
    let mut pending: Vec<PendingRead> = Vec::new();
    let mut log: Vec<String> = Vec::new();
    for op in 0..ops {
        let s = rng.below(2);
        let stream = &streams[s];
        let buf = rng.below(2);
        let kind = rng.below(110);
        let what = match kind {
            // Upload on a stream.
            0..=11 => {
                let v = View::random(&mut rng, buf);
                let data: Vec<f32> = (0..v.len).map(|_| rng.value()).collect();
                stream.upload(&v.tensor(&bufs), &data).unwrap();
                model[v.buf][v.range()].copy_from_slice(&data);
                format!("stream {s}: upload {v:?}")
            }
            // Tensor::upload (its own stream, submitted at once).
            12..=19 => {
                let v = View::random(&mut rng, buf);
                let data: Vec<f32> = (0..v.len).map(|_| rng.value()).collect();
                v.tensor(&bufs).upload(&data).unwrap();
                model[v.buf][v.range()].copy_from_slice(&data);
                format!("Tensor::upload {v:?}")
            }
            // Fill.
            20..=29 => {
                let v = View::random(&mut rng, buf);
                let value = rng.value();
                stream.fill(&v.tensor(&bufs), value).unwrap();
                model[v.buf][v.range()].fill(value);
                format!("stream {s}: fill {v:?} with {value}")
            }
            // Copy between disjoint views (of one buffer or of both).
            30..=41 => {
                let src = View::random(&mut rng, buf);
                let to = rng.below(2);
                let Some(dst) = View::disjoint(&mut rng, to, src.len, &src) else {
                    continue;
                };
                stream.copy(&src.tensor(&bufs), &dst.tensor(&bufs)).unwrap();
                let data = model[src.buf][src.range()].to_vec();
                model[dst.buf][dst.range()].copy_from_slice(&data);
                format!("stream {s}: copy {src:?} -> {dst:?}")
            }
            // y = x + 1 (read-only x, write-only y; disjoint).
            42..=59 => {
                let x = View::random(&mut rng, buf);
                let to = rng.below(2);
                let Some(y) = View::disjoint(&mut rng, to, x.len, &x) else {
                    continue;
                };
                let grid = [(x.len as u32).div_ceil(64), 1, 1];
                stream
                    .dispatch(&increment, &[&x.tensor(&bufs), &y.tensor(&bufs)], grid)
                    .unwrap();
                let data: Vec<f32> = model[x.buf][x.range()].iter().map(|v| v + 1.0).collect();
                model[y.buf][y.range()].copy_from_slice(&data);
                format!("stream {s}: increment {x:?} -> {y:?}")
            }
            // x = 3 - x in place (read-write).
            60..=69 => {
                let x = View::random(&mut rng, buf);
                let grid = [(x.len as u32).div_ceil(64), 1, 1];
                stream
                    .dispatch(&reflect, &[&x.tensor(&bufs)], grid)
                    .unwrap();
                for v in &mut model[x.buf][x.range()] {
                    *v = 3.0 - *v;
                }
                format!("stream {s}: reflect {x:?}")
            }
            // A deferred op call: w - x over a view, kept pending.
            105..=106 if lazy => {
                let x = View::random(&mut rng, buf);
                let y = ops::sub(stream, &weight, &x.tensor(&bufs)).unwrap();
                let w = model[1][W];
                let want: Vec<f32> = model[x.buf][x.range()].iter().map(|v| w - v).collect();
                let what = format!("stream {s}: lazy y{} = w - {x:?}", deferred.len());
                deferred.push((y, want, what.clone()));
                what
            }
            // A deferred relu of an earlier deferred result.
            107 if lazy && !deferred.is_empty() => {
                let k = rng.below(deferred.len());
                let y = ops::relu(stream, &deferred[k].0).unwrap();
                let want: Vec<f32> = deferred[k].1.iter().map(|v| v.max(0.0)).collect();
                let what = format!("stream {s}: lazy y{} = relu(y{k})", deferred.len());
                deferred.push((y, want, what.clone()));
                what
            }
            // A deferred result copied into a view.
            108 if lazy && !deferred.is_empty() => {
                let k = rng.below(deferred.len());
                let (y, want, _) = deferred.swap_remove(k);
                let to = rng.below(2);
                let dst = View::of_len(&mut rng, to, want.len());
                stream.copy(&y, &dst.tensor(&bufs)).unwrap();
                model[dst.buf][dst.range()].copy_from_slice(&want);
                format!("stream {s}: copy lazy y{k} -> {dst:?}")
            }
            // A deferred result read on the host.
            109 if lazy && !deferred.is_empty() => {
                let k = rng.below(deferred.len());
                let (y, want, made) = deferred.swap_remove(k);
                let what = format!("to_vec of lazy y{k} ({made})");
                log.push(what.clone());
                check(op, &what, y.to_vec::<f32>().unwrap(), &want, &log);
                continue;
            }
            // A graph replay on a view, its result copied into a view.
            _ if kind >= 100 => {
                let x = View::random(&mut rng, buf);
                let y = graph.run(stream, &[&x.tensor(&bufs)]).unwrap().remove(0);
                let to = rng.below(2);
                let dst = View::of_len(&mut rng, to, x.len);
                stream.copy(&y, &dst.tensor(&bufs)).unwrap();
                let w = model[1][W];
                let data: Vec<f32> = model[x.buf][x.range()].iter().map(|v| w - v).collect();
                model[dst.buf][dst.range()].copy_from_slice(&data);
                format!("stream {s}: replay w - {x:?} -> {dst:?}")
            }
            // A blocking read of a contiguous view.
            70..=79 => {
                let v = View::random(&mut rng, buf);
                let what = format!("to_vec {v:?}");
                log.push(what.clone());
                let got = v.tensor(&bufs).to_vec::<f32>().unwrap();
                check(op, &what, got, &model[v.buf][v.range()], &log);
                continue;
            }
            // A blocking read of a strided view (columns of a 2-D view).
            80..=84 => {
                let rows = 1 + rng.below(8);
                let cols = 1 + rng.below(N / rows);
                let start = rng.below(N - rows * cols + 1);
                let t = bufs[buf]
                    .narrow(0, start, rows * cols)
                    .unwrap()
                    .reshape(&[rows, cols])
                    .unwrap()
                    .transpose(0, 1)
                    .unwrap();
                let what =
                    format!("to_vec of buffer {buf} [{start}..] as {rows}x{cols}, transposed");
                log.push(what.clone());
                let got = t.to_vec::<f32>().unwrap();
                let m = &model[buf];
                let want: Vec<f32> = (0..cols)
                    .flat_map(|c| (0..rows).map(move |r| m[start + r * cols + c]))
                    .collect();
                check(op, &what, got, &want, &log);
                continue;
            }
            // A read future, resolved later.
            85..=94 => {
                let v = View::random(&mut rng, buf);
                let what = format!("read {v:?}");
                pending.push(PendingRead {
                    op,
                    what: what.clone(),
                    future: v.tensor(&bufs).read::<f32>(),
                    want: model[v.buf][v.range()].to_vec(),
                });
                what
            }
            // Submit a stream's batch (or resolve the read futures).
            95..=97 => {
                stream.flush().unwrap();
                format!("stream {s}: flush")
            }
            _ => {
                for p in pending.drain(..) {
                    let got = pollster::block_on(p.future).unwrap();
                    check(p.op, &p.what, got, &p.want, &log);
                }
                "resolve the read futures".to_owned()
            }
        };
        log.push(what);
    }
    for p in pending.drain(..) {
        let got = pollster::block_on(p.future).unwrap();
        check(p.op, &p.what, got, &p.want, &log);
    }
    for (y, want, made) in deferred.drain(..) {
        check(ops, &made, y.to_vec::<f32>().unwrap(), &want, &log);
    }
    if lazy {
        for s in &streams {
            let stats = s.lazy_stats();
            assert!(s.is_lazy() && stats.deferred > 0, "{stats:?}");
        }
    }
    for s in &streams {
        s.sync().unwrap();
    }
    for (b, t) in bufs.iter().enumerate() {
        check(ops, "final", t.to_vec::<f32>().unwrap(), &model[b], &log);
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn random_accesses_on_two_streams_read_what_a_sequential_model_holds() {
    run(true, false, 0x9E37_79B9_7F4A_7C15, 1500);
}

#[test]
fn random_accesses_read_what_a_sequential_model_holds_through_staging() {
    run(false, false, 0xD1B5_4A32_D192_ED03, 1500);
}

#[test]
fn random_accesses_with_deferred_op_calls_on_two_lazy_streams() {
    run(true, true, 0x2545_F491_4F6C_DD1D, 1500);
}

#[test]
fn random_accesses_with_deferred_op_calls_through_staging() {
    run(false, true, 0x27BB_2EE6_87B0_B0FD, 1500);
}
