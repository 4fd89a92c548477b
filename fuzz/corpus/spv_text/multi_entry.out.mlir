spirv.module @kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @index() -> i32 "Inline" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    spirv.ReturnValue %2 : i32
  }
  spirv.func @double() "None" {
    %0 = spirv.FunctionCall @index() : () -> i32
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %3 = spirv.AccessChain %2[%1, %0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %4 = spirv.Load "StorageBuffer" %3 : f32
    %5 = spirv.FAdd %4, %4 : f32
    spirv.Store "StorageBuffer" %3, %5 : f32
    spirv.Return
  }
  spirv.func @negate() "None" {
    %0 = spirv.FunctionCall @index() : () -> i32
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %3 = spirv.AccessChain %2[%1, %0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %4 = spirv.Load "StorageBuffer" %3 : f32
    %5 = spirv.FNegate %4 : f32
    spirv.Store "StorageBuffer" %3, %5 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @double, @gid
  spirv.EntryPoint "GLCompute" @negate, @gid
  spirv.ExecutionMode @double "LocalSize", 64, 1, 1
  spirv.ExecutionMode @negate "LocalSize", 8, 8, 1
}
