// run: grid=2
// Workgroup memory written, a control barrier, then read at a neighbour.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.array<32 x i32>, Workgroup>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %lp = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %l3 = spirv.Load "Input" %lp : vector<3xi32>
    %l = spirv.CompositeExtract %l3[0 : i32] : vector<3xi32>
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c31 = spirv.Constant 31 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : i32
    %tile = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<32 x i32>, Workgroup>
    %t = spirv.AccessChain %tile[%l] : !spirv.ptr<!spirv.array<32 x i32>, Workgroup>, i32
    spirv.Store "Workgroup" %t, %x : i32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %n = spirv.IAdd %l, %c1 : i32
    %nm = spirv.BitwiseAnd %n, %c31 : i32
    %tn = spirv.AccessChain %tile[%nm] : !spirv.ptr<!spirv.array<32 x i32>, Workgroup>, i32
    %y = spirv.Load "Workgroup" %tn : i32
    %s = spirv.ISub %y, %x : i32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Store "StorageBuffer" %e, %s : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
