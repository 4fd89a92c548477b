//! Integer dot products (`OpSDot`, `OpUDot`, `OpSUDot` and their `AccSat`
//! forms; SPIR-V 1.6, `DotProductInput4x8BitPacked`, `vector<4xi8>`
//! inputs with `DotProductInput4x8Bit`) on the Vulkan device (lavapipe in
//! CI, validation layer on) and on the CPU runner (`kiln_cpu`): both must
//! equal what the SPIR-V specification defines, computed here byte by
//! byte in i64 independently of both (components sign- or zero-extended,
//! products summed exactly, the low 32 bits kept, or the sum plus the
//! accumulator saturated to i32 / u32 for the `AccSat` forms), at edge
//! bytes (0x80, 0x7f, 0xff, 0) and accumulators that saturate both ways.

use kiln_core::binary::serialize;
use kiln_core::reflect::reflect_binary;
use kiln_core::validate::{validate, ValidationEnv};
use kiln_cpu::{BufferBinding, CpuKernel, DispatchOptions};
use kiln_gpu_tests::{assert_no_validation_messages, test_context, Buffer, ComputePipeline};

const BUF: &str = "!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>";

/// Results per invocation: SDot, UDot, SUDot, SDotAccSat, UDotAccSat,
/// SUDotAccSat on the packed words, then SDot, UDot, SUDot on the same
/// bytes as `vector<4xi8>`.
const OUTS: usize = 9;

fn src() -> String {
    let outs: String = (0..OUTS)
        .map(|j| {
            format!(
                "    %o{j}i = spirv.IAdd %base, %c{j} : i32
    %o{j}p = spirv.AccessChain %out[%c0, %o{j}i] : {BUF}, i32, i32
    spirv.Store \"StorageBuffer\" %o{j}p, %r{j} : i32\n"
            )
        })
        .collect();
    let consts: String = (0..=OUTS)
        .map(|j| format!("    %c{j} = spirv.Constant {j} : i32\n"))
        .collect();
    format!(
        r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Int8, DotProduct, DotProductInput4x8Bit, DotProductInput4x8BitPacked], []> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : {BUF}
  spirv.GlobalVariable @b bind(0, 1) : {BUF}
  spirv.GlobalVariable @acc bind(0, 2) : {BUF}
  spirv.GlobalVariable @out bind(0, 3) : {BUF}
  spirv.func @main() "None" {{
{consts}    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %pg : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %pa = spirv.mlir.addressof @a : {BUF}
    %pb = spirv.mlir.addressof @b : {BUF}
    %pc = spirv.mlir.addressof @acc : {BUF}
    %out = spirv.mlir.addressof @out : {BUF}
    %ea = spirv.AccessChain %pa[%c0, %g] : {BUF}, i32, i32
    %eb = spirv.AccessChain %pb[%c0, %g] : {BUF}, i32, i32
    %ec = spirv.AccessChain %pc[%c0, %g] : {BUF}, i32, i32
    %x = spirv.Load "StorageBuffer" %ea : i32
    %y = spirv.Load "StorageBuffer" %eb : i32
    %z = spirv.Load "StorageBuffer" %ec : i32
    %r0 = spirv.SDot %x, %y, <PackedVectorFormat4x8Bit> : i32 -> i32
    %r1 = spirv.UDot %x, %y, <PackedVectorFormat4x8Bit> : i32 -> i32
    %r2 = spirv.SUDot %x, %y, <PackedVectorFormat4x8Bit> : i32 -> i32
    %r3 = spirv.SDotAccSat %x, %y, %z, <PackedVectorFormat4x8Bit> : i32 -> i32
    %r4 = spirv.UDotAccSat %x, %y, %z, <PackedVectorFormat4x8Bit> : i32 -> i32
    %r5 = spirv.SUDotAccSat %x, %y, %z, <PackedVectorFormat4x8Bit> : i32 -> i32
    %vx = spirv.Bitcast %x : i32 to vector<4xi8>
    %vy = spirv.Bitcast %y : i32 to vector<4xi8>
    %r6 = spirv.SDot %vx, %vy : vector<4xi8> -> i32
    %r7 = spirv.UDot %vx, %vy : vector<4xi8> -> i32
    %r8 = spirv.SUDot %vx, %vy : vector<4xi8> -> i32
    %base = spirv.IMul %g, %c{OUTS} : i32
{outs}    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @main, @gid, @a, @b, @acc, @out
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}}"#
    )
}

/// The inputs: every pair of the edge bytes in each lane, then a
/// pseudo-random tail; accumulators at and near the i32 / u32 limits.
fn inputs(n: usize) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let edges = [0x80u8, 0x7f, 0xff, 0x00, 0x01, 0xfe];
    let accs = [
        0u32,
        i32::MAX as u32,
        i32::MIN as u32,
        0x7fff_0000,
        0x8000_ffff,
        u32::MAX,
        0xffff_0000,
        12345,
    ];
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let (x, y) = if i < edges.len() * edges.len() {
            let (p, q) = (edges[i / edges.len()], edges[i % edges.len()]);
            (
                u32::from_le_bytes([p, p, p, p]),
                u32::from_le_bytes([q, q, q, q]),
            )
        } else {
            (next() as u32, (next() >> 32) as u32)
        };
        a.push(x);
        b.push(y);
        c.push(accs[i % accs.len()]);
    }
    (a, b, c)
}

/// The specification's results for one invocation.
fn model(x: u32, y: u32, acc: u32) -> [u32; OUTS] {
    let (xb, yb) = (x.to_le_bytes(), y.to_le_bytes());
    let dot = |sx: bool, sy: bool| -> i64 {
        (0..4)
            .map(|k| {
                let p = if sx {
                    i64::from(xb[k] as i8)
                } else {
                    i64::from(xb[k])
                };
                let q = if sy {
                    i64::from(yb[k] as i8)
                } else {
                    i64::from(yb[k])
                };
                p * q
            })
            .sum()
    };
    let (s, u, su) = (dot(true, true), dot(false, false), dot(true, false));
    let sat_s = |d: i64| {
        (d + i64::from(acc as i32)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
    };
    let sat_u = (u + i64::from(acc)).clamp(0, i64::from(u32::MAX)) as u32;
    [
        s as u32,
        u as u32,
        su as u32,
        sat_s(s),
        sat_u,
        sat_s(su),
        s as u32,
        u as u32,
        su as u32,
    ]
}

fn bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn integer_dot_products_agree_with_the_spec_on_the_device_and_the_cpu() {
    let n = 128;
    let (a, b, c) = inputs(n);
    let buffers = vec![bytes(&a), bytes(&b), bytes(&c), vec![0u8; n * OUTS * 4]];
    let text = src();
    let m = kiln_core::text::parse(&text).unwrap_or_else(|e| panic!("parse: {e}"));
    kiln_core::ir::verify::verify(&m).unwrap_or_else(|e| panic!("verify: {e}"));
    let words = serialize(&m).unwrap_or_else(|e| panic!("serialize: {e}"));
    validate(&words, ValidationEnv::Vulkan1_3).unwrap_or_else(|e| panic!("spirv-val: {e}"));
    let grid = [(n / 64) as u32, 1, 1];

    let ctx = test_context();
    let iface = reflect_binary(&words, "main").unwrap();
    let pipeline = ComputePipeline::with_specialization(&ctx, &words, &iface, &[]).unwrap();
    let bufs: Vec<Buffer> = buffers
        .iter()
        .map(|x| Buffer::from_bytes(&ctx, x).unwrap())
        .collect();
    let bindings: Vec<(u32, u32, &Buffer)> = bufs
        .iter()
        .enumerate()
        .map(|(i, x)| (0, i as u32, x))
        .collect();
    ctx.dispatch(&pipeline, &bindings, &[], grid).unwrap();
    assert_no_validation_messages(&ctx);
    let device = bufs[3].to_bytes();

    let kernel = CpuKernel::compile(&m, "main", &Default::default()).unwrap();
    let mut cpu_bufs = buffers.clone();
    let mut cb: Vec<BufferBinding<'_>> = cpu_bufs
        .iter_mut()
        .enumerate()
        .map(|(i, x)| BufferBinding {
            set: 0,
            binding: i as u32,
            element: 0,
            bytes: x,
        })
        .collect();
    kernel
        .dispatch(&mut cb, &[], grid, &DispatchOptions::default())
        .unwrap();
    let cpu = cpu_bufs[3].clone();

    let names = [
        "SDot",
        "UDot",
        "SUDot",
        "SDotAccSat",
        "UDotAccSat",
        "SUDotAccSat",
        "SDot v4i8",
        "UDot v4i8",
        "SUDot v4i8",
    ];
    for (what, got) in [("device", &device), ("CPU runner", &cpu)] {
        let got: Vec<u32> = got
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        for i in 0..n {
            let want = model(a[i], b[i], c[i]);
            for j in 0..OUTS {
                assert_eq!(
                    got[i * OUTS + j],
                    want[j],
                    "{what}: {} of {:#010x}, {:#010x} (acc {:#010x})",
                    names[j],
                    a[i],
                    b[i],
                    c[i]
                );
            }
        }
    }
}
