// target-env: vulkan1.0
// Specialization constants: scalar ones with and without spec_id, a composite,
// and their use through spirv.mlir.referenceof.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.SpecConstant @scale spec_id(0) = 1.500000e+00 : f32
  spirv.SpecConstant @offset spec_id(1) = 3 : i32
  spirv.SpecConstant @enabled spec_id(2) = true
  spirv.SpecConstant @unnamed_id = 7 : i32
  spirv.SpecConstantComposite @pair (@offset, @unnamed_id) : !spirv.array<2 x i32>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %off = spirv.mlir.referenceof @offset : i32
    %i = spirv.IAdd %x, %off : i32
    %zero = spirv.Constant 0 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %scale = spirv.mlir.referenceof @scale : f32
    %s = spirv.FMul %v, %scale : f32
    %en = spirv.mlir.referenceof @enabled : i1
    %r = spirv.Select %en, %s, %v : i1, f32
    spirv.Store "StorageBuffer" %p, %r : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
