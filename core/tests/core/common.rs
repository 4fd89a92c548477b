//! Helpers the core integration tests share (`mod common;` in each test).

use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

/// Runs `tool ARGS` with `input` on stdin and returns its output, whatever
/// its exit status. A missing tool panics, naming ci/setup.sh, which
/// installs them (mlir-19-tools, spirv-tools).
pub fn run_tool(tool: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {tool}: {e} (run ci/setup.sh)"));
    // A tool that exits before reading all of its input closes the pipe;
    // its exit status and stderr, below, say why.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert!(
            e.kind() == ErrorKind::BrokenPipe,
            "cannot write to {tool}: {e}"
        );
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{tool} did not finish: {e}"))
}

/// Runs `mlir-opt-19 ARGS` on `input` and returns what it prints; panics
/// (failing the test) when it rejects the input.
pub fn mlir_opt(args: &[&str], input: &str) -> String {
    let out = run_tool("mlir-opt-19", args, input);
    assert!(
        out.status.success(),
        "mlir-opt-19 {args:?} failed:\n{}\ninput:\n{input}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs the `spirv-val` tool on `words` for `target_env` (`vulkan1.1`, ...);
/// `Err` holds what it printed. The reference command-line validator must
/// agree with the in-process one, so tests run both.
pub fn spirv_val(words: &[u32], target_env: &str) -> Result<(), String> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("kiln-val-{}-{n}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write temp binary");
    let out = Command::new("spirv-val")
        .arg("--target-env")
        .arg(target_env)
        .arg(&path)
        .output()
        .expect("spirv-val must be installed (ci/setup.sh installs it)");
    let _ = std::fs::remove_file(&path);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The golden modules' input files (`tests/golden/*.mlir` without the
/// `.out.` expectations), sorted.
pub fn golden_inputs() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.ends_with(".mlir") && !name.contains(".out.")
        })
        .collect();
    files.sort();
    files
}

/// A SPIR-V module assembled word by word (for malformed and large
/// inputs the assembler tools cannot or need not write).
pub struct Asm {
    /// The words so far.
    pub words: Vec<u32>,
}

impl Asm {
    /// A header (SPIR-V 1.0) with id bound `bound`.
    pub fn new(bound: u32) -> Asm {
        Asm {
            words: vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, bound, 0],
        }
    }

    /// Appends an instruction and returns its word offset.
    pub fn op(&mut self, op: spirv::Op, operands: &[u32]) -> usize {
        let at = self.words.len();
        self.words
            .push(((operands.len() as u32 + 1) << 16) | op as u32);
        self.words.extend_from_slice(operands);
        at
    }

    /// The header and `OpCapability Shader`, `OpMemoryModel Logical GLSL450`.
    pub fn preamble(bound: u32) -> Asm {
        let mut a = Asm::new(bound);
        a.op(spirv::Op::Capability, &[spirv::Capability::Shader as u32]);
        a.op(spirv::Op::MemoryModel, &[0, 1]);
        a
    }
}

/// The `.mlir` files of `dir`, sorted.
pub fn mlir_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// The tensor program of `path` as a backend gets it: end-to-end test
/// functions without their checks, prepared for compiling.
pub fn prepared_tensor_module(path: &std::path::Path) -> kiln_core::tensor::TensorModule {
    let text = std::fs::read_to_string(path).expect("readable");
    let mut m =
        kiln_core::tensor::load(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if kiln_core::tensor::e2e::is_e2e(&m) {
        m = kiln_core::tensor::e2e::compute_module(&m)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    kiln_core::codegen::prepare_module(&m).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The target env fixture `tests/lower/envs/NAME` (queried from a device,
/// or written by hand where its header says so).
pub fn env_file(name: &str) -> kiln_core::target::TargetEnv {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lower/envs")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim()
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An NVIDIA H200's codegen target: its env fixture and driver facts.
pub fn h200_target() -> kiln_core::codegen::CodegenTarget {
    kiln_core::codegen::CodegenTarget::new(
        env_file("nvidia-h200.env"),
        kiln_core::codegen::DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA")),
    )
}

/// lavapipe's codegen target: its env fixture and driver facts.
pub fn lavapipe_target() -> kiln_core::codegen::CodegenTarget {
    kiln_core::codegen::CodegenTarget::new(
        env_file("lavapipe.env"),
        kiln_core::codegen::DriverFacts::for_driver(
            "llvmpipe (LLVM 15.0.6, 256 bits)",
            Some("llvmpipe"),
        ),
    )
}

/// The first function of tensor program `text` compiled for `target`.
pub fn compile_first(
    text: &str,
    target: &kiln_core::codegen::CodegenTarget,
) -> kiln_core::codegen::CompiledFunction {
    let m = kiln_core::tensor::load(text).expect("parses");
    let prepared = kiln_core::codegen::prepare_module(&m).expect("prepares");
    let f = prepared.funcs()[0];
    kiln_core::codegen::compile_function(&prepared, f, target).expect("compiles")
}

/// Panics unless every kernel of `f` passes spirv-val for its env.
pub fn kernels_validate(f: &kiln_core::codegen::CompiledFunction) {
    for d in &f.dispatches {
        for k in &d.kernels {
            kiln_core::validate::validate(&k.words, k.validation_env)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
        }
    }
}

/// `@f(a, b) = op(a, b)` over two 1-D tensors of `n` elements of `ty`.
pub fn binary_program(op: &str, ty: &str, n: u64) -> String {
    format!(
        r#"func.func @f(%a: tensor<{n}x{ty}>, %b: tensor<{n}x{ty}>) -> tensor<{n}x{ty}> {{
  %c = {op} %a, %b : tensor<{n}x{ty}>
  return %c : tensor<{n}x{ty}>
}}"#
    )
}
