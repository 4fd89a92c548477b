//! Kernels written as spv text go through kiln's whole spine — parse,
//! verify, serialize, spirv-val (in process, Vulkan rules), reflect — and
//! run on the Vulkan device with the validation layer on: correct results
//! and zero validation messages.

use kiln_core::binary::serialize;
use kiln_core::reflect::reflect_binary;
use kiln_core::validate::{validate, ValidationEnv};
use kiln_gpu_tests::{assert_no_validation_messages, test_context, Buffer, ComputePipeline};
use rspirv::binary::Disassemble;

/// Compiles spv text to validated SPIR-V words.
fn compile(src: &str, env: ValidationEnv) -> Vec<u32> {
    let module = kiln_core::text::parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
    kiln_core::ir::verify::verify(&module).unwrap_or_else(|e| panic!("verify: {e}"));
    let words = serialize(&module).unwrap_or_else(|e| panic!("serialize: {e}"));
    validate(&words, env).unwrap_or_else(|e| panic!("spirv-val: {e}"));
    words
}

const VECTOR_ADD: &str = r#"
spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @a bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @b bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @c bind(0, 2) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @add() "None" {
    %id = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %a = spv.mlir.addressof @a : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %b = spv.mlir.addressof @b : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %c = spv.mlir.addressof @c : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %zero = spv.Constant 0 : i32
    %v = spv.Load "Input" %id : vector<3xi32>
    %i = spv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %pa = spv.AccessChain %a[%zero, %i] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %pb = spv.AccessChain %b[%zero, %i] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %pc = spv.AccessChain %c[%zero, %i] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spv.Load "StorageBuffer" %pa : f32
    %y = spv.Load "StorageBuffer" %pb : f32
    %s = spv.FAdd %x, %y : f32
    spv.Store "StorageBuffer" %pc, %s : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @add, @gid
  spv.ExecutionMode @add "LocalSize", 32, 1, 1
}
"#;

#[test]
fn vector_add_from_spv_text() {
    const N: usize = 1024;
    let words = compile(VECTOR_ADD, ValidationEnv::Vulkan1_0);
    let iface = reflect_binary(&words, "add").unwrap();
    assert_eq!(iface.workgroup_size, [32, 1, 1]);
    assert_eq!(iface.bindings.len(), 3);

    let ctx = test_context();
    let a: Vec<f32> = (0..N).map(|i| i as f32 * 0.25).collect();
    let b: Vec<f32> = (0..N).map(|i| 1000.0 - i as f32).collect();
    let ba = Buffer::from_slice(&ctx, &a).unwrap();
    let bb = Buffer::from_slice(&ctx, &b).unwrap();
    let bc = Buffer::from_slice(&ctx, &vec![-1.0f32; N]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &ba), (0, 1, &bb), (0, 2, &bc)],
        &[],
        [(N / 32) as u32, 1, 1],
    )
    .unwrap();
    let c: Vec<f32> = bc.to_vec();
    for i in 0..N {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

/// A loop whose induction variable and accumulator are block arguments
/// (OpPhi in the binary), with a selection inside the body:
/// out[i] = sum_{k < n} (k odd ? k * x : x), n = i % 17, x = in[i].
const LOOP_WITH_PHI: &str = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>
  spirv.func @loop_phi() "None" {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %inp = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>
    %outp = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c17 = spirv.Constant 17 : i32
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %n = spirv.UMod %i, %c17 : i32
    %px = spirv.AccessChain %inp[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %px : i32
    %acc = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%c0, %c0 : i32, i32)
    ^header(%k: i32, %sum: i32):
      %more = spirv.SLessThan %k, %n : i32
      spirv.BranchConditional %more, ^body, ^merge
    ^body:
      %bit = spirv.BitwiseAnd %k, %c1 : i32
      %odd = spirv.IEqual %bit, %c1 : i32
      %t = spirv.Variable : !spirv.ptr<i32, Function>
      spirv.mlir.selection {
        spirv.BranchConditional %odd, ^then, ^else
      ^then:
        %kx = spirv.IMul %k, %x : i32
        spirv.Store "Function" %t, %kx : i32
        spirv.Branch ^join
      ^else:
        spirv.Store "Function" %t, %x : i32
        spirv.Branch ^join
      ^join:
        spirv.mlir.merge
      }
      %term = spirv.Load "Function" %t : i32
      %next = spirv.IAdd %sum, %term : i32
      spirv.Store "Function" %acc, %next : i32
      spirv.Branch ^continue(%next : i32)
    ^continue(%s2: i32):
      %k2 = spirv.IAdd %k, %c1 : i32
      spirv.Branch ^header(%k2, %s2 : i32, i32)
    ^merge:
      spirv.mlir.merge
    }
    %total = spirv.Load "Function" %acc : i32
    %small = spirv.SLessThan %n, %c1 : i32
    %result = spirv.Select %small, %c0, %total : i1, i32
    %po = spirv.AccessChain %outp[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %po, %result : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @loop_phi, @gid
  spirv.ExecutionMode @loop_phi "LocalSize", 64, 1, 1
}
"#;

#[test]
fn loop_with_phi_from_spv_text() {
    // The structured loop must really be there: OpLoopMerge and OpPhi.
    let words = compile(LOOP_WITH_PHI, ValidationEnv::Vulkan1_1);
    let dis = rspirv::dr::load_words(&words).unwrap().disassemble();
    assert!(dis.contains("OpLoopMerge"), "{dis}");
    assert!(dis.contains("OpPhi"), "{dis}");
    assert!(dis.contains("OpSelectionMerge"), "{dis}");

    let iface = reflect_binary(&words, "loop_phi").unwrap();
    assert_eq!(iface.bindings[0].min_size, 1024);
    let ctx = test_context();
    let input: Vec<i32> = (0..256).map(|i| 3 * i - 100).collect();
    let bin = Buffer::from_slice(&ctx, &input).unwrap();
    let bout = Buffer::from_slice(&ctx, &vec![i32::MIN; 256]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(&pipeline, &[(0, 0, &bin), (0, 1, &bout)], &[], [4, 1, 1])
        .unwrap();
    let out: Vec<i32> = bout.to_vec();
    for (i, &x) in input.iter().enumerate() {
        let n = i as i32 % 17;
        let expected: i32 = (0..n).map(|k| if k % 2 == 1 { k * x } else { x }).sum();
        assert_eq!(out[i], expected, "out[{i}] (x = {x}, n = {n})");
    }
    assert_no_validation_messages(&ctx);
}
