//! The verifier of the tensor IR. It collects every failure, each with the
//! op's location and name, in program order.
//!
//! Invariants checked (the evaluator and the compiler rely on them):
//!
//! * structure: every function with a body ends in `func.return` whose
//!   operands have the function's result types; every op region is one
//!   block ending in its terminator (`linalg.yield`, `tensor.yield`);
//!   terminators appear nowhere else; every operand is defined before its
//!   use in the same block or an enclosing one (function bodies are
//!   isolated);
//! * types: tensor and scalar element types are f16, bf16, f32, f64, i1,
//!   i8, i16, i32, i64 or index;
//! * `func.call`: the callee exists and the operand and result types match
//!   its signature;
//! * `arith`/`math`: operand and result types as the op requires (one type
//!   for elementwise ops, scalars or tensors of one shape; `i1` results of
//!   comparisons; widening/narrowing rules of casts), element types the op
//!   accepts;
//! * `linalg`: see `linalg.rs`: one indexing map per operand whose dims are
//!   the iteration space and whose results match the operand's rank, one
//!   iterator type per loop, body arguments and yields of the operands'
//!   element types, every loop sized by some operand dimension, static
//!   sizes consistent (MLIR's "inferred input/output operand" checks), and
//!   each named op's own rules (fill's scalar, transpose permutations,
//!   broadcast and reduce dimensions, softmax's dimension);
//! * `tensor`: see `tensor_ops.rs`: ranks and list lengths, dynamic operand
//!   counts, static sizes and bounds;
//! * IREE ops: `check.*` operand types, constants' types.

mod arith;
mod linalg;
mod tensor_ops;

use std::collections::HashSet;

use super::entity::{TBlock, TOp, TType, TValue};
use super::error::{TensorVerifyError, TensorVerifyErrors};
use super::module::{BlockParent, TensorModule};
use super::ops::{CheckOp, OpKind};
use super::types::{ElemType, TypeKind};

/// Verifies `m`; every failure is reported.
pub fn verify(m: &TensorModule) -> Result<(), TensorVerifyErrors> {
    let mut v = Verifier {
        m,
        errors: Vec::new(),
    };
    for &f in m.funcs() {
        v.func(f);
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(TensorVerifyErrors(v.errors))
    }
}

pub(crate) struct Verifier<'m> {
    pub(crate) m: &'m TensorModule,
    errors: Vec<TensorVerifyError>,
}

impl Verifier<'_> {
    pub(crate) fn error(&mut self, op: TOp, message: impl Into<String>) {
        let data = self.m.op(op);
        self.errors.push(TensorVerifyError {
            loc: data.loc,
            op: data.kind.name(),
            message: message.into(),
        });
    }

    pub(crate) fn ty(&self, t: TType) -> String {
        self.m.types.text(t)
    }

    pub(crate) fn vty(&self, v: TValue) -> String {
        self.ty(self.m.value_type(v))
    }

    fn func(&mut self, f: super::entity::TFunc) {
        let data = self.m.func(f);
        for &t in data.inputs.iter().chain(&data.results) {
            if let Some(msg) = self.unsupported_type(t) {
                self.errors.push(TensorVerifyError {
                    loc: data.loc,
                    op: "func.func".into(),
                    message: msg,
                });
            }
        }
        let Some(body) = data.body else {
            return;
        };
        let mut visible: HashSet<TValue> = self.m.block(body).args.iter().copied().collect();
        self.block(body, &mut visible, Terminator::Return(data.results.clone()));
        if self.m.block(body).ops.is_empty() {
            self.errors.push(TensorVerifyError {
                loc: data.loc,
                op: "func.func".into(),
                message: "expected a body ending in 'func.return'".into(),
            });
        }
    }

    /// Why `t` is not a supported type, if it is not.
    pub(crate) fn unsupported_type(&self, t: TType) -> Option<String> {
        let e = self.m.ty(t).elem();
        (!e.is_supported()).then(|| {
            format!(
                "element type {e} is not supported (f16, bf16, f32, f64, i1, i8, i16, i32, i64, index are)"
            )
        })
    }

    fn block(&mut self, block: TBlock, visible: &mut HashSet<TValue>, term: Terminator) {
        let ops = self.m.block(block).ops.clone();
        let mut added = Vec::new();
        for (i, &op) in ops.iter().enumerate() {
            let data = self.m.op(op);
            for &v in &data.operands {
                if !visible.contains(&v) {
                    self.error(op, "operand is not defined before its use".to_string());
                    break;
                }
            }
            let last = i + 1 == ops.len();
            let is_term = data.kind.is_terminator();
            if is_term && !last {
                self.error(op, "must be the last operation of its block");
            }
            if last {
                self.check_terminator(op, &term);
            }
            for &r in &data.results {
                if let Some(msg) = self.unsupported_type(self.m.value_type(r)) {
                    self.error(op, msg);
                }
            }
            // Regions see the values defined so far.
            for &r in &data.regions.clone() {
                let args = self.m.block(r).args.clone();
                for &a in &args {
                    visible.insert(a);
                }
                let t = match &data.kind {
                    OpKind::Linalg(_) => Terminator::LinalgYield,
                    OpKind::Tensor(_) => Terminator::TensorYield,
                    _ => Terminator::None,
                };
                self.block(r, visible, t);
                for a in args {
                    visible.remove(&a);
                }
            }
            self.op(op);
            for &r in &self.m.op(op).results {
                visible.insert(r);
                added.push(r);
            }
        }
        for r in added {
            visible.remove(&r);
        }
        if ops.is_empty() {
            match term {
                Terminator::LinalgYield | Terminator::TensorYield => {
                    if let BlockParent::Op(owner) = self.m.block(block).parent {
                        self.error(owner, "expected its region to end in a yield");
                    }
                }
                _ => {}
            }
        }
    }

    fn check_terminator(&mut self, op: TOp, term: &Terminator) {
        let data = self.m.op(op);
        match term {
            Terminator::Return(results) => {
                if data.kind != OpKind::Return {
                    self.error(op, "expected 'func.return' at the end of the function body");
                    return;
                }
                let func = data
                    .parent
                    .and_then(|b| self.m.func_of_block(b))
                    .map(|f| self.m.func(f).name.clone())
                    .unwrap_or_default();
                if data.operands.len() != results.len() {
                    let msg = format!(
                        "has {} operands, but enclosing function (@{func}) returns {}",
                        data.operands.len(),
                        results.len()
                    );
                    self.error(op, msg);
                    return;
                }
                for (i, (&v, &t)) in data.operands.clone().iter().zip(results).enumerate() {
                    if self.m.value_type(v) != t {
                        let msg = format!(
                            "type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{func}",
                            self.vty(v),
                            self.ty(t)
                        );
                        self.error(op, msg);
                    }
                }
            }
            Terminator::LinalgYield if data.kind != OpKind::LinalgYield => {
                self.error(op, "expected 'linalg.yield' at the end of the region");
            }
            Terminator::TensorYield if data.kind != OpKind::TensorYield => {
                self.error(op, "expected 'tensor.yield' at the end of the region");
            }
            _ => {}
        }
    }

    fn op(&mut self, op: TOp) {
        let data = self.m.op(op).clone();
        match &data.kind {
            OpKind::Call { callee } => self.call(op, callee),
            OpKind::Return => {
                let in_func = matches!(
                    data.parent.map(|b| self.m.block(b).parent),
                    Some(BlockParent::Func(_))
                );
                if !in_func {
                    self.error(op, "expects to be in a function body");
                }
            }
            OpKind::Constant(c) | OpKind::UnfoldableConstant(c) => {
                if data.results.len() != 1 || self.m.value_type(data.results[0]) != c.ty() {
                    self.error(op, "expected one result of the constant's type");
                }
            }
            OpKind::Arith { op: a, .. } => self.arith(op, *a),
            OpKind::Math { op: a, .. } => self.math(op, *a),
            OpKind::Linalg(_) => self.linalg(op),
            OpKind::LinalgYield => self.linalg_yield(op),
            OpKind::LinalgIndex { dim } => self.linalg_index(op, *dim),
            OpKind::Tensor(_) => self.tensor_op(op),
            OpKind::TensorYield => {
                let parent_is_pad = data
                    .parent
                    .and_then(|b| match self.m.block(b).parent {
                        BlockParent::Op(o) => Some(o),
                        _ => None,
                    })
                    .is_some_and(|o| {
                        matches!(
                            self.m.op(o).kind,
                            OpKind::Tensor(super::ops::TensorOp::Pad { .. })
                        )
                    });
                if !parent_is_pad {
                    self.error(op, "expects its parent to be 'tensor.pad'");
                }
            }
            OpKind::OptimizationBarrier => {
                let same = data.operands.len() == data.results.len()
                    && data
                        .operands
                        .iter()
                        .zip(&data.results)
                        .all(|(&a, &b)| self.m.value_type(a) == self.m.value_type(b));
                if !same {
                    self.error(op, "expected results of its operands' types");
                }
            }
            OpKind::DynamicConstant(d) => {
                let ok = data.results.len() == 1 && {
                    let (a, b) = (self.m.ty(d.ty), self.m.value_kind(data.results[0]));
                    match (a, b) {
                        (
                            TypeKind::Tensor {
                                shape: s1,
                                elem: e1,
                            },
                            TypeKind::Tensor {
                                shape: s2,
                                elem: e2,
                            },
                        ) => e1 == e2 && compatible(s1, s2),
                        _ => false,
                    }
                };
                if !ok {
                    let msg = format!(
                        "result type {} is not compatible with the constant's type {}",
                        data.results
                            .first()
                            .map(|&r| self.vty(r))
                            .unwrap_or_default(),
                        self.ty(d.ty)
                    );
                    self.error(op, msg);
                }
            }
            OpKind::Check(c) => self.check(op, c),
            OpKind::Assert { .. } => {
                let is_i1 = data.operands.len() == 1
                    && *self.m.ty(self.m.value_type(data.operands[0]))
                        == TypeKind::Scalar(ElemType::I1);
                if !is_i1 || !data.results.is_empty() {
                    self.error(op, "expects one i1 operand and no results");
                }
            }
        }
    }

    fn call(&mut self, op: TOp, callee: &str) {
        let data = self.m.op(op);
        let Some(f) = self.m.func_by_name(callee) else {
            self.error(
                op,
                format!("'@{callee}' does not reference a valid function"),
            );
            return;
        };
        let fd = self.m.func(f);
        let inputs: Vec<TType> = data
            .operands
            .iter()
            .map(|&v| self.m.value_type(v))
            .collect();
        let results: Vec<TType> = data.results.iter().map(|&v| self.m.value_type(v)).collect();
        if inputs != fd.inputs {
            self.error(
                op,
                format!("operand types do not match the signature of '@{callee}'"),
            );
        }
        if results != fd.results {
            self.error(
                op,
                format!("result types do not match the signature of '@{callee}'"),
            );
        }
    }

    fn check(&mut self, op: TOp, c: &CheckOp) {
        let data = self.m.op(op);
        let ty = self.m.value_kind(data.operands[0]).clone();
        match c {
            CheckOp::ExpectTrue | CheckOp::ExpectFalse => {
                if !matches!(ty, TypeKind::Scalar(ElemType::Int(_))) {
                    self.error(
                        op,
                        format!(
                            "operand #0 must be a signless integer, but got {}",
                            self.vty(data.operands[0])
                        ),
                    );
                }
            }
            CheckOp::ExpectEq | CheckOp::ExpectAlmostEq { .. } => {
                if data.operands.len() != 2
                    || self.m.value_type(data.operands[0]) != self.m.value_type(data.operands[1])
                {
                    self.error(op, "requires all operands to have the same type");
                }
            }
            CheckOp::ExpectEqConst(v) | CheckOp::ExpectAlmostEqConst { value: v, .. } => {
                if !const_fits(self.m, v.ty, self.m.value_type(data.operands[0])) {
                    self.error(op, "requires the constant to have the operand's type");
                }
            }
        }
        if !ty.is_tensor() && !matches!(c, CheckOp::ExpectTrue | CheckOp::ExpectFalse) {
            self.error(
                op,
                format!(
                    "operand #0 must be a tensor, but got {}",
                    self.vty(data.operands[0])
                ),
            );
        }
        if matches!(
            c,
            CheckOp::ExpectAlmostEq { .. } | CheckOp::ExpectAlmostEqConst { .. }
        ) && !ty.elem().is_float()
        {
            self.error(
                op,
                format!(
                    "operand #0 must be a tensor of floats, but got {}",
                    self.vty(data.operands[0])
                ),
            );
        }
    }
}

/// What must end a block.
enum Terminator {
    Return(Vec<TType>),
    LinalgYield,
    TensorYield,
    None,
}

/// Whether a check's constant of type `c` can stand for an operand of type
/// `v`: the same element type and rank, and the same size wherever `v`'s
/// is static. The constant's type is static; a dynamic operand (a result
/// whose size is computed at run time) is compared with it at run time,
/// shape first.
pub(crate) fn const_fits(m: &TensorModule, c: TType, v: TType) -> bool {
    let (ct, vt) = (m.ty(c), m.ty(v));
    c == v
        || (ct.elem() == vt.elem()
            && match (ct.tensor_shape(), vt.tensor_shape()) {
                (Some(a), Some(b)) => compatible(a, b),
                _ => false,
            })
}

/// Whether two shapes agree where both are static.
pub(crate) fn compatible(a: &[super::types::Dim], b: &[super::types::Dim]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x.fixed(), y.fixed()) {
            (Some(p), Some(q)) => p == q,
            _ => true,
        })
}
