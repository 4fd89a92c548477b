spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @floats bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @ints bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 100 : i32
    %5 = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : f32
    %8 = spirv.Constant -1.000000e+00 : f32
    %9 = spirv.Constant 1.000000e+00 : f32
    %10 = spirv.Constant 2.500000e-01 : f32
    %11 = spirv.GL.FMin %7, %9 : f32
    %12 = spirv.GL.FMax %11, %8 : f32
    %13 = spirv.GL.FClamp %7, %8, %9 : f32
    %14 = spirv.GL.FMix %12 : f32, %13 : f32, %10 : f32 -> f32
    %15 = spirv.GL.Fma %14, %10, %13 : f32
    %16 = spirv.GL.FAbs %15 : f32
    %17 = spirv.GL.FSign %16 : f32
    spirv.Store "StorageBuffer" %6, %17 : f32
    %18 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %19 = spirv.AccessChain %18[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %20 = spirv.Load "StorageBuffer" %19 : i32
    %21 = spirv.GL.SMin %20, %4 : i32
    %22 = spirv.GL.SMax %21, %3 : i32
    %23 = spirv.GL.UMin %22, %2 : i32
    %24 = spirv.GL.UMax %23, %3 : i32
    %25 = spirv.GL.SClamp %24, %3, %4 : i32
    %26 = spirv.GL.UClamp %25, %3, %4 : i32
    %27 = spirv.GL.SAbs %26 : i32
    %28 = spirv.GL.SSign %27 : i32
    spirv.Store "StorageBuffer" %19, %28 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
