spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 ["Volatile"] : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 ["Aligned", 16] : vector<4xf32>
    %7 = spirv.Load "StorageBuffer" %5 ["Volatile|Aligned", 16] : vector<4xf32>
    %8 = spirv.FAdd %6, %7 : vector<4xf32>
    %9 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %10 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    spirv.Store "Function" %9, %8 ["Volatile"] : vector<4xf32>
    spirv.CopyMemory "Function" %10, "Function" %9 : vector<4xf32>
    %11 = spirv.Load "Function" %10 ["None"] : vector<4xf32>
    spirv.Store "StorageBuffer" %5, %11 ["Aligned|Nontemporal", 16] : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
