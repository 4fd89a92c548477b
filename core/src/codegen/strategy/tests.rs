//! Unit tests of the strategy choice, and the shapes and targets the
//! family files' tests share.

use crate::codegen::target::DriverFacts;
use crate::grammar::Capability;
use crate::target::TargetEnv;
use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::regions::OpFamily;
use super::super::target::CodegenTarget;
use super::*;

/// An f32 `m x k x n` matmul's dispatch shape.
pub(in crate::codegen::strategy) fn matmul_shape(m: u64, k: u64, n: u64) -> DispatchShape {
    DispatchShape {
        family: OpFamily::Contraction,
        points: vec![Size::Static(m), Size::Static(n)],
        point_dims: Vec::new(),
        reduction: Some(Size::Static(k)),
        fold: Fold::Combinable,
        elems: vec![ElemType::F32],
        acc_elems: vec![ElemType::F32],
        operands: OperandReuse::Staged,
        reduction_reads: ReductionReads::Innermost,
        coop_matmul: None,
        row_stream: None,
        row_passes: 0,
    }
}

/// `t` with f16 stored natively (`Float16` and 16-bit storage access).
pub(in crate::codegen::strategy) fn with_native_f16(t: &CodegenTarget) -> CodegenTarget {
    let mut native = t.clone();
    native
        .env
        .vce
        .capabilities
        .extend([Capability::Float16, Capability::StorageBuffer16BitAccess]);
    native
}

/// A target with `invocations` per workgroup and `memory` bytes of
/// workgroup memory, no driver quirks.
pub(in crate::codegen::strategy) fn gpu(invocations: u32, memory: u32) -> CodegenTarget {
    let mut env = TargetEnv::default();
    env.limits.max_compute_workgroup_invocations = invocations;
    env.limits.max_compute_workgroup_size = [invocations, invocations, 64];
    env.limits.max_compute_shared_memory_size = memory;
    CodegenTarget::new(
        env,
        DriverFacts {
            loop_iteration_cap: None,
            barriers_serialize: false,
            texel_reads: None,
            word_stores: false,
        },
    )
}

pub(in crate::codegen::strategy) fn chosen(t: &CodegenTarget, shape: &DispatchShape) -> Strategy {
    choose(t, shape, crate::ir::Location::UNKNOWN).unwrap()
}

#[test]
fn gpus_take_workgroup_memory_tiles_within_their_limits() {
    let big = gpu(1024, 49152);
    let s = chosen(&big, &matmul_shape(4096, 4096, 4096));
    assert_eq!(
        s.distribution,
        Distribution::SharedTile {
            block_rows: 128,
            block_cols: 128,
            depth: 16,
            rows: 8,
            cols: 8,
            // Two 16 KiB stages would take more than half of 48 KiB.
            double: false,
        }
    );
    assert_eq!(s.workgroup_size, [256, 1, 1]);
    assert_eq!(s.workgroup_memory, s.distribution.shared_tile_bytes());
    let medium = chosen(&big, &matmul_shape(512, 512, 512));
    assert!(matches!(
        medium.distribution,
        Distribution::SharedTile {
            block_rows: 64,
            block_cols: 64,
            ..
        }
    ));
    let small = chosen(&big, &matmul_shape(20, 300, 1000));
    assert!(matches!(
        small.distribution,
        Distribution::SharedTile {
            block_rows: 32,
            block_cols: 32,
            ..
        }
    ));
    // Fewer invocations and 16 KiB: a smaller block that fits both.
    let limited = gpu(128, 16384);
    let s = chosen(&limited, &matmul_shape(4096, 4096, 4096));
    let wg = s.distribution.shared_tile_invocations().unwrap();
    assert!(wg <= 128 && s.workgroup_size == [wg, 1, 1], "{s}");
    assert!(s.workgroup_memory <= 16384, "{s}");
}

#[test]
fn a_discrete_gpu_takes_blocks_that_fill_it() {
    let mut t = gpu(1024, 49152);
    t.env.device.device_type = crate::target::DeviceType::DiscreteGpu;
    let block = |s: &Strategy| match s.distribution {
        Distribution::SharedTile {
            block_rows,
            block_cols,
            ..
        } => Some((block_rows, block_cols)),
        _ => None,
    };
    // 4096^2: 1,024 blocks of 128 x 128 fill it.
    let s = chosen(&t, &matmul_shape(4096, 4096, 4096));
    assert_eq!(block(&s), Some((128, 128)), "{s}");
    // 1024^2: 256 blocks of 64 x 64 (the medium outputs' block) run
    // the whole fill.
    let s = chosen(&t, &matmul_shape(1024, 1024, 1024));
    assert_eq!(block(&s), Some((64, 64)), "{s}");
    // 2048^2: 256 blocks of 128 x 128 run the whole fill.
    let s = chosen(&t, &matmul_shape(2048, 2048, 2048));
    assert_eq!(block(&s), Some((128, 128)), "{s}");
    // A transformer's 128 x 256 projection: small blocks, at least an
    // eighth of the fill.
    let s = chosen(&t, &matmul_shape(128, 256, 256));
    let (r, c) = block(&s).expect("a shared tile");
    let n = 128u64.div_ceil(u64::from(r)) * 256u64.div_ceil(u64::from(c));
    assert!(n * u64::from(s.workgroup_size[0]) >= 8192, "{s}");
    // 8 x 8 outputs cannot fill it: the register tile's finer split.
    let s = chosen(&t, &matmul_shape(8, 64, 8));
    assert!(block(&s).is_none(), "{s}");
}

#[test]
fn serializing_barriers_keep_register_tiles_and_tune_may_try_shared_ones() {
    let mut lavapipe = gpu(1024, 32768);
    lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
    let shape = matmul_shape(512, 512, 512);
    let s = chosen(&lavapipe, &shape);
    assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
    let c = candidates(&lavapipe, &shape, crate::ir::Location::UNKNOWN).unwrap();
    assert!(c
        .iter()
        .any(|c| matches!(c.distribution, Distribution::SharedTile { .. })));
    // kiln's CPU runner (cheap barriers as far as the facts say, a
    // CPU device) keeps them too.
    let mut cpu = gpu(1024, 32768);
    cpu.env.device.device_type = crate::target::DeviceType::Cpu;
    let s = chosen(&cpu, &shape);
    assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
    // Every shared candidate is consistent: its invocations, and its
    // staging divides evenly over them.
    for ch in &c {
        if let Some(wg) = ch.distribution.shared_tile_invocations() {
            assert_eq!(wg, ch.workgroup, "{}", ch.to_text());
        }
    }
}

#[test]
fn shapes_without_staged_operands_keep_other_strategies() {
    let big = gpu(1024, 49152);
    let mut shape = matmul_shape(512, 512, 512);
    shape.operands = OperandReuse::Tile;
    let s = chosen(&big, &shape);
    assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
    // 64-bit elements do not take workgroup-memory tiles.
    let mut shape = matmul_shape(512, 512, 512);
    shape.elems = vec![ElemType::I64];
    let s = chosen(&big, &shape);
    assert!(
        !matches!(s.distribution, Distribution::SharedTile { .. }),
        "{s}"
    );
    // A dynamic reduction neither.
    let mut shape = matmul_shape(512, 512, 512);
    shape.reduction = Some(Size::Slot(0));
    let s = chosen(&big, &shape);
    assert!(
        !matches!(s.distribution, Distribution::SharedTile { .. }),
        "{s}"
    );
}

/// An f32 softmax over rows of `len`, `rows` of them.
pub(in crate::codegen::strategy) fn softmax_shape(rows: u64, len: u64) -> DispatchShape {
    DispatchShape {
        family: OpFamily::Softmax,
        points: vec![Size::Static(rows)],
        point_dims: Vec::new(),
        reduction: Some(Size::Static(len)),
        fold: Fold::Serial,
        operands: OperandReuse::None,
        reduction_reads: ReductionReads::Innermost,
        row_passes: 3,
        ..matmul_shape(1, 1, 1)
    }
}

/// Long f32 softmax rows take a row per subgroup where barriers
/// serialize (lavapipe) and subgroup arithmetic is there, combined by
/// the subgroup alone; only where the smallest subgroup the device
/// may run is the slice. Without subgroup arithmetic, a row per
/// invocation as before; on a GPU, a workgroup per row.
#[test]
fn long_softmax_rows_take_a_subgroup_each_on_lavapipe() {
    let mut lavapipe = gpu(1024, 32768);
    lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
    lavapipe.env.limits.subgroup_size = 8;
    lavapipe.env.limits.min_subgroup_size = Some(8);
    let mut plain = lavapipe.clone();
    for cap in [
        Capability::GroupNonUniform,
        Capability::GroupNonUniformArithmetic,
    ] {
        lavapipe.env.vce.capabilities.push(cap);
    }
    let s = chosen(&lavapipe, &softmax_shape(1024, 4096));
    assert_eq!(s.distribution, Distribution::RowSlices { slice: 8 }, "{s}");
    assert_eq!(
        s.reduction,
        Some(ReductionStrategy::Rows {
            combine: Some(Combine::OneSubgroup)
        })
    );
    assert_eq!((s.workgroup_size[0], s.workgroup_memory), (256, 0));
    let s = chosen(&lavapipe, &softmax_shape(100, 4096));
    assert_eq!(s.workgroup_size[0], 64, "{s}");
    // Short rows stay one per invocation; so do rows the subgroup's
    // vec4 groups do not divide.
    for len in [256, 1000] {
        let s = chosen(&lavapipe, &softmax_shape(1024, len));
        assert_eq!(
            s.distribution,
            Distribution::Points { per_invocation: 1 },
            "{len}: {s}"
        );
    }
    // Subgroups that may be smaller than the reported size: no slice.
    let mut varying = lavapipe.clone();
    varying.env.limits.min_subgroup_size = Some(4);
    assert!(!varying.is_one_subgroup(8));
    let s = chosen(&varying, &softmax_shape(1024, 4096));
    assert_eq!(
        s.distribution,
        Distribution::Points { per_invocation: 1 },
        "{s}"
    );
    let s = chosen(&plain, &softmax_shape(1024, 4096));
    assert_eq!(
        s.distribution,
        Distribution::Points { per_invocation: 1 },
        "{s}"
    );
    plain.facts.barriers_serialize = false;
    let s = chosen(&plain, &softmax_shape(1024, 4096));
    assert_eq!(s.distribution, Distribution::WorkgroupPerPoint, "{s}");
}

#[test]
fn lavapipe_takes_wide_tiles_that_pad_least() {
    let mut lavapipe = gpu(1024, 32768);
    lavapipe
        .env
        .vce
        .capabilities
        .push(Capability::SampledBuffer);
    lavapipe.env.limits.subgroup_size = 8;
    lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
    let tile_of = |t: &CodegenTarget, shape: &DispatchShape| {
        let s = chosen(t, shape);
        match s.distribution {
            Distribution::Tile { rows, cols, .. } => (s.workgroup_size[0], rows, cols),
            other => panic!("{other:?}"),
        }
    };
    let mm = |t: &CodegenTarget, m, k, n| tile_of(t, &matmul_shape(m, k, n));
    // 32 columns where 32 invocations cover the columns exactly ...
    assert_eq!(mm(&lavapipe, 1024, 1024, 1024), (32, 32, 32));
    // ... or 16 do.
    assert_eq!(mm(&lavapipe, 512, 512, 512), (16, 32, 32));
    // 1000 rows = 40 x 25: the least padding among 24..32 rows.
    assert_eq!(mm(&lavapipe, 1000, 64, 512), (16, 25, 32));
    // 64 columns (a convolution's filters): 8 columns per invocation
    // and 8 invocations; 54 x 54 output rows = 108 tiles of 27.
    assert_eq!(mm(&lavapipe, 2916, 576, 64), (8, 27, 8));
    // 128 x 256 outputs: 32 rows would leave 4 tiles; 16 leave 8.
    assert_eq!(mm(&lavapipe, 128, 256, 256), (8, 16, 32));
    // 54 rows: 6 rows of 32 columns leave 9 tiles and pad nothing.
    assert_eq!(mm(&lavapipe, 54, 576, 1024), (32, 6, 32));
    // 508 columns (Magika's convolution, 512 filters x 508 output
    // rows): no workgroup covers them exactly; 16 invocations of 32
    // columns pad 4 of them.
    assert_eq!(mm(&lavapipe, 512, 1280, 508), (16, 32, 32));
    // 100 columns: every fit pads more than a sixteenth, no texel tile.
    assert_ne!(mm(&lavapipe, 512, 512, 100).2, 32);
    // 8 reduction steps per iteration on lavapipe, 4 elsewhere.
    let depth = |t: &CodegenTarget| match chosen(t, &matmul_shape(1024, 1024, 1024)).distribution {
        Distribution::Tile { depth, .. } => depth,
        other => panic!("{other:?}"),
    };
    assert_eq!(depth(&lavapipe), 8);
    // Without texel reads, and on a GPU: at most 16 rows of 4.
    let mut plain = lavapipe.clone();
    plain.facts.texel_reads = None;
    assert_eq!(mm(&plain, 1024, 1024, 1024).1, 16);
    assert_eq!(mm(&plain, 1024, 1024, 1024).2, 4);
    assert_eq!(mm(&gpu(1024, 0), 1024, 1024, 1024).1, 16);
    assert_eq!(depth(&plain), 4);
    assert_eq!(depth(&gpu(1024, 0)), 4);
    // f16 operands are not texels.
    let mut f16 = matmul_shape(1024, 1024, 1024);
    f16.elems = vec![ElemType::F16, ElemType::F32];
    assert_eq!(tile_of(&lavapipe, &f16).1, 16);
    assert_eq!(tile_of(&lavapipe, &f16).2, 4);
    // Stored natively (read through RGBA16F views), f16 operands take
    // the deep tile where they accumulate in f32, and at most 256
    // points 4 steps deep where the accumulator is f16 (rounded at
    // every step).
    let native = with_native_f16(&lavapipe);
    let tile = |acc: ElemType| {
        let mut sh = matmul_shape(512, 512, 512);
        sh.elems = vec![ElemType::F16, acc];
        sh.acc_elems = vec![acc];
        match chosen(&native, &sh).distribution {
            Distribution::Tile { rows, cols, depth } => (rows, cols, depth),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(tile(ElemType::F32), (32, 32, 8));
    assert_eq!(tile(ElemType::F16), (16, 16, 4));
}
