spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, ImageQuery], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @tex bind(0, 0) : !spirv.ptr<!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, UniformConstant>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_40 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_LocalInvocationIndex built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<vector<2xsi32>, Function>
    %1 = spirv.mlir.addressof @tex : !spirv.ptr<!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, UniformConstant>
    %2 = spirv.Load "UniformConstant" %1 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
    %3 = spirv.Constant 0 : si32
    %4 = "spirv.Image"(%2) : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>) -> !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
    %5 = "spirv.ImageQuerySizeLod"(%4, %3) : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>, si32) -> vector<2xsi32>
    spirv.Store "Function" %0, %5 : vector<2xsi32>
    %6 = spirv.Variable : !spirv.ptr<vector<2xf32>, Function>
    %7 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %8 = spirv.Load "Input" %7 : vector<3xi32>
    %9 = spirv.VectorShuffle [0 : i32, 1 : i32] %8, %8 : vector<3xi32>, vector<3xi32> -> vector<2xi32>
    %10 = spirv.ConvertUToF %9 : vector<2xi32> to vector<2xf32>
    %11 = spirv.Constant 5.000000e-01 : f32
    %12 = spirv.CompositeConstruct %11, %11 : (f32, f32) -> vector<2xf32>
    %13 = spirv.FAdd %10, %12 : vector<2xf32>
    %14 = spirv.Load "Function" %0 : vector<2xsi32>
    %15 = spirv.ConvertSToF %14 : vector<2xsi32> to vector<2xf32>
    %16 = spirv.FDiv %13, %15 : vector<2xf32>
    spirv.Store "Function" %6, %16 : vector<2xf32>
    %17 = spirv.mlir.addressof @gl_LocalInvocationIndex : !spirv.ptr<i32, Input>
    %18 = spirv.Load "Input" %17 : i32
    %19 = spirv.Load "UniformConstant" %1 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
    %20 = spirv.Load "Function" %6 : vector<2xf32>
    %21 = spirv.Constant 0.000000e+00 : f32
    %22 = "spirv.ImageSampleExplicitLod"(%19, %20, %21) <{image_operands = #spirv.image_operands<Lod>}> : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>, f32) -> vector<4xf32>
    %23 = spirv.Load "UniformConstant" %1 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
    %24 = spirv.Constant dense<[0, 0]> : vector<2xsi32>
    %25 = "spirv.Image"(%23) : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>) -> !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
    %26 = "spirv.ImageFetch"(%25, %24, %3) <{image_operands = #spirv.image_operands<Lod>}> : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>, vector<2xsi32>, si32) -> vector<4xf32>
    %27 = spirv.FAdd %22, %26 : vector<4xf32>
    %28 = spirv.mlir.addressof @spirv_var_40 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %29 = spirv.AccessChain %28[%3, %18] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %29, %27 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID, @gl_LocalInvocationIndex
  spirv.ExecutionMode @main "LocalSize", 8, 8, 1
}
