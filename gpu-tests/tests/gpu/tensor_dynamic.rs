//! A dynamically shaped tensor program compiles once and runs with any
//! conforming sizes: its sizes reach the kernels as push constants at
//! dispatch time. Sizes that do not conform are refused before any device
//! work, naming the op and the sizes.

use std::rc::Rc;

use kiln_core::codegen::compile;
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, DeviceOptions, Program};

use crate::runtime_support::test_device;

const PROGRAM: &str = r#"
func.func @rows(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%a : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %r = arith.addf %s, %b : tensor<?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %t = linalg.transpose ins(%a : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) permutation = [1, 0]
  return %r, %t : tensor<?xf32>, tensor<?x?xf32>
}
"#;

fn tensor(shape: &[usize], f: impl Fn(usize) -> f32) -> Value {
    let n: usize = shape.iter().product();
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape: shape.to_vec(),
        data: Elements::F32((0..n).map(f).collect()),
    }))
}

#[test]
fn compiles_once_and_runs_with_any_conforming_sizes() {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    });
    let module = kiln_core::tensor::load(PROGRAM).unwrap();
    let program = compile(&module, &device_target(&device)).unwrap();
    let kernels: usize = program.functions[0]
        .dispatches
        .iter()
        .map(|d| d.kernels.len())
        .sum();
    let p = Program::load(&device, program).unwrap();
    // Small integers: every sum is exact in any order.
    for (m, n) in [(3, 5), (17, 129), (1, 1), (64, 70_000), (0, 4)] {
        let args = [
            tensor(&[m, n], |i| ((i * 7) % 13) as f32 - 6.0),
            tensor(&[m], |i| i as f32),
        ];
        let gpu = p.run("rows", &args).unwrap();
        let reference = eval::run(&module, "rows", &args).unwrap();
        assert_eq!(gpu, reference, "{m}x{n}");
    }
    // Still the same kernels: nothing was compiled per shape.
    assert_eq!(
        p.compiled().functions[0]
            .dispatches
            .iter()
            .map(|d| d.kernels.len())
            .sum::<usize>(),
        kernels
    );
    // A size that does not conform: b must have m elements.
    let bad = [tensor(&[3, 4], |_| 1.0), tensor(&[5], |_| 1.0)];
    let err = p.run("rows", &bad).unwrap_err().to_string();
    assert!(
        err.contains("'linalg.generic' op size mismatch: ")
            && err.contains("is 5 at run time, but the program needs 3"),
        "{err}"
    );
    assert_no_validation_messages(device.context());
}
