//! Kernels written as spv text with shader-interface attributes
//! (`spirv.interface_var_abi` arguments, `spirv.entry_point_abi`) go
//! through lower-abi-attrs → update-vce → verify → serialize → spirv-val
//! (in process, Vulkan rules) → reflection (of the binary, compared with
//! reflection of the IR) → descriptor-set layouts → dispatch on the Vulkan
//! device with the validation layer on. Each test checks the results
//! against a host computation and that the layer reported nothing.
//!
//! (a) three storage buffers in set 0; (b) bindings over sets 0 and 2 with
//! gaps; (c) a uniform buffer, push constants and storage buffers; (d) a
//! read-only (`NonWritable`) buffer; (e) a runtime array whose length
//! (`OpArrayLength`) comes from the bound buffer range.

use kiln_abi::{Access, DescriptorType};
use kiln_gpu_tests::{
    assert_no_validation_messages, compile_abi_kernel as compile, test_context, Buffer,
    ComputePipeline,
};
use kiln_vulkan::BufferBinding;
use rspirv::binary::Disassemble;

const HEADER: &str = r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>"#;

/// (a) c = a * b + a over three storage buffers of set 0, given as
/// pointers to unlaid-out arrays.
const THREE_BUFFERS: &str = r#"
  spirv.func @mul_add(
      %a: !spirv.ptr<!spirv.array<256 x f32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
      %b: !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>},
      %c: !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2)>})
      "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %pa = spirv.AccessChain %a[%i] : !spirv.ptr<!spirv.array<256 x f32>, StorageBuffer>, i32
    %pb = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer>, i32, i32
    %pc = spirv.AccessChain %c[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    %y = spirv.Load "StorageBuffer" %pb : f32
    %m = spirv.FMul %x, %y : f32
    %s = spirv.FAdd %m, %x : f32
    spirv.Store "StorageBuffer" %pc, %s : f32
    spirv.Return
  }
}
"#;

#[test]
fn a_three_storage_buffers_in_set_0() {
    let ctx = test_context();
    let (words, iface) = compile(&ctx, &format!("{HEADER}{THREE_BUFFERS}"), "mul_add");
    let keys: Vec<(u32, u32)> = iface.bindings.iter().map(|b| (b.set, b.binding)).collect();
    assert_eq!(keys, [(0, 0), (0, 1), (0, 2)]);
    for b in &iface.bindings {
        assert_eq!(b.descriptor_type, DescriptorType::StorageBuffer);
        assert_eq!(b.min_size, 1024, "256 f32 at stride 4");
        assert_eq!(b.element_stride, None);
    }
    assert_eq!(iface.workgroup_size, [64, 1, 1]);
    let a: Vec<f32> = (0..256).map(|i| i as f32 * 0.5 - 20.0).collect();
    let b: Vec<f32> = (0..256).map(|i| 3.0 - i as f32 * 0.125).collect();
    let ba = Buffer::from_slice(&ctx, &a).unwrap();
    let bb = Buffer::from_slice(&ctx, &b).unwrap();
    let bc = Buffer::from_slice(&ctx, &[f32::NAN; 256]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &ba), (0, 1, &bb), (0, 2, &bc)],
        &[],
        [4, 1, 1],
    )
    .unwrap();
    let c: Vec<f32> = bc.to_vec();
    for i in 0..256 {
        assert_eq!(c[i], a[i] * b[i] + a[i], "c[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

/// (b) out = x + 2 * y with x at 0:1, y at 2:0 and out at 2:3: set 1 and
/// bindings 0:0, 2:1, 2:2 are unused.
const SPARSE: &str = r#"
  spirv.func @sparse(
      %x: !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>},
      %y: !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(2, 0)>},
      %out: !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(2, 3)>})
      "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %px = spirv.AccessChain %x[%i] : !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer>, i32
    %py = spirv.AccessChain %y[%i] : !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer>, i32
    %po = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer>, i32
    %a = spirv.Load "StorageBuffer" %px : i32
    %b = spirv.Load "StorageBuffer" %py : i32
    %b2 = spirv.IAdd %b, %b : i32
    %s = spirv.IAdd %a, %b2 : i32
    spirv.Store "StorageBuffer" %po, %s : i32
    spirv.Return
  }
}
"#;

#[test]
fn b_sparse_sets_and_binding_gaps() {
    let ctx = test_context();
    let (words, iface) = compile(&ctx, &format!("{HEADER}{SPARSE}"), "sparse");
    let keys: Vec<(u32, u32)> = iface.bindings.iter().map(|b| (b.set, b.binding)).collect();
    assert_eq!(keys, [(0, 1), (2, 0), (2, 3)]);
    assert_eq!(iface.sets(), [0, 2]);
    for b in &iface.bindings {
        assert_eq!((b.min_size, b.element_stride), (0, Some(4)));
    }
    const N: usize = 64;
    let x: Vec<i32> = (0..N as i32).map(|i| i * 7 - 100).collect();
    let y: Vec<i32> = (0..N as i32).map(|i| 1000 - i * i).collect();
    let bx = Buffer::from_slice(&ctx, &x).unwrap();
    let by = Buffer::from_slice(&ctx, &y).unwrap();
    let bo = Buffer::from_slice(&ctx, &[0i32; N]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(
        &pipeline,
        &[(2, 3, &bo), (0, 1, &bx), (2, 0, &by)],
        &[],
        [4, 1, 1],
    )
    .unwrap();
    let out: Vec<i32> = bo.to_vec();
    for i in 0..N {
        assert_eq!(out[i], x[i] + 2 * y[i], "out[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

/// (c) out[i] = i < n ? in[i] * u.scale.y * k + u.bias : -1, with the
/// uniform block `u` (std140: vec4 at 0, f32 at 16), push constants `n`
/// and `k` (one push-constant block, std430: i32 at 0, f32 at 4), `in` and
/// `out` storage buffers.
const UNIFORM_PUSH: &str = r#"
  spirv.func @affine(
      %u: !spirv.ptr<!spirv.struct<(vector<4xf32>, f32)>, Uniform> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
      %n: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3), PushConstant>},
      %in: !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>},
      %k: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 4)>},
      %out: !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2)>})
      "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %ps = spirv.AccessChain %u[%c0] : !spirv.ptr<!spirv.struct<(vector<4xf32>, f32)>, Uniform>, i32
    %scale4 = spirv.Load "Uniform" %ps : vector<4xf32>
    %scale = spirv.CompositeExtract %scale4[1 : i32] : vector<4xf32>
    %pb = spirv.AccessChain %u[%c1] : !spirv.ptr<!spirv.struct<(vector<4xf32>, f32)>, Uniform>, i32
    %bias = spirv.Load "Uniform" %pb : f32
    %pin = spirv.AccessChain %in[%i] : !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer>, i32
    %x = spirv.Load "StorageBuffer" %pin : f32
    %t0 = spirv.FMul %x, %scale : f32
    %t1 = spirv.FMul %t0, %k : f32
    %t2 = spirv.FAdd %t1, %bias : f32
    %m1 = spirv.Constant -1.0 : f32
    %inside = spirv.SLessThan %i, %n : i32
    %r = spirv.Select %inside, %t2, %m1 : i1, f32
    %pout = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %pout, %r : f32
    spirv.Return
  }
}
"#;

#[test]
fn c_uniform_buffer_push_constants_and_storage_buffers() {
    let ctx = test_context();
    let (words, iface) = compile(&ctx, &format!("{HEADER}{UNIFORM_PUSH}"), "affine");
    let u = iface.binding(0, 0).unwrap();
    assert_eq!(u.descriptor_type, DescriptorType::UniformBuffer);
    assert_eq!(u.access, Access::ReadOnly);
    assert_eq!(u.min_size, 20, "std140: vec4 at 0, f32 at 16");
    assert_eq!(iface.binding(0, 1).unwrap().element_stride, Some(4));
    let pc = iface.push_constants.expect("one push-constant range");
    assert_eq!((pc.offset, pc.size), (0, 8), "i32 n at 0, f32 k at 4");
    assert!(iface.binding(0, 3).is_none() && iface.binding(0, 4).is_none());

    const N: usize = 32;
    let n: i32 = 27;
    let k: f32 = 0.5;
    let uniform: [f32; 8] = [9.0, 3.0, 9.0, 9.0, 1.25, 0.0, 0.0, 0.0];
    let input: Vec<f32> = (0..N).map(|i| i as f32 - 10.0).collect();
    let bu = Buffer::from_slice(&ctx, &uniform).unwrap();
    let bi = Buffer::from_slice(&ctx, &input).unwrap();
    let bo = Buffer::from_slice(&ctx, &[0f32; N]).unwrap();
    let mut push = Vec::new();
    push.extend_from_slice(&n.to_le_bytes());
    push.extend_from_slice(&k.to_le_bytes());
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &bu), (0, 1, &bi), (0, 2, &bo)],
        &push,
        [4, 1, 1],
    )
    .unwrap();
    let out: Vec<f32> = bo.to_vec();
    for i in 0..N {
        let expected = if (i as i32) < n {
            input[i] * 3.0 * k + 1.25
        } else {
            -1.0
        };
        assert_eq!(out[i], expected, "out[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

/// (d) out[i] = in[i] * in[i] with `in` declared NonWritable.
const READ_ONLY: &str = r#"
  spirv.func @square(
      %in: !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>, spirv.decoration = #spirv.decoration<NonWritable>},
      %out: !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>})
      "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %pin = spirv.AccessChain %in[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32>)>, StorageBuffer>, i32, i32
    %pout = spirv.AccessChain %out[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32>)>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pin : i32
    %sq = spirv.IMul %x, %x : i32
    spirv.Store "StorageBuffer" %pout, %sq : i32
    spirv.Return
  }
}
"#;

#[test]
fn d_read_only_buffer() {
    let ctx = test_context();
    let (words, iface) = compile(&ctx, &format!("{HEADER}{READ_ONLY}"), "square");
    let dis = rspirv::dr::load_words(&words).unwrap().disassemble();
    let id = dis
        .lines()
        .find_map(|l| l.strip_suffix(" \"square_arg_0\"")?.strip_prefix("OpName "))
        .unwrap_or_else(|| panic!("no OpName for square_arg_0:\n{dis}"));
    assert!(
        dis.contains(&format!("OpDecorate {id} NonWritable")),
        "{dis}"
    );
    assert_eq!(iface.binding(0, 0).unwrap().access, Access::ReadOnly);
    assert_eq!(iface.binding(0, 1).unwrap().access, Access::ReadWrite);
    let input: Vec<i32> = (0..64).map(|i| i - 31).collect();
    let bi = Buffer::from_slice(&ctx, &input).unwrap();
    let bo = Buffer::from_slice(&ctx, &[0i32; 64]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    ctx.dispatch(&pipeline, &[(0, 0, &bi), (0, 1, &bo)], &[], [1, 1, 1])
        .unwrap();
    assert_eq!(
        bi.to_vec::<i32>(),
        input,
        "the read-only buffer is unchanged"
    );
    let out: Vec<i32> = bo.to_vec();
    for i in 0..64 {
        assert_eq!(out[i], input[i] * input[i], "out[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

/// (e) out[i] = in[i] + length(in), the runtime array's length read with
/// OpArrayLength from whatever range is bound.
const RUNTIME_LENGTH: &str = r#"
  spirv.func @with_len(
      %in: !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
      %out: !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>})
      "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %len = "spirv.ArrayLength"(%in) {array_member = 0 : i32} : (!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32>)>, StorageBuffer>) -> i32
    %pin = spirv.AccessChain %in[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32>)>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pin : i32
    %s = spirv.IAdd %x, %len : i32
    %pout = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.rtarray<i32>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %pout, %s : i32
    spirv.Return
  }
}
"#;

#[test]
fn e_runtime_array_length_from_the_bound_buffer() {
    let ctx = test_context();
    let (words, iface) = compile(&ctx, &format!("{HEADER}{RUNTIME_LENGTH}"), "with_len");
    let b = iface.binding(0, 0).unwrap();
    assert_eq!((b.min_size, b.element_stride), (0, Some(4)));
    let input: Vec<i32> = (0..200).map(|i| i * 3).collect();
    let bi = Buffer::from_slice(&ctx, &input).unwrap();
    let bo = Buffer::from_slice(&ctx, &[-7i32; 96]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    // Whole prefixes, then a range at the smallest aligned non-zero offset.
    let align = ctx.limits().min_storage_buffer_offset_alignment.max(4);
    assert!(align % 4 == 0 && align / 4 + 64 <= 200, "alignment {align}");
    for (offset, bound, groups) in [(0u64, 96u64, 3u32), (0, 64, 2), (align, 64, 2)] {
        ctx.dispatch_bindings(
            &pipeline,
            &[
                BufferBinding::new(0, 0, &bi).range(offset, Some(bound * 4)),
                BufferBinding::new(0, 1, &bo),
            ],
            &[],
            [groups, 1, 1],
        )
        .unwrap();
        let out: Vec<i32> = bo.to_vec();
        let first = (offset / 4) as usize;
        for i in 0..bound as usize {
            assert_eq!(
                out[i],
                input[first + i] + bound as i32,
                "out[{i}] with {bound} elements bound at offset {offset}"
            );
        }
    }
    assert_no_validation_messages(&ctx);
}
