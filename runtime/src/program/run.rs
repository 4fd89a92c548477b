//! A run of a compiled function on the device: kiln-core's executor
//! ([`CompiledFunction::execute`]) with this device as its [`KernelExecutor`].

use kiln_core::codegen::bufferize::{BufferId, BufferOrigin};
use kiln_core::codegen::exec::{element_bytes, elements_to_bytes, KernelLaunch};
use kiln_core::codegen::executor::KernelExecutor;
use kiln_core::codegen::{CompiledFunction, CompiledKernel};
use kiln_core::tensor::eval::Value;

use super::{dtype_of, program_error, Arg, Program};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::stream::Stream;
use crate::tensor::Tensor;

/// Where a run's dispatches go.
pub(super) enum Sink<'a> {
    /// Enqueued on a stream.
    Stream(&'a Stream),
    /// Recorded once for replays (see `record`): a size read from device
    /// data is refused.
    Record(&'a mut super::record::Recorder),
}

/// The buffers of one run of `f` and where its dispatches go.
pub(super) struct DeviceRun<'a> {
    pub program: &'a Program,
    pub sink: Sink<'a>,
    /// The function's index in the program (its constants' cache key).
    pub fi: usize,
    pub f: &'a CompiledFunction,
    pub args: &'a [Arg<'a>],
    /// Whether buffers kiln allocates have their elements' dtype (so
    /// results can be returned as device tensors); else 32-bit words.
    pub typed: bool,
    /// The buffers made so far.
    pub tensors: Vec<Option<Tensor>>,
}

impl DeviceRun<'_> {
    fn tensor(&self, b: BufferId) -> Result<&Tensor> {
        self.tensors
            .get(b)
            .and_then(Option::as_ref)
            .ok_or_else(|| program_error(&self.f.name, format!("internal: no buffer {b}")))
    }
}

impl KernelExecutor for DeviceRun<'_> {
    type Error = Error;

    fn error(&self, message: String) -> Error {
        program_error(&self.f.name, message)
    }

    fn allocate(&mut self, b: BufferId, elements: u64) -> Result<()> {
        let (f, p) = (self.f, self.program);
        let n = elements as usize;
        let info = &f.buffers[b];
        let t = match info.origin {
            BufferOrigin::Argument(a) => match self.args.get(a) {
                Some(Arg::Host(Value::Tensor(t))) => p.upload(&t.data, n, info.elem)?,
                Some(Arg::Device(t)) => t.contiguous()?,
                _ => {
                    return Err(program_error(
                        &f.name,
                        format!("argument {a} must be a tensor"),
                    ))
                }
            },
            BufferOrigin::Constant(_) => p.constant(self.fi, f, b, n)?,
            BufferOrigin::Fault => Tensor::from_slice(&p.device, &[0u32], &[1])?,
            BufferOrigin::Dispatch(_) | BufferOrigin::Scratch(_) => {
                let bytes = n * element_bytes(info.elem);
                match dtype_of(info.elem) {
                    // Whole 32-bit words (kernels store 1- and 2-byte
                    // elements as parts of words); results are narrowed.
                    Some(dtype) if self.typed && bytes > 0 => {
                        let n = bytes.div_ceil(4) * 4 / dtype.size();
                        Tensor::empty(&p.device, dtype, &[n])?
                    }
                    _ => Tensor::empty(&p.device, DType::U32, &[bytes.div_ceil(4).max(1)])?,
                }
            }
        };
        self.tensors[b] = Some(t);
        Ok(())
    }

    fn launch(&mut self, k: &CompiledKernel, launch: &KernelLaunch, grid: [u32; 3]) -> Result<()> {
        let late;
        let kernel = match self.program.kernels.get(&k.name) {
            Some(kernel) => kernel,
            // A `_chunked` variant is made at its first launch.
            None if k.runs_only_past_the_storage_range() => {
                late = self.program.late_kernel(&self.f.name, k)?;
                &late
            }
            None => {
                return Err(program_error(
                    &self.f.name,
                    format!("kernel @{} is not loaded", k.name),
                ))
            }
        };
        let (tensors, name) = (&self.tensors, &self.f.name);
        // Argument `i` of a kernel is binding `i` of set 0. A binding its
        // entry point never uses is not in its interface (a staged
        // cooperative-matrix kernel reads A and B only through their wide
        // views): it gets no buffer.
        let used: Vec<u32> = kernel
            .interface()
            .bindings
            .iter()
            .filter(|r| r.set == 0)
            .map(|r| r.binding)
            .collect();
        let bound = k
            .bindings
            .iter()
            .enumerate()
            .filter(|&(i, _)| u32::try_from(i).is_ok_and(|i| used.contains(&i)))
            .map(|(_, &b)| {
                tensors
                    .get(b)
                    .and_then(Option::as_ref)
                    .ok_or_else(|| program_error(name, format!("internal: no buffer {b}")))
            })
            .collect::<Result<Vec<&Tensor>>>()?;
        // A kernel whose push constants all went unused has none in its
        // interface.
        let mut push = launch.push.clone();
        let want = kernel.interface().push_constants.map_or(0, |r| r.size) as usize;
        push.resize(want, 0);
        match &mut self.sink {
            Sink::Stream(stream) => stream.dispatch_with(kernel, &bound, &push, grid),
            Sink::Record(recorder) => recorder.dispatch(kernel, &bound, &push, grid),
        }
    }

    fn read(&mut self, b: BufferId) -> Result<Vec<u8>> {
        // An argument given on the host, or a constant: its data, no
        // device work.
        match self.f.buffers[b].origin {
            BufferOrigin::Argument(a) => {
                if let Some(Arg::Host(Value::Tensor(t))) = self.args.get(a) {
                    return Ok(elements_to_bytes(&t.data, t.shape.iter().product()));
                }
            }
            BufferOrigin::Constant(_) => {
                if let Some(c) = self.f.constants.iter().find(|c| c.buffer == b) {
                    return Ok(elements_to_bytes(
                        &c.data,
                        c.shape.iter().product::<u64>() as usize,
                    ));
                }
            }
            _ => {}
        }
        match &self.sink {
            Sink::Stream(stream) => stream.sync()?,
            Sink::Record(_) => return Err(super::record::refuse_read(&self.f.name)),
        }
        self.tensor(b)?.read_bytes_with(<[u8]>::to_vec)
    }

    fn read_range(&mut self, b: BufferId, range: std::ops::Range<u64>) -> Result<Vec<u8>> {
        let beyond = |len: usize| {
            program_error(
                &self.f.name,
                format!("bytes {range:?} of buffer {b} are beyond its {len} bytes"),
            )
        };
        let (Ok(start), Ok(end)) = (usize::try_from(range.start), usize::try_from(range.end))
        else {
            return Err(beyond(0));
        };
        // An argument given on the host, or a constant: its data.
        let host = match self.f.buffers[b].origin {
            BufferOrigin::Argument(a) => {
                matches!(self.args.get(a), Some(Arg::Host(Value::Tensor(_))))
            }
            BufferOrigin::Constant(_) => true,
            _ => false,
        };
        if host {
            let bytes = self.read(b)?;
            return bytes
                .get(start..end)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| beyond(bytes.len()));
        }
        match &self.sink {
            Sink::Stream(stream) => stream.sync()?,
            Sink::Record(_) => return Err(super::record::refuse_read(&self.f.name)),
        }
        // The whole elements of the tensor's dtype that cover the range,
        // and only those, come back.
        let t = self.tensor(b)?.contiguous()?;
        let size = t.dtype().size();
        let len = t.numel() * size;
        if start > end || end > len {
            return Err(beyond(len));
        }
        let first = start / size;
        let last = end.div_ceil(size);
        let part = t.reshape(&[t.numel()])?.narrow(0, first, last - first)?;
        let skip = start - first * size;
        part.read_bytes_with(|bytes| bytes[skip..skip + (end - start)].to_vec())
    }
}
