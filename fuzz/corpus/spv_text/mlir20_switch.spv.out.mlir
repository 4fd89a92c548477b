spv.module Logical GLSL450 requires #spv.vce<v1.3, [Shader, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 2 : i32
    %5 = spv.Constant 3 : i32
    %6 = spv.Constant 10 : i32
    %7 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spv.AccessChain %7[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spv.Load "StorageBuffer" %8 : i32
    %10 = spv.BitwiseAnd %9, %5 : i32
    %11 = spv.Variable : !spv.ptr<i32, Function>
    spv.mlir.selection {
      spv.Switch %10 : i32, [
        default: ^bb4,
        0: ^bb1,
        1: ^bb2(%9 : i32),
        2: ^bb3
      ]
    ^bb1:  // pred: ^bb0
      spv.Store "Function" %11, %6 : i32
      spv.Branch ^bb5
    ^bb2(%14: i32):  // pred: ^bb0
      %15 = spv.IMul %14, %4 : i32
      spv.Store "Function" %11, %15 : i32
      spv.Branch ^bb5
    ^bb3:  // pred: ^bb0
      %16 = spv.IMul %2, %4 : i32
      spv.Store "Function" %11, %16 : i32
      spv.Branch ^bb5
    ^bb4:  // pred: ^bb0
      spv.Store "Function" %11, %9 : i32
      spv.Branch ^bb5
    ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
      spv.mlir.merge
    }
    %12 = spv.Load "Function" %11 : i32
    %13 = spv.GroupNonUniformIAdd "Subgroup" "Reduce" %12 : i32
    spv.Store "StorageBuffer" %8, %13 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
