//! Tracing: a Chrome / Perfetto trace (the JSON `traceEvents` format) of a
//! device's work, written when the device is dropped.
//!
//! With `KILN_TRACE=FILE.json` (or [`DeviceOptions::trace`](crate::DeviceOptions::trace))
//! a device records
//! - on the host process, one track per stream: every dispatch (named by
//!   its kernel, with its number and grid) and every transfer (`copy`, or
//!   `write` for fills and uploads, with its bytes) at the time it was
//!   enqueued, and every copy between devices
//!   ([`Tensor::to_device`](crate::Tensor::to_device)) with its duration;
//!   on a `submissions` track, each submission from `vkQueueSubmit` to the
//!   moment the runtime saw it complete;
//! - on the GPU process, every dispatch with its GPU start and duration
//!   from the timestamps the profile takes (tracing turns profiling on).
//!   GPU times are on the queue's clock: they are moved onto the host's
//!   by the smallest shift that starts no dispatch before its
//!   submission was made. Where the queue writes no timestamps, a
//!   dispatch is an instant event at its submission.
//!
//! The file is written atomically (a temporary file, then a rename). With
//! the variable set, the first device of a process writes `FILE.json`,
//! later ones `FILE-2.json`, `FILE-3.json`, ….

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::inner::{lock, DispatchInfo};

/// The environment variable that turns tracing on: the trace file's path.
pub const ENV_TRACE: &str = "KILN_TRACE";

/// Devices that took their trace path from [`ENV_TRACE`] so far.
static ENV_DEVICES: AtomicU64 = AtomicU64::new(0);

/// The trace path from [`ENV_TRACE`] for the next device of the process
/// (see the module docs), if the variable is set.
pub(crate) fn env_path() -> Option<PathBuf> {
    let path = std::env::var_os(ENV_TRACE).filter(|p| !p.is_empty())?;
    Some(numbered(
        PathBuf::from(path),
        ENV_DEVICES.fetch_add(1, Ordering::Relaxed),
    ))
}

/// The trace path of the device with number `n` (from 0) of those that
/// took theirs from `path`: `path` itself for the first, else `path` with
/// `-{n + 1}` after its stem.
fn numbered(path: PathBuf, n: u64) -> PathBuf {
    if n == 0 {
        return path;
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{}.{}", n + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", n + 1),
    };
    path.with_file_name(name)
}

/// One enqueued command.
struct Enqueued {
    at: Duration,
    stream: u64,
    /// The dispatch, or `None` for a transfer.
    dispatch: Option<DispatchInfo>,
    /// `copy` or `write` for transfers.
    transfer: &'static str,
    bytes: u64,
}

/// One submission.
struct Submitted {
    value: u64,
    at: Duration,
    /// When the runtime saw it complete.
    done: Option<Duration>,
    /// Its dispatches with their GPU spans (queue clock, ns).
    dispatches: Vec<(DispatchInfo, Option<(u64, u64)>)>,
}

/// A copy between devices, on the host.
struct HostCopy {
    at: Duration,
    took: Duration,
    bytes: u64,
    to: String,
}

#[derive(Default)]
struct State {
    enqueued: Vec<Enqueued>,
    submitted: Vec<Submitted>,
    copies: Vec<HostCopy>,
}

/// A device's trace, kept in memory until the device is dropped.
pub(crate) struct Tracer {
    path: PathBuf,
    device: String,
    start: Instant,
    state: Mutex<State>,
}

impl Tracer {
    pub(crate) fn new(path: PathBuf, device: String) -> Self {
        Self {
            path,
            device,
            start: Instant::now(),
            state: Mutex::new(State::default()),
        }
    }

    /// Where the trace goes.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// A command enqueued on stream `stream`: a dispatch, or a transfer of
    /// `bytes` (`copy` when it reads a buffer, else `write`).
    pub(crate) fn enqueued(
        &self,
        stream: u64,
        dispatch: Option<&DispatchInfo>,
        copy: bool,
        bytes: u64,
    ) {
        let at = self.start.elapsed();
        lock(&self.state).enqueued.push(Enqueued {
            at,
            stream,
            dispatch: dispatch.cloned(),
            transfer: if copy { "copy" } else { "write" },
            bytes,
        });
    }

    /// Submission `value` was made with `work`.
    pub(crate) fn submitted(&self, value: u64, work: &[DispatchInfo]) {
        let at = self.start.elapsed();
        lock(&self.state).submitted.push(Submitted {
            value,
            at,
            done: None,
            dispatches: work.iter().map(|d| (d.clone(), None)).collect(),
        });
    }

    /// Submission `value` completed; `spans` are its dispatches' GPU
    /// spans, where timed.
    pub(crate) fn completed(&self, value: u64, spans: &[Option<(u64, u64)>]) {
        let at = self.start.elapsed();
        let mut state = lock(&self.state);
        if let Some(s) = state.submitted.iter_mut().rev().find(|s| s.value == value) {
            s.done = Some(at);
            for ((_, span), t) in s.dispatches.iter_mut().zip(spans) {
                *span = *t;
            }
        }
    }

    /// A copy of `bytes` to device `to` that started at `started`.
    pub(crate) fn host_copy(&self, started: Instant, bytes: u64, to: &str) {
        let at = started.saturating_duration_since(self.start);
        let took = started.elapsed();
        lock(&self.state).copies.push(HostCopy {
            at,
            took,
            bytes,
            to: to.to_owned(),
        });
    }

    /// The trace as JSON.
    pub(crate) fn to_json(&self) -> String {
        let state = lock(&self.state);
        let mut out = Events::default();
        out.meta(1, 0, "process_name", "kiln host");
        out.meta(2, 0, "process_name", &format!("GPU: {}", self.device));
        out.meta(1, 0, "thread_name", "submissions");
        out.meta(2, 1, "thread_name", "queue");
        let mut streams: Vec<u64> = state.enqueued.iter().map(|e| e.stream).collect();
        streams.sort_unstable();
        streams.dedup();
        for s in streams {
            out.meta(1, s, "thread_name", &format!("stream {s}"));
        }
        for e in &state.enqueued {
            let ts = us(e.at);
            match &e.dispatch {
                Some(d) => out.event(&Event {
                    name: &d.label,
                    cat: "dispatch",
                    ph: 'i',
                    ts,
                    dur: None,
                    pid: 1,
                    tid: e.stream,
                    args: &format!(
                        "\"dispatch\":{},\"grid\":[{},{},{}]",
                        d.index, d.grid[0], d.grid[1], d.grid[2]
                    ),
                }),
                None => out.event(&Event {
                    name: e.transfer,
                    cat: "transfer",
                    ph: 'i',
                    ts,
                    dur: None,
                    pid: 1,
                    tid: e.stream,
                    args: &format!("\"bytes\":{}", e.bytes),
                }),
            }
        }
        for c in &state.copies {
            out.event(&Event {
                name: "copy to device",
                cat: "copy",
                ph: 'X',
                ts: us(c.at),
                dur: Some(us(c.took)),
                pid: 1,
                tid: 0,
                args: &format!("\"bytes\":{},\"to\":\"{}\"", c.bytes, escape(&c.to)),
            });
        }
        // The shift from the queue's clock to the host's: the smallest that
        // starts no timed dispatch before its submission.
        let shift = state
            .submitted
            .iter()
            .filter_map(|s| {
                let first = s
                    .dispatches
                    .iter()
                    .filter_map(|(_, t)| *t)
                    .map(|t| t.0)
                    .min()?;
                Some(us(s.at) - first as f64 / 1e3)
            })
            .reduce(f64::max);
        for s in &state.submitted {
            let done = s.done.map_or(us(s.at), us);
            out.event(&Event {
                name: &format!("submission {}", s.value),
                cat: "submit",
                ph: 'X',
                ts: us(s.at),
                dur: Some(done - us(s.at)),
                pid: 1,
                tid: 0,
                args: &format!(
                    "\"value\":{},\"dispatches\":{}",
                    s.value,
                    s.dispatches.len()
                ),
            });
            for (d, span) in &s.dispatches {
                let args = format!(
                    "\"dispatch\":{},\"grid\":[{},{},{}],\"submission\":{}",
                    d.index, d.grid[0], d.grid[1], d.grid[2], s.value
                );
                let (ph, ts, dur) = match (span, shift) {
                    (Some((a, b)), Some(shift)) => {
                        ('X', *a as f64 / 1e3 + shift, Some((b - a) as f64 / 1e3))
                    }
                    _ => ('i', us(s.at), None),
                };
                out.event(&Event {
                    name: &d.label,
                    cat: "gpu",
                    ph,
                    ts,
                    dur,
                    pid: 2,
                    tid: 1,
                    args: &args,
                });
            }
        }
        out.finish()
    }

    /// Writes the trace to its file (atomically).
    pub(crate) fn write(&self) -> std::io::Result<()> {
        crate::cache::write_atomic(&self.path, self.to_json().as_bytes())
    }
}

/// Microseconds (the trace format's unit).
fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// One trace event.
struct Event<'a> {
    name: &'a str,
    cat: &'a str,
    ph: char,
    ts: f64,
    dur: Option<f64>,
    pid: u64,
    tid: u64,
    /// The `args` object's members, as JSON.
    args: &'a str,
}

/// The `traceEvents` array being written.
#[derive(Default)]
struct Events {
    json: String,
    count: usize,
}

impl Events {
    fn push(&mut self, event: &str) {
        self.json
            .push_str(if self.count == 0 { "\n" } else { ",\n" });
        self.json.push_str(event);
        self.count += 1;
    }

    fn meta(&mut self, pid: u64, tid: u64, name: &str, value: &str) {
        self.push(&format!(
            "{{\"name\":\"{name}\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":\"{}\"}}}}",
            escape(value)
        ));
    }

    fn event(&mut self, e: &Event<'_>) {
        let mut s = format!(
            "{{\"name\":\"{}\",\"cat\":\"{}\",\"ph\":\"{}\",\"ts\":{:.3},\"pid\":{},\"tid\":{}",
            escape(e.name),
            e.cat,
            e.ph,
            e.ts,
            e.pid,
            e.tid
        );
        if let Some(dur) = e.dur {
            let _ = write!(s, ",\"dur\":{:.3}", dur.max(0.0));
        }
        if e.ph == 'i' {
            s.push_str(",\"s\":\"t\"");
        }
        let _ = write!(s, ",\"args\":{{{}}}}}", e.args);
        self.push(&s);
    }

    fn finish(self) -> String {
        format!(
            "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{}\n]}}\n",
            self.json
        )
    }
}

/// `s` as the inside of a JSON string.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn later_devices_number_their_traces() {
        let p = PathBuf::from("/tmp/run/t.json");
        assert_eq!(numbered(p.clone(), 0), p);
        assert_eq!(numbered(p, 2), PathBuf::from("/tmp/run/t-3.json"));
        assert_eq!(numbered(PathBuf::from("t"), 1), PathBuf::from("t-2"));
    }

    #[test]
    fn escapes_json_strings() {
        assert_eq!(escape("a\"b\\c\n"), "a\\\"b\\\\c\\u000a");
    }

    #[test]
    fn gpu_times_move_onto_the_host_clock() {
        let t = Tracer::new(PathBuf::from("unused.json"), "dev".into());
        let d = |index| DispatchInfo {
            index,
            label: Arc::from("k"),
            grid: [1, 1, 1],
        };
        t.submitted(1, &[d(0), d(1)]);
        t.completed(
            1,
            &[Some((1_000_000, 1_002_000)), Some((1_002_000, 1_005_000))],
        );
        let json = t.to_json();
        let gpu: Vec<&str> = json
            .lines()
            .filter(|l| l.contains("\"cat\":\"gpu\""))
            .collect();
        assert_eq!(gpu.len(), 2, "{json}");
        // The first dispatch starts when its submission was made; the
        // second 2 µs later, and lasts 3 µs.
        let submit = json
            .lines()
            .find(|l| l.contains("\"cat\":\"submit\""))
            .unwrap();
        let ts = |l: &str| -> f64 {
            let at = l.find("\"ts\":").unwrap() + 5;
            l[at..].split(',').next().unwrap().parse().unwrap()
        };
        assert!((ts(gpu[0]) - ts(submit)).abs() < 1e-3, "{json}");
        assert!((ts(gpu[1]) - ts(gpu[0]) - 2.0).abs() < 1e-3, "{json}");
        assert!(gpu[1].contains("\"dur\":3.000"), "{json}");
    }
}
