// run: grid=2
// Specialization constants: scalars used through referenceof and a
// composite one.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.SpecConstant @scale spec_id(3) = 5 : i32
  spirv.SpecConstant @flip spec_id(4) = false
  spirv.SpecConstant @sx spec_id(5) = 2 : i32
  spirv.SpecConstant @sy spec_id(6) = 7 : i32
  spirv.SpecConstantComposite @pair (@sx, @sy) : vector<2xi32>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : i32
    %s = spirv.mlir.referenceof @scale : i32
    %y = spirv.IMul %x, %s : i32
    %p = spirv.mlir.referenceof @pair : vector<2xi32>
    %p1 = spirv.CompositeExtract %p[1 : i32] : vector<2xi32>
    %z = spirv.IAdd %y, %p1 : i32
    %f = spirv.mlir.referenceof @flip : i1
    %nz = spirv.Not %z : i32
    %r = spirv.Select %f, %nz, %z : i1, i32
    spirv.Store "StorageBuffer" %e, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
