//! A dispatch's kernels: each of the [`KernelPlan`]s the strategy stage
//! made for it (`codegen/strategy/planner/`) turned into a kernel, with
//! the host-side facts the plan carries (workgroups, run-time guard,
//! repeats). What each kernel computes is `emit_plan.rs`'s; the per-point
//! helpers every family shares are `point.rs`'s.

use crate::kernel::KernelModule;

use super::super::analysis::FuncInfo;
use super::super::bufferize::BufferPlan;
use super::super::error::CodegenError;
use super::super::regions::{DispatchRegion, FuncRegions};
use super::super::shapes::Shapes;
use super::super::strategy::{DispatchShape, KernelPlan, Strategy};
use super::emit_plan::emit_kernel;
use super::emitter::{Ctx, Emitter};
use super::Kernel;

/// The kernels of dispatch `d`, one per plan of `plans` (made by
/// [`plan_dispatch`](super::super::strategy::plan_dispatch) from
/// `strategy`, which added their scratch buffers and host sizes to
/// `buffers` and `shapes`), in order.
#[allow(
    clippy::too_many_arguments,
    reason = "the stages' results, each needed"
)]
pub(crate) fn emit_dispatch(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    shapes: &Shapes,
    buffers: &BufferPlan,
    d: &DispatchRegion,
    strategy: &Strategy,
    shape: &DispatchShape,
    plans: Vec<KernelPlan>,
) -> Result<Vec<Kernel>, CodegenError> {
    plans
        .into_iter()
        .map(|p| {
            let ctx = Ctx {
                info,
                regions,
                shapes,
                buffers,
                strategy,
            };
            emit_planned(ctx, d, shape, p)
        })
        .collect()
}

/// The kernel of plan `p` of dispatch `d`.
fn emit_planned(
    ctx: Ctx<'_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    p: KernelPlan,
) -> Result<Kernel, CodegenError> {
    let workgroup_size = ctx.strategy.workgroup_size;
    let described = p.plan.describe(&ctx.shapes.host);
    let loc = ctx.info.m.op(d.op).loc;
    let mut km = KernelModule::new();
    let mut e = Emitter::new(&mut km, ctx, &p.name, workgroup_size);
    e.loc = loc;
    e.computed_here = d.row_outputs.iter().map(|o| o.value).collect();
    e.point_dims = shape.point_dims.clone();
    emit_kernel(&mut e, d, shape, &p.plan)?;
    let (bindings, writes, push, split, texel) = e.finish(&p.chunked, &p.unviewed);
    Ok(Kernel {
        name: p.name,
        plan: described,
        guard: p.guard,
        module: km,
        bindings,
        writes,
        push,
        workgroup_size,
        workgroups: p.workgroups,
        repeat: p.repeat,
        split,
        texel,
    })
}
