//! Environment-driven failures: a missing validation layer, a missing
//! driver, a device selector that matches nothing. They change process-wide
//! environment variables, so they live in their own test binary and run in
//! one test function, one after the other.
#![forbid(unsafe_code)]

use kiln_vulkan::{Context, ContextOptions, DeviceSelector, Error};

fn with_env<T>(vars: &[(&str, &str)], f: impl FnOnce() -> T) -> T {
    let saved: Vec<_> = vars
        .iter()
        .map(|(k, _)| (k.to_string(), std::env::var_os(k)))
        .collect();
    for (k, v) in vars {
        std::env::set_var(k, v);
    }
    let out = f();
    for (k, v) in saved {
        match v {
            Some(v) => std::env::set_var(&k, v),
            None => std::env::remove_var(&k),
        }
    }
    out
}

#[test]
fn environment_failures_are_typed_errors() {
    // Start from a known environment (CI may set these for other tests).
    std::env::remove_var("KILN_VALIDATION");
    std::env::remove_var("KILN_DEVICE");

    // The validation layer requested but not found.
    let err = with_env(&[("VK_LAYER_PATH", "/nonexistent-kiln-layers")], || {
        Context::new(&ContextOptions {
            validation: true,
            device: DeviceSelector::Default,
        })
        .unwrap_err()
    });
    assert!(
        matches!(&err, Error::LayerNotPresent { name, .. } if name == "VK_LAYER_KHRONOS_validation"),
        "{err}"
    );

    // KILN_VALIDATION=1 turns validation on (so the same missing layer fails).
    let err = with_env(
        &[
            ("VK_LAYER_PATH", "/nonexistent-kiln-layers"),
            ("KILN_VALIDATION", "1"),
        ],
        || Context::new(&ContextOptions::default()).unwrap_err(),
    );
    assert!(matches!(err, Error::LayerNotPresent { .. }), "{err}");

    // No driver at all.
    let err = with_env(
        &[
            ("VK_ICD_FILENAMES", "/nonexistent-kiln-icd.json"),
            ("VK_DRIVER_FILES", "/nonexistent-kiln-icd.json"),
        ],
        || Context::new(&ContextOptions::default()).unwrap_err(),
    );
    assert!(
        matches!(err, Error::IncompatibleDriver { .. } | Error::NoDevice),
        "{err}"
    );

    // KILN_DEVICE selecting nothing lists the devices.
    let err = with_env(&[("KILN_DEVICE", "no-such-device-kiln")], || {
        Context::new(&ContextOptions::default()).unwrap_err()
    });
    match err {
        Error::DeviceNotFound {
            selector,
            available,
        } => {
            assert_eq!(selector, "a device named like \"no-such-device-kiln\"");
            assert!(!available.is_empty());
        }
        other => panic!("expected DeviceNotFound, got {other}"),
    }

    // An explicit selector wins over KILN_DEVICE; index 0 always exists here.
    let ctx = with_env(&[("KILN_DEVICE", "no-such-device-kiln")], || {
        Context::new(&ContextOptions {
            validation: false,
            device: DeviceSelector::Index(0),
        })
    })
    .expect("device 0");
    assert_eq!(ctx.device_summary().index, 0);
    assert!(!ctx.validation_enabled());

    let devices = kiln_vulkan::enumerate_devices().unwrap();
    assert!(!devices.is_empty());
    assert!(devices.iter().enumerate().all(|(i, d)| d.index == i));
}
