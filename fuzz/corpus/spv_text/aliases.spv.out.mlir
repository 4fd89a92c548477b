spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @pixels bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" attributes {spv.entry_point_abi = #spv.entry_point_abi<workgroup_size = [16, 16, 1]>} {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.CompositeExtract %1[1 : i32] : vector<3xi32>
    %4 = spv.Constant 256 : i32
    %5 = spv.IMul %3, %4 : i32
    %6 = spv.IAdd %5, %2 : i32
    %7 = spv.Constant 0 : i32
    %8 = spv.mlir.addressof @pixels : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %9 = spv.AccessChain %8[%7, %6] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %10 = spv.Load "StorageBuffer" %9 : vector<4xf32>
    %11 = spv.Constant dense<[2.990000e-01, 5.870000e-01, 1.140000e-01, 0.000000e+00]> : vector<4xf32>
    %12 = spv.Dot %10, %11 : vector<4xf32> -> f32
    %13 = spv.Constant 1.000000e+00 : f32
    %14 = spv.CompositeConstruct %12, %12, %12, %13 : (f32, f32, f32, f32) -> vector<4xf32>
    spv.Store "StorageBuffer" %9, %14 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 16, 16, 1
}
