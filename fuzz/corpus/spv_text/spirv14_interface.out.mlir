spirv.module Logical GLSL450 requires #spirv.vce<v1.5, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wg : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @scratch : !spirv.ptr<f32, Private>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 63 : i32
    %5 = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : f32
    %8 = spirv.mlir.addressof @scratch : !spirv.ptr<f32, Private>
    spirv.Store "Private" %8, %7 : f32
    %9 = spirv.BitwiseAnd %2, %4 : i32
    %10 = spirv.mlir.addressof @wg : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %11 = spirv.AccessChain %10[%9] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    %12 = spirv.Load "Private" %8 : f32
    spirv.Store "Workgroup" %11, %12 : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %13 = spirv.Load "Workgroup" %11 : f32
    %14 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %15 = spirv.AccessChain %14[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %15, %13 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @wg, @in, @out, @scratch
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
