// target-env: vulkan1.1
// Compute builtins: local/global invocation ids, workgroup id and count,
// subgroup size and invocation id, local invocation index.
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @nwg built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lidx built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @sgsize built_in("SubgroupSize") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @sglid built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %p0 = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %lid = spirv.Load "Input" %p0 : vector<3xi32>
    %p1 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %p1 : vector<3xi32>
    %p2 = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %wid = spirv.Load "Input" %p2 : vector<3xi32>
    %p3 = spirv.mlir.addressof @nwg : !spirv.ptr<vector<3xi32>, Input>
    %nwg = spirv.Load "Input" %p3 : vector<3xi32>
    %p4 = spirv.mlir.addressof @lidx : !spirv.ptr<i32, Input>
    %lidx = spirv.Load "Input" %p4 : i32
    %p5 = spirv.mlir.addressof @sgsize : !spirv.ptr<i32, Input>
    %sgsize = spirv.Load "Input" %p5 : i32
    %p6 = spirv.mlir.addressof @sglid : !spirv.ptr<i32, Input>
    %sglid = spirv.Load "Input" %p6 : i32
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %lx = spirv.CompositeExtract %lid[0 : i32] : vector<3xi32>
    %wy = spirv.CompositeExtract %wid[1 : i32] : vector<3xi32>
    %nz = spirv.CompositeExtract %nwg[2 : i32] : vector<3xi32>
    %a = spirv.IAdd %lx, %wy : i32
    %b = spirv.IAdd %nz, %lidx : i32
    %v = spirv.CompositeConstruct %a, %b, %sgsize, %sglid : (i32, i32, i32, i32) -> vector<4xi32>
    %zero = spirv.Constant 0 : i32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %v : vector<4xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @gid, @wid, @nwg, @lidx, @sgsize, @sglid
  spirv.ExecutionMode @main "LocalSize", 8, 4, 2
}
