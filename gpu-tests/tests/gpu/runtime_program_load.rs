//! `Program::load` makes a program's pipelines on several threads (the
//! device's `VkPipelineCache` shared by all of them), validation on: the
//! loaded program gives the reference evaluator's results, and a failing
//! kernel is reported deterministically — always the first failing one in
//! program order, as a sequential load would report it.

use std::rc::Rc;

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_core::tensor::TensorModule;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::Program;

use crate::runtime_support::device;

/// Several kernels: one per function (fused), six functions.
const PROGRAM: &str = r#"
func.func @rows(%a: tensor<6x33xf32>, %b: tensor<6xf32>) -> tensor<6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %s = linalg.reduce ins(%a : tensor<6x33xf32>) outs(%f : tensor<6xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %r = arith.addf %s, %b : tensor<6xf32>
  %o = arith.mulf %r, %r : tensor<6xf32>
  return %o : tensor<6xf32>
}
func.func @scale(%x: tensor<6xf32>) -> tensor<6xf32> {
  %y = arith.mulf %x, %x : tensor<6xf32>
  %z = arith.subf %y, %x : tensor<6xf32>
  return %z : tensor<6xf32>
}
func.func @add(%x: tensor<6xf32>) -> tensor<6xf32> {
  %y = arith.addf %x, %x : tensor<6xf32>
  return %y : tensor<6xf32>
}
func.func @max(%x: tensor<6xf32>) -> tensor<6xf32> {
  %y = arith.maximumf %x, %x : tensor<6xf32>
  %z = arith.addf %y, %x : tensor<6xf32>
  return %z : tensor<6xf32>
}
func.func @min(%x: tensor<6xf32>) -> tensor<6xf32> {
  %y = arith.minimumf %x, %x : tensor<6xf32>
  %z = arith.mulf %y, %x : tensor<6xf32>
  return %z : tensor<6xf32>
}
func.func @neg(%x: tensor<6xf32>) -> tensor<6xf32> {
  %y = arith.negf %x : tensor<6xf32>
  return %y : tensor<6xf32>
}
"#;

fn module() -> TensorModule {
    kiln_core::tensor::load(PROGRAM).unwrap()
}

fn t(shape: Vec<usize>, v: Vec<f32>) -> Value {
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape,
        data: Elements::F32(v),
    }))
}

fn check(program: &Program, name: &str, args: &[Value]) {
    let got = program.run(name, args).unwrap();
    let want = eval::run(&module(), name, args).unwrap();
    let (Some(got), Some(want)) = (got[0].tensor(), want[0].tensor()) else {
        panic!("tensor results");
    };
    let (Elements::F32(got), Elements::F32(want)) = (&got.data, &want.data) else {
        panic!("f32 results");
    };
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
}

fn kernel_names(program: &kiln_core::codegen::CompiledProgram) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for k in program
        .functions
        .iter()
        .flat_map(|f| &f.dispatches)
        .flat_map(|d| &d.kernels)
    {
        if !names.contains(&k.name) {
            names.push(k.name.clone());
        }
    }
    names
}

#[test]
fn a_program_loaded_on_several_threads_runs_right() {
    let device = device();
    let compiled = device.compile_program(&module()).unwrap();
    assert!(
        kernel_names(&compiled).len() >= 6,
        "several kernels to load: {:?}",
        kernel_names(&compiled)
    );
    let program = Program::load(&device, compiled).unwrap();
    let a: Vec<f32> = (0..6 * 33).map(|i| (i % 7) as f32 * 0.5 - 1.0).collect();
    let b: Vec<f32> = (0..6).map(|i| i as f32).collect();
    check(
        &program,
        "rows",
        &[t(vec![6, 33], a), t(vec![6], b.clone())],
    );
    for f in ["scale", "add", "max", "min", "neg"] {
        check(&program, f, &[t(vec![6], b.clone())]);
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn the_first_failing_kernel_in_program_order_is_reported() {
    let device = device();
    let compiled = device.compile_program(&module()).unwrap();
    let names = kernel_names(&compiled);
    assert!(names.len() >= 3, "{names:?}");
    // Break the second kernel and the last: not SPIR-V (rejected before
    // any driver call).
    let (first_bad, last_bad) = (names[1].clone(), names[names.len() - 1].clone());
    let mut broken = (*compiled).clone();
    for k in broken
        .functions
        .iter_mut()
        .flat_map(|f| &mut f.dispatches)
        .flat_map(|d| &mut d.kernels)
    {
        if k.name == first_bad || k.name == last_bad {
            k.words = vec![0x0723_0203, 0x0001_0000, 0, 1];
        }
    }
    // Threads race for the kernels; the error must not depend on who won.
    for _ in 0..20 {
        let err = Program::load(&device, broken.clone())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&first_bad),
            "the first broken kernel ({first_bad}) is named: {err}"
        );
    }
    // The good kernels still load, and the program with them runs.
    let program = Program::load(&device, compiled).unwrap();
    check(
        &program,
        "scale",
        &[t(vec![6], vec![1.0, 2.0, 3.0, -1.0, 0.5, 4.0])],
    );
    assert_no_validation_messages(device.context());
}
