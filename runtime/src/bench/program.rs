//! What `kiln bench` times for a program: a [`Callable`], called the way
//! `iree-benchmark-module` calls a function (inputs already on the device;
//! the call allocates its outputs, records, submits and waits).
//!
//! Two kinds are callable today:
//! - [`KernelCall`]: one kernel (a SPIR-V binary or a memref-level kernel
//!   lowered by kiln) over a fixed grid; its arguments are all bindings
//!   (outputs included, as memref kernels write into their arguments), so a
//!   call allocates nothing and returns its arguments.
//! - **Tensor-level programs** (`func.func` on tensors, as `iree-compile`
//!   takes them): [`compile_tensor_function`] is the one place they plug in.
//!   It compiles them with kiln's tensor compiler ([`Program`]); the
//!   harness (the CLI's `kiln bench`) uploads the inputs, checks the
//!   outputs of the first call against the reference, times the calls and
//!   reports them beside IREE and the device's limits.

use std::sync::Arc;

use crate::bench::stats::{time_calls, Timing};
use crate::bench::BenchError;
use crate::{Device, Kernel, Program, Stream, Tensor};

/// A function kiln can call on the device.
pub trait Callable: Send + Sync {
    /// The function's name (the program's symbol).
    fn name(&self) -> &str;

    /// One call on `stream`: `inputs` are on the device already; the call
    /// allocates its outputs, enqueues its work, submits it and waits for
    /// it (so the outputs are complete when it returns), and returns the
    /// outputs in the function's result order.
    fn call(&self, stream: &Stream, inputs: &[Tensor]) -> crate::Result<Vec<Tensor>>;
}

/// **The plug-in point for compiled tensor programs.** Compiles `function`
/// of the tensor-level program `text` (MLIR 19, `func.func` with tensor
/// arguments and results) for `device` with kiln's tensor compiler
/// ([`Program::compile`]: parsed, verified, compiled for the device's env
/// and driver) and returns it as a [`Callable`] whose `call` takes the
/// function's arguments in order and returns its results in order, as
/// `iree-run-module` does; the result dtypes and shapes are the
/// function's. A call runs [`Program::run_on_device`]: inputs stay on the
/// device, outputs are allocated per call, nothing is read back.
pub fn compile_tensor_function(
    device: &Device,
    text: &str,
    function: &str,
) -> Result<Arc<dyn Callable>, BenchError> {
    let what = format!("@{function}");
    let module = kiln_core::tensor::load(text).map_err(|e| BenchError::Invalid {
        what: what.clone(),
        message: e.to_string(),
    })?;
    let program = Program::compile(device, &module).map_err(|e| BenchError::runtime(&what, e))?;
    if !program
        .compiled()
        .functions
        .iter()
        .any(|f| f.name == function)
    {
        return Err(BenchError::Invalid {
            what,
            message: "no such function in the program".to_owned(),
        });
    }
    Ok(Arc::new(TensorCall {
        program,
        function: function.to_owned(),
    }))
}

/// A function of a compiled tensor program (see
/// [`compile_tensor_function`]).
struct TensorCall {
    program: Program,
    function: String,
}

impl Callable for TensorCall {
    fn name(&self) -> &str {
        &self.function
    }

    fn call(&self, stream: &Stream, inputs: &[Tensor]) -> crate::Result<Vec<Tensor>> {
        self.program.run_on_device(stream, &self.function, inputs)
    }
}

/// One kernel over a fixed grid; a call dispatches it over its arguments
/// and waits (see the module docs).
#[derive(Clone, Debug)]
pub struct KernelCall {
    kernel: Kernel,
    grid: [u32; 3],
    push_constants: Vec<u8>,
}

impl KernelCall {
    /// `kernel` over `grid` workgroups with these push-constant bytes
    /// (empty when it has none).
    pub fn new(kernel: Kernel, grid: [u32; 3], push_constants: Vec<u8>) -> Self {
        Self {
            kernel,
            grid,
            push_constants,
        }
    }

    /// The kernel.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }
}

impl Callable for KernelCall {
    fn name(&self) -> &str {
        self.kernel.label()
    }

    /// Returns all the arguments, in order: a kernel writes its results
    /// into some of them (which ones its reflected access may not say: a
    /// binding without `NonWritable` counts as written).
    fn call(&self, stream: &Stream, inputs: &[Tensor]) -> crate::Result<Vec<Tensor>> {
        let args: Vec<&Tensor> = inputs.iter().collect();
        stream.dispatch_with(&self.kernel, &args, &self.push_constants, self.grid)?;
        stream.sync()?;
        Ok(inputs.to_vec())
    }
}

/// Calls `f` once and returns its outputs (for the correctness check the
/// caller makes before timing), on a stream that profiles its dispatches.
pub fn first_call(
    device: &Device,
    f: &dyn Callable,
    inputs: &[Tensor],
) -> Result<Vec<Tensor>, BenchError> {
    let stream = device.stream();
    stream.profile(true);
    f.call(&stream, inputs)
        .map_err(|e| BenchError::runtime(&format!("@{}", f.name()), e))
}

/// Times `runs` calls of `f` after a warm-up, then GPU time from
/// per-dispatch timestamps in `runs` more ([`time_calls`]).
pub fn time_callable(
    device: &Device,
    f: &dyn Callable,
    inputs: &[Tensor],
    runs: usize,
) -> Result<Timing, BenchError> {
    let stream = device.stream();
    time_calls(device, &stream, runs, || f.call(&stream, inputs).map(drop))
        .map_err(|e| BenchError::runtime(&format!("@{}", f.name()), e))
}
