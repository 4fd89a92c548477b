//! kiln-onnx tests: small `ModelProto`s built in code, imported, run on
//! kiln-core's reference evaluator and compared with numpy's results
//! (`expected.rs`, written by `onnx/tests/gen_expected.py`); and the
//! importer's refusals, each with its message.

mod expected;
mod fuzz_replay;

use std::rc::Rc;

use kiln_core::tensor::eval::{self, Value};
use kiln_onnx::proto::{
    attribute_proto::AttributeType, tensor_shape_proto::dimension, type_proto, AttributeProto,
    GraphProto, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto, TensorProto,
    TensorShapeProto, TypeProto, ValueInfoProto,
};
use kiln_onnx::{ArgSource, DataType, HostTensor, ImportOptions, OnnxError};
use prost::Message as _;

const FLOAT: i32 = 1;
const UINT8: i32 = 2;
const INT64: i32 = 7;

fn vi(name: &str, elem: i32, dims: &[i64]) -> ValueInfoProto {
    ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: Some(elem),
                shape: Some(TensorShapeProto {
                    dim: dims.iter().map(|&d| tensor_shape_proto_dim(d)).collect(),
                }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn tensor_shape_proto_dim(d: i64) -> kiln_onnx::proto::tensor_shape_proto::Dimension {
    kiln_onnx::proto::tensor_shape_proto::Dimension {
        value: Some(if d < 0 {
            dimension::Value::DimParam("n".into())
        } else {
            dimension::Value::DimValue(d)
        }),
        ..Default::default()
    }
}

fn node(op: &str, ins: &[&str], outs: &[&str], attrs: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: Some(op.into()),
        name: Some(format!("{op}_{}", outs[0])),
        input: ins.iter().map(|s| s.to_string()).collect(),
        output: outs.iter().map(|s| s.to_string()).collect(),
        attribute: attrs,
        ..Default::default()
    }
}

fn attr_i(name: &str, v: i64) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        i: Some(v),
        r#type: Some(AttributeType::Int as i32),
        ..Default::default()
    }
}

fn attr_ints(name: &str, v: &[i64]) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        ints: v.to_vec(),
        r#type: Some(AttributeType::Ints as i32),
        ..Default::default()
    }
}

fn attr_f(name: &str, v: f32) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        f: Some(v),
        r#type: Some(AttributeType::Float as i32),
        ..Default::default()
    }
}

fn tensor_f32(name: &str, dims: &[i64], v: &[f32]) -> TensorProto {
    TensorProto {
        name: Some(name.into()),
        dims: dims.to_vec(),
        data_type: Some(FLOAT),
        float_data: v.to_vec(),
        ..Default::default()
    }
}

fn tensor_i64(name: &str, v: &[i64]) -> TensorProto {
    TensorProto {
        name: Some(name.into()),
        dims: vec![v.len() as i64],
        data_type: Some(INT64),
        int64_data: v.to_vec(),
        ..Default::default()
    }
}

fn model(
    nodes: Vec<NodeProto>,
    inputs: Vec<ValueInfoProto>,
    outputs: Vec<ValueInfoProto>,
    inits: Vec<TensorProto>,
    opset: i64,
) -> ModelProto {
    ModelProto {
        ir_version: Some(8),
        opset_import: vec![OperatorSetIdProto {
            domain: Some(String::new()),
            version: Some(opset),
        }],
        graph: Some(GraphProto {
            node: nodes,
            name: Some("g".into()),
            initializer: inits,
            input: inputs,
            output: outputs,
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn f32_tensor(shape: &[usize], v: &[f32]) -> HostTensor {
    let vals: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
    HostTensor::from_floats(DataType::Float, shape, &vals)
}

/// Imports `m` and runs it on the reference evaluator with `inputs` (by
/// graph-input order).
fn run(m: &ModelProto, inputs: &[HostTensor]) -> Vec<HostTensor> {
    let bytes = m.encode_to_vec();
    let m = kiln_onnx::decode_model(&bytes, "test").expect("decodes");
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).expect("imports");
    let mut it = inputs.iter();
    let args: Vec<Value> = imp
        .args
        .iter()
        .map(|a| match &a.source {
            ArgSource::Input => Value::Tensor(Rc::new(it.next().expect("an input").tensor.clone())),
            ArgSource::Param(t) => Value::Tensor(Rc::new(t.tensor.clone())),
        })
        .collect();
    let out = eval::run(&imp.module, &imp.func, &args).expect("runs");
    out.iter()
        .zip(&imp.outputs)
        .map(|(v, o)| HostTensor {
            dtype: o.dtype,
            tensor: (**v.tensor().expect("a tensor")).clone(),
        })
        .collect()
}

fn assert_close(got: &HostTensor, want: &[f32], shape: &[usize]) {
    assert_eq!(got.shape(), shape);
    assert_eq!(got.len(), want.len());
    for (i, &w) in want.iter().enumerate() {
        let g = got.float(i);
        let w = f64::from(w);
        assert!(
            (g - w).abs() <= 1e-6 + 1e-5 * w.abs(),
            "element {i}: {g}, expected {w}"
        );
    }
}

#[test]
fn add_broadcasts_like_numpy() {
    use expected::*;
    let m = model(
        vec![node("Add", &["a", "b"], &["y"], vec![])],
        vec![vi("a", FLOAT, &[2, 3]), vi("b", FLOAT, &[3])],
        vec![vi("y", FLOAT, &[2, 3])],
        vec![],
        14,
    );
    let out = run(&m, &[f32_tensor(&[2, 3], ADD_A), f32_tensor(&[3], ADD_B)]);
    assert_close(&out[0], ADD_OUT, &[2, 3]);
}

/// `y = 0.5 * a @ w^T + 2 * c` with `w` (3x4) and `c` (3) as initializers
/// and `a` (2x4) the one graph input: the model the weight tests share.
fn gemm_with_weights() -> ModelProto {
    use expected::*;
    model(
        vec![node(
            "Gemm",
            &["a", "w", "c"],
            &["y"],
            vec![
                attr_i("transB", 1),
                attr_f("alpha", 0.5),
                attr_f("beta", 2.0),
            ],
        )],
        vec![vi("a", FLOAT, &[2, 4])],
        vec![vi("y", FLOAT, &[2, 3])],
        vec![
            tensor_f32("w", &[3, 4], GEMM_B),
            tensor_f32("c", &[3], GEMM_C),
        ],
        13,
    )
}

#[test]
fn gemm_with_transposed_weight_is_a_parameter() {
    use expected::*;
    let m = gemm_with_weights();
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let params: Vec<&str> = imp
        .args
        .iter()
        .filter(|a| matches!(a.source, ArgSource::Param(_)))
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(params, ["w", "c"]);
    let text = kiln_core::tensor::print::print(&imp.module);
    assert!(text.contains("linalg.matmul_transpose_b"), "{text}");
    assert!(
        !text.contains("dense<"),
        "weights must not be inlined:\n{text}"
    );
    let out = run(&m, &[f32_tensor(&[2, 4], GEMM_A)]);
    assert_close(&out[0], GEMM_OUT, &[2, 3]);
}

#[test]
fn softmax_is_linalg_softmax() {
    use expected::*;
    let m = model(
        vec![node("Softmax", &["x"], &["y"], vec![attr_i("axis", 1)])],
        vec![vi("x", FLOAT, &[2, 5])],
        vec![vi("y", FLOAT, &[2, 5])],
        vec![],
        13,
    );
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    assert!(kiln_core::tensor::print::print(&imp.module).contains("linalg.softmax"));
    let out = run(&m, &[f32_tensor(&[2, 5], SOFTMAX_X)]);
    assert_close(&out[0], SOFTMAX_OUT, &[2, 5]);
}

#[test]
fn shape_subgraph_folds_into_a_static_reshape() {
    use expected::*;
    // Shape(x) -> Gather(0) -> Concat([b], [-1]) -> Reshape(x) -> MatMul(w).
    let m = model(
        vec![
            node("Shape", &["x"], &["s"], vec![]),
            node("Gather", &["s", "zero"], &["b"], vec![attr_i("axis", 0)]),
            node("Unsqueeze", &["b", "zero1"], &["b1"], vec![]),
            node(
                "Concat",
                &["b1", "minus1"],
                &["shape"],
                vec![attr_i("axis", 0)],
            ),
            node("Reshape", &["x", "shape"], &["r"], vec![]),
            node("MatMul", &["r", "w"], &["y"], vec![]),
        ],
        vec![vi("x", FLOAT, &[2, 3, 4])],
        vec![vi("y", FLOAT, &[2, 2])],
        vec![
            TensorProto {
                name: Some("zero".into()),
                data_type: Some(INT64),
                int64_data: vec![0],
                ..Default::default()
            },
            tensor_i64("zero1", &[0]),
            tensor_i64("minus1", &[-1]),
            tensor_f32("w", &[12, 2], RESHAPE_W),
        ],
        13,
    );
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let text = kiln_core::tensor::print::print(&imp.module);
    assert!(!text.contains("tensor.dim"), "{text}");
    assert!(text.contains("tensor.collapse_shape"), "{text}");
    let out = run(&m, &[f32_tensor(&[2, 3, 4], RESHAPE_X)]);
    assert_close(&out[0], RESHAPE_OUT, &[2, 2]);
}

#[test]
fn reduce_mean_takes_axes_as_an_input_from_opset_18() {
    use expected::*;
    let m = model(
        vec![node(
            "ReduceMean",
            &["x", "axes"],
            &["y"],
            vec![attr_i("keepdims", 1)],
        )],
        vec![vi("x", FLOAT, &[2, 3, 2])],
        vec![vi("y", FLOAT, &[2, 1, 2])],
        vec![tensor_i64("axes", &[1])],
        18,
    );
    let out = run(&m, &[f32_tensor(&[2, 3, 2], REDUCE_X)]);
    assert_close(&out[0], REDUCE_OUT, &[2, 1, 2]);
    // Before opset 18 the axes are an attribute.
    let m13 = model(
        vec![node(
            "ReduceMean",
            &["x"],
            &["y"],
            vec![AttributeProto {
                name: Some("axes".into()),
                ints: vec![1],
                r#type: Some(AttributeType::Ints as i32),
                ..Default::default()
            }],
        )],
        vec![vi("x", FLOAT, &[2, 3, 2])],
        vec![vi("y", FLOAT, &[2, 1, 2])],
        vec![],
        13,
    );
    let out = run(&m13, &[f32_tensor(&[2, 3, 2], REDUCE_X)]);
    assert_close(&out[0], REDUCE_OUT, &[2, 1, 2]);
}

#[test]
fn layer_normalization() {
    use expected::*;
    let m = model(
        vec![node(
            "LayerNormalization",
            &["x", "g", "b"],
            &["y"],
            vec![attr_f("epsilon", 1e-5)],
        )],
        vec![vi("x", FLOAT, &[2, 4])],
        vec![vi("y", FLOAT, &[2, 4])],
        vec![tensor_f32("g", &[4], LN_G), tensor_f32("b", &[4], LN_B)],
        17,
    );
    let out = run(&m, &[f32_tensor(&[2, 4], LN_X)]);
    assert_close(&out[0], LN_OUT, &[2, 4]);
}

#[test]
fn depthwise_conv_is_one_linalg_op() {
    use expected::*;
    let m = model(
        vec![node(
            "Conv",
            &["x", "w", "b"],
            &["y"],
            vec![
                attr_i("group", 3),
                attr_ints("pads", &[1, 1, 1, 1]),
                attr_ints("kernel_shape", &[3, 3]),
            ],
        )],
        vec![vi("x", FLOAT, &[1, 3, 5, 5])],
        vec![vi("y", FLOAT, &[1, 3, 5, 5])],
        vec![
            tensor_f32("w", &[3, 1, 3, 3], DW_W),
            tensor_f32("b", &[3], DW_B),
        ],
        11,
    );
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let text = kiln_core::tensor::print::print(&imp.module);
    assert_eq!(
        text.matches("linalg.depthwise_conv_2d_nhwc_hwc").count(),
        1,
        "{text}"
    );
    let out = run(&m, &[f32_tensor(&[1, 3, 5, 5], DW_X)]);
    assert_close(&out[0], DW_OUT, &[1, 3, 5, 5]);
}

/// A block of convolutions (bias, ReLU, batch norm, a 1x1 convolution, a
/// residual add, a depthwise convolution, a concat, max and global
/// average pooling, a reduction over the height, a resize) stays in the
/// convolutions' NHWC layout: the filters are stored HWCF, the only
/// transposes left take the graph input to NHWC and make three graph
/// outputs (the residual sum, the reduction's result, a nearest
/// upsampling) in ONNX's layout, and the values
/// agree with numpy's NCHW computation (`gen_expected.py`) on the
/// reference evaluator and on the first Vulkan device.
#[test]
fn a_block_of_convolutions_stays_in_one_layout() {
    use expected::*;
    let m = model(
        vec![
            node(
                "Conv",
                &["x", "w1", "b1"],
                &["c1"],
                vec![attr_ints("pads", &[1, 1, 1, 1])],
            ),
            node("Relu", &["c1"], &["r1"], vec![]),
            node(
                "BatchNormalization",
                &["r1", "s", "bias", "mean", "var"],
                &["bn"],
                vec![],
            ),
            node("Conv", &["bn", "w2", "b2"], &["c2"], vec![]),
            node("Add", &["c2", "r1"], &["a"], vec![]),
            node(
                "Conv",
                &["a", "wd", "bd"],
                &["d"],
                vec![attr_i("group", 4), attr_ints("pads", &[1, 1, 1, 1])],
            ),
            node("Concat", &["a", "d"], &["cat"], vec![attr_i("axis", 1)]),
            node(
                "MaxPool",
                &["cat"],
                &["mp"],
                vec![
                    attr_ints("kernel_shape", &[2, 2]),
                    attr_ints("strides", &[2, 2]),
                ],
            ),
            node("GlobalAveragePool", &["mp"], &["gap"], vec![]),
            node(
                "ReduceMean",
                &["cat"],
                &["rm"],
                vec![attr_ints("axes", &[2]), attr_i("keepdims", 0)],
            ),
            node("Resize", &["d", "", "scales"], &["up"], vec![]),
        ],
        vec![vi("x", FLOAT, &[1, 3, 6, 6])],
        vec![
            vi("gap", FLOAT, &[1, 8, 1, 1]),
            vi("rm", FLOAT, &[1, 8, 6]),
            vi("a", FLOAT, &[1, 4, 6, 6]),
            vi("up", FLOAT, &[1, 4, 12, 12]),
        ],
        vec![
            tensor_f32("w1", &[4, 3, 3, 3], BLOCK_W1),
            tensor_f32("b1", &[4], BLOCK_B1),
            tensor_f32("s", &[4], BLOCK_S),
            tensor_f32("bias", &[4], BLOCK_BIAS),
            tensor_f32("mean", &[4], BLOCK_MEAN),
            tensor_f32("var", &[4], BLOCK_VAR),
            tensor_f32("w2", &[4, 4, 1, 1], BLOCK_W2),
            tensor_f32("b2", &[4], BLOCK_B2),
            tensor_f32("wd", &[4, 1, 3, 3], BLOCK_WD),
            tensor_f32("bd", &[4], BLOCK_BD),
            tensor_f32("scales", &[4], &[1.0, 1.0, 2.0, 2.0]),
        ],
        13,
    );
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let stored = |name: &str| {
        let a = imp
            .args
            .iter()
            .find(|a| a.name == name)
            .expect("an argument");
        a.shape
            .iter()
            .map(|d| d.fixed().unwrap_or(0))
            .collect::<Vec<u64>>()
    };
    assert_eq!(stored("w1"), [3, 3, 3, 4]);
    assert_eq!(stored("w2"), [1, 1, 4, 4]);
    assert_eq!(stored("wd"), [3, 3, 1, 4]);
    let text = kiln_core::tensor::print::print(&imp.module);
    assert_eq!(text.matches("linalg.transpose").count(), 4, "{text}");
    let x = f32_tensor(&[1, 3, 6, 6], BLOCK_X);
    let out = run(&m, std::slice::from_ref(&x));
    let close = |got: &HostTensor, want: &[f32], shape: &[usize]| {
        assert_eq!(got.shape(), shape);
        for (i, &w) in want.iter().enumerate() {
            let (g, w) = (got.float(i), f64::from(w));
            assert!(
                (g - w).abs() <= 1e-4 * (1.0 + w.abs()),
                "element {i}: {g}, expected {w}"
            );
        }
    };
    close(&out[0], BLOCK_GAP, &[1, 8, 1, 1]);
    close(&out[1], BLOCK_RM, &[1, 8, 6]);
    close(&out[2], BLOCK_A, &[1, 4, 6, 6]);
    close(&out[3], BLOCK_UP, &[1, 4, 12, 12]);
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    let mut inputs = std::collections::HashMap::new();
    inputs.insert("x".to_owned(), x);
    let out = session.run(&inputs).expect("runs");
    close(&out[0], BLOCK_GAP, &[1, 8, 1, 1]);
    close(&out[1], BLOCK_RM, &[1, 8, 6]);
    close(&out[2], BLOCK_A, &[1, 4, 6, 6]);
    close(&out[3], BLOCK_UP, &[1, 4, 12, 12]);
}

/// A ConvTranspose whose strides equal its kernel (2x3 here; PP-OCR's
/// detector upsamples with 2x2) imports as one 1x1 convolution whose
/// channels are spread over the output, no per-element gathers, and
/// agrees with ONNX's definition (numpy, `gen_expected.py`) on the
/// reference evaluator and on the first Vulkan device (lavapipe in CI; a
/// 1x3x4x5 input, well under a second).
#[test]
fn conv_transpose_with_strides_equal_to_its_kernel_is_a_1x1_convolution() {
    use expected::*;
    let m = model(
        vec![node(
            "ConvTranspose",
            &["x", "w", "b"],
            &["y"],
            vec![
                attr_ints("strides", &[2, 3]),
                attr_ints("kernel_shape", &[2, 3]),
            ],
        )],
        vec![vi("x", FLOAT, &[1, 3, 4, 5])],
        vec![vi("y", FLOAT, &[1, 2, 8, 15])],
        vec![
            tensor_f32("w", &[3, 2, 2, 3], CT_W),
            tensor_f32("b", &[2], CT_B),
        ],
        11,
    );
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let text = kiln_core::tensor::print::print(&imp.module);
    assert_eq!(
        text.matches("linalg.conv_2d_nchw_fchw").count(),
        1,
        "{text}"
    );
    assert!(!text.contains("tensor.extract "), "{text}");
    let x = f32_tensor(&[1, 3, 4, 5], CT_X);
    let out = run(&m, std::slice::from_ref(&x));
    assert_close(&out[0], CT_OUT, &[1, 2, 8, 15]);
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    let mut inputs = std::collections::HashMap::new();
    inputs.insert("x".to_owned(), x);
    let out = session.run(&inputs).expect("runs");
    assert_close(&out[0], CT_OUT, &[1, 2, 8, 15]);
}

/// A Transpose whose `perm` is no permutation of the input's axes (too
/// short, or repeating an axis) is refused by name; a short identity
/// prefix once returned the input unchanged.
#[test]
fn a_transpose_perm_must_permute_every_axis() {
    for perm in [&[0i64, 1][..], &[0, 0, 1], &[2, 1, 0, 1]] {
        let m = model(
            vec![node(
                "Transpose",
                &["x"],
                &["y"],
                vec![attr_ints("perm", perm)],
            )],
            vec![vi("x", FLOAT, &[2, 3, 4])],
            vec![vi("y", FLOAT, &[])],
            vec![],
            13,
        );
        let err = kiln_onnx::import(&m, &ImportOptions::default()).expect_err("refused");
        assert!(
            err.to_string().contains("is not a permutation of 3 axes"),
            "{err}"
        );
    }
}

#[test]
fn uint8_comparisons_are_unsigned() {
    use expected::*;
    let m = model(
        vec![node("Less", &["a", "b"], &["y"], vec![])],
        vec![vi("a", UINT8, &[4]), vi("b", UINT8, &[4])],
        vec![vi("y", 9, &[4])],
        vec![],
        13,
    );
    let t = |v: &[u8]| {
        let ints: Vec<i64> = v.iter().map(|&x| i64::from(x)).collect();
        HostTensor::from_ints(DataType::Uint8, &[4], &ints)
    };
    let out = run(&m, &[t(U8_A), t(U8_B)]);
    let want: Vec<i64> = U8_LESS.iter().map(|&x| i64::from(x)).collect();
    assert_eq!(out[0].dtype, DataType::Bool);
    assert_eq!(out[0].ints(), want);
}

#[test]
fn every_unsupported_node_is_named_at_once() {
    let m = model(
        vec![
            node("Frobnicate", &["x"], &["a"], vec![]),
            node("Relu", &["a"], &["b"], vec![]),
            node("NonZero", &["b"], &["y"], vec![]),
        ],
        vec![vi("x", FLOAT, &[2])],
        vec![vi("y", FLOAT, &[2])],
        vec![],
        13,
    );
    let err = kiln_onnx::import(&m, &ImportOptions::default()).unwrap_err();
    let OnnxError::Unsupported(list) = &err else {
        panic!("{err}")
    };
    assert_eq!(list.len(), 2, "{err}");
    let text = err.to_string();
    assert!(
        text.contains("Frobnicate (domain ai.onnx, opset 13) node Frobnicate_a: unknown op"),
        "{text}"
    );
    assert!(
        text.contains("NonZero (domain ai.onnx, opset 13) node NonZero_y"),
        "{text}"
    );
}

#[test]
fn corrupt_and_truncated_files_are_refused() {
    let m = model(
        vec![node("Relu", &["x"], &["y"], vec![])],
        vec![vi("x", FLOAT, &[2])],
        vec![vi("y", FLOAT, &[2])],
        vec![],
        13,
    );
    let bytes = m.encode_to_vec();
    let err = kiln_onnx::decode_model(&bytes[..bytes.len() - 3], "cut.onnx").unwrap_err();
    assert!(matches!(err, OnnxError::Decode { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("cut.onnx: not a valid ONNX protobuf"),
        "{err}"
    );
    let err = kiln_onnx::decode_model(b"hello, world", "text.onnx").unwrap_err();
    assert!(err.to_string().starts_with("text.onnx:"), "{err}");
}

#[test]
fn too_new_opsets_and_unsupported_types_are_refused_by_name() {
    let m = model(
        vec![node("Relu", &["x"], &["y"], vec![])],
        vec![vi("x", FLOAT, &[2])],
        vec![vi("y", FLOAT, &[2])],
        vec![],
        99,
    );
    let err = kiln_onnx::import(&m, &ImportOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "opset 99 of domain \"ai.onnx\" is newer than kiln supports (up to 28)"
    );
    let m = model(
        vec![node("Identity", &["x"], &["y"], vec![])],
        vec![vi("x", 8, &[2])],
        vec![vi("y", 8, &[2])],
        vec![],
        13,
    );
    let err = kiln_onnx::import(&m, &ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("element type STRING is not supported"),
        "{err}"
    );
}

#[test]
fn external_data_is_read_relative_to_the_model() {
    let dir = std::env::temp_dir().join(format!("kiln-onnx-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vals = [1.5f32, -2.0, 0.25];
    let mut bytes = vec![0u8; 4];
    bytes.extend(vals.iter().flat_map(|x| x.to_le_bytes()));
    std::fs::write(dir.join("w.bin"), &bytes).unwrap();
    let kv = |k: &str, v: &str| StringStringEntryProto {
        key: Some(k.into()),
        value: Some(v.into()),
    };
    let t = TensorProto {
        name: Some("w".into()),
        dims: vec![3],
        data_type: Some(FLOAT),
        data_location: Some(1),
        external_data: vec![
            kv("location", "w.bin"),
            kv("offset", "4"),
            kv("length", "12"),
        ],
        ..Default::default()
    };
    let h = HostTensor::from_proto(&t, Some(&dir)).unwrap();
    assert_eq!((0..3).map(|i| h.float(i) as f32).collect::<Vec<_>>(), vals);
    std::fs::remove_file(dir.join("w.bin")).unwrap();
    let err = HostTensor::from_proto(&t, Some(&dir)).unwrap_err();
    assert!(
        err.to_string().contains("external data of tensor w"),
        "{err}"
    );
    let _ = std::fs::remove_dir(&dir);
}

#[test]
fn supported_ops_come_from_the_table() {
    let ops = kiln_onnx::ops::supported_ops();
    assert!(
        ops.iter().any(|o| o.starts_with("MatMul [opset 1-28]")),
        "{ops:?}"
    );
    assert!(
        ops.iter()
            .any(|o| o == "com.microsoft.MatMulNBits [opset 1-1]"),
        "{ops:?}"
    );
    assert!(
        ops.iter()
            .any(|o| o == "ai.onnx.preview.FlexAttention [opset 1-1]"),
        "{ops:?}"
    );
    assert_eq!(ops.len(), kiln_onnx::ops::all().count());
}

#[test]
fn npy_round_trip() {
    let t = HostTensor::from_ints(DataType::Uint16, &[2, 2], &[1, 65535, 3, 4]);
    let back = kiln_onnx::npy::read_npy(&kiln_onnx::npy::write_npy(&t), "t.npy").unwrap();
    assert_eq!(back, t);
    assert_eq!(back.ints(), [1, 65535, 3, 4]);
}

/// A session keeps its weights on the device: a second run with a new
/// input uploads only that input (4 x 2 x 4 bytes), not the weights again.
/// Runs on the first Vulkan device (lavapipe in CI).
#[test]
fn session_runs_again_without_uploading_weights() {
    use expected::*;
    let m = gemm_with_weights();
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    let mut inputs = std::collections::HashMap::new();
    inputs.insert("a".to_owned(), f32_tensor(&[2, 4], GEMM_A));
    let out = session.run(&inputs).expect("runs");
    assert_close(&out[0], GEMM_OUT, &[2, 3]);
    let before = device.counters();
    inputs.insert("a".to_owned(), f32_tensor(&[2, 4], GEMM_A2));
    let out = session.run(&inputs).expect("runs again");
    assert_close(&out[0], GEMM_OUT2, &[2, 3]);
    let after = device.counters();
    let uploaded =
        (after.bytes_staged + after.bytes_direct) - (before.bytes_staged + before.bytes_direct);
    // The input (32 bytes) and the result read back (24 bytes, in words);
    // the weights (60 bytes) are not uploaded again.
    assert!(
        uploaded < 32 + 24 + 60,
        "{uploaded} bytes moved on the second run"
    );
    let missing = session.run(&std::collections::HashMap::new());
    assert!(matches!(missing, Err(kiln_onnx::OnnxError::Input { .. })));
}

/// From its second run in a row with one set of input shapes, a session's
/// `run` replays a recording of the model's dispatches (kiln's bench and
/// embedders' loops call `run`): each run reads its own inputs, and the
/// results of earlier runs stay as they were. A replayed run (the second
/// on) enqueues two transfers, the input copied in and the result copied
/// out, beside its recorded commands (a run anew on lavapipe: none, its
/// buffers written and read by the host). Runs on the first Vulkan device (lavapipe in CI; 6 runs of a
/// 2x4 by 4x3 Gemm, well under a second).
#[test]
fn session_run_replays_its_recording_with_each_runs_inputs() {
    use expected::*;
    let m = gemm_with_weights();
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    let mut inputs = std::collections::HashMap::new();
    let mut results = Vec::new();
    let mut transfers = Vec::new();
    for i in 0..6 {
        let (a, want) = if i % 2 == 0 {
            (GEMM_A, GEMM_OUT)
        } else {
            (GEMM_A2, GEMM_OUT2)
        };
        inputs.insert("a".to_owned(), f32_tensor(&[2, 4], a));
        let before = device.counters();
        results.push((session.run(&inputs).expect("runs"), want));
        transfers.push(device.counters().transfers - before.transfers);
    }
    for (out, want) in &results {
        assert_close(&out[0], want, &[2, 3]);
    }
    assert_eq!(transfers[1..], [2, 2, 2, 2, 2], "{transfers:?}");
}

/// `Session::run_feeds` takes the inputs in order, a device tensor used
/// where it is (the Python package's `kiln.Tensor` feeds), and checks a
/// device tensor's type and shape like host data's.
#[test]
fn session_run_feeds_takes_device_tensors() {
    use expected::*;
    use kiln_onnx::Feed;
    let m = gemm_with_weights();
    let imp = kiln_onnx::import(&m, &ImportOptions::default()).unwrap();
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    assert_eq!(session.inputs().len(), 1);
    assert_eq!(session.inputs()[0].name, "a");
    let a = kiln_runtime::Tensor::from_slice(&device, GEMM_A, &[2, 4]).unwrap();
    let out = session.run_feeds(vec![Feed::Device(&a)]).expect("runs");
    assert_close(&out[0], GEMM_OUT, &[2, 3]);
    let out = session
        .run_feeds(vec![Feed::Host(f32_tensor(&[2, 4], GEMM_A2))])
        .expect("runs");
    assert_close(&out[0], GEMM_OUT2, &[2, 3]);
    let wrong_type = kiln_runtime::Tensor::from_slice(&device, &[0i32; 8], &[2, 4]).unwrap();
    let e = session
        .run_feeds(vec![Feed::Device(&wrong_type)])
        .unwrap_err();
    assert!(
        e.to_string().contains("a device tensor of i32 given"),
        "{e}"
    );
    let wrong_shape = a.reshape(&[8]).unwrap();
    let e = session
        .run_feeds(vec![Feed::Device(&wrong_shape)])
        .unwrap_err();
    assert!(e.to_string().contains("shape [8] given"), "{e}");
    assert!(session.run_feeds(vec![]).is_err());
}

/// Gather at 108 indices known at import (as `kiln run` and `kiln
/// onnx-test` import a model, with its inputs' values) gives numpy's take
/// on the device: it was a concat of one slice per index, one selection
/// nested in the other, and lavapipe read zeros from element 78 on
/// (llvmpipe ignores selections nested deeper than 80). Runs on the first
/// Vulkan device (lavapipe in CI).
#[test]
fn gather_at_many_indices_known_at_import_runs_on_the_device() {
    use expected::*;
    let m = model(
        vec![node("Gather", &["w", "t"], &["y"], vec![])],
        vec![vi("w", FLOAT, &[5]), vi("t", INT64, &[108])],
        vec![vi("y", FLOAT, &[108])],
        vec![],
        13,
    );
    let t = HostTensor::from_ints(DataType::Int64, &[108], GATHER_T);
    let mut opts = ImportOptions::default();
    opts.input_values.insert("t".to_owned(), t.clone());
    let imp = kiln_onnx::import(&m, &opts).unwrap();
    let device = kiln_runtime::Device::new(&Default::default()).expect("a Vulkan device");
    let session = kiln_onnx::Session::new(&device, &imp).expect("compiles");
    let mut inputs = std::collections::HashMap::new();
    inputs.insert("w".to_owned(), f32_tensor(&[5], GATHER_W));
    inputs.insert("t".to_owned(), t);
    let out = session.run(&inputs).expect("runs");
    assert_close(&out[0], GATHER_OUT, &[108]);
}

#[test]
fn float8_casts_round_to_nearest_even_and_saturate() {
    // f32 -> FLOAT8E4M3FN -> f32; the expected values from the format
    // (bias 7, 3 mantissa bits, largest finite 448, no infinities).
    let m = model(
        vec![
            node("Cast", &["x"], &["q"], vec![attr_i("to", 17)]),
            node("Cast", &["q"], &["y"], vec![attr_i("to", 1)]),
        ],
        vec![vi("x", FLOAT, &[7])],
        vec![vi("y", FLOAT, &[7])],
        vec![],
        19,
    );
    let x = f32_tensor(
        &[7],
        &[0.3, 500.0, f32::NEG_INFINITY, 1e-3, -0.0, 0.28125, 17.0],
    );
    let y = run(&m, &[x]);
    // 0.3 -> 10 * 2^-5; 0.28125 = 9 * 2^-5 is exact; 17 is halfway
    // between 16 and 18 and goes to the even mantissa (16); 1e-3 -> the
    // smallest subnormal 2^-9.
    assert_close(
        &y[0],
        &[0.3125, 448.0, -448.0, 0.001953125, 0.0, 0.28125, 16.0],
        &[7],
    );
}

#[test]
fn arithmetic_on_narrow_types_is_refused_by_name() {
    let m = model(
        vec![node("Add", &["a", "b"], &["y"], vec![])],
        vec![vi("a", 17, &[2]), vi("b", 17, &[2])],
        vec![vi("y", 17, &[2])],
        vec![],
        19,
    );
    let err = kiln_onnx::import(&m, &ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("Add of FLOAT8E4M3FN is not supported"),
        "{err}"
    );
}

/// A Loop body adding 1 to its carried `v` and emitting it as a scan output.
fn loop_model(trip: Option<i64>) -> ModelProto {
    let body = GraphProto {
        node: vec![
            node("Identity", &["c"], &["c2"], vec![]),
            node("Add", &["v", "one"], &["v2"], vec![]),
            node("Identity", &["v2"], &["s"], vec![]),
        ],
        initializer: vec![tensor_f32("one", &[], &[1.0])],
        input: vec![vi("i", INT64, &[]), vi("c", 9, &[]), vi("v", FLOAT, &[2])],
        output: vec![
            vi("c2", 9, &[]),
            vi("v2", FLOAT, &[2]),
            vi("s", FLOAT, &[2]),
        ],
        ..Default::default()
    };
    let attr = AttributeProto {
        name: Some("body".into()),
        g: Some(body),
        r#type: Some(AttributeType::Graph as i32),
        ..Default::default()
    };
    let mut inputs = vec![vi("x", FLOAT, &[2])];
    let mut inits = Vec::new();
    match trip {
        Some(t) => inits.push(tensor_i64("m", &[t])),
        None => inputs.push(vi("m", INT64, &[1])),
    }
    model(
        vec![node("Loop", &["m", "", "x"], &["y", "ys"], vec![attr])],
        inputs,
        vec![vi("y", FLOAT, &[2]), vi("ys", FLOAT, &[3, 2])],
        inits,
        13,
    )
}

#[test]
fn loop_with_a_known_trip_count_is_unrolled() {
    let out = run(&loop_model(Some(3)), &[f32_tensor(&[2], &[0.5, -2.0])]);
    assert_close(&out[0], &[3.5, 1.0], &[2]);
    assert_close(&out[1], &[1.5, -1.0, 2.5, 0.0, 3.5, 1.0], &[3, 2]);
}

#[test]
fn loop_with_a_trip_count_computed_while_running_is_refused() {
    let err = kiln_onnx::import(&loop_model(None), &ImportOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("(Loop)"), "{text}");
    assert!(
        text.contains("trip count is computed while running"),
        "{text}"
    );
}

/// A Scan (opset 16) with two state values whose body gives only one
/// output is one error naming the node; it panicked (a slice past the
/// body's outputs).
#[test]
fn scan_body_with_fewer_outputs_than_states_is_an_error() {
    let body = GraphProto {
        node: vec![node("Add", &["s", "x"], &["s2"], vec![])],
        input: vec![
            vi("s", FLOAT, &[2]),
            vi("t", FLOAT, &[2]),
            vi("x", FLOAT, &[2]),
        ],
        output: vec![vi("s2", FLOAT, &[2])],
        ..Default::default()
    };
    let attrs = vec![
        AttributeProto {
            name: Some("body".into()),
            g: Some(body),
            r#type: Some(AttributeType::Graph as i32),
            ..Default::default()
        },
        attr_i("num_scan_inputs", 1),
    ];
    let m = model(
        vec![node("Scan", &["a", "b", "xs"], &["sa", "sb"], attrs)],
        vec![
            vi("a", FLOAT, &[2]),
            vi("b", FLOAT, &[2]),
            vi("xs", FLOAT, &[3, 2]),
        ],
        vec![vi("sa", FLOAT, &[2]), vi("sb", FLOAT, &[2])],
        Vec::new(),
        16,
    );
    let err = kiln_onnx::import(&m, &ImportOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("(Scan)"), "{text}");
    assert!(
        text.contains("the body has 1 outputs, fewer than its 2 state values"),
        "{text}"
    );
}
