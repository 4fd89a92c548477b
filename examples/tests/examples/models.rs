//! The examples' models: both files parse and verify in MLIR 19; the MLP's
//! inference loop and the transformer block match the reference evaluator
//! on a validated device, with memory flat over the loop and a profile
//! naming every kernel.

use std::path::Path;
use std::process::Command;

use kiln_examples::{
    flat_after_first, mlp_loop, reference, relative_error, transformer_args, transformer_args_of,
};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, Device, DeviceOptions};

/// A device with the validation layer and profiling on, no disk cache.
fn device() -> Device {
    Device::new(&DeviceOptions {
        validation: true,
        profile: true,
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
    .unwrap_or_else(|e| panic!("the examples' tests need a Vulkan device (ci/setup.sh): {e}"))
}

#[test]
fn models_are_mlir_19() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    for file in ["mlp.mlir", "transformer.mlir", "transformer_dynamic.mlir"] {
        let out = Command::new("mlir-opt-19")
            .arg(dir.join(file))
            .output()
            .expect("mlir-opt-19 (ci/setup.sh installs it)");
        assert!(
            out.status.success(),
            "{file}: mlir-opt-19 rejects it:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Iterations of the MLP loop: `KILN_MLP_ITERATIONS`, else 500 (about
/// 20 ms each on lavapipe in the test profile; run with
/// `KILN_MLP_ITERATIONS=10000` for a long soak). The memory report's
/// bytes in use would change at the first batch that leaked anything, so a
/// leak shows long before the 500th batch.
fn iterations() -> usize {
    std::env::var("KILN_MLP_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

#[test]
fn mlp_loop_matches_reference_with_memory_flat() {
    let device = device();
    let module = kiln_core::tensor::load(kiln_examples::MLP).unwrap();
    let program = device.compile(&module).unwrap();
    let n = iterations();
    let (memory, _) = mlp_loop(&device, &program, n, &[0, 1, n - 1]).unwrap();
    assert_eq!(memory.len(), n);
    assert!(memory[0].0 > 0, "the first batch reserved no memory");
    assert!(
        flat_after_first(&memory),
        "memory (reserved, in use) changed after the first batch: first {:?}, max {:?}, last {:?}",
        memory[0],
        memory.iter().max(),
        memory[n - 1]
    );
    // Every run's dispatches were profiled, one row per kernel.
    let report = device.profile_report();
    let kernels: usize = program
        .compiled()
        .functions
        .iter()
        .flat_map(|f| &f.dispatches)
        .map(|d| d.kernels.len())
        .sum();
    assert_eq!(report.kernels.len(), kernels, "{report}");
    for k in &report.kernels {
        let name = &k.kernel;
        assert_eq!(k.dispatches as usize, n, "{name}");
        assert_eq!(k.timed, k.dispatches, "{name}: every dispatch timed");
        assert!(!k.gpu_time.is_zero(), "{name}: no GPU time recorded");
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn transformer_block_matches_reference() {
    let device = device();
    let module = kiln_core::tensor::load(kiln_examples::TRANSFORMER).unwrap();
    let program = device.compile(&module).unwrap();
    let args = transformer_args(7);
    let out = program.run("block", &args).unwrap();
    let want = reference(&module, "block", &args).unwrap();
    assert_eq!(
        out[0].tensor().unwrap().shape,
        vec![128, 256],
        "the block's output shape"
    );
    let err = relative_error(&out[0], &want[0]);
    assert!(err <= 1e-4, "relative error {err:e} against the reference");
    // The attention's softmax and the GELU's tanh ran: the output is not
    // the input.
    assert!(relative_error(&out[0], &args[0]) > 0.1);
    assert!(!device.profile_report().kernels.is_empty());
    assert_no_validation_messages(device.context());
}

/// The block with the sequence length dynamic, compiled once: at 128
/// tokens it gives the static block's result, and at 37 and 1 it matches
/// the reference evaluator.
#[test]
fn dynamic_transformer_block_matches_at_any_sequence_length() {
    let device = device();
    let module = kiln_core::tensor::load(kiln_examples::TRANSFORMER_DYNAMIC).unwrap();
    let program = device.compile(&module).unwrap();
    let args = transformer_args(7);
    let out = program.run("block", &args).unwrap();
    let static_module = kiln_core::tensor::load(kiln_examples::TRANSFORMER).unwrap();
    let static_out = device
        .compile(&static_module)
        .unwrap()
        .run("block", &args)
        .unwrap();
    let err = relative_error(&out[0], &static_out[0]);
    assert!(
        err <= 1e-5,
        "relative error {err:e} against the static block"
    );
    for s in [37, 1] {
        let args = transformer_args_of(11, s);
        let out = program.run("block", &args).unwrap();
        assert_eq!(out[0].tensor().unwrap().shape, vec![s, 256]);
        let want = reference(&module, "block", &args).unwrap();
        let err = relative_error(&out[0], &want[0]);
        assert!(err <= 1e-4, "{s} tokens: relative error {err:e}");
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn eager_classifier_matches_the_host_model() {
    use kiln_examples::eager::{host_forward, Model, Weights, CLASSES, VOCAB};
    let device = device();
    let weights = Weights::random(3);
    let mut model = Model::upload(&device, &weights).unwrap();
    let stream = device.stream();
    // Two batch sizes and sequence lengths through the same op programs,
    // eagerly, then with the dense head captured and replayed.
    for (k, (batch, seq)) in [(4, 6), (7, 3), (4, 6), (9, 2)].into_iter().enumerate() {
        if k == 2 {
            let example = kiln_runtime::Tensor::zeros(
                &device,
                kiln_runtime::DType::F32,
                &[3, kiln_examples::eager::DIM],
            )
            .unwrap();
            assert!(model.capture_head(&stream, &example).unwrap() <= 6);
        }
        let tokens: Vec<i64> = (0..batch * seq)
            .map(|k| ((k * 13 + 5) % VOCAB) as i64)
            .collect();
        let t = kiln_runtime::Tensor::from_slice(&device, &tokens, &[batch, seq]).unwrap();
        let (probs, top) = model.forward(&stream, &t).unwrap();
        let got = probs.to_vec::<f32>().unwrap();
        let top = top.to_vec::<i64>().unwrap();
        let want = host_forward(&weights, &tokens, batch);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((f64::from(*g) - w).abs() < 1e-5, "prob {k}: {g} vs {w}");
        }
        for b in 0..batch {
            let row = &want[b * CLASSES..(b + 1) * CLASSES];
            let mut order: Vec<usize> = (0..CLASSES).collect();
            order.sort_by(|&i, &j| row[j].total_cmp(&row[i]));
            assert_eq!(top[b], order[0] as i64);
        }
    }
    // A token out of the vocabulary is an error naming the op.
    let bad = kiln_runtime::Tensor::from_slice(&device, &[1i64, VOCAB as i64], &[1, 2]).unwrap();
    let e = model.forward(&stream, &bad).unwrap_err().to_string();
    assert!(e.contains("ops::embedding"), "{e}");
    assert_no_validation_messages(device.context());
}
