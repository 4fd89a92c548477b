//! Arg-reductions (argmax, argmin: a value and its index folded together)
//! split over invocations, subgroups and workgroups give exactly the
//! sequential fold's result — the first index of the extremum, NaNs
//! never taken — against the reference evaluator: rows full of ties
//! (small integers), a NaN and infinities in them, one long row (split
//! across workgroups), many short ones, i32 and i64 indices, f32 and i32
//! values (also yielded by `maxsi`/`minsi`, as torch-mlir writes an
//! integer argmax); on lavapipe's env and one without subgroup
//! arithmetic, with every `kiln tune` candidate forced in turn.

use kiln_core::codegen::compile;
use kiln_core::codegen::strategy::Tuning;
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Value};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::device;

/// `@f(x) -> (value, index)` reducing the last dimension of `[r, n]`
/// (element type `elem`: `f32` or `i32`) with index type `index`;
/// `greater` for an argmax, else an argmin. The comparison is written
/// with the accumulator on the left when `acc_left`.
fn program(r: usize, n: usize, elem: &str, index: &str, greater: bool, acc_left: bool) -> String {
    let (init, pred) = match (elem, greater) {
        ("f32", true) => ("0xFF800000", "arith.cmpf ogt"),
        ("f32", false) => ("0x7F800000", "arith.cmpf olt"),
        (_, true) => ("-2147483648", "arith.cmpi sgt"),
        (_, false) => ("2147483647", "arith.cmpi slt"),
    };
    // With the accumulator on the left the predicate turns round.
    let pred = if acc_left {
        pred.replace("ogt", "OLT")
            .replace("olt", "ogt")
            .replace("OLT", "olt")
            .replace("sgt", "SLT")
            .replace("slt", "sgt")
            .replace("SLT", "slt")
    } else {
        pred.to_string()
    };
    let (l, rr) = if acc_left { ("%m", "%a") } else { ("%a", "%m") };
    let cast = if index == "i32" {
        "arith.index_cast %k : index to i32"
    } else {
        "arith.index_cast %k : index to i64"
    };
    format!(
        r#"func.func @f(%x: tensor<{r}x{n}x{elem}>) -> (tensor<{r}x{elem}>, tensor<{r}x{index}>) {{
  %low = arith.constant {init} : {elem}
  %z = arith.constant 0 : {index}
  %e0 = tensor.empty() : tensor<{r}x{elem}>
  %e1 = tensor.empty() : tensor<{r}x{index}>
  %v0 = linalg.fill ins(%low : {elem}) outs(%e0 : tensor<{r}x{elem}>) -> tensor<{r}x{elem}>
  %i0 = linalg.fill ins(%z : {index}) outs(%e1 : tensor<{r}x{index}>) -> tensor<{r}x{index}>
  %res:2 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<{r}x{n}x{elem}>) outs(%v0, %i0 : tensor<{r}x{elem}>, tensor<{r}x{index}>) {{
  ^bb0(%a: {elem}, %m: {elem}, %i: {index}):
    %k = linalg.index 1 : index
    %ki = {cast}
    %p = {pred}, {l}, {rr} : {elem}
    %nm = arith.select %p, %a, %m : {elem}
    %ni = arith.select %p, %ki, %i : {index}
    linalg.yield %nm, %ni : {elem}, {index}
  }} -> (tensor<{r}x{elem}>, tensor<{r}x{index}>)
  return %res#0, %res#1 : tensor<{r}x{elem}>, tensor<{r}x{index}>
}}"#
    )
}

/// Rows of small integers (ties everywhere), with a NaN, +inf and -inf
/// placed in some rows (f32).
fn input(r: usize, n: usize, elem: &str) -> Value {
    let vals: Vec<i64> = (0..r * n)
        .map(|i| ((i as i64 * 7 + (i / 5) as i64 * 3) % 9) - 4)
        .collect();
    let data = if elem == "f32" {
        let mut d: Vec<f32> = vals.iter().map(|&v| v as f32).collect();
        if r * n > 3 {
            d[1] = f32::NAN;
            d[r * n / 2] = f32::INFINITY;
            d[r * n - 1] = f32::NEG_INFINITY;
        }
        Elements::F32(d)
    } else {
        Elements::I32(vals.iter().map(|&v| v as i32).collect())
    };
    let elem = if elem == "f32" {
        kiln_core::tensor::types::ElemType::F32
    } else {
        kiln_core::tensor::types::ElemType::I32
    };
    Value::Tensor(std::rc::Rc::new(kiln_core::tensor::eval::Tensor {
        elem,
        shape: vec![r, n],
        data,
    }))
}

/// The elements of a result as bits (NaN-safe exact comparison).
fn bits(v: &Value) -> Vec<u64> {
    let Value::Tensor(t) = v else {
        panic!("expected a tensor");
    };
    (0..t.len())
        .map(|i| match t.get(i) {
            kiln_core::tensor::eval::Scalar::Float(f) => f.to_bits(),
            kiln_core::tensor::eval::Scalar::Int(x) => x as u64,
        })
        .collect()
}

#[test]
fn arg_reductions_split_anywhere_match_the_sequential_fold() {
    let device = device();
    let lavapipe = device_target(&device);
    let no_subgroups = crate::tensor_programs::minimal_target(&device);
    let cases = [
        (1, 100_000, "f32", "i64", true, false),
        (1, 3000, "f32", "i32", false, true),
        (1024, 512, "f32", "i64", true, false),
        (7, 33, "f32", "i32", true, true),
        (3, 5000, "i32", "i32", false, false),
        (40, 4096, "i32", "i64", true, false),
    ];
    // Integer values also as torch-mlir writes them: the value yielded
    // by `maxsi`/`minsi` instead of its select.
    let forms = cases.into_iter().flat_map(|c| {
        let torch = (c.2 == "i32").then_some((c, true));
        [(c, false)].into_iter().chain(torch)
    });
    for ((r, n, elem, index, greater, acc_left), torch) in forms {
        let mut src = program(r, n, elem, index, greater, acc_left);
        if torch {
            let op = if greater { "maxsi" } else { "minsi" };
            let sel = format!("arith.select %p, %a, %m : {elem}");
            assert!(src.contains(&sel));
            src = src.replace(&sel, &format!("arith.{op} %m, %a : {elem}"));
        }
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let args = [input(r, n, elem)];
        let want = eval::run(&module, "f", &args).unwrap();
        let name = format!("{r}x{n} {elem}/{index} greater {greater} torch-mlir form {torch}");
        for target in [&lavapipe, &no_subgroups] {
            let compiled = compile(&module, target).unwrap();
            let d = &compiled.functions[0].dispatches[0];
            let (key, candidates) = (d.tuning_key.clone(), d.candidates.clone());
            assert!(
                !candidates.is_empty() && compiled.functions[0].dispatches.len() <= 2,
                "{name}"
            );
            for choice in candidates {
                let mut tuning = Tuning::new();
                tuning.insert(&key, choice, "test");
                let tuned = target.clone().with_tuning(tuning);
                let compiled = compile(&module, &tuned).unwrap();
                let strategy = compiled.functions[0].dispatches[0].strategy.to_string();
                let program = kiln_runtime::Program::load(&device, compiled).unwrap();
                let got = program.run("f", &args).unwrap();
                for (o, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(
                        bits(g),
                        bits(w),
                        "{name} output {o} with {}:\n{strategy}",
                        choice.to_text()
                    );
                }
            }
        }
    }
    assert_no_validation_messages(device.context());
}
