spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @gl_LocalInvocationIndex built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @local_max : !spirv.ptr<i32, Workgroup>
  spirv.GlobalVariable @spirv_var_30 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_43 bind(0, 1) : !spirv.ptr<!spirv.struct<Hist, (i32 [0], !spirv.array<16 x i32, stride=4> [4])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %2 = spirv.Constant 0 : i32
      %3 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %4 = spirv.AccessChain %3[%2] : !spirv.ptr<vector<3xi32>, Input>, i32
      %5 = spirv.Load "Input" %4 : i32
      spirv.Store "Function" %0, %5 : i32
      %6 = spirv.mlir.addressof @gl_LocalInvocationIndex : !spirv.ptr<i32, Input>
      %7 = spirv.Load "Input" %6 : i32
      %8 = spirv.IEqual %7, %2 : i32
      spirv.BranchConditional %8, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %9 = spirv.mlir.addressof @local_max : !spirv.ptr<i32, Workgroup>
      %10 = spirv.Constant 0 : i32
      spirv.Store "Workgroup" %9, %10 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %2 = spirv.Constant 2 : i32
      %3 = spirv.Constant 264 : i32
      %4 = spirv.Constant 0 : si32
      %5 = spirv.Load "Function" %0 : i32
      %6 = spirv.Constant 255 : i32
      %7 = spirv.BitwiseAnd %5, %6 : i32
      %8 = spirv.mlir.addressof @spirv_var_30 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %9 = spirv.AccessChain %8[%4, %7] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %10 = spirv.Load "StorageBuffer" %9 : i32
      spirv.Store "Function" %1, %10 : i32
      %11 = spirv.Constant 16 : i32
      %12 = spirv.Constant 1 : si32
      %13 = spirv.Load "Function" %1 : i32
      %14 = spirv.Constant 15 : i32
      %15 = spirv.BitwiseAnd %13, %14 : i32
      %16 = spirv.mlir.addressof @spirv_var_43 : !spirv.ptr<!spirv.struct<Hist, (i32 [0], !spirv.array<16 x i32, stride=4> [4])>, StorageBuffer>
      %17 = spirv.AccessChain %16[%12, %15] : !spirv.ptr<!spirv.struct<Hist, (i32 [0], !spirv.array<16 x i32, stride=4> [4])>, StorageBuffer>, si32, i32
      %18 = spirv.Constant 1 : i32
      %19 = spirv.AtomicIAdd <Device> <None> %17, %18 : !spirv.ptr<i32, StorageBuffer>
      %20 = spirv.Load "Function" %1 : i32
      %21 = spirv.Constant 1023 : i32
      %22 = spirv.BitwiseAnd %20, %21 : i32
      %23 = spirv.mlir.addressof @local_max : !spirv.ptr<i32, Workgroup>
      %24 = spirv.AtomicUMax <Device> <None> %23, %22 : !spirv.ptr<i32, Workgroup>
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %25 = spirv.mlir.addressof @gl_LocalInvocationIndex : !spirv.ptr<i32, Input>
      %26 = spirv.Load "Input" %25 : i32
      %27 = spirv.Constant 0 : i32
      %28 = spirv.IEqual %26, %27 : i32
      spirv.BranchConditional %28, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %29 = spirv.mlir.addressof @spirv_var_43 : !spirv.ptr<!spirv.struct<Hist, (i32 [0], !spirv.array<16 x i32, stride=4> [4])>, StorageBuffer>
      %30 = spirv.Constant 0 : si32
      %31 = spirv.AccessChain %29[%30] : !spirv.ptr<!spirv.struct<Hist, (i32 [0], !spirv.array<16 x i32, stride=4> [4])>, StorageBuffer>, si32
      %32 = spirv.mlir.addressof @local_max : !spirv.ptr<i32, Workgroup>
      %33 = spirv.Load "Workgroup" %32 : i32
      %34 = spirv.AtomicIAdd <Device> <None> %31, %33 : !spirv.ptr<i32, StorageBuffer>
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID, @gl_LocalInvocationIndex
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
