// target-env: vulkan1.0
// A std140 uniform block: a column-major matrix with MatrixStride, a nested
// struct and an array, read with struct-indexed access chains; Matrix ops.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ubo bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %three = spirv.Constant 3 : i32
    %ubo = spirv.mlir.addressof @ubo : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
    %mp = spirv.AccessChain %ubo[%zero] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32
    %m = spirv.Load "Uniform" %mp : !spirv.matrix<4 x vector<4xf32>>
    %bp = spirv.AccessChain %ubo[%one, %zero] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %bias = spirv.Load "Uniform" %bp : vector<4xf32>
    %sp = spirv.AccessChain %ubo[%one, %one] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %scale = spirv.Load "Uniform" %sp : f32
    %idx = spirv.BitwiseAnd %x, %three : i32
    %ap = spirv.AccessChain %ubo[%two, %idx] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %v = spirv.Load "Uniform" %ap : vector<4xf32>
    %ms = spirv.MatrixTimesScalar %m, %scale : !spirv.matrix<4 x vector<4xf32>>, f32
    %mt = spirv.Transpose %ms : !spirv.matrix<4 x vector<4xf32>> -> !spirv.matrix<4 x vector<4xf32>>
    %mm = spirv.MatrixTimesMatrix %mt, %m : !spirv.matrix<4 x vector<4xf32>>, !spirv.matrix<4 x vector<4xf32>> -> !spirv.matrix<4 x vector<4xf32>>
    %col = spirv.CompositeExtract %mm[1 : i32] : !spirv.matrix<4 x vector<4xf32>>
    %r = spirv.FAdd %col, %v : vector<4xf32>
    %r2 = spirv.FAdd %r, %bias : vector<4xf32>
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %r2 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
