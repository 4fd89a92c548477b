// run: grid=2
// Float comparisons (ordered / unordered), IsNan, selects between floats,
// and float vector arithmetic.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : f32
    %one = spirv.Constant 1.0 : f32
    %half = spirv.Constant -0.5 : f32
    %lt = spirv.FOrdLessThan %x, %one : f32
    %ge = spirv.FUnordGreaterThanEqual %x, %half : f32
    %nan = spirv.IsNan %x : f32
    %both = spirv.LogicalAnd %lt, %ge : i1
    %y = spirv.FMul %x, %half : f32
    %s = spirv.Select %both, %y, %x : i1, f32
    %v = spirv.CompositeConstruct %s, %x : (f32, f32) -> vector<2xf32>
    %w = spirv.CompositeConstruct %one, %half : (f32, f32) -> vector<2xf32>
    %p = spirv.FAdd %v, %w : vector<2xf32>
    %p0 = spirv.CompositeExtract %p[0 : i32] : vector<2xf32>
    %p1 = spirv.CompositeExtract %p[1 : i32] : vector<2xf32>
    %q = spirv.FSub %p0, %p1 : f32
    %zero = spirv.Constant 0.0 : f32
    %r = spirv.Select %nan, %zero, %q : i1, f32
    spirv.Store "StorageBuffer" %e, %r : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
