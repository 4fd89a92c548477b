// target-env: vulkan1.0
// no-mlir-translate: these GLSL.std.450 ops have no MLIR 19 op; validated by hand-written SPIR-V assembly.
// GLSL.std.450 instructions beyond MLIR 19's set, in kiln's custom forms:
// Exp2/Log2/Atan2/Trunc/Fract/Step/SmoothStep/NMin/NMax/Radians/Degrees,
// geometric ops, bit scans and half-float packing.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : vector<4xf32>
    %0 = spirv.GL.Exp2 %v : vector<4xf32>
    %1 = spirv.GL.Log2 %0 : vector<4xf32>
    %2 = spirv.GL.Atan2 %1, %v : vector<4xf32>
    %3 = spirv.GL.Trunc %2 : vector<4xf32>
    %4 = spirv.GL.Fract %3 : vector<4xf32>
    %5 = spirv.GL.Step %4, %v : vector<4xf32>
    %6 = spirv.GL.SmoothStep %4, %v, %5 : vector<4xf32>
    %7 = spirv.GL.NMin %6, %v : vector<4xf32>
    %8 = spirv.GL.NMax %7, %v : vector<4xf32>
    %9 = spirv.GL.Radians %8 : vector<4xf32>
    %10 = spirv.GL.Degrees %9 : vector<4xf32>
    %11 = spirv.GL.Asinh %10 : vector<4xf32>
    %a = spirv.VectorShuffle [0 : i32, 1 : i32, 2 : i32] %11, %11 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %b = spirv.VectorShuffle [1 : i32, 2 : i32, 3 : i32] %v, %v : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %c = spirv.GL.Cross %a, %b : vector<3xf32>
    %n = spirv.GL.Normalize %c : vector<3xf32>
    %r = spirv.GL.Reflect %n, %a : vector<3xf32>
    %len = spirv.GL.Length %r : vector<3xf32> -> f32
    %dist = spirv.GL.Distance %a, %b : vector<3xf32>, vector<3xf32> -> f32
    %pair = spirv.CompositeConstruct %len, %dist : (f32, f32) -> vector<2xf32>
    %packed = spirv.GL.PackHalf2x16 %pair : vector<2xf32> -> i32
    %msb = spirv.GL.FindSMsb %packed : i32
    %lsb = spirv.GL.FindILsb %msb : i32
    %unpacked = spirv.GL.UnpackHalf2x16 %lsb : i32 -> vector<2xf32>
    %u0 = spirv.CompositeExtract %unpacked[0 : i32] : vector<2xf32>
    %out = spirv.CompositeInsert %u0, %v[3 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %p, %out : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
