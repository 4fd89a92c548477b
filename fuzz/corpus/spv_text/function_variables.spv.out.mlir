spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.SpecConstant @seed_init spec_id(4) = 42 : i32
  spv.GlobalVariable @seed initializer(@seed_init) : !spv.ptr<i32, Private>
  spv.GlobalVariable @out bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 10 : i32
    %6 = spv.Constant 1103515245 : i32
    %7 = spv.Constant 12345 : i32
    %8 = spv.mlir.addressof @seed : !spv.ptr<i32, Private>
    spv.Store "Private" %8, %2 : i32
    %9 = spv.Variable init(%3) : !spv.ptr<i32, Function>
    %10 = spv.Variable : !spv.ptr<i32, Function>
    spv.Store "Function" %10, %3 : i32
    spv.mlir.loop {
      spv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb2
      %14 = spv.Load "Function" %9 : i32
      %15 = spv.SLessThan %14, %5 : i32
      spv.BranchConditional %15, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %16 = spv.Load "Private" %8 : i32
      %17 = spv.IMul %16, %6 : i32
      %18 = spv.IAdd %17, %7 : i32
      spv.Store "Private" %8, %18 : i32
      %19 = spv.Load "Function" %10 : i32
      %20 = spv.BitwiseXor %19, %18 : i32
      spv.Store "Function" %10, %20 : i32
      %21 = spv.IAdd %14, %4 : i32
      spv.Store "Function" %9, %21 : i32
      spv.Branch ^bb1
    ^bb3:  // pred: ^bb1
      spv.mlir.merge
    }
    %11 = spv.Load "Function" %10 : i32
    %12 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spv.AccessChain %12[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %13, %11 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
