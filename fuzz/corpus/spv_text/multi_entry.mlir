// target-env: vulkan1.0
// Two entry points sharing a buffer, with different workgroup sizes and a
// shared helper function.
spirv.module @kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @index() -> i32 "Inline" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    spirv.ReturnValue %x : i32
  }
  spirv.func @double() "None" {
    %x = spirv.FunctionCall @index() : () -> i32
    %zero = spirv.Constant 0 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %d = spirv.FAdd %v, %v : f32
    spirv.Store "StorageBuffer" %p, %d : f32
    spirv.Return
  }
  spirv.func @negate() "None" {
    %x = spirv.FunctionCall @index() : () -> i32
    %zero = spirv.Constant 0 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %n = spirv.FNegate %v : f32
    spirv.Store "StorageBuffer" %p, %n : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @double, @gid
  spirv.EntryPoint "GLCompute" @negate, @gid
  spirv.ExecutionMode @double "LocalSize", 64, 1, 1
  spirv.ExecutionMode @negate "LocalSize", 8, 8, 1
}
