//! `cargo bench -p kiln-core --bench lower`: how long kiln takes to turn a
//! memref-level kernel into a validated SPIR-V binary, stage by stage, with
//! SPIRV-Tools' validator — measured in the same run, on the same module —
//! as the reference the other stages are quoted against.
//!
//! Stages, each the median of `KILN_BENCH_RUNS` runs (default 200) after a
//! warm-up: parse (kernel text → kernel IR), lower (`convert_to_spirv`:
//! patterns, lower-abi-attrs, update-vce, verifier), serialize, validate
//! (SPIRV-Tools in process). Printed as a table with each stage's median,
//! its spread (first–third quartile) and its ratio to validation.
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use kiln_core::lower::{self, LowerOptions};
use kiln_core::target::TargetEnv;
use kiln_core::validate::{validate, ValidationEnv};

/// Vector add with a bounds check: the shape of the README's demo.
const ADD: &str = r#"module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>, %n: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.global_id x
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %x = memref.load %a[%i] : memref<1024xf32>
        %y = memref.load %b[%i] : memref<1024xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
}
"#;

/// First quartile, median, third quartile.
fn quartiles(mut v: Vec<Duration>) -> [Duration; 3] {
    v.sort();
    let at = |q: usize| v[(v.len() - 1) * q / 4];
    [at(1), at(2), at(3)]
}

/// Times `f` `runs` times after `runs / 10` warm-up calls.
fn time(runs: usize, mut f: impl FnMut()) -> [Duration; 3] {
    for _ in 0..runs / 10 {
        f();
    }
    let samples = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    quartiles(samples)
}

fn main() {
    // `cargo test --benches` / `cargo bench -- --list` pass flags: accept
    // and ignore them; `--list` alone lists nothing to run.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let runs: usize = std::env::var("KILN_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n >= 10)
        .unwrap_or(200);
    let env_text = include_str!("../tests/lower/envs/lavapipe.env");
    let env: TargetEnv = env_text.trim().parse().expect("lavapipe.env parses");
    let opts = LowerOptions::default();

    let km = kiln_core::kernel::parse(ADD).expect("kernel parses");
    let lowered = lower::convert_to_spirv(&km, Some(&env), &opts).expect("lowers");
    let compiled = lower::compile_lowered(lowered.into_iter().next().expect("one module"))
        .expect("serializes and validates");
    let module = compiled.module;
    let words = compiled.words;
    let val_env: ValidationEnv = compiled.validation_env;

    let parse = time(runs, || {
        black_box(kiln_core::kernel::parse(black_box(ADD)).expect("parses"));
    });
    let lower = time(runs, || {
        black_box(lower::convert_to_spirv(black_box(&km), Some(&env), &opts).expect("lowers"));
    });
    let serialize = time(runs, || {
        black_box(kiln_core::binary::serialize(black_box(&module)).expect("serializes"));
    });
    let reference = time(runs, || {
        validate(black_box(&words), val_env).expect("valid");
    });

    println!(
        "vector-add kernel → SPIR-V ({} words), {runs} runs per stage, medians [Q1–Q3]",
        words.len()
    );
    println!(
        "{:<34} {:>10} {:>22} {:>10}",
        "stage", "median", "Q1–Q3", "÷ validate"
    );
    let row = |name: &str, q: [Duration; 3]| {
        println!(
            "{name:<34} {:>10.1?} {:>22} {:>9.2}x",
            q[1],
            format!("{:.1?}–{:.1?}", q[0], q[2]),
            q[1].as_secs_f64() / reference[1].as_secs_f64()
        );
    };
    row("parse kernel text", parse);
    row("lower (patterns, ABI, VCE, verify)", lower);
    row("serialize", serialize);
    row("validate (SPIRV-Tools, reference)", reference);
}
