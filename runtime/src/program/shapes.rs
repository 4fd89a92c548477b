//! The dtypes and shapes of a function's results for given arguments,
//! without running it: the argument checks and the host program of an
//! enqueue (kiln-core's executor, the same checks and errors), with no
//! buffer made and no kernel launched (what a lazy op call needs at the
//! call; see `ops::lazy`).

use kiln_core::codegen::bufferize::{BufferId, BufferOrigin};
use kiln_core::codegen::exec::{elements_to_bytes, KernelLaunch};
use kiln_core::codegen::executor::KernelExecutor;
use kiln_core::codegen::{CompiledFunction, CompiledKernel, ResultRef};

use super::{check_args, dtype_of, program_error, Arg, Program};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// An executor that makes nothing and launches nothing; a size read from
/// device data (a data-dependent size) is refused.
struct ShapeRun<'a> {
    f: &'a CompiledFunction,
}

impl KernelExecutor for ShapeRun<'_> {
    type Error = Error;

    fn error(&self, message: String) -> Error {
        program_error(&self.f.name, message)
    }

    fn allocate(&mut self, _: BufferId, _: u64) -> Result<()> {
        Ok(())
    }

    fn launch(&mut self, _: &CompiledKernel, _: &KernelLaunch, _: [u32; 3]) -> Result<()> {
        Ok(())
    }

    fn read(&mut self, b: BufferId) -> Result<Vec<u8>> {
        // A constant's data is known; anything else is device data.
        if let BufferOrigin::Constant(_) = self.f.buffers[b].origin {
            if let Some(c) = self.f.constants.iter().find(|c| c.buffer == b) {
                return Ok(elements_to_bytes(
                    &c.data,
                    c.shape.iter().product::<u64>() as usize,
                ));
            }
        }
        Err(super::record::refuse_read(&self.f.name))
    }

    fn read_range(&mut self, b: BufferId, range: std::ops::Range<u64>) -> Result<Vec<u8>> {
        let bytes = self.read(b)?;
        let (start, end) = (range.start as usize, range.end as usize);
        bytes.get(start..end).map(<[u8]>::to_vec).ok_or_else(|| {
            program_error(
                &self.f.name,
                format!(
                    "bytes {range:?} of buffer {b} are beyond its {} bytes",
                    bytes.len()
                ),
            )
        })
    }
}

impl Program {
    /// The dtype and shape of each result of function `name` run with
    /// `args` (device tensors), checked as an enqueue checks them; a
    /// function whose sizes depend on device data is refused (the error
    /// `record::is_refused_read` tells), as is one with a result computed
    /// on the host.
    pub(crate) fn result_shapes(
        &self,
        name: &str,
        args: &[&Tensor],
    ) -> Result<Vec<(DType, Vec<usize>)>> {
        let (_, f) = self.function(name)?;
        let args: Vec<Arg<'_>> = args.iter().map(|&t| Arg::Device(t)).collect();
        check_args(f, &args)?;
        let arg_dim = |i: usize, d: usize| -> Option<u64> {
            args.get(i)?.shape_and_elem()?.0.get(d).map(|&n| n as u64)
        };
        let vals = f.execute(&mut ShapeRun { f }, &arg_dim, &|_| None, self.run_limits())?;
        f.results
            .iter()
            .map(|r| match r {
                ResultRef::Buffer { shape, elem, .. } => {
                    let dtype = dtype_of(*elem).ok_or_else(|| {
                        program_error(&f.name, format!("a {elem} result has no device dtype"))
                    })?;
                    Ok((
                        dtype,
                        shape.iter().map(|&s| vals.size(s) as usize).collect(),
                    ))
                }
                ResultRef::Host { .. } => Err(program_error(
                    &f.name,
                    "a result computed on the host has no device tensor",
                )),
            })
            .collect()
    }
}
