//! The structured-op interface: every `linalg` op seen as a
//! `linalg.generic` (MLIR's `LinalgInterfaces`).
//!
//! A structured op computes, for every point `p` of an iteration space
//! `[0, n0) x ... x [0, nL-1)` (loops `d0 .. dL-1`, outermost first):
//!
//! ```text
//! yields = body(inputs[k][indexing_maps[k](p)] for each input k,
//!               outputs[j][indexing_maps[I + j](p)] for each output j,
//!               linalg.index i = p[i])
//! outputs[j][indexing_maps[I + j](p)] = yields[j]
//! ```
//!
//! Points are visited in row-major order of the loops (`d0` outermost), so
//! a reduction accumulates in that order; the outputs start as the `outs`
//! operands (the "init" values). Loops marked
//! [`IteratorType::Parallel`] write distinct output elements at distinct
//! points and may run in any order; [`IteratorType::Reduction`] loops
//! revisit the same output elements.
//!
//! [`structured()`] gives that view of any linalg op: its
//! [`Structured::inputs`], [`Structured::outputs`], indexing maps, iterator
//! types and [`Structured::body`] — the region block, whose arguments are
//! one scalar per input then one per output (the element types; a scalar
//! input such as `linalg.fill`'s value passes through as is; `linalg.map`'s
//! text has no argument for its init, the IR adds one) and which ends
//! in `linalg.yield` of one scalar per output. Named ops (`linalg.matmul`,
//! convolutions, ...) get the body MLIR's `--linalg-generalize-named-ops`
//! gives them, built when the op is created (so they hold it like any
//! generic), and keep their [`LinalgKind`] so a strategy can choose by op
//! family; [`generalize`] turns one into the equivalent `linalg.generic`.
//!
//! The iteration space's sizes come from the operands' shapes:
//! [`Structured::loop_sources`] names, for each loop, the first operand
//! dimension whose map result is exactly that loop (MLIR's
//! shapes-to-loops map); the verifier rejects ops where a loop has none.
//!
//! `linalg.softmax` is not a single structured op: [`structured()`] returns
//! `None` for it. Its meaning is MLIR 19's decomposition along `dimension`
//! (with `rest` the other dims): `max = reduce(maxnumf, init =
//! -3.40282347e+38)`, `e = exp(x - max)`, `sum = reduce(addf, init = 0)`,
//! `out = e / sum`; each reduction folds `(in, acc)` in loop order. The
//! evaluator computes exactly that; a compiler treats softmax as its own
//! op family, or rewrites it with [`decompose_softmax`] into those four
//! `linalg.generic`s (the ops MLIR's `decompose_interface` transform
//! gives), which the structured interface then covers.

use super::affine::{AffineExpr, AffineMap};
use super::attr::{ConstAttr, IteratorType, ScalarBits};
use super::entity::{TBlock, TOp, TValue};
use super::module::TensorModule;
use super::ops::{
    ArithOp, ContractionKind, ConvAttrs, ConvKind, ElementwiseKind, LinalgKind, LinalgOp, MathOp,
    OpKind,
};
use super::types::{ElemType, TypeKind};
use crate::ir::Location;

/// A linalg op seen as a generic structured op.
#[derive(Clone, Debug, PartialEq)]
pub struct Structured {
    /// The op.
    pub op: TOp,
    /// The op's kind (its name tells the op family).
    pub kind: LinalgKind,
    /// `ins` operands (tensors, or scalars such as `linalg.fill`'s value).
    pub inputs: Vec<TValue>,
    /// `outs` operands (tensors); one result per output.
    pub outputs: Vec<TValue>,
    /// One map per operand (inputs then outputs).
    pub indexing_maps: Vec<AffineMap>,
    /// One per loop.
    pub iterator_types: Vec<IteratorType>,
    /// The scalar body (see the module documentation).
    pub body: TBlock,
}

impl Structured {
    /// The number of loops.
    pub fn num_loops(&self) -> usize {
        self.iterator_types.len()
    }

    /// The operands, inputs then outputs.
    pub fn operands(&self) -> impl Iterator<Item = TValue> + '_ {
        self.inputs.iter().chain(&self.outputs).copied()
    }

    /// The loops marked reduction.
    pub fn reduction_loops(&self) -> Vec<usize> {
        (0..self.num_loops())
            .filter(|&i| self.iterator_types[i] == IteratorType::Reduction)
            .collect()
    }

    /// For each loop, `(operand index, dim)` of the first operand
    /// dimension (inputs then outputs) indexed by exactly that loop, which
    /// gives the loop's size; `None` when no operand dimension is.
    pub fn loop_sources(&self) -> Vec<Option<(usize, usize)>> {
        let mut out = vec![None; self.num_loops()];
        for (k, map) in self.indexing_maps.iter().enumerate() {
            for (r, e) in map.results.iter().enumerate() {
                if let Some(d) = e.as_dim() {
                    if let Some(slot) = out.get_mut(d as usize) {
                        if slot.is_none() {
                            *slot = Some((k, r));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The rank of an operand (0 for scalars).
fn rank(m: &TensorModule, v: TValue) -> usize {
    m.value_kind(v).tensor_shape().map_or(0, <[_]>::len)
}

/// The structured view of `op`: `None` for ops that are not structured
/// linalg ops (and for `linalg.softmax`, see the module documentation) or
/// whose operands do not have the ranks the op needs (the verifier reports
/// those).
pub fn structured(m: &TensorModule, op: TOp) -> Option<Structured> {
    let data = m.op(op);
    let OpKind::Linalg(LinalgOp { kind, num_inputs }) = &data.kind else {
        return None;
    };
    if matches!(kind, LinalgKind::Softmax { .. }) {
        return None;
    }
    let body = *data.regions.first()?;
    let inputs = data.operands.get(..*num_inputs)?.to_vec();
    let outputs = data.operands.get(*num_inputs..)?.to_vec();
    let ranks: Vec<usize> = inputs.iter().chain(&outputs).map(|&v| rank(m, v)).collect();
    let (indexing_maps, iterator_types) = indexing(kind, &ranks)?;
    Some(Structured {
        op,
        kind: kind.clone(),
        inputs,
        outputs,
        indexing_maps,
        iterator_types,
        body,
    })
}

/// The indexing maps and iterator types of a linalg op whose operands
/// (inputs then outputs) have `ranks`; `None` when the ranks do not fit
/// the op or the op is `linalg.softmax`.
pub fn indexing(kind: &LinalgKind, ranks: &[usize]) -> Option<(Vec<AffineMap>, Vec<IteratorType>)> {
    use IteratorType::{Parallel as P, Reduction as R};
    let out_rank = *ranks.last()? as u32;
    let all_parallel = |n: u32| vec![P; n as usize];
    Some(match kind {
        LinalgKind::Generic {
            indexing_maps,
            iterator_types,
        } => (indexing_maps.clone(), iterator_types.clone()),
        LinalgKind::Fill => {
            let scalar = AffineMap::new(out_rank, 0, vec![]);
            (
                vec![scalar, AffineMap::identity(out_rank)],
                all_parallel(out_rank),
            )
        }
        LinalgKind::Copy | LinalgKind::Map | LinalgKind::Elementwise(_) => (
            ranks
                .iter()
                .map(|_| AffineMap::identity(out_rank))
                .collect(),
            all_parallel(out_rank),
        ),
        LinalgKind::Reduce { dimensions } => {
            let in_rank = *ranks.first()? as u32;
            let kept: Vec<u32> = (0..in_rank)
                .filter(|d| !dimensions.contains(&u64::from(*d)))
                .collect();
            let n_in = ranks.len() / 2;
            let mut maps = vec![AffineMap::identity(in_rank); n_in];
            maps.extend(vec![AffineMap::select(in_rank, &kept); ranks.len() - n_in]);
            let iters = (0..in_rank)
                .map(|d| {
                    if dimensions.contains(&u64::from(d)) {
                        R
                    } else {
                        P
                    }
                })
                .collect();
            (maps, iters)
        }
        LinalgKind::Transpose { permutation } => {
            // out[k] = in[permutation[k]]: input coordinate j is the loop k
            // with permutation[k] == j.
            let mut inverse = vec![0u32; permutation.len()];
            for (k, &j) in permutation.iter().enumerate() {
                *inverse.get_mut(j as usize)? = k as u32;
            }
            (
                vec![
                    AffineMap::select(out_rank, &inverse),
                    AffineMap::identity(out_rank),
                ],
                all_parallel(out_rank),
            )
        }
        LinalgKind::Broadcast { dimensions } => {
            let kept: Vec<u32> = (0..out_rank)
                .filter(|d| !dimensions.contains(&u64::from(*d)))
                .collect();
            (
                vec![
                    AffineMap::select(out_rank, &kept),
                    AffineMap::identity(out_rank),
                ],
                all_parallel(out_rank),
            )
        }
        LinalgKind::Contraction(c) => contraction_indexing(*c),
        LinalgKind::Conv(c, attrs) => conv_indexing(*c, attrs),
        LinalgKind::Softmax { .. } => return None,
    })
}

fn contraction_indexing(c: ContractionKind) -> (Vec<AffineMap>, Vec<IteratorType>) {
    use IteratorType::{Parallel as P, Reduction as R};
    let s = AffineMap::select;
    match c {
        ContractionKind::Matmul => (
            vec![s(3, &[0, 2]), s(3, &[2, 1]), s(3, &[0, 1])],
            vec![P, P, R],
        ),
        ContractionKind::MatmulTransposeA => (
            vec![s(3, &[2, 0]), s(3, &[2, 1]), s(3, &[0, 1])],
            vec![P, P, R],
        ),
        ContractionKind::MatmulTransposeB => (
            vec![s(3, &[0, 2]), s(3, &[1, 2]), s(3, &[0, 1])],
            vec![P, P, R],
        ),
        ContractionKind::BatchMatmul => (
            vec![s(4, &[0, 1, 3]), s(4, &[0, 3, 2]), s(4, &[0, 1, 2])],
            vec![P, P, P, R],
        ),
        ContractionKind::Matvec => (vec![s(2, &[0, 1]), s(2, &[1]), s(2, &[0])], vec![P, R]),
        ContractionKind::Vecmat => (vec![s(2, &[1]), s(2, &[1, 0]), s(2, &[0])], vec![P, R]),
        ContractionKind::BatchMatvec => (
            vec![s(3, &[0, 1, 2]), s(3, &[0, 2]), s(3, &[0, 1])],
            vec![P, P, R],
        ),
        ContractionKind::Dot => (vec![s(1, &[0]), s(1, &[0]), s(1, &[])], vec![R]),
    }
}

/// A two-element `strides`/`dilations` attribute's values (default 1, 1).
pub fn conv_pair(attr: &Option<super::attr::DenseElements>) -> [i64; 2] {
    let v = conv_values(attr, 2);
    [v[0], v[1]]
}

/// An `n`-element `strides`/`dilations` attribute's values (default all
/// ones; a splat repeats its value).
pub fn conv_values(attr: &Option<super::attr::DenseElements>, n: usize) -> Vec<i64> {
    match attr {
        Some(d) if !d.data.is_empty() => (0..n)
            .map(|i| {
                let k = if d.splat { 0 } else { i.min(d.data.len() - 1) };
                match d.data.get(k) {
                    ScalarBits::Int(v) => v,
                    ScalarBits::Float(f) => f as i64,
                }
            })
            .collect(),
        _ => vec![1; n],
    }
}

fn conv_indexing(c: ConvKind, attrs: &ConvAttrs) -> (Vec<AffineMap>, Vec<IteratorType>) {
    use AffineExpr::{Const, Dim};
    use IteratorType::{Parallel as P, Reduction as R};
    let [s0, s1] = conv_pair(&attrs.strides);
    let [l0, l1] = conv_pair(&attrs.dilations);
    // out * stride + window * dilation.
    let win = |out: u32, w: u32, s: i64, l: i64| {
        AffineExpr::add(
            AffineExpr::mul(Dim(out), Const(s)),
            AffineExpr::mul(Dim(w), Const(l)),
        )
    };
    let m = |n: u32, r: Vec<AffineExpr>| AffineMap::new(n, 0, r);
    let one = |a: &Option<super::attr::DenseElements>| conv_values(a, 1)[0];
    match c {
        // (n, oh, ow, f, kh, kw, c)
        ConvKind::Conv2dNhwcHwcf => (
            vec![
                m(
                    7,
                    vec![Dim(0), win(1, 4, s0, l0), win(2, 5, s1, l1), Dim(6)],
                ),
                AffineMap::select(7, &[4, 5, 6, 3]),
                AffineMap::select(7, &[0, 1, 2, 3]),
            ],
            vec![P, P, P, P, R, R, R],
        ),
        // (n, f, oh, ow, c, kh, kw)
        ConvKind::Conv2dNchwFchw => (
            vec![
                m(
                    7,
                    vec![Dim(0), Dim(4), win(2, 5, s0, l0), win(3, 6, s1, l1)],
                ),
                AffineMap::select(7, &[1, 4, 5, 6]),
                AffineMap::select(7, &[0, 1, 2, 3]),
            ],
            vec![P, P, P, P, R, R, R],
        ),
        // (n, oh, ow, c, kh, kw)
        ConvKind::DepthwiseConv2dNhwcHwc => (
            vec![
                m(
                    6,
                    vec![Dim(0), win(1, 4, s0, l0), win(2, 5, s1, l1), Dim(3)],
                ),
                AffineMap::select(6, &[4, 5, 3]),
                AffineMap::select(6, &[0, 1, 2, 3]),
            ],
            vec![P, P, P, P, R, R],
        ),
        ConvKind::PoolingNhwcMax | ConvKind::PoolingNhwcSum | ConvKind::PoolingNhwcMin => (
            vec![
                m(
                    6,
                    vec![Dim(0), win(1, 4, s0, l0), win(2, 5, s1, l1), Dim(3)],
                ),
                AffineMap::select(6, &[4, 5]),
                AffineMap::select(6, &[0, 1, 2, 3]),
            ],
            vec![P, P, P, P, R, R],
        ),
        // (n, c, oh, ow, kh, kw)
        ConvKind::PoolingNchwMax | ConvKind::PoolingNchwSum => (
            vec![
                m(
                    6,
                    vec![Dim(0), Dim(1), win(2, 4, s0, l0), win(3, 5, s1, l1)],
                ),
                AffineMap::select(6, &[4, 5]),
                AffineMap::select(6, &[0, 1, 2, 3]),
            ],
            vec![P, P, P, P, R, R],
        ),
        // (n, f, ow, c, kw)
        ConvKind::Conv1dNcwFcw => {
            let (s, l) = (one(&attrs.strides), one(&attrs.dilations));
            (
                vec![
                    m(5, vec![Dim(0), Dim(3), win(2, 4, s, l)]),
                    AffineMap::select(5, &[1, 3, 4]),
                    AffineMap::select(5, &[0, 1, 2]),
                ],
                vec![P, P, P, R, R],
            )
        }
        // (n, c, ow, kw)
        ConvKind::PoolingNcwMax | ConvKind::PoolingNcwSum => {
            let (s, l) = (one(&attrs.strides), one(&attrs.dilations));
            (
                vec![
                    m(4, vec![Dim(0), Dim(1), win(2, 3, s, l)]),
                    AffineMap::select(4, &[3]),
                    AffineMap::select(4, &[0, 1, 2]),
                ],
                vec![P, P, P, R],
            )
        }
        // (n, od, oh, ow, f, kd, kh, kw, c)
        ConvKind::Conv3dNcdhwFcdhw => {
            let s = conv_values(&attrs.strides, 3);
            let l = conv_values(&attrs.dilations, 3);
            (
                vec![
                    m(
                        9,
                        vec![
                            Dim(0),
                            Dim(8),
                            win(1, 5, s[0], l[0]),
                            win(2, 6, s[1], l[1]),
                            win(3, 7, s[2], l[2]),
                        ],
                    ),
                    AffineMap::select(9, &[4, 8, 5, 6, 7]),
                    AffineMap::select(9, &[0, 4, 1, 2, 3]),
                ],
                vec![P, P, P, P, P, R, R, R, R],
            )
        }
        // (n, od, oh, ow, c, kd, kh, kw)
        ConvKind::PoolingNdhwcMax | ConvKind::PoolingNdhwcSum => {
            let s = conv_values(&attrs.strides, 3);
            let l = conv_values(&attrs.dilations, 3);
            (
                vec![
                    m(
                        8,
                        vec![
                            Dim(0),
                            win(1, 5, s[0], l[0]),
                            win(2, 6, s[1], l[1]),
                            win(3, 7, s[2], l[2]),
                            Dim(4),
                        ],
                    ),
                    AffineMap::select(8, &[5, 6, 7]),
                    AffineMap::select(8, &[0, 1, 2, 3, 4]),
                ],
                vec![P, P, P, P, P, R, R, R],
            )
        }
        // (n, oh, ow, c, kh, kw), as MLIR orders them
        ConvKind::DepthwiseConv2dNchwChw => (
            vec![
                m(
                    6,
                    vec![Dim(0), Dim(3), win(1, 4, s0, l0), win(2, 5, s1, l1)],
                ),
                AffineMap::select(6, &[3, 4, 5]),
                AffineMap::select(6, &[0, 3, 1, 2]),
            ],
            vec![P, P, P, P, R, R],
        ),
    }
}

/// Appends scalar ops to a body block.
pub struct BodyBuilder<'m> {
    m: &'m mut TensorModule,
    block: TBlock,
}

impl<'m> BodyBuilder<'m> {
    /// A builder appending to `block`.
    pub fn new(m: &'m mut TensorModule, block: TBlock) -> Self {
        BodyBuilder { m, block }
    }

    /// The element type of scalar `v`.
    pub fn elem(&self, v: TValue) -> ElemType {
        self.m.value_kind(v).elem()
    }

    /// Appends `kind` with `operands`, giving one result of scalar type `ty`
    /// (or none when `ty` is `None`).
    pub fn push(
        &mut self,
        kind: OpKind,
        operands: Vec<TValue>,
        ty: Option<ElemType>,
    ) -> Option<TValue> {
        let types: Vec<_> = ty.map(|e| self.m.types.scalar(e)).into_iter().collect();
        let op = self
            .m
            .create_op(kind, operands, &types, vec![], Location::UNKNOWN);
        self.m.append_op(self.block, op);
        self.m.op(op).results.first().copied()
    }

    /// An `arith` op with result type `ty`.
    pub fn arith(&mut self, op: ArithOp, operands: Vec<TValue>, ty: ElemType) -> TValue {
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.push(kind, operands, Some(ty)).expect("one result")
    }

    /// A `math` op of the operand's type.
    pub fn math(&mut self, op: MathOp, operands: Vec<TValue>) -> TValue {
        let ty = self.elem(operands[0]);
        let kind = OpKind::Math {
            op,
            fastmath: Default::default(),
        };
        self.push(kind, operands, Some(ty)).expect("one result")
    }

    /// A scalar constant.
    pub fn constant(&mut self, value: ScalarBits, ty: ElemType) -> TValue {
        let t = self.m.types.scalar(ty);
        let attr = match value {
            ScalarBits::Int(v) => ConstAttr::Int { value: v, ty: t },
            ScalarBits::Float(v) => ConstAttr::Float { value: v, ty: t },
        };
        self.push(OpKind::Constant(attr), vec![], Some(ty))
            .expect("one result")
    }

    /// `linalg.yield values`.
    pub fn yield_(&mut self, values: Vec<TValue>) {
        self.push(OpKind::LinalgYield, values, None);
    }

    /// MLIR's `cast_signed(to, v)`: the signed conversion of `v` to `to`
    /// (no op when the types agree).
    pub fn cast_signed(&mut self, v: TValue, to: ElemType) -> TValue {
        let from = self.elem(v);
        if from == to {
            return v;
        }
        let op = match (from.is_float(), to.is_float()) {
            (true, true) if to.bits() > from.bits() => ArithOp::ExtF,
            (true, true) => ArithOp::TruncF,
            (false, true) => ArithOp::SIToFP,
            (true, false) => ArithOp::FPToSI,
            (false, false) if from == ElemType::Index || to == ElemType::Index => {
                ArithOp::IndexCast
            }
            (false, false) if to.bits() > from.bits() => ArithOp::ExtSI,
            (false, false) => ArithOp::TruncI,
        };
        self.arith(op, vec![v], to)
    }

    /// MLIR's `BinaryFn` for `add`/`mul`/`max_signed`/`min_signed`/`sub`/
    /// `div`: the float, integer or boolean op of `a`'s type.
    pub fn binary(&mut self, f: BinaryFn, a: TValue, b: TValue) -> TValue {
        let ty = self.elem(a);
        let float = ty.is_float();
        let bool_ = ty == ElemType::I1;
        let op = match f {
            BinaryFn::Add if float => ArithOp::AddF,
            BinaryFn::Add if bool_ => ArithOp::OrI,
            BinaryFn::Add => ArithOp::AddI,
            BinaryFn::Sub if float => ArithOp::SubF,
            BinaryFn::Sub => ArithOp::SubI,
            BinaryFn::Mul if float => ArithOp::MulF,
            BinaryFn::Mul if bool_ => ArithOp::AndI,
            BinaryFn::Mul => ArithOp::MulI,
            BinaryFn::Div if float => ArithOp::DivF,
            BinaryFn::Div => ArithOp::DivSI,
            BinaryFn::DivUnsigned => ArithOp::DivUI,
            BinaryFn::MaxSigned if float => ArithOp::MaximumF,
            BinaryFn::MaxSigned => ArithOp::MaxSI,
            BinaryFn::MinSigned if float => ArithOp::MinimumF,
            BinaryFn::MinSigned => ArithOp::MinSI,
        };
        self.arith(op, vec![a, b], ty)
    }
}

/// Why a structured op's body or rewrite cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StructuredError {
    /// A quantized matmul without four inputs (the count).
    #[error("expected 4 inputs (A, B and their zero points), got {0}")]
    QuantizedInputs(usize),
    /// A quantized matmul body without four inputs and one output.
    #[error("expected 4 inputs and one output")]
    QuantizedOperands,
    /// A named op without output element type.
    #[error("expected one output")]
    NoOutputType,
    /// A named op with fewer inputs than its body reads (the count needed).
    #[error("expected at least {0} inputs")]
    TooFewInputs(usize),
    /// A named op body without output argument.
    #[error("expected an output")]
    NoOutput,
    /// An op whose body is written or absent, not synthesized (its name).
    #[error("'{0}' has no synthesized body")]
    NoSynthesizedBody(&'static str),
    /// `decompose_softmax` of another op (its name).
    #[error("'{0}' is not linalg.softmax")]
    NotSoftmax(String),
    /// The op is in no block.
    #[error("the op is not in a block")]
    Detached,
    /// A softmax without one input and one output.
    #[error("expected one input and one output")]
    SoftmaxOperands,
    /// A softmax without result.
    #[error("expected a result")]
    NoResult,
    /// A softmax of a non-tensor.
    #[error("expected a tensor input")]
    NotTensorInput,
    /// A softmax dimension past the rank.
    #[error("dimension {0} is out of range")]
    DimensionOutOfRange(usize),
    /// The op is not among its parent block's ops.
    #[error("the op is not in its block")]
    NotInItsBlock,
}

/// `linalg.quantized_matmul` (`batch`: `linalg.quantized_batch_matmul`)
/// as the `linalg.generic` MLIR 19 generalizes it to: inputs A, B and the
/// scalar zero points of A and B, one output C;
/// `C += (cast_signed(A) - cast_signed(azp)) * (cast_signed(B) - cast_signed(bzp))`
/// in C's element type. Returns the kind and the (detached) body.
pub fn quantized_matmul_generic(
    m: &mut TensorModule,
    batch: bool,
    in_elems: &[ElemType],
    out_elem: ElemType,
) -> Result<(LinalgKind, TBlock), StructuredError> {
    use IteratorType::{Parallel as P, Reduction as R};
    if in_elems.len() != 4 {
        return Err(StructuredError::QuantizedInputs(in_elems.len()));
    }
    let (indexing_maps, iterator_types) = if batch {
        // (b, m, n, k)
        (
            vec![
                AffineMap::select(4, &[0, 1, 3]),
                AffineMap::select(4, &[0, 3, 2]),
                AffineMap::new(4, 0, vec![]),
                AffineMap::new(4, 0, vec![]),
                AffineMap::select(4, &[0, 1, 2]),
            ],
            vec![P, P, P, R],
        )
    } else {
        // (m, n, k)
        (
            vec![
                AffineMap::select(3, &[0, 2]),
                AffineMap::select(3, &[2, 1]),
                AffineMap::new(3, 0, vec![]),
                AffineMap::new(3, 0, vec![]),
                AffineMap::select(3, &[0, 1]),
            ],
            vec![P, P, R],
        )
    };
    let arg_types: Vec<_> = in_elems
        .iter()
        .chain(std::iter::once(&out_elem))
        .map(|&e| m.types.scalar(e))
        .collect();
    let block = m.create_block(&arg_types);
    let args = m.block(block).args.clone();
    let mut b = BodyBuilder::new(m, block);
    let [a, bv, azp, bzp, out] = args[..] else {
        return Err(StructuredError::QuantizedOperands);
    };
    let a = b.cast_signed(a, out_elem);
    let azp = b.cast_signed(azp, out_elem);
    let a = b.binary(BinaryFn::Sub, a, azp);
    let bv = b.cast_signed(bv, out_elem);
    let bzp = b.cast_signed(bzp, out_elem);
    let bv = b.binary(BinaryFn::Sub, bv, bzp);
    let p = b.binary(BinaryFn::Mul, a, bv);
    let r = b.binary(BinaryFn::Add, out, p);
    b.yield_(vec![r]);
    Ok((
        LinalgKind::Generic {
            indexing_maps,
            iterator_types,
        },
        block,
    ))
}

/// `linalg.conv_2d_ngchw_gfchw` (`fgchw`: `linalg.conv_2d_ngchw_fgchw`),
/// the grouped convolution torch-mlir writes for `groups > 1`, as the
/// `linalg.generic` MLIR 19 generalizes it to: input `(N, G, C, H, W)`,
/// filter `(G, F, C, KH, KW)` (`fgchw`: `(F, G, C, KH, KW)`), output
/// `(N, G, F, OH, OW)`; loops `(n, g, f, oh, ow, c, kh, kw)`, the input read
/// at `oh * stride + kh * dilation`; the body is a convolution's
/// (`out + cast_signed(in) * cast_signed(filter)`). Returns the kind and the
/// (detached) body.
pub fn grouped_conv_generic(
    m: &mut TensorModule,
    fgchw: bool,
    attrs: &ConvAttrs,
    in_elems: &[ElemType],
    out_elem: ElemType,
) -> Result<(LinalgKind, TBlock), StructuredError> {
    use AffineExpr::{Const, Dim};
    use IteratorType::{Parallel as P, Reduction as R};
    let [s0, s1] = conv_pair(&attrs.strides);
    let [l0, l1] = conv_pair(&attrs.dilations);
    let win = |out: u32, w: u32, s: i64, l: i64| {
        AffineExpr::add(
            AffineExpr::mul(Dim(out), Const(s)),
            AffineExpr::mul(Dim(w), Const(l)),
        )
    };
    let input = AffineMap::new(
        8,
        0,
        vec![Dim(0), Dim(1), Dim(5), win(3, 6, s0, l0), win(4, 7, s1, l1)],
    );
    let filter = if fgchw {
        AffineMap::select(8, &[2, 1, 5, 6, 7])
    } else {
        AffineMap::select(8, &[1, 2, 5, 6, 7])
    };
    let output = AffineMap::select(8, &[0, 1, 2, 3, 4]);
    // The body of any 2-D convolution: the same element rules.
    let kind = LinalgKind::Conv(ConvKind::Conv2dNchwFchw, attrs.clone());
    let body = build_named_body(m, &kind, in_elems, &[out_elem])?;
    Ok((
        LinalgKind::Generic {
            indexing_maps: vec![input, filter, output],
            iterator_types: vec![P, P, P, P, P, R, R, R],
        },
        body,
    ))
}

/// The binary functions of MLIR's OpDSL named ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "MLIR's BinaryFn of the same name")]
pub enum BinaryFn {
    Add,
    Sub,
    Mul,
    Div,
    DivUnsigned,
    MaxSigned,
    MinSigned,
}

/// Builds the body of a named linalg op (everything but `linalg.generic`,
/// `linalg.map`, `linalg.reduce` and `linalg.softmax`, whose bodies are
/// written or absent) for inputs and outputs of the given element types,
/// as MLIR 19 defines it. Returns the block (detached).
pub fn build_named_body(
    m: &mut TensorModule,
    kind: &LinalgKind,
    in_elems: &[ElemType],
    out_elems: &[ElemType],
) -> Result<TBlock, StructuredError> {
    let arg_types: Vec<_> = in_elems
        .iter()
        .chain(out_elems)
        .map(|&e| m.types.scalar(e))
        .collect();
    let block = m.create_block(&arg_types);
    let args = m.block(block).args.clone();
    let out_ty = *out_elems.first().ok_or(StructuredError::NoOutputType)?;
    let mut b = BodyBuilder::new(m, block);
    let input = |i: usize| -> Result<TValue, StructuredError> {
        args.get(i)
            .copied()
            .ok_or(StructuredError::TooFewInputs(i + 1))
    };
    let out = *args.last().ok_or(StructuredError::NoOutput)?;
    let result = match kind {
        LinalgKind::Fill | LinalgKind::Copy => {
            let v = input(0)?;
            b.cast_signed(v, out_ty)
        }
        LinalgKind::Transpose { .. } | LinalgKind::Broadcast { .. } => input(0)?,
        LinalgKind::Contraction(_)
        | LinalgKind::Conv(
            ConvKind::Conv2dNhwcHwcf
            | ConvKind::Conv2dNchwFchw
            | ConvKind::DepthwiseConv2dNhwcHwc
            | ConvKind::DepthwiseConv2dNchwChw
            | ConvKind::Conv1dNcwFcw
            | ConvKind::Conv3dNcdhwFcdhw,
            _,
        ) => {
            let (a, c) = (input(0)?, input(1)?);
            let a = b.cast_signed(a, out_ty);
            let c = b.cast_signed(c, out_ty);
            let p = b.binary(BinaryFn::Mul, a, c);
            b.binary(BinaryFn::Add, out, p)
        }
        LinalgKind::Conv(pool, _) => {
            let a = input(0)?;
            let a = b.cast_signed(a, out_ty);
            let f = match pool {
                ConvKind::PoolingNhwcMax
                | ConvKind::PoolingNchwMax
                | ConvKind::PoolingNcwMax
                | ConvKind::PoolingNdhwcMax => BinaryFn::MaxSigned,
                ConvKind::PoolingNhwcMin => BinaryFn::MinSigned,
                _ => BinaryFn::Add,
            };
            b.binary(f, out, a)
        }
        LinalgKind::Elementwise(e) => {
            let x = input(0)?;
            let float = b.elem(x).is_float();
            use ElementwiseKind as E;
            match e {
                E::Add => b.binary(BinaryFn::Add, x, input(1)?),
                E::Sub => b.binary(BinaryFn::Sub, x, input(1)?),
                E::Mul => b.binary(BinaryFn::Mul, x, input(1)?),
                E::Div => b.binary(BinaryFn::Div, x, input(1)?),
                E::DivUnsigned => b.binary(BinaryFn::DivUnsigned, x, input(1)?),
                E::Max => b.binary(BinaryFn::MaxSigned, x, input(1)?),
                E::Min => b.binary(BinaryFn::MinSigned, x, input(1)?),
                E::Powf => b.math(MathOp::PowF, vec![x, input(1)?]),
                E::Exp => b.math(MathOp::Exp, vec![x]),
                E::Log => b.math(MathOp::Log, vec![x]),
                E::Abs if float => b.math(MathOp::AbsF, vec![x]),
                E::Abs => b.math(MathOp::AbsI, vec![x]),
                E::Ceil => b.math(MathOp::Ceil, vec![x]),
                E::Floor => b.math(MathOp::Floor, vec![x]),
                E::Sqrt => b.math(MathOp::Sqrt, vec![x]),
                E::Rsqrt => b.math(MathOp::Rsqrt, vec![x]),
                E::Tanh => b.math(MathOp::Tanh, vec![x]),
                E::Erf => b.math(MathOp::Erf, vec![x]),
                E::NegF => {
                    let ty = b.elem(x);
                    b.arith(ArithOp::NegF, vec![x], ty)
                }
                E::Square => b.binary(BinaryFn::Mul, x, x),
                E::Reciprocal => {
                    let ty = b.elem(x);
                    let one = b.constant(ScalarBits::Float(1.0), ty);
                    b.binary(BinaryFn::Div, one, x)
                }
            }
        }
        LinalgKind::Generic { .. }
        | LinalgKind::Map
        | LinalgKind::Reduce { .. }
        | LinalgKind::Softmax { .. } => {
            return Err(StructuredError::NoSynthesizedBody(kind.name()))
        }
    };
    b.yield_(vec![result]);
    Ok(block)
}

/// Rewrites the named linalg op `op` in place into the equivalent
/// `linalg.generic` (same operands, results and body), as MLIR's
/// `--linalg-generalize-named-ops` does. Returns `false` (and changes
/// nothing) for ops that are not structured (softmax included).
pub fn generalize(m: &mut TensorModule, op: TOp) -> bool {
    let Some(s) = structured(m, op) else {
        return false;
    };
    if let OpKind::Linalg(l) = &mut m.op_mut(op).kind {
        l.kind = LinalgKind::Generic {
            indexing_maps: s.indexing_maps,
            iterator_types: s.iterator_types,
        };
    }
    true
}

/// The scalar type of every operand of a structured op's body: the
/// element type of tensors, the scalar itself otherwise.
pub fn operand_elem(m: &TensorModule, v: TValue) -> ElemType {
    match m.value_kind(v) {
        TypeKind::Scalar(e) => *e,
        other => other.elem(),
    }
}

/// Inserts ops into a block at a moving position.
struct Inserter {
    block: TBlock,
    at: usize,
    loc: Location,
}

impl Inserter {
    fn insert(
        &mut self,
        m: &mut TensorModule,
        kind: OpKind,
        operands: Vec<TValue>,
        results: &[super::entity::TType],
        regions: Vec<TBlock>,
    ) -> TValue {
        let o = m.create_op(kind, operands, results, regions, self.loc);
        m.insert_op(self.block, self.at, o);
        self.at += 1;
        m.op(o).results[0]
    }

    /// `linalg.fill` of a float constant into `empty`.
    fn fill(
        &mut self,
        m: &mut TensorModule,
        empty: TValue,
        value: f64,
        elem: ElemType,
    ) -> Result<TValue, StructuredError> {
        let ty = m.types.scalar(elem);
        let c = self.insert(
            m,
            OpKind::Constant(ConstAttr::Float { value, ty }),
            vec![],
            &[ty],
            vec![],
        );
        let body = build_named_body(m, &LinalgKind::Fill, &[elem], &[elem])?;
        let out_ty = m.value_type(empty);
        let kind = OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Fill,
            num_inputs: 1,
        });
        Ok(self.insert(m, kind, vec![c, empty], &[out_ty], vec![body]))
    }

    /// A `linalg.generic` whose body is `build(args)`.
    fn generic(
        &mut self,
        m: &mut TensorModule,
        maps: Vec<AffineMap>,
        iters: Vec<IteratorType>,
        ins: Vec<TValue>,
        out: TValue,
        build: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> TValue,
    ) -> TValue {
        let elem = operand_elem(m, out);
        let scalar = m.types.scalar(elem);
        let body = m.create_block(&vec![scalar; ins.len() + 1]);
        let args = m.block(body).args.clone();
        let mut b = BodyBuilder::new(m, body);
        let y = build(&mut b, &args);
        b.yield_(vec![y]);
        let ty = m.value_type(out);
        let num_inputs = ins.len();
        let operands = ins.into_iter().chain(std::iter::once(out)).collect();
        let kind = OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Generic {
                indexing_maps: maps,
                iterator_types: iters,
            },
            num_inputs,
        });
        self.insert(m, kind, operands, &[ty], vec![body])
    }
}

/// Rewrites `linalg.softmax` op `op` into MLIR 19's decomposition (what
/// `transform.structured.decompose_interface` gives): a `maxnumf`
/// reduction from the lowest finite value, `exp(x - max)`, an `addf`
/// reduction from 0 and a division, as four `linalg.generic`s with their
/// fills, inserted before `op`; uses of its result then use the last
/// generic's, and `op` is detached. Returns the new result.
pub fn decompose_softmax(m: &mut TensorModule, op: TOp) -> Result<TValue, StructuredError> {
    use super::attr::IteratorType::{Parallel, Reduction};
    use super::types::Dim;
    let data = m.op(op).clone();
    let OpKind::Linalg(LinalgOp {
        kind: LinalgKind::Softmax { dimension },
        ..
    }) = data.kind
    else {
        return Err(StructuredError::NotSoftmax(data.kind.name()));
    };
    let block = data.parent.ok_or(StructuredError::Detached)?;
    let (input, init) = match data.operands[..] {
        [i, o] => (i, o),
        _ => return Err(StructuredError::SoftmaxOperands),
    };
    let result = *data.results.first().ok_or(StructuredError::NoResult)?;
    let TypeKind::Tensor { shape, elem } = m.value_kind(input).clone() else {
        return Err(StructuredError::NotTensorInput);
    };
    let dim = dimension as usize;
    let rank = shape.len() as u32;
    if dim >= shape.len() {
        return Err(StructuredError::DimensionOutOfRange(dim));
    }
    let at = m
        .block(block)
        .ops
        .iter()
        .position(|&o| o == op)
        .ok_or(StructuredError::NotInItsBlock)?;
    let mut ins = Inserter {
        block,
        at,
        loc: data.loc,
    };
    // The reduced shape; dynamic sizes read with tensor.dim.
    let kept: Vec<u32> = (0..rank).filter(|&d| d as usize != dim).collect();
    let index_ty = m.types.scalar(ElemType::Index);
    let mut sizes = Vec::new();
    for &d in &kept {
        if shape[d as usize] == Dim::Dynamic {
            let value = i64::from(d);
            let c = ins.insert(
                m,
                OpKind::Constant(ConstAttr::Int {
                    value,
                    ty: index_ty,
                }),
                vec![],
                &[index_ty],
                vec![],
            );
            sizes.push(ins.insert(
                m,
                OpKind::Tensor(super::ops::TensorOp::Dim),
                vec![input, c],
                &[index_ty],
                vec![],
            ));
        }
    }
    let reduced_shape: Vec<Dim> = kept.iter().map(|&d| shape[d as usize]).collect();
    let reduced_ty = m.types.tensor(&reduced_shape, elem);
    let empty = ins.insert(
        m,
        OpKind::Tensor(super::ops::TensorOp::Empty),
        sizes,
        &[reduced_ty],
        vec![],
    );
    let lowest = match elem {
        ElemType::F16 => -65504.0,
        ElemType::BF16 => -3.3895313892515355e38,
        ElemType::F64 => f64::MIN,
        _ => f64::from(f32::MIN),
    };
    let reduction: Vec<IteratorType> = (0..rank)
        .map(|d| {
            if d as usize == dim {
                Reduction
            } else {
                Parallel
            }
        })
        .collect();
    let reduce_maps = vec![AffineMap::identity(rank), AffineMap::select(rank, &kept)];
    let bcast_maps = vec![
        AffineMap::identity(rank),
        AffineMap::select(rank, &kept),
        AffineMap::identity(rank),
    ];
    let parallel = vec![Parallel; rank as usize];
    let max_init = ins.fill(m, empty, lowest, elem)?;
    let max = ins.generic(
        m,
        reduce_maps.clone(),
        reduction.clone(),
        vec![input],
        max_init,
        |b, a| b.arith(ArithOp::MaxNumF, vec![a[0], a[1]], elem),
    );
    let num = ins.generic(
        m,
        bcast_maps.clone(),
        parallel.clone(),
        vec![input, max],
        init,
        |b, a| {
            let d = b.arith(ArithOp::SubF, vec![a[0], a[1]], elem);
            b.math(MathOp::Exp, vec![d])
        },
    );
    let sum_init = ins.fill(m, empty, 0.0, elem)?;
    let sum = ins.generic(m, reduce_maps, reduction, vec![num], sum_init, |b, a| {
        b.arith(ArithOp::AddF, vec![a[0], a[1]], elem)
    });
    let res = ins.generic(m, bcast_maps, parallel, vec![num, sum], init, |b, a| {
        b.arith(ArithOp::DivF, vec![a[0], a[1]], elem)
    });
    m.replace_all_uses(result, res);
    m.detach_op(op);
    Ok(res)
}
