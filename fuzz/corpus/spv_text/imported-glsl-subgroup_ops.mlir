spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformBallot, GroupNonUniformShuffle], []> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_20 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_59 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    spirv.Store "Function" %0, %4 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : si32
    %7 = spirv.Load "Function" %0 : i32
    %8 = spirv.Constant 63 : i32
    %9 = spirv.BitwiseAnd %7, %8 : i32
    %10 = spirv.mlir.addressof @spirv_var_20 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%6, %9] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %12 = spirv.Load "StorageBuffer" %11 : i32
    %13 = spirv.Constant 255 : i32
    %14 = spirv.BitwiseAnd %12, %13 : i32
    spirv.Store "Function" %5, %14 : i32
    %15 = spirv.Variable : !spirv.ptr<i32, Function>
    %16 = spirv.Load "Function" %5 : i32
    %17 = spirv.Constant 3 : i32
    %18 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %16 : i32
    spirv.Store "Function" %15, %18 : i32
    %19 = spirv.Variable : !spirv.ptr<i32, Function>
    %20 = spirv.Load "Function" %5 : i32
    %21 = spirv.GroupNonUniformUMax "Subgroup" "Reduce" %20 : i32
    spirv.Store "Function" %19, %21 : i32
    %22 = spirv.Variable : !spirv.ptr<vector<4xi32>, Function>
    %23 = spirv.Load "Function" %5 : i32
    %24 = spirv.Constant 1 : i32
    %25 = spirv.BitwiseAnd %23, %24 : i32
    %26 = spirv.IEqual %25, %24 : i32
    %27 = spirv.GroupNonUniformBallot <Subgroup> %26 : vector<4xi32>
    spirv.Store "Function" %22, %27 : vector<4xi32>
    %28 = spirv.Variable : !spirv.ptr<i32, Function>
    %29 = spirv.Load "Function" %5 : i32
    %30 = spirv.GroupNonUniformBroadcastFirst <Subgroup> %29 : i32
    spirv.Store "Function" %28, %30 : i32
    %31 = spirv.Variable : !spirv.ptr<i32, Function>
    %32 = spirv.Load "Function" %5 : i32
    %33 = spirv.GroupNonUniformShuffleXor <Subgroup> %32, %24 : i32, i32
    spirv.Store "Function" %31, %33 : i32
    %34 = spirv.Variable : !spirv.ptr<i32, Function>
    %35 = spirv.GroupNonUniformElect <Subgroup> : i1
    %36 = spirv.Select %35, %24, %1 : i1, i32
    spirv.Store "Function" %34, %36 : i32
    %37 = spirv.Load "Function" %0 : i32
    %38 = spirv.BitwiseAnd %37, %8 : i32
    %39 = spirv.Load "Function" %15 : i32
    %40 = spirv.Load "Function" %19 : i32
    %41 = spirv.IMul %40, %17 : i32
    %42 = spirv.IAdd %39, %41 : i32
    %43 = spirv.Load "Function" %22 : vector<4xi32>
    %44 = "spirv.GroupNonUniformBallotBitCount"(%43) <{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}> : (vector<4xi32>) -> i32
    %45 = spirv.IAdd %42, %44 : i32
    %46 = spirv.Load "Function" %28 : i32
    %47 = spirv.IAdd %45, %46 : i32
    %48 = spirv.Load "Function" %31 : i32
    %49 = spirv.IAdd %47, %48 : i32
    %50 = spirv.Load "Function" %34 : i32
    %51 = spirv.IAdd %49, %50 : i32
    %52 = spirv.mlir.addressof @spirv_var_59 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %53 = spirv.AccessChain %52[%6, %38] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %53, %51 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
