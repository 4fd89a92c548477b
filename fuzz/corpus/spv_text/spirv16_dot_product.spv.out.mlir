spv.module Logical GLSL450 requires #spv.vce<v1.6, [Shader, Int8, DotProduct, DotProductInput4x8BitPacked, DotProductInput4x8Bit], []> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @a bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @out bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @a : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : i32
    %7 = spv.SDot %6, %6, <PackedVectorFormat4x8Bit> : i32 -> i32
    %8 = spv.UDot %6, %7, <PackedVectorFormat4x8Bit> : i32 -> i32
    %9 = spv.SDotAccSat %6, %8, %7, <PackedVectorFormat4x8Bit> : i32 -> i32
    %10 = spv.Bitcast %9 : i32 to vector<4xi8>
    %11 = spv.SUDot %10, %10 : vector<4xi8> -> i32
    %12 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spv.AccessChain %12[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %13, %11 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid, @a, @out
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
