//! Long chains and deep nestings never overflow the stack: a chain of
//! 100,000 fused element-wise ops parses, verifies, evaluates and forms
//! dispatch regions; a chain of 5,000 compiles to kernels of bounded
//! depth that pass spirv-val (it overflowed the stack in the kernel
//! emitter before dispatches bounded their fused chains); nestings of
//! 100,000 regions in each text form are errors naming the nesting;
//! kernels nesting selections deeper than the serializer's 64 are an
//! error, not a stack overflow (it recursed once per level) nor a binary
//! lavapipe runs wrongly (it ignores selections nested deeper than 80).

use kiln_core::codegen::analysis::FuncInfo;
use kiln_core::codegen::regions::{form_dispatch_regions, MAX_FUSED_CHAIN};
use kiln_core::tensor::e2e::{self, ReferenceBackend, RunOptions};

use crate::common::{kernels_validate, lavapipe_target};

/// An e2e test: `%v_i = %v_{i-1} + %a` `n` times from `%a = 1`, checked
/// against `n + 1` (exact in f32 for the sizes used).
fn chain(n: usize) -> String {
    let mut s = String::from(
        "func.func @chain() {\n  %a = util.unfoldable_constant dense<1.0> : tensor<4xf32>\n",
    );
    let mut prev = "%a".to_string();
    for i in 0..n {
        s.push_str(&format!(
            "  %v{i} = arith.addf {prev}, %a : tensor<4xf32>\n"
        ));
        prev = format!("%v{i}");
    }
    s.push_str(&format!(
        "  check.expect_eq_const({prev}, dense<{}.0> : tensor<4xf32>) : tensor<4xf32>\n  return\n}}\n",
        n + 1
    ));
    s
}

#[test]
fn a_chain_of_100000_ops_evaluates_and_forms_bounded_dispatches() {
    let n = 100_000;
    let m = kiln_core::tensor::load(&chain(n)).expect("parses and verifies");
    let report = e2e::run(&m, &mut ReferenceBackend, &RunOptions::default()).expect("runs");
    assert!(report.success(), "{}", report.output);
    let compute = e2e::compute_module(&m).expect("splits");
    let prepared = kiln_core::codegen::prepare_module(&compute).expect("prepares");
    let f = prepared.funcs()[0];
    let info = FuncInfo::new(&prepared, f).expect("analyses");
    let regions = form_dispatch_regions(&info);
    // Every dispatch fuses at most MAX_FUSED_CHAIN ops.
    assert!(
        regions.dispatches.len() >= n / MAX_FUSED_CHAIN,
        "{} dispatches for {n} ops",
        regions.dispatches.len()
    );
}

#[test]
fn a_chain_of_5000_ops_compiles_to_valid_kernels() {
    let n = 5_000;
    let m = kiln_core::tensor::load(&chain(n)).expect("parses");
    let compute = e2e::compute_module(&m).expect("splits");
    let prepared = kiln_core::codegen::prepare_module(&compute).expect("prepares");
    let f = prepared.funcs()[0];
    let compiled =
        kiln_core::codegen::compile_function(&prepared, f, &lavapipe_target()).expect("compiles");
    assert!(compiled.dispatches.len() >= n / MAX_FUSED_CHAIN);
    kernels_validate(&compiled);
}

/// `depth` nested copies of `open` around `inner`, each closed by `close`.
fn nest(open: &str, inner: &str, close: &str, depth: usize) -> String {
    let mut s = String::with_capacity(depth * (open.len() + close.len()) + inner.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

#[test]
fn nestings_of_100000_are_errors_in_every_text_form() {
    let depth = 100_000;
    // Tensor text: generic bodies inside generic bodies.
    let mut generics = String::new();
    for i in 0..depth {
        generics.push_str(&format!(
            "%r{i} = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>], \
             iterator_types = [\"parallel\"]}} outs(%e : tensor<4xf32>) {{\n^bb0(%o{i}: f32):\n"
        ));
    }
    let tensor = format!(
        "func.func @f(%e: tensor<4xf32>) -> tensor<4xf32> {{\n{}\n  return %e : tensor<4xf32>\n}}\n",
        nest(&generics, "linalg.yield %o0 : f32\n", "", 1) + &"}\n".repeat(depth)
    );
    let err = kiln_core::tensor::load(&tensor).expect_err("too deep");
    assert!(err.to_string().contains("too deep"), "{err}");
    // Kernel text: scf.if inside scf.if.
    let kernel = format!(
        "gpu.module @k {{ gpu.func @f(%c: i1) kernel {{\n{}\ngpu.return\n}} }}\n",
        nest("scf.if %c {\n", "", "}\n", depth)
    );
    let err = kiln_core::kernel::parse(&kernel).expect_err("too deep");
    assert!(err.to_string().contains("too deep"), "{err}");
    // spv text: selections inside selections.
    let spv = format!(
        "spirv.module Logical GLSL450 {{ spirv.func @f() \"None\" {{\n{}\nspirv.Return\n}} }}\n",
        nest("spirv.mlir.selection {\n", "", "}\n", depth)
    );
    let err = kiln_core::text::parse(&spv).expect_err("too deep");
    assert!(err.to_string().contains("too deep"), "{err}");
}

/// A kernel of `depth` `scf.if`s one inside the other, each storing.
fn nested_ifs(depth: usize) -> String {
    format!(
        "gpu.module @k {{ gpu.func @f(%m: memref<4xf32>) kernel attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{\n\
         %i = arith.constant 0 : index\n%x = arith.constant 1.0 : f32\n\
         %t = gpu.thread_id x\n%c = arith.cmpi eq, %t, %i : index\n{}\ngpu.return\n}} }}\n",
        nest("scf.if %c {\nmemref.store %x, %m[%i] : memref<4xf32>\n", "", "}\n", depth)
    )
}

#[test]
fn selections_nested_deeper_than_64_are_a_serializer_error() {
    use kiln_core::binary::serialize::MAX_CONSTRUCT_DEPTH;
    use kiln_core::lower::{compile_to_binaries, LowerOptions};
    let lower = |depth| {
        let km = kiln_core::kernel::parse(&nested_ifs(depth)).expect("parses");
        compile_to_binaries(
            &km,
            Some(&crate::lower_util::lavapipe()),
            &LowerOptions::default(),
        )
    };
    let ok = lower(MAX_CONSTRUCT_DEPTH).expect("64 deep serializes");
    crate::lower_util::spirv_val(&ok[0].words, ok[0].validation_env.name(), "64 deep");
    let err = lower(MAX_CONSTRUCT_DEPTH + 1).expect_err("65 deep is refused");
    let chain = format!(
        "{err}: {}",
        std::error::Error::source(&err)
            .map(ToString::to_string)
            .unwrap_or_default()
    );
    assert!(
        chain.contains("constructs nested more than 64 deep"),
        "{chain}"
    );
}
