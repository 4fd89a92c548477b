spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.SpecConstant @seed_init spec_id(4) = 42 : i32
  spirv.GlobalVariable @seed initializer(@seed_init) : !spirv.ptr<i32, Private>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 10 : i32
    %6 = spirv.Constant 1103515245 : i32
    %7 = spirv.Constant 12345 : i32
    %8 = spirv.mlir.addressof @seed : !spirv.ptr<i32, Private>
    spirv.Store "Private" %8, %2 : i32
    %9 = spirv.Variable init(%3) : !spirv.ptr<i32, Function>
    %10 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %10, %3 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb2
      %14 = spirv.Load "Function" %9 : i32
      %15 = spirv.SLessThan %14, %5 : i32
      spirv.BranchConditional %15, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %16 = spirv.Load "Private" %8 : i32
      %17 = spirv.IMul %16, %6 : i32
      %18 = spirv.IAdd %17, %7 : i32
      spirv.Store "Private" %8, %18 : i32
      %19 = spirv.Load "Function" %10 : i32
      %20 = spirv.BitwiseXor %19, %18 : i32
      spirv.Store "Function" %10, %20 : i32
      %21 = spirv.IAdd %14, %4 : i32
      spirv.Store "Function" %9, %21 : i32
      spirv.Branch ^bb1
    ^bb3:  // pred: ^bb1
      spirv.mlir.merge
    }
    %11 = spirv.Load "Function" %10 : i32
    %12 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spirv.AccessChain %12[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %13, %11 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
