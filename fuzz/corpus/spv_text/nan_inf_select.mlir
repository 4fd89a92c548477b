// target-env: vulkan1.0
// Non-finite constants in MLIR's hex form, IsNan/IsInf, and select to sanitize.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %nan = spirv.Constant 0x7FC00000 : f32
    %inf = spirv.Constant 0x7F800000 : f32
    %ninf = spirv.Constant 0xFF800000 : f32
    %max = spirv.Constant 3.40282347E+38 : f32
    %tiny = spirv.Constant 1.401300e-45 : f32
    %pi = spirv.Constant 3.14159274 : f32
    %isnan = spirv.IsNan %v : f32
    %isinf = spirv.IsInf %v : f32
    %pos = spirv.FOrdGreaterThan %v, %tiny : f32
    %clamped = spirv.Select %pos, %max, %ninf : i1, f32
    %a = spirv.Select %isinf, %clamped, %v : i1, f32
    %b = spirv.Select %isnan, %pi, %a : i1, f32
    %vv = spirv.CompositeConstruct %b, %nan, %inf, %v : (f32, f32, f32, f32) -> vector<4xf32>
    %vn = spirv.IsNan %vv : vector<4xf32>
    %n2 = spirv.CompositeExtract %vn[1 : i32] : vector<4xi1>
    %r = spirv.Select %n2, %b, %v : i1, f32
    spirv.Store "StorageBuffer" %p, %r : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
