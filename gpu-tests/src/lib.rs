//! The harness shared by kiln's GPU tests.
//!
//! GPU tests run on whatever Vulkan device the machine has (lavapipe in CI)
//! with the Khronos validation layer on, and fail on any message it reports.
//! They never skip: a machine without a Vulkan device, the validation layer,
//! or the shader tools fails them with a message saying what to install.
//! Run them with `--test-threads=1`, as `ci/test.sh` does: the validation
//! layer Debian 12 ships races when one thread creates an instance or device
//! while another makes any Vulkan call (KhronosGroup/Vulkan-ValidationLayers#4391),
//! which crashed about one parallel run in twenty.
//!
//! - [`test_context`]: a [`Context`] with validation on (`KILN_DEVICE`
//!   still picks the device), as a [`TestContext`] that fails the test when
//!   it is dropped with validation messages nobody took (wgpu's canary): a
//!   test that never asks still fails on any message.
//! - [`assert_no_validation_messages`]: fails with every message reported.
//! - [`compile_glsl`]: GLSL compute source → SPIR-V words, through
//!   `glslangValidator -V --target-env vulkan1.0`, checked by
//!   `spirv-val --target-env vulkan1.0`.
//! - [`compile_abi_kernel`]: spv text with interface attributes → a
//!   validated binary and its reflected pipeline interface.
//! - [`Rng`]: a seeded xorshift64* stream for random programs and data.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use kiln_abi::PipelineInterface;
pub use kiln_vulkan::{Buffer, ComputePipeline, Context, ContextOptions, DeviceSelector};

mod rng;
pub use rng::Rng;

/// A context with the validation layer on. Panics, saying what is missing,
/// when there is no Vulkan loader, device or validation layer.
pub fn test_context() -> TestContext {
    let options = ContextOptions {
        validation: true,
        device: DeviceSelector::Default,
    };
    match Context::new(&options) {
        Ok(ctx) => TestContext(ctx),
        Err(e) => panic!(
            "GPU tests need a Vulkan device and the Khronos validation layer \
             (CI uses lavapipe: run ci/setup.sh); creating a context failed: {e}"
        ),
    }
}

/// A test's validation context ([`test_context`]): derefs to its
/// [`Context`]; dropped with validation messages that no one took
/// ([`assert_no_validation_messages`], [`Context::take_validation_messages`]),
/// it panics listing them, failing the test (unless the test is already
/// failing). Clones of the context share its messages: the last one
/// dropped is checked here only if it is this one.
#[derive(Debug)]
pub struct TestContext(Context);

impl std::ops::Deref for TestContext {
    type Target = Context;
    fn deref(&self) -> &Context {
        &self.0
    }
}

impl Drop for TestContext {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let messages = self.0.take_validation_messages();
        if !messages.is_empty() {
            let list: Vec<String> = messages.iter().map(|m| format!("  {m}")).collect();
            panic!(
                "the validation layer reported {} message(s) that the test never checked:\n{}",
                messages.len(),
                list.join("\n")
            );
        }
    }
}

/// Panics listing every validation message `ctx` collected since the last
/// call (and clears them).
#[track_caller]
pub fn assert_no_validation_messages(ctx: &Context) {
    assert!(
        ctx.validation_enabled(),
        "the context was created without validation; use test_context()"
    );
    let messages = ctx.take_validation_messages();
    if !messages.is_empty() {
        let list: Vec<String> = messages.iter().map(|m| format!("  {m}")).collect();
        panic!(
            "the validation layer reported {} message(s):\n{}",
            messages.len(),
            list.join("\n")
        );
    }
}

/// A fresh directory under the system temp dir for this test process.
pub fn scratch_dir() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kiln-gpu-tests-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Compiles GLSL compute shader `source` to SPIR-V with
/// `glslangValidator -V --target-env vulkan1.0` and validates the result
/// with `spirv-val --target-env vulkan1.0`. `name` names the files (and
/// appears in messages). Panics with the tools' output on failure.
pub fn compile_glsl(name: &str, source: &str) -> Vec<u32> {
    let dir = scratch_dir();
    let src = dir.join(format!("{name}.comp"));
    let out = dir.join(format!("{name}.spv"));
    std::fs::write(&src, source).unwrap_or_else(|e| panic!("cannot write {}: {e}", src.display()));
    run_tool(
        Command::new("glslangValidator")
            .args(["-V", "--target-env", "vulkan1.0", "-o"])
            .arg(&out)
            .arg(&src),
        name,
    );
    run_tool(
        Command::new("spirv-val")
            .args(["--target-env", "vulkan1.0"])
            .arg(&out),
        name,
    );
    let bytes =
        std::fs::read(&out).unwrap_or_else(|e| panic!("cannot read {}: {e}", out.display()));
    let _ = std::fs::remove_dir_all(&dir);
    words_from_bytes(&bytes)
}

fn run_tool(cmd: &mut Command, name: &str) {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let output = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {program} for {name}: {e} (GPU tests need the tools \
             ci/setup.sh installs: glslang-tools, spirv-tools, python3)"
        )
    });
    if !output.status.success() {
        panic!(
            "{program} failed on {name} ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Little-endian bytes of a SPIR-V file as words. Panics if they are not
/// a SPIR-V binary.
pub fn words_from_bytes(bytes: &[u8]) -> Vec<u32> {
    kiln_core::binary::words_from_bytes(bytes)
        .unwrap_or_else(|e| panic!("not a SPIR-V binary: {e}"))
}

/// Lowers an spv-text kernel with shader-interface attributes the way the
/// ABI tests need: the pass pipeline ([`kiln_core::passes::pipeline`]:
/// lower-abi-attrs, update-vce against the device of `ctx`, entry-point
/// interfaces, verify), serialize, spirv-val (Vulkan rules); returns the binary and the interface of `entry`
/// reflected from it, checked equal to the one reflected from the lowered
/// IR. Panics naming the failing stage.
pub fn compile_abi_kernel(ctx: &Context, src: &str, entry: &str) -> (Vec<u32>, PipelineInterface) {
    use kiln_core::passes::{pipeline, PipelineOptions};
    let mut module = kiln_core::text::parse(src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    kiln_core::ir::verify::verify(&module).unwrap_or_else(|e| panic!("verify input: {e}"));
    pipeline::run(&mut module, ctx.target_env(), &PipelineOptions::default()).unwrap_or_else(|e| {
        let cause = std::error::Error::source(&e).map(ToString::to_string);
        panic!("{e}: {}", cause.unwrap_or_default())
    });
    let version = match module.attr_kind(module.top(), "vce_triple") {
        Some(kiln_core::ir::AttrKind::Vce(v)) => v.version,
        _ => kiln_core::grammar::Version::V1_0,
    };
    let words = kiln_core::binary::serialize(&module).unwrap_or_else(|e| panic!("serialize: {e}"));
    let val_env = kiln_core::validate::ValidationEnv::for_vulkan_module(version);
    kiln_core::validate::validate(&words, val_env)
        .unwrap_or_else(|e| panic!("validate: {}", e.full_message()));
    let iface = kiln_core::reflect::reflect_binary(&words, entry)
        .unwrap_or_else(|e| panic!("reflect: {e}"));
    let from_ir = kiln_core::reflect::reflect_module(&module, entry)
        .unwrap_or_else(|e| panic!("reflect IR: {e}"));
    assert_eq!(iface, from_ir, "binary and IR reflection disagree");
    (words, iface)
}

/// Fails unless `PYTHON SCRIPT --check` succeeds: a corpus's files are what
/// its generator writes (expected values included), with the script's
/// output in the failure message. PYTHON is [`python_with_numpy`].
pub fn assert_generator_is_fresh(script: &Path) {
    run_tool(
        Command::new(python_with_numpy()).arg(script).arg("--check"),
        &script.display().to_string(),
    );
}

/// The Python interpreter the generators run with: `KILN_PYTHON` if set,
/// else the first of `python3` (on `PATH`) and `/usr/bin/python3` that
/// imports numpy (a version manager such as pyenv can put an interpreter
/// without the packages ci/setup.sh installed first on `PATH`), else
/// `python3`, whose failure then says numpy is missing.
pub fn python_with_numpy() -> String {
    if let Some(p) = std::env::var_os("KILN_PYTHON").filter(|p| !p.is_empty()) {
        return p.to_string_lossy().into_owned();
    }
    ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|p| {
            Command::new(p)
                .args(["-c", "import numpy"])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .unwrap_or("python3")
        .to_owned()
}
