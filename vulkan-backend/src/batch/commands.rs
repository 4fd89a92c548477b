//! The `vkCmd*` calls of a [`CommandBatch`]: each command as data
//! ([`Cmd`]: borrowed while recording, owned in a reusable batch's log)
//! and the one place that issues it into the batch's
//! command buffer ([`CommandBatch::issue`]). A reusable batch logs every
//! command it issues, so that a timed [`execute`](CommandBatch::execute)
//! can issue them again into its own buffer with a timestamp pair around
//! each dispatch: the queries of a secondary buffer would be shared by
//! all its executions, so an executed recording was not timed before.

use std::borrow::Cow;

use ash::vk;

use super::CommandBatch;

/// One command: borrowed from its caller while recording
/// (`Cow::Borrowed`, no allocation), owned when a reusable batch logs it
/// (`Cmd<'static>`, [`into_owned`](Cmd::into_owned)).
#[derive(Clone, Debug)]
pub(super) enum Cmd<'a> {
    /// A global memory barrier between compute and transfer work.
    Barrier,
    /// A dispatch: the pipeline bound (unless it is already), its sets,
    /// push constants at their offset, then the groups.
    Dispatch {
        pipeline: vk::Pipeline,
        layout: vk::PipelineLayout,
        sets: Cow<'a, [vk::DescriptorSet]>,
        push: Option<(u32, Cow<'a, [u8]>)>,
        groups: [u32; 3],
    },
    /// A buffer-to-buffer copy.
    Copy {
        src: vk::Buffer,
        dst: vk::Buffer,
        regions: Cow<'a, [vk::BufferCopy]>,
    },
    /// A fill with a 32-bit word.
    Fill {
        dst: vk::Buffer,
        start: u64,
        size: u64,
        word: u32,
    },
    /// An update carried in the command buffer.
    Update {
        dst: vk::Buffer,
        start: u64,
        data: Cow<'a, [u8]>,
    },
}

impl Cmd<'_> {
    /// The command with its slices owned.
    fn into_owned(self) -> Cmd<'static> {
        let own = |c: Cow<'_, [_]>| Cow::Owned(c.into_owned());
        match self {
            Cmd::Barrier => Cmd::Barrier,
            Cmd::Dispatch {
                pipeline,
                layout,
                sets,
                push,
                groups,
            } => Cmd::Dispatch {
                pipeline,
                layout,
                sets: Cow::Owned(sets.into_owned()),
                push: push.map(|(offset, bytes)| (offset, own(bytes))),
                groups,
            },
            Cmd::Copy { src, dst, regions } => Cmd::Copy {
                src,
                dst,
                regions: Cow::Owned(regions.into_owned()),
            },
            Cmd::Fill {
                dst,
                start,
                size,
                word,
            } => Cmd::Fill {
                dst,
                start,
                size,
                word,
            },
            Cmd::Update { dst, start, data } => Cmd::Update {
                dst,
                start,
                data: own(data),
            },
        }
    }
}

impl CommandBatch {
    /// Issues `cmd` into the batch's command buffer (which is recording:
    /// callers `begin` first and have checked the command), and logs it
    /// when the batch is reusable.
    pub(super) fn issue(&mut self, cmd: &Cmd<'_>) {
        let (d, cb) = (&self.device.raw, self.cb);
        match cmd {
            Cmd::Barrier => {
                let barrier = [vk::MemoryBarrier::default()
                    .src_access_mask(
                        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE,
                    )
                    .dst_access_mask(
                        vk::AccessFlags::SHADER_READ
                            | vk::AccessFlags::SHADER_WRITE
                            | vk::AccessFlags::TRANSFER_READ
                            | vk::AccessFlags::TRANSFER_WRITE,
                    )];
                let stages =
                    vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
                self.device.note_call();
                // SAFETY: the command buffer is recording; a global memory
                // barrier between stages a compute queue has.
                unsafe {
                    d.cmd_pipeline_barrier(
                        cb,
                        stages,
                        stages,
                        vk::DependencyFlags::empty(),
                        &barrier,
                        &[],
                        &[],
                    )
                };
            }
            Cmd::Dispatch {
                pipeline,
                layout,
                sets,
                push,
                groups,
            } => {
                // SAFETY (each call below): the command buffer is
                // recording; the pipeline, its layout and the sets
                // (allocated from its layouts, written before the first
                // issue) are live and kept alive by this batch, or by the
                // recording it executes, until the work completes; push
                // bytes match the layout's range and the group counts the
                // limits (checked when the dispatch was first recorded).
                if self.bound != *pipeline {
                    self.device.note_call();
                    unsafe { d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, *pipeline) };
                    self.bound = *pipeline;
                }
                if !sets.is_empty() {
                    self.device.note_call();
                    unsafe {
                        d.cmd_bind_descriptor_sets(
                            cb,
                            vk::PipelineBindPoint::COMPUTE,
                            *layout,
                            0,
                            sets,
                            &[],
                        )
                    };
                }
                if let Some((offset, bytes)) = push {
                    self.device.note_call();
                    unsafe {
                        d.cmd_push_constants(
                            cb,
                            *layout,
                            vk::ShaderStageFlags::COMPUTE,
                            *offset,
                            bytes,
                        )
                    };
                }
                self.device.note_call();
                unsafe { d.cmd_dispatch(cb, groups[0], groups[1], groups[2]) };
            }
            Cmd::Copy { src, dst, regions } => {
                self.device.note_call();
                // SAFETY: recording; both buffers are live and kept alive;
                // every region lies inside its slice, and regions of one
                // buffer do not overlap (checked when first recorded).
                unsafe { d.cmd_copy_buffer(cb, *src, *dst, regions) };
            }
            Cmd::Fill {
                dst,
                start,
                size,
                word,
            } => {
                self.device.note_call();
                // SAFETY: recording; the buffer is live and kept alive;
                // offset and size are multiples of 4 inside the slice's
                // reservation (checked when first recorded).
                unsafe { d.cmd_fill_buffer(cb, *dst, *start, *size, *word) };
            }
            Cmd::Update { dst, start, data } => {
                self.device.note_call();
                // SAFETY: recording; the buffer is live and kept alive;
                // offset and size are multiples of 4, at most 65536, inside
                // the slice (checked when first recorded).
                unsafe { d.cmd_update_buffer(cb, *dst, *start, data) };
            }
        }
        if self.reusable {
            self.log.push(cmd.clone().into_owned());
        }
    }

    /// Writes timestamp `half` (0 before a dispatch, 1 after) of the query
    /// pair `query` (from `timestamp_query`), if any. Both wait for
    /// everything recorded before (BOTTOM_OF_PIPE): a TOP_OF_PIPE stamp is
    /// written as soon as the command is reached, while the previous
    /// dispatch still runs, so on a GPU an interval could hold the previous
    /// dispatch's tail and the sum of a batch's intervals overcount its GPU
    /// time; so the intervals tile the batch's timeline.
    pub(super) fn stamp(&mut self, query: Option<(vk::QueryPool, u32)>, half: u32) {
        if let Some((pool, q)) = query {
            self.device.note_call();
            // SAFETY: recording; the pool is this batch's own and its
            // queries were reset in this command buffer before their first
            // write (`timestamp_query`).
            unsafe {
                self.device.raw.cmd_write_timestamp(
                    self.cb,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    pool,
                    q + half,
                )
            };
        }
    }
}
