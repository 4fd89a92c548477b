//! A tiny text classifier run eagerly through kiln-runtime's `ops`
//! (`kiln_examples::eager`): weights uploaded once, then batches of
//! token ids classified op by op, each checked against the same model
//! computed in f64 on the host; the second half of the batches replay the
//! dense head captured as one program (`ops::capture`).
//!
//! ```text
//! cargo run --release -p kiln-examples --bin eager [BATCHES]
//! ```

use kiln_examples::eager::{host_forward, Model, Weights, CLASSES, VOCAB};
use kiln_runtime::{Device, DeviceOptions, Tensor};

fn main() -> anyhow::Result<()> {
    let batches: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 20,
    };
    let device = Device::new(&DeviceOptions::default())?;
    println!("device: {}", device.info().name);
    let weights = Weights::random(7);
    let mut model = Model::upload(&device, &weights)?;
    let stream = device.stream();
    let (batch, seq) = (8, 12);
    let start = std::time::Instant::now();
    let mut worst = 0f64;
    for i in 0..batches {
        if i == batches / 2 {
            let example = Tensor::zeros(
                &device,
                kiln_runtime::DType::F32,
                &[batch, kiln_examples::eager::DIM],
            )?;
            let n = model.capture_head(&stream, &example)?;
            println!("batch {i}: the dense head captured ({n} dispatches a replay)");
        }
        let tokens: Vec<i64> = (0..batch * seq)
            .map(|k| ((k * 31 + i * 17) % VOCAB) as i64)
            .collect();
        let t = Tensor::from_slice(&device, &tokens, &[batch, seq])?;
        let (probs, top) = model.forward(&stream, &t)?;
        let got = probs.to_vec::<f32>()?;
        let top = top.to_vec::<i64>()?;
        let want = host_forward(&weights, &tokens, batch);
        for (g, w) in got.iter().zip(&want) {
            worst = worst.max((f64::from(*g) - w).abs());
        }
        if i == 0 {
            for b in 0..batch.min(3) {
                println!(
                    "sequence {b}: class {}, p = {:.4?}",
                    top[b],
                    &got[b * CLASSES..(b + 1) * CLASSES]
                );
            }
        }
    }
    println!(
        "{batches} batches of {batch} in {:.1} ms; largest difference from the host model {worst:.2e}",
        start.elapsed().as_secs_f64() * 1e3
    );
    anyhow::ensure!(
        worst < 1e-5,
        "the device differs from the host model by {worst}"
    );
    Ok(())
}
