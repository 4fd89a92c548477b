//! Tests of the IR verifier (`kiln_core::ir::verify`).
//!
//! * Positive: every module in `tests/mlir_ref/*.mlir` and
//!   `tests/golden/*.mlir` parses and verifies without error.
//! * Negative, text: `tests/verify/*.mlir` hold cases separated by lines
//!   `// -----`. A line ending in `// error: <text>` must get at least one
//!   error whose message contains `<text>`, and every error must fall on
//!   such a line and contain its text: nothing unannotated is reported.
//! * Negative, builder API: what the text form cannot express (values
//!   captured from another function, two results, broken handles, edges
//!   into another region, use before definition, ...).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kiln_core::grammar::{AddressingModel, MemoryModel, OperandKind, StorageClass};
use kiln_core::ir::verify::{verify, VerifyError};
use kiln_core::ir::{Block, Location, Module, Op, OpKind, OpSpec, Region, Type, Value};

// ---- helpers ---------------------------------------------------------------

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The `.mlir` files of `tests/<dir>`, sorted; empty when the folder is
/// missing.
fn mlir_files(dir: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(tests_dir().join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

fn errors_of(m: &Module) -> Vec<VerifyError> {
    match verify(m) {
        Ok(()) => Vec::new(),
        Err(e) => e.0,
    }
}

fn show(errors: &[VerifyError]) -> String {
    errors.iter().map(|e| format!("  {e}\n")).collect()
}

// ---- positive --------------------------------------------------------------

fn assert_all_verify(dir: &str, require_files: bool) {
    let files = mlir_files(dir);
    if require_files {
        assert!(!files.is_empty(), "no .mlir files in tests/{dir}");
    }
    let mut failures = String::new();
    for path in &files {
        let src = std::fs::read_to_string(path).expect("readable test input");
        let module = match kiln_core::text::parse(&src) {
            Ok(m) => m,
            Err(e) => {
                writeln!(failures, "{}: does not parse: {e}", path.display()).unwrap();
                continue;
            }
        };
        let errors = errors_of(&module);
        if !errors.is_empty() {
            writeln!(failures, "{}:\n{}", path.display(), show(&errors)).unwrap();
        }
    }
    assert!(
        failures.is_empty(),
        "modules that should verify:\n{failures}"
    );
}

#[test]
fn reference_modules_verify() {
    assert_all_verify("mlir_ref", true);
}

#[test]
fn golden_modules_verify() {
    // The golden corpus is filled by the lowering; an empty folder is fine.
    assert_all_verify("golden", false);
}

// ---- negative, text --------------------------------------------------------

/// One case of an annotated file: its first line (1-based) and its text.
fn split_cases(src: &str) -> Vec<(usize, String)> {
    let mut cases = Vec::new();
    let mut start = 1;
    let mut text = String::new();
    for (i, line) in src.lines().enumerate() {
        if line.trim_start().starts_with("// -----") {
            cases.push((start, std::mem::take(&mut text)));
            start = i + 2;
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    cases.push((start, text));
    cases
}

/// `(line, expected substring)` for every `// error: ...` annotation.
fn annotations(src: &str, first_line: usize) -> Vec<(u32, String)> {
    src.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let (_, want) = line.split_once("// error: ")?;
            Some(((first_line + i) as u32, want.trim().to_string()))
        })
        .collect()
}

/// Checks one annotated file; returns a description of every mismatch.
fn check_annotated(path: &Path) -> (usize, usize, String) {
    let src = std::fs::read_to_string(path).expect("readable test input");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut report = String::new();
    let mut n_cases = 0;
    let mut n_annotations = 0;
    for (first, text) in split_cases(&src) {
        let expected = annotations(&text, first);
        if text.trim().is_empty() {
            continue;
        }
        n_cases += 1;
        n_annotations += expected.len();
        // Pad so the parser's line numbers are those of the whole file.
        let padded = format!("{}{text}", "\n".repeat(first - 1));
        let module = match kiln_core::text::parse(&padded) {
            Ok(m) => m,
            Err(e) => {
                writeln!(report, "{name}:{first}: case does not parse: {e}").unwrap();
                continue;
            }
        };
        let errors = errors_of(&module);
        for (line, want) in &expected {
            if !errors
                .iter()
                .any(|e| e.loc.line == *line && e.message.contains(want.as_str()))
            {
                let near: Vec<String> = errors.iter().map(|e| format!("    {e}")).collect();
                writeln!(
                    report,
                    "{name}:{line}: expected an error containing {want:?}; got:\n{}",
                    near.join("\n")
                )
                .unwrap();
            }
        }
        for e in &errors {
            let annotated = expected
                .iter()
                .any(|(line, want)| e.loc.line == *line && e.message.contains(want.as_str()));
            if !annotated {
                writeln!(report, "{name}: unexpected error {e}").unwrap();
            }
        }
        if expected.is_empty() {
            writeln!(report, "{name}:{first}: case has no '// error:' annotation").unwrap();
        }
    }
    (n_cases, n_annotations, report)
}

#[test]
fn annotated_negative_inputs() {
    let files = mlir_files("verify");
    assert!(!files.is_empty(), "no annotated inputs in tests/verify");
    let mut report = String::new();
    let mut cases = 0;
    let mut annotated = 0;
    for path in &files {
        let (c, a, r) = check_annotated(path);
        cases += c;
        annotated += a;
        report.push_str(&r);
    }
    assert!(report.is_empty(), "annotated inputs:\n{report}");
    assert!(cases >= 30, "only {cases} negative text cases");
    assert!(annotated >= cases);
}

#[test]
fn annotation_parsing() {
    let src = "a\n// -----\nb // error: x y\nc\n";
    let cases = split_cases(src);
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[1].0, 3);
    assert_eq!(
        annotations(&cases[1].1, cases[1].0),
        vec![(3, "x y".to_string())]
    );
}

// ---- negative, builder API ----------------------------------------------------

/// A module under construction with the types the cases need.
struct Fx {
    m: Module,
    i32: Type,
    f32: Type,
    i1: Type,
}

/// The line that marks the op a builder case is about.
const BAD: u32 = 99;

impl Fx {
    fn new() -> Self {
        let mut m = Module::new(AddressingModel::Logical, MemoryModel::GLSL450, None);
        let i32 = m.types.int(32);
        let f32 = m.types.f32();
        let i1 = m.types.bool();
        Fx { m, i32, f32, i1 }
    }

    /// A `spv.func @name` with an entry block taking `inputs`.
    fn func(&mut self, name: &str, inputs: Vec<Type>, results: Vec<Type>) -> (Op, Block) {
        let fty = self.m.types.function(inputs.clone(), results);
        let sym = self.m.attrs.string(name);
        let ty = self.m.attrs.ty(fty);
        let ctl = self.m.attrs.enumerant(OperandKind::FunctionControl, 0);
        let body = self.m.body();
        let func = self.m.build(
            body,
            OpSpec::new(OpKind::Func)
                .attr("sym_name", sym)
                .attr("function_type", ty)
                .attr("function_control", ctl)
                .regions(1),
        );
        let region = self.m.op(func).regions[0];
        let entry = self.m.append_block(region, &inputs);
        (func, entry)
    }

    /// Appends core op `name` to `block`.
    fn core(&mut self, block: Block, name: &str, operands: Vec<Value>, results: Vec<Type>) -> Op {
        let kind = OpKind::from_name(name).unwrap_or_else(|| panic!("unknown op {name}"));
        self.m
            .build(block, OpSpec::new(kind).operands(operands).results(results))
    }

    fn constant(&mut self, block: Block, value: i128) -> Value {
        let v = self.m.attrs.int(value, self.i32);
        let op = self.m.build(
            block,
            OpSpec::new(OpKind::Constant)
                .attr("value", v)
                .results(vec![self.i32]),
        );
        self.m.op(op).results[0]
    }

    fn ret(&mut self, block: Block) -> Op {
        self.core(block, "Return", vec![], vec![])
    }

    fn branch(&mut self, block: Block, to: Block, args: Vec<Value>) -> Op {
        let kind = OpKind::from_name("Branch").unwrap();
        self.m.build(block, OpSpec::new(kind).successor(to, args))
    }

    fn mark(&mut self, op: Op) {
        self.m.op_mut(op).loc = Location::new(BAD, 1);
    }

    /// A `spv.mlir.selection` in `block` with a header branching on `cond`
    /// to a `then` block and the merge block.
    fn selection(&mut self, block: Block, cond: Value) -> (Op, Region, Block, Block) {
        let sel = self
            .m
            .build(block, OpSpec::new(OpKind::Selection).regions(1));
        let region = self.m.op(sel).regions[0];
        let header = self.m.append_block(region, &[]);
        let then = self.m.append_block(region, &[]);
        let merge = self.m.append_block(region, &[]);
        let kind = OpKind::from_name("BranchConditional").unwrap();
        self.m.build(
            header,
            OpSpec::new(kind)
                .operands(vec![cond])
                .successor(then, vec![])
                .successor(merge, vec![]),
        );
        self.m.build(merge, OpSpec::new(OpKind::Merge));
        (sel, region, then, merge)
    }

    /// Asserts that there are errors, all at the marked op and all
    /// containing `want`.
    fn expect(&self, want: &str) {
        let errors = errors_of(&self.m);
        assert!(!errors.is_empty(), "expected an error containing {want:?}");
        for e in &errors {
            assert!(
                e.loc.line == BAD && e.message.contains(want),
                "expected only errors at line {BAD} containing {want:?}, got:\n{}",
                show(&errors)
            );
        }
    }
}

#[test]
fn built_kernel_verifies() {
    let mut fx = Fx::new();
    let (ptr_ty, buf) = {
        let m = &mut fx.m;
        let arr = m.types.runtime_array(fx.f32, Some(4));
        let st = m.types.struct_of(vec![(arr, Some(0))]);
        let ptr = m.types.pointer(st, StorageClass::StorageBuffer);
        let body = m.body();
        let sym = m.attrs.string("buf");
        let ty = m.attrs.ty(ptr);
        let zero = m.attrs.int(0, fx.i32);
        m.build(
            body,
            OpSpec::new(OpKind::GlobalVariable)
                .attr("sym_name", sym)
                .attr("type", ty)
                .attr("descriptor_set", zero)
                .attr("binding", zero),
        );
        (ptr, "buf")
    };
    let (_, entry) = fx.func("main", vec![], vec![]);
    let var = fx.m.attrs.symbol(buf);
    let addr = fx.m.build(
        entry,
        OpSpec::new(OpKind::AddressOf)
            .attr("variable", var)
            .results(vec![ptr_ty]),
    );
    let addr = fx.m.op(addr).results[0];
    let c0 = fx.constant(entry, 0);
    let elem_ptr = fx.m.types.pointer(fx.f32, StorageClass::StorageBuffer);
    let chain = fx.core(entry, "AccessChain", vec![addr, c0, c0], vec![elem_ptr]);
    let p = fx.m.op(chain).results[0];
    let load = fx.core(entry, "Load", vec![p], vec![fx.f32]);
    let x = fx.m.op(load).results[0];
    let sum = fx.core(entry, "FAdd", vec![x, x], vec![fx.f32]);
    let s = fx.m.op(sum).results[0];
    fx.core(entry, "Store", vec![p, s], vec![]);
    fx.ret(entry);
    let main = fx.m.attrs.symbol("main");
    let model = fx.m.attrs.enumerant(OperandKind::ExecutionModel, 5);
    let body = fx.m.body();
    fx.m.build(
        body,
        OpSpec::new(OpKind::EntryPoint)
            .attr("execution_model", model)
            .attr("fn", main),
    );
    assert_eq!(errors_of(&fx.m), Vec::new());
}

#[test]
fn value_captured_from_another_function() {
    let mut fx = Fx::new();
    let (_, a) = fx.func("a", vec![], vec![]);
    let c = fx.constant(a, 1);
    fx.ret(a);
    let (_, b) = fx.func("b", vec![], vec![]);
    let add = fx.core(b, "IAdd", vec![c, c], vec![fx.i32]);
    fx.mark(add);
    fx.ret(b);
    fx.expect("defined outside the enclosing spirv.func");
}

#[test]
fn function_argument_captured_by_another_function() {
    let mut fx = Fx::new();
    let (_, a) = fx.func("a", vec![fx.i32], vec![]);
    let arg = fx.m.block(a).args[0];
    fx.ret(a);
    let (_, b) = fx.func("b", vec![], vec![]);
    let neg = fx.core(b, "SNegate", vec![arg], vec![fx.i32]);
    fx.mark(neg);
    fx.ret(b);
    fx.expect("operand #0 is defined outside the enclosing spirv.func");
}

#[test]
fn two_results() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![]);
    let c = fx.constant(b, 1);
    let add = fx.core(b, "IAdd", vec![c, c], vec![fx.i32, fx.i32]);
    fx.mark(add);
    fx.ret(b);
    fx.expect("result");
}

#[test]
fn invalid_value_handle() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![]);
    let bogus = Value::from_index(10_000);
    let neg = fx.core(b, "SNegate", vec![bogus], vec![fx.i32]);
    fx.mark(neg);
    fx.ret(b);
    fx.expect("operand #0 is an invalid value handle");
}

#[test]
fn result_type_handle_not_interned() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![]);
    let kind = OpKind::from_name("Undef").unwrap();
    let undef =
        fx.m.build(b, OpSpec::new(kind).results(vec![Type::from_index(10_000)]));
    fx.mark(undef);
    fx.ret(b);
    fx.expect("type handle is not interned");
}

#[test]
fn use_before_definition_in_a_block() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![]);
    let c = fx.constant(b, 1);
    let first = fx.core(b, "IAdd", vec![c, c], vec![fx.i32]);
    let second = fx.core(b, "IAdd", vec![c, c], vec![fx.i32]);
    let later = fx.m.op(second).results[0];
    fx.m.op_mut(first).operands[1] = later;
    fx.mark(first);
    fx.ret(b);
    fx.expect("operand #1 does not dominate this use");
}

#[test]
fn use_in_a_block_not_dominated_by_the_definition() {
    // ^bb0: cond_br ^bb1, ^bb2; ^bb1: %x = ...; br ^bb2; ^bb2: use %x
    let mut fx = Fx::new();
    let (func, entry) = fx.func("f", vec![fx.i1], vec![]);
    let cond = fx.m.block(entry).args[0];
    let region = fx.m.op(func).regions[0];
    let bb1 = fx.m.append_block(region, &[]);
    let bb2 = fx.m.append_block(region, &[]);
    let kind = OpKind::from_name("BranchConditional").unwrap();
    fx.m.build(
        entry,
        OpSpec::new(kind)
            .operands(vec![cond])
            .successor(bb1, vec![])
            .successor(bb2, vec![]),
    );
    let x = fx.constant(bb1, 3);
    fx.branch(bb1, bb2, vec![]);
    let neg = fx.core(bb2, "SNegate", vec![x], vec![fx.i32]);
    fx.mark(neg);
    fx.ret(bb2);
    fx.expect("does not dominate");
}

#[test]
fn dominating_block_and_enclosing_block_values_are_visible() {
    // A value from the entry block used in a later block and inside a
    // selection region nested in it.
    let mut fx = Fx::new();
    let (func, entry) = fx.func("f", vec![fx.i1], vec![]);
    let cond = fx.m.block(entry).args[0];
    let region = fx.m.op(func).regions[0];
    let x = fx.constant(entry, 3);
    let bb1 = fx.m.append_block(region, &[]);
    fx.branch(entry, bb1, vec![]);
    let (_, _, then, merge) = fx.selection(bb1, cond);
    fx.core(then, "SNegate", vec![x], vec![fx.i32]);
    fx.branch(then, merge, vec![]);
    fx.ret(bb1);
    assert_eq!(errors_of(&fx.m), Vec::new());
}

#[test]
fn value_defined_in_a_selection_is_not_visible_after_it() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("f", vec![fx.i1], vec![]);
    let cond = fx.m.block(entry).args[0];
    let (_, _, then, merge) = fx.selection(entry, cond);
    let inner = fx.constant(then, 5);
    fx.branch(then, merge, vec![]);
    let neg = fx.core(entry, "SNegate", vec![inner], vec![fx.i32]);
    fx.mark(neg);
    fx.ret(entry);
    fx.expect("does not dominate");
}

#[test]
fn operand_defined_by_a_detached_op() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![]);
    let kind = OpKind::from_name("Undef").unwrap();
    let detached = fx.m.create_op(OpSpec::new(kind).results(vec![fx.i32]));
    let v = fx.m.op(detached).results[0];
    let neg = fx.core(b, "SNegate", vec![v], vec![fx.i32]);
    fx.mark(neg);
    fx.ret(b);
    fx.expect("operand #0 is defined by an op that is not placed in any block");
}

#[test]
fn branch_into_another_region() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("f", vec![fx.i1], vec![]);
    let cond = fx.m.block(entry).args[0];
    let (_, _, then, _) = fx.selection(entry, cond);
    // The `then` block branches out of the selection to a block of the
    // function body.
    let outer = fx.m.block(entry).parent.unwrap();
    let exit = fx.m.append_block(outer, &[]);
    let br = fx.branch(then, exit, vec![]);
    fx.mark(br);
    fx.ret(entry);
    fx.ret(exit);
    fx.expect("is not a block of the region holding this op");
}

#[test]
fn empty_block() {
    let mut fx = Fx::new();
    let (func, entry) = fx.func("f", vec![], vec![]);
    fx.mark(func);
    let region = fx.m.op(func).regions[0];
    let empty = fx.m.append_block(region, &[]);
    fx.branch(entry, empty, vec![]);
    fx.expect("empty block ^bb1");
}

#[test]
fn nested_function() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("outer", vec![], vec![]);
    let sym = fx.m.attrs.string("inner");
    let nested = fx.m.build(
        entry,
        OpSpec::new(OpKind::Func).attr("sym_name", sym).regions(1),
    );
    fx.mark(nested);
    fx.ret(entry);
    fx.expect("functions cannot be nested");
}

#[test]
fn global_variable_inside_a_function() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("f", vec![], vec![]);
    let ptr = fx.m.types.pointer(fx.f32, StorageClass::Private);
    let ty = fx.m.attrs.ty(ptr);
    let sym = fx.m.attrs.string("g");
    let g = fx.m.build(
        entry,
        OpSpec::new(OpKind::GlobalVariable)
            .attr("sym_name", sym)
            .attr("type", ty),
    );
    fx.mark(g);
    fx.ret(entry);
    fx.expect("module-level op and cannot appear inside a function");
}

#[test]
fn foreign_op_built_in_a_function() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("f", vec![], vec![]);
    let foreign = fx.m.build(
        entry,
        OpSpec::new(OpKind::Foreign("arith.addi".into())).results(vec![fx.i32]),
    );
    fx.mark(foreign);
    fx.ret(entry);
    let errors = errors_of(&fx.m);
    assert_eq!(errors.len(), 1, "{}", show(&errors));
    assert_eq!(errors[0].op, "arith.addi");
    fx.expect("not a SPIR-V dialect op");
}

#[test]
fn op_placed_in_two_blocks() {
    let mut fx = Fx::new();
    let (_, entry) = fx.func("f", vec![], vec![]);
    let ret = fx.ret(entry);
    fx.mark(ret);
    let (_, other) = fx.func("g", vec![], vec![]);
    // Bypass the builder to create the corruption.
    fx.m.block_mut(other).ops.push(ret);
    let errors = errors_of(&fx.m);
    assert!(
        errors.iter().all(|e| e.loc.line == BAD)
            && errors
                .iter()
                .any(|e| e.message.contains("placed in more than one block")),
        "{}",
        show(&errors)
    );
}

#[test]
fn module_region_with_two_blocks() {
    let mut fx = Fx::new();
    let top = fx.m.top();
    fx.mark(top);
    let region = fx.m.op(top).regions[0];
    fx.m.append_block(region, &[]);
    fx.expect("exactly one block");
}

#[test]
fn errors_are_all_collected_and_displayed() {
    let mut fx = Fx::new();
    let (_, b) = fx.func("f", vec![], vec![fx.i32]);
    let c = fx.constant(b, 1);
    let x = fx.m.attrs.float(1.0, fx.f32);
    let cf = fx.m.build(
        b,
        OpSpec::new(OpKind::Constant)
            .attr("value", x)
            .results(vec![fx.f32]),
    );
    let f = fx.m.op(cf).results[0];
    let add = fx.core(b, "IAdd", vec![c, f], vec![fx.i32]);
    fx.m.op_mut(add).loc = Location::new(7, 5);
    let ret = fx.ret(b);
    fx.m.op_mut(ret).loc = Location::new(8, 5);
    let err = verify(&fx.m).unwrap_err();
    assert_eq!(err.len(), 2, "{err}");
    let text = err.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "7:5: 'spirv.IAdd' op operand #1 has type f32, expected i32 (same as operand #0)",
            "8:5: 'spirv.Return' op returns no value, but function @f returns i32; expected spirv.ReturnValue",
        ]
    );
    let _: &dyn std::error::Error = &err;
}
