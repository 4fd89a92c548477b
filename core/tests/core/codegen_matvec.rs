//! Matrix x vector by row slices (`Distribution::RowSlices`) for target
//! envs with different subgroups and drivers: an H200's takes slices of
//! its subgroup of 32 combined by `OpGroupNonUniformFAdd`, lavapipe's a
//! row per invocation (where its barriers serialize and subgroups are
//! SIMD lanes); an H200 env without `GroupNonUniformArithmetic`, or
//! whose subgroup size varies, a workgroup-memory tree — every kernel
//! passes spirv-val. `kiln tune` lists the row slices among its
//! candidates, and a vector x matrix whose matrix runs along the output
//! takes none.

use kiln_core::codegen::strategy::{Combine, Distribution, ReductionStrategy};
use kiln_core::codegen::{CodegenTarget, CompiledFunction};
use kiln_core::grammar::Capability;

use crate::common::{compile_first, h200_target as h200, lavapipe_target as lavapipe};

fn without_subgroup_arithmetic(mut t: CodegenTarget) -> CodegenTarget {
    t.env
        .vce
        .capabilities
        .retain(|c| *c != Capability::GroupNonUniformArithmetic);
    t
}

/// `@f(a, x) = matvec(a, x)` for an `m x k` f32 matrix.
fn matvec(m: usize, k: usize) -> String {
    format!(
        r#"func.func @f(%a: tensor<{m}x{k}xf32>, %x: tensor<{k}xf32>) -> tensor<{m}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{m}xf32>) -> tensor<{m}xf32>
  %r = linalg.matvec ins(%a, %x : tensor<{m}x{k}xf32>, tensor<{k}xf32>) outs(%f : tensor<{m}xf32>) -> tensor<{m}xf32>
  return %r : tensor<{m}xf32>
}}"#
    )
}

/// The opcodes of a SPIR-V binary's instructions.
fn opcodes(words: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        out.push(words[at] & 0xffff);
        at += count.max(1);
    }
    out
}

/// The one dispatch's distribution, combine, workgroup size and memory;
/// each of its kernels validated, and whether one uses
/// `OpGroupNonUniformFAdd`.
fn row_slices_of(f: &CompiledFunction) -> (Distribution, Combine, u32, u32, bool) {
    let [d] = &f.dispatches[..] else {
        panic!("{} dispatches", f.dispatches.len())
    };
    let mut fadd = false;
    for k in &d.kernels {
        kiln_core::validate::validate(&k.words, k.validation_env)
            .unwrap_or_else(|e| panic!("{}: {e}", k.name));
        fadd |= opcodes(&k.words).contains(&(spirv::Op::GroupNonUniformFAdd as u32));
    }
    let s = &d.strategy;
    let Some(ReductionStrategy::Cooperative { combine, .. }) = s.reduction else {
        panic!("{s}")
    };
    (
        s.distribution,
        combine,
        s.workgroup_size[0],
        s.workgroup_memory,
        fadd,
    )
}

#[test]
fn envs_with_different_subgroups_choose_different_row_slices_that_validate() {
    let src = matvec(4096, 4096);
    let gpu = row_slices_of(&compile_first(&src, &h200()));
    let cpu = row_slices_of(&compile_first(&src, &lavapipe()));
    assert_eq!(
        gpu,
        (
            Distribution::RowSlices { slice: 32 },
            Combine::Subgroup,
            128,
            0,
            true
        )
    );
    // lavapipe: a row per invocation (measured faster there), nothing
    // to combine.
    assert_eq!(
        cpu,
        (
            Distribution::RowSlices { slice: 1 },
            Combine::WorkgroupTree,
            64,
            0,
            false
        )
    );
    // Without subgroup arithmetic: a tree in workgroup memory, no
    // subgroup add.
    let (dist, combine, wg, memory, fadd) =
        row_slices_of(&compile_first(&src, &without_subgroup_arithmetic(h200())));
    assert_eq!(dist, Distribution::RowSlices { slice: 32 });
    assert_eq!(combine, Combine::WorkgroupTree);
    assert!(memory >= wg * 4 && !fadd, "{memory} bytes, {fadd}");
    // The program archive keeps the distribution.
    let program = kiln_core::codegen::CompiledProgram {
        target: h200(),
        functions: vec![compile_first(&src, &h200())],
    };
    let bytes = kiln_core::codegen::archive::encode(&program).unwrap();
    assert!(kiln_core::codegen::archive::decode(&bytes).unwrap() == program);
    let mut varying = h200();
    varying.env.limits.min_subgroup_size = Some(8);
    varying.env.limits.max_subgroup_size = Some(64);
    let (_, combine, ..) = row_slices_of(&compile_first(&src, &varying));
    assert_eq!(combine, Combine::WorkgroupTree);
}

#[test]
fn tune_candidates_list_row_slices_and_vecmat_takes_none() {
    let f = compile_first(&matvec(1024, 16384), &lavapipe());
    let c = &f.dispatches[0].candidates;
    let slices: Vec<u32> = c
        .iter()
        .filter_map(|c| match c.distribution {
            Distribution::RowSlices { slice } => Some(slice),
            _ => None,
        })
        .collect();
    assert!(
        [1, 4, 8, 32].iter().all(|n| slices.contains(n)),
        "{slices:?}"
    );
    // The serial loop per row stays a candidate.
    assert!(c
        .iter()
        .any(|c| c.distribution == Distribution::Points { per_invocation: 1 }));
    // The heuristic's choice is the first.
    assert_eq!(
        c[0].distribution,
        f.dispatches[0].strategy.distribution,
        "{}",
        c[0].to_text()
    );
    // A vector x matrix ([1,K] x [K,N]): the reduction runs down the
    // matrix's columns, not along its rows.
    let vecmat = r#"func.func @f(%x: tensor<1x512xf32>, %b: tensor<512x2048xf32>) -> tensor<1x2048xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2048xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %r = linalg.matmul ins(%x, %b : tensor<1x512xf32>, tensor<512x2048xf32>) outs(%f : tensor<1x2048xf32>) -> tensor<1x2048xf32>
  return %r : tensor<1x2048xf32>
}"#;
    for t in [lavapipe(), h200()] {
        let f = compile_first(vecmat, &t);
        let d = &f.dispatches[0];
        assert!(
            !matches!(d.strategy.distribution, Distribution::RowSlices { .. }),
            "{}",
            d.strategy
        );
        assert!(!d
            .candidates
            .iter()
            .any(|c| matches!(c.distribution, Distribution::RowSlices { .. })));
    }
}
