//! Every golden module survives print -> serialize -> deserialize -> print:
//! the deserialized module verifies and serializes to the same words.

use crate::common;

#[test]
fn golden_modules_round_trip_through_the_binary() {
    let files = common::golden_inputs();
    assert!(files.len() >= 20, "golden corpus missing");
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(path).unwrap();
        let module = kiln_core::text::parse(&src).unwrap();
        let printed = kiln_core::text::print(&module, &Default::default());
        let reparsed = kiln_core::text::parse(&printed).unwrap();
        let words = kiln_core::binary::serialize(&reparsed).unwrap();
        let back = match kiln_core::binary::deserialize(&words) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: deserialize: {e}"));
                continue;
            }
        };
        let text = kiln_core::text::print(&back, &Default::default());
        let back = match kiln_core::text::parse(&text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: reparse: {e}\n{text}"));
                continue;
            }
        };
        if let Err(e) = kiln_core::ir::verify::verify(&back) {
            failures.push(format!("{name}: verify: {e}\n{text}"));
            continue;
        }
        let again = match kiln_core::binary::serialize(&back) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: re-serialize: {e}\n{text}"));
                continue;
            }
        };
        if again != words {
            failures.push(format!("{name}: words differ\n{text}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// The ops of a function body, one name per op (`spirv.Constant`, ...), in
/// order, from printed text.
/// `text` parsed, serialized and deserialized (verified): the words and
/// the module printed back.
fn round_trip(text: &str) -> (Vec<u32>, String) {
    let module = kiln_core::text::parse(text).unwrap();
    let words = kiln_core::binary::serialize(&module).unwrap();
    let back = kiln_core::binary::deserialize(&words).unwrap();
    kiln_core::ir::verify::verify(&back).unwrap();
    (words, kiln_core::text::print(&back, &Default::default()))
}

fn op_names(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter_map(|l| {
            let l = l.split_once(" = ").map_or(l, |(_, r)| r);
            l.starts_with("spirv.")
                .then(|| l.split([' ', '(']).next().unwrap().to_string())
        })
        .filter(|n| n != "spirv.module" && n != "spirv.func")
        .collect()
}

#[test]
fn phi_operands_reuse_the_constant_already_in_the_block() {
    // A constant that is only a block argument once had a second, dead
    // copy (one placed in id order, one before the branch); MLIR 19 reads
    // the same binary with one.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @foo() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1.0 : f32
    spirv.Branch ^bb1(%zero, %one : i32, f32)
  ^bb1(%a: i32, %b: f32):
    spirv.Return
  }
}
"#;
    let module = kiln_core::text::parse(src).unwrap();
    let words = kiln_core::binary::serialize(&module).unwrap();
    let back = kiln_core::binary::deserialize(&words).unwrap();
    let ours = kiln_core::text::print(&back, &Default::default());
    let dir = std::env::temp_dir().join(format!("kiln-phi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join("phi.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes).unwrap();
    let out = std::process::Command::new("mlir-translate-19")
        .arg("--deserialize-spirv")
        .arg(&spv)
        .output()
        .expect("mlir-translate-19 (ci/setup.sh installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mlir = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        op_names(&ours),
        op_names(&mlir),
        "kiln:\n{ours}\nMLIR 19:\n{mlir}"
    );
    assert_eq!(
        op_names(&ours),
        [
            "spirv.Constant",
            "spirv.Constant",
            "spirv.Branch",
            "spirv.Return"
        ]
    );
}

#[test]
fn a_construct_after_an_endless_loop_stays_in_the_same_block() {
    // Regression (fuzz/regressions/binary_deserialize/identity-loop-constants.spv,
    // found as "importing kiln's own output changes it"): the merge block
    // of a loop without a break is unreachable; the serializer writes the
    // code after the loop there, ending in an `OpBranch` to the next
    // selection's header. The structurizer only counted reachable blocks
    // as the header's entering predecessor, so the selection got a block of
    // its own — and one more empty block on every round trip.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f(%c: i1) "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:
      spirv.Branch ^bb2
    ^bb2:
      spirv.Branch ^bb1
    ^bb3:
      spirv.mlir.merge
    }
    %one = spirv.Constant 1 : i32
    spirv.Store "Function" %v, %one : i32
    spirv.mlir.selection {
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      spirv.Store "Function" %v, %one : i32
      spirv.Branch ^bb2
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    assert_eq!(
        op_names(&once),
        [
            "spirv.Variable",
            "spirv.mlir.loop",
            "spirv.Branch",
            "spirv.Branch",
            "spirv.Branch",
            "spirv.mlir.merge",
            "spirv.Constant",
            "spirv.Store",
            "spirv.mlir.selection",
            "spirv.BranchConditional",
            "spirv.Constant",
            "spirv.Store",
            "spirv.Branch",
            "spirv.mlir.merge",
            "spirv.Return"
        ],
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn constants_numbered_before_a_used_one_come_before_its_user() {
    // Regression (the 10 inputs fuzz/regressions/binary_deserialize/identity-sweep-*.spv,
    // found as "importing kiln's own output changes it"): kiln wrote 63
    // before 55, but an instruction with no id of its own (the store)
    // uses 55 first. The deserializer materialized 55 at the store and 63
    // only before the next instruction with an id, so the serializer
    // numbered them the other way round on every second trip.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f() "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    %a = spirv.Constant 63 : i32
    %b = spirv.Constant 55 : i32
    spirv.Store "Function" %v, %b : i32
    %x = spirv.Load "Function" %v : i32
    %y = spirv.BitwiseAnd %x, %a : i32
    spirv.Store "Function" %v, %y : i32
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant 63") < at("spirv.Constant 55")
            && at("spirv.Constant 55") < at("spirv.Store"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn a_constituent_used_first_brings_its_composite_before_the_user() {
    // Regression (fuzz/regressions/binary_deserialize/identity-constituent-used-first-by-a-store.spv,
    // found as "importing kiln's own output changes it"): kiln numbers a
    // composite constant's constituents right before it (6, then 52 and 1
    // with the dead vector), so the constant 1 is not on the timeline of
    // its own. A store (no id) used it first: the deserializer put 1 at the
    // store and 6 and the vector only before the next instruction with an
    // id, so the serializer numbered 1 before 6 and 52 on every second
    // trip. The vector now comes before the store, with 6 before it.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f() "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    %a = spirv.Constant 6 : i32
    %d = spirv.Constant dense<[52, 1, 1]> : vector<3xi32>
    %one = spirv.Constant 1 : i32
    spirv.Store "Function" %v, %one : i32
    %x = spirv.Load "Function" %v : i32
    %y = spirv.UMod %x, %a : i32
    spirv.Store "Function" %v, %y : i32
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant 6") < at("spirv.Constant dense<[52, 1, 1]>")
            && at("spirv.Constant dense<[52, 1, 1]>") < at("spirv.Store"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn a_constant_numbered_before_a_composite_holding_it_keeps_its_own_place() {
    // Regression (fuzz/regressions/binary_deserialize/identity-constant-before-its-composite-*.spv,
    // found as "importing kiln's own output changes it" by the sweep after
    // the fix above): kiln wrote 1 on its own, then the vector (32 with
    // it, 1 reused). Only a type or a constituent lies between 1 and the
    // vector, so 1 counted as emitted with it, and the store's use of 1
    // put the vector before the store: 32 got the smaller id. The
    // serializer numbers a composite's new parts in the order it meets
    // them (32 first), so 1, numbered before 32, was not one of them.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f() "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    %one = spirv.Constant 1 : i32
    spirv.Store "Function" %v, %one : i32
    %d = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
    %x = spirv.Load "Function" %v : i32
    spirv.Store "Function" %v, %x : i32
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant 1 ") < at("spirv.Store")
            && at("spirv.Store") < at("spirv.Constant dense<[32, 1, 1]>"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn variables_after_the_last_instruction_keep_their_place_among_constants() {
    // Regression (fuzz/regressions/binary_deserialize/identity-unreached-variable-initializer-*.spv,
    // found as "importing kiln's own output changes it" by a sweep): no
    // instruction with an id follows the variables, so the timeline
    // reached neither them nor the constants numbered between them. It
    // placed every such variable first (with its initializer) and the
    // constants after, so `false` moved before 10.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f() "None" {
    %t = spirv.Constant true
    %a = spirv.Variable init(%t) : !spirv.ptr<i1, Function>
    %x = spirv.Constant 10 : i32
    %f = spirv.Constant false
    %b = spirv.Variable init(%f) : !spirv.ptr<i1, Function>
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant true") < at("spirv.Constant 10")
            && at("spirv.Constant 10") < at("spirv.Constant false"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn a_constant_numbered_before_the_next_blocks_phis_stays_before_the_branch() {
    // Regression (fuzz/regressions/binary_deserialize/identity-constant-before-continue-phis-472966.spv,
    // found as "importing kiln's own output changes it" by a sweep): the
    // serializer numbers a block's phis when it starts writing the block,
    // right after the previous block's terminator. A dead constant kiln
    // numbered between them (3, at the end of the loop header) waited for
    // the continue block's first phi and landed after the block argument,
    // which then took the smaller id.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f(%n: i32) "None" {
    %zero = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%zero : i32)
    ^bb1(%i: i32):
      %one = spirv.Constant 1 : i32
      %next = spirv.IAdd %i, %one : i32
      %c = spirv.ULessThan %next, %n : i32
      %dead = spirv.Constant 3 : i32
      spirv.BranchConditional %c, ^bb2(%next : i32), ^bb3
    ^bb2(%j: i32):
      spirv.Branch ^bb1(%j : i32)
    ^bb3:
      spirv.mlir.merge
    }
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant 3") < at("spirv.BranchConditional"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn a_barrier_using_an_older_constant_comes_after_the_constants_before_it() {
    // Regression (fuzz/regressions/binary_deserialize/identity-barrier-reuses-an-older-scope-constant-759326.spv,
    // found as "importing kiln's own output changes it" by a sweep): kiln
    // wrote 0 and 63, then the barrier, whose scope reuses 0 and whose
    // semantics (264) it numbered at the barrier. Everything numbered
    // before the smallest scope / semantics id (0) counted as before the
    // barrier, so 63 came after it and the barrier's 264 took its id.
    // Only the top run of them, numbered in operand order, is the
    // barrier's own.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f() "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    %a = spirv.Constant 0 : i32
    %b = spirv.Constant 63 : i32
    spirv.ControlBarrier <CrossDevice>, <CrossDevice>, <AcquireRelease|WorkgroupMemory>
    %x = spirv.IAdd %a, %b : i32
    spirv.Store "Function" %v, %x : i32
    spirv.Return
  }
}
"#;
    let (words1, once) = round_trip(src);
    let at = |needle: &str| {
        once.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {once}"))
    };
    assert!(
        at("spirv.Constant 63") < at("spirv.ControlBarrier"),
        "{once}"
    );
    let (words2, twice) = round_trip(&once);
    assert_eq!(twice, once, "a second round trip changes the module");
    assert_eq!(words2, words1, "a second round trip changes the words");
}

#[test]
fn mlir_constant_forms_read_and_print_as_mlir_does() {
    // MLIR's `dense<...> : tensor<...>` form of a nested array constant
    // parses; an all-equal vector reads back as a splat (`dense<0>`); an
    // array of i64 elides the element type (MLIR's printer does both).
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64], []> {
  spirv.func @f() -> (!spirv.array<2 x !spirv.array<3 x i32>>) "None" {
    %0 = spirv.Constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> : !spirv.array<2 x !spirv.array<3 x i32>>
    spirv.ReturnValue %0 : !spirv.array<2 x !spirv.array<3 x i32>>
  }
  spirv.func @g() -> (vector<3xf32>) "None" {
    %0 = spirv.Constant dense<[0.5, 0.5, 0.5]> : vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }
  spirv.func @h() -> (!spirv.array<3 x i64>) "None" {
    %0 = spirv.Constant [5, 6, 7] : !spirv.array<3 x i64>
    spirv.ReturnValue %0 : !spirv.array<3 x i64>
  }
}
"#;
    let module = kiln_core::text::parse(src).unwrap();
    kiln_core::ir::verify::verify(&module).unwrap();
    let words = kiln_core::binary::serialize(&module).unwrap();
    let back = kiln_core::binary::deserialize(&words).unwrap();
    let text = kiln_core::text::print(&back, &Default::default());
    for line in [
        "spirv.Constant [[1 : i32, 2 : i32, 3 : i32], [4 : i32, 5 : i32, 6 : i32]] : !spirv.array<2 x !spirv.array<3 x i32>>",
        "spirv.Constant dense<5.000000e-01> : vector<3xf32>",
        "spirv.Constant [5, 6, 7] : !spirv.array<3 x i64>",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
    assert_eq!(
        kiln_core::binary::serialize(&back).unwrap(),
        words,
        "the module does not round-trip to the same words"
    );
    // A tensor whose shape is not the array's is an error, not a panic.
    let bad = src.replace("tensor<2x3xi32>", "tensor<3x2xi32>");
    let module = kiln_core::text::parse(&bad).unwrap();
    let err = kiln_core::ir::verify::verify(&module).unwrap_err();
    assert!(format!("{err:?}").contains("array element"), "{err:?}");
}

#[test]
fn binaries_from_mlir_import_without_dead_constant_copies() {
    // MLIR 19 gives a constant its id where the source defines it (here at
    // the top of the function), and the deserializer places constants in
    // id order: uses inside the loop once got copies of their own, which
    // left the copy at the top dead (23 dead constants over the 33 binaries
    // of MLIR's own round-trip tests). A constant at the top of the
    // function dominates every later use, which now reuses it.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %ten = spirv.Constant 10 : i32
    %var = spirv.Variable init(%zero) : !spirv.ptr<i32, Function>
    %acc = spirv.Variable init(%zero) : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header
    ^header:
      %i = spirv.Load "Function" %var : i32
      %cmp = spirv.SLessThan %i, %ten : i32
      spirv.BranchConditional %cmp, ^body, ^merge
    ^body:
      %odd = spirv.BitwiseAnd %i, %one : i32
      %is_odd = spirv.IEqual %odd, %one : i32
      spirv.mlir.selection {
        spirv.BranchConditional %is_odd, ^then, ^sel_merge
      ^then:
        %a = spirv.Load "Function" %acc : i32
        %b = spirv.IAdd %a, %two : i32
        spirv.Store "Function" %acc, %b : i32
        spirv.Branch ^sel_merge
      ^sel_merge:
        spirv.mlir.merge
      }
      spirv.Branch ^continue
    ^continue:
      %j = spirv.IAdd %i, %one : i32
      spirv.Store "Function" %var, %j : i32
      spirv.Branch ^header
    ^merge:
      spirv.mlir.merge
    }
    %p = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>
    %q = spirv.AccessChain %p[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %r = spirv.Load "Function" %acc : i32
    spirv.Store "StorageBuffer" %q, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
"#;
    let dir = std::env::temp_dir().join(format!("kiln-mlir-consts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("loop.mlir");
    let spv = dir.join("loop.spv");
    std::fs::write(&input, src).unwrap();
    let out = std::process::Command::new("mlir-translate-19")
        .arg("--no-implicit-module")
        .arg("--serialize-spirv")
        .arg(&input)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("mlir-translate-19 (ci/setup.sh installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&spv).unwrap();
    let words = kiln_core::binary::words_from_bytes(&bytes).unwrap();
    let module = kiln_core::binary::deserialize(&words).unwrap();
    kiln_core::ir::verify::verify(&module).unwrap();
    let text = kiln_core::text::print(&module, &Default::default());
    let constants: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().split_once(" = spirv.Constant").map(|(n, _)| n))
        .collect();
    for name in &constants {
        let uses = text
            .match_indices(name)
            .filter(|(i, _)| {
                let next = text[i + name.len()..].chars().next();
                !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
            .count();
        assert!(uses >= 2, "{name} is a dead constant in\n{text}");
    }
    // One copy each of 0, 1, 2 and 10, at the top of the function.
    assert_eq!(constants.len(), 4, "{text}");
    // And the import is a fixed point for kiln's serializer.
    let once = kiln_core::binary::serialize(&module).unwrap();
    let again =
        kiln_core::binary::serialize(&kiln_core::binary::deserialize(&once).unwrap()).unwrap();
    assert_eq!(once, again);
}

#[test]
fn construct_blocks_come_back_in_breadth_first_order() {
    // The serializer writes a construct's blocks depth-first (header,
    // then, join, else); the deserializer orders them breadth-first from
    // the header (then, else, join), as MLIR's does — here, as written.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f(%c: i1) "None" {
    %v = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %c, ^then, ^else
    ^then:
      %one = spirv.Constant 1 : i32
      spirv.Branch ^join(%one : i32)
    ^else:
      %two = spirv.Constant 2 : i32
      spirv.Branch ^join(%two : i32)
    ^join(%x: i32):
      spirv.Store "Function" %v, %x : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
}
"#;
    let module = kiln_core::text::parse(src).unwrap();
    let words = kiln_core::binary::serialize(&module).unwrap();
    let back = kiln_core::binary::deserialize(&words).unwrap();
    let text = kiln_core::text::print(&back, &Default::default());
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("no `{s}` in\n{text}"))
    };
    assert!(at("spirv.Constant 1") < at("spirv.Constant 2"), "{text}");
    assert!(at("spirv.Constant 2") < at("spirv.Store"), "{text}");
    assert_eq!(kiln_core::binary::serialize(&back).unwrap(), words);
}
