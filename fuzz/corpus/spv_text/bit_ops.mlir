// target-env: vulkan1.0
// Bitwise ops, shifts, bit-field insert/extract, bit counting and reversal.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %four = spirv.Constant 4 : i32
    %eight = spirv.Constant 8 : i32
    %mask = spirv.Constant 0xFF : i32
    %ints = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %ints[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spirv.Load "StorageBuffer" %ip : i32
    %a = spirv.BitwiseAnd %i, %mask : i32
    %o = spirv.BitwiseOr %a, %x : i32
    %xo = spirv.BitwiseXor %o, %i : i32
    %n = spirv.Not %xo : i32
    %sl = spirv.ShiftLeftLogical %n, %four : i32, i32
    %sr = spirv.ShiftRightLogical %sl, %eight : i32, i32
    %sa = spirv.ShiftRightArithmetic %sr, %four : i32, i32
    %ins = spirv.BitFieldInsert %sa, %i, %four, %eight : i32, i32, i32
    %se = spirv.BitFieldSExtract %ins, %four, %eight : i32, i32, i32
    %ue = spirv.BitFieldUExtract %se, %four, %eight : i32, i32, i32
    %cnt = spirv.BitCount %ue : i32
    %rev = spirv.BitReverse %cnt : i32
    %neg = spirv.SNegate %rev : i32
    %umsb = spirv.GL.FindUMsb %i : i32
    %s2 = spirv.IAdd %neg, %umsb : i32
    %v = spirv.CompositeConstruct %s2, %i : (i32, i32) -> vector<2xi32>
    %vs = spirv.ShiftLeftLogical %v, %v : vector<2xi32>, vector<2xi32>
    %vn = spirv.Not %vs : vector<2xi32>
    %r = spirv.CompositeExtract %vn[0 : i32] : vector<2xi32>
    spirv.Store "StorageBuffer" %ip, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
