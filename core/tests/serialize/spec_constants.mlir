spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.SpecConstant @sc_int spec_id(3) = 42 : i32
  spirv.SpecConstant @sc_bool spec_id(4) = true
  spirv.SpecConstant @sc_float spec_id(5) = 1.5 : f32
  spirv.SpecConstantComposite @sc_vec (@sc_int, @sc_int, @sc_int) : vector<3xi32>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4])>, StorageBuffer>
  spirv.func @main() "None" {
    %a = spirv.mlir.referenceof @sc_int : i32
    %b = spirv.mlir.referenceof @sc_bool : i1
    %f = spirv.mlir.referenceof @sc_float : f32
    %v = spirv.mlir.referenceof @sc_vec : vector<3xi32>
    %x = spirv.CompositeExtract %v[1 : i32] : vector<3xi32>
    %s = spirv.IAdd %a, %x : i32
    %sel = spirv.Select %b, %s, %a : i1, i32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4])>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %p = spirv.AccessChain %out[%c0] : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4])>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %p, %sel : i32
    %q = spirv.AccessChain %out[%c1] : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4])>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %q, %f : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 8, 8, 1
}
