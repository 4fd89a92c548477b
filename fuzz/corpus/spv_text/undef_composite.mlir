// target-env: vulkan1.0
// Building composites from spirv.Undef with CompositeInsert, array and struct
// constants, and extraction from them.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %three = spirv.Constant 3 : i32
    %u = spirv.Undef : vector<4xf32>
    %f = spirv.ConvertUToF %x : i32 to f32
    %a = spirv.CompositeInsert %f, %u[0 : i32] : f32 into vector<4xf32>
    %b = spirv.CompositeInsert %f, %a[1 : i32] : f32 into vector<4xf32>
    %table = spirv.Constant [1.000000e+00 : f32, 2.000000e+00 : f32, 4.000000e+00 : f32, 8.000000e+00 : f32] : !spirv.array<4 x f32>
    %t2 = spirv.CompositeExtract %table[2 : i32] : !spirv.array<4 x f32>
    %c = spirv.CompositeInsert %t2, %b[2 : i32] : f32 into vector<4xf32>
    %us = spirv.Undef : !spirv.struct<(f32, vector<4xf32>)>
    %s1 = spirv.CompositeInsert %c, %us[1 : i32] : vector<4xf32> into !spirv.struct<(f32, vector<4xf32>)>
    %s2 = spirv.CompositeInsert %t2, %s1[0 : i32] : f32 into !spirv.struct<(f32, vector<4xf32>)>
    %y = spirv.CompositeExtract %s2[1 : i32, 2 : i32] : !spirv.struct<(f32, vector<4xf32>)>
    %arr = spirv.Variable : !spirv.ptr<!spirv.array<4 x f32>, Function>
    spirv.Store "Function" %arr, %table : !spirv.array<4 x f32>
    %lane = spirv.BitwiseAnd %x, %three : i32
    %ep = spirv.AccessChain %arr[%lane] : !spirv.ptr<!spirv.array<4 x f32>, Function>, i32
    %e = spirv.Load "Function" %ep : f32
    %r = spirv.FAdd %y, %e : f32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %r : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
