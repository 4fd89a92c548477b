spirv.module Logical GLSL450 requires #spirv.vce<v1.4, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" attributes {kiln.note = "decorations", kiln.priority = 2 : i32} {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : i32
    %8 = spirv.IAdd %7, %4 {no_signed_wrap} : i32
    %9 = spirv.IMul %8, %2 {no_signed_wrap, no_unsigned_wrap} : i32
    %10 = spirv.ISub %9, %4 {no_unsigned_wrap} : i32
    spirv.Store "StorageBuffer" %6, %10 : i32
    %11 = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %12 = spirv.AccessChain %11[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %13 = spirv.Load "StorageBuffer" %12 : f32
    %14 = spirv.FMul %13, %13 {relaxed_precision} : f32
    spirv.Store "StorageBuffer" %12, %14 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @ints, @floats
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
