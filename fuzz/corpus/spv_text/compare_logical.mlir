// target-env: vulkan1.0
// Integer and float comparisons (ordered and unordered), logical ops on
// scalars and vectors of i1, and select.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %ten = spirv.Constant 10 : i32
    %ints = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %ints[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spirv.Load "StorageBuffer" %ip : i32
    %floats = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %fp = spirv.AccessChain %floats[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %f = spirv.Load "StorageBuffer" %fp : f32
    %fone = spirv.Constant 1.000000e+00 : f32
    %c0 = spirv.IEqual %i, %ten : i32
    %c1 = spirv.INotEqual %i, %zero : i32
    %c2 = spirv.SLessThan %i, %ten : i32
    %c3 = spirv.SLessThanEqual %i, %ten : i32
    %c4 = spirv.SGreaterThan %i, %zero : i32
    %c5 = spirv.SGreaterThanEqual %i, %zero : i32
    %c6 = spirv.ULessThan %i, %ten : i32
    %c7 = spirv.ULessThanEqual %i, %ten : i32
    %c8 = spirv.UGreaterThan %i, %zero : i32
    %c9 = spirv.UGreaterThanEqual %i, %zero : i32
    %d0 = spirv.FOrdEqual %f, %fone : f32
    %d1 = spirv.FOrdNotEqual %f, %fone : f32
    %d2 = spirv.FOrdLessThan %f, %fone : f32
    %d3 = spirv.FOrdLessThanEqual %f, %fone : f32
    %d4 = spirv.FOrdGreaterThan %f, %fone : f32
    %d5 = spirv.FOrdGreaterThanEqual %f, %fone : f32
    %d6 = spirv.FUnordEqual %f, %fone : f32
    %d7 = spirv.FUnordNotEqual %f, %fone : f32
    %d8 = spirv.FUnordLessThan %f, %fone : f32
    %d9 = spirv.FUnordLessThanEqual %f, %fone : f32
    %da = spirv.FUnordGreaterThan %f, %fone : f32
    %db = spirv.FUnordGreaterThanEqual %f, %fone : f32
    %l0 = spirv.LogicalAnd %c0, %c1 : i1
    %l1 = spirv.LogicalOr %l0, %c2 : i1
    %l2 = spirv.LogicalEqual %l1, %c3 : i1
    %l3 = spirv.LogicalNotEqual %l2, %c4 : i1
    %l4 = spirv.LogicalNot %l3 : i1
    %l5 = spirv.LogicalAnd %l4, %c5 : i1
    %l6 = spirv.LogicalOr %l5, %c6 : i1
    %l7 = spirv.LogicalAnd %l6, %c7 : i1
    %l8 = spirv.LogicalOr %l7, %c8 : i1
    %l9 = spirv.LogicalAnd %l8, %c9 : i1
    %va = spirv.CompositeConstruct %d0, %d1, %d2, %d3 : (i1, i1, i1, i1) -> vector<4xi1>
    %vb = spirv.CompositeConstruct %d4, %d5, %d6, %d7 : (i1, i1, i1, i1) -> vector<4xi1>
    %vc = spirv.CompositeConstruct %d8, %d9, %da, %db : (i1, i1, i1, i1) -> vector<4xi1>
    %vand = spirv.LogicalAnd %va, %vb : vector<4xi1>
    %vor = spirv.LogicalOr %vand, %vc : vector<4xi1>
    %vnot = spirv.LogicalNot %vor : vector<4xi1>
    %e = spirv.CompositeExtract %vnot[2 : i32] : vector<4xi1>
    %fin = spirv.LogicalAnd %e, %l9 : i1
    %r = spirv.Select %fin, %i, %ten : i1, i32
    %vi = spirv.Constant dense<[1, 2, 3, 4]> : vector<4xi32>
    %vz = spirv.Constant dense<0> : vector<4xi32>
    %vs = spirv.Select %vnot, %vi, %vz : vector<4xi1>, vector<4xi32>
    %lane = spirv.CompositeExtract %vs[1 : i32] : vector<4xi32>
    %out = spirv.IAdd %r, %lane : i32
    spirv.Store "StorageBuffer" %ip, %out : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
