spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 10 : i32
    %5 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : i32
    %8 = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %9 = spirv.AccessChain %8[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %10 = spirv.Load "StorageBuffer" %9 : f32
    %11 = spirv.Constant 1.000000e+00 : f32
    %12 = spirv.IEqual %7, %4 : i32
    %13 = spirv.INotEqual %7, %3 : i32
    %14 = spirv.SLessThan %7, %4 : i32
    %15 = spirv.SLessThanEqual %7, %4 : i32
    %16 = spirv.SGreaterThan %7, %3 : i32
    %17 = spirv.SGreaterThanEqual %7, %3 : i32
    %18 = spirv.ULessThan %7, %4 : i32
    %19 = spirv.ULessThanEqual %7, %4 : i32
    %20 = spirv.UGreaterThan %7, %3 : i32
    %21 = spirv.UGreaterThanEqual %7, %3 : i32
    %22 = spirv.FOrdEqual %10, %11 : f32
    %23 = spirv.FOrdNotEqual %10, %11 : f32
    %24 = spirv.FOrdLessThan %10, %11 : f32
    %25 = spirv.FOrdLessThanEqual %10, %11 : f32
    %26 = spirv.FOrdGreaterThan %10, %11 : f32
    %27 = spirv.FOrdGreaterThanEqual %10, %11 : f32
    %28 = spirv.FUnordEqual %10, %11 : f32
    %29 = spirv.FUnordNotEqual %10, %11 : f32
    %30 = spirv.FUnordLessThan %10, %11 : f32
    %31 = spirv.FUnordLessThanEqual %10, %11 : f32
    %32 = spirv.FUnordGreaterThan %10, %11 : f32
    %33 = spirv.FUnordGreaterThanEqual %10, %11 : f32
    %34 = spirv.LogicalAnd %12, %13 : i1
    %35 = spirv.LogicalOr %34, %14 : i1
    %36 = spirv.LogicalEqual %35, %15 : i1
    %37 = spirv.LogicalNotEqual %36, %16 : i1
    %38 = spirv.LogicalNot %37 : i1
    %39 = spirv.LogicalAnd %38, %17 : i1
    %40 = spirv.LogicalOr %39, %18 : i1
    %41 = spirv.LogicalAnd %40, %19 : i1
    %42 = spirv.LogicalOr %41, %20 : i1
    %43 = spirv.LogicalAnd %42, %21 : i1
    %44 = spirv.CompositeConstruct %22, %23, %24, %25 : (i1, i1, i1, i1) -> vector<4xi1>
    %45 = spirv.CompositeConstruct %26, %27, %28, %29 : (i1, i1, i1, i1) -> vector<4xi1>
    %46 = spirv.CompositeConstruct %30, %31, %32, %33 : (i1, i1, i1, i1) -> vector<4xi1>
    %47 = spirv.LogicalAnd %44, %45 : vector<4xi1>
    %48 = spirv.LogicalOr %47, %46 : vector<4xi1>
    %49 = spirv.LogicalNot %48 : vector<4xi1>
    %50 = spirv.CompositeExtract %49[2 : i32] : vector<4xi1>
    %51 = spirv.LogicalAnd %50, %43 : i1
    %52 = spirv.Select %51, %7, %4 : i1, i32
    %53 = spirv.Constant dense<[1, 2, 3, 4]> : vector<4xi32>
    %54 = spirv.Constant dense<0> : vector<4xi32>
    %55 = spirv.Select %49, %53, %54 : vector<4xi1>, vector<4xi32>
    %56 = spirv.CompositeExtract %55[1 : i32] : vector<4xi32>
    %57 = spirv.IAdd %52, %56 : i32
    spirv.Store "StorageBuffer" %6, %57 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
