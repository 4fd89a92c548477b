//! A Llama-style decoder's greedy generation on the default device
//! (lavapipe without a GPU), with f16 and with 4-bit Q4_0 weights
//! (`kiln_examples::decode`): the prompt prefilled at once, then 64 tokens
//! decoded one at a time with the KV cache on the device, each format's
//! tokens checked against the numpy reference's
//! (`examples/decode/reference.py`, committed in
//! `examples/decode/expected_tokens.txt`).
//!
//! ```text
//! cargo run --release -p kiln-examples --bin decode [f16|q4_0]    # the check (both formats, or one)
//! cargo run --release -p kiln-examples --bin decode -- --bench   # tokens/s beside their limits
//! cargo run --release -p kiln-examples --bin decode -- --mlir q4_0   # the program's text
//! ... --dynamic       # decode steps through the dynamic-row forms, not the matvec ones
//! ... --decode-only   # the prompt too through the one-row matvec forms, a token at a time
//! ```

use kiln_examples::decode::model::Model;
use kiln_examples::decode::program::{self, Forms};
use kiln_examples::decode::{expected_tokens, Config, Format, Weights, EXPECTED_TOKENS};
use kiln_runtime::bench::limits::{Access, HandWritten};
use kiln_runtime::{Device, DeviceOptions};

/// The seed of the checked model's weights (`reference.py` uses it too).
const SEED: u64 = 36;
/// Tokens generated per check.
const TOKENS: usize = 64;

fn format_named(name: &str) -> anyhow::Result<Format> {
    [Format::F16, Format::Q4_0]
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| anyhow::anyhow!("unknown format {name:?} (f16, q4_0)"))
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--dynamic`: decode steps through the dynamic forms, not matvecs;
    // `--decode-only`: the prompt too through the matvec forms, a token at
    // a time.
    let mut forms = Forms::MatvecDecode;
    for (flag, f) in [
        ("--dynamic", Forms::Dynamic),
        ("--decode-only", Forms::DecodeOnly),
    ] {
        if let Some(k) = args.iter().position(|a| a == flag) {
            args.remove(k);
            forms = f;
        }
    }
    match args.first().map(String::as_str) {
        Some("--mlir") => {
            let f = format_named(args.get(1).map_or("f16", String::as_str))?;
            print!("{}", program::text(&Config::TINY, f, forms));
            Ok(())
        }
        Some("--bench") => bench(forms),
        Some("--explain") => {
            let f = format_named(args.get(1).map_or("f16", String::as_str))?;
            let device = Device::new(&DeviceOptions::default())?;
            let module =
                kiln_runtime::load_tensor_program(&program::text(&Config::TINY, f, forms))?;
            for func in &device.compile_program(&module)?.functions {
                println!("{}", kiln_core::codegen::program::explain(func));
            }
            Ok(())
        }
        None => check(None, forms),
        Some(f) if !f.starts_with('-') => check(Some(format_named(f)?), forms),
        Some(a) => anyhow::bail!("unknown argument {a:?} (--bench, --mlir FORMAT, --explain FORMAT, --dynamic, --decode-only)"),
    }
}

/// Each format's (or `only`'s) greedy tokens against the reference's.
fn check(only: Option<Format>, forms: Forms) -> anyhow::Result<()> {
    let device = Device::new(&DeviceOptions::default())?;
    println!("device: {}", device.info().name);
    let weights = Weights::random(Config::TINY, SEED);
    let stream = device.stream();
    for e in expected_tokens(EXPECTED_TOKENS)? {
        let (name, prompt, want) = (e.format, e.prompt, e.tokens);
        let format = format_named(&name)?;
        if only.is_some_and(|f| f != format) {
            continue;
        }
        anyhow::ensure!(
            want.len() == TOKENS,
            "{name}: {} expected tokens, not {TOKENS}",
            want.len()
        );
        let start = std::time::Instant::now();
        let model = Model::new(&device, &weights, format, forms)?;
        let compiled = start.elapsed();
        let (got, t) = model.generate(&stream, &prompt, want.len())?;
        println!("{name}: {got:?}");
        if let Some(k) = (0..want.len()).find(|&k| got.get(k) != want.get(k)) {
            anyhow::bail!(
                "{name}: token {k} is {:?}, the numpy reference's is {} (reference {want:?})",
                got.get(k),
                want[k]
            );
        }
        println!(
            "{name}: {} tokens match the numpy reference token for token (compiled and uploaded in {:.1} ms, prefill of {} tokens {:.1} ms, {:.1} decode tokens/s)",
            want.len(),
            compiled.as_secs_f64() * 1e3,
            prompt.len(),
            t.prefill.as_secs_f64() * 1e3,
            t.decode_steps as f64 / t.decode.as_secs_f64()
        );
    }
    Ok(())
}

/// Prefill and decode tokens/s of a larger model (width 512, 8 heads, 2
/// key/value heads, MLP 1408, vocabulary 2048, 4 layers: 12.3 M projection
/// weights) beside their limits: decode, the weights' stored bytes per
/// token ÷ the device's measured read bandwidth (the fastest hand-written
/// read-sum); prefill, the projections' FLOPs per token ÷ its measured FMA
/// rate.
fn bench(forms: Forms) -> anyhow::Result<()> {
    let device = Device::new(&DeviceOptions::default())?;
    println!("device: {}", device.info().name);
    let config = Config {
        dim: 512,
        heads: 8,
        kv_heads: 2,
        hidden: 1408,
        vocab: 2048,
        layers: 4,
        max_seq: 256,
    };
    let hw = HandWritten::load(&device)?;
    let reads = Access::ALL
        .iter()
        .filter_map(|&a| hw.read_sum_with(a, &device, 1 << 24, 5).ok())
        // Bytes/s at the median GPU time (the wall time where the driver
        // gives none).
        .map(|m| (m.name.clone(), m.gpu_rate().unwrap_or(m.rate()) * 1e9))
        .fold(None, |best: Option<(String, f64)>, m| match best {
            Some(b) if b.1 >= m.1 => Some(b),
            _ => Some(m),
        })
        .ok_or_else(|| anyhow::anyhow!("no read-bandwidth measurement succeeded"))?;
    let fma = hw.fma(&device, 64, 4096, 5)?;
    let flops = fma.gpu_rate().unwrap_or(fma.rate()) * 1e9; // FLOP/s
    println!(
        "read bandwidth {:.2} GB/s ({}); FMA rate {:.1} GFLOP/s",
        reads.1 / 1e9,
        reads.0,
        flops / 1e9
    );
    let weights = Weights::random(config, 1);
    let stream = device.stream();
    let prompt: Vec<i64> = (0..64).map(|k| (k * 37 % config.vocab) as i64).collect();
    let decode = 16;
    println!(
        "{config:?}, prompt {} tokens, {decode} decoded, {forms:?} forms",
        prompt.len()
    );
    for format in [Format::F16, Format::Q4_0] {
        let model = Model::new(&device, &weights, format, forms)?;
        // First use: the kernels of these sizes compiled by the driver.
        model.generate(&stream, &prompt, 2)?;
        let (_, t) = model.generate(&stream, &prompt, decode)?;
        let bytes = model.weight_bytes_per_token() as f64;
        let prefill = prompt.len() as f64 / t.prefill.as_secs_f64();
        let prefill_limit = flops / model.flops_per_token();
        let dec = t.decode_steps as f64 / t.decode.as_secs_f64();
        let dec_limit = reads.1 / bytes;
        println!(
            "{:>5}: prefill {prefill:8.1} tokens/s (limit {prefill_limit:8.1}: {:.2}x)  decode {dec:7.2} tokens/s (limit {dec_limit:7.2}: {:.2}x, {:.1} MB of weights per token)",
            format.name(),
            prefill / prefill_limit,
            dec / dec_limit,
            bytes / 1e6
        );
    }
    Ok(())
}
