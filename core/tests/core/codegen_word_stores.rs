//! 64-bit word stores: on lavapipe (its driver facts, an env with
//! `Int64`), kernels store each vec4 group of 32-bit elements as two
//! `i64` words (a natively stored f16 group as one) through a view of the
//! written buffer as `vector<2xi64>` (`i64`), bitcast from the group:
//! llvmpipe stores per component, so fewer, wider components are cheaper.
//! Without `Int64` and on a GPU's facts, stores stay vectors of their
//! elements. Every kernel passes spirv-val.

use kiln_core::codegen::{CodegenTarget, CompiledFunction};
use kiln_core::grammar::Capability;

use crate::common::{
    binary_program as binary, compile_first as compile, h200_target as h200, lavapipe_target,
    spirv_val,
};

/// The kernel argument of a 128-bit word view, and of a 64-bit one.
const WORDS2: &str = "memref<?xvector<2xi64>>";
const WORDS1: &str = "memref<?xvector<1xi64>>";

/// Each kernel's text, after checking the kernel with spirv-val.
fn kernel_texts(cf: &CompiledFunction) -> Vec<String> {
    let mut out = Vec::new();
    for d in &cf.dispatches {
        for k in &d.kernels {
            spirv_val(&k.words, "vulkan1.3").unwrap_or_else(|e| panic!("{}: {e}", k.name));
            out.push(k.kernel_text.clone());
        }
    }
    out
}

const SOFTMAX: &str = r#"func.func @f(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}"#;

/// `target` without `Int64` (and `Int64Atomics`, which implies it).
fn without_int64(mut target: CodegenTarget) -> CodegenTarget {
    target
        .env
        .vce
        .capabilities
        .retain(|c| !matches!(c, Capability::Int64 | Capability::Int64Atomics));
    assert!(!target.has(Capability::Int64));
    target
}

#[test]
fn lavapipe_stores_vec4_groups_as_64_bit_words() {
    let cpu = lavapipe_target();
    assert!(cpu.facts.word_stores, "lavapipe's facts store words");
    for (what, text, view) in [
        ("f32 add", binary("arith.addf", "f32", 4096), WORDS2),
        ("i32 add", binary("arith.addi", "i32", 4096), WORDS2),
        (
            "f32 add of 1,452",
            binary("arith.addf", "f32", 33 * 44),
            WORDS2,
        ),
        ("f16 add", binary("arith.addf", "f16", 4096), WORDS1),
        ("softmax", SOFTMAX.to_owned(), WORDS2),
    ] {
        let cf = compile(&text, &cpu);
        assert!(
            cf.dispatches.iter().all(|d| d.strategy.word_stores),
            "{what}: strategy without word stores"
        );
        assert!(
            cf.dispatches[0]
                .strategy
                .to_string()
                .contains("64-bit words"),
            "{what}: --explain does not say so:\n{}",
            cf.dispatches[0].strategy
        );
        let texts = kernel_texts(&cf);
        let stores: Vec<&String> = texts.iter().filter(|k| k.contains(view)).collect();
        assert!(!stores.is_empty(), "{what}: no kernel binds a {view} view");
        for k in stores {
            assert!(
                k.contains("vector.bitcast"),
                "{what}: the words are not bitcast from the group:\n{k}"
            );
            // 32-bit groups are only stored through the words: every
            // group load still reads the element vector (or its texel).
            assert!(
                view == WORDS1
                    || !k
                        .lines()
                        .any(|l| l.contains("memref.load") && l.contains("xi64>")),
                "{what}: a load through the word view:\n{k}"
            );
        }
    }
}

#[test]
fn without_int64_or_on_a_gpu_groups_store_as_vectors() {
    for (what, target) in [
        ("lavapipe without Int64", without_int64(lavapipe_target())),
        ("H200", h200()),
    ] {
        for text in [binary("arith.addf", "f32", 4096), SOFTMAX.to_owned()] {
            let cf = compile(&text, &target);
            assert!(
                cf.dispatches.iter().all(|d| !d.strategy.word_stores),
                "{what}: word stores chosen"
            );
            for k in kernel_texts(&cf) {
                assert!(
                    !k.contains(WORDS2) && !k.contains("vector.bitcast"),
                    "{what}: a word view:\n{k}"
                );
            }
        }
    }
}

/// bf16 tensors (held as `i16` bits) move as vec4 groups where 16-bit
/// integers are stored natively, loaded and stored as one 64-bit word
/// each on lavapipe; without `Int16` they stay point by point.
#[test]
fn bf16_groups_move_as_words_where_16_bit_integers_are_native() {
    let text = binary("arith.addf", "bf16", 4096);
    let cf = compile(&text, &lavapipe_target());
    let d = &cf.dispatches[0];
    assert!(
        matches!(
            d.strategy.distribution,
            kiln_core::codegen::strategy::Distribution::Vector4 { .. }
        ) && d.strategy.i16_vectors,
        "{}",
        d.strategy
    );
    let texts = kernel_texts(&cf);
    assert!(
        texts[0]
            .lines()
            .any(|l| l.contains("memref.load") && l.contains(WORDS1)),
        "bf16 groups not loaded as words:\n{}",
        texts[0]
    );
    assert!(texts[0].contains("vector<4xi16>"), "{}", texts[0]);
    let mut no_i16 = lavapipe_target();
    no_i16
        .env
        .vce
        .capabilities
        .retain(|c| *c != Capability::Int16);
    let cf = compile(&text, &no_i16);
    assert!(
        !matches!(
            cf.dispatches[0].strategy.distribution,
            kiln_core::codegen::strategy::Distribution::Vector4 { .. }
        ),
        "{}",
        cf.dispatches[0].strategy
    );
    kernel_texts(&cf);
}
