//! Tensor programs on the CPU: a [`CompiledProgram`] (kiln-core's tensor
//! compiler, for [`cpu_target_env`]) run function by function with every
//! kernel on the CPU ([`CpuKernel`]), and [`TensorBackend`], the
//! [`Backend`] of kiln-core's runner of IREE's end-to-end test format
//! (`kiln run --cpu FILE.mlir`).
//!
//! A run does what kiln-runtime's `Program::run` does on a device, through
//! the same executor ([`kiln_core::codegen::executor`], this file giving
//! it the CPU as its [`KernelExecutor`]): evaluate the host program for the run's
//! sizes (a dynamic size that does not fit fails the run with the failing
//! check's message), allocate each buffer as whole 32-bit words, copy in
//! the arguments and constants, dispatch every kernel of every dispatch in
//! order (a buffer larger than the env's `maxStorageBufferRange`, which a
//! kernel binds as an array of descriptors, bound chunk by chunk as on the
//! device: [`bind_chunks`]; each chunk of a chunked kernel with its push constants; the
//! workgroups as an `[x, y, 1]` grid within the env's
//! `maxComputeWorkGroupCount`, as on the device), reading back a size the
//! program computes from tensor data where a later kernel needs it (a host
//! sync point), and read the results.
//! Each kernel is compiled once from its SPIR-V binary, deserialized into
//! the spv IR and converted to LLVM.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use kiln_core::codegen::{compile, CodegenTarget, DriverFacts};
//! use kiln_cpu::{cpu_target_env, CpuProgram, DispatchOptions};
//! let m = kiln_core::tensor::load(
//!     "func.func @sq(%x: tensor<4xf32>) -> tensor<4xf32> {\n\
//!        %y = arith.mulf %x, %x : tensor<4xf32>\n\
//!        return %y : tensor<4xf32>\n}",
//! )?;
//! let options = DispatchOptions::default();
//! let target = CodegenTarget::new(cpu_target_env(options.subgroup_size), DriverFacts::conservative());
//! let program = CpuProgram::load(compile(&m, &target)?, options)?;
//! let x = kiln_core::tensor::eval::Tensor::zeros(kiln_core::tensor::ElemType::F32, &[4]).unwrap();
//! let out = program.run("sq", &[kiln_core::tensor::eval::Value::Tensor(x.into())])?;
//! assert_eq!(out[0].tensor().unwrap().shape, vec![4]);
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Mutex;

use kiln_core::codegen::bufferize::{BufferId, BufferOrigin};
use kiln_core::codegen::exec::{element_bytes, elements_to_bytes, KernelLaunch};
use kiln_core::codegen::executor::{KernelExecutor, RunLimits};
use kiln_core::codegen::target::{bounded_env, declared_env};
use kiln_core::codegen::{
    compile_each_function_with, CodegenTarget, CompiledFunction, CompiledKernel, CompiledProgram,
    DriverFacts, Lowering,
};
use kiln_core::tensor::e2e::{Backend, BackendError};
use kiln_core::tensor::eval::Value;
use kiln_core::tensor::TensorModule;

use crate::env::cpu_target_env;
use crate::error::CpuError;
use crate::kernel::{BufferBinding, CpuKernel, DispatchOptions, DispatchReport};

/// A compiled tensor program whose kernels run on the CPU.
pub struct CpuProgram {
    compiled: CompiledProgram,
    kernels: HashMap<String, CpuKernel>,
    /// The `_chunked` variants compiled at their first launch (they run
    /// only past the storage range: `CompiledKernel::runs_only_past_the_storage_range`),
    /// lowered first where their compile deferred them (`Lowering`).
    late: Mutex<HashMap<String, CpuKernel>>,
    options: DispatchOptions,
    reports: Mutex<Vec<(String, DispatchReport)>>,
}

impl std::fmt::Debug for CpuProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuProgram")
            .field("functions", &self.compiled.functions.len())
            .field("kernels", &self.kernels.len())
            .finish_non_exhaustive()
    }
}

/// Compiles kernel `k` of function `function` for the CPU from its SPIR-V
/// binary, checking its workgroup size against the program's.
fn compile_kernel(
    function: &str,
    k: &CompiledKernel,
    options: &DispatchOptions,
) -> Result<CpuKernel, CpuError> {
    let err = |m: String| program_error(function, format!("kernel @{}: {m}", k.name));
    let module = kiln_core::binary::deserialize(&k.words)
        .map_err(|e| err(format!("cannot read its SPIR-V binary: {e}")))?;
    let kernel = CpuKernel::compile_for_subgroup_size(
        &module,
        &k.name,
        &HashMap::new(),
        Some(options.subgroup_size),
    )
    .map_err(|e| err(e.to_string()))?;
    if kernel.info().local_size != k.workgroup_size {
        return Err(err(format!(
            "compiled with workgroup size {:?}, the program launches {:?}",
            kernel.info().local_size,
            k.workgroup_size
        )));
    }
    Ok(kernel)
}

fn program_error(function: &str, message: impl std::fmt::Display) -> CpuError {
    CpuError::Launch(format!("function @{function}: {message}"))
}

impl CpuProgram {
    /// Compiles every kernel of `compiled` for the CPU (each from its
    /// SPIR-V binary), except the `_chunked` variants, compiled at their
    /// first launch. `compiled` should target [`cpu_target_env`] with
    /// `options.subgroup_size` (or an env no larger).
    pub fn load(
        compiled: CompiledProgram,
        options: DispatchOptions,
    ) -> Result<CpuProgram, CpuError> {
        let mut kernels = HashMap::new();
        for f in &compiled.functions {
            for k in f.dispatches.iter().flat_map(|d| &d.kernels) {
                if kernels.contains_key(&k.name) || k.runs_only_past_the_storage_range() {
                    continue;
                }
                kernels.insert(k.name.clone(), compile_kernel(&f.name, k, &options)?);
            }
        }
        Ok(CpuProgram {
            compiled,
            kernels,
            late: Mutex::new(HashMap::new()),
            options,
            reports: Mutex::new(Vec::new()),
        })
    }

    /// The kernel `k` of function `function`: loaded with the program, or
    /// (a `_chunked` variant) compiled now or at an earlier launch.
    fn kernel(&self, function: &str, k: &CompiledKernel) -> Result<CpuKernel, CpuError> {
        if let Some(kernel) = self.kernels.get(&k.name) {
            return Ok(kernel.clone());
        }
        if !k.runs_only_past_the_storage_range() {
            return Err(program_error(
                function,
                format!("kernel @{} is not loaded", k.name),
            ));
        }
        let mut late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kernel) = late.get(&k.name) {
            return Ok(kernel.clone());
        }
        // Lowered first where its compile deferred it.
        let lowered = kiln_core::codegen::lower_deferred(k, &self.compiled.target)
            .map_err(|e| program_error(function, format!("kernel @{}: {e}", k.name)))?;
        let kernel = compile_kernel(function, &lowered, &self.options)?;
        late.insert(k.name.clone(), kernel.clone());
        Ok(kernel)
    }

    /// The compiled program.
    pub fn compiled(&self) -> &CompiledProgram {
        &self.compiled
    }

    /// The names of the kernels compiled since the program was loaded, at
    /// their first launch (the `_chunked` variants a call selected), in no
    /// particular order.
    pub fn late_kernels(&self) -> Vec<String> {
        let late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        late.keys().cloned().collect()
    }

    /// `kernel name → what its dispatch measured`, in dispatch order,
    /// since the program was loaded.
    pub fn reports(&self) -> Vec<(String, DispatchReport)> {
        self.reports
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Runs function `name` with `args` (host tensors and scalars) and
    /// returns its results.
    pub fn run(&self, name: &str, args: &[Value]) -> Result<Vec<Value>, CpuError> {
        let f = self
            .compiled
            .function(name)
            .ok_or_else(|| program_error(name, "no such function in the program"))?;
        self.run_function(f, args)
    }

    fn run_function(&self, f: &CompiledFunction, args: &[Value]) -> Result<Vec<Value>, CpuError> {
        let name = f.name.as_str();
        if args.len() != f.params.len() {
            return Err(program_error(
                name,
                format!("takes {} arguments, got {}", f.params.len(), args.len()),
            ));
        }
        for (i, (a, p)) in args.iter().zip(&f.params).enumerate() {
            let fits = match (a, &p.shape) {
                (Value::Tensor(t), Some(shape)) => {
                    t.elem == p.elem
                        && t.shape.len() == shape.len()
                        && t.shape
                            .iter()
                            .zip(shape)
                            .all(|(&n, d)| d.is_none_or(|d| d as usize == n))
                }
                (Value::Scalar(_), None) => true,
                _ => false,
            };
            if !fits {
                return Err(program_error(
                    name,
                    format!("argument {i} does not fit the parameter's type"),
                ));
            }
        }
        let arg_dim = |i: usize, d: usize| -> Option<u64> {
            match args.get(i)? {
                Value::Tensor(t) => t.shape.get(d).map(|&n| n as u64),
                Value::Scalar(_) => None,
            }
        };
        let arg_scalar = |i: usize| args.get(i)?.scalar();
        let limits = &self.compiled.target.env.limits;
        let limits = RunLimits {
            max_buffer_bytes: u64::from(limits.max_storage_buffer_range),
            max_workgroups: limits.max_compute_workgroup_count,
        };
        let mut run = CpuRun {
            program: self,
            f,
            args,
            buffers: vec![Vec::new(); f.buffers.len()],
        };
        let vals = f.execute(&mut run, &arg_dim, &arg_scalar, limits)?;
        let buffers = run.buffers;
        let mut read = |b: usize| {
            buffers
                .get(b)
                .cloned()
                .ok_or_else(|| program_error(name, format!("no buffer {b}")))
        };
        if let Some(fault) = f.fault(&mut read)? {
            return Err(program_error(name, fault));
        }
        f.result_values(&vals, &mut |b| {
            buffers
                .get(b)
                .cloned()
                .ok_or_else(|| program_error(name, format!("no buffer {b}")))
        })
    }

    /// One dispatch of `kernel` with buffer `bindings[i]` at set 0,
    /// binding `i` (in chunks where the binding is an array of
    /// descriptors: [`bind_chunks`]).
    ///
    /// A buffer bound at several bindings (kiln binds a tensor a second
    /// time as vec4s, or as 64-bit words, where a kernel moves some of
    /// its elements as vectors and others one by one) is given to each as
    /// its own copy, and the copies' writes are merged back byte by byte:
    /// each byte one of them changed takes that value. kiln's kernels
    /// write each element through one binding and never read through one
    /// what they wrote through another, so the merge is their result; two
    /// bindings that change one byte to different values are refused.
    #[allow(clippy::too_many_arguments)]
    fn dispatch(
        &self,
        function: &str,
        kernel_name: &str,
        kernel: &CpuKernel,
        bindings: &[usize],
        buffers: &mut [Vec<u8>],
        push: &[u8],
        grid: [u32; 3],
    ) -> Result<DispatchReport, CpuError> {
        if let Some(b) = bindings.iter().find(|&&b| b >= buffers.len()) {
            return Err(program_error(
                function,
                format!("kernel @{kernel_name}: no buffer {b}"),
            ));
        }
        // A buffer bound once is moved out and back; one bound at several
        // bindings is copied for each, its original kept for the merge.
        let shared = |b: usize| bindings.iter().filter(|&&x| x == b).count() > 1;
        let mut taken: Vec<Vec<u8>> = bindings
            .iter()
            .map(|&b| {
                if shared(b) {
                    buffers[b].clone()
                } else {
                    std::mem::take(&mut buffers[b])
                }
            })
            .collect();
        let chunk = self.compiled.target.env.limits.storage_chunk_bytes();
        let result = bind_chunks(kernel, &mut taken, chunk)
            .map_err(|m| program_error(function, format!("kernel @{kernel_name}: {m}")))
            .and_then(|mut bound| {
                kernel
                    .dispatch(&mut bound, push, grid, &self.options)
                    .map_err(|e| program_error(function, format!("kernel @{kernel_name}: {e}")))
            });
        let mut merged = Ok(());
        for (i, &b) in bindings.iter().enumerate() {
            if !shared(b) {
                buffers[b] = std::mem::take(&mut taken[i]);
                continue;
            }
            let copies: Vec<usize> = (0..bindings.len()).filter(|&j| bindings[j] == b).collect();
            if copies[0] != i || result.is_err() || merged.is_err() {
                continue;
            }
            match merge_writes(&buffers[b], copies.iter().map(|&j| &taken[j][..])) {
                Ok(bytes) => buffers[b] = bytes,
                Err(at) => {
                    merged = Err(program_error(
                        function,
                        format!(
                            "kernel @{kernel_name}: buffer {b}, bound at bindings {copies:?}, has byte {at} written differently through two of them"
                        ),
                    ))
                }
            }
        }
        let result = result?;
        merged?;
        Ok(result)
    }
}

/// `buffers[i]` bound at set 0, binding `i`; at a binding that is an array
/// of `N` descriptors (a buffer larger than the env's
/// `maxStorageBufferRange`), element `k` binds bytes `k * chunk ..` of it,
/// at most `chunk` of them, as kiln-runtime's `Stream::dispatch` binds
/// them on a device (`ResourceLimits::storage_chunk_bytes`); elements
/// past the buffer's last chunk (a buffer sized at run time bound by a
/// `_chunked` kernel) bind no bytes; an error when the buffer has more
/// than `N` chunks.
fn bind_chunks<'b>(
    kernel: &CpuKernel,
    buffers: &'b mut [Vec<u8>],
    chunk: u64,
) -> Result<Vec<BufferBinding<'b>>, String> {
    let slots = &kernel.info().slots;
    let chunk = usize::try_from(chunk).unwrap_or(usize::MAX);
    let mut bound = Vec::with_capacity(buffers.len());
    for (i, bytes) in buffers.iter_mut().enumerate() {
        let binding = i as u32;
        let count = slots
            .iter()
            .filter(|s| s.binding == Some((0, binding)))
            .count();
        if count <= 1 {
            bound.push(BufferBinding {
                set: 0,
                binding,
                element: 0,
                bytes,
            });
            continue;
        }
        let len = bytes.len();
        let has = len.div_ceil(chunk.max(1)).max(1);
        if has > count {
            return Err(format!(
                "binding {binding} is an array of {count} descriptors of {chunk} bytes, \
                 its buffer has {len} bytes ({has} chunks)"
            ));
        }
        // Past the buffer's last chunk (a buffer sized at run time bound
        // by a `_chunked` kernel): nothing bound there, as the kernel's
        // per-chunk branches never reach it (the device binds the last
        // chunk again; a slot here cannot alias another).
        let chunks = bytes
            .chunks_mut(chunk.max(1))
            .chain(std::iter::repeat_with(|| &mut [][..]))
            .take(count);
        for (element, bytes) in chunks.enumerate() {
            bound.push(BufferBinding {
                set: 0,
                binding,
                element: element as u32,
                bytes,
            });
        }
    }
    Ok(bound)
}

/// One run of function `f` on the CPU: its buffers, as whole 32-bit
/// words (kiln-core's executor drives it).
struct CpuRun<'a> {
    program: &'a CpuProgram,
    f: &'a CompiledFunction,
    args: &'a [Value],
    buffers: Vec<Vec<u8>>,
}

impl KernelExecutor for CpuRun<'_> {
    type Error = CpuError;

    fn error(&self, message: String) -> CpuError {
        program_error(&self.f.name, message)
    }

    fn allocate(&mut self, b: BufferId, elements: u64) -> Result<(), CpuError> {
        let (f, name) = (self.f, self.f.name.as_str());
        let n = elements as usize;
        let info = &f.buffers[b];
        let mut bytes = match info.origin {
            BufferOrigin::Argument(a) => match self.args.get(a) {
                Some(Value::Tensor(t)) => elements_to_bytes(&t.data, n),
                _ => {
                    return Err(program_error(
                        name,
                        format!("argument {a} must be a tensor"),
                    ))
                }
            },
            BufferOrigin::Constant(_) => {
                let c = f
                    .constants
                    .iter()
                    .find(|c| c.buffer == b)
                    .ok_or_else(|| program_error(name, "a constant without data"))?;
                elements_to_bytes(&c.data, n)
            }
            BufferOrigin::Dispatch(_) | BufferOrigin::Scratch(_) | BufferOrigin::Fault => {
                Vec::new()
            }
        };
        let words = (n * element_bytes(info.elem)).div_ceil(4).max(1);
        bytes.resize(words * 4, 0);
        self.buffers[b] = bytes;
        Ok(())
    }

    fn launch(
        &mut self,
        k: &CompiledKernel,
        launch: &KernelLaunch,
        grid: [u32; 3],
    ) -> Result<(), CpuError> {
        let name = self.f.name.as_str();
        let kernel = self.program.kernel(name, k)?;
        let report = self.program.dispatch(
            name,
            &k.name,
            &kernel,
            &k.bindings,
            &mut self.buffers,
            &launch.push,
            grid,
        )?;
        self.program
            .reports
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((k.name.clone(), report));
        Ok(())
    }

    fn read(&mut self, b: BufferId) -> Result<Vec<u8>, CpuError> {
        self.buffers
            .get(b)
            .cloned()
            .ok_or_else(|| program_error(&self.f.name, format!("no buffer {b}")))
    }

    fn read_range(&mut self, b: BufferId, range: Range<u64>) -> Result<Vec<u8>, CpuError> {
        let bytes = self
            .buffers
            .get(b)
            .ok_or_else(|| program_error(&self.f.name, format!("no buffer {b}")))?;
        let len = bytes.len();
        usize::try_from(range.start)
            .ok()
            .zip(usize::try_from(range.end).ok())
            .and_then(|(s, e)| bytes.get(s..e))
            .map(<[u8]>::to_vec)
            .ok_or_else(|| {
                program_error(
                    &self.f.name,
                    format!("bytes {range:?} of buffer {b} are beyond its {len} bytes"),
                )
            })
    }
}

/// `original` with every byte that one of `copies` changed taken from it;
/// `Err(offset)` where two copies changed a byte to different values.
fn merge_writes<'a>(
    original: &[u8],
    copies: impl Iterator<Item = &'a [u8]>,
) -> Result<Vec<u8>, usize> {
    let mut out = original.to_vec();
    let mut written = vec![false; original.len()];
    for copy in copies {
        for (at, (&o, &c)) in original.iter().zip(copy).enumerate() {
            if c == o {
                continue;
            }
            if written[at] && out[at] != c {
                return Err(at);
            }
            out[at] = c;
            written[at] = true;
        }
    }
    Ok(out)
}

/// Runs e2e test functions with their kernels on the CPU.
pub struct TensorBackend {
    target: CodegenTarget,
    options: DispatchOptions,
    programs: HashMap<String, Result<CpuProgram, BackendError>>,
    errors: Vec<String>,
    reports: Vec<(String, DispatchReport)>,
}

impl std::fmt::Debug for TensorBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TensorBackend")
            .field("options", &self.options)
            .field("functions", &self.programs.len())
            .finish_non_exhaustive()
    }
}

impl TensorBackend {
    /// A backend compiling for [`cpu_target_env`] with the subgroup size of
    /// `options` (bounded by a module's declared `spirv.target_env`) and
    /// dispatching with `options`.
    pub fn new(options: DispatchOptions) -> TensorBackend {
        let env = cpu_target_env(options.subgroup_size);
        TensorBackend::with_target(
            CodegenTarget::new(env, DriverFacts::conservative()),
            options,
        )
    }

    /// A backend compiling for `target` (e.g. a device's, so the CPU runs
    /// the same kernels as the device compared with; its subgroup size
    /// should be the one of `options`).
    pub fn with_target(target: CodegenTarget, options: DispatchOptions) -> TensorBackend {
        TensorBackend {
            target,
            options,
            programs: HashMap::new(),
            errors: Vec::new(),
            reports: Vec::new(),
        }
    }

    /// The errors of compiling or running (not check failures), in order.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// `kernel name → what its dispatch measured`, for every function run.
    pub fn reports(&self) -> &[(String, DispatchReport)] {
        &self.reports
    }

    /// The codegen target in use.
    pub fn target(&self) -> &CodegenTarget {
        &self.target
    }
}

impl Backend for TensorBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn prepare(&mut self, module: &TensorModule) -> Result<(), BackendError> {
        if let Some(declared) = declared_env(module).map_err(|e| BackendError(e.to_string()))? {
            self.target.env = bounded_env(&self.target.env, &declared);
        }
        // `_chunked` variants lowered at their first launch.
        let lowering = Lowering::DeferRunTimeVariants;
        let compiled = compile_each_function_with(module, &self.target, lowering)
            .map_err(|e| BackendError(BackendError::chain(&e)))?;
        for (name, program) in compiled {
            let result = program
                .map_err(|e| BackendError(BackendError::chain(&e)))
                .and_then(|program| {
                    CpuProgram::load(program, self.options.clone())
                        .map_err(|e| BackendError(e.to_string()))
                });
            self.programs.insert(name, result);
        }
        Ok(())
    }

    fn run(&mut self, _module: &TensorModule, func: &str) -> Result<Vec<Value>, BackendError> {
        let result = match self.programs.remove(func) {
            None => Err(BackendError(format!("no compiled function '@{func}'"))),
            Some(Err(e)) => Err(e),
            Some(Ok(p)) => {
                let out = p.run(func, &[]).map_err(|e| BackendError(e.to_string()));
                self.reports.extend(p.reports());
                out
            }
        };
        result.inspect_err(|e| self.errors.push(e.0.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::merge_writes;

    #[test]
    fn merged_copies_keep_every_byte_one_of_them_changed() {
        let original = [0u8, 1, 2, 3, 4, 5];
        let vectors = [9u8, 9, 2, 3, 4, 5];
        let points = [0u8, 1, 2, 3, 7, 5];
        let merged = merge_writes(&original, [&vectors[..], &points[..]].into_iter());
        assert_eq!(merged, Ok(vec![9, 9, 2, 3, 7, 5]));
        // Both writing the same value is no conflict.
        let again = merge_writes(&original, [&vectors[..], &vectors[..]].into_iter());
        assert_eq!(again, Ok(vectors.to_vec()));
    }

    #[test]
    fn copies_that_write_one_byte_differently_conflict() {
        let original = [0u8; 4];
        let a = [0u8, 5, 0, 0];
        let b = [0u8, 6, 0, 0];
        assert_eq!(
            merge_writes(&original, [&a[..], &b[..]].into_iter()),
            Err(1)
        );
    }
}
