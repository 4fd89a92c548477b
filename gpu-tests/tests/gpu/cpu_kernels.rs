//! The CPU runner against the device on kernels that need the whole grid:
//! barriers inside loops (trip counts uniform per workgroup, different
//! across workgroups), workgroup-memory tree reductions, atomics contended
//! by every invocation (buffer and workgroup memory), subgroup operations
//! (reductions, scans, ballots, broadcasts, shuffles, in divergent
//! control flow too), push and specialization constants, and a large grid
//! spread over the host threads.
//!
//! Each kernel is spv text, run once on the Vulkan device (lavapipe in CI,
//! validation layer on) and once through `kiln_cpu`; the buffers must be
//! byte-identical, and equal to what a model written here (independently
//! of both) computes. Out-of-bounds accesses run on the CPU only (Vulkan
//! leaves them undefined).

use std::collections::HashMap;

use kiln_abi::SpecValue;
use kiln_core::binary::serialize;
use kiln_core::reflect::reflect_binary;
use kiln_core::validate::{validate, ValidationEnv};
use kiln_cpu::{BufferBinding, CpuError, CpuKernel, DispatchOptions};
use kiln_gpu_tests::{assert_no_validation_messages, test_context, Buffer, ComputePipeline};

fn module(src: &str) -> kiln_core::ir::Module {
    let m = kiln_core::text::parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
    kiln_core::ir::verify::verify(&m).unwrap_or_else(|e| panic!("verify: {e}"));
    m
}

/// Runs `src`'s `entry` on the device; buffers are bound at set 0, binding i.
fn run_device(
    src: &str,
    entry: &str,
    buffers: &[Vec<u8>],
    push: &[u8],
    spec: &[SpecValue],
    grid: [u32; 3],
) -> Vec<Vec<u8>> {
    let m = module(src);
    let words = serialize(&m).unwrap_or_else(|e| panic!("serialize: {e}"));
    validate(&words, ValidationEnv::Vulkan1_1).unwrap_or_else(|e| panic!("spirv-val: {e}"));
    let iface = reflect_binary(&words, entry).unwrap();
    let ctx = test_context();
    let pipeline = ComputePipeline::with_specialization(&ctx, &words, &iface, spec).unwrap();
    let bufs: Vec<Buffer> = buffers
        .iter()
        .map(|b| Buffer::from_bytes(&ctx, b).unwrap())
        .collect();
    let bindings: Vec<(u32, u32, &Buffer)> = bufs
        .iter()
        .enumerate()
        .map(|(i, b)| (0, i as u32, b))
        .collect();
    ctx.dispatch(&pipeline, &bindings, push, grid).unwrap();
    assert_no_validation_messages(&ctx);
    bufs.iter().map(Buffer::to_bytes).collect()
}

/// Runs `src`'s `entry` on the CPU.
fn run_cpu(
    src: &str,
    entry: &str,
    buffers: &[Vec<u8>],
    push: &[u8],
    spec: &[SpecValue],
    grid: [u32; 3],
    options: &DispatchOptions,
) -> Result<Vec<Vec<u8>>, CpuError> {
    let m = module(src);
    let spec: HashMap<u32, u64> = spec
        .iter()
        .map(|v| {
            let mut b = [0u8; 8];
            b[..v.bytes.len()].copy_from_slice(&v.bytes);
            (v.id, u64::from_le_bytes(b))
        })
        .collect();
    let kernel = CpuKernel::compile(&m, entry, &spec)?;
    let mut out: Vec<Vec<u8>> = buffers.to_vec();
    let mut bindings: Vec<BufferBinding<'_>> = out
        .iter_mut()
        .enumerate()
        .map(|(i, bytes)| BufferBinding {
            set: 0,
            binding: i as u32,
            element: 0,
            bytes,
        })
        .collect();
    kernel.dispatch(&mut bindings, push, grid, options)?;
    Ok(out)
}

/// Runs on both and checks they agree; returns the buffers.
fn run_both(
    src: &str,
    entry: &str,
    buffers: &[Vec<u8>],
    push: &[u8],
    spec: &[SpecValue],
    grid: [u32; 3],
) -> Vec<Vec<u8>> {
    let device = run_device(src, entry, buffers, push, spec, grid);
    let cpu = run_cpu(
        src,
        entry,
        buffers,
        push,
        spec,
        grid,
        &DispatchOptions::default(),
    )
    .unwrap_or_else(|e| panic!("CPU run of @{entry} failed: {e}"));
    for (i, (d, c)) in device.iter().zip(&cpu).enumerate() {
        if d != c {
            let dv = words(d);
            let cv = words(c);
            let first = dv.iter().zip(&cv).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "@{entry}: binding {i} differs between the device and the CPU, first at word {first}: device {:?}, CPU {:?}",
                &dv[first..(first + 8).min(dv.len())],
                &cv[first..(first + 8).min(cv.len())]
            );
        }
    }
    device
}

fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn words(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

const BUF: &str = "!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>";

/// `%name_p = AccessChain` into runtime-array buffer `%buf` at `%idx`.
fn elem(name: &str, buf: &str, idx: &str) -> String {
    format!("%{name} = spirv.AccessChain %{buf}[%c0, %{idx}] : {BUF}, i32, i32")
}

// ---- barriers inside loops -------------------------------------------------

/// Per workgroup w: `n = w + 2` rounds of `v = sh[l + 1] + sh[l - 1] - v`
/// (indices mod 64) with two barriers per round.
fn barrier_loop_src() -> String {
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : {BUF}
  spirv.GlobalVariable @out bind(0, 1) : {BUF}
  spirv.GlobalVariable @sh : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>
  spirv.func @main() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %c63 = spirv.Constant 63 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %pl = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %pw = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %l3 = spirv.Load "Input" %pl : vector<3xi32>
    %w3 = spirv.Load "Input" %pw : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %l = spirv.CompositeExtract %l3[0 : i32] : vector<3xi32>
    %w = spirv.CompositeExtract %w3[0 : i32] : vector<3xi32>
    %n = spirv.IAdd %w, %c2 : i32
    %in = spirv.mlir.addressof @in : {BUF}
    %out = spirv.mlir.addressof @out : {BUF}
    %sh = spirv.mlir.addressof @sh : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>
    {pin}
    %v0 = spirv.Load "StorageBuffer" %pin : i32
    %lp = spirv.IAdd %l, %c1 : i32
    %right = spirv.BitwiseAnd %lp, %c63 : i32
    %lm = spirv.IAdd %l, %c63 : i32
    %left = spirv.BitwiseAnd %lm, %c63 : i32
    %mine = spirv.AccessChain %sh[%l] : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>, i32
    %pr = spirv.AccessChain %sh[%right] : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>, i32
    %pleft = spirv.AccessChain %sh[%left] : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>, i32
    %acc = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %acc, %v0 : i32
    spirv.mlir.loop {{
      spirv.Branch ^header(%c0 : i32)
    ^header(%k: i32):
      %more = spirv.SLessThan %k, %n : i32
      spirv.BranchConditional %more, ^body, ^merge
    ^body:
      %v = spirv.Load "Function" %acc : i32
      spirv.Store "Workgroup" %mine, %v : i32
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %a = spirv.Load "Workgroup" %pr : i32
      %b = spirv.Load "Workgroup" %pleft : i32
      %s = spirv.IAdd %a, %b : i32
      %nv = spirv.ISub %s, %v : i32
      spirv.Store "Function" %acc, %nv : i32
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %k1 = spirv.IAdd %k, %c1 : i32
      spirv.Branch ^header(%k1 : i32)
    ^merge:
      spirv.mlir.merge
    }}
    %r = spirv.Load "Function" %acc : i32
    {pout}
    spirv.Store "StorageBuffer" %pout, %r : i32
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @main, @gid, @lid, @wid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}}
"#,
        pin = elem("pin", "in", "g"),
        pout = elem("pout", "out", "g"),
    )
}

#[test]
fn barriers_inside_loops_match_the_device_and_the_model() {
    let groups = 3usize;
    let input: Vec<i32> = (0..64 * groups as i32)
        .map(|i| (i * 37) % 101 - 50)
        .collect();
    let out = run_both(
        &barrier_loop_src(),
        "main",
        &[bytes_i32(&input), vec![0; 64 * groups * 4]],
        &[],
        &[],
        [groups as u32, 1, 1],
    );
    let mut expected = Vec::new();
    for w in 0..groups {
        let mut v: Vec<i32> = input[w * 64..(w + 1) * 64].to_vec();
        for _ in 0..w + 2 {
            let sh = v.clone();
            for l in 0..64 {
                v[l] = sh[(l + 1) % 64]
                    .wrapping_add(sh[(l + 63) % 64])
                    .wrapping_sub(sh[l]);
            }
        }
        expected.extend(v);
    }
    assert_eq!(words(&out[1]), expected);
}

// ---- workgroup-memory tree reduction -----------------------------------------

fn tree_src() -> String {
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : {BUF}
  spirv.GlobalVariable @out bind(0, 1) : {BUF}
  spirv.GlobalVariable @sh : !spirv.ptr<!spirv.array<256 x i32>, Workgroup>
  spirv.func @tree() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c128 = spirv.Constant 128 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %pl = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %pw = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %l3 = spirv.Load "Input" %pl : vector<3xi32>
    %w3 = spirv.Load "Input" %pw : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %l = spirv.CompositeExtract %l3[0 : i32] : vector<3xi32>
    %w = spirv.CompositeExtract %w3[0 : i32] : vector<3xi32>
    %in = spirv.mlir.addressof @in : {BUF}
    %out = spirv.mlir.addressof @out : {BUF}
    %sh = spirv.mlir.addressof @sh : !spirv.ptr<!spirv.array<256 x i32>, Workgroup>
    {pin}
    %x = spirv.Load "StorageBuffer" %pin : i32
    %mine = spirv.AccessChain %sh[%l] : !spirv.ptr<!spirv.array<256 x i32>, Workgroup>, i32
    spirv.Store "Workgroup" %mine, %x : i32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.mlir.loop {{
      spirv.Branch ^header(%c128 : i32)
    ^header(%s: i32):
      %more = spirv.SGreaterThan %s, %c0 : i32
      spirv.BranchConditional %more, ^body, ^merge
    ^body:
      %active = spirv.ULessThan %l, %s : i32
      spirv.mlir.selection {{
        spirv.BranchConditional %active, ^add, ^skip
      ^add:
        %o = spirv.IAdd %l, %s : i32
        %po = spirv.AccessChain %sh[%o] : !spirv.ptr<!spirv.array<256 x i32>, Workgroup>, i32
        %a = spirv.Load "Workgroup" %mine : i32
        %b = spirv.Load "Workgroup" %po : i32
        %c = spirv.IAdd %a, %b : i32
        spirv.Store "Workgroup" %mine, %c : i32
        spirv.Branch ^skip
      ^skip:
        spirv.mlir.merge
      }}
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %s1 = spirv.ShiftRightLogical %s, %c1 : i32, i32
      spirv.Branch ^header(%s1 : i32)
    ^merge:
      spirv.mlir.merge
    }}
    %first = spirv.IEqual %l, %c0 : i32
    spirv.mlir.selection {{
      spirv.BranchConditional %first, ^write, ^done
    ^write:
      %t = spirv.Load "Workgroup" %mine : i32
      {pout}
      spirv.Store "StorageBuffer" %pout, %t : i32
      spirv.Branch ^done
    ^done:
      spirv.mlir.merge
    }}
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @tree, @gid, @lid, @wid
  spirv.ExecutionMode @tree "LocalSize", 256, 1, 1
}}
"#,
        pin = elem("pin", "in", "g"),
        pout = elem("pout", "out", "w"),
    )
}

#[test]
fn workgroup_tree_reductions_match_the_device_and_the_model() {
    let groups = 8usize;
    let input: Vec<i32> = (0..256 * groups as i32)
        .map(|i| (i * 7919) % 1000 - 500)
        .collect();
    let out = run_both(
        &tree_src(),
        "tree",
        &[bytes_i32(&input), vec![0; groups * 4]],
        &[],
        &[],
        [groups as u32, 1, 1],
    );
    let expected: Vec<i32> = input.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(words(&out[1]), expected);
}

// ---- atomics contended by every invocation ---------------------------------------

fn atomics_src() -> String {
    let counters =
        "!spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>";
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @counters bind(0, 0) : {counters}
  spirv.GlobalVariable @seen bind(0, 1) : {BUF}
  spirv.GlobalVariable @per_wg bind(0, 2) : {BUF}
  spirv.GlobalVariable @wgc : !spirv.ptr<i32, Workgroup>
  spirv.func @atomics() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %c3 = spirv.Constant 3 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %pl = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %pw = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %l3 = spirv.Load "Input" %pl : vector<3xi32>
    %w3 = spirv.Load "Input" %pw : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %l = spirv.CompositeExtract %l3[0 : i32] : vector<3xi32>
    %w = spirv.CompositeExtract %w3[0 : i32] : vector<3xi32>
    %cs = spirv.mlir.addressof @counters : {counters}
    %seen = spirv.mlir.addressof @seen : {BUF}
    %per_wg = spirv.mlir.addressof @per_wg : {BUF}
    %wgc = spirv.mlir.addressof @wgc : !spirv.ptr<i32, Workgroup>
    %first = spirv.IEqual %l, %c0 : i32
    spirv.mlir.selection {{
      spirv.BranchConditional %first, ^init, ^go
    ^init:
      spirv.Store "Workgroup" %wgc, %c0 : i32
      spirv.Branch ^go
    ^go:
      spirv.mlir.merge
    }}
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %p0 = spirv.AccessChain %cs[%c0, %c0] : {counters}, i32, i32
    %p1 = spirv.AccessChain %cs[%c0, %c1] : {counters}, i32, i32
    %p2 = spirv.AccessChain %cs[%c0, %c2] : {counters}, i32, i32
    %p3 = spirv.AccessChain %cs[%c0, %c3] : {counters}, i32, i32
    %old = spirv.AtomicIAdd <Device> <AcquireRelease|UniformMemory> %p0, %c1 : {counters_elem}
    %x1 = spirv.AtomicUMax <Device> <AcquireRelease|UniformMemory> %p1, %g : {counters_elem}
    %x2 = spirv.AtomicUMin <Device> <AcquireRelease|UniformMemory> %p2, %g : {counters_elem}
    %x3 = spirv.AtomicXor <Device> <AcquireRelease|UniformMemory> %p3, %g : {counters_elem}
    {pseen}
    %x4 = spirv.AtomicIAdd <Device> <AcquireRelease|UniformMemory> %pseen, %c1 : !spirv.ptr<i32, StorageBuffer>
    %x5 = spirv.AtomicIAdd <Workgroup> <AcquireRelease|WorkgroupMemory> %wgc, %c1 : !spirv.ptr<i32, Workgroup>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.mlir.selection {{
      spirv.BranchConditional %first, ^write, ^done
    ^write:
      %n = spirv.Load "Workgroup" %wgc : i32
      {pwg}
      spirv.Store "StorageBuffer" %pwg, %n : i32
      spirv.Branch ^done
    ^done:
      spirv.mlir.merge
    }}
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @atomics, @gid, @lid, @wid
  spirv.ExecutionMode @atomics "LocalSize", 64, 1, 1
}}
"#,
        counters_elem = "!spirv.ptr<i32, StorageBuffer>",
        pseen = elem("pseen", "seen", "old"),
        pwg = elem("pwg", "per_wg", "w"),
    )
}

#[test]
fn atomics_contended_by_every_invocation_match_the_device_and_the_model() {
    let groups = 16usize;
    let n = 64 * groups;
    let out = run_both(
        &atomics_src(),
        "atomics",
        &[
            bytes_i32(&[0, 0, -1, 0]),
            vec![0; n * 4],
            vec![0; groups * 4],
        ],
        &[],
        &[],
        [groups as u32, 1, 1],
    );
    let xor = (0..n as i32).fold(0, |a, b| a ^ b);
    assert_eq!(words(&out[0]), vec![n as i32, n as i32 - 1, 0, xor]);
    // Every old value of the counter was handed out exactly once.
    assert_eq!(words(&out[1]), vec![1; n]);
    assert_eq!(words(&out[2]), vec![64; groups]);
}

// ---- subgroup operations ------------------------------------------------------

/// One output row per invocation, 12 columns (see `subgroup_model`).
fn subgroup_src() -> String {
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformVote, GroupNonUniformArithmetic, GroupNonUniformBallot, GroupNonUniformShuffle, GroupNonUniformShuffleRelative, GroupNonUniformQuad], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lane built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @in bind(0, 0) : {BUF}
  spirv.GlobalVariable @out bind(0, 1) : {BUF}
  spirv.func @sg() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c3 = spirv.Constant 3 : i32
    %c5 = spirv.Constant 5 : i32
    %c7 = spirv.Constant 7 : i32
    %c12 = spirv.Constant 12 : i32
    %m100 = spirv.Constant -100 : i32
    %neg1 = spirv.Constant -1 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %plane = spirv.mlir.addressof @lane : !spirv.ptr<i32, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %lane = spirv.Load "Input" %plane : i32
    %in = spirv.mlir.addressof @in : {BUF}
    %out = spirv.mlir.addressof @out : {BUF}
    {pin}
    %x = spirv.Load "StorageBuffer" %pin : i32
    %f = spirv.ConvertSToF %x : i32 to f32
    %r0 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %x : i32
    %r1 = spirv.GroupNonUniformIAdd "Subgroup" "InclusiveScan" %x : i32
    %r2 = spirv.GroupNonUniformIAdd "Subgroup" "ExclusiveScan" %x : i32
    %r3 = spirv.GroupNonUniformSMax "Subgroup" "Reduce" %x : i32
    %fs = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %f : f32
    %r4 = spirv.ConvertFToS %fs : f32 to i32
    %bit = spirv.BitwiseAnd %x, %c1 : i32
    %odd = spirv.IEqual %bit, %c1 : i32
    %ballot = spirv.GroupNonUniformBallot <Subgroup> %odd : vector<4xi32>
    %r5 = "spirv.GroupNonUniformBallotBitCount"(%ballot) <{{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}}> : (vector<4xi32>) -> i32
    %r6 = spirv.GroupNonUniformBroadcast <Subgroup> %x, %c3 : i32, i32
    %r7 = spirv.GroupNonUniformShuffleXor <Subgroup> %x, %c1 : i32, i32
    %lp3 = spirv.IAdd %lane, %c3 : i32
    %src = spirv.BitwiseAnd %lp3, %c7 : i32
    %r8 = spirv.GroupNonUniformShuffle <Subgroup> %x, %src : i32, i32
    %e = spirv.GroupNonUniformElect <Subgroup> : i1
    %r9 = spirv.Select %e, %c1, %c0 : i1, i32
    %gt = spirv.SGreaterThan %x, %m100 : i32
    %all = spirv.GroupNonUniformAll <Subgroup> %gt : i1
    %alli = spirv.Select %all, %c1, %c0 : i1, i32
    %q = "spirv.GroupNonUniformQuadSwap"(%x, %c0) <{{execution_scope = #spirv.scope<Subgroup>}}> : (i32, i32) -> i32
    %r10 = spirv.IAdd %q, %alli : i32
    %res = spirv.Variable init(%neg1) : !spirv.ptr<i32, Function>
    %low = spirv.ULessThan %lane, %c5 : i32
    spirv.mlir.selection {{
      spirv.BranchConditional %low, ^then, ^merge
    ^then:
      %part = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %x : i32
      spirv.Store "Function" %res, %part : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }}
    %r11 = spirv.Load "Function" %res : i32
    %base = spirv.IMul %g, %c12 : i32
    {stores}
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @sg, @gid, @lane
  spirv.ExecutionMode @sg "LocalSize", 32, 1, 1
}}
"#,
        pin = elem("pin", "in", "g"),
        stores = (0..12)
            .map(|k| {
                format!(
                    "%k{k} = spirv.Constant {k} : i32\n    %i{k} = spirv.IAdd %base, %k{k} : i32\n    \
                     %p{k} = spirv.AccessChain %out[%c0, %i{k}] : {BUF}, i32, i32\n    \
                     spirv.Store \"StorageBuffer\" %p{k}, %r{k} : i32"
                )
            })
            .collect::<Vec<_>>()
            .join("\n    "),
    )
}

/// What each invocation writes, subgroups of 8 consecutive invocations.
fn subgroup_model(x: &[i32]) -> Vec<i32> {
    let mut out = Vec::new();
    for i in 0..x.len() {
        let lane = i % 8;
        let sg = &x[i - lane..i - lane + 8];
        let all = sg.iter().all(|&y| y > -100) as i32;
        out.extend([
            sg.iter().sum::<i32>(),
            sg[..=lane].iter().sum::<i32>(),
            sg[..lane].iter().sum::<i32>(),
            *sg.iter().max().unwrap(),
            sg.iter().map(|&y| y as f32).sum::<f32>() as i32,
            sg.iter().filter(|&&y| y & 1 == 1).count() as i32,
            sg[3],
            sg[lane ^ 1],
            sg[(lane + 3) & 7],
            (lane == 0) as i32,
            sg[lane ^ 1] + all,
            if lane < 5 { sg[..5].iter().sum() } else { -1 },
        ]);
    }
    out
}

#[test]
fn subgroup_operations_match_the_device_and_the_model() {
    let n = 64usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 29) % 23 - 11).collect();
    let out = run_both(
        &subgroup_src(),
        "sg",
        &[bytes_i32(&input), vec![0; n * 12 * 4]],
        &[],
        &[],
        [(n / 32) as u32, 1, 1],
    );
    assert_eq!(words(&out[1]), subgroup_model(&input));
}

/// Clustered reductions: lavapipe lacks GroupNonUniformClustered, so the CPU
/// runs them alone, against the model; other subgroup sizes too.
#[test]
fn clustered_reductions_and_other_subgroup_sizes_on_the_cpu() {
    let src = format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformClustered, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : {BUF}
  spirv.GlobalVariable @out bind(0, 1) : {BUF}
  spirv.func @cl() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c4 = spirv.Constant 4 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %in = spirv.mlir.addressof @in : {BUF}
    %out = spirv.mlir.addressof @out : {BUF}
    {pin}
    %x = spirv.Load "StorageBuffer" %pin : i32
    %r = spirv.GroupNonUniformIAdd "Subgroup" "ClusteredReduce" %x cluster_size(%c4) : i32
    %s = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %x : i32
    %t = spirv.IMul %s, %c4 : i32
    %u = spirv.IAdd %t, %r : i32
    {pout}
    spirv.Store "StorageBuffer" %pout, %u : i32
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @cl, @gid
  spirv.ExecutionMode @cl "LocalSize", 64, 1, 1
}}
"#,
        pin = elem("pin", "in", "g"),
        pout = elem("pout", "out", "g"),
    );
    let input: Vec<i32> = (0..128).map(|i| i * 3 - 100).collect();
    for sg_size in [4u32, 8, 16, 32] {
        let options = DispatchOptions {
            subgroup_size: sg_size,
            ..DispatchOptions::default()
        };
        let out = run_cpu(
            &src,
            "cl",
            &[bytes_i32(&input), vec![0; 128 * 4]],
            &[],
            &[],
            [2, 1, 1],
            &options,
        )
        .unwrap();
        let s = sg_size as usize;
        let expected: Vec<i32> = (0..128)
            .map(|i| {
                let sg: i32 = input[i / s * s..i / s * s + s].iter().sum();
                let cl: i32 = input[i / 4 * 4..i / 4 * 4 + 4].iter().sum();
                sg * 4 + cl
            })
            .collect();
        assert_eq!(words(&out[1]), expected, "subgroup size {sg_size}");
    }
}

// ---- push constants, spec constants, a large grid ---------------------------------

fn params_src() -> String {
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
  spirv.GlobalVariable @out bind(0, 0) : {BUF}
  spirv.SpecConstant @k spec_id(3) = 2 : i32
  spirv.func @params() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %pc = spirv.mlir.addressof @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
    %ps = spirv.AccessChain %pc[%c0] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32
    %po = spirv.AccessChain %pc[%c1] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32
    %scale = spirv.Load "PushConstant" %ps : i32
    %offset = spirv.Load "PushConstant" %po : i32
    %k = spirv.mlir.referenceof @k : i32
    %a = spirv.IMul %g, %scale : i32
    %b = spirv.IMul %a, %k : i32
    %r = spirv.IAdd %b, %offset : i32
    %out = spirv.mlir.addressof @out : {BUF}
    {pout}
    spirv.Store "StorageBuffer" %pout, %r : i32
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @params, @gid
  spirv.ExecutionMode @params "LocalSize", 64, 1, 1
}}
"#,
        pout = elem("pout", "out", "g"),
    )
}

#[test]
fn push_and_spec_constants_and_a_large_grid() {
    let groups = 2048usize;
    let n = groups * 64;
    let push = bytes_i32(&[3, -7]);
    for (spec, k) in [(vec![], 2), (vec![SpecValue::i32(3, 5)], 5)] {
        let out = run_both(
            &params_src(),
            "params",
            &[vec![0; n * 4]],
            &push,
            &spec,
            [groups as u32, 1, 1],
        );
        let expected: Vec<i32> = (0..n as i32).map(|g| g * 3 * k - 7).collect();
        assert_eq!(words(&out[0]), expected, "k = {k}");
    }
}

// ---- out-of-bounds accesses (CPU only) --------------------------------------------

#[test]
fn out_of_bounds_accesses_are_errors_naming_the_buffer_and_index_or_robust() {
    let src = params_src();
    // 64 invocations per workgroup, 2 workgroups, a 100-element buffer.
    let buffers = [vec![0u8; 100 * 4]];
    let push = bytes_i32(&[1, 0]);
    let err = run_cpu(
        &src,
        "params",
        &buffers,
        &push,
        &[],
        [2, 1, 1],
        &DispatchOptions::default(),
    )
    .expect_err("stores past the end are reported");
    let text = err.to_string();
    assert!(
        text.contains("buffer set 0 binding 0 (@out)") && text.contains("index 100 "),
        "{text}"
    );
    assert!(text.contains("28 out-of-bounds accesses"), "{text}");
    let robust = DispatchOptions {
        robust: true,
        ..DispatchOptions::default()
    };
    let out = run_cpu(&src, "params", &buffers, &push, &[], [2, 1, 1], &robust).unwrap();
    let expected: Vec<i32> = (0..100).map(|g| g * 2).collect();
    assert_eq!(words(&out[0]), expected);
}
