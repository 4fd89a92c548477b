spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 ["Volatile"] : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 ["Aligned", 16] : vector<4xf32>
    %7 = spv.Load "StorageBuffer" %5 ["Volatile|Aligned", 16] : vector<4xf32>
    %8 = spv.FAdd %6, %7 : vector<4xf32>
    %9 = spv.Variable : !spv.ptr<vector<4xf32>, Function>
    %10 = spv.Variable : !spv.ptr<vector<4xf32>, Function>
    spv.Store "Function" %9, %8 ["Volatile"] : vector<4xf32>
    spv.CopyMemory "Function" %10, "Function" %9 : vector<4xf32>
    %11 = spv.Load "Function" %10 ["None"] : vector<4xf32>
    spv.Store "StorageBuffer" %5, %11 ["Aligned|Nontemporal", 16] : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
