//! Large legal inputs: 10^5 instructions in one block, selections nested
//! to the deserializer's limit, and nesting far beyond it (a typed error,
//! found without recursing). The measurements of larger inputs (a 100 MB
//! binary, 10^6 nested selections) are `#[ignore]`d (figures in
//! `fuzz/RESULTS.md`): run them with
//! `cargo test --release -p kiln-core --test core deserialize_large -- --ignored --nocapture`.

use std::time::Instant;

use kiln_core::binary::{deserialize, deserialize_with, serialize, DeserializeOptions};
use spirv::Op;

use crate::common::Asm;

// Fixed ids of the preamble.
const VOID: u32 = 1;
const FN: u32 = 2;
const INT: u32 = 3;
const PTR: u32 = 4;
const ONE: u32 = 5;
const BOOL: u32 = 6;
const TRUE: u32 = 7;
const MAIN: u32 = 8;
const ENTRY: u32 = 9;
const VAR: u32 = 10;
const FIRST_FREE: u32 = 11;

/// Header, preamble and `main` up to its entry block's label (and a
/// function variable); `bound` is the id bound.
fn preamble(bound: u32) -> Asm {
    let mut a = Asm::preamble(bound);
    let mut ep = vec![spirv::ExecutionModel::GLCompute as u32, MAIN];
    ep.push(u32::from_le_bytes(*b"main"));
    ep.push(0);
    a.op(Op::EntryPoint, &ep);
    a.op(
        Op::ExecutionMode,
        &[MAIN, spirv::ExecutionMode::LocalSize as u32, 1, 1, 1],
    );
    a.op(Op::TypeVoid, &[VOID]);
    a.op(Op::TypeFunction, &[FN, VOID]);
    a.op(Op::TypeInt, &[INT, 32, 0]);
    a.op(
        Op::TypePointer,
        &[PTR, spirv::StorageClass::Function as u32, INT],
    );
    a.op(Op::Constant, &[INT, ONE, 1]);
    a.op(Op::TypeBool, &[BOOL]);
    a.op(Op::ConstantTrue, &[BOOL, TRUE]);
    a.op(Op::Function, &[VOID, MAIN, 0, FN]);
    a.op(Op::Label, &[ENTRY]);
    a.op(
        Op::Variable,
        &[PTR, VAR, spirv::StorageClass::Function as u32],
    );
    a
}

/// `main` adding 1 `n` times in one block.
fn chain_of_adds(n: u32) -> Vec<u32> {
    let mut a = preamble(FIRST_FREE + n + 1);
    a.op(Op::Load, &[INT, FIRST_FREE, VAR]);
    for i in 0..n {
        a.op(Op::IAdd, &[INT, FIRST_FREE + i + 1, FIRST_FREE + i, ONE]);
    }
    a.op(Op::Store, &[VAR, FIRST_FREE + n]);
    a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    a.words
}

/// `main` adding 1 `n` times, storing each sum `stores` times (a large
/// binary within SPIR-V's id bound: stores define no id).
fn adds_and_stores(n: u32, stores: u32) -> Vec<u32> {
    let mut a = preamble(FIRST_FREE + n + 1);
    a.op(Op::Load, &[INT, FIRST_FREE, VAR]);
    for i in 0..n {
        a.op(Op::IAdd, &[INT, FIRST_FREE + i + 1, FIRST_FREE + i, ONE]);
        for _ in 0..stores {
            a.op(Op::Store, &[VAR, FIRST_FREE + i + 1]);
        }
    }
    a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    a.words
}

/// `main` with `depth` selections nested in one another (each the true
/// branch of the one around it).
fn nested_selections(depth: u32) -> Vec<u32> {
    let header = |i: u32| FIRST_FREE + 2 * i;
    let merge = |i: u32| FIRST_FREE + 2 * i + 1;
    let mut a = preamble(FIRST_FREE + 2 * depth + 2);
    a.op(Op::Branch, &[header(0)]);
    for i in 0..depth {
        a.op(Op::Label, &[header(i)]);
        a.op(Op::SelectionMerge, &[merge(i), 0]);
        a.op(Op::BranchConditional, &[TRUE, header(i + 1), merge(i)]);
    }
    a.op(Op::Label, &[header(depth)]);
    a.op(Op::Branch, &[merge(depth - 1)]);
    for i in (0..depth).rev() {
        a.op(Op::Label, &[merge(i)]);
        if i == 0 {
            a.op(Op::Return, &[]);
        } else {
            a.op(Op::Branch, &[merge(i - 1)]);
        }
    }
    a.op(Op::FunctionEnd, &[]);
    a.words
}

#[test]
fn a_hundred_thousand_ops_in_one_block() {
    let words = chain_of_adds(100_000);
    let m = deserialize(&words).expect("deserialize");
    kiln_core::ir::verify::verify(&m).expect("verify");
    let text = kiln_core::text::print(&m, &Default::default());
    assert_eq!(text.matches("spirv.IAdd").count(), 100_000);
    // kiln's output imports back to itself.
    let out = serialize(&m).expect("serialize");
    assert_eq!(serialize(&deserialize(&out).unwrap()).unwrap(), out);
}

#[test]
fn selections_nested_to_the_limit_round_trip() {
    let limit = kiln_core::binary::deserialize::MAX_NESTING as u32;
    let m = deserialize(&nested_selections(limit)).expect("deserialize");
    kiln_core::ir::verify::verify(&m).expect("verify");
    let text = kiln_core::text::print(&m, &Default::default());
    assert_eq!(text.matches("spirv.mlir.selection").count(), limit as usize);
    let out = serialize(&m).expect("serialize");
    kiln_core::validate::validate(&out, "vulkan1.0".parse().unwrap()).expect("valid");
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    for depth in [65, 100_000] {
        let e = deserialize(&nested_selections(depth))
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("unsupported: constructs nested more than 64 deep (the IR's tools handle at most 64)"),
            "{e}"
        );
    }
}

/// Seconds to deserialize `words`.
fn time_it(words: &[u32], options: &DeserializeOptions) -> (f64, bool) {
    let t = Instant::now();
    let ok = deserialize_with(words, options).is_ok();
    (t.elapsed().as_secs_f64(), ok)
}

#[test]
#[ignore = "measurement: large inputs (run with --release --ignored --nocapture)"]
fn measure_large_inputs() {
    for n in [1_000_000u32, 2_000_000, 4_000_000] {
        let words = chain_of_adds(n);
        let (s, ok) = time_it(&words, &DeserializeOptions::default());
        let mb = words.len() as f64 * 4.0 / 1e6;
        eprintln!(
            "chain of {n} adds: {mb:.1} MB in {s:.2} s ({:.1} MB/s), ok={ok}",
            mb / s
        );
    }
    // 100 MB: 10^6 adds (the id bound allows about 4 * 10^6 ids), each
    // sum stored 7 times.
    for n in [250_000u32, 500_000, 1_000_000] {
        let words = adds_and_stores(n, 7);
        let (s, ok) = time_it(&words, &DeserializeOptions::default());
        let mb = words.len() as f64 * 4.0 / 1e6;
        eprintln!(
            "{n} adds, 7 stores each: {mb:.1} MB in {s:.2} s ({:.1} MB/s), ok={ok}",
            mb / s
        );
    }
    for depth in [10_000u32, 100_000, 1_000_000] {
        let words = nested_selections(depth);
        let mb = words.len() as f64 * 4.0 / 1e6;
        let (s, ok) = time_it(&words, &DeserializeOptions::default());
        eprintln!(
            "{depth} nested selections ({mb:.1} MB), default limit: rejected in {s:.2} s, ok={ok}"
        );
        let deep = DeserializeOptions {
            max_nesting: usize::MAX,
            ..DeserializeOptions::default()
        };
        let (s, ok) = time_it(&words, &deep);
        eprintln!(
            "{depth} nested selections ({mb:.1} MB), no limit: deserialized in {s:.2} s, ok={ok}"
        );
    }
}
