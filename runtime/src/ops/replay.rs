//! Replays of a captured graph from a command buffer recorded once per
//! set of input shapes (CUDA graphs, IREE's reusable command buffers).
//!
//! The first [`Graph::run`](super::Graph::run) with inputs of given shapes
//! allocates the graph's own input buffers of those shapes and records
//! the graph program's dispatches with them bound, push constants and
//! group counts included ([`Program::record`]), into a reusable batch.
//! Every run with those shapes then enqueues, into the stream's batch,
//! in one call: a copy of each input into the graph's input buffer, the
//! recorded commands (`vkCmdExecuteCommands`), and a copy of each result
//! into a fresh tensor, which the run returns. Nothing is recorded again
//! and no descriptor set is written: the host cost is the copies, the
//! hazard bookkeeping and one command, however many dispatches the graph
//! has.
//!
//! Why copies rather than rewriting the recorded descriptor sets in place:
//! a descriptor set bound in a recorded command buffer cannot be written
//! without invalidating that buffer (unless every kernel's layouts were
//! made update-after-bind), nor while a submission that uses it is
//! pending, so back-to-back replays would each need their own sets (a
//! recording per replay in flight) or a host wait for the previous
//! replay. A copy costs one command on the host and the inputs' bytes on
//! the device; results are copied out so that a later replay, which
//! writes the graph's buffers again, never changes a tensor an earlier
//! one returned.
//!
//! Ordering: the run declares its accesses to the stream like any command
//! (`hazard`): its inputs and the graph's weights read, the fresh results
//! and the fault word written, so it is ordered against other work on
//! the same tensors, on any stream, and later work against it. The
//! graph's own buffers (its inputs, intermediates and results), which
//! only its replays touch, are declared as one write of a token buffer:
//! replays on two streams conflict on it and are ordered; within a batch
//! the batch's barriers order them. A graph whose kernels check indices at run time has
//! one fault word, written by every replay: once a replay found an index
//! out of range, the check fails for that replay and every later one.

use std::sync::Arc;

use kiln_vulkan::CopyRegion;

use crate::dtype::DType;
use crate::error::Result;
use crate::hazard::Use;
use crate::inner::DispatchInfo;
use crate::pieces::Pieces;
use crate::program::record::{RecordedUse, Recording};
use crate::program::Program;
use crate::stream::Stream;
use crate::tensor::Tensor;

/// An argument of a recorded function: an input of each replay (its
/// buffer the recording's own, of this dtype and shape, which each replay
/// copies its input into), or a tensor bound by reference (a weight: a
/// replay reads its contents at the time).
pub(crate) enum Bind<'a> {
    /// An input of each replay.
    Input(DType, &'a [usize]),
    /// A tensor bound by reference.
    Constant(&'a Tensor),
}

/// A graph (or any function of a program) recorded for one set of input
/// shapes.
pub(crate) struct Replay {
    /// The input shapes it was recorded for.
    pub(crate) shapes: Vec<Vec<usize>>,
    /// The graph's own input buffers, bound by the recording.
    inputs: Vec<Tensor>,
    recording: Recording,
    /// The program, for the fault word's message.
    program: Arc<kiln_core::codegen::CompiledProgram>,
    /// What fault checks name.
    what: String,
    /// The graph's constants (weights), whose index checks its results
    /// inherit.
    constants: Vec<Tensor>,
    /// What each replay declares besides its inputs and results: the
    /// recording's accesses of the weights and the fault word, and a
    /// write of `token` for the graph's own buffers.
    notes: Vec<RecordedUse>,
}

impl Replay {
    /// Records `program`'s function `graph` for inputs of the shapes and
    /// dtypes of `inputs`, with `constants` bound after them.
    pub(super) fn record(
        device: &crate::Device,
        program: &Program,
        inputs: &[&Tensor],
        constants: &[Tensor],
        what: &'static str,
    ) -> Result<Replay> {
        let mut args: Vec<Bind<'_>> = inputs
            .iter()
            .map(|t| Bind::Input(t.dtype(), t.shape()))
            .collect();
        args.extend(constants.iter().map(Bind::Constant));
        Self::record_function(device, program, "graph", &args, what)
    }

    /// Records `program`'s function `function` with `args` (in its
    /// parameters' order; the inputs of each replay are the
    /// [`Bind::Input`]s, in that order).
    pub(crate) fn record_function(
        device: &crate::Device,
        program: &Program,
        function: &str,
        args: &[Bind<'_>],
        what: &str,
    ) -> Result<Replay> {
        let mut owned: Vec<Tensor> = Vec::new();
        let mut constants: Vec<Tensor> = Vec::new();
        let mut bound: Vec<Tensor> = Vec::with_capacity(args.len());
        for a in args {
            bound.push(match a {
                Bind::Input(dtype, shape) => {
                    let t = Tensor::empty(device, *dtype, shape)?;
                    owned.push(t.clone());
                    t
                }
                Bind::Constant(t) => {
                    constants.push((*t).clone());
                    (*t).clone()
                }
            });
        }
        let recording = program.record(function, &bound)?;
        let token = Tensor::empty(device, crate::DType::U32, &[1])?;
        let mut notes: Vec<RecordedUse> = recording
            .uses
            .iter()
            .filter(|u| {
                constants
                    .iter()
                    .any(|c| Arc::ptr_eq(&c.storage, &u.storage))
                    || recording
                        .fault
                        .as_ref()
                        .is_some_and(|(_, w)| Arc::ptr_eq(&w.storage, &u.storage))
            })
            .map(|u| RecordedUse {
                storage: Arc::clone(&u.storage),
                start: u.start,
                end: u.end,
                write: u.write,
            })
            .collect();
        notes.push(RecordedUse {
            storage: Arc::clone(&token.storage),
            start: 0,
            end: 4,
            write: true,
        });
        Ok(Replay {
            shapes: owned.iter().map(|t| t.shape().to_vec()).collect(),
            inputs: owned,
            recording,
            program: program.compiled_shared(),
            what: what.to_owned(),
            constants,
            notes,
        })
    }

    /// The results a replay returns: their dtypes and shapes, in order.
    pub(crate) fn outputs(&self) -> impl Iterator<Item = (DType, &[usize])> {
        self.recording
            .outputs
            .iter()
            .map(|t| (t.dtype(), t.shape()))
    }

    /// The number of dispatches a replay runs.
    pub(crate) fn dispatches(&self) -> usize {
        self.recording.infos.len()
    }

    /// Enqueues a replay on `stream` with `inputs` (of the recorded shapes
    /// and the captured dtypes; any layout) and returns fresh results.
    pub(crate) fn enqueue(&self, stream: &Stream, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let device = &stream.inner.device;
        device.alive()?;
        let outputs: Vec<Tensor> = self
            .recording
            .outputs
            .iter()
            .map(|o| Tensor::alloc(device, o.dtype(), o.shape()))
            .collect::<Result<_>>()?;
        self.enqueue_into(stream, inputs, &outputs)?;
        Ok(outputs)
    }

    /// [`enqueue`](Self::enqueue) writing the results into `outputs`
    /// (contiguous tensors of the results' dtypes and element counts,
    /// given by the caller: a lazy stream's results, handed out before).
    pub(crate) fn enqueue_into(
        &self,
        stream: &Stream,
        inputs: &[&Tensor],
        outputs: &[Tensor],
    ) -> Result<()> {
        let device = &stream.inner.device;
        device.alive()?;
        for t in inputs.iter().copied().chain(outputs) {
            if !Arc::ptr_eq(&t.storage.device, device) {
                return Err(crate::Error::ForeignDevice { what: "a tensor" });
            }
        }
        let rec = &self.recording;
        if outputs.len() != rec.outputs.len()
            || outputs.iter().zip(&rec.outputs).any(|(o, r)| {
                !o.is_contiguous() || o.dtype() != r.dtype() || o.numel() != r.numel()
            })
        {
            return Err(crate::Error::Shape {
                what: "replay",
                reason: "internal: the results given do not match the recording's".to_owned(),
            });
        }
        // Each input's copy into the graph's buffer: the runs of its
        // layout, in row-major order (one for a contiguous input); input
        // k's regions are `regions[ends[k - 1]..ends[k]]`.
        let mut regions: Vec<CopyRegion> = Vec::with_capacity(inputs.len());
        let mut ends: Vec<usize> = Vec::with_capacity(inputs.len());
        for t in inputs {
            let size = t.dtype().size() as u64;
            let (offset, len) = t.byte_range();
            if t.is_contiguous() {
                if len > 0 {
                    regions.push(CopyRegion {
                        src_offset: offset,
                        dst_offset: 0,
                        size: len,
                    });
                }
            } else {
                let mut at = 0;
                for (start, n) in t.layout.runs() {
                    let r = CopyRegion {
                        src_offset: start as u64 * size,
                        dst_offset: at,
                        size: n as u64 * size,
                    };
                    at += r.size;
                    if r.size > 0 {
                        regions.push(r);
                    }
                }
            }
            ends.push(regions.len());
        }
        let mut uses: Vec<Use<'_>> =
            Vec::with_capacity(inputs.len() + self.notes.len() + outputs.len());
        let mut bytes = 0;
        for (t, own) in inputs.iter().zip(&self.inputs) {
            let size = t.dtype().size() as u64;
            let len = own.byte_range().1;
            let span = t.layout.span();
            uses.push(Use::read(
                &t.storage,
                span.start as u64 * size,
                (span.end - span.start) as u64 * size,
            ));
            bytes += len;
        }
        uses.extend(self.notes.iter().map(|u| Use {
            storage: &u.storage,
            start: u.start,
            end: u.end,
            write: u.write,
        }));
        for o in outputs {
            let (start, len) = o.byte_range();
            uses.push(Use::write(&o.storage, start, len));
            bytes += len;
        }
        let infos = rec.infos.iter().map(|(label, grid)| DispatchInfo {
            index: 0,
            label: Arc::clone(label),
            grid: *grid,
        });
        let transfers = (inputs.len() + outputs.len()) as u64;
        stream
            .inner
            .record_commands(infos, transfers, bytes, &uses, |batch| {
                let mut from = 0;
                for ((t, own), &end) in inputs.iter().zip(&self.inputs).zip(&ends) {
                    if end > from {
                        let r = &regions[from..end];
                        Pieces::copy_regions(batch, &t.storage.slice, &own.storage.slice, r)?;
                    }
                    from = end;
                }
                batch.execute(&rec.commands)?;
                for (own, o) in rec.outputs.iter().zip(outputs) {
                    let (from, len) = own.byte_range();
                    if len > 0 {
                        let to = o.byte_range().0;
                        Pieces::copy(batch, &own.storage.slice, from, &o.storage.slice, to, len)?;
                    }
                }
                Ok(())
            })?;
        let mut checks = crate::fault::inherited(
            inputs
                .iter()
                .map(|t| &*t.storage)
                .chain(self.constants.iter().map(|t| &*t.storage)),
        );
        if let Some((fi, word)) = &rec.fault {
            // A check of its own: one read as clear says nothing of a
            // later replay.
            let check = crate::fault::FaultCheck::new(
                self.what.to_owned(),
                Arc::clone(&self.program),
                *fi,
                word.clone(),
            );
            stream.note_fault(&check);
            checks.push(check);
        }
        crate::fault::attach(outputs, &checks);
        Ok(())
    }
}
