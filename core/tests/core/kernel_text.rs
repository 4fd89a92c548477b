//! The kernel text form: parsing MLIR 19's syntax, printing it back, and
//! checking both against `mlir-opt-19` (ci/setup.sh installs it; a missing
//! tool fails the tests that use it).

use crate::common;

use std::path::{Path, PathBuf};

use kiln_core::kernel;

fn kernel_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/kernels exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable test file")
}

#[test]
fn every_file_round_trips() {
    for path in kernel_files() {
        let src = read(&path);
        let m = kernel::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let once = kernel::print(&m);
        let m2 = kernel::parse(&once)
            .unwrap_or_else(|e| panic!("{}: reparse: {e}\n{once}", path.display()));
        let twice = kernel::print(&m2);
        assert_eq!(once, twice, "{}", path.display());
    }
}

/// `mlir-opt-19` on `text`: what it prints, or `Err` with its stderr when it
/// rejects the input. A tool that cannot start fails the test.
fn mlir_opt(text: &str) -> Result<String, String> {
    let out = common::run_tool("mlir-opt-19", &[], text);
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn mlir_opt_accepts_inputs_and_prints_the_same_for_ours() {
    for path in kernel_files() {
        let src = read(&path);
        let theirs = mlir_opt(&src)
            .unwrap_or_else(|e| panic!("{}: mlir-opt rejects the input: {e}", path.display()));
        let ours = kernel::print(&kernel::parse(&src).expect("parses"));
        let via_ours = mlir_opt(&ours).unwrap_or_else(|e| {
            panic!(
                "{}: mlir-opt rejects our print: {e}\n{ours}",
                path.display()
            )
        });
        assert_eq!(theirs, via_ours, "{}", path.display());
        // And mlir-opt's own output parses and prints to what ours does.
        let from_theirs = kernel::print(&kernel::parse(&theirs).expect("parses mlir-opt output"));
        assert_eq!(from_theirs, ours, "{}", path.display());
    }
}

#[test]
fn every_prefix_of_every_file_parses_or_fails_cleanly() {
    for path in kernel_files() {
        let src = read(&path);
        for end in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
            if let Err(e) = kernel::parse(&src[..end]) {
                assert!(e.loc.line >= 1 && !e.message.is_empty(), "{e:?}");
            }
        }
    }
}

#[test]
fn errors_name_the_place_and_the_problem() {
    let cases: &[(&str, &str, u32, u32)] = &[
        (
            "func.func @f() {\n  %0 = arith.frobnicate %a : i32\n}",
            "unknown operation 'arith.frobnicate'",
            2,
            8,
        ),
        (
            "func.func @f(%a: i32) {\n  %0 = arith.addi %a, %b : i32\n  return\n}",
            "use of undefined value '%b'",
            2,
            23,
        ),
        (
            "module {\n  spirv.module Logical GLSL450 {\n  }\n}",
            "'spirv.module' is already-lowered SPIR-V dialect IR",
            2,
            3,
        ),
        (
            "func.func @f(%a: i32, %b: f32) {\n  %0 = arith.addi %a, %b : i32\n  return\n}",
            "operand has type f32 but the op's type is i32",
            2,
            8,
        ),
        (
            "module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<\n  #spirv.vce<v1.0, [Shader], [SPV_FOO]>, #spirv.resource_limits<>>} {\n}",
            "invalid #spirv.target_env: unknown extension 'SPV_FOO'",
            2,
            31,
        ),
        (
            // A missing token at the end of a line is reported there, not at
            // the next line's first token (as MLIR does).
            "func.func @f(%a: i32) {\n  %0, %1 = arith.addui_extended %a, %a : i32\n\n  // note\n  return\n}",
            "expected ',', found 'return'",
            2,
            45,
        ),
        (
            "func.func @f(%a: i32) {\n  %0 = spirv.BitCount %a : i32\n  return\n}",
            "'spirv.BitCount': SPIR-V dialect ops are accepted only inside a gpu.func",
            2,
            8,
        ),
        (
            "gpu.module @m {\n  gpu.func @k(%i: index) kernel {\n    %0 = spirv.BitCount %i : i32\n    gpu.return\n  }\n}",
            "'spirv.BitCount': operand 0 has type index, but SPIR-V ops in a kernel take scalars and vectors",
            3,
            10,
        ),
        (
            "gpu.module @m {\n  gpu.func @k(%a: i32) kernel {\n    %0 = spirv.IAdd %a : i32\n    gpu.return\n  }\n}",
            "'spirv.IAdd': expected ',', found ':'",
            3,
            10,
        ),
        (
            "gpu.module @m {\n  gpu.func @k(%a: i32) kernel {\n    spirv.mlir.selection {\n    }\n    gpu.return\n  }\n}",
            "'spirv.mlir.selection' is not accepted in a kernel body",
            3,
            5,
        ),
        (
            "gpu.module @m {\n  gpu.func @k(%a: i32) kernel {\n    %0 = spirv.IAdd %a, %zz : i32\n    gpu.return\n  }\n}",
            "use of undefined value '%zz'",
            3,
            25,
        ),
        (
            "func.func @f(%a: i32) {\n  %a = arith.constant 1 : i32\n  return\n}",
            "redefinition of SSA value '%a'",
            2,
            3,
        ),
        (
            "func.func @f(%v: f32) {\n  %r = gpu.subgroup_reduce add %v cluster(size = 4) : (f32) -> f32\n  return\n}",
            "'cluster(...)' of gpu.subgroup_reduce is not in MLIR 19's syntax",
            2,
            35,
        ),
        (
            "func.func @f(%m: memref<4xsi32>) {\n  return\n}",
            "type 'si32' is not supported in kernels: integers are signless (iN)",
            1,
            27,
        ),
        (
            "func.func @f() {\n  %c = arith.constant dense<[1, 2, 3]> : vector<2xi32>\n  return\n}",
            "dense<...> has 3 elements, the type vector<2xi32> needs 2",
            2,
            23,
        ),
        (
            "func.func @f() attributes {x = #foo.bar<1>} {\n  return\n}",
            "unsupported attribute '#foo.bar'",
            1,
            32,
        ),
        (
            "func.func @f(%c: i32) {\n  scf.if %c {\n  }\n  return\n}",
            "use of value with type i32 where i1 is expected",
            2,
            10,
        ),
        (
            "func.func @f() {\n  %a, %b = arith.constant 1 : i32\n  return\n}",
            "operation 'arith.constant' defines 1 results but 2 names are given",
            2,
            3,
        ),
    ];
    for &(src, message, line, col) in cases {
        let e = kernel::parse(src).expect_err(src);
        assert!(e.message.contains(message), "{src}: got {e}");
        assert_eq!((e.loc.line, e.loc.col), (line, col), "{src}: got {e}");
    }
}

#[test]
fn the_test_files_use_every_kernel_op() {
    let mut seen = std::collections::BTreeSet::new();
    for path in kernel_files() {
        let m = kernel::parse(&read(&path)).expect("parses");
        m.walk(m.top(), &mut |op| {
            seen.insert(m.op(op).kind);
        });
    }
    let missing: Vec<&str> = kernel::KOpKind::ALL
        .iter()
        .filter(|k| !seen.contains(k))
        .map(|k| k.name())
        .collect();
    assert!(missing.is_empty(), "ops no test file uses: {missing:?}");
}

#[test]
fn every_file_verifies() {
    for path in kernel_files() {
        let m = kernel::parse(&read(&path)).expect("parses");
        if let Err(e) = kernel::verify(&m) {
            panic!("{}:\n{e}", path.display());
        }
    }
}

/// Parses `src` (which must parse) and returns the verifier's messages.
fn verify_errors(src: &str) -> Vec<String> {
    let m = kernel::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    match kernel::verify(&m) {
        Ok(()) => Vec::new(),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

#[test]
fn verifier_reports_every_violation_with_place_and_op() {
    // Each of these is also rejected by mlir-opt-19 (checked below when it
    // is installed), so the rules are MLIR's.
    let cases: &[(&str, &[&str])] = &[
        (
            // Wrong index count, a yield of the wrong type, a missing kernel.
            "module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<4x4xf32>, %i: index) kernel {
      %v = memref.load %m[%i] : memref<4x4xf32>
      %c = arith.constant 1 : i32
      %r = scf.for %k = %i to %i step %i iter_args(%a = %v) -> (f32) {
        scf.yield %c : i32
      }
      gpu.return
    }
  }
  func.func @main(%m: memref<4x4xf32>, %n: index) {
    gpu.launch_func @g::@nope blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<4x4xf32>)
    return
  }
}",
            &[
                "4:12: 'memref.load' expects 2 indices for memref<4x4xf32>, got 1",
                "6:12: 'scf.for' scf.yield types must match the loop results",
                "13:5: 'gpu.launch_func' kernel '@g::@nope' does not name a gpu.func",
            ],
        ),
        (
            // A kernel returning a value; a launch without gpu.container_module
            // and with mismatched argument types.
            "module {
  gpu.module @g {
    gpu.func @k(%x: f32) -> f32 kernel {
      gpu.return %x : f32
    }
  }
  func.func @main(%n: index, %y: i32) {
    gpu.launch_func @g::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%y : i32)
    return
  }
}",
            &[
                "3:5: 'gpu.func' a kernel must not return values",
                "8:5: 'gpu.launch_func' the module must have the 'gpu.container_module' attribute",
                "8:5: 'gpu.launch_func' argument types do not match the kernel's signature",
            ],
        ),
        (
            // scf.if with results but no else; a call to an unknown function.
            "func.func @f(%c: i1, %x: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    scf.yield %x : i32
  }
  %s = call @missing(%r) : (i32) -> i32
  return %s : i32
}",
            &[
                "2:8: 'scf.if' an scf.if with results needs an else branch",
                "5:8: 'func.call' callee '@missing' does not name a func.func",
            ],
        ),
    ];
    for (src, want) in cases {
        let got = verify_errors(src);
        assert_eq!(&got, want, "{src}");
        assert!(
            mlir_opt(src).is_err(),
            "mlir-opt-19 accepts a case the verifier rejects:\n{src}"
        );
    }
}

#[test]
fn builder_kernels_verify_print_and_parse_back() {
    use kernel::builder::{FuncOptions, KernelBuilder};
    use kernel::{KType, KernelModule, MemorySpace};

    let mut m = KernelModule::new();
    let mut b = KernelBuilder::new(&mut m);
    b.container_module();
    let gm = b.gpu_module("kernels");
    let f32v = KType::memref(&[64], KType::f32(), MemorySpace::Default);
    let mut opts = FuncOptions::kernel([16, 1, 1]);
    opts.workgroup = vec![KType::memref(&[16], KType::f32(), MemorySpace::Default)];
    let (_, args) = b.gpu_func(gm, "sum_rows", &[f32v.clone(), f32v.clone()], opts);
    let (input, output, shared) = (args[0], args[1], args[2]);
    let tid = b.thread_id("x");
    let c0 = b.const_index(0);
    let c1 = b.const_index(1);
    let c4 = b.const_index(4);
    let zero = b.const_float(0.0, KType::f32());
    let base = b.muli(tid, c4);
    let acc = b.for_(c0, c4, c1, &[zero], |b, k, iter| {
        let i = b.addi(base, k);
        let v = b.load(input, &[i]);
        let e = b.exp(v);
        let s = b.addf(iter[0], e);
        b.fastmath(s, "fast");
        vec![s]
    });
    b.store(acc[0], shared, &[tid]);
    b.barrier();
    let first = b.cmpi("eq", tid, c0);
    b.if_(
        first,
        &[],
        |b| {
            let c16 = b.const_index(16);
            let total = b.for_(c0, c16, c1, &[zero], |b, j, iter| {
                let v = b.load(shared, &[j]);
                vec![b.addf(iter[0], v)]
            });
            b.store(total[0], output, &[c0]);
            vec![]
        },
        None,
    );
    let halved = b.while_(
        &[acc[0]],
        &[KType::f32()],
        |b, vals| {
            let one = b.const_float(1.0, KType::f32());
            let big = b.cmpf("ogt", vals[0], one);
            (big, vec![vals[0]])
        },
        |b, vals| {
            let half = b.const_float(0.5, KType::f32());
            vec![b.mulf(vals[0], half)]
        },
    );
    let sg = b.subgroup_reduce("add", halved[0], false);
    b.store(sg, output, &[tid]);
    b.gpu_return(&[]);

    b.func_decl(
        "fillResource1DFloat",
        &[KType::MemRef {
            shape: vec![None],
            elem: Box::new(KType::f32()),
            layout: Default::default(),
            space: MemorySpace::Default,
        }],
        &[],
    );
    let (_, _) = b.func("main", &[], &[]);
    let a = b.alloc(f32v.clone());
    let out = b.alloc(f32v);
    let one = b.const_index(1);
    let four = b.const_index(4);
    b.launch_func(
        "kernels",
        "sum_rows",
        [one, one, one],
        [four, one, one],
        &[a, out],
    );
    b.func_return(&[]);

    kernel::verify(&m).unwrap_or_else(|e| panic!("{e}\n{}", kernel::print(&m)));
    let text = kernel::print(&m);
    let again = kernel::print(&kernel::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}")));
    assert_eq!(text, again);
    // The printed kernel has the structure that was built.
    assert!(
        text.contains("workgroup(%arg2 : memref<16xf32, #gpu.address_space<workgroup>>) kernel"),
        "{text}"
    );
    assert!(
        text.contains("arith.addf %arg4, %9 fastmath<fast> : f32"),
        "{text}"
    );
    assert!(
        text.contains("gpu.launch_func @kernels::@sum_rows blocks in"),
        "{text}"
    );
    mlir_opt(&text).unwrap_or_else(|e| panic!("mlir-opt-19 rejects the built kernel: {e}\n{text}"));
}

#[test]
fn seeds_spv_spellings_of_abi_and_target_attributes_parse() {
    use kernel::KAttr;
    use kiln_abi::{EntryPointAbi, InterfaceVarAbi};
    let src = r#"module attributes {
  gpu.container_module,
  spv.target_env = #spv.target_env<
    #spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>,
    ARM:IntegratedGPU,
    {
      max_compute_workgroup_invocations = 128 : i32,
      max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32>
    }>
} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<4xi32> {spv.interface_var_abi = #spv.interface_var_abi<(0, 2)>}) kernel
        attributes {spv.entry_point_abi = #spv.entry_point_abi<local_size = dense<[128, 1, 1]> : vector<3xi32>>} {
      %x = gpu.thread_id x
      %v = memref.load %arg0[%x] : memref<4xi32>
      %r = gpu.subgroup_reduce maxsi %v : (i32) -> (i32)
      memref.store %r, %arg0[%x] : memref<4xi32>
      gpu.return
    }
  }
}"#;
    let m = kernel::parse(src).unwrap_or_else(|e| panic!("{e}"));
    kernel::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let top = m.top();
    let Some(KAttr::TargetEnv(env)) = m.attr(top, "spv.target_env") else {
        panic!("target env not parsed: {:?}", m.attr(top, "spv.target_env"));
    };
    // The same env as kiln_core::target parses from the attribute alone.
    let alone = kiln_core::target::TargetEnv::parse_body(
        "#spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>, ARM:IntegratedGPU, { \
         max_compute_workgroup_invocations = 128 : i32, \
         max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32> }",
    )
    .expect("target parses it");
    assert_eq!(**env, alone);
    let gm = m.body_ops(top)[0];
    let k = m.body_ops(gm)[0];
    assert_eq!(
        m.attr(k, "spv.entry_point_abi"),
        Some(&KAttr::EntryPointAbi(EntryPointAbi::with_workgroup_size([
            128, 1, 1
        ])))
    );
    let Some(KAttr::Array(arg_attrs)) = m.attr(k, "arg_attrs") else {
        panic!("no arg_attrs");
    };
    assert_eq!(
        arg_attrs[0],
        KAttr::Dict(vec![(
            "spv.interface_var_abi".into(),
            KAttr::InterfaceVarAbi(InterfaceVarAbi::new(0, 2))
        )])
    );
    // Printed in MLIR 19's spelling, which mlir-opt-19 accepts.
    let text = kernel::print(&m);
    assert!(
        text.contains("#spirv.entry_point_abi<workgroup_size = [128, 1, 1]>"),
        "{text}"
    );
    assert!(text.contains("#spirv.interface_var_abi<(0, 2)>"), "{text}");
}

#[test]
fn literals_keep_their_values() {
    use kernel::{KAttr, KType};
    let src = "func.func @f() {
  %a = arith.constant 1.1 : f32
  %b = arith.constant 0x7FC00000 : f32
  %c = arith.constant -1 : i8
  %d = arith.constant 0xFF : i8
  %e = arith.constant true
  %f = arith.constant dense<[1.5, -2.0]> : vector<2xf16>
  %g = arith.constant 1.0e-07 : f64
  return
}";
    let m = kernel::parse(src).unwrap_or_else(|e| panic!("{e}"));
    let f = m.body_ops(m.top())[0];
    let vals: Vec<KAttr> = m
        .body_ops(f)
        .iter()
        .filter_map(|&op| m.attr(op, "value").cloned())
        .collect();
    assert_eq!(
        vals[0],
        KAttr::Float {
            value: 1.1f32 as f64,
            ty: KType::f32()
        }
    );
    let KAttr::Float { value, .. } = vals[1] else {
        panic!("not a float: {:?}", vals[1])
    };
    assert_eq!((value as f32).to_bits(), 0x7FC0_0000);
    assert_eq!(
        vals[2],
        KAttr::Int {
            value: -1,
            ty: KType::Int(8)
        }
    );
    assert_eq!(
        vals[3],
        KAttr::Int {
            value: -1,
            ty: KType::Int(8)
        }
    );
    assert_eq!(
        vals[4],
        KAttr::Int {
            value: 1,
            ty: KType::bool()
        }
    );
    let KAttr::DenseFloats { values, .. } = &vals[5] else {
        panic!("not dense floats: {:?}", vals[5])
    };
    assert_eq!(values, &vec![1.5, -2.0]);
    assert_eq!(
        vals[6],
        KAttr::Float {
            value: 1.0e-07,
            ty: KType::Float(kernel::FloatTy::F64)
        }
    );
    // mlir-opt-19 prints the same constants for our text as for the source.
    let ours = kernel::print(&m);
    let a = mlir_opt(src).unwrap_or_else(|e| panic!("mlir-opt-19 rejects the source: {e}\n{src}"));
    let b =
        mlir_opt(&ours).unwrap_or_else(|e| panic!("mlir-opt-19 rejects our print: {e}\n{ours}"));
    assert_eq!(a, b);
}

#[test]
fn generic_form_round_trips_and_mlir_opt_agrees() {
    for path in kernel_files() {
        let src = read(&path);
        let m = kernel::parse(&src).expect("parses");
        let custom = kernel::print(&m);
        let generic = kernel::print_generic(&m);
        let back = kernel::parse(&generic)
            .unwrap_or_else(|e| panic!("{}: generic reparse: {e}\n{generic}", path.display()));
        assert_eq!(kernel::print(&back), custom, "{}", path.display());
        let a = mlir_opt(&custom).unwrap_or_else(|e| {
            panic!(
                "{}: mlir-opt rejects our print: {e}\n{custom}",
                path.display()
            )
        });
        let b = mlir_opt(&generic).unwrap_or_else(|e| {
            panic!(
                "{}: mlir-opt rejects our generic form: {e}\n{generic}",
                path.display()
            )
        });
        assert_eq!(a, b, "{}", path.display());
    }
}

#[test]
fn mutated_inputs_never_panic() {
    // Deterministic mutations of every test file: each token-ish position
    // replaced by punctuation, keywords and values that appear elsewhere.
    let junk = [
        "", "}", "{", "(", ")", "<", ">", ",", ":", "%0", "@x", "i32", "->", "^bb1", "\"", "#gpu<",
        "dense<", "0x", "-", "?x",
    ];
    for path in kernel_files() {
        let src = read(&path);
        let bytes: Vec<usize> = (0..src.len())
            .filter(|&i| src.is_char_boundary(i))
            .collect();
        for (n, &i) in bytes.iter().enumerate().step_by(7) {
            let j = bytes.get(n + 1 + n % 5).copied().unwrap_or(src.len());
            let mutated = format!("{}{}{}", &src[..i], junk[n % junk.len()], &src[j..]);
            if let Ok(m) = kernel::parse(&mutated) {
                // Whatever parses must verify or fail cleanly and print.
                let _ = kernel::verify(&m);
                let _ = kernel::print(&m);
            }
        }
    }
}

#[test]
fn two_dimensional_dense_vectors_and_locations() {
    let src = "func.func @f() -> vector<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32> loc(\"x.py\":3:4)
  return %a : vector<2x2xf32>
}";
    let m = kernel::parse(src).unwrap_or_else(|e| panic!("{e}"));
    let text = kernel::print(&m);
    assert!(
        text.contains(
            "dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : vector<2x2xf32>"
        ),
        "{text}"
    );
    let a = mlir_opt(src).unwrap_or_else(|e| panic!("mlir-opt-19 rejects the source: {e}\n{src}"));
    let b =
        mlir_opt(&text).unwrap_or_else(|e| panic!("mlir-opt-19 rejects our print: {e}\n{text}"));
    assert_eq!(a, b);
}

#[test]
fn attribution_memory_spaces_follow_mlir() {
    // Integer spaces pass (MLIR 19 accepts them); a mismatched
    // #gpu.address_space does not, in both tools.
    let ok = "gpu.module @m {
  gpu.func @k() workgroup(%w : memref<16xi32, 3>) private(%p : memref<4xi32>) kernel {
    gpu.return
  }
}";
    assert_eq!(verify_errors(ok), Vec::<String>::new());
    let bad = "gpu.module @m {
  gpu.func @k() workgroup(%w : memref<16xi32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}";
    assert_eq!(
        verify_errors(bad),
        vec!["2:3: 'gpu.func' workgroup attribution memref<16xi32, #gpu.address_space<private>> must be a memref in #gpu.address_space<workgroup>".to_owned()]
    );
    if let Err(e) = mlir_opt(ok) {
        panic!("mlir-opt-19 rejects:\n{ok}\n{e}");
    }
    assert!(mlir_opt(bad).is_err(), "mlir-opt-19 accepts:\n{bad}");
}

#[test]
fn verifier_agrees_with_mlir_opt_on_generic_form_type_errors() {
    // The generic form skips the custom parsers' type checks, so these reach
    // the verifier; mlir-opt-19 rejects each as well.
    let cases: &[(&str, &str)] = &[
        (
            r#"%r = "arith.addi"(%a, %f) : (i32, f32) -> i32"#,
            "'arith.addi' operands and result must have the same type",
        ),
        (
            r#"%r = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (i32, i32) -> i32"#,
            "'arith.cmpi' result must be i1",
        ),
        (
            r#"%r = "arith.extsi"(%a) : (i32) -> i16"#,
            "'arith.extsi' cannot cast i32 to i16: the width must change in the op's direction",
        ),
        (
            r#""memref.store"(%f, %m, %i) : (f32, memref<4xi32>, index) -> ()"#,
            "'memref.store' value type f32 is not the element type i32",
        ),
        (
            r#"%r = "memref.load"(%m) : (memref<4xi32>) -> i32"#,
            "'memref.load' expects 1 indices for memref<4xi32>, got 0",
        ),
        (
            r#"%r = "vector.extract"(%v) <{static_position = array<i64: 4>}> : (vector<4xf32>) -> f32"#,
            "'vector.extract' position 4 is out of bounds for vector<4xf32>",
        ),
        (
            r#"%r = "arith.select"(%a, %f, %f) : (i32, f32, f32) -> f32"#,
            "'arith.select' the condition must be i1 or i1 of the choices' shape",
        ),
        (
            r#"%r = "math.sqrt"(%a) <{fastmath = #arith.fastmath<none>}> : (i32) -> i32"#,
            "'math.sqrt' expects float operands, got i32",
        ),
    ];
    for (op, want) in cases {
        let src = format!(
            "func.func @f(%a: i32, %f: f32, %m: memref<4xi32>, %i: index, %v: vector<4xf32>) {{\n  {op}\n  return\n}}"
        );
        let got = verify_errors(&src);
        // Located at the op name, as mlir-opt-19 reports it.
        let col = if op.starts_with('%') { 8 } else { 3 };
        assert_eq!(got, vec![format!("2:{col}: {want}")], "{src}");
        assert!(mlir_opt(&src).is_err(), "mlir-opt-19 accepts:\n{src}");
    }
}

#[test]
fn builder_vector_memref_and_extended_helpers() {
    use kernel::builder::{FuncOptions, KernelBuilder};
    use kernel::{KType, KernelModule, MemRefLayout, MemorySpace};

    let mut m = KernelModule::new();
    let mut b = KernelBuilder::new(&mut m);
    let gm = b.gpu_module("k");
    let mem = KType::memref(&[8, 8], KType::i32(), MemorySpace::Default);
    let (_, args) = b.gpu_func(gm, "f", &[mem], FuncOptions::kernel([8, 1, 1]));
    let lane = b.lane_id();
    let sgs = b.subgroup_size();
    let gx = b.grid_dim("x");
    let i = b.addi(lane, sgs);
    let j = b.addi(i, gx);
    let sub_ty = KType::MemRef {
        shape: vec![Some(4), Some(4)],
        elem: Box::new(KType::i32()),
        layout: MemRefLayout::Strided {
            offset: Some(4),
            strides: vec![Some(8), Some(1)],
        },
        space: MemorySpace::Default,
    };
    let sub = b.subview(args[0], &[0, 4], &[4, 4], &[1, 1], sub_ty);
    let x = b.load(sub, &[j, j]);
    let (sum, carry) = b.addui_extended(x, x);
    let (lo, hi) = b.mul_extended(sum, x, true);
    let c = b.index_cast(carry, KType::Index);
    let _ = c;
    let v = b.const_int_vector(&[1, 2, 3, 4], KType::vector(4, KType::i32()));
    let s = b.splat(lo, KType::vector(4, KType::i32()));
    let w = b.addi(v, s);
    let bc = b.broadcast(hi, KType::vector(4, KType::i32()));
    let sh = b.vector_shuffle(w, bc, &[0, 5, 2, 7]);
    let picked = b.if_else(carry, &[KType::i32()], |_| vec![lo], |_| vec![hi]);
    let ins = b.insert(picked[0], sh, 1);
    let r = b.reduction("add", ins);
    b.store(r, sub, &[j, j]);
    b.gpu_return(&[]);

    kernel::verify(&m).unwrap_or_else(|e| panic!("{e}\n{}", kernel::print(&m)));
    let text = kernel::print(&m);
    assert_eq!(
        kernel::print(&kernel::parse(&text).expect("reparses")),
        text
    );
    assert!(text.contains("memref.subview %arg0[0, 4] [4, 4] [1, 1] : memref<8x8xi32> to memref<4x4xi32, strided<[8, 1], offset: 4>>"), "{text}");
    assert!(text.contains("vector.shuffle %"), "{text}");
    mlir_opt(&text).unwrap_or_else(|e| panic!("mlir-opt-19 rejects the built kernel: {e}\n{text}"));
}

#[test]
fn ill_typed_built_ops_verify_with_errors_and_print_without_panicking() {
    use kernel::builder::KernelBuilder;
    use kernel::{KOpKind, KType, KernelModule};

    let mut m = KernelModule::new();
    let mut b = KernelBuilder::new(&mut m);
    let (_, args) = b.func("f", &[KType::Int(0), KType::f32()], &[]);
    let c = b.const_int(5, KType::Int(0));
    let l = b.load(args[1], &[c]);
    // Ops with wrong arity fall back to the generic form when printed.
    b.op(KOpKind::ArithAddF, &[l], &[KType::f32()], Vec::new());
    b.op(KOpKind::ScfFor, &[], &[], Vec::new());
    b.func_return(&[]);
    let errs = kernel::verify(&m).expect_err("ill-typed");
    let messages: Vec<String> = errs
        .0
        .iter()
        .map(|e| format!("{} {}", e.op, e.message))
        .collect();
    assert!(
        messages.contains(&"memref.load expects a ranked memref, got f32".to_owned()),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"arith.addf expects 2 operands, has 1".to_owned()),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"scf.for expects 1 regions, has 0".to_owned()),
        "{messages:?}"
    );
    let text = kernel::print(&m);
    assert!(text.contains("\"arith.addf\"(%1) : (f32) -> f32"), "{text}");
    assert!(text.contains("\"scf.for\"() : () -> ()"), "{text}");
}

#[test]
fn verifier_catches_uses_that_escape_their_region() {
    use kernel::builder::KernelBuilder;
    use kernel::{KType, KernelModule};

    let mut m = KernelModule::new();
    let mut b = KernelBuilder::new(&mut m);
    let (_, args) = b.func("f", &[KType::Index], &[KType::Index]);
    let mut inner = None;
    b.for_(args[0], args[0], args[0], &[], |b, iv, _| {
        inner = Some(b.addi(iv, iv));
        vec![]
    });
    // A value defined in the loop body, used after the loop.
    let escaped = inner.expect("body ran");
    let r = b.addi(escaped, args[0]);
    b.func_return(&[r]);
    let errs = kernel::verify(&m).expect_err("escaping use");
    let messages: Vec<String> = errs
        .0
        .iter()
        .map(|e| format!("{} {}", e.op, e.message))
        .collect();
    assert_eq!(
        messages,
        vec!["arith.addi operand #0 does not dominate this use (defined later, in a nested region, or outside the function)".to_owned()]
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [40usize, 95, 1000] {
        let mut src = String::from("func.func @f(%c: i1) {\n");
        for _ in 0..depth {
            src.push_str("scf.if %c {\n");
        }
        for _ in 0..depth {
            src.push_str("}\n");
        }
        src.push_str("return\n}\n");
        let r = kernel::parse(&src);
        if depth < 100 {
            let m = r.expect("under the limit");
            kernel::verify(&m).expect("and verify");
            assert_eq!(
                kernel::print(&kernel::parse(&kernel::print(&m)).unwrap()),
                kernel::print(&m)
            );
        } else {
            assert!(r
                .expect_err("too deep")
                .message
                .contains("nesting is too deep"));
        }
    }
    let attr = format!(
        "func.func @f() attributes {{x = {}{}}} {{\n  return\n}}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert!(kernel::parse(&attr).is_err());
}
