spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @mat bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @vec bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @res bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Constant 0 : i32
    %1 = spirv.Constant 1 : i32
    %2 = spirv.Constant 16 : i32
    %3 = spirv.Constant 0.000000e+00 : f32
    %4 = spirv.mlir.addressof @mat : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.mlir.addressof @vec : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.mlir.addressof @res : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %7 = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.mlir.loop {
      spirv.Branch ^bb1(%0 : i32)
    ^bb1(%8: i32):  // 2 preds: ^bb0, ^bb2
      %9 = spirv.SLessThan %8, %2 : i32
      spirv.BranchConditional %9, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      spirv.Store "Function" %7, %3 : f32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%0 : i32)
      ^bb1(%13: i32):  // 2 preds: ^bb0, ^bb2
        %14 = spirv.SLessThan %13, %2 : i32
        spirv.BranchConditional %14, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %15 = spirv.IMul %8, %2 : i32
        %16 = spirv.IAdd %15, %13 : i32
        %17 = spirv.AccessChain %4[%0, %16] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %18 = spirv.Load "StorageBuffer" %17 : f32
        %19 = spirv.AccessChain %5[%0, %13] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %20 = spirv.Load "StorageBuffer" %19 : f32
        %21 = spirv.FUnordNotEqual %18, %3 : f32
        spirv.mlir.selection {
          spirv.BranchConditional %21, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %23 = spirv.FMul %18, %20 : f32
          %24 = spirv.Load "Function" %7 : f32
          %25 = spirv.FAdd %24, %23 : f32
          spirv.Store "Function" %7, %25 : f32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %22 = spirv.IAdd %13, %1 : i32
        spirv.Branch ^bb1(%22 : i32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %10 = spirv.Load "Function" %7 : f32
      %11 = spirv.AccessChain %6[%0, %8] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %11, %10 : f32
      %12 = spirv.IAdd %8, %1 : i32
      spirv.Branch ^bb1(%12 : i32)
    ^bb3:  // pred: ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
