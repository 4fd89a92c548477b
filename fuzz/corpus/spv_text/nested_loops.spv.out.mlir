spv.module Logical GLSL450 requires #spv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @mat bind(0, 0) : !spv.ptr<!spv.struct<(!spv.array<256 x f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @vec bind(0, 1) : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @res bind(0, 2) : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.Constant 0 : i32
    %1 = spv.Constant 1 : i32
    %2 = spv.Constant 16 : i32
    %3 = spv.Constant 0.000000e+00 : f32
    %4 = spv.mlir.addressof @mat : !spv.ptr<!spv.struct<(!spv.array<256 x f32, stride=4> [0])>, StorageBuffer>
    %5 = spv.mlir.addressof @vec : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %6 = spv.mlir.addressof @res : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %7 = spv.Variable : !spv.ptr<f32, Function>
    spv.mlir.loop {
      spv.Branch ^bb1(%0 : i32)
    ^bb1(%8: i32):  // 2 preds: ^bb0, ^bb2
      %9 = spv.SLessThan %8, %2 : i32
      spv.BranchConditional %9, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      spv.Store "Function" %7, %3 : f32
      spv.mlir.loop {
        spv.Branch ^bb1(%0 : i32)
      ^bb1(%13: i32):  // 2 preds: ^bb0, ^bb2
        %14 = spv.SLessThan %13, %2 : i32
        spv.BranchConditional %14, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %15 = spv.IMul %8, %2 : i32
        %16 = spv.IAdd %15, %13 : i32
        %17 = spv.AccessChain %4[%0, %16] : !spv.ptr<!spv.struct<(!spv.array<256 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %18 = spv.Load "StorageBuffer" %17 : f32
        %19 = spv.AccessChain %5[%0, %13] : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %20 = spv.Load "StorageBuffer" %19 : f32
        %21 = spv.FUnordNotEqual %18, %3 : f32
        spv.mlir.selection {
          spv.BranchConditional %21, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %23 = spv.FMul %18, %20 : f32
          %24 = spv.Load "Function" %7 : f32
          %25 = spv.FAdd %24, %23 : f32
          spv.Store "Function" %7, %25 : f32
          spv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spv.mlir.merge
        }
        %22 = spv.IAdd %13, %1 : i32
        spv.Branch ^bb1(%22 : i32)
      ^bb3:  // pred: ^bb1
        spv.mlir.merge
      }
      %10 = spv.Load "Function" %7 : f32
      %11 = spv.AccessChain %6[%0, %8] : !spv.ptr<!spv.struct<(!spv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %11, %10 : f32
      %12 = spv.IAdd %8, %1 : i32
      spv.Branch ^bb1(%12 : i32)
    ^bb3:  // pred: ^bb1
      spv.mlir.merge
    }
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 1, 1, 1
}
