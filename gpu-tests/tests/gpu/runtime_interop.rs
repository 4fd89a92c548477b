//! kiln-runtime's interop with other Vulkan users, validation on: the raw
//! handles behind a device and a tensor, a device on an application's own
//! `VkInstance` / `VkDevice`, memory shared between two devices as a file
//! descriptor, copies between devices, and the `KILN_TRACE` trace.
//! Expected values are computed on the host (small integers in f32: exact).

use kiln_core::grammar::Capability;
use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir};
use kiln_runtime::ops::{self, Binary};
use kiln_runtime::{CacheLocation, DType, Device, DeviceFeatures, DeviceOptions, Error, Tensor};
use kiln_vulkan::test_support::{fill_with_raw_handles, AppOptions, AppVulkan};

use crate::runtime_support::{device, test_device};

fn options() -> DeviceOptions {
    DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    }
}

/// Another Vulkan user writes a view's bytes through the raw handles of
/// the device (device, queue family, queue) and of the tensor (buffer,
/// offset, size): exactly the view's elements change.
#[test]
fn raw_handles_let_another_vulkan_user_write_a_tensor() {
    let device = device();
    let data: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let t = Tensor::from_slice(&device, &data, &[64]).unwrap();
    let view = t.narrow(0, 16, 8).unwrap();
    let range = view.vulkan_buffer().unwrap();
    assert_eq!(range.size(), 8 * 4);
    device.sync().unwrap();
    fill_with_raw_handles(device.context(), &range, 3.125f32.to_bits()).unwrap();
    let mut want = data.clone();
    want[16..24].fill(3.125);
    assert_eq!(t.to_vec::<f32>().unwrap(), want);
    assert_no_validation_messages(device.context());
}

/// A device on the application's instance and device: its target env is
/// the physical device's, limited to what the application enabled (no
/// f16, no i8); an op runs and gives the host's values; what the device
/// lacks is a typed error; dropping kiln's device destroys only what kiln
/// made (the application then uses and destroys its device, and its
/// validation layer reports nothing).
#[test]
fn a_device_on_the_applications_vulkan_objects() {
    let app = AppVulkan::new(&AppOptions {
        validation: true,
        features: DeviceFeatures::default(),
        external_memory_fd: false,
    })
    .expect("a Vulkan 1.2 device with the validation layer");
    {
        let ctx = app.kiln_context().unwrap();
        assert!(!ctx.owns_device());
        let device = Device::from_context(ctx, &options()).unwrap();
        let caps = &device.target_env().vce.capabilities;
        assert!(!caps.contains(&Capability::Float16), "{caps:?}");
        assert!(!caps.contains(&Capability::Int8), "{caps:?}");
        assert!(caps.contains(&Capability::Shader), "{caps:?}");

        let a: Vec<f32> = (0..100).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..100).map(|i| (3 * i) as f32 - 50.0).collect();
        let ta = Tensor::from_slice(&device, &a, &[100]).unwrap();
        let tb = Tensor::from_slice(&device, &b, &[100]).unwrap();
        let stream = device.stream();
        let sum = ops::add(&stream, &ta, &tb).unwrap();
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert_eq!(sum.to_vec::<f32>().unwrap(), want);

        // The application did not enable VK_KHR_external_memory_fd.
        assert_eq!(device.can_share_memory(), (false, false));
        let err = Tensor::empty_exportable(&device, DType::F32, &[4]).unwrap_err();
        assert!(
            matches!(
                &err,
                Error::Vulkan(kiln_vulkan::Error::Unsupported { what })
                    if what.contains("VK_KHR_external_memory_fd")
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("VK_KHR_external_memory_fd"),
            "{err}"
        );
        assert!(!app.kiln_released());
    }
    assert!(app.kiln_released(), "kiln still holds the device");
    app.use_device().unwrap();
    let messages = app.take_validation_messages();
    assert!(messages.is_empty(), "{messages:#?}");
}

/// Two devices in one process (two `VkDevice`s of one physical device):
/// a tensor written by a kernel on the first is exported as a file
/// descriptor and imported by the second, which reads the same bytes; a
/// write by the second is seen by the first (no copy). Copies between
/// the devices go through the host.
#[test]
fn two_devices_share_memory_and_copy_tensors() {
    let (da, db) = (device(), device());
    assert!(!da.same_device(&db));
    assert_eq!(
        da.can_share_memory(),
        (true, true),
        "the device lacks VK_KHR_external_memory_fd (lavapipe has it)"
    );
    let x: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..256).map(|i| 1000.0 - (2 * i) as f32).collect();
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a * b).collect();
    let tx = Tensor::from_slice(&da, &x, &[256]).unwrap();
    let ty = Tensor::from_slice(&da, &y, &[256]).unwrap();
    let shared = Tensor::empty_exportable(&da, DType::F32, &[256]).unwrap();
    assert!(shared.is_exportable() && !tx.is_exportable());
    let sa = da.stream();
    ops::binary_out(&sa, Binary::Mul, &tx, &ty, &shared).unwrap();
    sa.sync().unwrap();

    let exported = shared.export_memory().unwrap();
    assert!(exported.size >= 256 * 4);
    let on_b = Tensor::from_exported_memory(&db, DType::F32, &[256], exported).unwrap();
    assert_eq!(on_b.to_vec::<f32>().unwrap(), want);
    // The second device writes; the first sees it.
    let sb = db.stream();
    sb.fill(&on_b.narrow(0, 0, 8).unwrap(), -7.5f32).unwrap();
    sb.sync().unwrap();
    let mut after = want.clone();
    after[..8].fill(-7.5);
    assert_eq!(shared.to_vec::<f32>().unwrap(), after);

    // Too large a shape for the exported bytes; a pooled tensor.
    let err =
        Tensor::from_exported_memory(&db, DType::F32, &[1024], shared.export_memory().unwrap())
            .unwrap_err();
    assert!(matches!(err, Error::Shape { .. }), "{err}");
    let err = tx.export_memory().unwrap_err();
    assert!(
        matches!(
            err,
            Error::Vulkan(kiln_vulkan::Error::ExternalMemory { .. })
        ),
        "{err}"
    );

    // Copies between devices; to its own device a tensor is itself.
    let moved = tx.to_device(&db).unwrap();
    assert!(moved.device().same_device(&db));
    assert_eq!(moved.to_vec::<f32>().unwrap(), x);
    let m = Tensor::from_slice(&db, &y[..6], &[2, 3]).unwrap();
    let back = m.transpose(0, 1).unwrap().to_device(&da).unwrap();
    assert_eq!(back.shape(), &[3, 2]);
    assert_eq!(
        back.to_vec::<f32>().unwrap(),
        vec![y[0], y[3], y[1], y[4], y[2], y[5]]
    );
    assert!(tx.to_device(&da).unwrap().shares_buffer(&tx));
    assert_no_validation_messages(da.context());
    assert_no_validation_messages(db.context());
}

/// `DeviceOptions::trace` (what `KILN_TRACE` sets): the file written when
/// the device is dropped parses as a Chrome trace with one GPU event per
/// dispatch, each with a duration, and the transfers and the submission.
#[test]
fn trace_has_one_gpu_event_per_dispatch() {
    let path = scratch_dir().join("trace.json");
    let device = test_device(DeviceOptions {
        trace: Some(path.clone()),
        ..options()
    });
    let stream = device.stream();
    let a = Tensor::from_slice(&device, &[1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
    let b = ops::add(&stream, &a, &a).unwrap();
    let c = ops::mul(&stream, &b, &a).unwrap();
    let d = Tensor::empty(&device, DType::F32, &[4]).unwrap();
    stream.copy(&c, &d).unwrap();
    assert_eq!(d.to_vec::<f32>().unwrap(), vec![2.0, 8.0, 18.0, 32.0]);
    let counters = device.counters();
    assert!(counters.dispatches >= 2, "{counters:?}");
    assert_no_validation_messages(device.context());
    drop((a, b, c, d, stream));
    drop(device);

    let text = std::fs::read_to_string(&path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = json["traceEvents"].as_array().expect("traceEvents");
    let of = |cat: &str| -> Vec<&serde_json::Value> {
        events.iter().filter(|e| e["cat"] == cat).collect()
    };
    let gpu = of("gpu");
    assert_eq!(gpu.len() as u64, counters.dispatches, "{text}");
    for e in &gpu {
        assert_eq!(e["ph"], "X", "{e}");
        assert!(e["dur"].as_f64().is_some_and(|d| d >= 0.0), "{e}");
        assert!(e["ts"].as_f64().is_some_and(f64::is_finite), "{e}");
    }
    assert_eq!(of("dispatch").len() as u64, counters.dispatches, "{text}");
    assert!(of("transfer").iter().any(|e| e["name"] == "copy"), "{text}");
    assert!(!of("submit").is_empty(), "{text}");
}
