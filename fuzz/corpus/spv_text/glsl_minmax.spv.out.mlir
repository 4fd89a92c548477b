spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @floats bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @ints bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 100 : i32
    %5 = spv.mlir.addressof @floats : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : f32
    %8 = spv.Constant -1.000000e+00 : f32
    %9 = spv.Constant 1.000000e+00 : f32
    %10 = spv.Constant 2.500000e-01 : f32
    %11 = spv.GLSL.FMin %7, %9 : f32
    %12 = spv.GLSL.FMax %11, %8 : f32
    %13 = spv.GLSL.FClamp %7, %8, %9 : f32
    %14 = spv.GLSL.FMix %12 : f32, %13 : f32, %10 : f32 -> f32
    %15 = spv.GLSL.Fma %14, %10, %13 : f32
    %16 = spv.GLSL.FAbs %15 : f32
    %17 = spv.GLSL.FSign %16 : f32
    spv.Store "StorageBuffer" %6, %17 : f32
    %18 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %19 = spv.AccessChain %18[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %20 = spv.Load "StorageBuffer" %19 : i32
    %21 = spv.GLSL.SMin %20, %4 : i32
    %22 = spv.GLSL.SMax %21, %3 : i32
    %23 = spv.GLSL.UMin %22, %2 : i32
    %24 = spv.GLSL.UMax %23, %3 : i32
    %25 = spv.GLSL.SClamp %24, %3, %4 : i32
    %26 = spv.GLSL.UClamp %25, %3, %4 : i32
    %27 = spv.GLSL.SAbs %26 : i32
    %28 = spv.GLSL.SSign %27 : i32
    spv.Store "StorageBuffer" %19, %28 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
