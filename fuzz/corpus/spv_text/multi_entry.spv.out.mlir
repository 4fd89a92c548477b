spv.module @kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @data bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @index() -> i32 "Inline" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    spv.ReturnValue %2 : i32
  }
  spv.func @double() "None" {
    %0 = spv.FunctionCall @index() : () -> i32
    %1 = spv.Constant 0 : i32
    %2 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %3 = spv.AccessChain %2[%1, %0] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %4 = spv.Load "StorageBuffer" %3 : f32
    %5 = spv.FAdd %4, %4 : f32
    spv.Store "StorageBuffer" %3, %5 : f32
    spv.Return
  }
  spv.func @negate() "None" {
    %0 = spv.FunctionCall @index() : () -> i32
    %1 = spv.Constant 0 : i32
    %2 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %3 = spv.AccessChain %2[%1, %0] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %4 = spv.Load "StorageBuffer" %3 : f32
    %5 = spv.FNegate %4 : f32
    spv.Store "StorageBuffer" %3, %5 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @double, @gid
  spv.EntryPoint "GLCompute" @negate, @gid
  spv.ExecutionMode @double "LocalSize", 64, 1, 1
  spv.ExecutionMode @negate "LocalSize", 8, 8, 1
}
