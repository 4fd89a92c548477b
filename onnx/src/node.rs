//! [`Node`]: one ONNX node as an op function sees it — its inputs as
//! [`Value`]s, its attributes by name with ONNX's defaults, the opset it
//! is read under — and the error helpers naming it.

use crate::error::OnnxError;
use crate::proto::{AttributeProto, NodeProto};
use crate::tensor::HostTensor;
use crate::value::Value;

/// A node being converted.
pub struct Node<'a> {
    /// The node.
    pub proto: &'a NodeProto,
    /// Its inputs (`None` for an omitted optional input).
    pub inputs: Vec<Option<Value>>,
    /// The opset version of its domain.
    pub opset: i64,
}

impl Node<'_> {
    /// The op type.
    pub fn op(&self) -> &str {
        self.proto.op_type.as_deref().unwrap_or("")
    }

    /// The node's name, else its first output's.
    pub fn name(&self) -> String {
        match self.proto.name.as_deref() {
            Some(n) if !n.is_empty() => n.to_owned(),
            _ => self.proto.output.first().cloned().unwrap_or_default(),
        }
    }

    /// An error about this node.
    pub fn err(&self, message: impl std::fmt::Display) -> OnnxError {
        OnnxError::Node {
            node: self.name(),
            op: self.op().to_owned(),
            message: message.to_string(),
        }
    }

    /// Input `i`, which must be given.
    pub fn input(&self, i: usize) -> Result<&Value, OnnxError> {
        self.inputs
            .get(i)
            .and_then(Option::as_ref)
            .ok_or_else(|| self.err(format!("input {i} is missing")))
    }

    /// Input `i` if given.
    pub fn opt_input(&self, i: usize) -> Option<&Value> {
        self.inputs.get(i).and_then(Option::as_ref)
    }

    /// The number of outputs the node asks for.
    pub fn num_outputs(&self) -> usize {
        self.proto.output.len()
    }

    /// Whether output `i` is asked for (named).
    pub fn wants_output(&self, i: usize) -> bool {
        self.proto.output.get(i).is_some_and(|s| !s.is_empty())
    }

    fn attr(&self, name: &str) -> Option<&AttributeProto> {
        self.proto
            .attribute
            .iter()
            .find(|a| a.name.as_deref() == Some(name))
    }

    /// Whether attribute `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    /// Int attribute `name`, or `default`.
    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.attr(name).and_then(|a| a.i).unwrap_or(default)
    }

    /// Float attribute `name`, or `default`.
    pub fn float(&self, name: &str, default: f32) -> f32 {
        self.attr(name).and_then(|a| a.f).unwrap_or(default)
    }

    /// Ints attribute `name` (`None` when absent).
    pub fn ints(&self, name: &str) -> Option<Vec<i64>> {
        self.attr(name).map(|a| a.ints.clone())
    }

    /// Floats attribute `name` (`None` when absent).
    pub fn floats(&self, name: &str) -> Option<Vec<f32>> {
        self.attr(name).map(|a| a.floats.clone())
    }

    /// String attribute `name`, or `default`.
    pub fn string(&self, name: &str, default: &str) -> String {
        self.attr(name).and_then(|a| a.s.as_ref()).map_or_else(
            || default.to_owned(),
            |s| String::from_utf8_lossy(s).into_owned(),
        )
    }

    /// Tensor attribute `name`, decoded.
    pub fn tensor(&self, name: &str) -> Result<Option<HostTensor>, OnnxError> {
        match self.attr(name).and_then(|a| a.t.as_ref()) {
            Some(t) => HostTensor::from_proto(t, None).map(Some),
            None => Ok(None),
        }
    }

    /// The contents of input `i`, which must be known at import time
    /// (a constant, an initializer, a folded value, or a graph input given
    /// as a static value).
    pub fn known(&self, i: usize) -> Result<&HostTensor, OnnxError> {
        let v = self.input(i)?;
        v.known.as_deref().ok_or_else(|| {
            self.err(format!(
                "input {i} ({}) must be known before running (a constant or initializer); \
                 sizes computed from tensor data are not supported",
                self.proto.input.get(i).map_or("", String::as_str)
            ))
        })
    }

    /// The integers of input `i` if given (see [`Self::known`]).
    pub fn opt_ints(&self, i: usize) -> Result<Option<Vec<i64>>, OnnxError> {
        match self.opt_input(i) {
            Some(_) => Ok(Some(self.known(i)?.ints())),
            None => Ok(None),
        }
    }

    /// Normalises axis `a` (negative counts from the end) for rank `rank`.
    pub fn axis(&self, a: i64, rank: usize) -> Result<usize, OnnxError> {
        let r = rank as i64;
        let n = if a < 0 { a + r } else { a };
        if (0..r.max(1)).contains(&n) || (r == 0 && n == 0) {
            Ok(n as usize)
        } else {
            Err(self.err(format!("axis {a} is out of range for rank {rank}")))
        }
    }
}
