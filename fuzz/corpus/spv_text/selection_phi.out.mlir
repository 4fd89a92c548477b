spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 2 : i32
    %6 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spirv.Load "StorageBuffer" %7 : i32
    %9 = spirv.BitwiseAnd %8, %4 : i32
    %10 = spirv.IEqual %9, %4 : i32
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %10, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %14 = spirv.IMul %8, %5 : i32
      spirv.Branch ^bb3(%14 : i32)
    ^bb2:  // pred: ^bb0
      %15 = spirv.ISub %8, %4 : i32
      spirv.Branch ^bb3(%15 : i32)
    ^bb3(%16: i32):  // 2 preds: ^bb1, ^bb2
      spirv.Store "Function" %11, %16 : i32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      spirv.mlir.merge
    }
    %12 = spirv.SLessThan %8, %3 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %12, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spirv.Return
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    %13 = spirv.Load "Function" %11 : i32
    spirv.Store "StorageBuffer" %7, %13 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
