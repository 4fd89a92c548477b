// target-env: vulkan1.0
// The seeds' spelling: spv. ops, spv.GLSL.* ops, !spv./#spv. types and attributes,
// the old struct syntax without parentheses, `vector<4 x f32>` and `1D`/`2D` dims.
spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3 x i32>, Input>
  spv.GlobalVariable @src bind(0, 0) : !spv.ptr<!spv.struct<!spv.rtarray<f32, stride=4> [0]>, StorageBuffer>
  spv.GlobalVariable @dst bind(0, 1) : !spv.ptr<!spv.struct<!spv.rtarray<vector<4 x f32>, stride=16> [0]>, StorageBuffer>
  spv.func @main() "None" {
    %gid_ptr = spv.mlir.addressof @gid : !spv.ptr<vector<3 x i32>, Input>
    %gid = spv.Load "Input" %gid_ptr : vector<3 x i32>
    %x = spv.CompositeExtract %gid[0 : i32] : vector<3 x i32>
    %zero = spv.Constant 0 : i32
    %src = spv.mlir.addressof @src : !spv.ptr<!spv.struct<!spv.rtarray<f32, stride=4> [0]>, StorageBuffer>
    %p = spv.AccessChain %src[%zero, %x] : !spv.ptr<!spv.struct<!spv.rtarray<f32, stride=4> [0]>, StorageBuffer>, i32, i32
    %v = spv.Load "StorageBuffer" %p : f32
    %e = spv.GLSL.Exp %v : f32
    %s = spv.GLSL.Sqrt %e : f32
    %l = spv.GLSL.Log %s : f32
    %c = spv.Constant 5.000000e-01 : f32
    %m = spv.GLSL.FMax %l, %c : f32
    %vec = spv.CompositeConstruct %m, %e, %s, %l : (f32, f32, f32, f32) -> vector<4 x f32>
    %dst = spv.mlir.addressof @dst : !spv.ptr<!spv.struct<!spv.rtarray<vector<4 x f32>, stride=16> [0]>, StorageBuffer>
    %q = spv.AccessChain %dst[%zero, %x] : !spv.ptr<!spv.struct<!spv.rtarray<vector<4 x f32>, stride=16> [0]>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %q, %vec : vector<4 x f32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
