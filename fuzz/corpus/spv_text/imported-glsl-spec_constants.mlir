spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_22 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.SpecConstant @SCALE spec_id(1) = 3 : i32
  spirv.SpecConstant @FLIP spec_id(2) = false
  spirv.SpecConstant @spirv_spec_40 spec_id(0) = 1 : i32
  spirv.SpecConstant @spirv_const_41 = 1 : i32
  spirv.SpecConstantComposite @spirv_spec_42 (@spirv_spec_40, @spirv_const_41, @spirv_const_41) {built_in = "WorkgroupSize"} : vector<3xi32>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %7 = spirv.Constant 0 : i32
      %8 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %9 = spirv.AccessChain %8[%7] : !spirv.ptr<vector<3xi32>, Input>, i32
      %10 = spirv.Load "Input" %9 : i32
      %11 = spirv.Constant 63 : i32
      %12 = spirv.BitwiseAnd %10, %11 : i32
      spirv.Store "Function" %0, %12 : i32
      %13 = spirv.Constant 0 : si32
      %14 = spirv.Load "Function" %0 : i32
      %15 = spirv.mlir.addressof @spirv_var_22 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %16 = spirv.AccessChain %15[%13, %14] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %17 = spirv.Load "StorageBuffer" %16 : i32
      %18 = spirv.mlir.referenceof @SCALE : i32
      %19 = spirv.IMul %17, %18 : i32
      spirv.Store "Function" %1, %19 : i32
      %20 = spirv.mlir.referenceof @FLIP : i1
      spirv.BranchConditional %20, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %21 = spirv.Load "Function" %1 : i32
      %22 = spirv.Not %21 : i32
      spirv.Store "Function" %1, %22 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %2 = spirv.Load "Function" %0 : i32
    %3 = spirv.Load "Function" %1 : i32
    %4 = spirv.mlir.addressof @spirv_var_22 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.Constant 0 : si32
    %6 = spirv.AccessChain %4[%5, %2] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %6, %3 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
