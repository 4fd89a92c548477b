//! The per-device cache of compiled ops, and running an op through it.
//!
//! Two layers. Compiled programs are keyed by the op's generated program
//! text (it names the op, every operand's shape class and element type
//! and every parameter), and found on a miss in the disk cache before the
//! compiler runs. In front of them, loaded programs (the compiled program
//! and its kernels, whose pipelines are made once) are keyed by a compact
//! key the op builds without writing any text — the op, its parameters
//! (every size its program is specialized for), its inputs' element types
//! and ranks ([`run_keyed`], [`run_shaped`]). A call whose key is cached
//! writes no text and loads nothing: it enqueues the program. Debug builds
//! check on every hit that the key's program is the one the op would
//! write. The caches live in the device's shared state, so the target env
//! is fixed by the device.
//!
//! The caches keep no [`Program`]: a `Program` holds its [`Device`], and a
//! device that held its own programs would never be dropped (nor save its
//! pipeline cache); a call makes a `Program` of the shared parts.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use kiln_core::codegen::CompiledProgram;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::inner::lock;
use crate::program::Program;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::capture::CapturedRun;

/// Compiled op programs of one device, by program text.
#[derive(Debug, Default)]
pub(crate) struct OpCache {
    programs: Mutex<HashMap<String, Arc<CompiledProgram>>>,
    /// Loaded programs by op key (see [`run_keyed`]).
    loaded: Mutex<HashMap<Key, Arc<Loaded>>>,
    compiled: AtomicU64,
    hits: AtomicU64,
    /// The runs recorded while tracing is on (see [`trace`]).
    trace: Mutex<Option<Vec<OpRun>>>,
    /// The runs recorded while a capture is on (see `capture`).
    pub(crate) capture: Mutex<Option<Vec<CapturedRun>>>,
}

/// One run of an op's program, recorded while tracing is on ([`trace`]):
/// enough to run the same program on the same inputs with another
/// evaluator (kiln-core's reference evaluator) and compare.
#[derive(Clone, Debug)]
pub struct OpRun {
    /// The op (`ops::softmax`).
    pub op: &'static str,
    /// The program's function the op ran (`softmax`).
    pub function: &'static str,
    /// The program's text.
    pub program: String,
    /// The tensors bound to the function's arguments, in order.
    pub inputs: Vec<Tensor>,
    /// The function's results, in order.
    pub outputs: Vec<Tensor>,
}

/// Turns recording of op runs on `device` on or off, and returns the runs
/// recorded since the last call (for checking ops against a reference).
/// Recorded runs keep their tensors alive.
pub fn trace(device: &Device, on: bool) -> Vec<OpRun> {
    let mut trace = lock(&device.inner.ops.trace);
    let runs = trace.take().unwrap_or_default();
    if on {
        *trace = Some(Vec::new());
    }
    runs
}

/// What the op cache of a device did (see [`cache_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCacheStats {
    /// Op programs compiled (a first use of an op, shape, dtype and
    /// parameters).
    pub compiled: u64,
    /// Op calls answered from the cache.
    pub hits: u64,
    /// Programs held.
    pub entries: usize,
}

/// What the op cache of `device` did since it was opened.
pub fn cache_stats(device: &Device) -> OpCacheStats {
    let c = &device.inner.ops;
    OpCacheStats {
        compiled: c.compiled.load(Ordering::Relaxed),
        hits: c.hits.load(Ordering::Relaxed),
        entries: lock(&c.programs).len(),
    }
}

/// Drops the compiled op programs of `device` (a framework that saw many
/// shapes it will not see again); later calls compile again. Returns how
/// many were dropped. The statistics keep counting.
pub fn clear_cache(device: &Device) -> usize {
    lock(&device.inner.ops.loaded).clear();
    let mut programs = lock(&device.inner.ops.programs);
    let n = programs.len();
    programs.clear();
    n
}

/// What identifies an op call's program without its text: the op, its
/// parameters (as the op encodes them: every size the program is
/// specialized for) and each program input's element type and rank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key(&'static str, Vec<u64>);

impl Key {
    fn compact(op: &'static str, params: &[u64], inputs: &[&Tensor]) -> Self {
        let mut words = Vec::with_capacity(params.len() + inputs.len() * 2);
        words.extend_from_slice(params);
        for t in inputs {
            words.push(t.dtype() as u64);
            words.push(t.shape().len() as u64);
        }
        Self(op, words)
    }
}

/// A program loaded for a key: what an op call needs to enqueue it.
#[derive(Debug)]
pub(crate) struct Loaded {
    compiled: Arc<CompiledProgram>,
    kernels: Arc<HashMap<String, crate::kernel::Kernel>>,
    /// The program's text (checked against the key in debug builds, and
    /// what [`trace`] records).
    text: Arc<str>,
}

/// Runs op `op` on `stream` with `inputs`, whose program is specialized
/// for the inputs' exact shapes: [`run_keyed`] with each input's sizes
/// appended to `params` (no text is built on a hit).
pub(crate) fn run_shaped(
    stream: &Stream,
    op: &'static str,
    params: &[u64],
    inputs: &[&Tensor],
    text: impl FnOnce() -> Result<String>,
) -> Result<Vec<Tensor>> {
    let mut key = Vec::with_capacity(params.len() + inputs.len() * 5 + 1);
    key.extend_from_slice(params);
    key.push(inputs.len() as u64);
    for t in inputs {
        key.extend(t.shape().iter().map(|&n| n as u64));
    }
    run_keyed(stream, op, &key, inputs, text)
}

/// Runs op `op` on `stream` with `inputs`: its program is looked up by
/// `op`, `params` and the inputs' element types and ranks (no text is
/// built on a hit); `text` writes it on the first call. `params` must
/// hold everything else the text depends on (the sizes of a program
/// specialized for them); debug builds check on every hit that `text`
/// gives the cached program.
pub(crate) fn run_keyed(
    stream: &Stream,
    op: &'static str,
    params: &[u64],
    inputs: &[&Tensor],
    text: impl FnOnce() -> Result<String>,
) -> Result<Vec<Tensor>> {
    let key = Key::compact(op, params, inputs);
    run_key(stream, op, key, inputs, |_| text())
}

fn run_key(
    stream: &Stream,
    op: &'static str,
    key: Key,
    inputs: &[&Tensor],
    text: impl FnOnce(&Key) -> Result<String>,
) -> Result<Vec<Tensor>> {
    let inner = &stream.inner.device;
    inner.alive()?;
    for t in inputs {
        if !Arc::ptr_eq(&t.storage.device, inner) {
            return Err(Error::ForeignDevice {
                what: "an op's tensor",
            });
        }
    }
    let device = Device::from_inner(Arc::clone(inner));
    let hit = lock(&inner.ops.loaded).get(&key).cloned();
    let loaded = match hit {
        Some(loaded) => {
            inner.ops.hits.fetch_add(1, Ordering::Relaxed);
            if cfg!(debug_assertions) {
                // The key must determine the program.
                let text = text(&key)?;
                if *text != *loaded.text {
                    return Err(Error::Compile {
                        kernel: format!("ops::{op}"),
                        message: format!(
                            "internal: two programs for one cache key {key:?}:\n{}\n{text}",
                            loaded.text
                        ),
                    });
                }
            }
            loaded
        }
        None => {
            let text = text(&key)?;
            let cached = lock(&inner.ops.programs).get(&text).cloned();
            let compiled = match cached {
                Some(c) => {
                    inner.ops.hits.fetch_add(1, Ordering::Relaxed);
                    c
                }
                None => {
                    let (c, compiled) = compile(&device, op, &text)?;
                    let counter = if compiled {
                        &inner.ops.compiled
                    } else {
                        &inner.ops.hits
                    };
                    counter.fetch_add(1, Ordering::Relaxed);
                    lock(&inner.ops.programs).insert(text.clone(), Arc::clone(&c));
                    c
                }
            };
            let program = Program::load(&device, compiled)?;
            let loaded = Arc::new(Loaded {
                compiled: program.compiled_shared(),
                kernels: program.loaded_kernels(),
                text: text.into(),
            });
            lock(&inner.ops.loaded).insert(key, Arc::clone(&loaded));
            loaded
        }
    };
    let program = Program::from_loaded(
        &device,
        Arc::clone(&loaded.compiled),
        Arc::clone(&loaded.kernels),
    );
    let lazy = stream.inner.lazy.get().is_some_and(|q| q.is_on())
        && lock(&inner.ops.capture).is_none()
        && lock(&inner.ops.trace).is_none();
    if lazy {
        let id: Arc<dyn std::any::Any + Send + Sync> = loaded.clone();
        let deferred = super::lazy::append(
            stream,
            op,
            super::elementwise::fname(op),
            program,
            &loaded.text,
            id,
            inputs,
        )?;
        if let Some(outputs) = deferred {
            return Ok(outputs);
        }
        let program = Program::from_loaded(
            &device,
            Arc::clone(&loaded.compiled),
            Arc::clone(&loaded.kernels),
        );
        return enqueue(stream, op, &program, &loaded, inputs);
    }
    enqueue(stream, op, &program, &loaded, inputs)
}

/// Enqueues `loaded`'s program (`program`) for op `op` with `inputs` on
/// `stream` (eagerly), recording the call for a capture or trace.
fn enqueue(
    stream: &Stream,
    op: &'static str,
    program: &Program,
    loaded: &Loaded,
    inputs: &[&Tensor],
) -> Result<Vec<Tensor>> {
    let inner = &stream.inner.device;
    let args = inputs
        .iter()
        .map(|&t| bindable(stream, t))
        .collect::<Result<Vec<Tensor>>>()?;
    let function = super::elementwise::fname(op);
    let outputs = program.enqueue_checked(stream, function, &args, || op.to_owned())?;
    if let Some(runs) = lock(&inner.ops.capture).as_mut() {
        runs.push(CapturedRun {
            op,
            program: Arc::clone(&loaded.text),
            operands: inputs.iter().map(|&t| t.clone()).collect(),
            outputs: outputs.clone(),
        });
    }
    if let Some(runs) = lock(&inner.ops.trace).as_mut() {
        runs.push(OpRun {
            op,
            function,
            program: loaded.text.to_string(),
            inputs: args,
            outputs: outputs.clone(),
        });
    }
    Ok(outputs)
}

/// `t` as a kernel can bind it: itself when contiguous from the start of
/// its buffer, else a contiguous copy enqueued on `stream` (a view's
/// offset need not meet the device's buffer-offset alignment).
fn bindable(stream: &Stream, t: &Tensor) -> Result<Tensor> {
    if t.is_contiguous() && t.offset() == 0 {
        return Ok(t.clone());
    }
    let copy = Tensor::empty(&t.device(), t.dtype(), t.shape())?;
    stream.copy(t, &copy)?;
    Ok(copy)
}

/// Parses and compiles an op's program for `device`, through the
/// device's program caches (memory, then disk: a new process finds the op
/// programs an earlier one compiled); also whether the compiler ran.
fn compile(device: &Device, op: &'static str, text: &str) -> Result<(Arc<CompiledProgram>, bool)> {
    let err = |message: String| Error::Compile {
        kernel: format!("ops::{op}"),
        message,
    };
    let module = kiln_core::tensor::load(text).map_err(|e| err(e.to_string()))?;
    let target = crate::target::device_target(device);
    crate::program::cached::compiled_program_from(device, &module, &target, false).map_err(|e| {
        match e {
            Error::Compile { message, .. } => err(message),
            other => other,
        }
    })
}
