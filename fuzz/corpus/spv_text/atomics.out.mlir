spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @counters bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @local : !spirv.ptr<i32, Workgroup>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 7 : i32
    %6 = spirv.mlir.addressof @counters : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%3, %3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spirv.AccessChain %6[%3, %4] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spirv.AtomicIAdd <Device> <None> %7, %4 : !spirv.ptr<i32, StorageBuffer>
    %10 = spirv.AtomicISub <Device> <None> %7, %4 : !spirv.ptr<i32, StorageBuffer>
    %11 = spirv.AtomicSMin <Device> <None> %8, %2 : !spirv.ptr<i32, StorageBuffer>
    %12 = spirv.AtomicUMax <Device> <None> %8, %2 : !spirv.ptr<i32, StorageBuffer>
    %13 = spirv.AtomicAnd <Device> <None> %8, %5 : !spirv.ptr<i32, StorageBuffer>
    %14 = spirv.AtomicOr <Device> <None> %8, %9 : !spirv.ptr<i32, StorageBuffer>
    %15 = spirv.AtomicXor <Device> <None> %8, %10 : !spirv.ptr<i32, StorageBuffer>
    %16 = spirv.AtomicExchange <Device> <None> %8, %11 : !spirv.ptr<i32, StorageBuffer>
    %17 = spirv.AtomicCompareExchange <Device> <AcquireRelease|UniformMemory> <Acquire|UniformMemory> %7, %12, %16 : !spirv.ptr<i32, StorageBuffer>
    %18 = spirv.mlir.addressof @local : !spirv.ptr<i32, Workgroup>
    %19 = spirv.AtomicIIncrement <Workgroup> <AcquireRelease|WorkgroupMemory> %18 : !spirv.ptr<i32, Workgroup>
    %20 = spirv.AtomicIDecrement <Workgroup> <AcquireRelease|WorkgroupMemory> %18 : !spirv.ptr<i32, Workgroup>
    %21 = spirv.IAdd %13, %14 : i32
    %22 = spirv.IAdd %21, %15 : i32
    %23 = spirv.IAdd %22, %17 : i32
    %24 = spirv.IAdd %23, %19 : i32
    %25 = spirv.IAdd %24, %20 : i32
    %26 = spirv.AccessChain %6[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %26, %25 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
