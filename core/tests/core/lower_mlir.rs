//! kiln's lowering against MLIR 19's, for the kernels MLIR can lower:
//! `mlir-opt-19 --pass-pipeline='builtin.module(gpu.module(convert-math-to-spirv),
//! map-memref-spirv-storage-class, convert-gpu-to-spirv,
//! spirv.module(spirv-lower-abi-attrs, spirv-update-vce))'`, its
//! `spirv.module` parsed with kiln's text parser, compared with kiln's
//! module for the same target env: module name, global variables (names
//! and types), entry point and its interface, execution modes, the VCE
//! triple, and the set of computational ops.
//!
//! Known, intended differences are listed in [`KILN_ONLY`] / [`MLIR_ONLY`].
//! The test needs `mlir-opt-19` (CI installs it; a missing tool fails).

use crate::lower_util as util;

use util::common;

use std::collections::BTreeSet;

use kiln_core::ir::{AttrKind, Module, OpKind};
use util::*;

const PIPELINE: &str = "builtin.module(gpu.module(convert-math-to-spirv), map-memref-spirv-storage-class, convert-gpu-to-spirv, spirv.module(spirv-lower-abi-attrs, spirv-update-vce))";

/// Ops that only say where values live or how control flows, which both
/// lowerings use in different numbers.
const PLUMBING: [&str; 15] = [
    "module",
    "func",
    "GlobalVariable",
    "EntryPoint",
    "ExecutionMode",
    "Constant",
    "Variable",
    "Load",
    "Store",
    "AccessChain",
    "mlir.addressof",
    "Branch",
    "BranchConditional",
    "mlir.merge",
    "Return",
];

/// Ops kiln emits where MLIR does not: `ShiftLeftLogical` /
/// `ShiftRightArithmetic`, with which kiln re-normalizes emulated i8
/// values after arithmetic so they wrap like i8.
const KILN_ONLY: [&str; 2] = ["ShiftLeftLogical", "ShiftRightArithmetic"];

/// Ops MLIR emits where kiln does not (none so far).
const MLIR_ONLY: [&str; 0] = [];

/// MLIR's lowering of kernel file `name` for `env_text`, as a kiln module.
fn mlir_lowering(name: &str, env_text: &str) -> Module {
    let path = dir().join(format!("{name}.mlir"));
    let src = std::fs::read_to_string(&path).expect("kernel file");
    let with_env = src.replacen(
        "module attributes {gpu.container_module}",
        &format!("module attributes {{gpu.container_module, spirv.target_env = {env_text}}}"),
        1,
    );
    assert_ne!(with_env, src, "{name}: no module attributes to extend");
    let text = common::mlir_opt(&[&format!("--pass-pipeline={PIPELINE}")], &with_env);
    // The spirv.module, from its line to the closing brace at its indent.
    let start = text.find("  spirv.module").expect("a spirv.module");
    let end = text[start..].find("\n  }\n").expect("end of spirv.module") + start + 4;
    kiln_core::text::parse(&text[start..end]).unwrap_or_else(|e| {
        panic!(
            "kiln cannot parse MLIR's output: {e}\n{}",
            &text[start..end]
        )
    })
}

#[derive(Debug, PartialEq)]
struct Summary {
    name: String,
    globals: BTreeSet<String>,
    entry_points: BTreeSet<String>,
    modes: BTreeSet<String>,
    vce: String,
    ops: BTreeSet<String>,
}

fn summary(m: &Module, ignore: &[&str]) -> Summary {
    let mut globals = BTreeSet::new();
    let mut entry_points = BTreeSet::new();
    let mut modes = BTreeSet::new();
    for &op in m.module_ops() {
        let line = kiln_core::text::print_op(m, op, &Default::default());
        match m.op(op).kind {
            OpKind::GlobalVariable => {
                globals.insert(line.trim().to_string());
            }
            OpKind::EntryPoint => {
                // The interface as a set.
                let mut parts: Vec<&str> = line.trim().split(", ").collect();
                let head = parts.remove(0).to_string();
                parts.sort();
                entry_points.insert(format!("{head} | {}", parts.join(", ")));
            }
            OpKind::ExecutionMode => {
                modes.insert(line.trim().to_string());
            }
            _ => {}
        }
    }
    let vce = match m.attr_kind(m.top(), "vce_triple") {
        Some(AttrKind::Vce(v)) => {
            let mut caps: Vec<&str> = v.capabilities.iter().map(|c| c.name()).collect();
            caps.sort();
            // Extensions are not compared: MLIR 19 lists
            // SPV_KHR_storage_buffer_storage_class even where SPIR-V 1.3
            // has it in the core; kiln's update-vce leaves it out there.
            format!("{} {caps:?}", v.version)
        }
        _ => String::new(),
    };
    let ops = op_names(m)
        .into_iter()
        .filter(|n| !PLUMBING.contains(&n.as_str()))
        .filter(|n| !KILN_ONLY.contains(&n.as_str()) && !MLIR_ONLY.contains(&n.as_str()))
        .filter(|n| !ignore.contains(&n.as_str()))
        .collect();
    Summary {
        name: m.symbol_name(m.top()).unwrap_or("").to_string(),
        globals,
        entry_points,
        modes,
        vce,
        ops,
    }
}

fn compare(name: &str, env_text: &str) {
    compare_except(name, env_text, &[]);
}

/// [`compare`], ignoring ops `ignore` on both sides.
fn compare_except(name: &str, env_text: &str, ignore: &[&str]) {
    let theirs = mlir_lowering(name, env_text);
    let km = kernels(name);
    let ours = &compile(&km, &env(env_text))[0].module;
    let (a, b) = (summary(ours, ignore), summary(&theirs, ignore));
    assert_eq!(
        a,
        b,
        "{name} under {env_text}: kiln (left) and MLIR 19 (right) differ\n--- kiln\n{}\n--- MLIR\n{}",
        print(ours),
        print(&theirs)
    );
}

#[test]
fn arith_float_matches_mlir() {
    // kiln fixes what OpFRem and GLSL FMax/FMin leave undefined (remf by
    // an infinite divisor, the sign of a zero remainder and of
    // maximumf(-0, +0)) and saturates fptosi / fptoui out of range: the
    // comparisons and tests those fixes add.
    compare_except(
        "arith_float",
        MINIMAL,
        &[
            "FOrdEqual",
            "FOrdGreaterThanEqual",
            "GL.FAbs",
            "IsInf",
            "LogicalAnd",
        ],
    );
}

#[test]
fn packed_i8_matches_mlir() {
    compare("arith_i8", MINIMAL);
}

#[test]
fn gpu_ids_match_mlir() {
    compare("gpu", MINIMAL);
}

#[test]
fn scf_matches_mlir() {
    compare("scf", MINIMAL);
}

#[test]
fn vector_matches_mlir() {
    // MLIR 19 loads a vector<4xf32> through a pointer bitcast and sums
    // lanes with a dot product against ones; kiln accesses elements one by
    // one (valid in logical addressing for any alignment) and adds lanes.
    compare_except("vector", MINIMAL, &["Bitcast", "Dot", "FAdd", "IAdd"]);
}

#[test]
fn math_matches_mlir() {
    // kiln expands math.tanh itself (fdlibm's expm1 formula, lower/libm:
    // lavapipe's GL.Tanh loses every digit near 0) where MLIR emits
    // GL.Tanh: the expansion's ops are left out on both sides.
    compare_except(
        "mlir_math",
        MINIMAL,
        &[
            "GL.Tanh",
            "ConvertFToS",
            "FAdd",
            "FDiv",
            "FMul",
            "FNegate",
            "FOrdEqual",
            "FOrdGreaterThan",
            "FOrdLessThan",
            "FSub",
            "GL.Ldexp",
            "GL.RoundEven",
            "ISub",
            "IsNan",
            "LogicalNot",
            "LogicalOr",
            "SDiv",
            "Select",
        ],
    );
}

#[test]
fn subgroup_reduce_matches_mlir() {
    compare("mlir_subgroup_reduce", SUBGROUPS);
}
