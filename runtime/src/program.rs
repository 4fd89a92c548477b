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
//! never waiting between dispatches), and reads the results back.

mod cached;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kiln_core::codegen::host::SourceRef;
use kiln_core::codegen::kernels::{PushValue, Repeat};
use kiln_core::codegen::{CodegenTarget, CompiledFunction, CompiledProgram, ResultRef};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Scalar, Tensor as HostTensor, Value};
use kiln_core::tensor::types::ElemType;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernel::{Kernel, KernelSource};
use crate::stream::Stream;
use crate::tensor::Tensor;

/// A compiled tensor program loaded on a device.
pub struct Program {
    device: Device,
    compiled: Arc<CompiledProgram>,
    kernels: HashMap<String, Kernel>,
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

/// Bytes per element of `elem` in device memory.
pub fn element_bytes(elem: ElemType) -> usize {
    match elem {
        ElemType::Int(1) | ElemType::Int(8) => 1,
        ElemType::Int(16) | ElemType::F16 | ElemType::BF16 => 2,
        ElemType::Int(64) | ElemType::F64 | ElemType::Index => 8,
        _ => 4,
    }
}

/// The little-endian bytes of `n` elements of `data` (a splat's one
/// element repeated).
pub fn elements_to_bytes(data: &Elements, n: usize) -> Vec<u8> {
    fn pod<T: bytemuck::Pod>(v: &[T], n: usize) -> Vec<u8> {
        if v.len() == n {
            bytemuck::cast_slice(v).to_vec()
        } else {
            let one: &[u8] = bytemuck::cast_slice(&v[..1.min(v.len())]);
            one.repeat(n)
        }
    }
    match data {
        Elements::I1(v) => {
            let bytes: Vec<u8> = v.iter().map(|&b| u8::from(b)).collect();
            pod(&bytes, n)
        }
        Elements::I8(v) => pod(v, n),
        Elements::I16(v) => pod(v, n),
        Elements::I32(v) => pod(v, n),
        Elements::I64(v) => pod(v, n),
        Elements::F16(v) | Elements::BF16(v) => pod(v, n),
        Elements::F32(v) => pod(v, n),
        Elements::F64(v) => pod(v, n),
    }
}

/// `n` elements of `elem` from little-endian `bytes`.
pub fn bytes_to_elements(elem: ElemType, bytes: &[u8], n: usize) -> Elements {
    fn pod<T: bytemuck::Pod>(bytes: &[u8], n: usize) -> Vec<T> {
        let size = std::mem::size_of::<T>();
        let mut out = vec![T::zeroed(); n];
        bytemuck::cast_slice_mut::<T, u8>(&mut out).copy_from_slice(&bytes[..n * size]);
        out
    }
    match elem {
        ElemType::Int(1) => Elements::I1(bytes[..n].iter().map(|&b| b != 0).collect()),
        ElemType::Int(8) => Elements::I8(pod(bytes, n)),
        ElemType::Int(16) => Elements::I16(pod(bytes, n)),
        ElemType::Int(64) | ElemType::Index => Elements::I64(pod(bytes, n)),
        ElemType::F16 => Elements::F16(pod(bytes, n)),
        ElemType::BF16 => Elements::BF16(pod(bytes, n)),
        ElemType::F64 => Elements::F64(pod(bytes, n)),
        ElemType::F32 => Elements::F32(pod(bytes, n)),
        _ => Elements::I32(pod(bytes, n)),
    }
}

fn program_error(function: &str, message: impl Into<String>) -> Error {
    Error::Program {
        function: function.to_owned(),
        message: message.into(),
    }
}

impl Program {
    /// Compiles every function of tensor program `module` (verified) for
    /// `device` ([`device_target`](crate::e2e::device_target): its env and
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
        let target = crate::e2e::device_target(device);
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

    /// Loads `compiled` on `device`: every kernel's pipeline is made now.
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
        let mut kernels = HashMap::new();
        for k in compiled
            .functions
            .iter()
            .flat_map(|f| &f.dispatches)
            .flat_map(|d| &d.kernels)
        {
            let kernel = device.load_kernel(KernelSource::spirv(&k.words, &k.name))?;
            kernels.insert(k.name.clone(), kernel);
        }
        Ok(Program {
            device: device.clone(),
            compiled,
            kernels,
            constants: Mutex::new(HashMap::new()),
        })
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
        let out = self.enqueue(stream, name, args)?;
        stream.sync()?;
        Ok(out)
    }

    /// [`run_on_device`](Self::run_on_device) without waiting: the
    /// dispatches are enqueued on `stream` (submitted as its batching
    /// decides) and the result tensors returned at once. Reading a result
    /// waits for the work that writes it; a failure of that work is
    /// reported by [`Stream::sync`] (or the read).
    pub fn enqueue(&self, stream: &Stream, name: &str, args: &[Tensor]) -> Result<Vec<Tensor>> {
        let (fi, f) = self.function(name)?;
        let args: Vec<Arg<'_>> = args.iter().map(Arg::Device).collect();
        let (tensors, vals) = self.dispatch_function(stream, fi, f, &args, true)?;
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
                    out.push(t.narrow(0, 0, n)?.reshape(&dims)?);
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

    fn run_function(&self, fi: usize, f: &CompiledFunction, args: &[Value]) -> Result<Vec<Value>> {
        let args: Vec<Arg<'_>> = args.iter().map(Arg::Host).collect();
        let stream = self.device.stream();
        let (tensors, vals) = self.dispatch_function(&stream, fi, f, &args, false)?;
        stream.sync()?;
        // Results.
        let mut out = Vec::with_capacity(f.results.len());
        for r in &f.results {
            out.push(match r {
                ResultRef::Host { value, .. } => Value::Scalar(vals.value(*value)),
                ResultRef::Buffer {
                    buffer,
                    shape,
                    elem,
                    scalar,
                } => {
                    let dims: Vec<usize> = shape.iter().map(|&s| vals.size(s) as usize).collect();
                    let n: usize = dims.iter().product();
                    let words = tensors[*buffer].to_vec::<u32>()?;
                    let bytes: &[u8] = bytemuck::cast_slice(&words);
                    let data = bytes_to_elements(*elem, bytes, n);
                    let t = HostTensor {
                        elem: *elem,
                        shape: dims,
                        data,
                    };
                    if *scalar {
                        Value::Scalar(t.get(0))
                    } else {
                        Value::Tensor(std::rc::Rc::new(t))
                    }
                }
            });
        }
        Ok(out)
    }

    /// Checks `args`, evaluates the host program, allocates the buffers
    /// and records every dispatch of function `f` on `stream`; returns
    /// the buffers and the host values. With `typed`, the buffers kiln
    /// allocates have their elements' dtype (so results can be returned as
    /// device tensors); else they are 32-bit words.
    fn dispatch_function(
        &self,
        stream: &Stream,
        fi: usize,
        f: &CompiledFunction,
        args: &[Arg<'_>],
        typed: bool,
    ) -> Result<(Vec<Tensor>, kiln_core::codegen::host::HostValues)> {
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
        // Host values for this run's sizes.
        let const_shapes: HashMap<usize, Vec<u64>> = f
            .constants
            .iter()
            .map(|c| (c.buffer, c.shape.clone()))
            .collect();
        let source_dim = |s: SourceRef, d: usize| -> Option<u64> {
            match s {
                SourceRef::Argument(i) => {
                    args.get(i)?.shape_and_elem()?.0.get(d).map(|&n| n as u64)
                }
                SourceRef::Constant(v) => {
                    // The constant's buffer: the one whose constant data
                    // belongs to that value.
                    let b = f.constant_buffer_of(v)?;
                    const_shapes.get(&b)?.get(d).copied()
                }
            }
        };
        let argument = |i: usize| match args.get(i)? {
            Arg::Host(v) => v.scalar(),
            Arg::Device(_) => None,
        };
        let vals = f
            .host
            .evaluate(&source_dim, &argument)
            .map_err(|m| program_error(name, m))?;
        // Buffers.
        let limit = u64::from(self.device.limits().max_storage_buffer_range);
        let mut tensors: Vec<Option<Tensor>> = vec![None; f.buffers.len()];
        let mut counts = Vec::with_capacity(f.buffers.len());
        for (i, b) in f.buffers.iter().enumerate() {
            let n: u64 = b
                .shape
                .iter()
                .map(|&s| vals.size(s))
                .try_fold(1u64, |acc, x| acc.checked_mul(x))
                .ok_or_else(|| program_error(name, "a buffer size overflows"))?;
            let bytes = n * element_bytes(b.elem) as u64;
            if bytes > limit {
                return Err(program_error(
                    name,
                    format!(
                        "buffer {i} ({n} x {}) needs {bytes} bytes, more than the device's maxStorageBufferRange of {limit} bytes",
                        b.elem
                    ),
                ));
            }
            if n > i32::MAX as u64 {
                return Err(program_error(
                    name,
                    format!("buffer {i} has {n} elements; kernels index with 32-bit integers"),
                ));
            }
            counts.push(n as usize);
        }
        // Arguments and constants.
        for (i, b) in f.buffers.iter().enumerate() {
            use kiln_core::codegen::bufferize::BufferOrigin;
            match b.origin {
                BufferOrigin::Argument(a) => {
                    tensors[i] = Some(match args.get(a) {
                        Some(Arg::Host(Value::Tensor(t))) => {
                            self.upload(&t.data, counts[i], b.elem)?
                        }
                        Some(Arg::Device(t)) => t.contiguous()?,
                        _ => {
                            return Err(program_error(
                                name,
                                format!("argument {a} must be a tensor"),
                            ))
                        }
                    });
                }
                BufferOrigin::Constant(_) => {
                    tensors[i] = Some(self.constant(fi, f, i, counts[i])?);
                }
                _ => {}
            }
        }
        for (i, b) in f.buffers.iter().enumerate() {
            if tensors[i].is_none() {
                let bytes = counts[i] * element_bytes(b.elem);
                tensors[i] = Some(match dtype_of(b.elem) {
                    // Whole 32-bit words (kernels store 1- and 2-byte
                    // elements as parts of words); results are narrowed.
                    Some(dtype) if typed && bytes > 0 => {
                        let n = bytes.div_ceil(4) * 4 / dtype.size();
                        Tensor::empty(&self.device, dtype, &[n])?
                    }
                    _ => Tensor::empty(&self.device, DType::U32, &[bytes.div_ceil(4).max(1)])?,
                });
            }
        }
        let tensors: Vec<Tensor> = tensors
            .into_iter()
            .map(|t| t.expect("made above"))
            .collect();
        // Dispatches.
        let max_x = self.device.limits().max_compute_work_group_count[0].max(1) as u64;
        let max_y = self.device.limits().max_compute_work_group_count[1].max(1) as u64;
        for d in &f.dispatches {
            for k in &d.kernels {
                let groups = vals.size(k.workgroups);
                if groups == 0 {
                    continue;
                }
                let gx = groups.min(max_x);
                let gy = groups.div_ceil(gx);
                if gy > max_y {
                    return Err(program_error(
                        name,
                        format!(
                            "{}: {groups} workgroups exceed the device's maxComputeWorkGroupCount",
                            k.name
                        ),
                    ));
                }
                let kernel = &self.kernels[&k.name];
                let bound: Vec<&Tensor> = k.bindings.iter().map(|&b| &tensors[b]).collect();
                let chunks: Vec<(u64, u64, bool, bool)> = match k.repeat {
                    Repeat::Once => vec![(0, 0, true, true)],
                    Repeat::Chunks { total, chunk } => {
                        let total = vals.size(total);
                        let n = total.div_ceil(chunk).max(1);
                        (0..n)
                            .map(|c| {
                                let b = c * chunk;
                                (b, (b + chunk).min(total), c == 0, c + 1 == n)
                            })
                            .collect()
                    }
                };
                for (begin, end, first, last) in chunks {
                    let mut push = Vec::with_capacity(k.push.len() * 4);
                    for p in &k.push {
                        let w: u32 = match p {
                            PushValue::Slot(s) => {
                                let elem = f.host.slots[*s].elem;
                                push_word(
                                    vals.value(kiln_core::codegen::host::HostVal::Slot(*s)),
                                    elem,
                                )
                            }
                            PushValue::ChunkBegin => begin as u32,
                            PushValue::ChunkEnd => end as u32,
                            PushValue::ChunkFirst => u32::from(first),
                            PushValue::ChunkLast => u32::from(last),
                        };
                        push.extend_from_slice(&w.to_le_bytes());
                    }
                    // A kernel whose push constants all went unused has
                    // none in its interface.
                    let want = kernel.interface().push_constants.map_or(0, |r| r.size) as usize;
                    push.resize(want, 0);
                    stream.dispatch_with(kernel, &bound, &push, [gx as u32, gy as u32, 1])?;
                }
            }
        }
        Ok((tensors, vals))
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

/// An argument of a run: a host value or a tensor on the device.
#[derive(Clone, Copy)]
enum Arg<'a> {
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

/// A host scalar as a push-constant word (the kernel's view of it).
fn push_word(v: Scalar, elem: ElemType) -> u32 {
    match elem {
        ElemType::F32 | ElemType::F16 | ElemType::BF16 => (v.float() as f32).to_bits(),
        _ => v.int() as u32,
    }
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
