//! `NegativeLogLikelihoodLoss` and `SoftmaxCrossEntropyLoss` (inference of
//! the loss value): the target classes are read at run time by a
//! `linalg.generic` that `tensor.extract`s each picked log-probability and
//! weight; `ignore_index` targets weigh 0; `mean` divides by the summed
//! weights, as ONNX's reference does.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::{AffineMap, ElemType, TValue};

use super::attention::sub;
use super::gather::{extract, indexed_generic};
use super::scalar::{arith, cmp, cst, select, Bin, Cmp};
use super::{reduce, OpResult};
use crate::ctx::Ctx;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// The loss of `input` (`[N, C, d...]` log-probabilities) at `target`
/// (`[N, d...]`) with optional class `weight`, reduced per `reduction`.
fn nll(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    input: &Value,
    target: &Value,
    weight: Option<&Value>,
) -> Result<Value, OnnxError> {
    let dt = input.dtype;
    if !dt.is_float() || target.dtype.is_float() {
        return Err(n.err("input must be floats and target integers"));
    }
    let is = input
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let ts = target
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    if is.len() < 2 || ts.len() + 1 != is.len() {
        return Err(n.err(format!("input {is:?} and target {ts:?} do not fit")));
    }
    let classes = is[1];
    let ignore = n.has("ignore_index").then(|| n.int("ignore_index", 0));
    let reduction = n.string("reduction", "mean");
    let (tt, te) = (target.dtype, target.dtype.elem());
    let src = c.ssa(input);
    let tv = c.ssa(target);
    let wv = weight.map(|w| c.ssa(w));
    let tmap = AffineMap::identity(ts.len() as u32);
    // The target, with ignored ones as class 0 (kept in range), and the
    // weight each element gets.
    let pick = |bb: &mut kiln_core::tensor::structured::BodyBuilder<'_>, t: TValue| {
        let skip = match ignore {
            Some(ii) => {
                let k = bb.constant(ScalarBits::Int(ii), te);
                cmp(bb, tt, Cmp::Eq, t, k)
            }
            None => bb.constant(ScalarBits::Int(0), ElemType::Int(1)),
        };
        let z = bb.constant(ScalarBits::Int(0), te);
        let safe = select(bb, skip, z, t);
        let ci = bb.arith(ArithOp::IndexCast, vec![safe], ElemType::Index);
        let w = match wv {
            Some(w) => extract(bb, w, &[ci], dt.elem()),
            None => cst(bb, dt, 1.0),
        };
        let zf = cst(bb, dt, 0.0);
        (ci, select(bb, skip, zf, w))
    };
    let _ = classes;
    let loss = indexed_generic(c, &ts, dt, &[(tv, tmap.clone())], |bb, li, ins| {
        let (ci, w) = pick(bb, ins[0]);
        let mut at = vec![li[0], ci];
        at.extend_from_slice(&li[1..]);
        let x = extract(bb, src, &at, dt.elem());
        let xw = arith(bb, dt, Bin::Mul, x, w);
        let z = cst(bb, dt, 0.0);
        arith(bb, dt, Bin::Sub, z, xw)
    });
    let all: Vec<usize> = (0..ts.len()).collect();
    let sum = |c: &mut Ctx<'_>, v: &Value| {
        c.reduce(v, &all, dt, ScalarBits::Float(0.0), |bb, x, acc| {
            arith(bb, dt, Bin::Add, x, acc)
        })
        .map_err(|e| n.err(e))
    };
    match reduction.as_str() {
        "none" => Ok(loss),
        "sum" => sum(c, &loss),
        "mean" => {
            let total = sum(c, &loss)?;
            let ws = indexed_generic(c, &ts, dt, &[(tv, tmap)], |bb, _, ins| pick(bb, ins[0]).1);
            let wsum = sum(c, &ws)?;
            c.elementwise(&[&total, &wsum], dt, |bb, x| {
                arith(bb, dt, Bin::Div, x[0], x[1])
            })
            .map_err(|e| n.err(e))
        }
        r => Err(n.err(format!("reduction {r:?} is not defined"))),
    }
}

/// `NegativeLogLikelihoodLoss`.
pub fn nll_loss(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (input, target) = (n.input(0)?, n.input(1)?);
    Ok(vec![nll(c, n, input, target, n.opt_input(2))?])
}

/// `SoftmaxCrossEntropyLoss`: `LogSoftmax` over the classes (dim 1), then
/// the NLL loss; the optional second output is the log-probabilities.
pub fn softmax_cross_entropy(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (scores, labels) = (n.input(0)?, n.input(1)?);
    let lp = sub(
        c,
        n,
        reduce::log_softmax,
        "LogSoftmax",
        vec![scores.clone()],
        &[("axis", vec![1])],
    )?;
    let loss = nll(c, n, &lp, labels, n.opt_input(2))?;
    Ok(vec![loss, lp])
}
