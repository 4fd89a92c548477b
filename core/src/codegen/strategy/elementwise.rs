//! The strategy of elementwise and data-movement dispatches: vec4 groups
//! where the types and the last dimension allow, else points.

use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::target::CodegenTarget;
use super::{DispatchShape, Distribution, Strategy};

/// The vec4 distribution of an elementwise dispatch: `(invocations,
/// groups of 4 per invocation)`, where every element type is 32 bits (or
/// f16 stored natively) and held natively, and the last dimension is a
/// static multiple of 4 — or dynamic, or the only one (the kernel then
/// checks each group at run time and emits a group that is not whole, or
/// not in one row, point by point: [`emit_vector4`](super::super::kernels)).
/// At least 64 groups where the space is static. Four vec4 per
/// invocation; 1,024 invocations per workgroup on spaces large enough to
/// keep 64 such workgroups (the shape of the fastest hand-written add on
/// lavapipe, DRIVERS.md), else 256, else (small spaces) 64 and one vec4;
/// 256 where the space is dynamic (a 16M-element dynamic add on lavapipe:
/// 132 ms point by point, 22 ms so; a static add of 16M - 1: 34 -> 9.3
/// ms).
pub(super) fn vector4(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<(u32, u32)> {
    let aligned = match *shape.points.last()? {
        Size::Static(last) => last % 4 == 0 || shape.points.len() == 1,
        Size::Slot(_) => true,
    };
    if !aligned || shape.elems.is_empty() {
        return None;
    }
    let native_f16 = super::type_repr::f16_stored_natively(target);
    let native_i16 = super::type_repr::i16_stored_natively(target);
    if !shape.elems.iter().all(|e| match e {
        ElemType::F32 | ElemType::Int(32) => true,
        ElemType::F16 => native_f16 || native_i16,
        ElemType::BF16 => native_i16,
        _ => false,
    }) {
        return None;
    }
    let Some(points) = shape.static_points() else {
        return Some((1024.min(max_inv), 4));
    };
    let groups = points / 4;
    if groups < 64 {
        return None;
    }
    let fits = |wg: u32, per: u32| groups >= u64::from(wg) * u64::from(per) * 64;
    Some(if max_inv >= 1024 && fits(1024, 4) {
        (1024, 4)
    } else if fits(256.min(max_inv), 4) {
        (256.min(max_inv), 4)
    } else {
        (64.min(max_inv), 1)
    })
}

/// The heuristic strategy of an elementwise or data-movement dispatch
/// into `s` (which comes with its linear workgroup size): vec4 groups
/// where [`vector4`] allows them, else points, several per invocation on
/// large spaces.
pub(super) fn choose_elementwise(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
    max_inv: u32,
) {
    let linear_wg = s.workgroup_size[0];
    let points = shape.static_points();
    // Large static spaces: lavapipe runs a workgroup as one
    // LLVM-compiled loop over its invocations, so fewer, larger
    // workgroups (256 invocations, 8 points each) cut the
    // per-workgroup cost (measured on the 16M add: about 1.5x
    // faster than 64 x 4); a space of fewer than 64 such
    // workgroups keeps the smaller ones, so both cores get work.
    if let Some((wg, per)) = vector4(target, shape, max_inv) {
        s.workgroup_size = [wg, 1, 1];
        s.distribution = Distribution::Vector4 {
            per_invocation: per,
        };
        let last = match shape.points.last() {
            Some(Size::Static(n)) if n % 4 == 0 => "the last dimension a multiple of 4",
            Some(Size::Static(_)) => "one dimension (its last points one by one)",
            _ => "a dynamic space (groups checked at run time)",
        };
        s.reason = format!(
            "no reduction, {last} and 32- or 16-bit elements: {per} vec4 per invocation, {wg} invocations per workgroup"
        );
        return;
    }
    let big_wg = 256.min(max_inv);
    let per = if points.is_some_and(|p| p >= u64::from(big_wg) * 8 * 64) {
        s.workgroup_size = [big_wg, 1, 1];
        8
    } else if points.is_some_and(|p| p < u64::from(linear_wg) * 64) {
        1
    } else {
        4
    };
    let linear_wg = s.workgroup_size[0];
    s.distribution = Distribution::Points {
        per_invocation: per,
    };
    s.reason = format!(
        "no reduction: {per} point{} per invocation, {linear_wg} invocations per workgroup",
        if per == 1 { "" } else { "s" }
    );
}
