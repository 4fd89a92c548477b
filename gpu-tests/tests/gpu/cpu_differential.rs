//! Every runner program of the corpus (`tests/runner/*.mlir`) runs twice:
//! on the Vulkan device (lavapipe in CI) and on the CPU through LLVM
//! (`kiln_cpu::CpuLauncher`, lowered for the device's own target env so
//! both run the same SPIR-V). The printed outputs must agree: integers and
//! every other token identical; floats within [`ULPS`] units in the last
//! place of `f32` (transcendental functions differ between lavapipe's and
//! libm's implementations by a few ulps), on top of the 6 significant
//! digits the runner prints with. The CPU output must also satisfy the
//! file's CHECK lines.

use crate::filecheck;
use crate::runner_harness::{corpus_dir, mlir_files, normalize_addresses, run_module};
use kiln_cpu::CpuLauncher;
use kiln_gpu_tests::test_context;

/// How many `f32` ulps two printed floats may differ by.
pub const ULPS: f32 = 4.0;

/// Whether the printed floats `a` and `b` agree: equal, or within
/// [`ULPS`] ulps of the larger magnitude plus half a unit of the sixth
/// significant digit each was printed with.
fn floats_agree(a: f64, b: f64) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    let m = a.abs().max(b.abs());
    let ulp = if m == 0.0 {
        f64::from(f32::MIN_POSITIVE)
    } else {
        let e = m.log2().floor();
        2f64.powf(e - 23.0)
    };
    let print = if m == 0.0 {
        0.0
    } else {
        10f64.powf(m.log10().floor() - 5.0)
    };
    (a - b).abs() <= f64::from(ULPS) * ulp + print
}

/// Compares two runner outputs token by token; `Err` says where they differ.
pub fn outputs_agree(device: &str, cpu: &str) -> Result<(), String> {
    let split = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let (d, c) = (split(device), split(cpu));
    if d.len() != c.len() {
        return Err(format!(
            "{} tokens on the device, {} on the CPU",
            d.len(),
            c.len()
        ));
    }
    for (i, (x, y)) in d.iter().zip(&c).enumerate() {
        if x == y {
            continue;
        }
        let is_int = |t: &str| t.parse::<i64>().is_ok();
        let ok = match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(a), Ok(b)) if !(is_int(x) && is_int(y)) => floats_agree(a, b),
            _ => false,
        };
        if !ok {
            return Err(format!("token {i}: device `{x}`, CPU `{y}`"));
        }
    }
    Ok(())
}

#[test]
fn float_tolerance_is_what_it_says() {
    assert!(floats_agree(1.0, 1.0));
    assert!(floats_agree(0.333333, 0.333334));
    assert!(!floats_agree(0.3333, 0.3334));
    assert!(outputs_agree("[1,  2]", "[1,  2]").is_ok());
    assert!(outputs_agree("[1,  2]", "[1,  3]").is_err());
    assert!(outputs_agree("[1.5]", "[1.50001]").is_ok());
}

#[test]
fn every_runner_program_gives_the_same_output_on_the_cpu() {
    let files = mlir_files(&corpus_dir());
    assert!(files.len() >= 25, "runner corpus missing");
    let ctx = test_context();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let module = kiln_core::kernel::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let device = run_module(&ctx, &module, &[]).result;
        for m in ctx.take_validation_messages() {
            failures.push(format!("{name}: validation layer: {m}"));
        }
        let mut launcher = CpuLauncher::new(&module).with_target_env(ctx.target_env().clone());
        let cpu = kiln_core::host::run_main_to_string(&module, &mut launcher)
            .map_err(|e| crate::runner_harness::chain(&e));
        match (device, cpu) {
            (Ok(d), Ok(c)) => {
                if let Err(e) = outputs_agree(&normalize_addresses(&d), &normalize_addresses(&c)) {
                    failures.push(format!("{name}: outputs differ: {e}"));
                }
                let checks = filecheck::directives(&text).unwrap();
                if let Err(e) = filecheck::check(&c, &checks) {
                    failures.push(format!("{name}: CPU output fails its CHECK lines: {e}"));
                }
            }
            (Ok(_), Err(e)) => failures.push(format!("{name}: the CPU run failed: {e}")),
            (Err(e), _) => failures.push(format!("{name}: the device run failed: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runner programs differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
