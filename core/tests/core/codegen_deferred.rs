//! Kernels lowered at their first use (issue 32): a compile with
//! `Lowering::DeferRunTimeVariants` leaves every `_chunked` variant
//! unlowered (no words; its memref-level text kept), lowers every other
//! kernel as `Lowering::All` does, and `lower_deferred` later gives each
//! variant the words, env and needs an eager compile gives it. Checked on
//! the corpus file `split_buffers_dynamic.mlir` for lavapipe's env (its
//! 128 MiB range) and the same env with a 4 KiB range (as the GPU test
//! `tensor_split_buffers` runs it); the values are checked on lavapipe and
//! the CPU runner by that test. Costs about four seconds in a debug build
//! (the file compiled four times, its variants lowered twice more).

use kiln_core::codegen::{
    archive, compile_each_function_with, explain, CodegenTarget, CompiledProgram, Lowering,
};

use crate::common::lavapipe_target;

fn corpus_module(name: &str) -> kiln_core::tensor::TensorModule {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gpu-tests/tests/tensor")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("a corpus file");
    let m = kiln_core::tensor::load(&text).expect("parses");
    kiln_core::tensor::e2e::compute_module(&m).expect("an e2e file")
}

fn programs(
    m: &kiln_core::tensor::TensorModule,
    target: &CodegenTarget,
    lowering: Lowering,
) -> Vec<(String, CompiledProgram)> {
    compile_each_function_with(m, target, lowering)
        .expect("prepares")
        .into_iter()
        .map(|(name, p)| {
            let p = p.unwrap_or_else(|e| panic!("@{name}: {e}"));
            (name, p)
        })
        .collect()
}

fn check(target: &CodegenTarget) {
    let m = corpus_module("split_buffers_dynamic.mlir");
    let eager = programs(&m, target, Lowering::All);
    let deferred = programs(&m, target, Lowering::DeferRunTimeVariants);
    assert_eq!(eager.len(), deferred.len());
    let mut variants = 0;
    for ((name, e), (_, d)) in eager.iter().zip(&deferred) {
        let pairs = e.functions[0]
            .dispatches
            .iter()
            .flat_map(|d| &d.kernels)
            .zip(d.functions[0].dispatches.iter().flat_map(|d| &d.kernels));
        for (ek, dk) in pairs {
            assert_eq!(ek.name, dk.name, "@{name}");
            if ek.runs_only_past_the_storage_range() {
                variants += 1;
                assert!(dk.is_deferred(), "@{name}: {} lowered", dk.name);
                assert!(dk.words.is_empty(), "@{name}: {} has words", dk.name);
                assert_eq!(ek.kernel_text, dk.kernel_text, "@{name}: {}", dk.name);
                // Its plain kernel's needs stand for its own until lowered.
                assert_eq!(ek.needs, dk.needs, "@{name}: {}", dk.name);
            } else {
                assert_eq!(ek, dk, "@{name}: a plain kernel differs");
            }
        }
        // The same plans: `--explain` takes a deferred kernel's split
        // bindings from what it keeps, not from its (absent) binary.
        assert_eq!(
            explain(&e.functions[0]),
            explain(&d.functions[0]),
            "@{name}"
        );
        // A deferred program survives the archive.
        let bytes = archive::encode(d).expect("encodes");
        assert_eq!(&archive::decode(&bytes).expect("decodes"), d, "@{name}");
        // Lowered later: the eager compile's words, env and needs.
        let mut lowered = d.clone();
        lowered.lower_deferred().expect("lowers");
        assert_eq!(&lowered, e, "@{name}: lowered later differs");
    }
    assert!(variants >= 5, "{variants} _chunked variants");
}

#[test]
fn deferred_variants_lower_later_to_the_eager_words() {
    check(&lavapipe_target());
    let mut small = lavapipe_target();
    small.env.limits.max_storage_buffer_range = 4096;
    check(&small);
}

/// A deferred kernel whose text was altered (an archive edited, or a
/// printer bug) is a typed error naming the kernel, not a panic.
#[test]
fn a_deferred_kernel_whose_text_does_not_parse_is_an_error() {
    let m = corpus_module("split_buffers_dynamic.mlir");
    let target = lavapipe_target();
    let (_, p) = programs(&m, &target, Lowering::DeferRunTimeVariants)
        .into_iter()
        .next()
        .expect("a function");
    let mut k = p.functions[0]
        .dispatches
        .iter()
        .flat_map(|d| &d.kernels)
        .find(|k| k.is_deferred())
        .expect("a deferred kernel")
        .clone();
    k.kernel_text.truncate(k.kernel_text.len() / 2);
    let e = kiln_core::codegen::lower_deferred(&k, &target).expect_err("half a kernel");
    assert!(
        e.to_string().contains(&k.name) && e.to_string().contains("does not parse"),
        "{e}"
    );
}
