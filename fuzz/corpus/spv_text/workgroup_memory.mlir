// target-env: vulkan1.0
// A workgroup-memory tree reduction: Workgroup global variable, control and
// memory barriers, LocalInvocationId / WorkgroupId builtins.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %lid_ptr = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %lidv = spirv.Load "Input" %lid_ptr : vector<3xi32>
    %lid = spirv.CompositeExtract %lidv[0 : i32] : vector<3xi32>
    %wid_ptr = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %widv = spirv.Load "Input" %wid_ptr : vector<3xi32>
    %wid = spirv.CompositeExtract %widv[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %c64 = spirv.Constant 64 : i32
    %base = spirv.IMul %wid, %c64 : i32
    %gi = spirv.IAdd %base, %lid : i32
    %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %in[%zero, %gi] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %ip : f32
    %tile = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %tp = spirv.AccessChain %tile[%lid] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    spirv.Store "Workgroup" %tp, %v : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %c32 = spirv.Constant 32 : i32
    spirv.mlir.loop {
      spirv.Branch ^header(%c32 : i32)
    ^header(%stride: i32):
      %more = spirv.SGreaterThan %stride, %zero : i32
      spirv.BranchConditional %more, ^body, ^merge
    ^body:
      %active = spirv.SLessThan %lid, %stride : i32
      spirv.mlir.selection {
        spirv.BranchConditional %active, ^add, ^done
      ^add:
        %other = spirv.IAdd %lid, %stride : i32
        %op = spirv.AccessChain %tile[%other] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
        %a = spirv.Load "Workgroup" %tp : f32
        %b = spirv.Load "Workgroup" %op : f32
        %s = spirv.FAdd %a, %b : f32
        spirv.Store "Workgroup" %tp, %s : f32
        spirv.Branch ^done
      ^done:
        spirv.mlir.merge
      }
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %half = spirv.ShiftRightArithmetic %stride, %one : i32, i32
      spirv.Branch ^header(%half : i32)
    ^merge:
      spirv.mlir.merge
    }
    spirv.MemoryBarrier <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %first = spirv.IEqual %lid, %zero : i32
    spirv.mlir.selection {
      spirv.BranchConditional %first, ^write, ^skip
    ^write:
      %t0 = spirv.AccessChain %tile[%zero] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
      %total = spirv.Load "Workgroup" %t0 : f32
      %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %opp = spirv.AccessChain %out[%zero, %wid] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %opp, %total : f32
      spirv.Branch ^skip
    ^skip:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @wid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
