//! Tensor programs on a device: a [`CompiledProgram`] (kiln-core's tensor
//! compiler) loaded as a [`Program`] — its kernels' pipelines made once,
//! constants uploaded once per function — and run function by function.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use kiln_core::tensor::eval::{Tensor, Value};
//! use kiln_runtime::{Device, DeviceOptions, Program};
//! let src = r#"
//! func.func @scale(%x: tensor<?xf32>) -> tensor<?xf32> {
//!   %y = arith.mulf %x, %x : tensor<?xf32>
//!   return %y : tensor<?xf32>
//! }"#;
//! let device = Device::new(&DeviceOptions::default())?;
//! let module = kiln_core::tensor::load(src)?;
//! let program = Program::compile(&device, &module)?; // once, for any size
//! for n in [3, 1000] {
//!     let x = Tensor::zeros(kiln_core::tensor::ElemType::F32, &[n]).unwrap();
//!     let out = program.run("scale", &[Value::Tensor(x.into())])?;
//!     assert_eq!(out[0].tensor().unwrap().shape, vec![n]);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`Program::run`] evaluates the function's host program for the run's
//! sizes (failing, before any device work, with the message of the first
//! check that does not hold: a dynamic size that does not fit), allocates
//! the buffers (an error names `maxStorageBufferRange` when one is larger),
//! records every dispatch of the function into one [`Stream`] (barriers
//! from each binding's reflected access; the stream submits in batches,
//! never waiting between dispatches), and reads the results back. This is
//! kiln-core's executor ([`kiln_core::codegen::executor`]), shared with the
//! CPU runner, with the device as its `KernelExecutor`: a size the program reads
//! from tensor data it computes waits for the work before it (the stream
//! is synced, the element read back: a host sync point); one read from an
//! argument given on the host or a constant is read from that data.

pub(crate) mod cached;
mod call;
mod late;
mod load;
pub(crate) mod record;
mod run;
mod shapes;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kiln_core::codegen::executor::RunLimits;
use kiln_core::codegen::{CodegenTarget, CompiledFunction, CompiledProgram, ResultRef};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::Value;
use kiln_core::tensor::types::ElemType;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernel::Kernel;
use crate::stream::Stream;
use crate::tensor::Tensor;

/// A compiled tensor program loaded on a device.
pub struct Program {
    device: Device,
    compiled: Arc<CompiledProgram>,
    kernels: Arc<HashMap<String, Kernel>>,
    /// The `_chunked` variants made at their first launch, by name
    /// (`late.rs`).
    late: Mutex<HashMap<String, Kernel>>,
    /// Constant buffers, uploaded on a function's first run: by
    /// (function, buffer).
    constants: Mutex<HashMap<(usize, usize), Tensor>>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("functions", &self.compiled.functions.len())
            .field("kernels", &self.kernels.len())
            .finish_non_exhaustive()
    }
}

pub use call::{CallArg, RecordedCall};
pub use kiln_core::codegen::exec::{bytes_to_elements, element_bytes, elements_to_bytes};

fn program_error(function: &str, message: impl Into<String>) -> Error {
    Error::Program {
        function: function.to_owned(),
        message: message.into(),
    }
}

impl Program {
    /// Compiles every function of tensor program `module` (verified) for
    /// `device` ([`device_target`](crate::target::device_target): its env and
    /// its driver's facts) and loads it.
    ///
    /// The compiled program is cached in layers: in memory per device
    /// (compiling the same program again is a lookup), and on disk as
    /// `programs/<hash>.kprog` in the cache directory (see
    /// [`crate::cache`]), so a new process skips the tensor compiler. Both
    /// are keyed by the program's printed text, kiln-core's source hash and
    /// the codegen target; a corrupt or foreign file is ignored with a
    /// warning and the program compiled again.
    pub fn compile(device: &Device, module: &kiln_core::tensor::TensorModule) -> Result<Program> {
        let target = crate::target::device_target(device);
        Program::compile_for(device, module, &target)
    }

    /// [`Program::compile`] for `target` (no more than the device offers;
    /// e.g. the device's env bounded by a module's declared one).
    pub fn compile_for(
        device: &Device,
        module: &kiln_core::tensor::TensorModule,
        target: &CodegenTarget,
    ) -> Result<Program> {
        Program::load(device, Program::compiled_for(device, module, target)?)
    }

    /// The first half of [`Program::compile_for`]: `module` compiled for
    /// `target`, from the device's memory, else the disk cache, else the
    /// tensor compiler (then stored in both). No pipeline is made:
    /// [`Program::load`] does that.
    pub fn compiled_for(
        device: &Device,
        module: &kiln_core::tensor::TensorModule,
        target: &CodegenTarget,
    ) -> Result<Arc<CompiledProgram>> {
        cached::compiled_program(device, module, target)
    }

    /// Loads `compiled` on `device`: every kernel's pipeline is made now,
    /// on up to `available_parallelism` threads (the error of a failure is
    /// that of the first failing kernel in program order), except those
    /// of the `_chunked` variants, which run only past the storage range
    /// and are made (lowered first, where their compile deferred them) at
    /// their first launch
    /// ([`CompiledKernel::runs_only_past_the_storage_range`](kiln_core::codegen::CompiledKernel::runs_only_past_the_storage_range)).
    /// Refuses a program whose kernels need what the device lacks.
    pub fn load(device: &Device, compiled: impl Into<Arc<CompiledProgram>>) -> Result<Program> {
        let compiled: Arc<CompiledProgram> = compiled.into();
        let needs = compiled.needs();
        let wanted = kiln_core::target::TargetEnv::new(needs);
        crate::runner::check_supported(&wanted, device.target_env()).map_err(|missing| {
            program_error(
                compiled.functions.first().map_or("", |f| f.name.as_str()),
                format!("the device cannot run the compiled kernels: missing {missing}"),
            )
        })?;
        let sources: Vec<(&str, &[u32])> = compiled
            .functions
            .iter()
            .flat_map(|f| &f.dispatches)
            .flat_map(|d| &d.kernels)
            .filter(|k| !k.runs_only_past_the_storage_range())
            .map(|k| (k.name.as_str(), k.words.as_slice()))
            .collect();
        let kernels = Arc::new(load::load_kernels(device, &sources)?);
        Ok(Self::from_loaded(device, compiled, kernels))
    }

    /// A program of `compiled` whose kernels `kernels` were loaded on
    /// `device` by [`load`](Self::load) (see [`loaded_kernels`](Self::loaded_kernels)):
    /// no checks, no lookups.
    pub(crate) fn from_loaded(
        device: &Device,
        compiled: Arc<CompiledProgram>,
        kernels: Arc<HashMap<String, Kernel>>,
    ) -> Program {
        Program {
            device: device.clone(),
            compiled,
            kernels,
            late: Mutex::new(HashMap::new()),
            constants: Mutex::new(HashMap::new()),
        }
    }

    /// The loaded kernels, by name (shared).
    pub(crate) fn loaded_kernels(&self) -> Arc<HashMap<String, Kernel>> {
        Arc::clone(&self.kernels)
    }

    /// The compiled program (shared).
    pub(crate) fn compiled_shared(&self) -> Arc<CompiledProgram> {
        Arc::clone(&self.compiled)
    }

    /// The compiled program.
    pub fn compiled(&self) -> &CompiledProgram {
        &self.compiled
    }

    /// Runs function `name` with `args` (host tensors and scalars) and
    /// returns its results on the host.
    pub fn run(&self, name: &str, args: &[Value]) -> Result<Vec<Value>> {
        let (fi, f) = self.function(name)?;
        self.run_function(fi, f, args)
    }

    /// Runs function `name` on tensors already on the device (its scalar
    /// arguments, if any, cannot be given this way) and returns its
    /// results as device tensors of the results' dtypes and shapes, once
    /// every dispatch, recorded on `stream`, completed. Nothing is read
    /// back: this is what `kiln bench` times, as `iree-benchmark-module`
    /// times a call.
    pub fn run_on_device(
        &self,
        stream: &Stream,
        name: &str,
        args: &[Tensor],
    ) -> Result<Vec<Tensor>> {
        let (f, out, fault) = self.enqueue_with_fault(stream, name, args)?;
        stream.sync()?;
        if let Some(t) = fault {
            let mut read = |_| -> Result<Vec<u8>> {
                let words = t.to_vec::<u32>()?;
                Ok(bytemuck::cast_slice(&words).to_vec())
            };
            if let Some(fault) = f.fault(&mut read)? {
                return Err(program_error(&f.name, fault));
            }
        }
        Ok(out)
    }

    /// [`run_on_device`](Self::run_on_device) without waiting: the
    /// dispatches are enqueued on `stream` (submitted as its batching
    /// decides) and the result tensors returned at once. Reading a result
    /// waits for the work that writes it; a failure of that work is
    /// reported by [`Stream::sync`] (or the read).
    /// An index out of bounds that a kernel found at run time (see
    /// [`FaultSite`](kiln_core::codegen::program::FaultSite)) is reported
    /// as [`Error::Index`] by the next [`Stream::sync`] and by every read
    /// of the tensors `enqueue` returns (and of the results of ops that
    /// read them), which read the fault word once the work completed.
    pub fn enqueue(&self, stream: &Stream, name: &str, args: &[Tensor]) -> Result<Vec<Tensor>> {
        self.enqueue_checked(stream, name, args, || format!("function @{name}"))
    }

    /// [`enqueue`](Self::enqueue), naming the caller `what()` in the error
    /// of an index a kernel finds out of range: the results inherit the
    /// index checks of `args` and gain the call's own (see `fault`).
    pub(crate) fn enqueue_checked(
        &self,
        stream: &Stream,
        name: &str,
        args: &[Tensor],
        what: impl FnOnce() -> String,
    ) -> Result<Vec<Tensor>> {
        let mut checks = crate::fault::inherited(args.iter().map(|t| &*t.storage));
        let (f, out, fault) = self.enqueue_with_fault(stream, name, args)?;
        if let Some(word) = fault {
            let fi = self
                .compiled
                .functions
                .iter()
                .position(|g| std::ptr::eq(g, f))
                .unwrap_or_default();
            let check = crate::fault::FaultCheck::new(what(), Arc::clone(&self.compiled), fi, word);
            stream.note_fault(&check);
            checks.push(check);
        }
        crate::fault::attach(&out, &checks);
        Ok(out)
    }

    /// [`enqueue`](Self::enqueue), also returning the function and its
    /// fault word's tensor (where its kernels check run-time indices), to
    /// be read once the work completed.
    fn enqueue_with_fault(
        &self,
        stream: &Stream,
        name: &str,
        args: &[Tensor],
    ) -> Result<(&CompiledFunction, Vec<Tensor>, Option<Tensor>)> {
        let (fi, f) = self.function(name)?;
        let args: Vec<Arg<'_>> = args.iter().map(Arg::Device).collect();
        let (tensors, vals) =
            self.dispatch_function(run::Sink::Stream(stream), fi, f, &args, true)?;
        let out = Self::device_results(f, &tensors, &vals)?;
        let fault = f.fault_buffer().map(|b| tensors[b].clone());
        Ok((f, out, fault))
    }

    /// The results of a run of `f` whose buffers are `tensors` and host
    /// values `vals`, as device tensors of their dtypes and shapes.
    fn device_results(
        f: &CompiledFunction,
        tensors: &[Tensor],
        vals: &kiln_core::codegen::host::HostValues,
    ) -> Result<Vec<Tensor>> {
        let mut out = Vec::with_capacity(f.results.len());
        for r in &f.results {
            match r {
                ResultRef::Host { .. } => {
                    return Err(program_error(
                        &f.name,
                        "a result computed on the host has no device tensor",
                    ))
                }
                ResultRef::Buffer {
                    buffer,
                    shape,
                    elem,
                    ..
                } => {
                    let dims: Vec<usize> = shape.iter().map(|&s| vals.size(s) as usize).collect();
                    let t = &tensors[*buffer];
                    if Some(t.dtype()) != dtype_of(*elem) {
                        return Err(program_error(
                            &f.name,
                            format!("a {elem} result has no device dtype"),
                        ));
                    }
                    let n: usize = dims.iter().product();
                    // An argument's buffer (a result that is an input,
                    // reshaped) keeps the argument's shape: flatten first.
                    let flat = t.reshape(&[t.numel()])?;
                    out.push(flat.narrow(0, 0, n)?.reshape(&dims)?);
                }
            }
        }
        Ok(out)
    }

    fn function(&self, name: &str) -> Result<(usize, &CompiledFunction)> {
        self.compiled
            .functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
            .ok_or_else(|| program_error(name, "no such function in the program"))
    }

    /// Runs function `name` with each argument either a host value or a
    /// tensor already on the device (weights uploaded once with
    /// [`upload_value`](Self::upload_value)), and returns its results on
    /// the host, as [`run`](Self::run) does.
    pub fn run_args(&self, name: &str, args: &[RunArg<'_>]) -> Result<Vec<Value>> {
        let (fi, f) = self.function(name)?;
        let args: Vec<Arg<'_>> = args
            .iter()
            .map(|a| match *a {
                RunArg::Host(v) => Arg::Host(v),
                RunArg::Device(t) => Arg::Device(t),
            })
            .collect();
        self.run_function_args(fi, f, &args)
    }

    /// Host tensor `value` as a device tensor of its dtype and shape that
    /// [`run_args`](Self::run_args) takes as a [`RunArg::Device`]; `None`
    /// for a scalar, or an element type whose device bytes are not the
    /// host's (f64, i1): give those as [`RunArg::Host`].
    pub fn upload_value(&self, value: &Value) -> Result<Option<Tensor>> {
        let Value::Tensor(t) = value else {
            return Ok(None);
        };
        let Some(dtype) = dtype_of(t.elem) else {
            return Ok(None);
        };
        let n: usize = t.shape.iter().product();
        if t.elem == ElemType::Int(1) || elements_to_bytes(&t.data, n).len() != n * dtype.size() {
            return Ok(None);
        }
        let words = self.upload(&t.data, n, t.elem)?;
        Ok(Some(words.reinterpret(dtype, &t.shape)))
    }

    fn run_function(&self, fi: usize, f: &CompiledFunction, args: &[Value]) -> Result<Vec<Value>> {
        let args: Vec<Arg<'_>> = args.iter().map(Arg::Host).collect();
        self.run_function_args(fi, f, &args)
    }

    fn run_function_args(
        &self,
        fi: usize,
        f: &CompiledFunction,
        args: &[Arg<'_>],
    ) -> Result<Vec<Value>> {
        let stream = self.device.stream();
        let (tensors, vals) =
            self.dispatch_function(run::Sink::Stream(&stream), fi, f, args, false)?;
        stream.sync()?;
        let mut read = |buffer: usize| -> Result<Vec<u8>> {
            let words = tensors[buffer].to_vec::<u32>()?;
            Ok(bytemuck::cast_slice(&words).to_vec())
        };
        if let Some(fault) = f.fault(&mut read)? {
            return Err(program_error(&f.name, fault));
        }
        f.result_values(&vals, &mut |buffer| {
            let words = tensors[buffer].to_vec::<u32>()?;
            Ok(bytemuck::cast_slice(&words).to_vec())
        })
    }

    /// Checks `args`, evaluates the host program, allocates the buffers
    /// and records every dispatch of function `f` on `stream`; returns
    /// the buffers and the host values. With `typed`, the buffers kiln
    /// allocates have their elements' dtype (so results can be returned as
    /// device tensors); else they are 32-bit words.
    fn dispatch_function(
        &self,
        sink: run::Sink<'_>,
        fi: usize,
        f: &CompiledFunction,
        args: &[Arg<'_>],
        typed: bool,
    ) -> Result<(Vec<Tensor>, kiln_core::codegen::host::HostValues)> {
        let name = f.name.as_str();
        check_args(f, args)?;
        // Host values for this run's sizes.
        let arg_dim = |i: usize, d: usize| -> Option<u64> {
            args.get(i)?.shape_and_elem()?.0.get(d).map(|&n| n as u64)
        };
        let argument = |i: usize| match args.get(i)? {
            Arg::Host(v) => v.scalar(),
            Arg::Device(_) => None,
        };
        let limits = self.run_limits();
        let mut run = run::DeviceRun {
            program: self,
            sink,
            fi,
            f,
            args,
            typed,
            tensors: vec![None; f.buffers.len()],
        };
        let vals = f.execute(&mut run, &arg_dim, &argument, limits)?;
        let tensors = run
            .tensors
            .into_iter()
            .collect::<Option<Vec<Tensor>>>()
            .ok_or_else(|| program_error(name, "internal: a buffer was not made"))?;
        Ok((tensors, vals))
    }

    /// The limits a run's buffers and launches must fit on the device.
    fn run_limits(&self) -> RunLimits {
        let limits = self.device.limits();
        RunLimits {
            max_buffer_bytes: u64::from(limits.max_storage_buffer_range),
            max_workgroups: limits.max_compute_work_group_count,
        }
    }

    /// A device buffer holding `n` elements of `data`.
    fn upload(&self, data: &Elements, n: usize, elem: ElemType) -> Result<Tensor> {
        let mut bytes = elements_to_bytes(data, n);
        bytes.resize(bytes.len().div_ceil(4).max(1) * 4, 0);
        let _ = elem;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Tensor::from_slice(&self.device, &words, &[words.len()])
    }

    /// The buffer of constant buffer `b` of function `fi`, uploaded on
    /// first use.
    fn constant(&self, fi: usize, f: &CompiledFunction, b: usize, n: usize) -> Result<Tensor> {
        let mut cache = self.constants.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = cache.get(&(fi, b)) {
            return Ok(t.clone());
        }
        let c = f
            .constants
            .iter()
            .find(|c| c.buffer == b)
            .ok_or_else(|| program_error(&f.name, "a constant without data"))?;
        let t = self.upload(&c.data, n, c.elem)?;
        cache.insert((fi, b), t.clone());
        Ok(t)
    }
}

/// An error unless `args` fit `f`'s parameters (count, element types,
/// ranks and static sizes).
fn check_args(f: &CompiledFunction, args: &[Arg<'_>]) -> Result<()> {
    let name = f.name.as_str();
    if args.len() != f.params.len() {
        return Err(program_error(
            name,
            format!("takes {} arguments, got {}", f.params.len(), args.len()),
        ));
    }
    for (i, (a, p)) in args.iter().zip(&f.params).enumerate() {
        if let (Some((t_shape, t_elem)), Some(shape)) = (a.shape_and_elem(), &p.shape) {
            let fits = t_elem == Some(p.elem)
                && t_shape.len() == shape.len()
                && t_shape
                    .iter()
                    .zip(shape)
                    .all(|(&n, d)| d.is_none_or(|d| d as usize == n));
            if !fits {
                return Err(program_error(
                    name,
                    format!(
                        "argument {i}: a {:?}x{} tensor does not fit {}",
                        t_shape,
                        t_elem.map_or_else(|| a.elem_name(), |e| e.to_string()),
                        param_text(p)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// An argument of [`Program::run_args`]: a host value, uploaded for the
/// run, or a tensor already on the device.
#[derive(Clone, Copy, Debug)]
pub enum RunArg<'a> {
    /// A host tensor or scalar.
    Host(&'a Value),
    /// A device tensor of the parameter's dtype and shape.
    Device(&'a Tensor),
}

/// An argument of a run: a host value or a tensor on the device.
#[derive(Clone, Copy)]
pub(crate) enum Arg<'a> {
    Host(&'a Value),
    Device(&'a Tensor),
}

impl Arg<'_> {
    /// A tensor argument's shape and element type (`None` for an element
    /// type kiln's tensors do not have).
    fn shape_and_elem(&self) -> Option<(Vec<usize>, Option<ElemType>)> {
        match self {
            Arg::Host(Value::Tensor(t)) => Some((t.shape.clone(), Some(t.elem))),
            Arg::Host(Value::Scalar(_)) => None,
            Arg::Device(t) => Some((t.shape().to_vec(), elem_of(t.dtype()))),
        }
    }

    fn elem_name(&self) -> String {
        match self {
            Arg::Device(t) => t.dtype().name().to_owned(),
            Arg::Host(_) => "scalar".to_owned(),
        }
    }
}

/// The device dtype of tensor element type `elem`, if it has one.
pub fn dtype_of(elem: ElemType) -> Option<DType> {
    Some(match elem {
        ElemType::F32 => DType::F32,
        ElemType::F16 => DType::F16,
        ElemType::BF16 => DType::BF16,
        ElemType::Int(1) => DType::Bool,
        ElemType::Int(8) => DType::I8,
        ElemType::Int(16) => DType::I16,
        ElemType::Int(32) => DType::I32,
        ElemType::Int(64) | ElemType::Index => DType::I64,
        _ => return None,
    })
}

/// The tensor element type of device dtype `dtype` (unsigned types have
/// none: tensor integers are signless, `ui32` is not one of them).
fn elem_of(dtype: DType) -> Option<ElemType> {
    [
        ElemType::F32,
        ElemType::F16,
        ElemType::BF16,
        ElemType::Int(1),
        ElemType::Int(8),
        ElemType::Int(16),
        ElemType::Int(32),
        ElemType::Int(64),
    ]
    .into_iter()
    .find(|&e| dtype_of(e) == Some(dtype))
}

fn param_text(p: &kiln_core::codegen::Param) -> String {
    match &p.shape {
        None => p.elem.to_string(),
        Some(s) => format!(
            "tensor<{}{}>",
            s.iter()
                .map(|d| d.map_or("?x".to_string(), |n| format!("{n}x")))
                .collect::<String>(),
            p.elem
        ),
    }
}
