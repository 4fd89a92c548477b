// run: grid=2
// Function-scope variables: an array indexed dynamically, a float
// accumulator with an initializer, conversions between float and int.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %fz = spirv.Constant 0.5 : f32
    %acc = spirv.Variable init(%fz) : !spirv.ptr<f32, Function>
    %arr = spirv.Variable : !spirv.ptr<!spirv.array<4 x i32>, Function>
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %c3 = spirv.Constant 3 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : i32
    %a0 = spirv.AccessChain %arr[%c0] : !spirv.ptr<!spirv.array<4 x i32>, Function>, i32
    %a1 = spirv.AccessChain %arr[%c1] : !spirv.ptr<!spirv.array<4 x i32>, Function>, i32
    %a2 = spirv.AccessChain %arr[%c2] : !spirv.ptr<!spirv.array<4 x i32>, Function>, i32
    %a3 = spirv.AccessChain %arr[%c3] : !spirv.ptr<!spirv.array<4 x i32>, Function>, i32
    spirv.Store "Function" %a0, %x : i32
    spirv.Store "Function" %a1, %c63 : i32
    spirv.Store "Function" %a2, %i : i32
    spirv.Store "Function" %a3, %c3 : i32
    %k = spirv.BitwiseAnd %x, %c3 : i32
    %ak = spirv.AccessChain %arr[%k] : !spirv.ptr<!spirv.array<4 x i32>, Function>, i32
    %v = spirv.Load "Function" %ak : i32
    %fv = spirv.ConvertSToF %v : i32 to f32
    %cur = spirv.Load "Function" %acc : f32
    %sum = spirv.FAdd %cur, %fv : f32
    spirv.Store "Function" %acc, %sum : f32
    %fin = spirv.Load "Function" %acc : f32
    %two = spirv.Constant 2.0 : f32
    %sc = spirv.FMul %fin, %two : f32
    %r = spirv.ConvertFToS %sc : f32 to i32
    spirv.Store "StorageBuffer" %e, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
