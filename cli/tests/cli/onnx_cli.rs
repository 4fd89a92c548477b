//! `kiln run MODEL.onnx`, `kiln onnx-import` and `kiln onnx-test` on small
//! models built here (kiln-onnx's prost messages): outputs, `.npy` files,
//! and the refusals, each one `error:` and exit status 1.

use std::path::Path;

use kiln_onnx::proto::{
    tensor_shape_proto::{dimension, Dimension},
    type_proto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto,
    TensorShapeProto, TypeProto, ValueInfoProto,
};
use prost::Message as _;

use crate::common;

fn vi(name: &str, dims: &[i64]) -> ValueInfoProto {
    vi_of(name, 1, dims)
}

/// A graph input or output of ONNX element type `elem` (1 float, 7 int64).
fn vi_of(name: &str, elem: i32, dims: &[i64]) -> ValueInfoProto {
    ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: Some(elem),
                shape: Some(TensorShapeProto {
                    dim: dims
                        .iter()
                        .map(|&d| Dimension {
                            value: Some(dimension::Value::DimValue(d)),
                            ..Default::default()
                        })
                        .collect(),
                }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn node(op: &str, ins: &[&str], out: &str) -> NodeProto {
    NodeProto {
        op_type: Some(op.into()),
        name: Some(format!("{op}_{out}")),
        input: ins.iter().map(|s| s.to_string()).collect(),
        output: vec![out.into()],
        ..Default::default()
    }
}

/// `y = Relu(x + b)` with `b` an initializer, or `nodes` if given.
fn write_model(dir: &Path, nodes: Option<Vec<NodeProto>>) -> String {
    let m = ModelProto {
        ir_version: Some(8),
        opset_import: vec![OperatorSetIdProto {
            domain: Some(String::new()),
            version: Some(14),
        }],
        graph: Some(GraphProto {
            node: nodes
                .unwrap_or_else(|| vec![node("Add", &["x", "b"], "s"), node("Relu", &["s"], "y")]),
            name: Some("g".into()),
            initializer: vec![TensorProto {
                name: Some("b".into()),
                dims: vec![4],
                data_type: Some(1),
                float_data: vec![0.5, -0.5, 1.0, -4.0],
                ..Default::default()
            }],
            input: vec![vi("x", &[4])],
            output: vec![vi("y", &[4])],
            ..Default::default()
        }),
        ..Default::default()
    };
    let path = dir.join("model.onnx");
    std::fs::write(&path, m.encode_to_vec()).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn run_prints_outputs_and_writes_npy() {
    let dir = common::scratch("onnx-run");
    let model = write_model(&dir, None);
    // relu(x + b) by IEEE arithmetic: [1+0.5, 2-0.5, -3+1 -> 0, 3-4 -> 0].
    let (code, out, err) = common::kiln(
        &["run", &model, "--reference", "--input", "x=4xf32=1,2,-3,3"],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "y: 4xFLOAT = [1.5, 1.5, 0, 0]\n");
    let npy_dir = dir.join("out");
    let (code, out, err) = common::kiln(
        &[
            "run",
            &model,
            "--reference",
            "--input",
            "x=4xf32=1,2,-3,3",
            "--output-dir",
            npy_dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("y: 4xFLOAT -> "), "{out}");
    let bytes = std::fs::read(npy_dir.join("y.npy")).unwrap();
    let t = kiln_onnx::npy::read_npy(&bytes, "y.npy").unwrap();
    assert_eq!(
        (0..4).map(|i| t.float(i)).collect::<Vec<_>>(),
        [1.5, 1.5, 0.0, 0.0]
    );
}

#[test]
fn import_prints_the_program_with_the_weights_as_parameters() {
    let dir = common::scratch("onnx-import");
    let model = write_model(&dir, None);
    let (code, out, err) = common::kiln(&["onnx-import", &model], b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("// %arg1: parameter (initializer) b"), "{out}");
    assert!(
        out.contains(
            "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32>"
        ),
        "{out}"
    );
    // The text is a tensor program kiln reads back.
    let path = dir.join("model.mlir");
    std::fs::write(&path, &out).unwrap();
    let (code, _, err) = common::kiln(&["opt", path.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
}

/// `kiln compile MODEL.onnx -o DIR` writes the kernels and manifest of the
/// program `kiln onnx-import` prints (main read the model as MLIR text and
/// refused it as "not valid UTF-8"); `--input NAME=SHAPExTYPE` fixes a
/// shape without a value, and `--explain` prints the strategies.
#[test]
fn compile_writes_a_models_kernels() {
    let dir = common::scratch("onnx-compile");
    let model = write_model(&dir, None);
    let out_dir = dir.join("compiled");
    let out = out_dir.to_str().unwrap();
    let (code, stdout, err) = common::kiln(
        &[
            "compile",
            &model,
            "-o",
            out,
            "--input",
            "x=4xf32",
            "--explain",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("dispatch @main_dispatch_0"), "{stdout}");
    let manifest = std::fs::read_to_string(out_dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"main\""), "{manifest}");
    let spv = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "spv")
        })
        .count();
    assert!(spv >= 1, "no kernel written in {out}");
    // Where a value is needed (`kiln run`), a value-less spec leaves the
    // input missing: one error line.
    let (code, _, err) = common::kiln(&["run", &model, "--input", "x=4xf32"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("missing input(s): x"), "{err}");
}

#[test]
fn refusals_are_one_error_each() {
    let dir = common::scratch("onnx-bad");
    let model = write_model(
        &dir,
        Some(vec![
            node("Frobnicate", &["x"], "a"),
            node("Relu", &["a"], "c"),
            node("Unique", &["c"], "y"),
        ]),
    );
    let (code, _, err) = common::kiln(&["run", &model, "--reference", "--input", "x=4xf32=1"], b"");
    assert_eq!(code, 1);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("2 unsupported node(s)"), "{err}");
    assert!(
        err.contains("Frobnicate (domain ai.onnx, opset 14) node Frobnicate_a: unknown op"),
        "{err}"
    );
    assert!(
        err.contains("Unique (domain ai.onnx, opset 14) node Unique_y: unknown op"),
        "{err}"
    );

    let good = write_model(&dir, None);
    let (code, _, err) = common::kiln(&["run", &good, "--reference"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("missing input(s): x (4xFLOAT)"), "{err}");
    let (code, _, err) = common::kiln(&["run", &good, "--reference", "--input", "x=5xf32=1"], b"");
    assert_eq!(code, 1);
    assert!(
        err.contains("input x: dimension 0 is 5, the model's is 4"),
        "{err}"
    );
    let (code, _, err) = common::kiln(&["run", &good, "--reference", "--input", "x=4xi32=1"], b"");
    assert_eq!(code, 1);
    assert!(
        err.contains("input x: INT32 given, the model takes FLOAT"),
        "{err}"
    );

    let cut = dir.join("cut.onnx");
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = common::kiln(&["run", cut.to_str().unwrap(), "--reference"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("not a valid ONNX protobuf"), "{err}");
}

#[test]
fn onnx_test_compares_with_onnx_tolerances() {
    let dir = common::scratch("onnx-test");
    let case = dir.join("test_relu_add");
    std::fs::create_dir_all(case.join("test_data_set_0")).unwrap();
    write_model(&case, None);
    let t = |name: &str, v: &[f32]| TensorProto {
        name: Some(name.into()),
        dims: vec![v.len() as i64],
        data_type: Some(1),
        float_data: v.to_vec(),
        ..Default::default()
    };
    let set = case.join("test_data_set_0");
    std::fs::write(
        set.join("input_0.pb"),
        t("x", &[1.0, 2.0, -3.0, 3.0]).encode_to_vec(),
    )
    .unwrap();
    std::fs::write(
        set.join("output_0.pb"),
        t("y", &[1.5, 1.5, 0.0, 0.0]).encode_to_vec(),
    )
    .unwrap();
    let (code, out, err) = common::kiln(&["onnx-test", "--reference", dir.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "PASS test_relu_add\n1 passed, 0 failed, 0 skipped\n");
    // 1.5 against 1.502: |d| = 2e-3 > 1e-7 + 1e-3 * 1.502.
    std::fs::write(
        set.join("output_0.pb"),
        t("y", &[1.502, 1.5, 0.0, 0.0]).encode_to_vec(),
    )
    .unwrap();
    let (code, out, _) = common::kiln(&["onnx-test", "--reference", dir.to_str().unwrap()], b"");
    assert_eq!(code, 1);
    assert!(out.starts_with("FAIL test_relu_add: output 0: 1 of 4 elements differ; element 0: 1.5, expected 1.50199"), "{out}");
}

/// `kiln run MODEL --input` with sizes that overflow or do not fit the host
/// (under `ulimit -v 1048576`): one error line, exit status 1, never a
/// panic ("capacity overflow" before the check) or an abort (allocating
/// 80 GB of parsed values).
#[test]
fn huge_inputs_are_error_lines_under_a_1_gib_limit() {
    let dir = common::scratch("onnx-huge-input");
    let model = write_model(&dir, None);
    for (input, says) in [
        (
            "x=4611686018427387904x4xf32=1",
            "4611686018427387904x4 elements overflow 64 bits",
        ),
        (
            "x=100000x100000xf32=1",
            "10000000000 elements: it needs 80000000000 bytes of host memory, more than the \
             1073741824",
        ),
    ] {
        let line = format!(
            "ulimit -v 1048576; exec '{}' run '{model}' --input '{input}'",
            env!("CARGO_BIN_EXE_kiln")
        );
        let (code, out, err) =
            common::run(std::process::Command::new("sh").args(["-c", &line]), b"");
        assert_eq!(code, 1, "--input {input}:\n{out}{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --input"), "{err}");
        assert!(err.contains(says), "--input {input}:\n{err}");
    }
}

#[test]
fn bench_times_a_model_and_refuses_missing_inputs() {
    let dir = common::scratch("onnx-bench");
    let model = write_model(&dir, None);
    // No onnxruntime (a Python that does not exist) and no IREE: those
    // columns say why; kiln's is a time.
    let (code, out, err) = common::run(
        common::kiln_cmd()
            .args(["bench", &model, "--input", "4xf32=1,2,-3,3"])
            .args(["--runs", "2", "--no-iree"])
            .env("KILN_ONNXRUNTIME_PYTHON", dir.join("no-python")),
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let kiln = out
        .lines()
        .find(|l| l.contains("kiln (device)"))
        .unwrap_or("");
    assert!(
        kiln.trim_end().ends_with(']') && kiln.contains(" ms ["),
        "{out}"
    );
    assert!(
        out.contains("onnxruntime CPU") && out.contains("not installed"),
        "{out}"
    );
    assert!(
        out.contains("IREE Vulkan") && out.contains("--no-iree"),
        "{out}"
    );

    let (code, _, err) = common::kiln(&["bench", &model], b"");
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && err.contains("missing input(s) x"),
        "{err}"
    );
    let (code, _, err) = common::kiln(
        &[
            "bench",
            &model,
            "--input",
            "x=4xf32=1",
            "--input",
            "4xf32=1",
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("the model has 1 input(s): x"), "{err}");
    // `--iree-compile-only` reads tensor programs: an ONNX model is
    // refused by name (it was read as MLIR text: "unexpected character").
    let modules = dir.join("modules");
    let (code, _, err) = common::kiln(
        &[
            "bench",
            &model,
            "--iree-compile-only",
            "--iree-modules",
            &modules.display().to_string(),
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && err.contains("--iree-compile-only takes tensor programs"),
        "{err}"
    );
}

/// ONNX calls a scatter index outside `[-size, size)` an error (onnxruntime
/// 1.32 refuses `[[2], [3]]` into 3 rows: "invalid indice found"): every
/// engine fails the call naming the node, and in-range indices (a negative
/// one among them) give ONNX's values. Before, the update was dropped.
#[test]
fn scatter_nd_indices_out_of_range_fail_on_every_engine() {
    let dir = common::scratch("onnx-scatter-oob");
    let m = ModelProto {
        ir_version: Some(8),
        opset_import: vec![OperatorSetIdProto {
            domain: Some(String::new()),
            version: Some(18),
        }],
        graph: Some(GraphProto {
            node: vec![node("ScatterND", &["x", "i", "u"], "y")],
            name: Some("g".into()),
            input: vec![vi("x", &[3, 2]), vi_of("i", 7, &[2, 1]), vi("u", &[2, 2])],
            output: vec![vi("y", &[3, 2])],
            ..Default::default()
        }),
        ..Default::default()
    };
    let path = dir.join("scatter.onnx");
    std::fs::write(&path, m.encode_to_vec()).unwrap();
    let model = path.to_str().unwrap();
    let run = |indices: &str, engine: Option<&str>| {
        let mut args = vec![
            "run",
            model,
            "--input",
            "x=3x2xf32=1,2,3,4,5,6",
            "--input",
            indices,
            "--input",
            "u=2x2xf32=10,20,30,40",
        ];
        args.extend(engine);
        common::kiln(&args, b"")
    };
    for engine in [None, Some("--cpu"), Some("--reference")] {
        // Rows 2 and -3 (row 0) take the updates.
        let (code, out, err) = run("i=2x1xi64=2,-3", engine);
        assert_eq!(code, 0, "{engine:?}: {err}");
        assert_eq!(out, "y: 3x2xFLOAT = [30, 40, 3, 4, 10, 20]\n", "{engine:?}");
        for bad in ["i=2x1xi64=2,3", "i=2x1xi64=0,-4"] {
            let (code, out, err) = run(bad, engine);
            assert_eq!(code, 1, "{engine:?} {bad}: {out}");
            assert!(
                err.contains("ScatterND node 'ScatterND_y': an index is out of bounds"),
                "{engine:?} {bad}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}
