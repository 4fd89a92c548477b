spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @pixels bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 16, 1]>} {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.CompositeExtract %1[1 : i32] : vector<3xi32>
    %4 = spirv.Constant 256 : i32
    %5 = spirv.IMul %3, %4 : i32
    %6 = spirv.IAdd %5, %2 : i32
    %7 = spirv.Constant 0 : i32
    %8 = spirv.mlir.addressof @pixels : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %9 = spirv.AccessChain %8[%7, %6] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %10 = spirv.Load "StorageBuffer" %9 : vector<4xf32>
    %11 = spirv.Constant dense<[2.990000e-01, 5.870000e-01, 1.140000e-01, 0.000000e+00]> : vector<4xf32>
    %12 = spirv.Dot %10, %11 : vector<4xf32> -> f32
    %13 = spirv.Constant 1.000000e+00 : f32
    %14 = spirv.CompositeConstruct %12, %12, %12, %13 : (f32, f32, f32, f32) -> vector<4xf32>
    spirv.Store "StorageBuffer" %9, %14 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 16, 16, 1
}
