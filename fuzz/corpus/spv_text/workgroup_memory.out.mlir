spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %4 = spirv.Load "Input" %3 : vector<3xi32>
    %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
    %6 = spirv.Constant 0 : i32
    %7 = spirv.Constant 1 : i32
    %8 = spirv.Constant 64 : i32
    %9 = spirv.IMul %5, %8 : i32
    %10 = spirv.IAdd %9, %2 : i32
    %11 = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %12 = spirv.AccessChain %11[%6, %10] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %13 = spirv.Load "StorageBuffer" %12 : f32
    %14 = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %15 = spirv.AccessChain %14[%2] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    spirv.Store "Workgroup" %15, %13 : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %16 = spirv.Constant 32 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%16 : i32)
    ^bb1(%18: i32):  // 2 preds: ^bb0, ^bb2
      %19 = spirv.SGreaterThan %18, %6 : i32
      spirv.BranchConditional %19, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %20 = spirv.SLessThan %2, %18 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %20, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %22 = spirv.IAdd %2, %18 : i32
        %23 = spirv.AccessChain %14[%22] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
        %24 = spirv.Load "Workgroup" %15 : f32
        %25 = spirv.Load "Workgroup" %23 : f32
        %26 = spirv.FAdd %24, %25 : f32
        spirv.Store "Workgroup" %15, %26 : f32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %21 = spirv.ShiftRightArithmetic %18, %7 : i32, i32
      spirv.Branch ^bb1(%21 : i32)
    ^bb3:  // pred: ^bb1
      spirv.mlir.merge
    }
    spirv.MemoryBarrier <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %17 = spirv.IEqual %2, %6 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %17, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %18 = spirv.AccessChain %14[%6] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
      %19 = spirv.Load "Workgroup" %18 : f32
      %20 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %21 = spirv.AccessChain %20[%6, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %21, %19 : f32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @wid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
