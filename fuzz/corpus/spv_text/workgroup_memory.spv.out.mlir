spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @lid built_in("LocalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @wid built_in("WorkgroupId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @tile : !spv.ptr<!spv.array<64 x f32>, Workgroup>
  spv.GlobalVariable @in bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @out bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @lid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.mlir.addressof @wid : !spv.ptr<vector<3xi32>, Input>
    %4 = spv.Load "Input" %3 : vector<3xi32>
    %5 = spv.CompositeExtract %4[0 : i32] : vector<3xi32>
    %6 = spv.Constant 0 : i32
    %7 = spv.Constant 1 : i32
    %8 = spv.Constant 64 : i32
    %9 = spv.IMul %5, %8 : i32
    %10 = spv.IAdd %9, %2 : i32
    %11 = spv.mlir.addressof @in : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %12 = spv.AccessChain %11[%6, %10] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %13 = spv.Load "StorageBuffer" %12 : f32
    %14 = spv.mlir.addressof @tile : !spv.ptr<!spv.array<64 x f32>, Workgroup>
    %15 = spv.AccessChain %14[%2] : !spv.ptr<!spv.array<64 x f32>, Workgroup>, i32
    spv.Store "Workgroup" %15, %13 : f32
    spv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %16 = spv.Constant 32 : i32
    spv.mlir.loop {
      spv.Branch ^bb1(%16 : i32)
    ^bb1(%18: i32):  // 2 preds: ^bb0, ^bb2
      %19 = spv.SGreaterThan %18, %6 : i32
      spv.BranchConditional %19, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %20 = spv.SLessThan %2, %18 : i32
      spv.mlir.selection {
        spv.BranchConditional %20, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %22 = spv.IAdd %2, %18 : i32
        %23 = spv.AccessChain %14[%22] : !spv.ptr<!spv.array<64 x f32>, Workgroup>, i32
        %24 = spv.Load "Workgroup" %15 : f32
        %25 = spv.Load "Workgroup" %23 : f32
        %26 = spv.FAdd %24, %25 : f32
        spv.Store "Workgroup" %15, %26 : f32
        spv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spv.mlir.merge
      }
      spv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %21 = spv.ShiftRightArithmetic %18, %7 : i32, i32
      spv.Branch ^bb1(%21 : i32)
    ^bb3:  // pred: ^bb1
      spv.mlir.merge
    }
    spv.MemoryBarrier <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %17 = spv.IEqual %2, %6 : i32
    spv.mlir.selection {
      spv.BranchConditional %17, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %18 = spv.AccessChain %14[%6] : !spv.ptr<!spv.array<64 x f32>, Workgroup>, i32
      %19 = spv.Load "Workgroup" %18 : f32
      %20 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %21 = spv.AccessChain %20[%6, %5] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %21, %19 : f32
      spv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spv.mlir.merge
    }
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @lid, @wid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
