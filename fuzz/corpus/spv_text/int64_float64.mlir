// target-env: vulkan1.0
// 64-bit integer and double arithmetic with large literals.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Float64], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @longs bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  spirv.GlobalVariable @doubles bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %longs = spirv.mlir.addressof @longs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
    %lp = spirv.AccessChain %longs[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>, i32, i32
    %l = spirv.Load "StorageBuffer" %lp : i64
    %big = spirv.Constant 9223372036854775807 : i64
    %min = spirv.Constant -9223372036854775808 : i64
    %prime = spirv.Constant 1099511628211 : i64
    %m = spirv.IMul %l, %prime : i64
    %a = spirv.BitwiseAnd %m, %big : i64
    %o = spirv.BitwiseOr %a, %min : i64
    %d = spirv.ConvertSToF %o : i64 to f64
    %doubles = spirv.mlir.addressof @doubles : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
    %dp = spirv.AccessChain %doubles[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %dp : f64
    %e = spirv.Constant 2.7182818284590451 : f64
    %tiny = spirv.Constant 4.940660e-324 : f64
    %p = spirv.FMul %v, %e : f64
    %q = spirv.FAdd %p, %d : f64
    %r = spirv.FAdd %q, %tiny : f64
    %sq = spirv.GL.Sqrt %r : f64
    spirv.Store "StorageBuffer" %dp, %sq : f64
    spirv.Store "StorageBuffer" %lp, %o : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
