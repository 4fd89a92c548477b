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
    let round_trip = |text: &str| {
        let module = kiln_core::text::parse(text).unwrap();
        let words = kiln_core::binary::serialize(&module).unwrap();
        let back = kiln_core::binary::deserialize(&words).unwrap();
        kiln_core::ir::verify::verify(&back).unwrap();
        (words, kiln_core::text::print(&back, &Default::default()))
    };
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
