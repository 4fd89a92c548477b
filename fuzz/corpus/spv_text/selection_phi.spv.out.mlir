spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 2 : i32
    %6 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %7 = spv.AccessChain %6[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spv.Load "StorageBuffer" %7 : i32
    %9 = spv.BitwiseAnd %8, %4 : i32
    %10 = spv.IEqual %9, %4 : i32
    %11 = spv.Variable : !spv.ptr<i32, Function>
    spv.mlir.selection {
      spv.BranchConditional %10, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %14 = spv.IMul %8, %5 : i32
      spv.Branch ^bb3(%14 : i32)
    ^bb2:  // pred: ^bb0
      %15 = spv.ISub %8, %4 : i32
      spv.Branch ^bb3(%15 : i32)
    ^bb3(%16: i32):  // 2 preds: ^bb1, ^bb2
      spv.Store "Function" %11, %16 : i32
      spv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      spv.mlir.merge
    }
    %12 = spv.SLessThan %8, %3 : i32
    spv.mlir.selection {
      spv.BranchConditional %12, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spv.Return
    ^bb2:  // pred: ^bb0
      spv.mlir.merge
    }
    %13 = spv.Load "Function" %11 : i32
    spv.Store "StorageBuffer" %7, %13 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 32, 1, 1
}
