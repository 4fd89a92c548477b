spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @particles bind(0, 0) : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 2 : i32
    %6 = spv.mlir.addressof @particles : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
    %7 = spv.AccessChain %6[%3] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32
    %8 = spv.Load "StorageBuffer" %7 : i32
    %9 = spv.AccessChain %6[%4, %2, %3] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %10 = spv.AccessChain %6[%4, %2, %4] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %11 = spv.AccessChain %6[%4, %2, %5, %3] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    %12 = spv.AccessChain %6[%4, %2, %5] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %13 = spv.Load "StorageBuffer" %9 : vector<4xf32>
    %14 = spv.Load "StorageBuffer" %10 : vector<4xf32>
    %15 = spv.Load "StorageBuffer" %11 : f32
    %16 = spv.Load "StorageBuffer" %12 : !spv.struct<(f32 [0], i32 [4])>
    %17 = spv.CompositeExtract %16[1 : i32] : !spv.struct<(f32 [0], i32 [4])>
    %18 = spv.ConvertSToF %8 : i32 to f32
    %19 = spv.VectorTimesScalar %14, %18 : (vector<4xf32>, f32) -> vector<4xf32>
    %20 = spv.FMul %15, %18 : f32
    %21 = spv.VectorTimesScalar %19, %20 : (vector<4xf32>, f32) -> vector<4xf32>
    %22 = spv.FAdd %13, %21 : vector<4xf32>
    spv.Store "StorageBuffer" %9, %22 : vector<4xf32>
    %23 = spv.IAdd %17, %4 : i32
    %24 = spv.AccessChain %6[%4, %2, %5, %4] : !spv.ptr<!spv.struct<(i32 [0], !spv.rtarray<!spv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    spv.Store "StorageBuffer" %24, %23 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
