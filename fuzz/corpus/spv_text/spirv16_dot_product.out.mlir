spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Int8, DotProduct, DotProductInput4x8BitPacked, DotProductInput4x8Bit], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : i32
    %7 = spirv.SDot %6, %6, <PackedVectorFormat4x8Bit> : i32 -> i32
    %8 = spirv.UDot %6, %7, <PackedVectorFormat4x8Bit> : i32 -> i32
    %9 = spirv.SDotAccSat %6, %8, %7, <PackedVectorFormat4x8Bit> : i32 -> i32
    %10 = spirv.Bitcast %9 : i32 to vector<4xi8>
    %11 = spirv.SUDot %10, %10 : vector<4xi8> -> i32
    %12 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spirv.AccessChain %12[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %13, %11 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @a, @out
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
