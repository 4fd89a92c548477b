//! A two-layer MLP's inference loop on the default device (lavapipe
//! without a GPU): `mlp.mlir` compiled once with `Device::compile`, then 100
//! batches of 64 random 784-vectors run through it with the same weights.
//! The first and last batches are checked against kiln-core's CPU reference
//! evaluator; the memory report must stay flat after the first batch (every
//! run's buffers come back to the pools). With `KILN_PROFILE=1` it prints
//! the GPU time of each kernel.
//!
//! ```text
//! cargo run --release -p kiln-examples --bin mlp [BATCHES]
//! ```

use kiln_runtime::{Device, DeviceOptions};

fn main() -> anyhow::Result<()> {
    let batches: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 100,
    };
    let device = Device::new(&DeviceOptions::default())?;
    println!("device: {}", device.info().name);
    let module = kiln_core::tensor::load(kiln_examples::MLP)?;
    let start = std::time::Instant::now();
    let program = device.compile(&module)?;
    println!("compiled in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    let (memory, elapsed) = kiln_examples::mlp_loop(&device, &program, batches, &[0, batches - 1])?;
    println!(
        "{batches} batches of 64 in {:.1} ms ({:.2} ms a batch, the reference checks left out); first and last match the reference evaluator",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e3 / batches as f64
    );
    let (reserved, in_use) = memory[0];
    println!("memory after batch 1: {reserved} bytes reserved, {in_use} in use");
    if !kiln_examples::flat_after_first(&memory) {
        let last = memory[memory.len() - 1];
        anyhow::bail!(
            "memory grew after the first batch: {:?} then {last:?}",
            memory[0]
        );
    }
    println!("memory flat over {batches} batches");
    let report = device.profile_report();
    if !report.kernels.is_empty() {
        println!("\nper-kernel GPU time (KILN_PROFILE=1):\n{report}");
    }
    Ok(())
}
