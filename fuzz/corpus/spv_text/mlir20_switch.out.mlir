spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 2 : i32
    %5 = spirv.Constant 3 : i32
    %6 = spirv.Constant 10 : i32
    %7 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spirv.AccessChain %7[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spirv.Load "StorageBuffer" %8 : i32
    %10 = spirv.BitwiseAnd %9, %5 : i32
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.Switch %10 : i32, [
        default: ^bb4,
        0: ^bb1,
        1: ^bb2(%9 : i32),
        2: ^bb3
      ]
    ^bb1:  // pred: ^bb0
      spirv.Store "Function" %11, %6 : i32
      spirv.Branch ^bb5
    ^bb2(%14: i32):  // pred: ^bb0
      %15 = spirv.IMul %14, %4 : i32
      spirv.Store "Function" %11, %15 : i32
      spirv.Branch ^bb5
    ^bb3:  // pred: ^bb0
      %16 = spirv.IMul %2, %4 : i32
      spirv.Store "Function" %11, %16 : i32
      spirv.Branch ^bb5
    ^bb4:  // pred: ^bb0
      spirv.Store "Function" %11, %9 : i32
      spirv.Branch ^bb5
    ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
      spirv.mlir.merge
    }
    %12 = spirv.Load "Function" %11 : i32
    %13 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %12 : i32
    spirv.Store "StorageBuffer" %8, %13 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
