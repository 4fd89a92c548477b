//! Negative cases of the text parser: each asserts the exact
//! `line:col: message`, and the parser never panics on malformed input
//! (every prefix of every golden file, mutations, and random garbage).

use std::path::Path;

use kiln_core::ir::OpKind;
use kiln_core::text;

/// Parses `src` and returns the error rendered as `line:col: message`.
fn error_of(src: &str) -> String {
    match text::parse(src) {
        Ok(_) => panic!("expected a parse error for:\n{src}"),
        Err(e) => e.to_string(),
    }
}

/// Wraps function-body lines in a module with one function `@f(%a: i32, %b: i32)`.
fn in_func(body: &str) -> String {
    format!(
        "spirv.module Logical GLSL450 {{\n  spirv.func @f(%a: i32, %b: i32) \"None\" {{\n{body}\n  }}\n}}\n"
    )
}

#[test]
fn generic_op_needs_colon_after_operands() {
    let src = in_func("    %0 = \"spirv.IAdd\"(%a, %b) -> i32");
    assert_eq!(
        error_of(&src),
        "3:31: expected ':' after operand list, found '->'"
    );
}

#[test]
fn unterminated_region_points_at_its_brace() {
    let src = "spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    spirv.Return\n";
    assert_eq!(
        error_of(src),
        "2:26: unterminated region: expected '}' before end of input"
    );
}

#[test]
fn unknown_spirv_op_is_named() {
    let src = in_func("    spirv.Foo %a : i32");
    assert_eq!(error_of(&src), "3:5: unknown op 'spirv.Foo'");
    let src = in_func("    %0 = \"spirv.Xyz\"(%a) : (i32) -> i32");
    assert_eq!(error_of(&src), "3:10: unknown op 'spirv.Xyz'");
}

#[test]
fn undefined_value_is_reported_at_its_use() {
    let src = in_func("    %0 = spirv.IAdd %a, %x : i32\n    spirv.Return");
    assert_eq!(error_of(&src), "3:25: use of undefined value '%x'");
}

#[test]
fn expected_type() {
    let src = in_func("    %0 = spirv.IAdd %a, %b : 42");
    assert_eq!(error_of(&src), "3:30: expected type, found '42'");
}

#[test]
fn operand_count_must_match_the_function_type() {
    let src = in_func("    %0 = \"spirv.IAdd\"(%a, %b) : (i32) -> i32");
    assert_eq!(error_of(&src), "3:31: expected 2 operand types but had 1");
}

#[test]
fn result_count_must_match_the_names_bound() {
    let src = in_func("    %0, %1 = \"spirv.IAdd\"(%a, %b) : (i32, i32) -> i32");
    assert_eq!(
        error_of(&src),
        "3:14: operation defines 1 results but was provided 2 to bind"
    );
}

#[test]
fn redefinition_and_type_mismatch() {
    let src = in_func("    %a = spirv.IAdd %a, %b : i32");
    assert_eq!(error_of(&src), "3:5: redefinition of SSA value '%a'");
    let src = in_func("    %0 = spirv.FAdd %a, %b : f32");
    assert_eq!(
        error_of(&src),
        "3:21: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'"
    );
}

#[test]
fn undefined_block() {
    let src = in_func("    spirv.Branch ^bb7");
    assert_eq!(
        error_of(&src),
        "3:18: reference to an undefined block '^bb7'"
    );
}

#[test]
fn unknown_enumerants() {
    let src = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Bogus], []> {\n}\n";
    assert_eq!(error_of(src), "1:65: unknown capability 'Bogus'");
    let src =
        "spirv.module Logical GLSL450 {\n  spirv.GlobalVariable @v : !spirv.ptr<f32, Nowhere>\n}\n";
    assert_eq!(error_of(src), "2:45: unknown storage class 'Nowhere'");
    let src = "spirv.module Logical GLSL450 {\n  spirv.func @f() \"Sometimes\" {\n  }\n}\n";
    assert_eq!(error_of(src), "2:19: unknown FunctionControl 'Sometimes'");
    let src = "spirv.module Flat GLSL450 {\n}\n";
    assert_eq!(error_of(src), "1:14: unknown addressing model 'Flat'");
}

#[test]
fn literal_out_of_range() {
    let src = in_func("    %0 = spirv.Constant 300 : i8");
    assert_eq!(
        error_of(&src),
        "3:25: integer constant out of range for its type"
    );
    let src = in_func("    %0 = spirv.Constant -1 : ui32");
    assert_eq!(
        error_of(&src),
        "3:25: integer constant out of range for its type"
    );
}

#[test]
fn module_count() {
    assert_eq!(
        error_of("// nothing here\n"),
        "2:1: expected a 'spirv.module' op in the input"
    );
    let two = "spirv.module Logical GLSL450 {\n}\nspv.module Logical GLSL450 {\n}\n";
    assert_eq!(
        error_of(two),
        "3:1: more than one spirv.module in the input; kiln handles one module per text"
    );
}

#[test]
fn op_without_custom_form() {
    let src = in_func("    %0 = spirv.ImageQuerySize %a : i32");
    assert_eq!(
        error_of(&src),
        "3:10: op 'spirv.ImageQuerySize' has no custom assembly form; write it in the generic form \"spirv.ImageQuerySize\"(...)"
    );
}

#[test]
fn struct_access_needs_constant_index() {
    let src = "spirv.module Logical GLSL450 {\n  spirv.func @f(%p: !spirv.ptr<!spirv.struct<(f32, i32)>, Function>, %i: i32) \"None\" {\n    %0 = spirv.AccessChain %p[%i] : !spirv.ptr<!spirv.struct<(f32, i32)>, Function>, i32\n  }\n}\n";
    assert_eq!(
        error_of(src),
        "3:10: index must be an integer spirv.Constant to access element of spirv.struct"
    );
}

#[test]
fn lexical_errors() {
    assert_eq!(
        error_of("spirv.module Logical GLSL450 attributes {a = \"open}\n}\n"),
        "1:46: expected '\"' in string literal"
    );
    assert_eq!(
        error_of("spirv.module Logical GLSL450 {\n  $\n}\n"),
        "2:3: unexpected character '$'"
    );
}

#[test]
fn parse_error_display_and_fields() {
    let e = text::parse(&in_func("    spirv.Foo")).unwrap_err();
    assert_eq!((e.loc.line, e.loc.col), (3, 5));
    assert_eq!(e.message, "unknown op 'spirv.Foo'");
    let _: &dyn std::error::Error = &e;
}

#[test]
fn foreign_ops_parse_for_the_verifier() {
    let src = "spirv.module Logical GLSL450 {\n  spirv.func @f(%a: f32) \"None\" {\n    %0 = arith.addf %a, %a : f32\n    %1 = \"foo.bar\"(%a) {k = 1 : i32} : (f32) -> f32\n    spirv.Return\n  }\n  gpu.module @k {\n    gpu.func @g() kernel {\n      gpu.return\n    }\n  }\n}\n";
    let m = text::parse(src).expect("foreign ops parse");
    let mut foreign = Vec::new();
    m.walk(m.top(), &mut |op| {
        if let OpKind::Foreign(name) = &m.op(op).kind {
            foreign.push((name.clone(), m.op(op).loc.line, m.op(op).loc.col));
        }
    });
    assert_eq!(
        foreign,
        vec![
            ("arith.addf".to_string(), 3, 10),
            ("foo.bar".to_string(), 4, 10),
            ("gpu.module".to_string(), 7, 3)
        ]
    );
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn golden_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/golden exists") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".mlir") && !name.ends_with(".out.mlir") {
            out.push((name, std::fs::read_to_string(&path).expect("readable")));
        }
    }
    out.sort();
    assert!(
        out.len() >= 40,
        "golden corpus missing ({} files)",
        out.len()
    );
    out
}

/// Parses `src`, which may fail but must not panic.
fn must_not_panic(what: &str, src: &str) {
    let r = std::panic::catch_unwind(|| {
        let _ = text::parse(src);
    });
    assert!(r.is_ok(), "parser panicked on {what}:\n{src}");
}

#[test]
fn every_prefix_of_every_golden_file_parses_or_fails_cleanly() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let sources = golden_sources();
    // Work units of similar cost (parsing a prefix costs about its length),
    // shared by one worker per core.
    let mut units: Vec<(usize, usize, usize)> = Vec::new();
    for (i, (_, src)) in sources.iter().enumerate() {
        let mut start = 0;
        let mut cost = 0;
        for len in 0..=src.len() {
            cost += len;
            if cost > 2_000_000 || len == src.len() {
                units.push((i, start, len + 1));
                start = len + 1;
                cost = 0;
            }
        }
    }
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let u = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(i, from, to)) = units.get(u) else {
                    break;
                };
                let (name, src) = &sources[i];
                for len in from..to.min(src.len()) {
                    if src.is_char_boundary(len) {
                        must_not_panic(&format!("{name}[..{len}]"), &src[..len]);
                    }
                }
            });
        }
    });
}

#[test]
fn mutated_golden_files_and_garbage_never_panic() {
    let sources = golden_sources();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let alphabet: &[&str] = &[
        "%0",
        "%a",
        "^bb1",
        "@f",
        "#spirv.vce<",
        "!spirv.ptr<",
        "!spirv.struct<(",
        "spirv.IAdd",
        "spirv.func",
        "spirv.module",
        "\"spirv.Load\"",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "<",
        ">",
        ",",
        ":",
        "=",
        "->",
        "i32",
        "vector<4xf32>",
        "dense<",
        "0x7FC00000",
        "1.5",
        "-",
        "\"",
        "//",
        "\n",
        " ",
        "loc(",
        "#loc",
        "Logical",
        "GLSL450",
        "^",
        "%",
        "#",
        "!",
        "x",
        "4x",
        "array<i32:",
        "true",
        "unit",
        "::",
        "...",
    ];
    for round in 0..3000 {
        let (name, src) = &sources[rng.below(sources.len())];
        let mut bytes = src.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, b"(){}[]<>,:=%^@#!\"-x0"[rng.below(20)]),
                2 => {
                    let tok = alphabet[rng.below(alphabet.len())];
                    bytes.splice(at..at, tok.bytes());
                }
                _ => {
                    let end = (at + rng.below(40)).min(bytes.len());
                    bytes.drain(at..end);
                }
            }
        }
        let mutated = String::from_utf8_lossy(&bytes).into_owned();
        must_not_panic(&format!("mutation {round} of {name}"), &mutated);
    }
    for round in 0..3000 {
        let mut s = String::new();
        for _ in 0..rng.below(60) {
            s.push_str(alphabet[rng.below(alphabet.len())]);
            if rng.below(3) == 0 {
                s.push(' ');
            }
        }
        must_not_panic(&format!("garbage {round}"), &s);
        let raw: Vec<u8> = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
        must_not_panic(
            &format!("random bytes {round}"),
            &String::from_utf8_lossy(&raw),
        );
    }
    // Deep nesting is an error, not a stack overflow.
    let deep = format!(
        "spirv.module Logical GLSL450 {{\n  spirv.GlobalVariable @v : {}f32{}\n}}\n",
        "vector<1x".repeat(5000),
        ">".repeat(5000)
    );
    assert!(text::parse(&deep).is_err());
    let deep_attr = format!(
        "spirv.module Logical GLSL450 attributes {{a = {}1{}}} {{\n}}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert!(text::parse(&deep_attr).is_err());
}

#[test]
fn deeply_nested_regions_fail_cleanly() {
    let mut src = String::from("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n");
    for _ in 0..3000 {
        src.push_str("spirv.mlir.selection {\n");
    }
    src.push_str("spirv.mlir.merge\n");
    for _ in 0..3000 {
        src.push_str("}\n");
    }
    src.push_str("spirv.Return\n  }\n}\n");
    let e = text::parse(&src).unwrap_err();
    assert!(e.message.contains("nesting too deep"), "{e}");
}

#[test]
fn module_body_is_one_block() {
    let m = text::parse("spirv.module Logical GLSL450 {\n}\n").expect("empty module");
    assert!(m.module_ops().is_empty());
    assert_eq!(
        error_of("spirv.module Logical GLSL450 {\n^bb0:\n  spirv.Return\n^bb1:\n}\n"),
        "1:1: 'spirv.module' body must be a single block without labels"
    );
    assert_eq!(
        error_of("\"spirv.module\"() <{addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>}> : () -> ()\n"),
        "1:1: 'spirv.module' must have exactly one region"
    );
}

#[test]
fn huge_operand_segment_sizes_are_an_error() {
    let src = "spirv.module Logical GLSL450 {\n  spirv.func @f(%c: i1, %x: i32) \"None\" {\n    \"spirv.BranchConditional\"(%c, %x)[^bb1, ^bb1] <{operandSegmentSizes = array<i64: 9223372036854775807, 9223372036854775807, 9223372036854775807>}> : (i1, i32) -> ()\n  ^bb1(%y: i32):\n    spirv.Return\n  }\n}\n";
    assert_eq!(
        error_of(src),
        "3:5: operand segment sizes do not match the operands and successors"
    );
}

#[test]
fn a_missing_token_at_a_line_end_is_reported_there() {
    // As MLIR: not at the next line's first token.
    let src = in_func("    %0 = spirv.IAdd %a, %b\n\n    spirv.Return");
    let e = error_of(&src);
    assert!(e.starts_with("3:27: expected ':'"), "{e}");
}
