//! The host's limits, measured in the same run: a STREAM-style add
//! (`c[i] = a[i] + b[i]` over f32, 12 bytes per element, as the STREAM
//! benchmark counts them: no write-allocate traffic) and a read-sum, each
//! split over the host's cores in contiguous chunks by scoped threads.
//! The arrays are first touched by the threads that later use them, before
//! timing. The per-call thread start (tens of µs) is counted, as the
//! device's dispatch is.
//!
//! Build with optimisations (`--release`): a debug build measures the
//! compiler, not the memory.

use std::hint::black_box;
use std::thread;

use crate::bench::stats::{time_host, Measurement, Timing, Work};
use crate::bench::BenchError;

/// Threads the host measurements use: the host's cores.
pub fn host_threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Splits `len` into `parts` contiguous chunk lengths (the first ones one
/// longer).
fn chunk_len(len: usize, parts: usize) -> usize {
    len.div_ceil(parts.max(1)).max(1)
}

/// Fills `v` with `f(i)` on `threads` threads (first touch where it will be
/// used).
fn par_fill(v: &mut [f32], threads: usize, f: impl Fn(usize) -> f32 + Sync) {
    let chunk = chunk_len(v.len(), threads);
    thread::scope(|s| {
        for (k, part) in v.chunks_mut(chunk).enumerate() {
            let f = &f;
            s.spawn(move || {
                for (i, x) in part.iter_mut().enumerate() {
                    *x = f(k * chunk + i);
                }
            });
        }
    });
}

/// `c = a + b` on `threads` threads.
fn par_add(a: &[f32], b: &[f32], c: &mut [f32], threads: usize) {
    let chunk = chunk_len(c.len(), threads);
    thread::scope(|s| {
        for ((c, a), b) in c
            .chunks_mut(chunk)
            .zip(a.chunks(chunk))
            .zip(b.chunks(chunk))
        {
            s.spawn(move || {
                for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
                    *c = a + b;
                }
            });
        }
    });
}

/// The sum of `a`, 16 independent accumulators per thread (so the loop is
/// not bound by the latency of one add chain).
fn par_sum(a: &[f32], threads: usize) -> f64 {
    let chunk = chunk_len(a.len(), threads);
    thread::scope(|s| {
        let parts: Vec<_> = a
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut acc = [0f32; 16];
                    let mut blocks = part.chunks_exact(16);
                    for blk in &mut blocks {
                        for (x, y) in acc.iter_mut().zip(blk) {
                            *x += y;
                        }
                    }
                    let tail: f32 = blocks.remainder().iter().sum();
                    acc.iter().map(|&x| f64::from(x)).sum::<f64>() + f64::from(tail)
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().expect("sum thread"))
            .sum()
    })
}

/// STREAM-style add of `n` f32 on `threads` threads (12 bytes per element),
/// checked against a serial add first.
pub fn stream_add(n: usize, threads: usize, runs: usize) -> Result<Measurement, BenchError> {
    let name = format!("host STREAM add {n} f32 ({threads} threads)");
    let mut a = vec![0f32; n];
    let mut b = vec![0f32; n];
    let mut c = vec![0f32; n];
    par_fill(&mut a, threads, |i| (i % 1000) as f32);
    par_fill(&mut b, threads, |i| (i % 17) as f32);
    par_fill(&mut c, threads, |_| 0.0);
    par_add(&a, &b, &mut c, threads);
    if let Some(i) = (0..n).find(|&i| c[i] != a[i] + b[i]) {
        return Err(BenchError::wrong(
            &name,
            format!("element {i} is {}, expected {}", c[i], a[i] + b[i]),
        ));
    }
    let wall = time_host(runs, || {
        par_add(black_box(&a), black_box(&b), &mut c, threads);
        black_box(&c);
    });
    Ok(Measurement {
        name,
        work: Work::bytes(12.0 * n as f64),
        timing: Timing { wall, gpu: None },
        checked: "equals a serial a + b".to_owned(),
    })
}

/// Read-sum of `n` f32 on `threads` threads (4 bytes per element), checked
/// exactly (small integers) first.
pub fn read_sum(n: usize, threads: usize, runs: usize) -> Result<Measurement, BenchError> {
    let name = format!("host read-sum {n} f32 ({threads} threads)");
    let mut a = vec![0f32; n];
    par_fill(&mut a, threads, |i| (i % 7) as f32);
    let expected: f64 = (0..n).map(|i| (i % 7) as f64).sum();
    let got = par_sum(&a, threads);
    // Each accumulator stays below 2^24 for n below 2^24 * 16 / 6 per
    // thread; past that the check is approximate.
    if (got - expected).abs() > expected * 1e-6 {
        return Err(BenchError::wrong(
            &name,
            format!("sum {got}, expected {expected}"),
        ));
    }
    let wall = time_host(runs, || {
        black_box(par_sum(black_box(&a), threads));
    });
    Ok(Measurement {
        name,
        work: Work::bytes(4.0 * n as f64),
        timing: Timing { wall, gpu: None },
        checked: format!("sum {expected}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_loops_cover_every_element() {
        for (n, threads) in [(1, 4), (17, 3), (1000, 2), (64, 64)] {
            let mut a = vec![0f32; n];
            par_fill(&mut a, threads, |i| i as f32);
            assert!(a.iter().enumerate().all(|(i, &x)| x == i as f32));
            let mut c = vec![0f32; n];
            par_add(&a, &a, &mut c, threads);
            assert!(c.iter().enumerate().all(|(i, &x)| x == 2.0 * i as f32));
            let want: f64 = (0..n).map(|i| i as f64).sum();
            assert_eq!(par_sum(&a, threads), want);
        }
    }
}
