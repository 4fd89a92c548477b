//! The per-device cache of compiled ops, and running an op through it.
//!
//! The key is the op's generated program text: it names the op, every
//! operand's shape and element type and every parameter (strides, axes,
//! epsilon as its bits), so two calls share a program exactly when they
//! would generate the same one. The cache lives in the device's shared
//! state, so the target env is fixed by the device.
//!
//! The cache keeps the [`CompiledProgram`], not a loaded
//! [`Program`]: a `Program` holds its [`Device`], and a device that held
//! its own programs would never be dropped (nor save its pipeline cache).
//! Loading a cached program again shares it (an `Arc`) and costs one
//! memory-cache hit per kernel; the pipelines are made once.

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

/// Compiled op programs of one device, by program text.
#[derive(Debug, Default)]
pub(crate) struct OpCache {
    programs: Mutex<HashMap<String, Arc<CompiledProgram>>>,
    compiled: AtomicU64,
    hits: AtomicU64,
    /// The runs recorded while tracing is on (see [`trace`]).
    trace: Mutex<Option<Vec<OpRun>>>,
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
    let mut programs = lock(&device.inner.ops.programs);
    let n = programs.len();
    programs.clear();
    n
}

/// Runs function `@op` of program `text` (compiled on first use, cached by
/// its text) on `stream` with `inputs` and returns its results.
pub(crate) fn run(
    stream: &Stream,
    op: &'static str,
    text: String,
    inputs: &[&Tensor],
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
    let cached = lock(&inner.ops.programs).get(&text).cloned();
    let compiled = match cached {
        Some(c) => {
            inner.ops.hits.fetch_add(1, Ordering::Relaxed);
            c
        }
        None => {
            let c = Arc::new(compile(&device, op, &text)?);
            inner.ops.compiled.fetch_add(1, Ordering::Relaxed);
            lock(&inner.ops.programs).insert(text.clone(), Arc::clone(&c));
            c
        }
    };
    let program = Program::load(&device, Arc::clone(&compiled))?;
    let args = inputs
        .iter()
        .map(|&t| bindable(stream, t))
        .collect::<Result<Vec<Tensor>>>()?;
    let function = super::elementwise::fname(op);
    let outputs = program.enqueue(stream, function, &args)?;
    if let Some(runs) = lock(&inner.ops.trace).as_mut() {
        runs.push(OpRun {
            op,
            function,
            program: text,
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

/// Parses and compiles an op's program for `device`.
fn compile(device: &Device, op: &'static str, text: &str) -> Result<CompiledProgram> {
    let err = |message: String| Error::Compile {
        kernel: format!("ops::{op}"),
        message,
    };
    let module = kiln_core::tensor::load(text).map_err(|e| err(e.to_string()))?;
    let target = crate::e2e::device_target(device);
    kiln_core::codegen::compile(&module, &target).map_err(|e| err(e.to_string()))
}
