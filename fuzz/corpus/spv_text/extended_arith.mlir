// target-env: vulkan1.0
// Carry/borrow and widening multiplication returning two-member structs.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %big = spirv.Constant -1 : i32
    %ints = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %ints[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spirv.Load "StorageBuffer" %ip : i32
    %c = spirv.IAddCarry %i, %big : !spirv.struct<(i32, i32)>
    %sum = spirv.CompositeExtract %c[0 : i32] : !spirv.struct<(i32, i32)>
    %carry = spirv.CompositeExtract %c[1 : i32] : !spirv.struct<(i32, i32)>
    %b = spirv.ISubBorrow %sum, %x : !spirv.struct<(i32, i32)>
    %diff = spirv.CompositeExtract %b[0 : i32] : !spirv.struct<(i32, i32)>
    %u = spirv.UMulExtended %diff, %i : !spirv.struct<(i32, i32)>
    %uhi = spirv.CompositeExtract %u[1 : i32] : !spirv.struct<(i32, i32)>
    %s = spirv.SMulExtended %uhi, %carry : !spirv.struct<(i32, i32)>
    %slo = spirv.CompositeExtract %s[0 : i32] : !spirv.struct<(i32, i32)>
    %v = spirv.CompositeConstruct %i, %x : (i32, i32) -> vector<2xi32>
    %vc = spirv.IAddCarry %v, %v : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %vlo = spirv.CompositeExtract %vc[0 : i32] : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %lane = spirv.CompositeExtract %vc[1 : i32, 0 : i32] : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %l0 = spirv.CompositeExtract %vlo[1 : i32] : vector<2xi32>
    %r0 = spirv.IAdd %slo, %lane : i32
    %r = spirv.IAdd %r0, %l0 : i32
    spirv.Store "StorageBuffer" %ip, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
