spv.module Logical GLSL450 requires #spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @lid built_in("LocalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @wid built_in("WorkgroupId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @nwg built_in("NumWorkgroups") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @lidx built_in("LocalInvocationIndex") : !spv.ptr<i32, Input>
  spv.GlobalVariable @sgsize built_in("SubgroupSize") : !spv.ptr<i32, Input>
  spv.GlobalVariable @sglid built_in("SubgroupLocalInvocationId") : !spv.ptr<i32, Input>
  spv.GlobalVariable @out bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @lid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %3 = spv.Load "Input" %2 : vector<3xi32>
    %4 = spv.mlir.addressof @wid : !spv.ptr<vector<3xi32>, Input>
    %5 = spv.Load "Input" %4 : vector<3xi32>
    %6 = spv.mlir.addressof @nwg : !spv.ptr<vector<3xi32>, Input>
    %7 = spv.Load "Input" %6 : vector<3xi32>
    %8 = spv.mlir.addressof @lidx : !spv.ptr<i32, Input>
    %9 = spv.Load "Input" %8 : i32
    %10 = spv.mlir.addressof @sgsize : !spv.ptr<i32, Input>
    %11 = spv.Load "Input" %10 : i32
    %12 = spv.mlir.addressof @sglid : !spv.ptr<i32, Input>
    %13 = spv.Load "Input" %12 : i32
    %14 = spv.CompositeExtract %3[0 : i32] : vector<3xi32>
    %15 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %16 = spv.CompositeExtract %5[1 : i32] : vector<3xi32>
    %17 = spv.CompositeExtract %7[2 : i32] : vector<3xi32>
    %18 = spv.IAdd %15, %16 : i32
    %19 = spv.IAdd %17, %9 : i32
    %20 = spv.CompositeConstruct %18, %19, %11, %13 : (i32, i32, i32, i32) -> vector<4xi32>
    %21 = spv.Constant 0 : i32
    %22 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
    %23 = spv.AccessChain %22[%21, %14] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %23, %20 : vector<4xi32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @lid, @gid, @wid, @nwg, @lidx, @sgsize, @sglid
  spv.ExecutionMode @main "LocalSize", 8, 4, 2
}
