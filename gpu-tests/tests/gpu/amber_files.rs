//! kiln's own AmberScript files (`gpu-tests/tests/amber/*.amber`) run with
//! `kiln_amber::Runner` on the Vulkan device, validation layer on: every
//! file has its expected outcome below — pass, a failure whose message is
//! checked word for word, or a skip whose reason is — and the layer must
//! report nothing. A file in the folder without an entry here fails the
//! test (no file is silently left out).
//!
//! The expected values inside the files are computed by hand (each file's
//! header comment says how). The invalid shader's message is checked
//! against the `spirv-val` tool's own message for the same assembly.

use std::path::{Path, PathBuf};
use std::process::Command;

use kiln_amber::{Outcome, Runner};
use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir, test_context};

/// What a file must do.
enum Expected {
    Pass,
    /// The failure, as `Failure`'s Display prints it.
    Fail(&'static str),
    Skip(&'static str),
}

const FILES: &[(&str, Expected)] = &[
    ("buffer_array.amber", Expected::Pass),
    ("buffer_array_dynamic.amber", Expected::Pass),
    ("buffer_files.amber", Expected::Pass),
    ("comparisons.amber", Expected::Pass),
    ("copy.amber", Expected::Pass),
    ("data_types.amber", Expected::Pass),
    ("derive_pipeline.amber", Expected::Pass),
    ("descriptor_offset_range.amber", Expected::Pass),
    ("device_requirements.amber", Expected::Pass),
    ("dynamic_offsets.amber", Expected::Pass),
    ("entry_points.amber", Expected::Pass),
    ("eq_buffer.amber", Expected::Pass),
    (
        "expect_fails.amber",
        Expected::Fail("line 26: EXPECT out IDX 0 EQ: value 2 (byte 8): expected 5, got 4"),
    ),
    ("format_names.amber", Expected::Pass),
    ("glsl_storage_add.amber", Expected::Pass),
    (
        "graphics_skip.amber",
        Expected::Skip("line 14: graphics pipeline draw (only compute pipelines run)"),
    ),
    ("histogram_emd.amber", Expected::Pass),
    (
        "invalid_shader.amber",
        Expected::Fail(
            "line 6: shader broken: spirv-val (vulkan1.3): [VUID-StandaloneSpirv-PushConstant-06675] \
             StorageBuffer id '2' is missing Block decoration.",
        ),
    ),
    ("matrices.amber", Expected::Pass),
    ("multiple_runs.amber", Expected::Pass),
    ("push_constants.amber", Expected::Pass),
    ("repeat.amber", Expected::Pass),
    ("rmse_buffer.amber", Expected::Pass),
    ("shader_optimization.amber", Expected::Pass),
    (
        "skip_missing_property.amber",
        Expected::Skip(
            "device property FloatControlsProperties.shaderDenormPreserveFloat32 is not supported",
        ),
    ),
    ("specialization.amber", Expected::Pass),
    ("specialization_workgroup_size.amber", Expected::Pass),
    ("spirv_asm_double.amber", Expected::Pass),
    ("spirv_asm_storage_class.amber", Expected::Pass),
    ("spirv_hex.amber", Expected::Pass),
    ("spirv_mlir.amber", Expected::Pass),
    ("std140_uniforms.amber", Expected::Pass),
    ("std430_vec3.amber", Expected::Pass),
    ("timed_execution.amber", Expected::Pass),
    ("tolerance_absolute.amber", Expected::Pass),
    ("tolerance_percent.amber", Expected::Pass),
    ("virtual_file.amber", Expected::Pass),
    ("workgroup_grid.amber", Expected::Pass),
];

/// `gpu-tests/tests/amber`.
pub fn amber_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/amber")
}

#[test]
fn every_file_has_its_outcome() {
    let dir = amber_dir();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".amber"))
        .collect();
    on_disk.sort();
    let listed: Vec<String> = FILES.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        on_disk, listed,
        "the table must list every .amber file, sorted"
    );
    assert!(listed.len() >= 30, "{} files", listed.len());

    let ctx = test_context();
    let runner = Runner::new(&ctx);
    let mut problems = Vec::new();
    for (name, expected) in FILES {
        let report = runner.run_file(&dir.join(name));
        let ok = match (expected, &report.outcome) {
            (Expected::Pass, Outcome::Pass) => true,
            (Expected::Fail(m), Outcome::Fail(f)) => f.to_string() == *m,
            (Expected::Skip(m), Outcome::Skip(s)) => s == m,
            _ => false,
        };
        if !ok {
            problems.push(format!("{name}: got {}", report.render(name)));
        }
        if *name == "timed_execution.amber" {
            assert_eq!(report.timings.len(), 1, "{name}: one timed run");
            assert_eq!(report.timings[0].line, 26);
            assert!(
                report.timings[0].timing.device.is_some(),
                "lavapipe's compute queue has timestamps"
            );
        }
        assert_no_validation_messages(&ctx);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The validator's message for `invalid_shader.amber` is the `spirv-val`
/// tool's, for the same assembly and environment.
#[test]
fn invalid_shader_message_is_spirv_val_s() {
    let text = std::fs::read_to_string(amber_dir().join("invalid_shader.amber")).unwrap();
    let asm: String = text
        .lines()
        .skip_while(|l| !l.contains("SPIRV-ASM"))
        .skip(1)
        .take_while(|l| l.trim() != "END")
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = scratch_dir();
    let (src, bin) = (dir.join("broken.spvasm"), dir.join("broken.spv"));
    std::fs::write(&src, asm).unwrap();
    let tool = |cmd: &mut Command| {
        let out = cmd.output().expect("spirv-tools (run ci/setup.sh)");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, err) = tool(
        Command::new("spirv-as")
            .args(["--target-env", "spv1.3", "-o"])
            .arg(&bin)
            .arg(&src),
    );
    assert!(ok, "spirv-as: {err}");
    let (ok, err) = tool(
        Command::new("spirv-val")
            .args(["--target-env", "vulkan1.3"])
            .arg(&bin),
    );
    assert!(!ok, "spirv-val accepted the module");
    // `error: line 13: MESSAGE`
    let first = err.lines().next().unwrap_or_default();
    let message = first.splitn(3, ": ").nth(2).unwrap_or_default();
    let Some((_, Expected::Fail(ours))) = FILES.iter().find(|(n, _)| *n == "invalid_shader.amber")
    else {
        panic!("invalid_shader.amber is expected to fail");
    };
    assert!(
        ours.ends_with(message) && !message.is_empty(),
        "spirv-val says {message:?}; kiln expects {ours:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
