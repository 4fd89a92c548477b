spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_no_integer_wrap_decoration]> {
  spirv.GlobalVariable @buf bind(1, 2) : !spirv.ptr<!spirv.struct<(f32 [0, NonWritable], vector<4xf32> [16, NonWritable], !spirv.array<4 x f32, stride=4> [32, NonWritable])>, StorageBuffer>
  spirv.GlobalVariable @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @scale(%a: f32 {spirv.decoration = #spirv.decoration<RelaxedPrecision>}, %b: f32) -> f32 "Inline" {
    %m = spirv.FMul %a, %b {RelaxedPrecision} : f32
    spirv.ReturnValue %m : f32
  }
  spirv.func @main() "None" {
    %pc = spirv.mlir.addressof @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %p0 = spirv.AccessChain %pc[%c0] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32
    %x = spirv.Load "PushConstant" %p0 : i32
    %y = spirv.IAdd %x, %c1 {no_signed_wrap} : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(f32 [0, NonWritable], vector<4xf32> [16, NonWritable], !spirv.array<4 x f32, stride=4> [32, NonWritable])>, StorageBuffer>
    %pf = spirv.AccessChain %buf[%c0] : !spirv.ptr<!spirv.struct<(f32 [0, NonWritable], vector<4xf32> [16, NonWritable], !spirv.array<4 x f32, stride=4> [32, NonWritable])>, StorageBuffer>, i32
    %f = spirv.Load "StorageBuffer" %pf : f32
    %g = spirv.FunctionCall @scale(%f, %f) : (f32, f32) -> f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid
  spirv.ExecutionMode @main "LocalSize", 4, 4, 4
}
