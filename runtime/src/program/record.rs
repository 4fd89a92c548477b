//! A function's dispatches recorded once into a reusable command buffer
//! ([`kiln_vulkan::Recorded`]), for replays that run them again without
//! recording (see `ops::capture`'s `Graph::run`).
//!
//! [`Program::record`] runs the executor as an enqueue does (the host
//! program evaluated for the arguments' sizes, the buffers allocated, each
//! kernel's bindings and push constants computed) but records the
//! dispatches into a reusable batch instead of a stream. The recording is
//! valid for arguments of the same shapes in the same buffers: what a
//! replay changes is the buffers' contents. A function that reads device
//! data on the host to size its work (a data-dependent size) is refused:
//! its recording would hold the sizes of one run.

use std::sync::Arc;

use kiln_vulkan::CommandBatch;

use super::run::Sink;
use super::{program_error, Arg, Program};
use crate::error::{Error, Result};
use crate::inner::DeviceInner;
use crate::kernel::Kernel;
use crate::tensor::{Storage, Tensor};

const READ: &str = "reads device data on the host to size its work";

/// The error of a recorded run that reads device data on the host.
pub(super) fn refuse_read(function: &str) -> Error {
    program_error(
        function,
        format!("cannot be recorded for replay: it {READ}"),
    )
}

/// Whether `e` is [`refuse_read`]'s error.
pub(crate) fn is_refused_read(e: &Error) -> bool {
    matches!(e, Error::Program { message, .. } if message.ends_with(READ))
}

/// Bytes `start .. end` of a buffer that a recording accesses.
pub(crate) struct RecordedUse {
    pub(crate) storage: Arc<Storage>,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) write: bool,
}

/// The reusable batch a recorded run's dispatches go into, and what they
/// use.
pub(crate) struct Recorder {
    device: Arc<DeviceInner>,
    batch: CommandBatch,
    uses: Vec<RecordedUse>,
    infos: Vec<(Arc<str>, [u32; 3])>,
}

impl Recorder {
    /// Records a dispatch of `kernel` with `args` bound (as
    /// [`Stream::dispatch_with`](crate::Stream::dispatch_with) would
    /// enqueue it, with the same checks).
    pub(super) fn dispatch(
        &mut self,
        kernel: &Kernel,
        args: &[&Tensor],
        push_constants: &[u8],
        grid: [u32; 3],
    ) -> Result<()> {
        let device = &self.device;
        let (bindings, uses) = crate::stream::dispatch_parts(device, kernel, args)?;
        self.batch
            .dispatch(&kernel.inner.pipeline, &bindings, push_constants, grid)
            .map_err(|e| device.vk(e))?;
        // One range per buffer and access kind (their union).
        for (u, t) in uses.iter().zip(args) {
            let same = self
                .uses
                .iter_mut()
                .find(|r| Arc::ptr_eq(&r.storage, &t.storage) && r.write == u.write);
            match same {
                Some(r) => {
                    r.start = r.start.min(u.start);
                    r.end = r.end.max(u.end);
                }
                None => self.uses.push(RecordedUse {
                    storage: Arc::clone(&t.storage),
                    start: u.start,
                    end: u.end,
                    write: u.write,
                }),
            }
        }
        self.infos.push((Arc::clone(&kernel.inner.label), grid));
        Ok(())
    }
}

/// A function's dispatches recorded once (see the module docs).
pub(crate) struct Recording {
    /// The function's results, in the run's buffers.
    pub(crate) outputs: Vec<Tensor>,
    /// The recorded commands.
    pub(crate) commands: Arc<kiln_vulkan::Recorded>,
    /// Every buffer range the commands access (holding each buffer).
    pub(crate) uses: Vec<RecordedUse>,
    /// Each dispatch's kernel and grid, in order.
    pub(crate) infos: Vec<(Arc<str>, [u32; 3])>,
    /// The function's fault word (where its kernels check indices): its
    /// index in the program and the buffer, written by every replay.
    pub(crate) fault: Option<(usize, Tensor)>,
}

impl Program {
    /// Records the dispatches of function `name` with `args` (device
    /// tensors, kept bound: a replay reads and writes these buffers) into
    /// a reusable batch (see the module docs).
    pub(crate) fn record(&self, name: &str, args: &[Tensor]) -> Result<Recording> {
        let (fi, f) = self.function(name)?;
        let device = &self.device.inner;
        let batch = CommandBatch::reusable(&device.ctx).map_err(|e| device.vk(e))?;
        let mut recorder = Recorder {
            device: Arc::clone(device),
            batch,
            uses: Vec::new(),
            infos: Vec::new(),
        };
        let run_args: Vec<Arg<'_>> = args.iter().map(Arg::Device).collect();
        let (buffers, vals) =
            self.dispatch_function(Sink::Record(&mut recorder), fi, f, &run_args, true)?;
        let outputs = Self::device_results(f, &buffers, &vals)?;
        let fault = f.fault_buffer().map(|b| (fi, buffers[b].clone()));
        let commands = recorder.batch.finish().map_err(|e| device.vk(e))?;
        Ok(Recording {
            outputs,
            commands: Arc::new(commands),
            uses: recorder.uses,
            infos: recorder.infos,
            fault,
        })
    }
}
