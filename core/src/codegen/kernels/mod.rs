//! Stage 5: tiling and distribution — each dispatch becomes its
//! memref-level kernels (a `gpu.module` with one `gpu.func` each), one per
//! kernel plan that the strategy stage made for it
//! (`codegen/strategy/planner/`), built with the
//! [`KernelBuilder`](crate::kernel::builder::KernelBuilder) from the
//! dispatch's ops and the plan, then lowered by the existing pipeline.
//! Which kernels exist, their workgroups, guards, repeats and scratch
//! buffers are the plans'; nothing here chooses them.
//!
//! Kernels read and write flat buffers (`memref<?xT>`, runtime arrays):
//! an element's index is its coordinates linearized row-major with the
//! tensor's sizes; static sizes are constants, dynamic ones arrive as
//! push constants (`i32`), with every run-time host scalar a kernel
//! reads. A kernel computes each point of its dispatch by evaluating the
//! stored op there: operands that live in memory are loaded; fused
//! producers, views and data movement are computed at the coordinates
//! their consumer reads (see `values.rs`); the root's reduction runs as its
//! strategy says (`reduce.rs`).
//!
//! Element types are computed in their compute type (f16 and bf16 in f32,
//! rounded to their format after every op, as the reference evaluator
//! does) and converted to their memory type on loads and stores
//! (`elem_convert.rs`).

mod body;
mod bounds;
mod coop_gather;
mod coop_matmul;
mod dispatch;
mod elem_convert;
mod emit_plan;
mod emitter;
mod int64;
mod matvec;
mod narrow;
mod point;
mod reduce;
mod row_group;
mod schedule;
mod shared_tile;
mod softmax;
mod split_k;
mod tile;
mod values;
mod vector;
mod wide;

pub use super::strategy::Repeat;
pub(crate) use dispatch::emit_dispatch;

use crate::kernel::KernelModule;

use super::bufferize::BufferId;
use super::guard::Guard;
use super::host::{Size, SlotId};

/// A push-constant word of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PushValue {
    /// A host scalar (a dynamic size or a run-time scalar of the program).
    Slot(SlotId),
    /// The high 32 bits of a 64-bit host integer (its low word is the
    /// [`Slot`](Self::Slot) word).
    SlotHigh(SlotId),
    /// The first reduction iteration of this chunk (chunked dispatches).
    ChunkBegin,
    /// One past the last reduction iteration of this chunk.
    ChunkEnd,
    /// 1 for the first chunk, else 0.
    ChunkFirst,
    /// 1 for the last chunk, else 0.
    ChunkLast,
}

/// One kernel of a dispatch.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Its entry point (and `gpu.module`) name.
    pub name: String,
    /// The memref-level module holding it.
    pub module: KernelModule,
    /// The buffer bound at each binding (set 0, binding `i`).
    pub bindings: Vec<BufferId>,
    /// Which buffers it writes (a subset of `bindings`).
    pub writes: Vec<BufferId>,
    /// Its push-constant words, in order.
    pub push: Vec<PushValue>,
    /// Invocations per workgroup.
    pub workgroup_size: [u32; 3],
    /// What it computes, in words (its plan, as `--explain` prints it).
    pub plan: String,
    /// The run-time condition under which it runs (the dispatch's other
    /// kernels cover the other runs).
    pub guard: Guard,
    /// The number of workgroups (spread over x, then y) when it runs.
    pub workgroups: Size,
    /// How many times it runs.
    pub repeat: Repeat,
    /// The bindings that bind a buffer in chunks, as `(binding, buffer,
    /// descriptors)`: the plan's chunked buffers the kernel binds as
    /// storage buffers.
    pub split: Vec<(u32, BufferId, u32)>,
    /// The bindings it reads through uniform texel views (their limit is
    /// `maxTexelBufferElements`, not the storage-buffer range).
    pub texel: Vec<u32>,
}
