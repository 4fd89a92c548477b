// target-env: vulkan1.2
// SPIR-V 1.5: the entry point's interface lists every global variable it
// uses, storage buffers included; no extension needed for StorageBuffer.
spirv.module Logical GLSL450 requires #spirv.vce<v1.5, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wg : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @scratch : !spirv.ptr<f32, Private>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %c63 = spirv.Constant 63 : i32
    %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %in[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %ip : f32
    %scratch = spirv.mlir.addressof @scratch : !spirv.ptr<f32, Private>
    spirv.Store "Private" %scratch, %v : f32
    %lane = spirv.BitwiseAnd %x, %c63 : i32
    %wg = spirv.mlir.addressof @wg : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %wp = spirv.AccessChain %wg[%lane] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    %s = spirv.Load "Private" %scratch : f32
    spirv.Store "Workgroup" %wp, %s : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %r = spirv.Load "Workgroup" %wp : f32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %r : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @wg, @in, @out, @scratch
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
