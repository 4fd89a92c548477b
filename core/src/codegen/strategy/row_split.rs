//! Split softmax rows ([`ReductionStrategy::SplitRows`]): a softmax of
//! few long rows (an LLM's last softmax, one row of a 128,256-token
//! vocabulary) run as a workgroup per row keeps one workgroup busy — a
//! single multiprocessor of a GPU, a single core of lavapipe. Each row is
//! cut into slices, one workgroup each; a first dispatch writes every
//! slice's maximum and sum of exponentials, a second combines the row's
//! partials and writes the slice's quotients.
//!
//! The heuristic takes it for `linalg.softmax` over static f32 rows (or
//! f16 rows read as vec4) on a
//! GPU whose fill is known ([`CodegenTarget::fill_invocations`]) where
//! the rows alone run fewer workgroups than twice the fill wants: enough
//! slices to reach it, each leaving every invocation at least
//! [`MIN_SLICE_GROUPS`] vec4 groups. Not on lavapipe, where it is a
//! `kiln tune` candidate only: there one row of 128,256 took 0.24 ms as
//! one workgroup of 8 invocations and 0.38–0.44 ms split 2 to 16 ways (the
//! second dispatch and the slices' bounds checks cost more than this
//! machine's two hardware threads gain over one).

use super::super::regions::OpFamily;
use super::super::target::CodegenTarget;
use super::{DispatchShape, ReductionStrategy, Strategy};
use crate::tensor::types::ElemType;

/// The most workgroups a row is split over.
pub const MAX_SLICES: u32 = 256;

/// The fewest vec4 groups each invocation of a slice takes.
const MIN_SLICE_GROUPS: u64 = 4;

/// The slice counts `kiln tune` tries besides the heuristic's.
const TUNED_SLICES: [u32; 5] = [2, 4, 8, 16, 64];

/// Whether a dispatch of `shape` may split its rows on `target`: a
/// softmax (`OpFamily::Softmax`; row groups are not split) of f32 rows,
/// or of f16 rows a multiple of 4 long where `target` stores f16
/// natively (read as vec4 and computed in f32), with a static number of
/// rows.
fn splittable(target: &CodegenTarget, shape: &DispatchShape) -> Option<(u64, u64)> {
    let row = shape.reduction?.fixed()?;
    // An empty row (a softmax over a zero-size dim) has nothing to split.
    if row == 0 {
        return None;
    }
    let f16 = shape.elems == [ElemType::F16]
        && row % 4 == 0
        && super::type_repr::f16_stored_natively(target);
    if shape.family != OpFamily::Softmax || !(shape.elems == [ElemType::F32] || f16) {
        return None;
    }
    Some((shape.static_points()?, row))
}

/// The heuristic's split of `shape`'s rows on `target` with workgroups of
/// `wg`: the slices per row, or `None` to keep a workgroup per row.
pub(super) fn pick(target: &CodegenTarget, shape: &DispatchShape, wg: u32) -> Option<u32> {
    let (rows, row) = splittable(target, shape)?;
    let rows = rows.max(1);
    let fill = target.fill_invocations()?;
    let wanted = (2 * fill).div_ceil(u64::from(wg) * rows);
    let most = row / (MIN_SLICE_GROUPS * 4 * u64::from(wg));
    let slices = wanted.min(most).min(u64::from(MAX_SLICES)).max(1);
    // As many slices as the kernels' slice length (whole rounds of the
    // workgroup's vec4 groups) needs: none left empty.
    let span = 4 * u64::from(wg);
    let len = row.div_ceil(slices).div_ceil(span) * span;
    let slices = u32::try_from(row.div_ceil(len)).ok()?;
    (slices >= 2).then_some(slices)
}

/// The slice counts `kiln tune` may time for `shape` (besides the
/// heuristic's): those leaving every slice at least 4 elements per
/// invocation of a workgroup of `wg` and within `target`'s loop budget,
/// for fewer than 64 rows.
pub(super) fn candidates(target: &CodegenTarget, shape: &DispatchShape, wg: u32) -> Vec<u32> {
    let Some((rows, row)) = splittable(target, shape) else {
        return Vec::new();
    };
    if rows >= 64 {
        return Vec::new();
    }
    // Within the loop budget as the dispatch counts it (two passes of
    // the slice element by element, two over the partials).
    let budget = target.loop_budget();
    TUNED_SLICES
        .into_iter()
        .filter(|&n| row >= u64::from(n) * 4 * u64::from(wg))
        .filter(|&n| {
            let slice = row.div_ceil(u64::from(n));
            slice.div_ceil(u64::from(wg)) * 2 + 2 * u64::from(n) <= budget
        })
        .collect()
}

/// Turns `s`, a softmax's workgroup-per-row strategy, into the split of
/// each row over `slices` workgroups.
pub(super) fn apply(s: &mut Strategy, slices: u32) {
    if let Some(ReductionStrategy::Rows { combine: Some(c) }) = s.reduction {
        s.reduction = Some(ReductionStrategy::SplitRows { combine: c, slices });
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{chosen, gpu, softmax_shape as softmax, with_native_f16};
    use super::super::{Combine, Distribution, ReductionStrategy};
    use super::*;
    use crate::codegen::target::DriverFacts;
    use crate::grammar::Capability;
    use crate::target::DeviceType;

    fn discrete() -> CodegenTarget {
        let mut t = gpu(1024, 49152);
        t.env.device.device_type = DeviceType::DiscreteGpu;
        t.env.limits.subgroup_size = 32;
        t.env.vce.capabilities.extend([
            Capability::GroupNonUniform,
            Capability::GroupNonUniformArithmetic,
        ]);
        t
    }

    /// On a discrete GPU one row of 128,256 (or 4 of 32,000) splits over
    /// enough workgroups of 256 that none is empty and each invocation
    /// keeps at least 4 vec4 groups; rows enough to fill the device, short
    /// rows, and f16 rows stay a workgroup per row.
    #[test]
    fn few_long_softmax_rows_split_on_a_gpu() {
        let t = discrete();
        for (rows, len) in [(1, 128_256), (4, 32_000), (2, 1 << 20)] {
            let s = chosen(&t, &softmax(rows, len));
            let Some(ReductionStrategy::SplitRows { combine, slices }) = s.reduction else {
                panic!("{rows}x{len}: {s}");
            };
            assert_eq!(s.distribution, Distribution::WorkgroupPerPoint, "{s}");
            assert_eq!(combine, Combine::Subgroup, "{s}");
            let wg = u64::from(s.workgroup_size[0]);
            let slice = len.div_ceil(u64::from(slices)).div_ceil(4 * wg) * 4 * wg;
            assert!((2..=MAX_SLICES).contains(&slices), "{s}");
            assert!(slice * u64::from(slices - 1) < len, "an empty slice: {s}");
            assert!(slice >= 16 * wg, "{s}");
            assert!(s.to_string().contains("split into"), "{s}");
        }
        assert_eq!(
            chosen(&t, &softmax(1, 128_256)).reduction,
            Some(ReductionStrategy::SplitRows {
                combine: Combine::Subgroup,
                slices: 26
            })
        );
        for (rows, len) in [(1024, 128_256), (1, 2048), (16, 4096)] {
            let s = chosen(&t, &softmax(rows, len));
            assert!(
                !matches!(s.reduction, Some(ReductionStrategy::SplitRows { .. })),
                "{rows}x{len}: {s}"
            );
        }
        // f16 rows split only where f16 is stored natively.
        let mut f16 = softmax(1, 128_256);
        f16.elems = vec![ElemType::F16];
        assert!(pick(&t, &f16, 256).is_none());
        let native = with_native_f16(&t);
        assert!(pick(&native, &f16, 256).is_some());
        let mut bf16 = f16.clone();
        bf16.elems = vec![ElemType::BF16];
        assert!(pick(&native, &bf16, 256).is_none());
        let mut group = softmax(1, 128_256);
        group.family = OpFamily::Normalization;
        assert!(pick(&t, &group, 256).is_none());
        assert!(candidates(&t, &group, 64).is_empty());
    }

    /// lavapipe keeps a row per workgroup (the split measured slower
    /// there) but offers the split to `kiln tune`; so does a device of
    /// unknown type.
    #[test]
    fn lavapipe_offers_the_split_to_kiln_tune_only() {
        let mut lavapipe = gpu(1024, 32768);
        lavapipe.env.device.device_type = DeviceType::Cpu;
        lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        let shape = softmax(1, 128_256);
        let s = chosen(&lavapipe, &shape);
        assert!(
            matches!(s.reduction, Some(ReductionStrategy::Rows { .. })),
            "{s}"
        );
        assert_eq!(candidates(&lavapipe, &shape, 8), TUNED_SLICES.to_vec());
        assert_eq!(candidates(&lavapipe, &softmax(1, 5000), 256), vec![2, 4]);
        assert!(candidates(&lavapipe, &softmax(64, 128_256), 8).is_empty());
        // A row of 2^20 split 2 or 4 ways over 8 invocations would pass
        // lavapipe's 65,535 iterations: from 8 ways on.
        assert_eq!(
            candidates(&lavapipe, &softmax(1, 1 << 20), 8),
            vec![8, 16, 64]
        );
    }
}
