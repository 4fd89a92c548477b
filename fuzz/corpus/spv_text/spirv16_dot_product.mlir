// target-env: vulkan1.3
// SPIR-V 1.6 integer dot products on packed 4x8-bit vectors and i8 vectors.
spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Int8, DotProduct, DotProductInput4x8BitPacked, DotProductInput4x8Bit], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %a = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ap = spirv.AccessChain %a[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %packed = spirv.Load "StorageBuffer" %ap : i32
    %d = spirv.SDot %packed, %packed, <PackedVectorFormat4x8Bit> : i32 -> i32
    %u = spirv.UDot %packed, %d, <PackedVectorFormat4x8Bit> : i32 -> i32
    %acc = spirv.SDotAccSat %packed, %u, %d, <PackedVectorFormat4x8Bit> : i32 -> i32
    %v = spirv.Bitcast %acc : i32 to vector<4xi8>
    %e = spirv.SUDot %v, %v : vector<4xi8> -> i32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %e : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @a, @out
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
