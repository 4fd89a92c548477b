//! What one `kiln bench` run found, printed as a table or as JSON.
//!
//! Ratios are taken within the run: each implementation's throughput at
//! its median wall-clock time per call, as a fraction of the measured
//! device limit (implementations on the device) or host limit (IREE's CPU
//! backend), and as a speed ratio to each IREE column and to the vendor's
//! BLAS where it ran (`2.0` = twice as fast as IREE there).

use std::fmt::Write as _;
use std::time::Duration;

use kiln_runtime::bench::compile::CompileTimes;
use kiln_runtime::bench::overhead::DispatchOverhead;
use kiln_runtime::bench::stats::ms;
use kiln_runtime::bench::{Measurement, Stats, Timing, Work};
use serde_json::{json, Value};

use super::suite::LimitKind;

/// The implementation names the ratios refer to.
pub const KILN: &str = "kiln";
/// `kiln` running a memref-level kernel.
pub const KILN_MEMREF: &str = "kiln memref kernel";
/// The hand-written GLSL reference through kiln-runtime.
pub const GLSL: &str = "hand-written GLSL";
/// The hand-written GLSL reference reading uniform texel buffers.
pub const GLSL_TEXEL: &str = "GLSL, texel reads";
/// The hand-written GLSL reference reading uniform texel buffers and
/// storing 64-bit words.
pub const GLSL_WORDS: &str = "GLSL, texel reads, u64 stores";
/// IREE's Vulkan backend.
pub const IREE_VULKAN: &str = "IREE vulkan";
/// IREE's CPU backend.
pub const IREE_CPU: &str = "IREE llvm-cpu";
/// The device vendor's BLAS (cuBLAS) called through PyTorch's CUDA build
/// (`vendor.rs`; GPU devices, matmuls only).
pub const VENDOR: &str = "cuBLAS (torch)";

/// A measured implementation of a benchmark, or why it has no figures.
#[derive(Clone, Debug)]
pub struct Impl {
    /// One of the names above.
    pub label: &'static str,
    /// Runs on the host's CPU (held against the host's limit).
    pub on_host: bool,
    /// Its times and what its output was checked against, or why not.
    pub result: Result<Measured, String>,
}

/// Times of an implementation whose output was checked (or could not be).
#[derive(Clone, Debug)]
pub struct Measured {
    /// Per-call times.
    pub timing: Timing,
    /// The check that passed before timing (or why there was none).
    pub checked: String,
}

/// One benchmark (a program of the set, or a function of a file).
#[derive(Clone, Debug)]
pub struct Bench {
    /// Name (`add_16m`, or the function's).
    pub name: String,
    /// Title (`add 16M f32`).
    pub title: String,
    /// Short label for the chart.
    pub short: String,
    /// The work of a call (unknown for a user's file).
    pub work: Option<Work>,
    /// The limit it is held against and its work in that limit's unit.
    pub limit: Option<(LimitKind, Work)>,
    /// Implementations, kiln first.
    pub impls: Vec<Impl>,
}

/// Device and host limits, each measured or why not.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The device's copy bandwidth.
    pub device_copy: Result<Measurement, String>,
    /// The device's read bandwidth.
    pub device_read: Result<Measurement, String>,
    /// The device's FMA rate.
    pub device_fma: Result<Measurement, String>,
    /// The host's STREAM add.
    pub host_add: Result<Measurement, String>,
    /// The host's read-sum.
    pub host_read: Result<Measurement, String>,
    /// numpy's sgemm.
    pub host_sgemm: Result<Measurement, String>,
}

impl Limits {
    /// Each limit the faster (by median) of `self` (measured first) and
    /// `later`, and a note giving both rates.
    pub fn best_of(self, later: Limits) -> (Limits, String) {
        let mut said = Vec::new();
        let mut pick = |a: Result<Measurement, String>, b: Result<Measurement, String>| match (a, b)
        {
            (Ok(a), Ok(b)) => {
                said.push(format!(
                    "{} {:.2}/{:.2} {}",
                    a.name.split(" (").next().unwrap_or(&a.name),
                    a.rate(),
                    b.rate(),
                    a.work.unit.rate_label()
                ));
                Ok(if b.rate() > a.rate() { b } else { a })
            }
            (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
            (Err(e), Err(_)) => Err(e),
        };
        let best = Limits {
            device_copy: pick(self.device_copy, later.device_copy),
            device_read: pick(self.device_read, later.device_read),
            device_fma: pick(self.device_fma, later.device_fma),
            host_add: pick(self.host_add, later.host_add),
            host_read: pick(self.host_read, later.host_read),
            host_sgemm: pick(self.host_sgemm, later.host_sgemm),
        };
        let note = format!(
            "limits measured at the start and at the end of the run, the faster of each kept: {}",
            said.join(", ")
        );
        (best, note)
    }

    fn device(&self, kind: LimitKind) -> Option<&Measurement> {
        match kind {
            LimitKind::Stream => self.device_copy.as_ref().ok(),
            LimitKind::Read => self.device_read.as_ref().ok(),
            LimitKind::Fma => self.device_fma.as_ref().ok(),
        }
    }

    fn host(&self, kind: LimitKind) -> Option<&Measurement> {
        match kind {
            LimitKind::Stream => self.host_add.as_ref().ok(),
            LimitKind::Read => self.host_read.as_ref().ok(),
            LimitKind::Fma => self.host_sgemm.as_ref().ok(),
        }
    }
}

/// Everything one run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// `suite`, `quick` or `file`.
    pub mode: &'static str,
    /// The Vulkan device.
    pub device: String,
    /// Threads of the host measurements.
    pub host_threads: usize,
    /// Timed runs per row (after warm-up calls: 250 ms, 3 s on a GPU).
    pub runs: usize,
    /// IREE's version, or why it did not run.
    pub iree: Result<String, String>,
    /// Device and host limits (not measured for a user's file).
    pub limits: Option<Limits>,
    /// The benchmarks.
    pub benches: Vec<Bench>,
    /// Dispatch overhead.
    pub overhead: Option<Result<DispatchOverhead, String>>,
    /// Compile time of the memref add in process.
    pub compile: Option<Result<CompileTimes, String>>,
    /// `iree-compile` time per (benchmark, target), whole process.
    pub iree_compile: Vec<(String, &'static str, Duration)>,
    /// Anything the reader must know (machine load, skipped columns).
    pub notes: Vec<String>,
}

/// `(implementation, fraction of its limit or a short why-not)` of one
/// benchmark.
pub type Fractions = Vec<(&'static str, Result<f64, &'static str>)>;

/// The figures derived for one implementation.
#[derive(Clone, Copy, Debug, Default)]
struct Derived {
    throughput: Option<f64>,
    of_device: Option<f64>,
    of_host: Option<f64>,
    vs_iree_vulkan: Option<f64>,
    vs_iree_cpu: Option<f64>,
    vs_vendor: Option<f64>,
}

impl Report {
    fn median_of(&self, bench: &Bench, label: &str) -> Option<Duration> {
        bench
            .impls
            .iter()
            .find(|i| i.label == label)
            .and_then(|i| i.result.as_ref().ok())
            .map(|m| m.timing.wall.median)
    }

    fn derive(&self, bench: &Bench, imp: &Impl) -> Derived {
        let Ok(m) = &imp.result else {
            return Derived::default();
        };
        let t = m.timing.wall.median;
        let mut d = Derived {
            throughput: bench.work.map(|w| w.rate(t)),
            ..Derived::default()
        };
        if let (Some((kind, work)), Some(limits)) = (bench.limit, &self.limits) {
            let rate = work.rate(t);
            if imp.on_host {
                d.of_host = limits.host(kind).map(|l| rate / l.rate());
            } else {
                d.of_device = limits.device(kind).map(|l| rate / l.rate());
            }
        }
        let ratio = |label| {
            self.median_of(bench, label)
                .filter(|_| imp.label != label)
                .map(|r| r.as_secs_f64() / t.as_secs_f64().max(1e-12))
        };
        d.vs_iree_vulkan = ratio(IREE_VULKAN);
        d.vs_iree_cpu = ratio(IREE_CPU);
        d.vs_vendor = ratio(VENDOR);
        d
    }

    /// Fraction of the limit for each (benchmark short label, impl label)
    /// measured (device limit, or host limit for host implementations):
    /// what the chart draws.
    pub fn fractions(&self) -> Vec<(String, Fractions)> {
        self.benches
            .iter()
            .map(|b| {
                let values = b
                    .impls
                    .iter()
                    .map(|i| {
                        let d = self.derive(b, i);
                        let why = match &i.result {
                            Err(e) if e.contains("not yet") => "not yet",
                            Err(e) if e.contains("wrong result") => "wrong",
                            Err(_) => "failed",
                            Ok(_) => "no limit",
                        };
                        (i.label, d.of_device.or(d.of_host).ok_or(why))
                    })
                    .collect();
                (b.short.clone(), values)
            })
            .collect()
    }
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.digits$}"))
}

fn stats_json(s: &Stats) -> Value {
    json!({"runs": s.runs, "median_ms": s.median_ms(), "min_ms": s.min_ms(), "max_ms": s.max_ms()})
}

fn measurement_json(m: &Result<Measurement, String>) -> Value {
    match m {
        Ok(m) => json!({
            "name": m.name,
            "runs": m.timing.wall.runs,
            "median_ms": m.timing.wall.median_ms(),
            "min_ms": m.timing.wall.min_ms(),
            "max_ms": m.timing.wall.max_ms(),
            "gpu_median_ms": m.timing.gpu.map(|g| g.median_ms()),
            "throughput": m.rate(),
            "gpu_throughput": m.gpu_rate(),
            "unit": m.work.unit.rate_label(),
            "checked": m.checked,
        }),
        Err(e) => json!({"error": e}),
    }
}

fn line(out: &mut String, m: &Result<Measurement, String>) {
    match m {
        Ok(m) => {
            let w = m.timing.wall;
            let gpu = m.timing.gpu.map(|g| g.median_ms());
            let _ = writeln!(
                out,
                "  {:<58} {:>9.3} {:>9.3}-{:<9.3} {:>9} {:>9.2} {:>9} {:<8} ok: {}",
                m.name,
                w.median_ms(),
                w.min_ms(),
                w.max_ms(),
                opt(gpu, 3),
                m.rate(),
                opt(m.gpu_rate(), 2),
                m.work.unit.rate_label(),
                m.checked
            );
        }
        Err(e) => {
            let _ = writeln!(out, "  not measured: {e}");
        }
    }
}

impl Report {
    /// The table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "kiln bench ({}) on {}; host measurements on {} threads; {} timed runs per row after warm-up calls (250 ms; 3 s on a GPU)",
            self.mode, self.device, self.host_threads, self.runs
        );
        let _ = writeln!(
            out,
            "times: wall-clock ms per call as iree-benchmark-module measures it (median, min-max); GPU: the call's dispatch timestamps"
        );
        match &self.iree {
            Ok(v) => {
                let _ = writeln!(out, "IREE: {v}");
            }
            Err(e) => {
                let _ = writeln!(out, "IREE: not run: {e}");
            }
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        if let Some(l) = &self.limits {
            let _ = writeln!(
                out,
                "\n{:<60} {:>9} {:>19} {:>9} {:>9} {:>9}",
                "limits", "median", "min-max", "GPU ms", "rate", "GPU rate"
            );
            let _ = writeln!(out, "device (hand-written GLSL through kiln-runtime):");
            line(&mut out, &l.device_copy);
            line(&mut out, &l.device_read);
            line(&mut out, &l.device_fma);
            let _ = writeln!(out, "host:");
            line(&mut out, &l.host_add);
            line(&mut out, &l.host_read);
            line(&mut out, &l.host_sgemm);
        }
        // The vendor's column only where it ran (GPU devices).
        let vendor = self
            .benches
            .iter()
            .any(|b| b.impls.iter().any(|i| i.label == VENDOR));
        let vendor_head = if vendor {
            format!(" {:>8}", "xcuBLAS")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "\n{:<30} {:<19} {:>9} {:>19} {:>9} {:>14} {:>7} {:>7} {:>8} {:>8}{vendor_head}  check",
            "benchmark",
            "implementation",
            "median",
            "min-max",
            "GPU ms",
            "throughput",
            "of dev",
            "of host",
            "xIREE-vk",
            "xIREE-cpu"
        );
        for b in &self.benches {
            let unit = b.work.map_or("", |w| w.unit.rate_label());
            for (k, imp) in b.impls.iter().enumerate() {
                let title = if k == 0 { b.title.as_str() } else { "" };
                match &imp.result {
                    Ok(m) => {
                        let d = self.derive(b, imp);
                        let w = m.timing.wall;
                        let vendor_ratio = if vendor {
                            format!(" {:>8}", opt(d.vs_vendor, 2))
                        } else {
                            String::new()
                        };
                        let _ = writeln!(
                            out,
                            "{:<30} {:<19} {:>9.3} {:>9.3}-{:<9.3} {:>9} {:>14} {:>7} {:>7} {:>8} {:>8}{vendor_ratio}  {}",
                            title,
                            imp.label,
                            w.median_ms(),
                            w.min_ms(),
                            w.max_ms(),
                            opt(m.timing.gpu.map(|g| g.median_ms()), 3),
                            d.throughput
                                .map_or(String::new(), |t| format!("{t:.2} {unit}")),
                            opt(d.of_device, 2),
                            opt(d.of_host, 2),
                            opt(d.vs_iree_vulkan, 2),
                            opt(d.vs_iree_cpu, 2),
                            m.checked
                        );
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{title:<30} {:<19} {e}", imp.label);
                    }
                }
            }
        }
        if let Some(o) = &self.overhead {
            let _ = writeln!(out, "\ndispatch overhead (median):");
            match o {
                Ok(o) => {
                    let us = |d: Duration| d.as_secs_f64() * 1e6;
                    let _ = writeln!(
                        out,
                        "  one dispatch end to end: kiln-runtime {:.1} us, direct vkQueueSubmit loop {:.1} us",
                        us(o.runtime_one.median),
                        us(o.direct_one.median)
                    );
                    let _ = writeln!(
                        out,
                        "  each extra dispatch in a batch of 100: kiln-runtime {:.2} us, direct loop {:.2} us ({:.2}x)",
                        us(o.runtime_per_extra()),
                        us(o.direct_per_extra()),
                        us(o.runtime_per_extra()) / us(o.direct_per_extra()).max(1e-9)
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "  not measured: {e}");
                }
            }
        }
        if let Some(c) = &self.compile {
            let _ = writeln!(
                out,
                "\ncompile time, memref add kernel to a validated binary in process (median, min-max ms):"
            );
            match c {
                Ok(c) => {
                    for (what, s) in [
                        ("lower + serialize + validate", &c.lower),
                        ("load_kernel, cold (empty caches)", &c.cold),
                        ("load_kernel, warm (disk caches)", &c.warm),
                    ] {
                        let _ = writeln!(
                            out,
                            "  {what:<36} {:>8.3} {:>8.3}-{:<8.3}",
                            s.median_ms(),
                            s.min_ms(),
                            s.max_ms()
                        );
                    }
                }
                Err(e) => {
                    let _ = writeln!(out, "  not measured: {e}");
                }
            }
        }
        if !self.iree_compile.is_empty() {
            let _ = writeln!(out, "\niree-compile, whole process (one run each, ms):");
            for (name, target, t) in &self.iree_compile {
                let _ = writeln!(out, "  {name:<28} {target:<14} {:>9.1}", ms(*t));
            }
        }
        out
    }

    /// The JSON document: `benchmarks` holds one object per benchmark or
    /// function with kiln's figures at the top (`name`, `runs`,
    /// `median_ms`, `min_ms`, `max_ms`, `gpu_median_ms`, ...; `error` when
    /// kiln has none) and every implementation under `implementations`;
    /// `vendor_blas` repeats the vendor's BLAS implementation where it ran.
    pub fn json(&self) -> Value {
        let benches: Vec<Value> = self
            .benches
            .iter()
            .map(|b| {
                let impls: Vec<Value> = b
                    .impls
                    .iter()
                    .map(|i| {
                        let d = self.derive(b, i);
                        let mut v = json!({"implementation": i.label, "on_host": i.on_host});
                        match &i.result {
                            Ok(m) => {
                                let w = m.timing.wall;
                                v["runs"] = json!(w.runs);
                                v["median_ms"] = json!(w.median_ms());
                                v["min_ms"] = json!(w.min_ms());
                                v["max_ms"] = json!(w.max_ms());
                                v["gpu_median_ms"] = json!(m.timing.gpu.map(|g| g.median_ms()));
                                v["throughput"] = json!(d.throughput);
                                v["fraction_of_device_limit"] = json!(d.of_device);
                                v["fraction_of_host_limit"] = json!(d.of_host);
                                v["vs_iree_vulkan"] = json!(d.vs_iree_vulkan);
                                v["vs_iree_cpu"] = json!(d.vs_iree_cpu);
                                v["vs_vendor_blas"] = json!(d.vs_vendor);
                                v["checked"] = json!(m.checked);
                            }
                            Err(e) => v["error"] = json!(e),
                        }
                        v
                    })
                    .collect();
                let mut top = json!({
                    "name": b.name,
                    "title": b.title,
                    "unit": b.work.map(|w| w.unit.rate_label()),
                    "work": b.work.map(|w| w.amount),
                    "runs": 0,
                    "median_ms": null,
                    "min_ms": null,
                    "max_ms": null,
                    "gpu_median_ms": null,
                });
                if let Some(k) = impls.iter().find(|v| v["implementation"] == KILN) {
                    for key in [
                        "runs",
                        "median_ms",
                        "min_ms",
                        "max_ms",
                        "gpu_median_ms",
                        "throughput",
                        "fraction_of_device_limit",
                        "vs_iree_vulkan",
                        "vs_iree_cpu",
                        "vs_vendor_blas",
                        "checked",
                        "error",
                    ] {
                        if !k[key].is_null() {
                            top[key] = k[key].clone();
                        }
                    }
                }
                if let Some(v) = impls.iter().find(|v| v["implementation"] == VENDOR) {
                    top["vendor_blas"] = v.clone();
                }
                top["implementations"] = Value::Array(impls);
                top
            })
            .collect();
        let mut doc = json!({
            "mode": self.mode,
            "device": self.device,
            "host_threads": self.host_threads,
            "runs": self.runs,
            "iree": match &self.iree { Ok(v) => json!({"version": v}), Err(e) => json!({"error": e}) },
            "notes": self.notes,
            "benchmarks": benches,
        });
        if let Some(l) = &self.limits {
            doc["limits"] = json!({
                "device": {
                    "copy": measurement_json(&l.device_copy),
                    "read": measurement_json(&l.device_read),
                    "fma": measurement_json(&l.device_fma),
                },
                "host": {
                    "stream_add": measurement_json(&l.host_add),
                    "read_sum": measurement_json(&l.host_read),
                    "numpy_sgemm": measurement_json(&l.host_sgemm),
                },
            });
        }
        if let Some(o) = &self.overhead {
            doc["dispatch_overhead"] = match o {
                Ok(o) => json!({
                    "runtime_one": stats_json(&o.runtime_one),
                    "runtime_batch_100": stats_json(&o.runtime_batch),
                    "direct_one": stats_json(&o.direct_one),
                    "direct_batch_100": stats_json(&o.direct_batch),
                    "runtime_per_extra_us": o.runtime_per_extra().as_secs_f64() * 1e6,
                    "direct_per_extra_us": o.direct_per_extra().as_secs_f64() * 1e6,
                }),
                Err(e) => json!({"error": e}),
            };
        }
        if let Some(c) = &self.compile {
            doc["compile"] = match c {
                Ok(c) => json!({
                    "lower": stats_json(&c.lower),
                    "cold": stats_json(&c.cold),
                    "warm": stats_json(&c.warm),
                }),
                Err(e) => json!({"error": e}),
            };
        }
        if !self.iree_compile.is_empty() {
            doc["iree_compile_ms"] = self
                .iree_compile
                .iter()
                .map(|(n, t, d)| json!({"name": n, "target": t, "ms": ms(*d)}))
                .collect();
        }
        doc
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn stats(ms: u64) -> Stats {
        let d = Duration::from_millis(ms);
        Stats::new(&[d, d, d]).unwrap()
    }

    fn measured(ms: u64, work: Work) -> Measurement {
        Measurement {
            name: "limit".to_owned(),
            work,
            timing: Timing {
                wall: stats(ms),
                gpu: None,
            },
            checked: "ok".to_owned(),
        }
    }

    fn imp(label: &'static str, on_host: bool, ms: u64) -> Impl {
        Impl {
            label,
            on_host,
            result: Ok(Measured {
                timing: Timing {
                    wall: stats(ms),
                    gpu: None,
                },
                checked: "ok".to_owned(),
            }),
        }
    }

    /// One add of 1e9 bytes: kiln at 100 ms (10 GB/s), IREE vulkan at
    /// 400 ms, IREE CPU at 50 ms; device copy limit 20 GB/s (1e9 bytes in
    /// 50 ms), host STREAM 25 GB/s (1e9 bytes in 40 ms).
    pub(in super::super) fn sample() -> Report {
        let gb = Work::bytes(1e9);
        Report {
            mode: "suite",
            device: "test device".to_owned(),
            host_threads: 2,
            runs: 3,
            iree: Ok("test".to_owned()),
            limits: Some(Limits {
                device_copy: Ok(measured(50, gb)),
                device_read: Err("not measured".to_owned()),
                device_fma: Err("not measured".to_owned()),
                host_add: Ok(measured(40, gb)),
                host_read: Err("not measured".to_owned()),
                host_sgemm: Err("no numpy".to_owned()),
            }),
            benches: vec![Bench {
                name: "add".to_owned(),
                title: "add".to_owned(),
                short: "add".to_owned(),
                work: Some(gb),
                limit: Some((LimitKind::Stream, gb)),
                impls: vec![
                    imp(KILN, false, 100),
                    imp(IREE_VULKAN, false, 400),
                    imp(IREE_CPU, true, 50),
                    Impl {
                        label: GLSL,
                        on_host: false,
                        result: Err("not yet: test".to_owned()),
                    },
                ],
            }],
            overhead: None,
            compile: None,
            iree_compile: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_faster_limit_of_two_is_kept() {
        let gb = Work::bytes(1e9);
        let first = sample().limits.unwrap();
        let mut later = sample().limits.unwrap();
        later.device_copy = Ok(measured(25, gb)); // 40 GB/s, faster
        later.host_add = Ok(measured(80, gb)); // slower
        later.device_read = Ok(measured(10, gb)); // only measured later
        let (best, note) = first.best_of(later);
        assert_eq!(
            best.device_copy.unwrap().timing.wall.median,
            Duration::from_millis(25)
        );
        assert_eq!(
            best.host_add.unwrap().timing.wall.median,
            Duration::from_millis(40)
        );
        assert!(best.device_read.is_ok() && best.device_fma.is_err());
        assert!(note.contains("limit 20.00/40.00 GB/s"), "{note}");
    }

    #[test]
    fn ratios_within_the_run() {
        let r = sample();
        let b = &r.benches[0];
        let kiln = r.derive(b, &b.impls[0]);
        assert!((kiln.throughput.unwrap() - 10.0).abs() < 1e-9);
        assert!((kiln.of_device.unwrap() - 0.5).abs() < 1e-9);
        assert!(kiln.of_host.is_none());
        assert!((kiln.vs_iree_vulkan.unwrap() - 4.0).abs() < 1e-9);
        assert!((kiln.vs_iree_cpu.unwrap() - 0.5).abs() < 1e-9);
        let cpu = r.derive(b, &b.impls[2]);
        assert!((cpu.of_host.unwrap() - 0.8).abs() < 1e-9);
        assert!(cpu.of_device.is_none() && cpu.vs_iree_cpu.is_none());
        let f = &r.fractions()[0].1;
        assert_eq!(f[3], (GLSL, Err("not yet")));
        let doc = r.json();
        let top = &doc["benchmarks"][0];
        assert_eq!(top["runs"], 3);
        assert_eq!(top["median_ms"], 100.0);
        assert_eq!(top["vs_iree_vulkan"], 4.0);
        assert_eq!(top["implementations"][3]["error"], "not yet: test");
        assert!(r.table().contains("not yet: test"));
        assert!(
            !r.table().contains("xcuBLAS"),
            "no vendor column without it"
        );
        assert!(top.get("vendor_blas").is_none());
    }

    #[test]
    fn the_vendor_blas_gets_a_column_and_a_ratio() {
        let mut r = sample();
        let mut vendor = imp(VENDOR, false, 80);
        if let Ok(m) = vendor.result.as_mut() {
            m.timing.gpu = Some(stats(60));
            m.checked = "max normalised error 1.0e-7; torch.mm(a, b)".to_owned();
        }
        r.benches[0].impls.insert(1, vendor);
        let b = &r.benches[0];
        let kiln = r.derive(b, &b.impls[0]);
        assert!((kiln.vs_vendor.unwrap() - 0.8).abs() < 1e-9);
        assert!(r.derive(b, &b.impls[1]).vs_vendor.is_none());
        let table = r.table();
        assert!(table.contains("xcuBLAS"), "{table}");
        let row = table.lines().find(|l| l.starts_with("add ")).unwrap();
        assert!(row.contains("0.80"), "{row}");
        let doc = r.json();
        let top = &doc["benchmarks"][0];
        assert!((top["vs_vendor_blas"].as_f64().unwrap() - 0.8).abs() < 1e-9);
        assert_eq!(top["vendor_blas"]["implementation"], VENDOR);
        assert_eq!(top["vendor_blas"]["median_ms"], 80.0);
        assert_eq!(top["vendor_blas"]["gpu_median_ms"], 60.0);
        assert_eq!(
            top["vendor_blas"]["checked"],
            "max normalised error 1.0e-7; torch.mm(a, b)"
        );
    }
}
