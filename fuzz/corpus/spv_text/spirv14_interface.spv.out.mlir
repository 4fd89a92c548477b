spv.module Logical GLSL450 requires #spv.vce<v1.5, [Shader], []> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @wg : !spv.ptr<!spv.array<64 x f32>, Workgroup>
  spv.GlobalVariable @in bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @out bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @scratch : !spv.ptr<f32, Private>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 63 : i32
    %5 = spv.mlir.addressof @in : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : f32
    %8 = spv.mlir.addressof @scratch : !spv.ptr<f32, Private>
    spv.Store "Private" %8, %7 : f32
    %9 = spv.BitwiseAnd %2, %4 : i32
    %10 = spv.mlir.addressof @wg : !spv.ptr<!spv.array<64 x f32>, Workgroup>
    %11 = spv.AccessChain %10[%9] : !spv.ptr<!spv.array<64 x f32>, Workgroup>, i32
    %12 = spv.Load "Private" %8 : f32
    spv.Store "Workgroup" %11, %12 : f32
    spv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %13 = spv.Load "Workgroup" %11 : f32
    %14 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %15 = spv.AccessChain %14[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %15, %13 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid, @wg, @in, @out, @scratch
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
