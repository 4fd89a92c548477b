// run: grid=2
// Integer arithmetic, shifts, bit operations and comparisons with selects.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %pa = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %pb = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ea = spirv.AccessChain %pa[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %eb = spirv.AccessChain %pb[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %ea : i32
    %one = spirv.Constant 1 : i32
    %five = spirv.Constant 5 : i32
    %s = spirv.ShiftLeftLogical %x, %five : i32, i32
    %u = spirv.ShiftRightLogical %x, %one : i32, i32
    %o = spirv.BitwiseOr %s, %u : i32
    %n = spirv.Not %o : i32
    %bc = spirv.BitCount %x : i32
    %d = spirv.SDiv %x, %five : i32
    %m = spirv.SMod %x, %five : i32
    %r = spirv.UMod %x, %five : i32
    %lt = spirv.ULessThan %d, %m : i32
    %sel = spirv.Select %lt, %n, %bc : i1, i32
    %t = spirv.IAdd %sel, %r : i32
    spirv.Store "StorageBuffer" %eb, %t : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
