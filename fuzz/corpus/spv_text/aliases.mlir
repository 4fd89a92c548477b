// target-env: vulkan1.0
// Attribute and type aliases defined at the top of the file (as mlir-opt
// prints them for long attributes); the printer expands them.
#vce = #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>
#abi = #spirv.entry_point_abi<workgroup_size = [16, 16, 1]>
!buf = !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
!ids = !spirv.ptr<vector<3xi32>, Input>
spirv.module Logical GLSL450 requires #vce {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !ids
  spirv.GlobalVariable @pixels bind(0, 0) : !buf
  spirv.func @main() "None" attributes {spirv.entry_point_abi = #abi} {
    %gid_ptr = spirv.mlir.addressof @gid : !ids
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %y = spirv.CompositeExtract %gid[1 : i32] : vector<3xi32>
    %w = spirv.Constant 256 : i32
    %row = spirv.IMul %y, %w : i32
    %i = spirv.IAdd %row, %x : i32
    %zero = spirv.Constant 0 : i32
    %pixels = spirv.mlir.addressof @pixels : !buf
    %p = spirv.AccessChain %pixels[%zero, %i] : !buf, i32, i32
    %c = spirv.Load "StorageBuffer" %p : vector<4xf32>
    %gray = spirv.Constant dense<[2.990000e-01, 5.870000e-01, 1.140000e-01, 0.000000e+00]> : vector<4xf32>
    %l = spirv.Dot %c, %gray : vector<4xf32> -> f32
    %one = spirv.Constant 1.000000e+00 : f32
    %out = spirv.CompositeConstruct %l, %l, %l, %one : (f32, f32, f32, f32) -> vector<4xf32>
    spirv.Store "StorageBuffer" %p, %out : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 16, 16, 1
}
