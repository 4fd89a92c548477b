spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ints bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @floats bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 10 : i32
    %5 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : i32
    %8 = spv.mlir.addressof @floats : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %9 = spv.AccessChain %8[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %10 = spv.Load "StorageBuffer" %9 : f32
    %11 = spv.Constant 1.000000e+00 : f32
    %12 = spv.IEqual %7, %4 : i32
    %13 = spv.INotEqual %7, %3 : i32
    %14 = spv.SLessThan %7, %4 : i32
    %15 = spv.SLessThanEqual %7, %4 : i32
    %16 = spv.SGreaterThan %7, %3 : i32
    %17 = spv.SGreaterThanEqual %7, %3 : i32
    %18 = spv.ULessThan %7, %4 : i32
    %19 = spv.ULessThanEqual %7, %4 : i32
    %20 = spv.UGreaterThan %7, %3 : i32
    %21 = spv.UGreaterThanEqual %7, %3 : i32
    %22 = spv.FOrdEqual %10, %11 : f32
    %23 = spv.FOrdNotEqual %10, %11 : f32
    %24 = spv.FOrdLessThan %10, %11 : f32
    %25 = spv.FOrdLessThanEqual %10, %11 : f32
    %26 = spv.FOrdGreaterThan %10, %11 : f32
    %27 = spv.FOrdGreaterThanEqual %10, %11 : f32
    %28 = spv.FUnordEqual %10, %11 : f32
    %29 = spv.FUnordNotEqual %10, %11 : f32
    %30 = spv.FUnordLessThan %10, %11 : f32
    %31 = spv.FUnordLessThanEqual %10, %11 : f32
    %32 = spv.FUnordGreaterThan %10, %11 : f32
    %33 = spv.FUnordGreaterThanEqual %10, %11 : f32
    %34 = spv.LogicalAnd %12, %13 : i1
    %35 = spv.LogicalOr %34, %14 : i1
    %36 = spv.LogicalEqual %35, %15 : i1
    %37 = spv.LogicalNotEqual %36, %16 : i1
    %38 = spv.LogicalNot %37 : i1
    %39 = spv.LogicalAnd %38, %17 : i1
    %40 = spv.LogicalOr %39, %18 : i1
    %41 = spv.LogicalAnd %40, %19 : i1
    %42 = spv.LogicalOr %41, %20 : i1
    %43 = spv.LogicalAnd %42, %21 : i1
    %44 = spv.CompositeConstruct %22, %23, %24, %25 : (i1, i1, i1, i1) -> vector<4xi1>
    %45 = spv.CompositeConstruct %26, %27, %28, %29 : (i1, i1, i1, i1) -> vector<4xi1>
    %46 = spv.CompositeConstruct %30, %31, %32, %33 : (i1, i1, i1, i1) -> vector<4xi1>
    %47 = spv.LogicalAnd %44, %45 : vector<4xi1>
    %48 = spv.LogicalOr %47, %46 : vector<4xi1>
    %49 = spv.LogicalNot %48 : vector<4xi1>
    %50 = spv.CompositeExtract %49[2 : i32] : vector<4xi1>
    %51 = spv.LogicalAnd %50, %43 : i1
    %52 = spv.Select %51, %7, %4 : i1, i32
    %53 = spv.Constant dense<[1, 2, 3, 4]> : vector<4xi32>
    %54 = spv.Constant dense<0> : vector<4xi32>
    %55 = spv.Select %49, %53, %54 : vector<4xi1>, vector<4xi32>
    %56 = spv.CompositeExtract %55[1 : i32] : vector<4xi32>
    %57 = spv.IAdd %52, %56 : i32
    spv.Store "StorageBuffer" %6, %57 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
