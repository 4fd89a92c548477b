// target-env: vulkan1.0
// GLSL.std.450 min/max/clamp/mix/fma and integer min/max in the seeds' spv.GLSL. spelling.
spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @floats bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @ints bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %gid_ptr = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %gid = spv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spv.Constant 0 : i32
    %hundred = spv.Constant 100 : i32
    %floats = spv.mlir.addressof @floats : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %fp = spv.AccessChain %floats[%zero, %x] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %f = spv.Load "StorageBuffer" %fp : f32
    %lo = spv.Constant -1.000000e+00 : f32
    %hi = spv.Constant 1.000000e+00 : f32
    %t = spv.Constant 2.500000e-01 : f32
    %a = spv.GLSL.FMin %f, %hi : f32
    %b = spv.GLSL.FMax %a, %lo : f32
    %c = spv.GLSL.FClamp %f, %lo, %hi : f32
    %d = spv.GLSL.FMix %b : f32, %c : f32, %t : f32 -> f32
    %e = spv.GLSL.Fma %d, %t, %c : f32
    %g = spv.GLSL.FAbs %e : f32
    %h = spv.GLSL.FSign %g : f32
    spv.Store "StorageBuffer" %fp, %h : f32
    %ints = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spv.AccessChain %ints[%zero, %x] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spv.Load "StorageBuffer" %ip : i32
    %i1 = spv.GLSL.SMin %i, %hundred : i32
    %i2 = spv.GLSL.SMax %i1, %zero : i32
    %i3 = spv.GLSL.UMin %i2, %x : i32
    %i4 = spv.GLSL.UMax %i3, %zero : i32
    %i5 = spv.GLSL.SClamp %i4, %zero, %hundred : i32
    %i6 = spv.GLSL.UClamp %i5, %zero, %hundred : i32
    %i7 = spv.GLSL.SAbs %i6 : i32
    %i8 = spv.GLSL.SSign %i7 : i32
    spv.Store "StorageBuffer" %ip, %i8 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
