// target-env: vulkan1.0
// A counted loop carrying an accumulator through the header block's arguments,
// with loop control, and a continue block separate from the body.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %n = spirv.Constant 16 : i32
    %fzero = spirv.Constant 0.000000e+00 : f32
    %half = spirv.Constant 5.000000e-01 : f32
    %acc = spirv.Variable init(%fzero) : !spirv.ptr<f32, Function>
    spirv.mlir.loop control(DontUnroll) {
      spirv.Branch ^header(%zero, %fzero : i32, f32)
    ^header(%i: i32, %sum: f32):
      %lt = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %lt [15, 1], ^body, ^merge
    ^body:
      %fi = spirv.ConvertSToF %i : i32 to f32
      %term = spirv.FMul %fi, %half : f32
      %next = spirv.FAdd %sum, %term : f32
      spirv.Store "Function" %acc, %next : f32
      spirv.Branch ^continue
    ^continue:
      %i1 = spirv.IAdd %i, %one : i32
      %s1 = spirv.Load "Function" %acc : f32
      spirv.Branch ^header(%i1, %s1 : i32, f32)
    ^merge:
      spirv.mlir.merge
    }
    %total = spirv.Load "Function" %acc : f32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %total : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
