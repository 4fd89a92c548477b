//! Tensors too large for the host, or whose element count overflows 64
//! bits, are errors naming the op and the size in the reference
//! evaluator and the parser — before this check, 4294967296 x 4294967296
//! wrapped to 0 elements (a panic indexing them) and a 400 GB
//! `tensor.empty` aborted the process in the allocator.

use kiln_core::tensor::e2e::{self, ReferenceBackend, RunOptions};

/// A test that fills a `tensor.empty` of `ty` (with `sizes` as its
/// dynamic sizes, given as unfoldable constants) and checks one element.
fn fill_program(ty: &str, dyn_sizes: &[u64]) -> String {
    let mut s = String::from("func.func @f() {\n");
    let mut names = Vec::new();
    for (i, n) in dyn_sizes.iter().enumerate() {
        s.push_str(&format!("  %n{i} = util.unfoldable_constant {n} : index\n"));
        names.push(format!("%n{i}"));
    }
    let rank = ty.matches('x').count();
    let zeros = vec!["%i0"; rank].join(", ");
    s.push_str(&format!(
        "  %a = tensor.empty({}) : {ty}
  %c = arith.constant 1.0 : f32
  %d = linalg.fill ins(%c : f32) outs(%a : {ty}) -> {ty}
  %i0 = arith.constant 0 : index
  %e = tensor.extract %d[{zeros}] : {ty}
  %t = arith.cmpf oeq, %e, %c : f32
  check.expect_true(%t) : i1
  return
}}
",
        names.join(", ")
    ));
    s
}

/// The output of running `text` on the reference evaluator; it must fail.
fn failure(text: &str) -> String {
    let m = kiln_core::tensor::load(text).expect("parses");
    let report = e2e::run(&m, &mut ReferenceBackend, &RunOptions::default()).expect("runs");
    assert!(!report.success(), "{}", report.output);
    report.output
}

#[test]
fn a_400_gb_static_tensor_is_an_error() {
    let out = failure(&fill_program("tensor<100000x1000000xf32>", &[]));
    assert!(
        out.contains("'tensor.empty' op cannot hold a tensor<100000x1000000xf32>: it needs 400000000000 bytes of host memory"),
        "{out}"
    );
}

#[test]
fn a_400_gb_dynamic_tensor_is_an_error() {
    let out = failure(&fill_program("tensor<?xf32>", &[100_000_000_000]));
    assert!(
        out.contains(
            "'tensor.empty' op cannot hold a tensor<100000000000xf32>: it needs 400000000000 bytes"
        ),
        "{out}"
    );
}

#[test]
fn an_element_count_past_2_pow_64_is_an_error() {
    let out = failure(&fill_program("tensor<4294967296x4294967296xf32>", &[]));
    assert!(
        out.contains("'tensor.empty' op a tensor of shape [4294967296, 4294967296] has more elements than 2^64"),
        "{out}"
    );
    let out = failure(&fill_program("tensor<?x?xf32>", &[1 << 32, 1 << 32]));
    assert!(out.contains("has more elements than 2^64"), "{out}");
}

#[test]
fn a_dense_attribute_past_2_pow_64_elements_is_a_parse_error() {
    let text = "func.func @f() -> tensor<4294967296x4294967296xf32> {
  %c = arith.constant dense<1.0> : tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}
";
    let err = kiln_core::tensor::load(text).expect_err("too large");
    assert!(
        err.to_string().contains("dense attribute is too large"),
        "{err}"
    );
}

#[test]
fn host_sizes_are_checked_without_overflow() {
    use kiln_core::host_memory::{check, element_count, filled, HostAllocError};
    assert_eq!(element_count([1 << 32, 1 << 32]), None);
    assert_eq!(element_count([1 << 31, 1 << 32]), Some(1 << 63));
    assert_eq!(check(1 << 62, 8), Err(HostAllocError::Overflow));
    assert!(matches!(
        filled(0u8, usize::MAX),
        Err(HostAllocError::TooLarge { .. } | HostAllocError::Failed { .. })
    ));
    assert_eq!(filled(7u16, 3), Ok(vec![7, 7, 7]));
}

/// A module with `n` `spirv.IAdd`s (one result id each) in its function.
fn module_with_adds(n: usize) -> kiln_core::ir::Module {
    let text = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @main() "None" {
    %c = spirv.Constant 1 : i32
    %s = spirv.IAdd %c, %c : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
"#;
    let mut m = kiln_core::text::parse(text).expect("parses");
    let add = (0..m.op_count())
        .map(kiln_core::ir::Op::from_index)
        .find(|&o| m.op(o).kind.name() == "IAdd")
        .expect("an IAdd");
    let block = m.op(add).parent.expect("placed");
    let data = m.op(add).clone();
    let ty = m.value_type(data.results[0]);
    let ret = m.block_mut(block).ops.pop().expect("the return");
    for _ in 0..n {
        let op = m.create_op(
            kiln_core::ir::OpSpec::new(data.kind.clone())
                .operands(data.operands.clone())
                .results(vec![ty]),
        );
        m.append_op(block, op);
    }
    m.block_mut(block).ops.push(ret);
    m
}

#[test]
fn the_serializer_refuses_more_ids_than_spirv_allows() {
    // Ids: the adds, plus the module's own (types, constant, function,
    // label, ...): past 4,194,303 (the deserializer's bound).
    let err = kiln_core::binary::serialize(&module_with_adds(4_194_304)).expect_err("too many ids");
    assert!(
        err.to_string()
            .contains("result ids, more than SPIR-V's limit of 4,194,303 on spv.module"),
        "{err}"
    );
}

/// Static dimensions past 2^63 bytes are a compile error naming the op,
/// not a wrapped index (an overflow panic in a debug build and a silent
/// compile in a release one on main: found by the ONNX importer's fuzz
/// target), as the argument and as a result.
#[test]
fn static_sizes_past_2_pow_63_bytes_do_not_compile() {
    let target = crate::common::lavapipe_target();
    let compile = |text: &str| {
        let m = kiln_core::tensor::load(text).expect("parses");
        let prepared = kiln_core::codegen::prepare_module(&m).expect("prepares");
        let f = prepared.funcs()[0];
        kiln_core::codegen::compile_function(&prepared, f, &target)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let arg = compile(
        "func.func @f(%x: tensor<4611686018427387904x4611686018427387904xf32>) -> tensor<4611686018427387904x4611686018427387904xf32> {
  %y = math.exp %x : tensor<4611686018427387904x4611686018427387904xf32>
  return %y : tensor<4611686018427387904x4611686018427387904xf32>
}",
    );
    assert!(arg.contains("holds more than 2^63 bytes"), "{arg}");
    // 2^62 f32 elements: 2^64 bytes, past i64 though the count fits.
    let result = compile(
        "func.func @f(%n: index) -> tensor<?x4611686018427387904xf32> {
  %e = tensor.empty(%n) : tensor<?x4611686018427387904xf32>
  return %e : tensor<?x4611686018427387904xf32>
}",
    );
    assert!(result.contains("holds more than 2^63 bytes"), "{result}");
}
