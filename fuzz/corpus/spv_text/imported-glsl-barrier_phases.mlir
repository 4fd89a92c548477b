spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], []> {
  spirv.GlobalVariable @gl_LocalInvocationID built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @s : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>
  spirv.GlobalVariable @spirv_var_25 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<si32, Function>
    %1 = spirv.Variable : !spirv.ptr<si32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @gl_LocalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %5 = spirv.AccessChain %4[%3] : !spirv.ptr<vector<3xi32>, Input>, i32
    %6 = spirv.Load "Input" %5 : i32
    spirv.Store "Function" %2, %6 : i32
    %7 = spirv.Constant 32 : i32
    %8 = spirv.Load "Function" %2 : i32
    %9 = spirv.Constant 0 : si32
    %10 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %11 = spirv.AccessChain %10[%3] : !spirv.ptr<vector<3xi32>, Input>, i32
    %12 = spirv.Load "Input" %11 : i32
    %13 = spirv.Constant 63 : i32
    %14 = spirv.BitwiseAnd %12, %13 : i32
    %15 = spirv.mlir.addressof @spirv_var_25 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
    %16 = spirv.AccessChain %15[%9, %14] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    %17 = spirv.Load "StorageBuffer" %16 : si32
    %18 = spirv.mlir.addressof @s : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>
    %19 = spirv.AccessChain %18[%8] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
    spirv.Store "Workgroup" %19, %17 : si32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %20 = spirv.Constant 2 : i32
    %21 = spirv.Constant 264 : i32
    %22 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %22, %9 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %30 = spirv.Load "Function" %22 : si32
      %31 = spirv.Constant 3 : si32
      %32 = spirv.SLessThan %30, %31 : si32
      spirv.BranchConditional %32, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      %33 = spirv.Load "Function" %2 : i32
      %34 = spirv.Constant 31 : i32
      %35 = spirv.IAdd %33, %34 : i32
      %36 = spirv.BitwiseAnd %35, %34 : i32
      %37 = spirv.mlir.addressof @s : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>
      %38 = spirv.AccessChain %37[%36] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
      %39 = spirv.Load "Workgroup" %38 : si32
      spirv.Store "Function" %0, %39 : si32
      %40 = spirv.Load "Function" %2 : i32
      %41 = spirv.Constant 1 : i32
      %42 = spirv.IAdd %40, %41 : i32
      %43 = spirv.BitwiseAnd %42, %34 : i32
      %44 = spirv.AccessChain %37[%43] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
      %45 = spirv.Load "Workgroup" %44 : si32
      spirv.Store "Function" %1, %45 : si32
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %46 = spirv.Load "Function" %2 : i32
      %47 = spirv.Load "Function" %0 : si32
      %48 = spirv.Load "Function" %1 : si32
      %49 = spirv.IAdd %47, %48 : si32
      %50 = spirv.Load "Function" %2 : i32
      %51 = spirv.AccessChain %37[%50] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
      %52 = spirv.Load "Workgroup" %51 : si32
      %53 = spirv.IAdd %49, %52 : si32
      %54 = spirv.Constant 3 : si32
      %55 = spirv.SDiv %53, %54 : si32
      %56 = spirv.AccessChain %37[%46] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
      spirv.Store "Workgroup" %56, %55 : si32
      spirv.MemoryBarrier <Device>, <AcquireRelease|WorkgroupMemory>
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %57 = spirv.Load "Function" %22 : si32
      %58 = spirv.Constant 1 : si32
      %59 = spirv.IAdd %57, %58 : si32
      spirv.Store "Function" %22, %59 : si32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %23 = spirv.AccessChain %10[%3] : !spirv.ptr<vector<3xi32>, Input>, i32
    %24 = spirv.Load "Input" %23 : i32
    %25 = spirv.BitwiseAnd %24, %13 : i32
    %26 = spirv.Load "Function" %2 : i32
    %27 = spirv.AccessChain %18[%26] : !spirv.ptr<!spirv.array<32 x si32>, Workgroup>, i32
    %28 = spirv.Load "Workgroup" %27 : si32
    %29 = spirv.AccessChain %15[%9, %25] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %29, %28 : si32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_LocalInvocationID, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
