// target-env: vulkan1.0
// Atomic read-modify-write ops on storage-buffer and workgroup integers, with
// compare-exchange and explicit scopes and semantics.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @counters bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @local : !spirv.ptr<i32, Workgroup>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %seven = spirv.Constant 7 : i32
    %c = spirv.mlir.addressof @counters : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %p0 = spirv.AccessChain %c[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %p1 = spirv.AccessChain %c[%zero, %one] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %a = spirv.AtomicIAdd <Device> <None> %p0, %one : !spirv.ptr<i32, StorageBuffer>
    %b = spirv.AtomicISub <Device> <Relaxed> %p0, %one : !spirv.ptr<i32, StorageBuffer>
    %mn = spirv.AtomicSMin <Device> <None> %p1, %x : !spirv.ptr<i32, StorageBuffer>
    %mx = spirv.AtomicUMax <Device> <None> %p1, %x : !spirv.ptr<i32, StorageBuffer>
    %an = spirv.AtomicAnd <Device> <None> %p1, %seven : !spirv.ptr<i32, StorageBuffer>
    %or = spirv.AtomicOr <Device> <None> %p1, %a : !spirv.ptr<i32, StorageBuffer>
    %xo = spirv.AtomicXor <Device> <None> %p1, %b : !spirv.ptr<i32, StorageBuffer>
    %ex = spirv.AtomicExchange <Device> <None> %p1, %mn : !spirv.ptr<i32, StorageBuffer>
    %cas = spirv.AtomicCompareExchange <Device> <AcquireRelease|UniformMemory> <Acquire|UniformMemory> %p0, %mx, %ex : !spirv.ptr<i32, StorageBuffer>
    %l = spirv.mlir.addressof @local : !spirv.ptr<i32, Workgroup>
    %inc = spirv.AtomicIIncrement <Workgroup> <AcquireRelease|WorkgroupMemory> %l : !spirv.ptr<i32, Workgroup>
    %dec = spirv.AtomicIDecrement <Workgroup> <AcquireRelease|WorkgroupMemory> %l : !spirv.ptr<i32, Workgroup>
    %s0 = spirv.IAdd %an, %or : i32
    %s1 = spirv.IAdd %s0, %xo : i32
    %s2 = spirv.IAdd %s1, %cas : i32
    %s3 = spirv.IAdd %s2, %inc : i32
    %s4 = spirv.IAdd %s3, %dec : i32
    %px = spirv.AccessChain %c[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %px, %s4 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
