spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @out bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 16 : i32
    %6 = spv.Constant 0.000000e+00 : f32
    %7 = spv.Constant 5.000000e-01 : f32
    %8 = spv.Variable init(%6) : !spv.ptr<f32, Function>
    spv.mlir.loop control(DontUnroll) {
      spv.Branch ^bb1(%3, %6 : i32, f32)
    ^bb1(%12: i32, %13: f32):  // 2 preds: ^bb0, ^bb3
      %14 = spv.SLessThan %12, %5 : i32
      spv.BranchConditional %14 [15, 1], ^bb2, ^bb4
    ^bb2:  // pred: ^bb1
      %15 = spv.ConvertSToF %12 : i32 to f32
      %16 = spv.FMul %15, %7 : f32
      %17 = spv.FAdd %13, %16 : f32
      spv.Store "Function" %8, %17 : f32
      spv.Branch ^bb3
    ^bb3:  // pred: ^bb2
      %18 = spv.IAdd %12, %4 : i32
      %19 = spv.Load "Function" %8 : f32
      spv.Branch ^bb1(%18, %19 : i32, f32)
    ^bb4:  // pred: ^bb1
      spv.mlir.merge
    }
    %9 = spv.Load "Function" %8 : f32
    %10 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %11 = spv.AccessChain %10[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %11, %9 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
