//! `ai.onnx.ml` `TreeEnsemble` (version 5): each tree, its structure known
//! at import, compiled into nested selects in one generic over `[N,
//! n_targets]`: a leaf gives its weight where the element's target is the
//! leaf's, else the aggregate's identity; the trees' values combine by
//! SUM, AVERAGE, MIN or MAX as ONNX's reference. No post transform.

use kiln_core::tensor::attr::{CmpIPred, ScalarBits};
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, cmp, cst, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;

/// Most nodes and leaves the compiled trees may hold (shared subtrees
/// counted once per use).
const NODE_LIMIT: usize = 4096;

/// Why the trees of a `TreeEnsemble` cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum TreeError {
    /// More nodes than [`NODE_LIMIT`] once expanded.
    #[error("the trees expand past {NODE_LIMIT} nodes")]
    TooManyNodes,
    /// A negative node id.
    #[error("negative node id {0}")]
    NegativeId(i64),
    /// A leaf id without target and weight.
    #[error("leaf {0} is not described")]
    UndescribedLeaf(i64),
    /// A node id without mode.
    #[error("node {0} is not described")]
    UndescribedNode(i64),
    /// A node reading a feature past the input's width.
    #[error("node {node} reads feature {feature} of {width}")]
    Feature {
        /// The node id.
        node: i64,
        /// The feature it reads.
        feature: i64,
        /// The input's width.
        width: i64,
    },
    /// An undefined node mode.
    #[error("node mode {0} is not defined")]
    Mode(i64),
}

/// The trees' description.
struct Forest {
    splits: Vec<f64>,
    features: Vec<i64>,
    modes: Vec<i64>,
    true_ids: Vec<i64>,
    false_ids: Vec<i64>,
    true_leaf: Vec<i64>,
    false_leaf: Vec<i64>,
    leaf_targets: Vec<i64>,
    leaf_weights: Vec<f64>,
    missing_true: Vec<i64>,
    /// Per MEMBER node (by node index), its set.
    members: Vec<Vec<f64>>,
}

/// The per-element state of the compilation.
struct Emit<'a> {
    f: &'a Forest,
    dt: DataType,
    x: TValue,
    row: TValue,
    target: TValue,
    ident: TValue,
    width: i64,
    count: usize,
}

impl Emit<'_> {
    fn feature(&mut self, bb: &mut BodyBuilder<'_>, k: i64) -> TValue {
        let c = index_const(bb, k);
        extract(bb, self.x, &[self.row, c], self.dt.elem())
    }

    /// The value of the subtree at `i` (a leaf when `leaf`).
    fn tree(&mut self, bb: &mut BodyBuilder<'_>, i: i64, leaf: bool) -> Result<TValue, TreeError> {
        self.count += 1;
        if self.count > NODE_LIMIT {
            return Err(TreeError::TooManyNodes);
        }
        let iu = usize::try_from(i).map_err(|_| TreeError::NegativeId(i))?;
        let dt = self.dt;
        if leaf {
            let (&t, &w) = self
                .f
                .leaf_targets
                .get(iu)
                .zip(self.f.leaf_weights.get(iu))
                .ok_or(TreeError::UndescribedLeaf(i))?;
            let tc = bb.constant(ScalarBits::Int(t), ElemType::I64);
            let here = bb.arith(
                ArithOp::CmpI(CmpIPred::Eq),
                vec![self.target, tc],
                ElemType::I1,
            );
            let wv = cst(bb, dt, w);
            return Ok(select(bb, here, wv, self.ident));
        }
        let f = self.f;
        if iu >= f.modes.len() {
            return Err(TreeError::UndescribedNode(i));
        }
        let feat = f.features[iu];
        if !(0..self.width).contains(&feat) {
            return Err(TreeError::Feature {
                node: i,
                feature: feat,
                width: self.width,
            });
        }
        let x = self.feature(bb, feat);
        let s = cst(bb, dt, f.splits.get(iu).copied().unwrap_or(0.0));
        let mut cond = match f.modes[iu] {
            0 => cmp(bb, dt, Cmp::Le, x, s),
            1 => cmp(bb, dt, Cmp::Lt, x, s),
            2 => cmp(bb, dt, Cmp::Ge, x, s),
            3 => cmp(bb, dt, Cmp::Gt, x, s),
            4 => cmp(bb, dt, Cmp::Eq, x, s),
            5 => cmp(bb, dt, Cmp::Ne, x, s),
            6 => {
                let mut any = bb.constant(ScalarBits::Int(0), ElemType::I1);
                for &m in &f.members[iu] {
                    let mv = cst(bb, dt, m);
                    let e = cmp(bb, dt, Cmp::Eq, x, mv);
                    any = bb.arith(ArithOp::OrI, vec![any, e], ElemType::I1);
                }
                any
            }
            m => return Err(TreeError::Mode(m)),
        };
        if f.missing_true.get(iu).copied().unwrap_or(0) != 0 {
            let nan = cmp(bb, dt, Cmp::Ne, x, x);
            cond = bb.arith(ArithOp::OrI, vec![cond, nan], ElemType::I1);
        }
        let t = self.tree(bb, f.true_ids[iu], f.true_leaf[iu] != 0)?;
        let e = self.tree(bb, f.false_ids[iu], f.false_leaf[iu] != 0)?;
        Ok(select(bb, cond, t, e))
    }
}

fn floats(n: &Node<'_>, name: &str) -> Result<Vec<f64>, OnnxError> {
    Ok(match n.tensor(name)? {
        Some(t) => (0..t.len()).map(|i| t.float(i)).collect(),
        None => n
            .floats(name)
            .unwrap_or_default()
            .into_iter()
            .map(f64::from)
            .collect(),
    })
}

/// `TreeEnsemble(X)`.
pub fn tree_ensemble(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let xs = x
        .static_shape()
        .filter(|s| s.len() == 2)
        .ok_or_else(|| n.err("X must be [N, features] of static shape"))?;
    if !dt.is_float() {
        return Err(n.err(format!("TreeEnsemble of {} is not supported", dt.name())));
    }
    if n.int("post_transform", 0) != 0 {
        return Err(n.err("post_transform other than NONE is not supported"));
    }
    let agg = n.int("aggregate_function", 1);
    let modes: Vec<i64> = match n.tensor("nodes_modes")? {
        Some(t) => t.ints(),
        None => Vec::new(),
    };
    let ints = |name: &str| n.ints(name).unwrap_or_default();
    // MEMBER nodes take the NaN-separated sets in node order.
    let values = floats(n, "membership_values")?;
    let mut sets = values.split(|v| v.is_nan());
    let mut members = vec![Vec::new(); modes.len()];
    for (i, &m) in modes.iter().enumerate() {
        if m == 6 {
            members[i] = sets
                .next()
                .ok_or_else(|| n.err("fewer membership sets than MEMBER nodes"))?
                .to_vec();
        }
    }
    let forest = Forest {
        splits: floats(n, "nodes_splits")?,
        features: ints("nodes_featureids"),
        true_ids: ints("nodes_truenodeids"),
        false_ids: ints("nodes_falsenodeids"),
        true_leaf: ints("nodes_trueleafs"),
        false_leaf: ints("nodes_falseleafs"),
        leaf_targets: ints("leaf_targetids"),
        leaf_weights: floats(n, "leaf_weights")?,
        missing_true: ints("nodes_missing_value_tracks_true"),
        members,
        modes,
    };
    let k = forest.modes.len();
    if [
        &forest.features,
        &forest.true_ids,
        &forest.false_ids,
        &forest.true_leaf,
        &forest.false_leaf,
    ]
    .iter()
    .any(|v| v.len() != k)
    {
        return Err(n.err("the nodes_* attributes differ in length"));
    }
    let roots = ints("tree_roots");
    let targets = n.int("n_targets", 1).max(1) as u64;
    let (lowest, highest) = match dt {
        DataType::Double => (f64::MIN, f64::MAX),
        _ => (f64::from(f32::MIN), f64::from(f32::MAX)),
    };
    let (ident, combine) = match agg {
        0 | 1 => (0.0, Bin::Add),
        2 => (highest, Bin::Min),
        3 => (lowest, Bin::Max),
        a => return Err(n.err(format!("aggregate_function {a} is not defined"))),
    };
    let xv = c.ssa(x);
    let mut failure = None;
    let y = indexed_generic(c, &[xs[0], targets], dt, &[], |bb, li, _| {
        let target = bb.arith(ArithOp::IndexCast, vec![li[1]], ElemType::I64);
        let id = cst(bb, dt, ident);
        let mut e = Emit {
            f: &forest,
            dt,
            x: xv,
            row: li[0],
            target,
            ident: id,
            width: xs[1] as i64,
            count: 0,
        };
        let mut acc = cst(bb, dt, ident);
        for &r in &roots {
            let ru = r as usize;
            let leaf = ru < k
                && forest.true_leaf[ru] != 0
                && forest.false_leaf[ru] != 0
                && forest.true_ids[ru] == forest.false_ids[ru];
            let v = match e.tree(bb, if leaf { forest.true_ids[ru] } else { r }, leaf) {
                Ok(v) => v,
                Err(m) => {
                    failure = Some(m);
                    return acc;
                }
            };
            let v = if agg == 0 {
                let cnt = cst(bb, dt, roots.len() as f64);
                arith(bb, dt, Bin::Div, v, cnt)
            } else {
                v
            };
            acc = arith(bb, dt, combine, acc, v);
        }
        acc
    });
    if let Some(m) = failure {
        return Err(n.err(m));
    }
    Ok(vec![y])
}
