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
    %0 = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.Load "Input" %2 : vector<3xi32>
    %4 = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %5 = spirv.Load "Input" %4 : vector<3xi32>
    %6 = spirv.mlir.addressof @nwg : !spirv.ptr<vector<3xi32>, Input>
    %7 = spirv.Load "Input" %6 : vector<3xi32>
    %8 = spirv.mlir.addressof @lidx : !spirv.ptr<i32, Input>
    %9 = spirv.Load "Input" %8 : i32
    %10 = spirv.mlir.addressof @sgsize : !spirv.ptr<i32, Input>
    %11 = spirv.Load "Input" %10 : i32
    %12 = spirv.mlir.addressof @sglid : !spirv.ptr<i32, Input>
    %13 = spirv.Load "Input" %12 : i32
    %14 = spirv.CompositeExtract %3[0 : i32] : vector<3xi32>
    %15 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %16 = spirv.CompositeExtract %5[1 : i32] : vector<3xi32>
    %17 = spirv.CompositeExtract %7[2 : i32] : vector<3xi32>
    %18 = spirv.IAdd %15, %16 : i32
    %19 = spirv.IAdd %17, %9 : i32
    %20 = spirv.CompositeConstruct %18, %19, %11, %13 : (i32, i32, i32, i32) -> vector<4xi32>
    %21 = spirv.Constant 0 : i32
    %22 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
    %23 = spirv.AccessChain %22[%21, %14] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %23, %20 : vector<4xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @gid, @wid, @nwg, @lidx, @sgsize, @sglid
  spirv.ExecutionMode @main "LocalSize", 8, 4, 2
}
