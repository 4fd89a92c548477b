//! Split-K ([`ReductionStrategy::SplitK`]): a contraction whose outputs
//! are too few to fill a GPU (a 64 x 64 output with K = 16,384 runs 1,024
//! invocations of 2 x 2 register tiles, on a device that wants 65,536)
//! cuts its reduction into slices, each slice run by its own copy of the
//! tiles, and a second dispatch sums the slices' partial results.
//!
//! The heuristic takes it only on a device whose fill is known
//! ([`CodegenTarget::fill_invocations`]: never on lavapipe or other CPU
//! devices, where `kiln tune` may still try it), for a combinable
//! reduction (reassociation allowed, as for the cooperative split) of a
//! static length with at least [`MIN_SLICE`] iterations per slice, and
//! only where the unsplit heuristic would run fewer than half the fill.

use super::super::host::Size;
use super::super::target::CodegenTarget;
use super::tiles::{register_tile, shared_tile_pick, shared_tiles};
use super::{DispatchShape, Distribution, Fold, ReductionStrategy, Strategy};

/// The fewest reduction iterations one slice runs (shorter slices spend
/// more on the partials' round trip through memory than they save).
pub const MIN_SLICE: u64 = 256;

/// Slices start at multiples of this many iterations: the register
/// tile's vec4 unroll (4) and the workgroup-memory tiles' steps (8, 16)
/// then stay whole within a slice.
const SLICE_ALIGN: u64 = 16;

/// The most slices a reduction is cut into.
const MAX_SLICES: u32 = 64;

/// The slice counts `kiln tune` tries (those valid for the reduction).
const TUNED_SLICES: [u32; 4] = [2, 4, 16, 64];

/// `(slices, iterations per slice)` of a reduction of `total` iterations
/// asked to split `requested` ways: slices of `ceil(total / requested)`
/// iterations rounded up to a multiple of 16, as many as needed to cover
/// `total` (so possibly fewer than `requested`; the last one is the
/// shortest).
pub fn split_slices(total: u64, requested: u32) -> (u32, u64) {
    let want = total.div_ceil(u64::from(requested.max(1))).max(1);
    let slice = want.div_ceil(SLICE_ALIGN) * SLICE_ALIGN;
    let slices = u32::try_from(total.div_ceil(slice)).unwrap_or(u32::MAX);
    (slices.max(1), slice)
}

/// The reduction length of a dispatch that may be split: a combinable
/// reduction of a static length over at least two point dimensions whose
/// operands a tile shares, long enough for two slices.
pub(super) fn splittable(shape: &DispatchShape) -> Option<u64> {
    if shape.fold != Fold::Combinable
        || !shape.operands.tile_shares_loads()
        || shape.points.len() < 2
    {
        return None;
    }
    shape
        .reduction
        .and_then(|r| r.fixed())
        .filter(|&r| r >= 2 * MIN_SLICE)
}

/// Whether `requested` slices is a valid split of `total`: it splits
/// exactly that many ways, each slice at least [`MIN_SLICE`] long.
pub(super) fn valid_slices(total: u64, requested: u32) -> bool {
    let (slices, slice) = split_slices(total, requested);
    (2..=MAX_SLICES).contains(&requested) && slices == requested && slice >= MIN_SLICE
}

/// The split-K reduction of `requested` slices over `total` iterations.
pub(super) fn reduction(total: u64, requested: u32) -> ReductionStrategy {
    let (slices, slice) = split_slices(total, requested);
    ReductionStrategy::SplitK { slices, slice }
}

/// The invocations a tile distribution runs over the static points of
/// `shape` with `wg` invocations per workgroup.
fn tile_invocations(shape: &DispatchShape, wg: u32, d: &Distribution) -> Option<u64> {
    let n = shape.points.len();
    let batch: u64 = shape.points[..n.checked_sub(2)?]
        .iter()
        .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?))?;
    let (rows, cols) = (shape.points[n - 2].fixed()?, shape.points[n - 1].fixed()?);
    let (br, bc) = match *d {
        Distribution::Tile { rows, cols, .. } => (u64::from(rows), u64::from(wg) * u64::from(cols)),
        Distribution::SharedTile {
            block_rows,
            block_cols,
            ..
        } => (u64::from(block_rows), u64::from(block_cols)),
        _ => return None,
    };
    Some(batch * rows.div_ceil(br.max(1)) * cols.div_ceil(bc.max(1)) * u64::from(wg))
}

/// The heuristic's split-K on a GPU with cheap barriers: `(invocations
/// per workgroup, tile, slices)`, or `None` where the target's fill is
/// unknown, the dispatch is not [`splittable`], or the unsplit heuristic
/// (a workgroup-memory tile, else a register tile, else a point per
/// invocation) already runs half the fill.
///
/// The tile: of the workgroup-memory tiles the one running the most
/// invocations (the first such), else the register tile; the slices: the
/// fewest (a power of two) that bring its invocations to the fill, at
/// most as many as keep [`MIN_SLICE`] iterations per slice.
pub(super) fn pick(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<(u32, Distribution, u32)> {
    let fill = target.fill_invocations()?;
    let total = splittable(shape)?;
    let points = shape.static_points()?;
    let register = register_tile(target, shape, max_inv).map(|t| (t.workgroup, t.distribution()));
    let unsplit = shared_tile_pick(target, shape, max_inv)
        .or(register)
        .and_then(|(wg, d)| tile_invocations(shape, wg, &d))
        .unwrap_or(points);
    if unsplit >= fill / 2 {
        return None;
    }
    let mut best: Option<(u32, Distribution, u64)> = None;
    for (wg, d) in shared_tiles(target, shape, max_inv) {
        let inv = tile_invocations(shape, wg, &d)?;
        if best.is_none_or(|(_, _, b)| inv > b) {
            best = Some((wg, d, inv));
        }
    }
    let (wg, d, inv) = match best {
        Some(b) => b,
        None => {
            let (wg, d) = register?;
            (wg, d, tile_invocations(shape, wg, &d)?)
        }
    };
    let wanted = fill.div_ceil(inv.max(1)).next_power_of_two();
    let slices = (1..=MAX_SLICES.trailing_zeros())
        .map(|p| 1u32 << p)
        .filter(|&s| valid_slices(total, s))
        .take_while(|&s| u64::from(s) <= wanted)
        .last()?;
    Some((wg, d, slices))
}

/// The slice counts `kiln tune` tries for a tile of a [`splittable`]
/// dispatch with `total` reduction iterations: 2, 4, 16 and 64 where valid,
/// and the heuristic's own `also`.
pub(super) fn tuned_slices(total: u64, also: Option<u32>) -> Vec<u32> {
    let mut out: Vec<u32> = also.into_iter().collect();
    for s in TUNED_SLICES {
        if valid_slices(total, s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The slices of a strategy's split-K reduction or split softmax rows,
/// if it has them (a [`Choice`](super::Choice)'s `split_k`).
pub(super) fn slices_of(s: &Strategy) -> Option<u32> {
    match s.reduction {
        Some(ReductionStrategy::SplitK { slices, .. })
        | Some(ReductionStrategy::SplitRows { slices, .. }) => Some(slices),
        _ => None,
    }
}

/// The reason line of a split-K strategy.
pub(super) fn reason(shape: &DispatchShape, wg: u32, slices: u32, fill: Option<u64>) -> String {
    let size = |s: &Size| match s {
        Size::Static(n) => n.to_string(),
        Size::Slot(_) => "?".into(),
    };
    let n = shape.points.len();
    format!(
        "{} x {} outputs too few to fill the device{} and a long combinable reduction ({}): split-K into {slices} slices, tiles of {wg} invocations",
        size(&shape.points[n - 2]),
        size(&shape.points[n - 1]),
        fill.map_or(String::new(), |f| format!(" ({f} invocations)")),
        shape.reduction.as_ref().map_or("?".into(), size),
    )
}

#[cfg(test)]
mod tests {
    use super::super::{candidates, Choice, Tuning};
    use super::*;
    use crate::codegen::target::DriverFacts;
    use crate::target::DeviceType;

    use super::super::tests::{chosen, gpu, matmul_shape as matmul};

    fn discrete() -> CodegenTarget {
        let mut t = gpu(1024, 49152);
        t.env.device.device_type = DeviceType::DiscreteGpu;
        t
    }

    #[test]
    fn slices_cover_the_reduction_with_aligned_slices() {
        assert_eq!(split_slices(16384, 64), (64, 256));
        assert_eq!(split_slices(8192, 16), (16, 512));
        // Not divisible: the last slice is shorter.
        assert_eq!(split_slices(1000, 4), (4, 256));
        assert_eq!(split_slices(1001, 3), (3, 336));
        // Asked for more than 16-aligned slices allow: fewer.
        assert_eq!(split_slices(100, 16), (7, 16));
        for (total, n) in [(513, 2), (16383, 64), (777, 3), (4096, 5)] {
            let (s, len) = split_slices(total, n);
            assert_eq!(len % 16, 0);
            assert!(u64::from(s - 1) * len < total && u64::from(s) * len >= total);
        }
        assert!(valid_slices(16384, 64));
        assert!(!valid_slices(16384, 128));
        assert!(!valid_slices(1000, 8));
    }

    #[test]
    fn small_outputs_with_long_reductions_split_on_a_discrete_gpu() {
        let t = discrete();
        for (m, k, n) in [
            (64, 16384, 64),
            (128, 8192, 128),
            (1, 8192, 300),
            (8, 2048, 8),
        ] {
            let s = chosen(&t, &matmul(m, k, n));
            let Some(ReductionStrategy::SplitK { slices, slice }) = s.reduction else {
                panic!("{m}x{k}x{n}: {s}");
            };
            assert!(slices >= 2 && slice >= MIN_SLICE, "{s}");
            assert!(u64::from(slices) * slice >= k, "{s}");
            assert!(s.to_string().contains("split-K"), "{s}");
            let inv =
                tile_invocations(&matmul(m, k, n), s.workgroup_size[0], &s.distribution).unwrap();
            assert!(inv * u64::from(slices) <= 4 * (1 << 16), "{s}");
        }
        // 64 x 64 x 16384 reaches the fill.
        let s = chosen(&t, &matmul(64, 16384, 64));
        let inv = tile_invocations(&matmul(64, 16384, 64), s.workgroup_size[0], &s.distribution);
        assert!(
            inv.unwrap() * u64::from(slices_of(&s).unwrap()) >= 1 << 16,
            "{s}"
        );
        // Outputs that fill the device, or short reductions: no split.
        for (m, k, n) in [(1024, 4096, 1024), (64, 256, 64), (4096, 1024, 4096)] {
            let s = chosen(&t, &matmul(m, k, n));
            assert!(slices_of(&s).is_none(), "{m}x{k}x{n}: {s}");
        }
        // Not combinable or a dynamic reduction: no split.
        let mut shape = matmul(64, 16384, 64);
        shape.fold = Fold::Serial;
        assert!(slices_of(&chosen(&t, &shape)).is_none());
        shape = matmul(64, 16384, 64);
        shape.reduction = Some(Size::Slot(0));
        assert!(slices_of(&chosen(&t, &shape)).is_none());
    }

    #[test]
    fn cpu_devices_split_only_when_tuned() {
        let mut t = discrete();
        t.env.device.device_type = DeviceType::Cpu;
        let shape = matmul(64, 16384, 64);
        let s = chosen(&t, &shape);
        assert!(slices_of(&s).is_none(), "{s}");
        let mut lavapipe = discrete();
        lavapipe.env.device.device_type = DeviceType::Cpu;
        lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        let c = candidates(&lavapipe, &shape, crate::ir::Location::UNKNOWN).unwrap();
        let split: Vec<&Choice> = c.iter().filter(|c| c.split_k.is_some()).collect();
        assert!(!split.is_empty(), "{c:?}");
        // A tuned split is taken.
        let mut tuning = Tuning::new();
        let key =
            super::super::tuning_key(shape.family, &shape.points, shape.reduction, &shape.elems);
        tuning.insert(&key, *split[0], "");
        let tuned = lavapipe.clone().with_tuning(tuning);
        let s = chosen(&tuned, &shape);
        assert_eq!(slices_of(&s), split[0].split_k, "{s}");
        assert_eq!(s.distribution, split[0].distribution);
        // And a tuned unsplit tile on a GPU whose heuristic splits.
        let g = discrete();
        let c = candidates(&g, &shape, crate::ir::Location::UNKNOWN).unwrap();
        assert!(c[0].split_k.is_some());
        let plain = c.iter().find(|c| c.split_k.is_none()).unwrap();
        let mut tuning = Tuning::new();
        tuning.insert(&key, *plain, "");
        let s = chosen(&g.with_tuning(tuning), &shape);
        assert!(slices_of(&s).is_none(), "{s}");
        assert!(matches!(
            s.reduction,
            Some(ReductionStrategy::Serial {
                chunked: false,
                chunk: 16384
            })
        ));
    }
}
