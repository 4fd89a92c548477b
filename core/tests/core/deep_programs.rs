//! Long chains and deep nestings never overflow the stack: a chain of
//! 100,000 fused element-wise ops parses, verifies, evaluates and forms
//! dispatch regions; a chain of 5,000 compiles to kernels of bounded
//! depth that pass spirv-val (it overflowed the stack in the kernel
//! emitter before dispatches bounded their fused chains); nestings of
//! 100,000 regions in each text form are errors naming the nesting.

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
