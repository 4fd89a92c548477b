// target-env: vulkan1.0
// Kernel parameters in a push-constant block (struct member offsets), read
// through a constant-index access chain into the struct.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @params : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %params = spirv.mlir.addressof @params : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
    %ap = spirv.AccessChain %params[%zero] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %alpha = spirv.Load "PushConstant" %ap : f32
    %np = spirv.AccessChain %params[%one] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %n = spirv.Load "PushConstant" %np : i32
    %rp = spirv.AccessChain %params[%two] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %range = spirv.Load "PushConstant" %rp : vector<2xf32>
    %lo = spirv.CompositeExtract %range[0 : i32] : vector<2xf32>
    %hi = spirv.CompositeExtract %range[1 : i32] : vector<2xf32>
    %inb = spirv.ULessThan %x, %n : i32
    spirv.mlir.selection {
      spirv.BranchConditional %inb, ^work, ^merge
    ^work:
      %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %p = spirv.AccessChain %data[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %v = spirv.Load "StorageBuffer" %p : f32
      %s = spirv.FMul %v, %alpha : f32
      %c = spirv.GL.FClamp %s, %lo, %hi : f32
      spirv.Store "StorageBuffer" %p, %c : f32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 256, 1, 1
}
