//! Cooperative matrices on the CPU runner (`kiln run-spv --cpu`): the
//! distribution of a matrix's components over a subgroup that kiln_core's
//! `llvm/convert/coop.rs` defines, and `OpCooperativeMatrixMulAddKHR`'s
//! integer rules from the SPV_KHR_cooperative_matrix spec (operands sign-
//! or zero-extended as the `Matrix*SignedComponents` operands say, the
//! exact result wrapped to the result's width, or clamped to its signed
//! range with `SaturatingAccumulation`). Expected values are computed here
//! from those rules. The module is `coop_distribution.mlir`.

use std::path::Path;

use crate::common::kiln;

fn list(values: impl IntoIterator<Item = i64>) -> String {
    let v: Vec<String> = values.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The printed values of buffer `name` (`0:1 = [..]`).
fn printed<T: std::str::FromStr>(out: &str, name: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} = [")))
        .unwrap_or_else(|| panic!("no {name} in {out}"));
    line.trim_end_matches(']')
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect()
}

#[test]
fn cooperative_matrices_follow_the_documented_distribution_and_muladd_rules() {
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/coop_distribution.mlir");
    let input: Vec<i64> = (0..25).map(|i| 100 + i).collect();
    // A: signed bytes, negative ones included; B: bytes above 127 (read
    // unsigned); C: rows near i32::MAX and i32::MIN, then small values.
    let a: Vec<i64> = (0..32).map(|i| (i * 37 % 256) - 128).collect();
    let b: Vec<i64> = (0..32).map(|j| (j * 53 + 7) % 256).collect();
    let c: Vec<i64> = (0..16)
        .map(|i| match i / 4 {
            0 => 2_147_483_000 - i,
            1 => -2_147_483_000 + i,
            _ => 1000 * i - 9000,
        })
        .collect();
    let (bufs, prints) = (
        [
            format!("0:0=i32[25]={}", list(input.clone())),
            "0:1=i32[65]".to_owned(),
            format!("0:2=i8[32]={}", list(a.clone())),
            format!("0:3=u8[32]={}", list(b.clone())),
            format!("0:4=i32[48]={}", list(c.iter().copied().chain([0; 32]))),
            "0:5=f32[16]=[1, -2, 3.5, 4, 5, 6, 7, 0.25, 0, 0, 0, 0, 0, 0, 0, 0]".to_owned(),
        ],
        ["0:1", "0:4", "0:5"],
    );
    let mut args = vec![
        "run-spv".to_owned(),
        module.display().to_string(),
        "--cpu".into(),
        "--subgroup-size".into(),
        "8".into(),
    ];
    for b in &bufs {
        args.extend(["--buf".to_owned(), b.clone()]);
    }
    for p in prints {
        args.extend(["--print".to_owned(), p.to_owned()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, out, err) = kiln(&args, b"");
    assert_eq!(status, 0, "{out}{err}");

    // 25 components over 8 invocations: 4 each (ceil(25 / 8)); invocation
    // l holds row-major elements 4l .. 4l + 3, those past 24 padding (zero).
    let mut want = Vec::new();
    for l in 0..8 {
        for i in 0..4 {
            let idx = l * 4 + i;
            want.push(if idx < 25 { input[idx] } else { 0 });
        }
    }
    want.extend([4; 8]);
    // Column-major store of 2 * M: element (r, c) at 40 + c * 5 + r.
    for c in 0..5 {
        for r in 0..5 {
            want.push(2 * input[r * 5 + c]);
        }
    }
    assert_eq!(printed::<i64>(&out, "0:1"), want, "{out}");

    let mut sat = Vec::new();
    let mut wrap = Vec::new();
    for r in 0..4 {
        for col in 0..4 {
            let exact: i64 =
                (0..8).map(|k| a[r * 8 + k] * b[k * 4 + col]).sum::<i64>() + c[r * 4 + col];
            sat.push(exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX)));
            wrap.push(i64::from(exact as i32));
        }
    }
    assert!(
        sat.iter().zip(&wrap).any(|(s, w)| s != w),
        "the data must saturate somewhere"
    );
    let got = printed::<i64>(&out, "0:4");
    assert_eq!(&got[..16], &c[..], "C is left as it was");
    assert_eq!(&got[16..32], &sat[..], "SaturatingAccumulation");
    assert_eq!(&got[32..48], &wrap[..], "wrapping");
    // -(0.5 * x), exact in f32, over a 2x4 matrix (one component per
    // invocation).
    let f: Vec<f64> = printed(&out, "0:5");
    assert_eq!(
        f[8..],
        [-0.5, 1.0, -1.75, -2.0, -2.5, -3.0, -3.5, -0.125],
        "{out}"
    );

    // With subgroups of 4 (8 components per invocation; two subgroups per
    // workgroup, each computing the same products) the results are the same.
    let mut args4 = args.clone();
    let at = args4.iter().position(|a| *a == "8").unwrap();
    args4[at] = "4";
    let (status, out4, err) = kiln(&args4, b"");
    assert_eq!(status, 0, "{out4}{err}");
    assert_eq!(
        printed::<i64>(&out4, "0:4"),
        got,
        "the multiply-add is the same with 4 lanes"
    );
}

/// `kiln translate --spirv-to-llvmir` and `kiln opt
/// --convert-spirv-to-llvm` convert a module with cooperative matrices
/// given `--subgroup-size` (a matrix value is a vector of its
/// `ceil(R * C / S)` components: 25 over 8 invocations, 4 each; over 4
/// invocations, 7), and refuse it, naming the need, without.
#[test]
fn llvm_conversions_take_the_subgroup_size_of_cooperative_matrices() {
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/coop_distribution.mlir");
    let path = module.display().to_string();
    for verb in [
        ["translate", "--spirv-to-llvmir"],
        ["opt", "--convert-spirv-to-llvm"],
    ] {
        let base = [verb[0], verb[1], "--llvm-abi", "kernel", &path];
        let (status, _, err) = kiln(&base, b"");
        assert_eq!(status, 1, "{verb:?}: {err}");
        assert!(
            err.contains("cooperative matrices need the subgroup size"),
            "{verb:?}: {err}"
        );
        for (size, lanes) in [("8", "4"), ("4", "7")] {
            let mut args = base.to_vec();
            args.extend(["--subgroup-size", size]);
            let (status, out, err) = kiln(&args, b"");
            assert_eq!(status, 0, "{verb:?} {size}: {err}");
            // LLVM IR spells the vector `<4 x i32>`, the LLVM dialect
            // `vector<4xi32>`.
            let vector = if verb[0] == "translate" {
                format!("<{lanes} x i32>")
            } else {
                format!("vector<{lanes}xi32>")
            };
            assert!(out.contains(&vector), "{verb:?} {size}: {out}");
        }
        let mut zero = base.to_vec();
        zero.extend(["--subgroup-size", "0"]);
        let (status, _, err) = kiln(&zero, b"");
        assert_eq!(status, 1, "{verb:?}: {err}");
        assert!(
            err.contains("invalid value '0' for '--subgroup-size"),
            "{err}"
        );
    }
}
