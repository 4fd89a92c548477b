//! The branches of an `scf.if` whose condition is known only at run time.
//!
//! The tensor IR has no control flow: both branches are computed and each
//! result is an `arith.select` on the condition. What the branch not taken
//! computes is dropped; what it must not do is fail the call. So each op
//! of a branch that can fail is given, on the run where its branch is not
//! taken, operands under which it cannot, and on the run where it is
//! taken, its own operands unchanged (every substitution is a select on the
//! condition; a taken branch fails exactly as the program says):
//!
//! - `cf.assert %x`: asserts `select(c, %x, true)`.
//! - `tensor.extract` / `extract_slice` at a run-time index or offset: the
//!   index is `select(c, %i, 0)`; where the source's dimension is not known
//!   to hold the slice from that offset, the source is first padded at the
//!   end by `select(c, 0, extent)` (no padding on the taken run).
//! - `tensor.insert` / `insert_slice` at a run-time offset: the offset is
//!   `select(c, %o, 0)`; the destination must be known to hold the slice
//!   there (a static dimension), else the `scf.if` is refused.
//! - A scalar integer division or remainder by a run-time divisor: the
//!   divisor is `select(c, %d, 1)`.
//! - A `check` op (IREE's tests check which branch ran): its checked value
//!   is `select(c, %x, p)`, with `p` a value that passes: 1 for
//!   `expect_true`, 0 for `expect_false`, the compared operand for
//!   `expect_eq` / `expect_almost_eq` (a value equals itself: kiln's checks
//!   take any two NaNs as equal), the constant for the `_const` forms.
//!
//! Refused, with the op and its line: a slice whose size or stride is read
//! from tensor data, an op that can fail inside a structured op's body. Sizes computed inside a branch from tensor data are not
//! guarded (a known gap).

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::attr::{ConstAttr, Mixed};
use crate::tensor::entity::{TBlock, TType, TValue};
use crate::tensor::ops::{ArithOp, CheckOp, OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::text::cursor::TokenParser;

/// The condition a branch runs under.
#[derive(Clone, Copy)]
struct Branch {
    /// The `scf.if`'s `i1` condition.
    cond: TValue,
    /// Whether the branch runs when the condition is true (`then`).
    when: bool,
    /// The `scf.if`'s location (for the ops added).
    loc: Location,
}

impl Parser<'_> {
    /// Makes each op of `block` (a branch of a run-time `scf.if` at `loc`,
    /// taken when `cond` is `when`) unable to fail on the run where the
    /// branch is not taken; see the module docs.
    pub(super) fn guard_branch(
        &mut self,
        block: TBlock,
        cond: TValue,
        when: bool,
        loc: Location,
    ) -> PResult<()> {
        let br = Branch { cond, when, loc };
        let ops = self.m.take_ops(block);
        for o in ops {
            for r in self.m.op(o).regions.clone() {
                if let Some(inner) = self.may_fail(r) {
                    let what = self.m.op(inner).kind.name();
                    return self.err_at(
                        loc,
                        format!(
                            "unsupported 'scf.if': its condition is known only at run time and a branch holds a '{what}' that can fail inside a structured op's body"
                        ),
                    );
                }
            }
            let kind = self.m.op(o).kind.clone();
            match kind {
                OpKind::Assert { .. } => {
                    let x = self.m.op(o).operands[0];
                    let yes = self.const_into(block, 1, ElemType::I1, loc);
                    let g = self.select_into(block, br, x, yes);
                    self.m.op_mut(o).operands[0] = g;
                }
                OpKind::Check(check) => {
                    let x = self.m.op(o).operands[0];
                    let passing = match check {
                        CheckOp::ExpectTrue | CheckOp::ExpectFalse => {
                            let one = i64::from(matches!(check, CheckOp::ExpectTrue));
                            let elem = self.m.value_kind(x).elem();
                            self.const_into(block, one, elem, loc)
                        }
                        CheckOp::ExpectEq | CheckOp::ExpectAlmostEq { .. } => {
                            self.m.op(o).operands[1]
                        }
                        CheckOp::ExpectEqConst(value)
                        | CheckOp::ExpectAlmostEqConst { value, .. } => {
                            let ty = value.ty;
                            // A static constant may check a result of
                            // run-time size; the guard's select needs one
                            // size, which the branch not taken may not have.
                            if ty != self.m.value_type(x) {
                                return self.err_at(
                                    loc,
                                    "unsupported 'scf.if': its condition is known only at run time and a branch checks a value of run-time size against a constant",
                                );
                            }
                            let c = self.m.create_op(
                                OpKind::Constant(ConstAttr::Dense(value)),
                                vec![],
                                &[ty],
                                vec![],
                                loc,
                            );
                            self.m.append_op(block, c);
                            self.m.op(c).results[0]
                        }
                    };
                    let g = self.select_into(block, br, x, passing);
                    self.m.op_mut(o).operands[0] = g;
                }
                OpKind::Arith { op, .. } if is_division(op) => {
                    let r = self.m.op(o).results[0];
                    let d = self.m.op(o).operands[1];
                    if matches!(self.m.value_kind(r), TypeKind::Scalar(_))
                        && self.known_int(d).is_none()
                    {
                        let elem = self.m.value_kind(d).elem();
                        let one = self.const_into(block, 1, elem, loc);
                        let g = self.select_into(block, br, d, one);
                        self.m.op_mut(o).operands[1] = g;
                    }
                }
                OpKind::Tensor(TensorOp::Extract) => {
                    let src = self.m.op(o).operands[0];
                    let n = self.m.op(o).operands.len() - 1;
                    let mut need = Vec::with_capacity(n);
                    for k in 0..n {
                        let i = self.m.op(o).operands[1 + k];
                        let (g, req) = self.guard_offset(block, br, i, 1);
                        if let Some(g) = g {
                            self.m.op_mut(o).operands[1 + k] = g;
                        }
                        need.push(req);
                    }
                    let padded = self.pad_to(block, br, src, &need)?;
                    self.m.op_mut(o).operands[0] = padded;
                }
                OpKind::Tensor(
                    TensorOp::ExtractSlice {
                        ref offsets,
                        ref sizes,
                        ref strides,
                    }
                    | TensorOp::InsertSlice {
                        ref offsets,
                        ref sizes,
                        ref strides,
                    },
                ) => {
                    let insert = matches!(kind, OpKind::Tensor(TensorOp::InsertSlice { .. }));
                    let first = if insert { 2 } else { 1 };
                    let operands = self.m.op(o).operands.clone();
                    let n_off = Mixed::count_dynamic(offsets);
                    let n_size = Mixed::count_dynamic(sizes);
                    // Sizes and strides must be known: a slice's extent from
                    // its offset.
                    let mut size_ops = operands[first + n_off..].iter().copied();
                    let mut stride_ops = operands[first + n_off + n_size..].iter().copied();
                    let mut dims = Vec::with_capacity(sizes.len());
                    for (s, st) in sizes.iter().zip(strides) {
                        let size = match s {
                            Mixed::Static(v) => Some(*v),
                            Mixed::Dynamic => size_ops.next().and_then(|v| self.known_int(v)),
                        };
                        let stride = match st {
                            Mixed::Static(v) => Some(*v),
                            Mixed::Dynamic => stride_ops.next().and_then(|v| self.known_int(v)),
                        };
                        let (Some(size), Some(stride)) = (size, stride) else {
                            return self.err_at(
                                loc,
                                format!(
                                    "unsupported 'scf.if': its condition is known only at run time and a branch holds a '{}' whose size or stride is known only at run time",
                                    kind.name()
                                ),
                            );
                        };
                        dims.push(if size <= 0 {
                            0
                        } else {
                            (size - 1).saturating_mul(stride.max(1)).saturating_add(1)
                        });
                    }
                    let mut dyn_at = first;
                    let mut moved = false;
                    let mut need = Vec::with_capacity(offsets.len());
                    for (off, &extent) in offsets.iter().zip(&dims) {
                        match off {
                            Mixed::Static(k) => {
                                need.push(k.saturating_add(extent).max(0) as u64);
                            }
                            Mixed::Dynamic => {
                                let v = operands[dyn_at];
                                let (g, req) = self.guard_offset(block, br, v, extent);
                                if let Some(g) = g {
                                    self.m.op_mut(o).operands[dyn_at] = g;
                                    moved = true;
                                }
                                need.push(req);
                                dyn_at += 1;
                            }
                        }
                    }
                    if insert {
                        let dest = operands[1];
                        let shape = self.shape_of(dest);
                        let fits = shape.len() == need.len()
                            && shape
                                .iter()
                                .zip(&need)
                                .all(|(d, &r)| d.fixed().is_some_and(|n| n >= r));
                        // At offsets known when the program is read, the
                        // insert fails or not whichever branch runs.
                        if moved && !fits {
                            return self.err_at(
                                loc,
                                "unsupported 'scf.if': its condition is known only at run time and a branch inserts a slice at a run-time offset into a destination whose size is known only at run time",
                            );
                        }
                    } else {
                        let padded = self.pad_to(block, br, operands[0], &need)?;
                        self.m.op_mut(o).operands[0] = padded;
                    }
                }
                OpKind::Tensor(TensorOp::Insert) => {
                    let dest = self.m.op(o).operands[1];
                    let n = self.m.op(o).operands.len() - 2;
                    let mut need = Vec::with_capacity(n);
                    let mut moved = false;
                    for k in 0..n {
                        let i = self.m.op(o).operands[2 + k];
                        let (g, req) = self.guard_offset(block, br, i, 1);
                        if let Some(g) = g {
                            self.m.op_mut(o).operands[2 + k] = g;
                            moved = true;
                        }
                        need.push(req);
                    }
                    let shape = self.shape_of(dest);
                    if moved
                        && !shape
                            .iter()
                            .zip(&need)
                            .all(|(d, &r)| d.fixed().is_some_and(|n| n >= r))
                    {
                        return self.err_at(
                            loc,
                            "unsupported 'scf.if': its condition is known only at run time and a branch inserts at a run-time index into a tensor whose size is known only at run time",
                        );
                    }
                }
                _ => {}
            }
            self.m.append_op(block, o);
        }
        Ok(())
    }

    /// An index or offset `v` of a guarded op with `extent` elements from
    /// it: `select(c, v, 0)` (`None` when `v` is known and stays) and the
    /// size the dimension must have on the run where the branch is not
    /// taken.
    fn guard_offset(
        &mut self,
        block: TBlock,
        br: Branch,
        v: TValue,
        extent: i64,
    ) -> (Option<TValue>, u64) {
        if let Some(k) = self.known_int(v) {
            return (None, k.saturating_add(extent).max(0) as u64);
        }
        let elem = self.m.value_kind(v).elem();
        let zero = self.const_into(block, 0, elem, br.loc);
        let g = self.select_into(block, br, v, zero);
        (Some(g), extent.max(0) as u64)
    }

    /// `src`, padded at the end of each dimension `d` by `select(c, 0,
    /// need[d])` where its size is not known to be at least `need[d]`
    /// (`src` itself when every dimension is).
    fn pad_to(&mut self, block: TBlock, br: Branch, src: TValue, need: &[u64]) -> PResult<TValue> {
        let shape = self.shape_of(src);
        let short: Vec<bool> = shape
            .iter()
            .zip(need)
            .map(|(d, &r)| d.fixed().is_none_or(|n| n < r))
            .collect();
        if !short.iter().any(|&s| s) {
            return Ok(src);
        }
        let elem = self.m.value_kind(src).elem();
        if !(elem.is_float() || elem.is_int_or_index() || elem == ElemType::I1) {
            return self.err_at(
                br.loc,
                format!("unsupported 'scf.if': its condition is known only at run time and a branch reads a {elem} tensor at a run-time index"),
            );
        }
        let mut high = Vec::with_capacity(shape.len());
        let mut operands = vec![src];
        let mut out_shape = Vec::with_capacity(shape.len());
        for ((d, &s), &r) in shape.iter().zip(&short).zip(need) {
            if s {
                let zero = self.const_into(block, 0, ElemType::Index, br.loc);
                let amount = self.const_into(block, r as i64, ElemType::Index, br.loc);
                // Padding only on the run where the branch is not taken.
                operands.push(self.select_into(block, br, zero, amount));
                high.push(Mixed::Dynamic);
                out_shape.push(Dim::Dynamic);
            } else {
                high.push(Mixed::Static(0));
                out_shape.push(*d);
            }
        }
        let index = self.m.types.scalar(ElemType::Index);
        let region = self.m.create_block(&vec![index; shape.len()]);
        let value = self.const_into(region, 0, elem, br.loc);
        let y = self
            .m
            .create_op(OpKind::TensorYield, vec![value], &[], vec![], br.loc);
        self.m.append_op(region, y);
        let ty = self.m.types.tensor(&out_shape, elem);
        let low = vec![Mixed::Static(0); shape.len()];
        let kind = OpKind::Tensor(TensorOp::Pad {
            low,
            high,
            nofold: false,
        });
        let pad = self
            .m
            .create_op(kind, operands, &[ty], vec![region], br.loc);
        self.m.append_op(block, pad);
        Ok(self.m.op(pad).results[0])
    }

    /// `select(c, taken, other)` for a branch taken when `c` is true, else
    /// `select(c, other, taken)`, appended to `block`.
    fn select_into(&mut self, block: TBlock, br: Branch, taken: TValue, other: TValue) -> TValue {
        let (t, e) = if br.when {
            (taken, other)
        } else {
            (other, taken)
        };
        let ty: TType = self.m.value_type(taken);
        let kind = OpKind::Arith {
            op: ArithOp::Select,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        let op = self
            .m
            .create_op(kind, vec![br.cond, t, e], &[ty], vec![], br.loc);
        self.m.append_op(block, op);
        self.m.op(op).results[0]
    }

    /// A scalar constant `value` of `elem` (0 as a float for a float type)
    /// appended to `block`.
    fn const_into(&mut self, block: TBlock, value: i64, elem: ElemType, loc: Location) -> TValue {
        let ty = self.m.types.scalar(elem);
        let attr = if elem.is_float() {
            ConstAttr::Float {
                value: value as f64,
                ty,
            }
        } else {
            ConstAttr::Int { value, ty }
        };
        let op = self
            .m
            .create_op(OpKind::Constant(attr), vec![], &[ty], vec![], loc);
        self.m.append_op(block, op);
        self.m.op(op).results[0]
    }
}

/// Whether `op` is an integer division or remainder (it fails on a zero
/// divisor).
fn is_division(op: ArithOp) -> bool {
    use ArithOp::*;
    matches!(
        op,
        DivSI | DivUI | CeilDivSI | CeilDivUI | FloorDivSI | RemSI | RemUI
    )
}
