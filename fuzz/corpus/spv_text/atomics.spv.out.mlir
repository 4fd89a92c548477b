spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @counters bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @local : !spv.ptr<i32, Workgroup>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 7 : i32
    %6 = spv.mlir.addressof @counters : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %7 = spv.AccessChain %6[%3, %3] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spv.AccessChain %6[%3, %4] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spv.AtomicIAdd <Device> <None> %7, %4 : !spv.ptr<i32, StorageBuffer>
    %10 = spv.AtomicISub <Device> <None> %7, %4 : !spv.ptr<i32, StorageBuffer>
    %11 = spv.AtomicSMin <Device> <None> %8, %2 : !spv.ptr<i32, StorageBuffer>
    %12 = spv.AtomicUMax <Device> <None> %8, %2 : !spv.ptr<i32, StorageBuffer>
    %13 = spv.AtomicAnd <Device> <None> %8, %5 : !spv.ptr<i32, StorageBuffer>
    %14 = spv.AtomicOr <Device> <None> %8, %9 : !spv.ptr<i32, StorageBuffer>
    %15 = spv.AtomicXor <Device> <None> %8, %10 : !spv.ptr<i32, StorageBuffer>
    %16 = spv.AtomicExchange <Device> <None> %8, %11 : !spv.ptr<i32, StorageBuffer>
    %17 = spv.AtomicCompareExchange <Device> <AcquireRelease|UniformMemory> <Acquire|UniformMemory> %7, %12, %16 : !spv.ptr<i32, StorageBuffer>
    %18 = spv.mlir.addressof @local : !spv.ptr<i32, Workgroup>
    %19 = spv.AtomicIIncrement <Workgroup> <AcquireRelease|WorkgroupMemory> %18 : !spv.ptr<i32, Workgroup>
    %20 = spv.AtomicIDecrement <Workgroup> <AcquireRelease|WorkgroupMemory> %18 : !spv.ptr<i32, Workgroup>
    %21 = spv.IAdd %13, %14 : i32
    %22 = spv.IAdd %21, %15 : i32
    %23 = spv.IAdd %22, %17 : i32
    %24 = spv.IAdd %23, %19 : i32
    %25 = spv.IAdd %24, %20 : i32
    %26 = spv.AccessChain %6[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %26, %25 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
