//! The one algorithm that runs a [`CompiledFunction`], whatever runs its
//! kernels: kiln-runtime on a Vulkan device and kiln-cpu on the CPU each
//! implement [`KernelExecutor`] (make a buffer, launch a kernel, read a buffer
//! back once the work before completed) and call
//! [`CompiledFunction::execute`].
//!
//! The run goes in phases. The host program is evaluated for the run's
//! sizes and scalar arguments and every buffer whose size is then known
//! is made, before any kernel runs. Dispatches run in program order; a
//! kernel that needs a host value read from tensor data (a size computed
//! on the device, or given in an input tensor) waits for it: the work
//! recorded so far completes (a host sync point), the fault word is read
//! (a kernel's index out of bounds fails the call before its data is
//! used), the element is read back and the sizes, checks, buffers and
//! workgroup counts computed from it follow.

use crate::tensor::eval::{Scalar, Tensor};

use super::bufferize::BufferId;
use super::exec::{bytes_to_elements, element_bytes, split_workgroups, KernelLaunch};
use super::guard::Cond;
use super::host::{HostError, HostValues, Size, SlotId};
use super::host_eval::{DemandError, ElementRead, HostRun};
use super::kernels::PushValue;
use super::kernels::Repeat;
use super::program::{CompiledFunction, CompiledKernel};

/// What runs the kernels of a [`CompiledFunction`] for
/// [`CompiledFunction::execute`].
pub trait KernelExecutor {
    /// The backend's error.
    type Error;

    /// The error of the call with `message` (a failed check, a limit).
    fn error(&self, message: String) -> Self::Error;

    /// Makes buffer `buffer` of `elements` elements (of its element type,
    /// rounded up to whole 32-bit words): an argument's or a constant's
    /// data as its origin says, zeros otherwise.
    fn allocate(&mut self, buffer: BufferId, elements: u64) -> Result<(), Self::Error>;

    /// Records (or runs) one launch of `kernel` on a `grid` of
    /// workgroups, after the work recorded before.
    fn launch(
        &mut self,
        kernel: &CompiledKernel,
        launch: &KernelLaunch,
        grid: [u32; 3],
    ) -> Result<(), Self::Error>;

    /// The bytes of buffer `buffer` once the work recorded so far
    /// completed.
    fn read(&mut self, buffer: BufferId) -> Result<Vec<u8>, Self::Error>;

    /// Bytes `range` of buffer `buffer` once the work recorded so far
    /// completed, and only those read back (a host sync point reads one
    /// element, or the fault word); an error where the range is beyond
    /// the buffer.
    fn read_range(
        &mut self,
        buffer: BufferId,
        range: std::ops::Range<u64>,
    ) -> Result<Vec<u8>, Self::Error>;
}

/// The limits a run's buffers and launches must fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// `maxStorageBufferRange`: the bytes of the largest buffer.
    pub max_buffer_bytes: u64,
    /// `maxComputeWorkGroupCount`.
    pub max_workgroups: [u32; 3],
}

impl CompiledFunction {
    /// Runs the function on `backend`: `arg_dim(i, d)` is dimension `d` of
    /// tensor argument `i`, `arg_scalar(i)` scalar argument `i`. Returns
    /// the run's host values once every dispatch is recorded (the results
    /// are read with [`result_values`](Self::result_values)); every buffer
    /// is made by then.
    pub fn execute<B: KernelExecutor>(
        &self,
        backend: &mut B,
        arg_dim: &dyn Fn(usize, usize) -> Option<u64>,
        arg_scalar: &dyn Fn(usize) -> Option<Scalar>,
        limits: RunLimits,
    ) -> Result<HostValues, B::Error> {
        let mut run = self
            .start_host(arg_dim, arg_scalar)
            .map_err(|e| backend.error(e.to_string()))?;
        let mut made = vec![false; self.buffers.len()];
        // Every buffer whose size is known, before any kernel runs.
        let known: Vec<BufferId> = (0..self.buffers.len())
            .filter(|&b| self.buffers[b].shape.iter().all(|&s| run.is_known(s)))
            .collect();
        self.make_buffers(backend, &run.vals, &known, &mut made, limits)?;
        // The last kernel (in run order) that writes each buffer.
        let mut last_write: Vec<Option<usize>> = vec![None; self.buffers.len()];
        let kernels = self.dispatches.iter().flat_map(|d| &d.kernels);
        for (at, k) in kernels.enumerate() {
            for &b in &k.writes {
                if let Some(w) = last_write.get_mut(b) {
                    *w = Some(at);
                }
            }
        }
        let mut at = 0usize;
        for d in &self.dispatches {
            for k in &d.kernels {
                let mut want = kernel_slots(k);
                for &b in &k.bindings {
                    want.extend(self.buffers[b].shape.iter().filter_map(slot_of));
                }
                // Every check whose operands can be read now runs before
                // this kernel, whether it needs them or not.
                let readable = |b: BufferId| {
                    made.get(b).copied().unwrap_or(false)
                        && last_write.get(b).copied().flatten().is_none_or(|w| w < at)
                };
                want.extend(self.host.decidable_checks(&run, &readable));
                at += 1;
                self.demand(backend, &mut run, want, &made)?;
                self.make_buffers(backend, &run.vals, &k.bindings, &mut made, limits)?;
                for launch in k.launches(&self.host, &run.vals) {
                    let groups = launch.workgroups;
                    let grid = split_workgroups(groups, limits.max_workgroups).ok_or_else(|| {
                        backend.error(format!(
                            "kernel @{}: {groups} workgroups exceed the device's maxComputeWorkGroupCount",
                            k.name
                        ))
                    })?;
                    backend.launch(k, &launch, grid)?;
                }
            }
        }
        // What no kernel needed: the results' sizes, the other buffers.
        let rest: Vec<SlotId> = run.unknown().collect();
        self.demand(backend, &mut run, rest, &made)?;
        let all: Vec<BufferId> = (0..self.buffers.len()).collect();
        self.make_buffers(backend, &run.vals, &all, &mut made, limits)?;
        Ok(run.vals)
    }

    /// The host program started for a run (see
    /// [`HostProgram::start`](super::host::HostProgram::start)); the sizes
    /// of dynamic constants come from their data.
    fn start_host(
        &self,
        arg_dim: &dyn Fn(usize, usize) -> Option<u64>,
        arg_scalar: &dyn Fn(usize) -> Option<Scalar>,
    ) -> Result<HostRun, HostError> {
        let source_dim = |s, d| self.source_dim(arg_dim, s, d);
        self.host.start(&source_dim, arg_scalar)
    }

    /// Makes the buffers of `which` not made yet.
    fn make_buffers<B: KernelExecutor>(
        &self,
        backend: &mut B,
        vals: &HostValues,
        which: &[BufferId],
        made: &mut [bool],
        limits: RunLimits,
    ) -> Result<(), B::Error> {
        for &b in which {
            if made[b] {
                continue;
            }
            let n = self
                .buffer_count(b, vals, limits.max_buffer_bytes)
                .map_err(|e| backend.error(e.to_string()))?;
            backend.allocate(b, n)?;
            made[b] = true;
        }
        Ok(())
    }

    /// Computes the host values `want` needs, reading elements of tensor
    /// data back where they do (after checking the fault word).
    fn demand<B: KernelExecutor>(
        &self,
        backend: &mut B,
        run: &mut HostRun,
        want: Vec<SlotId>,
        made: &[bool],
    ) -> Result<(), B::Error> {
        let mut fault = self.fault_buffer().filter(|&b| made[b]);
        let mut read = |r: ElementRead| -> Result<Scalar, ReadError<B::Error>> {
            // The fault word once per sync point: no work runs between
            // the reads of one `demand`.
            if fault.take().is_some() {
                let found = self.fault(&mut |b| backend.read_range(b, 0..4));
                match found {
                    Ok(Some(message)) => return Err(ReadError::Message(message)),
                    Ok(None) => {}
                    Err(e) => return Err(ReadError::KernelExecutor(e)),
                }
            }
            if !made.get(r.buffer).copied().unwrap_or(false) {
                return Err(ReadError::Message(format!(
                    "internal: buffer {} is read before it is made",
                    r.buffer
                )));
            }
            // Only the element's bytes come back.
            let size = element_bytes(r.elem) as u64;
            let Some(range) = r
                .index
                .checked_mul(size)
                .and_then(|at| Some(at..at.checked_add(size)?))
            else {
                return Err(ReadError::Message(format!(
                    "element {} of buffer {} is beyond any buffer",
                    r.index, r.buffer
                )));
            };
            let one = backend
                .read_range(r.buffer, range)
                .map_err(ReadError::KernelExecutor)?;
            if one.len() as u64 != size {
                return Err(ReadError::Message(format!(
                    "internal: {} bytes read back for element {} of buffer {}",
                    one.len(),
                    r.index,
                    r.buffer
                )));
            }
            let t = Tensor {
                elem: r.elem,
                shape: vec![1],
                data: bytes_to_elements(r.elem, &one, 1),
            };
            Ok(t.get(0))
        };
        match self.host.demand(run, want, &mut read) {
            Ok(()) => Ok(()),
            Err(DemandError::Host(e)) => Err(backend.error(e.to_string())),
            Err(DemandError::Read(ReadError::Message(m))) => Err(backend.error(m)),
            Err(DemandError::Read(ReadError::KernelExecutor(e))) => Err(e),
        }
    }
}

/// Why an element could not be read back.
enum ReadError<E> {
    Message(String),
    KernelExecutor(E),
}

fn slot_of(s: &Size) -> Option<SlotId> {
    match s {
        Size::Slot(i) => Some(*i),
        Size::Static(_) => None,
    }
}

/// The host values a kernel's launches read: its workgroups, chunks,
/// guard and push constants.
fn kernel_slots(k: &CompiledKernel) -> Vec<SlotId> {
    let mut out: Vec<SlotId> = std::iter::once(k.workgroups)
        .chain(k.guard.0.iter().map(|c: &Cond| c.size()))
        .filter_map(|s| slot_of(&s))
        .collect();
    if let Repeat::Chunks { total, .. } = k.repeat {
        out.extend(slot_of(&total));
    }
    out.extend(k.push.iter().filter_map(|p| match p {
        PushValue::Slot(s) | PushValue::SlotHigh(s) => Some(*s),
        _ => None,
    }));
    out
}
