//! Shared helpers of the `lower_*` tests.
//!
//! Every compiled module is validated twice: in process by
//! `compile_to_binaries` (SPIRV-Tools through the `spirv-tools` crate) and
//! by the `spirv-val` tool for the Vulkan environment of the module's
//! SPIR-V version. A missing tool fails the test (CI installs it with
//! `ci/setup.sh`).

pub(crate) use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kiln_core::ir::Module;
use kiln_core::kernel::KernelModule;
use kiln_core::lower::{self, CompiledModule, LowerError, LowerOptions};
use kiln_core::target::TargetEnv;

/// Vulkan 1.0: SPIR-V 1.0, `Shader`, storage buffers; nothing else.
pub const MINIMAL: &str = "#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>";

/// Vulkan 1.1 with the basic, arithmetic and shuffle subgroup capabilities
/// but no 8/16/64-bit types.
pub const SUBGROUPS: &str = "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformShuffleRelative], []>, #spirv.resource_limits<>>";

/// The folder of the test kernels.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lower")
}

/// lavapipe's target env (captured with `kiln devices --target-env-only`).
pub fn lavapipe() -> TargetEnv {
    let text = std::fs::read_to_string(dir().join("envs/lavapipe.env"))
        .expect("tests/lower/envs/lavapipe.env must exist");
    text.trim().parse().expect("lavapipe.env parses")
}

/// A target env from its text.
pub fn env(text: &str) -> TargetEnv {
    text.parse().expect("test target env parses")
}

/// The three envs every kernel is compiled for, with a name.
pub fn all_envs() -> Vec<(&'static str, TargetEnv)> {
    vec![
        ("minimal", env(MINIMAL)),
        ("subgroups", env(SUBGROUPS)),
        ("lavapipe", lavapipe()),
    ]
}

/// Parses `tests/lower/NAME.mlir`.
pub fn kernels(name: &str) -> KernelModule {
    let path = dir().join(format!("{name}.mlir"));
    let src = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    kiln_core::kernel::parse(&src).unwrap_or_else(|e| panic!("{name}.mlir: {e}"))
}

/// Parses kernel text.
pub fn kernels_from(src: &str) -> KernelModule {
    kiln_core::kernel::parse(src).unwrap_or_else(|e| panic!("kernel text: {e}"))
}

/// Compiles `km` for `env`, validating in process and with `spirv-val`.
pub fn compile(km: &KernelModule, env: &TargetEnv) -> Vec<CompiledModule> {
    let out =
        lower::compile_to_binaries(km, Some(env), &LowerOptions::default()).unwrap_or_else(|e| {
            // The pass and binary errors leave their cause to the chain.
            let cause = std::error::Error::source(&e).map(ToString::to_string);
            panic!(
                "lowering failed under {}: {e}: {}",
                env.summary(),
                cause.unwrap_or_default()
            )
        });
    for c in &out {
        spirv_val(&c.words, c.validation_env.name(), &c.name);
    }
    out
}

/// Lowers `km` for `env` expecting an error.
pub fn lower_err(km: &KernelModule, env: &TargetEnv) -> LowerError {
    match lower::convert_to_spirv(km, Some(env), &LowerOptions::default()) {
        Ok(_) => panic!(
            "lowering succeeded under {}, expected an error",
            env.summary()
        ),
        Err(e) => e,
    }
}

/// Runs the `spirv-val` tool on `words` for `target_env`.
pub fn spirv_val(words: &[u32], target_env: &str, what: &str) {
    if let Err(e) = common::spirv_val(words, target_env) {
        panic!("spirv-val --target-env {target_env} rejects {what}: {e}");
    }
}

/// Names of every op in the module (`spirv.` spelling, `GL.Exp`, ...).
pub fn op_names(m: &Module) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    m.walk(m.top(), &mut |op| {
        out.insert(m.op(op).kind.name().into_owned());
    });
    out
}

/// Whether the module contains an op named `name`.
pub fn has_op(m: &Module, name: &str) -> bool {
    op_names(m).contains(name)
}

/// The printed text of a module.
pub fn print(m: &Module) -> String {
    kiln_core::text::print(m, &Default::default())
}

/// Capability names of the module's VCE triple.
pub fn capabilities(m: &Module) -> Vec<String> {
    match m.attr_kind(m.top(), "vce_triple") {
        Some(kiln_core::ir::AttrKind::Vce(v)) => v
            .capabilities
            .iter()
            .map(|c| c.name().to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// Compiles `name` under every env and returns the modules per env.
pub fn compile_everywhere(name: &str) -> Vec<(&'static str, Vec<CompiledModule>)> {
    let km = kernels(name);
    all_envs()
        .into_iter()
        .map(|(n, e)| (n, compile(&km, &e)))
        .collect()
}

/// Whether the printed module uses the type `iN` (as a whole token, not
/// inside a symbol name like `@add_i8`).
pub fn uses_int_type(m: &Module, width: u32) -> bool {
    let text = print(m);
    let tok = format!("i{width}");
    let bytes = text.as_bytes();
    text.match_indices(&tok).any(|(at, _)| {
        let before = if at == 0 { b' ' } else { bytes[at - 1] };
        let after = bytes.get(at + tok.len()).copied().unwrap_or(b' ');
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        !ident(after) && (!ident(before) || before == b'x')
    })
}
