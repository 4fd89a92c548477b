//! Host interpreter tests with a recording CPU launcher (no GPU).

use super::*;
use crate::kernel::parse;

/// One recorded launch: module, kernel, grid, block, argument shapes.
type Launch = (String, String, [u32; 3], [u32; 3], Vec<Vec<u64>>);

/// Records launches; `kernel_scale` multiplies buffer 0 (3x5 i32) by the
/// i32 in buffer 1, as `host_loops.mlir`'s kernel does.
#[derive(Default)]
struct Cpu {
    launches: Vec<Launch>,
    fail: bool,
    /// Report this timing for every launch.
    timing: Option<LaunchTiming>,
}

impl Launcher for Cpu {
    fn launch(
        &mut self,
        r: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, LauncherError> {
        self.launches.push((
            r.module.to_owned(),
            r.kernel.to_owned(),
            r.grid,
            r.block,
            args.iter().map(|a| a.shape().to_vec()).collect(),
        ));
        if self.fail {
            return Err("device lost".into());
        }
        if r.kernel == "kernel_scale" {
            let k = args[1].get(0).and_then(|v| v.as_signed()).unwrap_or(0);
            for at in 0..args[0].len() {
                let v = args[0].get(at).and_then(|v| v.as_signed()).unwrap_or(0);
                args[0].set(at, &HostValue::int(32, (v * k) as u64));
            }
        }
        Ok(self.timing)
    }
}

/// The `CHECK`/`CHECK-NEXT` patterns of a corpus file (expected output
/// from gen.py's independent model).
fn checks(src: &str) -> Vec<&str> {
    src.lines()
        .filter_map(|l| {
            l.strip_prefix("// CHECK: ")
                .or_else(|| l.strip_prefix("// CHECK-NEXT: "))
        })
        .collect()
}

#[test]
fn host_loops_program_prints_what_the_model_expects() {
    let src = include_str!("../../../gpu-tests/tests/runner/host_loops.mlir");
    let m = parse(src).unwrap();
    let mut cpu = Cpu::default();
    let out = run_main_to_string(&m, &mut cpu).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let want = checks(src);
    assert_eq!(lines.len(), want.len(), "{out}");
    for (line, pattern) in lines.iter().zip(&want) {
        assert!(line.contains(pattern), "{line:?} lacks {pattern:?}\n{out}");
    }
    assert_eq!(
        cpu.launches,
        vec![(
            "kernels".into(),
            "kernel_scale".into(),
            [5, 3, 1],
            [1, 1, 1],
            vec![vec![3, 5], vec![1]]
        )]
    );
}

#[test]
fn addf_program_passes_its_fills_and_prints_the_header() {
    // A launcher that does nothing: the output buffer keeps its fill (0),
    // which pins down the header and row format of a 1-D print.
    let src = include_str!("../../../gpu-tests/tests/runner/addf.mlir");
    let m = parse(src).unwrap();
    let out = run_main_to_string(&m, &mut Cpu::default()).unwrap();
    let (header, rest) = out.split_once('\n').unwrap();
    assert!(header.starts_with("Unranked Memref base@ = 0x"), "{header}");
    assert!(header.ends_with(" rank = 1 offset = 0 sizes = [8] strides = [1] data = "));
    assert_eq!(rest, "[0,  0,  0,  0,  0,  0,  0,  0]\n");
}

#[test]
fn a_timed_launch_prints_the_runner_timing_lines_after_it() {
    use std::time::Duration;
    let src = include_str!("../../../gpu-tests/tests/runner/addf.mlir");
    let m = parse(src).unwrap();
    let mut cpu = Cpu {
        timing: Some(LaunchTiming {
            device: Some(Duration::from_nanos(12_345)),
            submit: Duration::from_micros(45),
            wait: Duration::from_nanos(678_900),
        }),
        ..Cpu::default()
    };
    let out = run_main_to_string(&m, &mut cpu).unwrap();
    let timing = "Compute shader execution time: 12.3us\n\
                  Command buffer submit time: 45us\n\
                  Wait idle time: 678us\n";
    assert!(out.starts_with(timing), "{out}");
    assert!(
        out[timing.len()..].starts_with("Unranked Memref base@"),
        "{out}"
    );

    // Without device timestamps only the host lines; large values switch
    // to exponent form as `std::setprecision(3)` does.
    let text = LaunchTiming {
        device: Some(Duration::from_millis(1234)),
        ..LaunchTiming::default()
    }
    .runner_text();
    assert!(
        text.starts_with("Compute shader execution time: 1.23e+06us\n"),
        "{text}"
    );
    let text = LaunchTiming::default().runner_text();
    assert_eq!(
        text,
        "Command buffer submit time: 0us\nWait idle time: 0us\n"
    );
}

fn run_err(src: &str) -> HostError {
    let m = parse(src).unwrap();
    run_main_to_string(&m, &mut Cpu::default()).unwrap_err()
}

const DECLS: &str = "func.func private @fillResource1DInt(%0 : memref<?xi32>, %1 : i32)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)";

#[test]
fn errors_name_the_op_or_callee() {
    let e = run_err("module {\n  func.func @main() {\n    call @nope() : () -> ()\n    return\n  }\n  func.func private @nope()\n}\n");
    assert_eq!(
        e.to_string(),
        "3:5: call to unknown function @nope (not a runner-utils function and not defined in the module)"
    );

    let e = run_err(&format!(
        "module {{\n  func.func @main() {{\n    %a = memref.alloc() : memref<4xi32>\n    %b = memref.cast %a : memref<4xi32> to memref<*xi32>\n    call @printMemrefF32(%b) : (memref<*xi32>) -> ()\n    return\n  }}\n  {DECLS}\n}}\n"
    ))
    .to_string();
    assert!(
        e.contains("call @printMemrefF32") && e.contains("expects a memref of F32, got I32"),
        "{e}"
    );

    let e = run_err("module {\n  func.func @main() {\n    %a = memref.alloc() : memref<4xi32>\n    %i = arith.constant 4 : index\n    %v = arith.constant 1 : i32\n    memref.store %v, %a[%i] : memref<4xi32>\n    return\n  }\n}\n");
    assert_eq!(
        e.to_string(),
        "6:5: `memref.store`: index [4] is out of bounds for shape [4]"
    );

    let e = run_err("module {\n  func.func @main() {\n    %a = arith.constant 1 : i32\n    %b = arith.constant 0 : i32\n    %c = arith.divsi %a, %b : i32\n    return\n  }\n}\n");
    assert_eq!(e.to_string(), "5:10: `arith.divsi`: division by zero");

    let e = run_err(&format!(
        "module {{\n  func.func @main() {{\n    %a = memref.alloc() : memref<2x2xi32>\n    %b = memref.cast %a : memref<2x2xi32> to memref<?x?xi32>\n    %v = arith.constant 1 : i32\n    call @fillResource1DInt(%b, %v) : (memref<?x?xi32>, i32) -> ()\n    return\n  }}\n  {DECLS}\n}}\n"
    ))
    .to_string();
    assert!(
        e.contains("expects a rank-1 memref of I32, got rank 2 of I32"),
        "{e}"
    );
}

const LAUNCH: &str = r#"module attributes { gpu.container_module } {
  gpu.module @kernels {
    gpu.func @k(%a : memref<4xi32>, %b : memref<4xi32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %a = memref.alloc() : memref<4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c1, %c2, %c1) args(%a : memref<4xi32>, ARG2 : memref<4xi32>)
    return
  }
}
"#;

#[test]
fn launches_refuse_aliasing_and_report_launcher_errors() {
    let e = run_err(&LAUNCH.replace("ARG2", "%a")).to_string();
    assert!(
        e.contains("argument #1 is a buffer already passed to this launch"),
        "{e}"
    );

    let src = LAUNCH.replace("ARG2", "%b").replace(
        "    %c1 = arith.constant 1 : index\n",
        "    %c1 = arith.constant 1 : index\n    %b = memref.alloc() : memref<4xi32>\n",
    );
    let m = parse(&src).unwrap();
    let mut cpu = Cpu {
        fail: true,
        ..Cpu::default()
    };
    let e = run_main_to_string(&m, &mut cpu).unwrap_err();
    assert_eq!(
        e.to_string(),
        "12:5: gpu.launch_func @kernels::@k: device lost"
    );
    assert_eq!(cpu.launches[0].2, [2, 1, 1]);
    assert_eq!(cpu.launches[0].3, [1, 2, 1]);
}

#[test]
fn dense_vector_constants_per_lane_and_splat() {
    let src = r#"module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<4xi32>
    %b = memref.alloc() : memref<3xf32>
    %va = arith.constant dense<[1, -2, 3, 4]> : vector<4xi32>
    %vb = arith.constant dense<2.5> : vector<3xf32>
    vector.store %va, %a[%c0] : memref<4xi32>, vector<4xi32>
    vector.store %vb, %b[%c0] : memref<3xf32>, vector<3xf32>
    %pa = memref.cast %a : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%pa) : (memref<*xi32>) -> ()
    %pb = memref.cast %b : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%pb) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}"#;
    let m = parse(src).unwrap();
    let out = run_main_to_string(&m, &mut Cpu::default()).unwrap();
    assert!(out.contains("[1,  -2,  3,  4]"), "{out}");
    assert!(out.contains("[2.5,  2.5,  2.5]"), "{out}");
}

#[test]
fn overflowing_operand_segment_sizes_are_an_error() {
    let big = i64::MAX;
    let src = format!(
        r#"module {{
  func.func @main() {{
    %c1 = arith.constant 1 : index
    "gpu.launch_func"(%c1, %c1, %c1, %c1, %c1, %c1) <{{kernel = @kernels::@k, operandSegmentSizes = array<i64: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, {big}, {big}>}}> : (index, index, index, index, index, index) -> ()
    return
  }}
}}"#
    );
    let m = parse(&src).unwrap();
    let err = run_main_to_string(&m, &mut Cpu::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("operandSegmentSizes does not match the operands"),
        "{err}"
    );
}
