// run: grid=2
// Vectors: construct, shuffle, insert, extract, dot product on floats.
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
    %v = spirv.CompositeConstruct %x, %one, %c63, %x : (i32, i32, i32, i32) -> vector<4xi32>
    %sh = spirv.VectorShuffle [3 : i32, 2 : i32, 1 : i32, 0 : i32] %v, %v : vector<4xi32>, vector<4xi32> -> vector<4xi32>
    %in = spirv.CompositeInsert %x, %sh[1 : i32] : i32 into vector<4xi32>
    %fv = spirv.ConvertSToF %in : vector<4xi32> to vector<4xf32>
    %d = spirv.Dot %fv, %fv : vector<4xf32> -> f32
    %e0 = spirv.CompositeExtract %in[0 : i32] : vector<4xi32>
    %di = spirv.ConvertFToS %d : f32 to i32
    %r = spirv.IAdd %di, %e0 : i32
    spirv.Store "StorageBuffer" %eb, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
