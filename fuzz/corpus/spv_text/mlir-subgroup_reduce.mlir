// run: grid=2
// Subgroup reductions and a ballot (SPIR-V 1.3).
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic, GroupNonUniformBallot], []> {
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
    %m = spirv.BitwiseAnd %x, %c63 : i32
    %s = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %m : i32
    %mx = spirv.GroupNonUniformSMax "Subgroup" "Reduce" %m : i32
    %c1 = spirv.Constant 1 : i32
    %odd = spirv.BitwiseAnd %x, %c1 : i32
    %isodd = spirv.IEqual %odd, %c1 : i32
    %bal = spirv.GroupNonUniformBallot <Subgroup> %isodd : vector<4xi32>
    %b0 = spirv.CompositeExtract %bal[0 : i32] : vector<4xi32>
    %bc = spirv.BitCount %b0 : i32
    %t = spirv.IAdd %s, %mx : i32
    %r = spirv.IAdd %t, %bc : i32
    spirv.Store "StorageBuffer" %e, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
