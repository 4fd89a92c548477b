//! A transformer block on the default device (lavapipe without a GPU):
//! `transformer.mlir` (layer norm, QKV projections, scaled-dot-product
//! attention with softmax over 4 heads, output projection, GELU MLP,
//! residuals; sequence 128, width 256) compiled with `Device::compile`, run
//! on seeded random weights, and compared with kiln-core's CPU reference
//! evaluator. With `KILN_PROFILE=1` it prints the GPU time of each kernel.
//!
//! ```text
//! cargo run --release -p kiln-examples --bin transformer
//! ```

use std::time::Instant;

use kiln_runtime::{Device, DeviceOptions};

fn main() -> anyhow::Result<()> {
    let device = Device::new(&DeviceOptions::default())?;
    println!("device: {}", device.info().name);
    let module = kiln_core::tensor::load(kiln_examples::TRANSFORMER)?;
    let start = Instant::now();
    let program = device.compile(&module)?;
    println!("compiled in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    let args = kiln_examples::transformer_args(7);
    let start = Instant::now();
    let out = program.run("block", &args)?;
    println!("ran in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    let start = Instant::now();
    let want = kiln_examples::reference(&module, "block", &args)?;
    println!(
        "reference evaluator: {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let err = kiln_examples::relative_error(&out[0], &want[0]);
    println!("relative error against the reference evaluator: {err:.2e}");
    if err > 1e-4 {
        anyhow::bail!("the block's output differs from the reference ({err:e})");
    }
    let report = device.profile_report();
    if !report.kernels.is_empty() {
        println!("\nper-kernel GPU time (KILN_PROFILE=1):\n{report}");
    }
    device.save_caches()?;
    Ok(())
}
