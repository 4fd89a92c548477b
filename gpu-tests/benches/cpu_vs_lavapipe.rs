//! `cargo bench -p kiln-gpu-tests --bench cpu_vs_lavapipe`: the CPU runner's
//! run time beside the Vulkan device's (lavapipe in CI), validation off.
//!
//! 1. Every runner program of `tests/runner`: the kernels' time as each
//!    runner reports it (lavapipe's timestamps; the harness's clock around
//!    the grid), and the whole program's wall time, warm (second run of one
//!    launcher: pipelines and compiled kernels cached). The CPU's first run
//!    (kernels compiled by opt-19/llc-19/cc into a fresh cache) is given too.
//! 2. Larger kernels in spv text, the shapes of the IREE baseline
//!    (`/work/shared/bench`): an add of 16M f32, a 16M sum in two stages
//!    (workgroup tree reductions with barriers in loops), a naive 512³
//!    matmul. Median of `KILN_BENCH_RUNS` (default 5) dispatches each;
//!    results checked against the host.
//! 3. Every tensor program of `tests/tensor` (IREE's end-to-end test
//!    format) as `kiln run` and `kiln run --cpu` run it: the wall time of
//!    the whole file (tensor compiler, kernels, checks) on lavapipe and on
//!    the CPU, the CPU's warm (second run: LLVM builds cached) and first
//!    (compiling every kernel) runs, and the CPU's kernel time.
//!
//! The machine is shared: run it on an otherwise idle machine.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kiln_core::binary::serialize;
use kiln_core::reflect::reflect_binary;
use kiln_cpu::{BufferBinding, CpuKernel, CpuLauncher, DispatchOptions};
use kiln_runtime::runner::VulkanLauncher;
use kiln_vulkan::{Buffer, BufferBinding as VkBinding, ComputePipeline, Context, ContextOptions};

fn runs() -> usize {
    std::env::var("KILN_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// Sums the `Compute shader execution time: Xus` lines of a runner output.
fn shader_time(out: &str) -> Duration {
    out.lines()
        .filter_map(|l| l.strip_prefix("Compute shader execution time: "))
        .filter_map(|v| v.trim_end_matches("us").parse::<f64>().ok())
        .map(|us| Duration::from_secs_f64(us * 1e-6))
        .sum()
}

fn runner_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runner");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

fn bench_runner_files(ctx: &Context) {
    println!("## Runner programs (times in ms)\n");
    println!("| program | lavapipe kernels | CPU kernels | lavapipe program (warm) | CPU program (warm) | CPU program (first, compiling) |");
    println!("|---|---|---|---|---|---|");
    let (mut lk, mut ck, mut lw, mut cw) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    for path in runner_files() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let module = kiln_core::kernel::parse(&text).unwrap();
        let mut vk = VulkanLauncher::new(ctx, &module).with_timing(true);
        let _ = kiln_core::host::run_main_to_string(&module, &mut vk).unwrap();
        let t = Instant::now();
        let out = kiln_core::host::run_main_to_string(&module, &mut vk).unwrap();
        let vk_wall = t.elapsed();
        let vk_kernel = shader_time(&out);
        let mut cpu = CpuLauncher::new(&module)
            .with_target_env(ctx.target_env().clone())
            .with_timing(true);
        let t = Instant::now();
        let _ = kiln_core::host::run_main_to_string(&module, &mut cpu).unwrap();
        let cpu_first = t.elapsed();
        let t = Instant::now();
        let out = kiln_core::host::run_main_to_string(&module, &mut cpu).unwrap();
        let cpu_wall = t.elapsed();
        let cpu_kernel = shader_time(&out);
        lk += vk_kernel;
        ck += cpu_kernel;
        lw += vk_wall;
        cw += cpu_wall;
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            ms(vk_kernel),
            ms(cpu_kernel),
            ms(vk_wall),
            ms(cpu_wall),
            ms(cpu_first)
        );
    }
    println!(
        "| **all** | {} | {} | {} | {} | |\n",
        ms(lk),
        ms(ck),
        ms(lw),
        ms(cw)
    );
}

const RT: &str = "!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>";

fn header(caps: &str) -> String {
    format!(
        "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader{caps}], [SPV_KHR_storage_buffer_storage_class]> {{\n  \
         spirv.GlobalVariable @gid built_in(\"GlobalInvocationId\") : !spirv.ptr<vector<3xi32>, Input>\n  \
         spirv.GlobalVariable @lid built_in(\"LocalInvocationId\") : !spirv.ptr<vector<3xi32>, Input>\n  \
         spirv.GlobalVariable @wid built_in(\"WorkgroupId\") : !spirv.ptr<vector<3xi32>, Input>\n"
    )
}

/// c[i] = a[i] + b[i], i = gid.y * 4194304 + gid.x (grid 16384 x 4 of 256).
fn add_src() -> String {
    format!(
        r#"{h}  spirv.GlobalVariable @a bind(0, 0) : {RT}
  spirv.GlobalVariable @b bind(0, 1) : {RT}
  spirv.GlobalVariable @c bind(0, 2) : {RT}
  spirv.func @add() "None" {{
    %c0 = spirv.Constant 0 : i32
    %row = spirv.Constant 4194304 : i32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %pg : vector<3xi32>
    %x = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %y = spirv.CompositeExtract %g[1 : i32] : vector<3xi32>
    %yr = spirv.IMul %y, %row : i32
    %i = spirv.IAdd %yr, %x : i32
    %a = spirv.mlir.addressof @a : {RT}
    %b = spirv.mlir.addressof @b : {RT}
    %c = spirv.mlir.addressof @c : {RT}
    %pa = spirv.AccessChain %a[%c0, %i] : {RT}, i32, i32
    %pb = spirv.AccessChain %b[%c0, %i] : {RT}, i32, i32
    %pc = spirv.AccessChain %c[%c0, %i] : {RT}, i32, i32
    %va = spirv.Load "StorageBuffer" %pa : f32
    %vb = spirv.Load "StorageBuffer" %pb : f32
    %s = spirv.FAdd %va, %vb : f32
    spirv.Store "StorageBuffer" %pc, %s : f32
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @add, @gid
  spirv.ExecutionMode @add "LocalSize", 256, 1, 1
}}
"#,
        h = header("")
    )
}

/// out[wid] = sum of in[wid * 256 * 16 .. +4096]: 16 strided loads per
/// invocation, then a tree reduction in workgroup memory.
fn sum_src() -> String {
    format!(
        r#"{h}  spirv.GlobalVariable @in bind(0, 0) : {RT}
  spirv.GlobalVariable @out bind(0, 1) : {RT}
  spirv.GlobalVariable @sh : !spirv.ptr<!spirv.array<256 x f32>, Workgroup>
  spirv.func @sum() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c16 = spirv.Constant 16 : i32
    %c128 = spirv.Constant 128 : i32
    %c256 = spirv.Constant 256 : i32
    %c4096 = spirv.Constant 4096 : i32
    %f0 = spirv.Constant 0.0 : f32
    %pl = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %pw = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %l3 = spirv.Load "Input" %pl : vector<3xi32>
    %w3 = spirv.Load "Input" %pw : vector<3xi32>
    %l = spirv.CompositeExtract %l3[0 : i32] : vector<3xi32>
    %w = spirv.CompositeExtract %w3[0 : i32] : vector<3xi32>
    %in = spirv.mlir.addressof @in : {RT}
    %out = spirv.mlir.addressof @out : {RT}
    %sh = spirv.mlir.addressof @sh : !spirv.ptr<!spirv.array<256 x f32>, Workgroup>
    %base0 = spirv.IMul %w, %c4096 : i32
    %base = spirv.IAdd %base0, %l : i32
    %acc = spirv.Variable init(%f0) : !spirv.ptr<f32, Function>
    spirv.mlir.loop {{
      spirv.Branch ^h(%c0 : i32)
    ^h(%k: i32):
      %more = spirv.SLessThan %k, %c16 : i32
      spirv.BranchConditional %more, ^b, ^m
    ^b:
      %off = spirv.IMul %k, %c256 : i32
      %i = spirv.IAdd %base, %off : i32
      %p = spirv.AccessChain %in[%c0, %i] : {RT}, i32, i32
      %v = spirv.Load "StorageBuffer" %p : f32
      %a = spirv.Load "Function" %acc : f32
      %s = spirv.FAdd %a, %v : f32
      spirv.Store "Function" %acc, %s : f32
      %k1 = spirv.IAdd %k, %c1 : i32
      spirv.Branch ^h(%k1 : i32)
    ^m:
      spirv.mlir.merge
    }}
    %mine = spirv.AccessChain %sh[%l] : !spirv.ptr<!spirv.array<256 x f32>, Workgroup>, i32
    %t = spirv.Load "Function" %acc : f32
    spirv.Store "Workgroup" %mine, %t : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.mlir.loop {{
      spirv.Branch ^h(%c128 : i32)
    ^h(%s: i32):
      %more = spirv.SGreaterThan %s, %c0 : i32
      spirv.BranchConditional %more, ^b, ^m
    ^b:
      %act = spirv.ULessThan %l, %s : i32
      spirv.mlir.selection {{
        spirv.BranchConditional %act, ^add, ^skip
      ^add:
        %o = spirv.IAdd %l, %s : i32
        %po = spirv.AccessChain %sh[%o] : !spirv.ptr<!spirv.array<256 x f32>, Workgroup>, i32
        %x = spirv.Load "Workgroup" %mine : f32
        %y = spirv.Load "Workgroup" %po : f32
        %z = spirv.FAdd %x, %y : f32
        spirv.Store "Workgroup" %mine, %z : f32
        spirv.Branch ^skip
      ^skip:
        spirv.mlir.merge
      }}
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %s1 = spirv.ShiftRightLogical %s, %c1 : i32, i32
      spirv.Branch ^h(%s1 : i32)
    ^m:
      spirv.mlir.merge
    }}
    %first = spirv.IEqual %l, %c0 : i32
    spirv.mlir.selection {{
      spirv.BranchConditional %first, ^w, ^d
    ^w:
      %r = spirv.Load "Workgroup" %mine : f32
      %po = spirv.AccessChain %out[%c0, %w] : {RT}, i32, i32
      spirv.Store "StorageBuffer" %po, %r : f32
      spirv.Branch ^d
    ^d:
      spirv.mlir.merge
    }}
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @sum, @lid, @wid
  spirv.ExecutionMode @sum "LocalSize", 256, 1, 1
}}
"#,
        h = header("")
    )
}

/// c = a x b, 512 x 512 f32, one output per invocation (16 x 16 workgroups).
fn matmul_src() -> String {
    format!(
        r#"{h}  spirv.GlobalVariable @a bind(0, 0) : {RT}
  spirv.GlobalVariable @b bind(0, 1) : {RT}
  spirv.GlobalVariable @c bind(0, 2) : {RT}
  spirv.func @matmul() "None" {{
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %n = spirv.Constant 512 : i32
    %f0 = spirv.Constant 0.0 : f32
    %pg = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %pg : vector<3xi32>
    %col = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %row = spirv.CompositeExtract %g[1 : i32] : vector<3xi32>
    %a = spirv.mlir.addressof @a : {RT}
    %b = spirv.mlir.addressof @b : {RT}
    %c = spirv.mlir.addressof @c : {RT}
    %rowbase = spirv.IMul %row, %n : i32
    %acc = spirv.Variable init(%f0) : !spirv.ptr<f32, Function>
    spirv.mlir.loop {{
      spirv.Branch ^h(%c0 : i32)
    ^h(%k: i32):
      %more = spirv.SLessThan %k, %n : i32
      spirv.BranchConditional %more, ^b, ^m
    ^b:
      %ia = spirv.IAdd %rowbase, %k : i32
      %kb = spirv.IMul %k, %n : i32
      %ib = spirv.IAdd %kb, %col : i32
      %pa = spirv.AccessChain %a[%c0, %ia] : {RT}, i32, i32
      %pb = spirv.AccessChain %b[%c0, %ib] : {RT}, i32, i32
      %x = spirv.Load "StorageBuffer" %pa : f32
      %y = spirv.Load "StorageBuffer" %pb : f32
      %p = spirv.FMul %x, %y : f32
      %s0 = spirv.Load "Function" %acc : f32
      %s1 = spirv.FAdd %s0, %p : f32
      spirv.Store "Function" %acc, %s1 : f32
      %k1 = spirv.IAdd %k, %c1 : i32
      spirv.Branch ^h(%k1 : i32)
    ^m:
      spirv.mlir.merge
    }}
    %ic = spirv.IAdd %rowbase, %col : i32
    %pc = spirv.AccessChain %c[%c0, %ic] : {RT}, i32, i32
    %r = spirv.Load "Function" %acc : f32
    spirv.Store "StorageBuffer" %pc, %r : f32
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @matmul, @gid
  spirv.ExecutionMode @matmul "LocalSize", 16, 16, 1
}}
"#,
        h = header("")
    )
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Median device time and median CPU kernel time of one kernel; returns
/// both outputs (bindings in order).
fn bench_kernel(
    ctx: &Context,
    src: &str,
    entry: &str,
    buffers: &[Vec<u8>],
    grid: [u32; 3],
) -> (Duration, Duration, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let module = kiln_core::text::parse(src).unwrap();
    let words = serialize(&module).unwrap();
    let iface = reflect_binary(&words, entry).unwrap();
    let pipeline = ComputePipeline::new(ctx, &words, &iface).unwrap();
    let vk_bufs: Vec<Buffer> = buffers
        .iter()
        .map(|b| Buffer::from_bytes(ctx, b).unwrap())
        .collect();
    let bindings: Vec<VkBinding<'_>> = vk_bufs
        .iter()
        .enumerate()
        .map(|(i, b)| VkBinding::new(0, i as u32, b))
        .collect();
    let mut vk_times = Vec::new();
    for _ in 0..runs() + 1 {
        let t = ctx.dispatch_timed(&pipeline, &bindings, &[], grid).unwrap();
        vk_times.push(t.device.unwrap_or(t.submit + t.wait));
    }
    vk_times.remove(0);
    let kernel = CpuKernel::compile(&module, entry, &HashMap::new()).unwrap();
    let mut cpu_times = Vec::new();
    let mut out = buffers.to_vec();
    for _ in 0..runs() {
        out = buffers.to_vec();
        let mut b: Vec<BufferBinding<'_>> = out
            .iter_mut()
            .enumerate()
            .map(|(i, bytes)| BufferBinding {
                set: 0,
                binding: i as u32,
                element: 0,
                bytes,
            })
            .collect();
        let r = kernel
            .dispatch(&mut b, &[], grid, &DispatchOptions::default())
            .unwrap();
        cpu_times.push(r.kernel);
    }
    let vk_out = vk_bufs.iter().map(Buffer::to_bytes).collect();
    (median(vk_times), median(cpu_times), vk_out, out)
}

fn bench_kernels(ctx: &Context) {
    println!("## Kernels (median of {} dispatches, ms)\n", runs());
    println!("| kernel | lavapipe | CPU runner | CPU / lavapipe |");
    println!("|---|---|---|---|");
    let row = |name: &str, vk: Duration, cpu: Duration| {
        println!(
            "| {name} | {} | {} | {:.2} |",
            ms(vk),
            ms(cpu),
            cpu.as_secs_f64() / vk.as_secs_f64()
        );
    };
    const N: usize = 1 << 24;
    let a: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.5).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 7) as f32).collect();
    let (vk, cpu, vo, co) = bench_kernel(
        ctx,
        &add_src(),
        "add",
        &[f32_bytes(&a), f32_bytes(&b), vec![0; N * 4]],
        [16384, 4, 1],
    );
    assert_eq!(vo[2], co[2], "add: the device and the CPU differ");
    assert!(f32s(&co[2])
        .iter()
        .zip(a.iter().zip(&b))
        .all(|(c, (x, y))| *c == x + y));
    row("add 16M f32", vk, cpu);

    let ones: Vec<f32> = (0..N).map(|i| (i % 3) as f32).collect();
    let (vk, cpu, vo, co) = bench_kernel(
        ctx,
        &sum_src(),
        "sum",
        &[f32_bytes(&ones), vec![0; 4096 * 4]],
        [4096, 1, 1],
    );
    assert_eq!(vo[1], co[1], "sum: the device and the CPU differ");
    let total: f64 = f32s(&co[1]).iter().map(|&x| f64::from(x)).sum();
    assert_eq!(total, (0..N).map(|i| (i % 3) as f64).sum::<f64>());
    row(
        "sum 16M f32, stage 1 (4096 workgroup tree reductions)",
        vk,
        cpu,
    );

    const M: usize = 512;
    let ma: Vec<f32> = (0..M * M).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let mb: Vec<f32> = (0..M * M).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let (vk, cpu, vo, co) = bench_kernel(
        ctx,
        &matmul_src(),
        "matmul",
        &[f32_bytes(&ma), f32_bytes(&mb), vec![0; M * M * 4]],
        [32, 32, 1],
    );
    assert_eq!(vo[2], co[2], "matmul: the device and the CPU differ");
    let c = f32s(&co[2]);
    for &(r, col) in &[(0usize, 0usize), (17, 300), (511, 511)] {
        let want: f32 = (0..M).map(|k| ma[r * M + k] * mb[k * M + col]).sum();
        assert_eq!(c[r * M + col], want);
    }
    row("matmul 512³ f32 (naive)", vk, cpu);
}

fn tensor_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tensor");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

fn bench_tensor_files() {
    use kiln_core::tensor::e2e::{self, Backend, RunOptions};
    println!("## Tensor programs (times in ms)\n");
    println!("| program | lavapipe (`kiln run`) | CPU warm (`kiln run --cpu`) | CPU kernels (warm) | CPU first (compiling) |");
    println!("|---|---|---|---|---|");
    let device = kiln_runtime::Device::new(&kiln_runtime::DeviceOptions {
        cache: kiln_runtime::CacheLocation::Disabled,
        ..kiln_runtime::DeviceOptions::default()
    })
    .expect("a Vulkan device (lavapipe)");
    let options = DispatchOptions {
        subgroup_size: device.target_env().limits.subgroup_size,
        ..DispatchOptions::default()
    };
    let (mut total_dev, mut total_cpu, mut total_first) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for path in tensor_files() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let module = kiln_core::tensor::load(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let run = |backend: &mut dyn Backend| {
            let start = Instant::now();
            let report = e2e::run(&module, backend, &RunOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(report.success(), "{name}:\n{}", report.output);
            start.elapsed()
        };
        let dev = run(&mut kiln_runtime::e2e::DeviceBackend::new(&device));
        let first = run(&mut kiln_cpu::TensorBackend::new(options.clone()));
        let mut warm_backend = kiln_cpu::TensorBackend::new(options.clone());
        let cpu = run(&mut warm_backend);
        let kernels: Duration = warm_backend.reports().iter().map(|(_, r)| r.kernel).sum();
        total_dev += dev;
        total_cpu += cpu;
        total_first += first;
        println!(
            "| {name} | {} | {} | {} | {} |",
            ms(dev),
            ms(cpu),
            ms(kernels),
            ms(first)
        );
    }
    println!(
        "| **all** | {} | {} | | {} |\n",
        ms(total_dev),
        ms(total_cpu),
        ms(total_first)
    );
}

fn main() {
    // A fresh kernel cache: the runner table's "first" column compiles.
    let cache = std::env::temp_dir().join(format!("kiln-cpu-bench-{}", std::process::id()));
    std::env::set_var("KILN_CPU_CACHE", &cache);
    let ctx = Context::new(&ContextOptions::default()).expect("a Vulkan device (lavapipe)");
    println!("device: {}\n", ctx.device_summary().name);
    bench_runner_files(&ctx);
    bench_kernels(&ctx);
    bench_tensor_files();
    let _ = std::fs::remove_dir_all(&cache);
}
