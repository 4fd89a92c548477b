//! Tensors larger than one allocation (`maxMemoryAllocationSize`): a
//! device whose allocations are limited to 8 KiB
//! ([`Context::with_max_allocation_size`]) and whose
//! `maxStorageBufferRange` is lowered to 4 KiB
//! ([`Context::with_storage_buffer_range`]) makes a larger tensor of
//! several allocations of whole 4 KiB chunks (chunk `k` of a kernel's
//! binding in chunks lies in allocation `k / 2`). Validation layer on.
//! Uploads, fills, copies, read-backs and views across the allocations
//! give back what was written (with unified memory and through staging);
//! the corpus files `split_buffers*.mlir` give their numpy-computed
//! results; `ops` gather, embedding and an element-wise op on such tables
//! give the rows and sums the host computes (row selection and one IEEE
//! f32 add per element: numpy's); a kernel that binds such a tensor in
//! one descriptor is refused with a typed error naming the sizes, and one
//! allocation past the limit is refused before Vulkan is called. On main
//! a tensor had one allocation whatever its size (no limit was checked).
//! Cost: 8.2 s for the five tests on lavapipe at a load of 8 (the two
//! corpus files compiled for two targets, the ops, both memory kinds).

use std::rc::Rc;

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Tensor as EvalTensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::ops;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Error, Program, Tensor};
use kiln_vulkan::{BlockPool, Context, ContextOptions, DeviceSelector, MemoryKind};

use crate::tensor_programs::{check_file_for, corpus};

/// The lowered `maxStorageBufferRange`: chunks of 4 KiB.
const RANGE: u32 = 4096;

/// The lowered allocation limit: two chunks per allocation.
const ALLOCATION: u64 = 8192;

fn small_context() -> Context {
    Context::new(&ContextOptions {
        validation: true,
        device: DeviceSelector::Default,
    })
    .and_then(|c| c.with_storage_buffer_range(RANGE))
    .and_then(|c| c.with_max_allocation_size(ALLOCATION))
    .unwrap_or_else(|e| panic!("GPU tests need a Vulkan device and the validation layer: {e}"))
}

/// A device with both limits lowered; `unified`: tensors in host-visible
/// memory (else device-local, moved through staging).
fn small_device(unified: bool) -> Device {
    Device::from_context(
        small_context(),
        &DeviceOptions {
            cache: CacheLocation::Disabled,
            unified_memory: unified,
            ..DeviceOptions::default()
        },
    )
    .expect("a device")
}

/// `n` distinct f32 values (exact in f32).
fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n as u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) ^ seed) % 100_003) as f32 - 50_000.0)
        .collect()
}

#[test]
fn transfers_and_views_across_allocations() {
    for unified in [true, false] {
        let device = small_device(unified);
        assert_eq!(device.context().max_allocation_size(), ALLOCATION);
        let what = if unified { "unified" } else { "staged" };
        // 10,000 f32: 40,000 bytes, five allocations of 8 KiB.
        let data = values(10_000, 7);
        let t = Tensor::from_slice(&device, &data, &[100, 100]).unwrap();
        assert_eq!(t.allocation_count(), 5, "{what}");
        assert_eq!(t.to_vec::<f32>().unwrap(), data, "{what}: read-back");
        // Rows 15..45: bytes 6,000..18,000, across three allocations.
        let rows = t.narrow(0, 15, 30).unwrap();
        assert_eq!(
            rows.to_vec::<f32>().unwrap(),
            data[1500..4500],
            "{what}: rows"
        );
        let mut into = vec![0f32; 3000];
        rows.read_into(&mut into).unwrap();
        assert_eq!(into, data[1500..4500], "{what}: read_into");
        let bytes = rows.read_bytes_with(|b| b.to_vec()).unwrap();
        let want: Vec<u8> = data[1500..4500]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(bytes, want, "{what}: read_bytes_with");
        // A strided view copied (regions across allocations on both sides).
        let tt = t.transpose(0, 1).unwrap().contiguous().unwrap();
        let transposed: Vec<f32> = (0..10_000)
            .map(|i| data[(i % 100) * 100 + i / 100])
            .collect();
        assert_eq!(tt.to_vec::<f32>().unwrap(), transposed, "{what}: transpose");
        // Upload over it, then into a view across allocations.
        let next = values(10_000, 11);
        t.upload(&next).unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap(), next, "{what}: upload");
        let stream = device.stream();
        let patch = values(3000, 13);
        stream.upload(&rows, &patch).unwrap();
        stream.fill(&t.narrow(0, 90, 10).unwrap(), 2.5f32).unwrap();
        let mut want = next.clone();
        want[1500..4500].copy_from_slice(&patch);
        want[9000..].fill(2.5);
        stream.sync().unwrap();
        assert_eq!(
            t.to_vec::<f32>().unwrap(),
            want,
            "{what}: view upload and fill"
        );
        // Copy between two tensors in pieces at different offsets.
        let dst = Tensor::zeros(&device, kiln_runtime::DType::F32, &[10_000]).unwrap();
        assert!(
            dst.to_vec::<f32>().unwrap().iter().all(|&v| v == 0.0),
            "{what}: zeros"
        );
        let src = t.reshape(&[10_000]).unwrap().narrow(0, 1000, 6000).unwrap();
        stream
            .copy(&src, &dst.narrow(0, 3000, 6000).unwrap())
            .unwrap();
        stream.sync().unwrap();
        let mut copied = vec![0f32; 10_000];
        copied[3000..9000].copy_from_slice(&want[1000..7000]);
        assert_eq!(dst.to_vec::<f32>().unwrap(), copied, "{what}: copy");
        let full = Tensor::full(&device, -3.0f32, &[5000]).unwrap();
        assert_eq!(full.allocation_count(), 3, "{what}");
        assert_eq!(
            full.to_vec::<f32>().unwrap(),
            vec![-3.0; 5000],
            "{what}: full"
        );
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn an_allocation_past_the_limit_is_refused_before_vulkan() {
    let ctx = small_context();
    let pool = BlockPool::new(&ctx, MemoryKind::Readback, 1 << 20).unwrap();
    let calls = ctx.vulkan_call_count();
    match pool.allocate(ALLOCATION + 4) {
        Err(kiln_vulkan::Error::AllocationTooLarge { bytes, limit, .. }) => {
            assert!(bytes > ALLOCATION, "{bytes}");
            assert_eq!(limit, ALLOCATION);
        }
        other => panic!("expected AllocationTooLarge, got {other:?}"),
    }
    assert_eq!(ctx.vulkan_call_count(), calls);
    // A request within the limit still works, in a block of at most it.
    let slice = pool.allocate(ALLOCATION).unwrap();
    assert_eq!(slice.size(), ALLOCATION);
    assert!(pool.stats().reserved <= ALLOCATION);
}

#[test]
fn compiled_programs_bind_tensors_in_pieces() {
    let device = small_device(true);
    let files: Vec<_> = corpus()
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("split_buffers"))
        })
        .collect();
    assert_eq!(files.len(), 2, "corpus files missing");
    // The device's own target (texel views within one allocation; a
    // buffer sized at run time past the range is bound in chunks by the
    // `_chunked` variants, also one the plain kernels read through a
    // view) and storage buffers only: every tensor past the range is
    // bound in chunks, each inside one allocation.
    let own = device_target(&device);
    let mut storage_only = own.clone();
    storage_only.facts.texel_reads = None;
    let mut failures = Vec::new();
    for f in &files {
        for target in [&own, &storage_only] {
            failures.extend(check_file_for(&device, f, target, false));
        }
    }
    assert_no_validation_messages(device.context());
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn ops_on_tables_across_allocations() {
    for unified in [true, false] {
        let device = small_device(unified);
        let what = if unified { "unified" } else { "staged" };
        let stream = device.stream();
        // A table of 120 rows of 40 f32: 19,200 bytes, three allocations
        // (ops compile per shape class: their `_chunked` variants bind at
        // most 5 chunks of 4 KiB here, 32 storage descriptors shared).
        let (rows, dim) = (120usize, 40usize);
        let table_data = values(rows * dim, 3);
        let table = Tensor::from_slice(&device, &table_data, &[rows, dim]).unwrap();
        assert_eq!(table.allocation_count(), 3, "{what}");
        let ids: Vec<i32> = vec![0, 119, 51, 52, 101, 102, 103, 1, 118, 50, 99, 0];
        let ids_t = Tensor::from_slice(&device, &ids, &[3, 4]).unwrap();
        let want: Vec<f32> = ids
            .iter()
            .flat_map(|&i| table_data[i as usize * dim..(i as usize + 1) * dim].to_vec())
            .collect();
        let got = ops::embedding(&stream, &table, &ids_t).unwrap();
        assert_eq!(got.shape(), &[3, 4, dim]);
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "{what}: embedding");
        let flat_ids = Tensor::from_slice(&device, &ids, &[ids.len()]).unwrap();
        let got = ops::index_select(&stream, &table, 0, &flat_ids).unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "{what}: index_select");
        // gather along axis 1: out[i][j] = table[i][index[i][j]].
        let index_data: Vec<i32> = (0..rows * 3).map(|k| ((k * 17) % dim) as i32).collect();
        let index = Tensor::from_slice(&device, &index_data, &[rows, 3]).unwrap();
        let got = ops::gather(&stream, &table, 1, &index).unwrap();
        let want: Vec<f32> = (0..rows * 3)
            .map(|k| table_data[(k / 3) * dim + index_data[k] as usize])
            .collect();
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "{what}: gather");
        // An element-wise op over two tables in pieces (compiled per shape
        // class: its `_chunked` variant binds the inputs, which its plain
        // kernel reads through texel views, in chunks).
        let other_data = values(rows * dim, 5);
        let other = Tensor::from_slice(&device, &other_data, &[rows, dim]).unwrap();
        let sum = ops::add(&stream, &table, &other).unwrap();
        assert_eq!(sum.allocation_count(), 3, "{what}");
        let want: Vec<f32> = table_data
            .iter()
            .zip(&other_data)
            .map(|(a, b)| a + b)
            .collect();
        assert_eq!(sum.to_vec::<f32>().unwrap(), want, "{what}: add");
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn a_kernel_binding_a_tensor_in_pieces_whole_is_refused() {
    // The device's own target reads read-only tensors through texel views
    // only within one allocation; one that assumes views of 2^27 texels
    // binds each 12 KiB input (two allocations) whole in one descriptor,
    // which the runtime refuses, naming the sizes.
    let device = small_device(true);
    let text = "func.func @f(%a: tensor<64x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %r = arith.addf %a, %b : tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}";
    let module = kiln_core::tensor::load(text).unwrap();
    let mut target = device_target(&device);
    assert!(
        target
            .facts
            .texel_reads
            .is_some_and(|t| t <= ALLOCATION / 16),
        "{:?}",
        target.facts.texel_reads
    );
    target.facts.texel_reads = Some(1 << 27);
    let program = Program::compile_for(&device, &module, &target).unwrap();
    let arg = |seed| {
        Value::Tensor(Rc::new(EvalTensor {
            elem: ElemType::F32,
            shape: vec![64, 48],
            data: Elements::F32(values(64 * 48, seed)),
        }))
    };
    match program.run("f", &[arg(1), arg(2)]) {
        Err(Error::SplitAllocation {
            bytes,
            piece,
            allocations,
            ..
        }) => {
            assert_eq!((bytes, piece, allocations), (64 * 48 * 4, ALLOCATION, 2));
        }
        other => panic!("expected SplitAllocation, got {other:?}"),
    }
    // The device stays usable; its own target runs the same program.
    let program = Program::compile(&device, &module).unwrap();
    let out = program.run("f", &[arg(1), arg(2)]).unwrap();
    let Some(got) = out[0].tensor() else {
        panic!("a tensor result")
    };
    let want: Vec<f32> = values(64 * 48, 1)
        .iter()
        .zip(values(64 * 48, 2))
        .map(|(a, b)| a + b)
        .collect();
    assert_eq!(got.data, Elements::F32(want));
    assert_no_validation_messages(device.context());
}

/// At the device's own limit (lavapipe: 2 GiB): a tensor 64 KiB past it
/// is two allocations, and its bytes on both sides of the edge read back
/// as written (directly, and through a copy across the edge). Not in CI:
/// it needs about 5 GiB of host memory (`cargo test -p kiln-gpu-tests
/// --test gpu -- --ignored past_the_real_allocation_limit`). No op runs
/// here: on lavapipe an element-wise op's buffers sized at run time bind
/// at most 8 chunks of 128 MiB each (32 storage descriptors per stage
/// shared by its bindings), so ops on tensors past 1 GiB are refused with
/// a typed error, as on main.
#[test]
#[ignore]
fn past_the_real_allocation_limit() {
    let device = crate::runtime_support::test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    });
    let limit = device.context().max_allocation_size();
    let n = ((limit + (64 << 10)) / 4) as usize;
    let edge = (limit / 4) as usize;
    let at = |i: usize| (i % 1000) as f32;
    let t = Tensor::from_fill(&device, kiln_runtime::DType::F32, &[n], |bytes| {
        for (i, w) in bytes.chunks_exact_mut(4).enumerate() {
            w.copy_from_slice(&at(i).to_le_bytes());
        }
    })
    .unwrap();
    assert_eq!(t.allocation_count(), 2);
    let window = t.narrow(0, edge - 1000, 2000).unwrap();
    let want: Vec<f32> = (edge - 1000..edge + 1000).map(at).collect();
    assert_eq!(window.to_vec::<f32>().unwrap(), want);
    let copy = Tensor::zeros(&device, kiln_runtime::DType::F32, &[2000]).unwrap();
    let stream = device.stream();
    stream.copy(&window, &copy).unwrap();
    stream.sync().unwrap();
    assert_eq!(copy.to_vec::<f32>().unwrap(), want);
    assert_no_validation_messages(device.context());
}
