//! Tensors larger than `maxStorageBufferRange`: a device whose range is
//! lowered to 4 KiB ([`Context::with_storage_buffer_range`]) runs the
//! corpus files `split_buffers.mlir` (static sizes) and
//! `split_buffers_dynamic.mlir` (sizes known at run time: the `_chunked`
//! variants of their dispatches), whose buffers exceed it (element-wise
//! ops, row and column sums, a matmul, a gather of rows from every chunk of
//! its table, i8 elements), validation layer on; every result must pass the
//! file's numpy-computed checks and equal the CPU reference evaluator's,
//! and every kernel must pass spirv-val ([`check_file_for`]). Kernels bind such a buffer as an array of
//! descriptors, one per chunk (`ResourceLimits::storage_chunk_bytes`); the
//! test checks that some do. The CPU runner binds each chunk as a slot of
//! its own and must give the device's results on the same kernels. A
//! tensor sized at run time past the chunks its kernels bind is refused,
//! on the device and on the CPU, and one that fills them exactly runs
//! (`KILN_DIFF_NO_CPU=1` leaves the CPU out of the run-time-size test, for
//! a machine without LLVM 19's tools).

use kiln_core::codegen::CodegenTarget;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, Device, DeviceOptions};
use kiln_vulkan::{Context, ContextOptions, DeviceSelector};

use crate::tensor_cpu_differential::run_file_on_both;
use crate::tensor_programs::{check_file_for, corpus};

/// The lowered range: 4 KiB, so buffers of more than 1,024 f32 are split.
const RANGE: u32 = 4096;

/// The corpus files run with the lowered range.
const FILES: &[&str] = &["split_buffers.mlir", "split_buffers_dynamic.mlir"];

fn small_range_device() -> Device {
    let ctx = Context::new(&ContextOptions {
        validation: true,
        device: DeviceSelector::Default,
    })
    .and_then(|c| c.with_storage_buffer_range(RANGE))
    .unwrap_or_else(|e| panic!("GPU tests need a Vulkan device and the validation layer: {e}"));
    Device::from_context(
        ctx,
        &DeviceOptions {
            cache: CacheLocation::Disabled,
            ..DeviceOptions::default()
        },
    )
    .expect("a device")
}

/// The bindings of the kernels of file `path`, compiled for `target`,
/// that are arrays of descriptors (a buffer in chunks).
fn split_bindings(target: &CodegenTarget, path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).expect("a corpus file");
    let module = kiln_core::tensor::load(&text).expect("a tensor module");
    let compute = kiln_core::tensor::e2e::compute_module(&module).expect("an e2e file");
    let mut n = 0;
    for (_, program) in kiln_core::codegen::compile_each_function(&compute, target)
        .expect("compiles")
        .into_iter()
    {
        let Ok(program) = program else { continue };
        for k in program
            .functions
            .iter()
            .flat_map(|f| &f.dispatches)
            .flat_map(|d| &d.kernels)
        {
            let iface = kiln_core::reflect::reflect_binary(&k.words, &k.name).expect("reflects");
            n += iface.bindings.iter().filter(|b| b.count > 1).count();
        }
    }
    n
}

#[test]
fn buffers_past_the_storage_range_are_split() {
    let device = small_range_device();
    assert_eq!(device.limits().max_storage_buffer_range, RANGE);
    assert_eq!(device.target_env().limits.max_storage_buffer_range, RANGE);
    let mut failures = Vec::new();
    let files: Vec<_> = corpus()
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| FILES.contains(&n))
        })
        .collect();
    assert_eq!(files.len(), FILES.len(), "corpus files missing");
    // The device's own target reads read-only 32-bit tensors through texel
    // views (not limited by the range); without them every tensor is a
    // storage buffer (the matmul's operands too).
    let own = device_target(&device);
    let mut storage_only = own.clone();
    storage_only.facts.texel_reads = None;
    let mut split = 0;
    for f in &files {
        for target in [&own, &storage_only] {
            failures.extend(check_file_for(&device, f, target, false));
            split += split_bindings(target, f);
        }
    }
    kiln_gpu_tests::assert_no_validation_messages(device.context());
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(split > 0, "no kernel binds a buffer in chunks");
}

/// The same kernels (compiled for the small-range device with
/// storage-buffer reads: the CPU runner has no texel buffers) on lavapipe
/// and on the CPU (kiln-cpu, each chunk its own slot) agree. On main the
/// CPU runner refused them ("binding N is an array of descriptors").
/// Costs about six seconds (the kernels of eleven functions compiled by
/// LLVM, run twice).
#[test]
fn split_buffers_give_the_device_results_on_the_cpu() {
    let device = small_range_device();
    let mut target = device_target(&device);
    target.facts.texel_reads = None;
    let options = kiln_cpu::DispatchOptions {
        subgroup_size: target.env.limits.subgroup_size,
        ..kiln_cpu::DispatchOptions::default()
    };
    let mut functions = 0;
    let mut failures = Vec::new();
    for f in corpus().iter().filter(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| FILES.contains(&n))
    }) {
        assert!(
            split_bindings(&target, f) > 0,
            "no kernel binds a buffer in chunks"
        );
        let (n, _, found) = run_file_on_both(&device, &target, &options, f);
        functions += n;
        failures.extend(found);
    }
    kiln_gpu_tests::assert_no_validation_messages(device.context());
    assert_eq!(functions, 5 + 6, "the files' functions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `@f(a, b) = a + b` on `tensor<?xf32>`.
const ADD: &str = r#"func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.addf %a, %b : tensor<?xf32>
  return %c : tensor<?xf32>
}"#;

/// A tensor sized at run time with as many bytes as the `_chunked`
/// variant's descriptors bind gives Rust's IEEE sums (an oracle apart from
/// kiln) on the device and the CPU; one element more is refused
/// ("needs N bytes, more than the M bytes its kernels can bind") before
/// anything runs. On main every such tensor past 4 KiB was refused. Costs
/// about a second (one kernel pair, 40 KiB tensors).
#[test]
fn run_time_sizes_run_in_chunks_up_to_the_variant_and_are_refused_past_it() {
    use kiln_core::codegen::{compile_function, prepare_module, CompiledProgram};
    use kiln_core::tensor::attr::Elements;
    use kiln_core::tensor::eval::{Tensor, Value};
    use kiln_core::tensor::types::ElemType;

    let device = small_range_device();
    let mut target = device_target(&device);
    target.facts.texel_reads = None;
    let m = kiln_core::tensor::load(ADD).expect("parses");
    let prepared = prepare_module(&m).expect("prepares");
    let cf = compile_function(&prepared, prepared.funcs()[0], &target).expect("compiles");
    assert_eq!(
        cf.dispatches[0].kernels.len(),
        2,
        "a plain kernel and its variant"
    );
    let most = cf
        .chunk_limits
        .first()
        .map(|&(_, n)| n)
        .expect("a chunk limit");
    assert!(most > u64::from(RANGE), "{most}");
    let program = CompiledProgram {
        target: target.clone(),
        functions: vec![cf],
    };
    let dev = kiln_runtime::Program::load(&device, program.clone()).expect("loads");
    let options = kiln_cpu::DispatchOptions {
        subgroup_size: target.env.limits.subgroup_size,
        ..kiln_cpu::DispatchOptions::default()
    };
    // `KILN_DIFF_NO_CPU=1` leaves the CPU runner out (a machine without
    // LLVM 19's tools, as the H200 device machine is; see tensor_random).
    let no_cpu = crate::runtime_support::cpu_runner_left_out();
    let cpu = if no_cpu {
        eprintln!("KILN_DIFF_NO_CPU=1: the CPU runner is left out");
        None
    } else {
        Some(kiln_cpu::CpuProgram::load(program, options).expect("loads on the CPU"))
    };
    let input = |n: usize, k: f32| -> Value {
        Value::Tensor(std::rc::Rc::new(Tensor {
            elem: ElemType::F32,
            shape: vec![n],
            data: Elements::F32((0..n).map(|i| (i % 977) as f32 * k - 3.5).collect()),
        }))
    };
    let n = (most / 4) as usize;
    let (a, b) = (input(n, 0.25), input(n, -0.125));
    let want: Vec<f32> = (0..n)
        .map(|i| ((i % 977) as f32 * 0.25 - 3.5) + ((i % 977) as f32 * -0.125 - 3.5))
        .collect();
    let mut runs = vec![(
        "device",
        dev.run("f", &[a.clone(), b.clone()])
            .map_err(|e| e.to_string()),
    )];
    if let Some(cpu) = &cpu {
        runs.push(("CPU", cpu.run("f", &[a, b]).map_err(|e| e.to_string())));
    }
    for (what, got) in runs {
        let got = got.unwrap_or_else(|e| panic!("{what}: {e}"));
        match got.first().map(|v| match v {
            Value::Tensor(t) => &t.data,
            Value::Scalar(_) => panic!("{what}: a scalar"),
        }) {
            Some(Elements::F32(v)) => {
                let bad = v
                    .iter()
                    .zip(&want)
                    .position(|(x, y)| x.to_bits() != y.to_bits());
                assert!(
                    v.len() == n && bad.is_none(),
                    "{what}: element {bad:?} differs"
                );
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    let (a, b) = (input(n + 1, 0.25), input(n + 1, -0.125));
    let past = format!("needs {} bytes, more than the {most} bytes", most + 4);
    let e = dev
        .run("f", &[a.clone(), b.clone()])
        .expect_err("refused")
        .to_string();
    assert!(e.contains(&past), "device: {e}");
    if let Some(cpu) = &cpu {
        let e = cpu.run("f", &[a, b]).expect_err("refused").to_string();
        assert!(e.contains(&past), "CPU: {e}");
    }
    kiln_gpu_tests::assert_no_validation_messages(device.context());
}

/// `ops` on big tables (issue 35 §3): `ops::embedding` and `ops::gather`
/// on a 300 x 8 f32 table (9,600 bytes: three 4 KiB chunks) on the
/// small-range device give the rows host indexing gives, from every
/// chunk. Their programs are sized at run time, so the `_chunked`
/// variants run; on main the table was refused ("more than the device's
/// maxStorageBufferRange"). Costs about a second (two ops compiled).
#[test]
fn ops_on_tables_past_the_range_give_the_right_rows() {
    use kiln_runtime::{ops, Tensor};
    let device = small_range_device();
    let stream = device.stream();
    let (v, d) = (300usize, 8usize);
    let table: Vec<f32> = (0..v * d).map(|i| i as f32 * 0.5 - 7.0).collect();
    let t = Tensor::from_slice(&device, &table, &[v, d]).expect("a table");
    let ids: Vec<i64> = vec![299, 0, 257, 128, 127, 280, 255, 256];
    let it = Tensor::from_slice(&device, &ids, &[2, 4]).expect("ids");
    let rows = ops::embedding(&stream, &t, &it).expect("ops::embedding");
    assert_eq!(rows.shape(), [2, 4, d]);
    let want: Vec<f32> = ids
        .iter()
        .flat_map(|&r| table[r as usize * d..][..d].to_vec())
        .collect();
    assert_eq!(rows.to_vec::<f32>().expect("read back"), want);
    // Along axis 0, a row per element: out[i][j] = table[index[i][j]][j].
    let index: Vec<i64> = (0..3 * d)
        .map(|e| ((e / d) * 97 + (e % d) * 37 + 13) as i64 % v as i64)
        .collect();
    let ix = Tensor::from_slice(&device, &index, &[3, d]).expect("an index");
    let got = ops::gather(&stream, &t, 0, &ix).expect("ops::gather");
    let want: Vec<f32> = index
        .iter()
        .enumerate()
        .map(|(e, &r)| table[r as usize * d + e % d])
        .collect();
    assert_eq!(got.to_vec::<f32>().expect("read back"), want);
    kiln_gpu_tests::assert_no_validation_messages(device.context());
}

/// The `_chunked` variants cost nothing until a call needs one (issue
/// 32): compiled as the runtime and the CPU runner compile
/// (`Lowering::DeferRunTimeVariants`), `@f = a + b` on `tensor<?xf32>` has
/// its variant unlowered (no SPIR-V); a call whose buffers fit the 4 KiB
/// range runs the plain kernel and makes no variant; the first call past
/// it lowers and makes the variant (on lavapipe and on the CPU) and gives
/// Rust's IEEE sums; a second call reuses it. Then the corpus file
/// `split_buffers_dynamic.mlir` runs through the runtime's and the CPU
/// runner's e2e backends, which compile so too: its numpy-computed checks
/// pass (its `dyn_split_*` functions' buffers are past the range, so their
/// variants are lowered at their first launch). On main the variant had
/// its words at compile time (`is_deferred` did not exist). Costs about
/// three seconds (a kernel pair, then the file's six functions twice).
#[test]
fn chunked_variants_are_lowered_at_the_first_call_past_the_range() {
    use kiln_core::codegen::{compile_with, Lowering};
    use kiln_core::tensor::attr::Elements;
    use kiln_core::tensor::eval::{Tensor, Value};
    use kiln_core::tensor::types::ElemType;

    let device = small_range_device();
    let mut target = device_target(&device);
    target.facts.texel_reads = None;
    let m = kiln_core::tensor::load(ADD).expect("parses");
    let program = compile_with(&m, &target, Lowering::DeferRunTimeVariants).expect("compiles");
    let kernels = &program.functions[0].dispatches[0].kernels;
    let deferred: Vec<&str> = kernels
        .iter()
        .filter(|k| k.is_deferred())
        .map(|k| k.name.as_str())
        .collect();
    assert_eq!(deferred, ["f_dispatch_0_chunked"]);
    assert!(kernels[1].words.is_empty() && !kernels[0].words.is_empty());
    let dev = kiln_runtime::Program::load(&device, program.clone()).expect("loads");
    let no_cpu = crate::runtime_support::cpu_runner_left_out();
    let cpu = (!no_cpu).then(|| {
        let options = kiln_cpu::DispatchOptions {
            subgroup_size: target.env.limits.subgroup_size,
            ..kiln_cpu::DispatchOptions::default()
        };
        kiln_cpu::CpuProgram::load(program, options).expect("loads on the CPU")
    });
    let input = |n: usize, k: f32| -> Value {
        Value::Tensor(std::rc::Rc::new(Tensor {
            elem: ElemType::F32,
            shape: vec![n],
            data: Elements::F32((0..n).map(|i| (i % 977) as f32 * k - 3.5).collect()),
        }))
    };
    let sums = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|i| ((i % 977) as f32 * 0.25 - 3.5) + ((i % 977) as f32 * -0.125 - 3.5))
            .collect()
    };
    // 1,000 elements (4,000 bytes: within the range), then 3,000 (three
    // chunks), twice.
    for (n, late) in [(1000, 0), (3000, 1), (3000, 1)] {
        let (a, b) = (input(n, 0.25), input(n, -0.125));
        let mut runs = vec![(
            "device",
            dev.run("f", &[a.clone(), b.clone()])
                .map_err(|e| e.to_string()),
            dev.late_kernels(),
        )];
        if let Some(cpu) = &cpu {
            let got = cpu.run("f", &[a, b]).map_err(|e| e.to_string());
            runs.push(("CPU", got, cpu.late_kernels()));
        }
        for (what, got, made) in runs {
            let got = got.unwrap_or_else(|e| panic!("{what}, {n} elements: {e}"));
            let Some(Value::Tensor(t)) = got.first() else {
                panic!("{what}: not a tensor");
            };
            let Elements::F32(v) = &t.data else {
                panic!("{what}: not f32");
            };
            let want = sums(n);
            let bad = v
                .iter()
                .zip(&want)
                .position(|(x, y)| x.to_bits() != y.to_bits());
            assert!(
                v.len() == n && bad.is_none(),
                "{what}, {n} elements: element {bad:?} differs"
            );
            assert_eq!(made.len(), late, "{what}, {n} elements: {made:?}");
        }
    }
    // The corpus file's numpy checks, through both e2e backends.
    let path = corpus()
        .into_iter()
        .find(|p| p.ends_with("split_buffers_dynamic.mlir"))
        .expect("the corpus file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let module = kiln_core::tensor::load(&text).expect("parses");
    let mut backends: Vec<Box<dyn kiln_core::tensor::e2e::Backend>> = vec![Box::new(
        kiln_runtime::e2e::DeviceBackend::with_target(&device, target.clone()),
    )];
    if !no_cpu {
        let options = kiln_cpu::DispatchOptions {
            subgroup_size: target.env.limits.subgroup_size,
            ..kiln_cpu::DispatchOptions::default()
        };
        backends.push(Box::new(kiln_cpu::TensorBackend::with_target(
            target.clone(),
            options,
        )));
    }
    for mut backend in backends {
        let report = kiln_core::tensor::e2e::run(&module, backend.as_mut(), &Default::default())
            .expect("runs");
        assert!(report.success(), "{}: {}", backend.name(), report.output);
        assert!(
            report.passed.len() >= 5,
            "{}: {:?}",
            backend.name(),
            report.passed
        );
    }
    kiln_gpu_tests::assert_no_validation_messages(device.context());
}
