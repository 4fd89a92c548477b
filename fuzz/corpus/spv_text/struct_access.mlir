// target-env: vulkan1.0
// Access chains through nested structs (constant struct indices drive the
// inferred result type), arrays of structs, and composite extraction.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @particles bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %buf = spirv.mlir.addressof @particles : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
    %cp = spirv.AccessChain %buf[%zero] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32
    %count = spirv.Load "StorageBuffer" %cp : i32
    %pp = spirv.AccessChain %buf[%one, %x, %zero] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %vp = spirv.AccessChain %buf[%one, %x, %one] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %mp = spirv.AccessChain %buf[%one, %x, %two, %zero] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    %ep = spirv.AccessChain %buf[%one, %x, %two] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %pos = spirv.Load "StorageBuffer" %pp : vector<4xf32>
    %vel = spirv.Load "StorageBuffer" %vp : vector<4xf32>
    %mass = spirv.Load "StorageBuffer" %mp : f32
    %extra = spirv.Load "StorageBuffer" %ep : !spirv.struct<(f32 [0], i32 [4])>
    %tag = spirv.CompositeExtract %extra[1 : i32] : !spirv.struct<(f32 [0], i32 [4])>
    %dt = spirv.ConvertSToF %count : i32 to f32
    %step = spirv.VectorTimesScalar %vel, %dt : (vector<4xf32>, f32) -> vector<4xf32>
    %m = spirv.FMul %mass, %dt : f32
    %step2 = spirv.VectorTimesScalar %step, %m : (vector<4xf32>, f32) -> vector<4xf32>
    %np = spirv.FAdd %pos, %step2 : vector<4xf32>
    spirv.Store "StorageBuffer" %pp, %np : vector<4xf32>
    %t1 = spirv.IAdd %tag, %one : i32
    %tp = spirv.AccessChain %buf[%one, %x, %two, %one] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    spirv.Store "StorageBuffer" %tp, %t1 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
