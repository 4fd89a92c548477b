// target-env: vulkan1.0
// Vector construction, extraction, insertion, shuffles, dynamic indexing, dot
// products and vector-times-scalar.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %y = spirv.CompositeExtract %gid[1 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %three = spirv.Constant 3 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : vector<4xf32>
    %c = spirv.Constant dense<[1.000000e+00, -2.000000e+00, 3.250000e+00, 0.000000e+00]> : vector<4xf32>
    %splat = spirv.Constant dense<5.000000e-01> : vector<4xf32>
    %s = spirv.FAdd %v, %c : vector<4xf32>
    %t = spirv.FMul %s, %splat : vector<4xf32>
    %a = spirv.CompositeExtract %t[0 : i32] : vector<4xf32>
    %b = spirv.CompositeExtract %t[3 : i32] : vector<4xf32>
    %ab = spirv.CompositeConstruct %a, %b : (f32, f32) -> vector<2xf32>
    %abab = spirv.VectorShuffle [0 : i32, 1 : i32, 0 : i32, 1 : i32] %ab, %ab : vector<2xf32>, vector<2xf32> -> vector<4xf32>
    %mix = spirv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %t, %abab : vector<4xf32>, vector<4xf32> -> vector<4xf32>
    %d = spirv.Dot %mix, %t : vector<4xf32> -> f32
    %scaled = spirv.VectorTimesScalar %mix, %d : (vector<4xf32>, f32) -> vector<4xf32>
    %lane = spirv.BitwiseAnd %y, %three : i32
    %e = spirv.VectorExtractDynamic %scaled[%lane] : vector<4xf32>, i32
    %ins = spirv.VectorInsertDynamic %e, %scaled[%zero] : vector<4xf32>, i32
    %fin = spirv.CompositeInsert %d, %ins[3 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %p, %fin : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 16, 4, 1
}
