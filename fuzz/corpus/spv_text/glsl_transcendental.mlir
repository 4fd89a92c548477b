// target-env: vulkan1.0
// GLSL.std.450 exponentials, logarithms, trigonometry, rounding and
// frexp/ldexp on scalars and vectors.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : vector<4xf32>
    %0 = spirv.GL.Exp %v : vector<4xf32>
    %1 = spirv.GL.Log %0 : vector<4xf32>
    %2 = spirv.GL.Sqrt %1 : vector<4xf32>
    %3 = spirv.GL.InverseSqrt %2 : vector<4xf32>
    %4 = spirv.GL.Sin %3 : vector<4xf32>
    %5 = spirv.GL.Cos %4 : vector<4xf32>
    %6 = spirv.GL.Tan %5 : vector<4xf32>
    %7 = spirv.GL.Asin %6 : vector<4xf32>
    %8 = spirv.GL.Acos %7 : vector<4xf32>
    %9 = spirv.GL.Atan %8 : vector<4xf32>
    %10 = spirv.GL.Sinh %9 : vector<4xf32>
    %11 = spirv.GL.Cosh %10 : vector<4xf32>
    %12 = spirv.GL.Tanh %11 : vector<4xf32>
    %13 = spirv.GL.Pow %12, %v : vector<4xf32>
    %14 = spirv.GL.Floor %13 : vector<4xf32>
    %15 = spirv.GL.Ceil %14 : vector<4xf32>
    %16 = spirv.GL.Round %15 : vector<4xf32>
    %17 = spirv.GL.RoundEven %16 : vector<4xf32>
    %s = spirv.CompositeExtract %17[0 : i32] : vector<4xf32>
    %fr = spirv.GL.FrexpStruct %s : f32 -> !spirv.struct<(f32, i32)>
    %mant = spirv.CompositeExtract %fr[0 : i32] : !spirv.struct<(f32, i32)>
    %exp = spirv.CompositeExtract %fr[1 : i32] : !spirv.struct<(f32, i32)>
    %ld = spirv.GL.Ldexp %mant : f32, %exp : i32 -> f32
    %r = spirv.CompositeInsert %ld, %17[0 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %p, %r : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
