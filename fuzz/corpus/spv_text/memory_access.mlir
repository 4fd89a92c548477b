// target-env: vulkan1.0
// Memory operands on loads and stores: Volatile, Aligned with alignment,
// Nontemporal combined, and CopyMemory between function variables.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr ["Volatile"] : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p ["Aligned", 16] : vector<4xf32>
    %w = spirv.Load "StorageBuffer" %p ["Volatile|Aligned", 16] : vector<4xf32>
    %s = spirv.FAdd %v, %w : vector<4xf32>
    %a = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %b = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    spirv.Store "Function" %a, %s ["Volatile"] : vector<4xf32>
    spirv.CopyMemory "Function" %b, "Function" %a : vector<4xf32>
    %c = spirv.Load "Function" %b ["None"] : vector<4xf32>
    spirv.Store "StorageBuffer" %p, %c ["Aligned|Nontemporal", 16] : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
