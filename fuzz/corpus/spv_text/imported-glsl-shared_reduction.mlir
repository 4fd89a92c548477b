spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_LocalInvocationID built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.GlobalVariable @spirv_var_29 bind(0, 0) : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<f32, stride=4> [0, NonWritable])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_77 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0, NonReadable])>, StorageBuffer>
  spirv.GlobalVariable @gl_WorkGroupID built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_LocalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    spirv.Store "Function" %0, %4 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %7 = spirv.AccessChain %6[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %8 = spirv.Load "Input" %7 : i32
    spirv.Store "Function" %5, %8 : i32
    %9 = spirv.Constant 64 : i32
    %10 = spirv.Load "Function" %0 : i32
    %11 = spirv.Constant 0 : si32
    %12 = spirv.Load "Function" %5 : i32
    %13 = spirv.Constant 255 : i32
    %14 = spirv.BitwiseAnd %12, %13 : i32
    %15 = spirv.mlir.addressof @spirv_var_29 : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<f32, stride=4> [0, NonWritable])>, StorageBuffer>
    %16 = spirv.AccessChain %15[%11, %14] : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<f32, stride=4> [0, NonWritable])>, StorageBuffer>, si32, i32
    %17 = spirv.Load "StorageBuffer" %16 : f32
    %18 = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %19 = spirv.AccessChain %18[%10] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    spirv.Store "Workgroup" %19, %17 : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %20 = spirv.Constant 2 : i32
    %21 = spirv.Constant 264 : i32
    %22 = spirv.Variable : !spirv.ptr<i32, Function>
    %23 = spirv.Constant 32 : i32
    spirv.Store "Function" %22, %23 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %24 = spirv.Load "Function" %22 : i32
      %25 = spirv.Constant 0 : i32
      %26 = spirv.UGreaterThan %24, %25 : i32
      spirv.BranchConditional %26, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      spirv.mlir.selection {
        %30 = spirv.Load "Function" %0 : i32
        %31 = spirv.Load "Function" %22 : i32
        %32 = spirv.ULessThan %30, %31 : i32
        spirv.BranchConditional %32, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %33 = spirv.Load "Function" %0 : i32
        %34 = spirv.Load "Function" %0 : i32
        %35 = spirv.Load "Function" %22 : i32
        %36 = spirv.IAdd %34, %35 : i32
        %37 = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
        %38 = spirv.AccessChain %37[%36] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
        %39 = spirv.Load "Workgroup" %38 : f32
        %40 = spirv.AccessChain %37[%33] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
        %41 = spirv.Load "Workgroup" %40 : f32
        %42 = spirv.FAdd %41, %39 : f32
        %43 = spirv.AccessChain %37[%33] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
        spirv.Store "Workgroup" %43, %42 : f32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %27 = spirv.Constant 1 : si32
      %28 = spirv.Load "Function" %22 : i32
      %29 = spirv.ShiftRightLogical %28, %27 : i32, si32
      spirv.Store "Function" %22, %29 : i32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %24 = spirv.Load "Function" %0 : i32
      %25 = spirv.Constant 0 : i32
      %26 = spirv.IEqual %24, %25 : i32
      spirv.BranchConditional %26, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %27 = spirv.mlir.addressof @gl_WorkGroupID : !spirv.ptr<vector<3xi32>, Input>
      %28 = spirv.Constant 0 : i32
      %29 = spirv.AccessChain %27[%28] : !spirv.ptr<vector<3xi32>, Input>, i32
      %30 = spirv.Load "Input" %29 : i32
      %31 = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
      %32 = spirv.Constant 0 : si32
      %33 = spirv.AccessChain %31[%32] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, si32
      %34 = spirv.Load "Workgroup" %33 : f32
      %35 = spirv.mlir.addressof @spirv_var_77 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0, NonReadable])>, StorageBuffer>
      %36 = spirv.AccessChain %35[%32, %30] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0, NonReadable])>, StorageBuffer>, si32, i32
      spirv.Store "StorageBuffer" %36, %34 : f32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_LocalInvocationID, @gl_GlobalInvocationID, @gl_WorkGroupID
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
