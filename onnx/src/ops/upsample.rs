//! `Upsample` (opsets 7-9, deprecated by `Resize`): nearest mode as a
//! `Resize` with asymmetric coordinates and floor rounding (input index
//! `floor(out / scale)`, numpy's `repeat` for integer scales).

use super::{resize, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::proto::{AttributeProto, NodeProto};
use crate::tensor::HostTensor;
use crate::value::Value;

fn string_attr(name: &str, v: &str) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        s: Some(v.as_bytes().to_vec()),
        r#type: Some(3),
        ..Default::default()
    }
}

/// `Upsample(X, scales)` (scales an attribute at opset 7, an input from 9).
pub fn upsample(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let mode = n.string("mode", "nearest");
    if mode != "nearest" {
        return Err(n.err(format!(
            "mode {mode:?} is not supported (nearest; ONNX's reference has no other)"
        )));
    }
    let scales: Vec<f64> = if n.opset >= 9 {
        let k = n.known(1)?;
        (0..k.len()).map(|i| k.float(i)).collect()
    } else {
        n.floats("scales")
            .unwrap_or_default()
            .iter()
            .map(|&v| f64::from(v))
            .collect()
    };
    if scales.len() != x.rank() || scales.iter().any(|&s| s < 1.0) {
        return Err(n.err(format!("scales {scales:?} must be >= 1, one per axis")));
    }
    let sv = Value::constant(HostTensor::from_floats(
        DataType::Float,
        &[scales.len()],
        &scales,
    ));
    let proto = NodeProto {
        op_type: Some("Resize".into()),
        name: Some(format!("{} (Resize)", n.name())),
        output: vec!["y".into()],
        attribute: vec![
            string_attr("mode", "nearest"),
            string_attr("coordinate_transformation_mode", "asymmetric"),
            string_attr("nearest_mode", "floor"),
        ],
        ..Default::default()
    };
    let node = Node {
        proto: &proto,
        inputs: vec![Some(x.clone()), None, Some(sv)],
        opset: 13,
    };
    resize::resize(c, &node)
}
