spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 16 : i32
    %6 = spirv.Constant 0.000000e+00 : f32
    %7 = spirv.Constant 5.000000e-01 : f32
    %8 = spirv.Variable init(%6) : !spirv.ptr<f32, Function>
    spirv.mlir.loop control(DontUnroll) {
      spirv.Branch ^bb1(%3, %6 : i32, f32)
    ^bb1(%12: i32, %13: f32):  // 2 preds: ^bb0, ^bb3
      %14 = spirv.SLessThan %12, %5 : i32
      spirv.BranchConditional %14 [15, 1], ^bb2, ^bb4
    ^bb2:  // pred: ^bb1
      %15 = spirv.ConvertSToF %12 : i32 to f32
      %16 = spirv.FMul %15, %7 : f32
      %17 = spirv.FAdd %13, %16 : f32
      spirv.Store "Function" %8, %17 : f32
      spirv.Branch ^bb3
    ^bb3:  // pred: ^bb2
      %18 = spirv.IAdd %12, %4 : i32
      %19 = spirv.Load "Function" %8 : f32
      spirv.Branch ^bb1(%18, %19 : i32, f32)
    ^bb4:  // pred: ^bb1
      spirv.mlir.merge
    }
    %9 = spirv.Load "Function" %8 : f32
    %10 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %11, %9 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
