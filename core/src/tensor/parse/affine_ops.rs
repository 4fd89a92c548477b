//! `affine.apply`, `affine.min` and `affine.max` on `index` values, read
//! as the `arith` ops MLIR's `lower-affine` pass expands them to (a
//! rewrite at import): `+` is `arith.addi`, `*` `arith.muli`, `floordiv`
//! `arith.floordivsi`, `ceildiv` `arith.ceildivsi`, `mod` `arith.remsi`
//! made non-negative (`r < 0 ? r + b : r`), and `min`/`max` over the map's
//! results `arith.minsi`/`arith.maxsi`.

use super::{PResult, ParsedOp, Parser};
use crate::ir::Location;
use crate::tensor::affine::AffineExpr;
use crate::tensor::attr::{CmpIPred, ConstAttr};
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::ops::{ArithOp, OpKind};
use crate::tensor::types::ElemType;
use crate::text::cursor::TokenParser;

/// A value of the expansion: one that exists, or the op that computes it
/// (not created yet, so that the last one can be the parsed op itself).
enum Pending {
    Value(TValue),
    Op(OpKind, Vec<TValue>),
}

fn arith(op: ArithOp) -> OpKind {
    OpKind::Arith {
        op,
        fastmath: Default::default(),
        overflow: Default::default(),
    }
}

impl Parser<'_> {
    /// The rest of `affine.apply` / `affine.min` / `affine.max`:
    /// `#map(%d...)[%s...]`.
    pub(crate) fn parse_affine_op(
        &mut self,
        name: &str,
        short: &str,
        loc: Location,
    ) -> PResult<ParsedOp> {
        if !matches!(short, "apply" | "min" | "max") {
            return self.unknown_op(name, "affine", loc);
        }
        let map = self.parse_affine_map()?;
        let oloc = self.loc();
        self.expect_punct("(")?;
        let dims = self.value_list()?;
        self.expect_punct(")")?;
        let syms = if self.eat_punct("[")? {
            let s = self.value_list()?;
            self.expect_punct("]")?;
            s
        } else {
            Vec::new()
        };
        let index_ty = self.m.types.scalar(ElemType::Index);
        if dims.len() != map.num_dims as usize || syms.len() != map.num_symbols as usize {
            return self.err_at(
                oloc,
                format!(
                    "'{name}' op operand count and affine map dimension and symbol count must match"
                ),
            );
        }
        for &v in dims.iter().chain(&syms) {
            self.check_type(v, index_ty, oloc)?;
        }
        if map.results.is_empty() || (short == "apply" && map.results.len() != 1) {
            return self.err_at(loc, format!("'{name}' op mapping must produce one value"));
        }
        let mut before = Vec::new();
        let mut acc: Option<Pending> = None;
        for e in &map.results {
            let v = self.expand_affine(&mut before, e, &dims, &syms, loc);
            acc = Some(match acc {
                None => v,
                Some(prev) => {
                    let a = self.materialize(&mut before, prev, loc);
                    let b = self.materialize(&mut before, v, loc);
                    let op = if short == "min" {
                        ArithOp::MinSI
                    } else {
                        ArithOp::MaxSI
                    };
                    Pending::Op(arith(op), vec![a, b])
                }
            });
        }
        let (kind, operands) = match acc {
            Some(Pending::Op(kind, operands)) => (kind, operands),
            // A map result that is an operand: `x + 0` gives it a result of its own.
            Some(Pending::Value(v)) => {
                let zero = self.emit_index(&mut before, 0, loc);
                (arith(ArithOp::AddI), vec![v, zero])
            }
            None => return self.err_at(loc, format!("'{name}' op mapping must produce one value")),
        };
        let mut p = ParsedOp::new(kind, operands, vec![index_ty]);
        p.before = before;
        Ok(p)
    }

    fn materialize(&mut self, before: &mut Vec<TOp>, p: Pending, loc: Location) -> TValue {
        match p {
            Pending::Value(v) => v,
            Pending::Op(kind, operands) => {
                let ty = self.m.types.scalar(ElemType::Index);
                self.emit(before, kind, operands, ty, loc)
            }
        }
    }

    fn expand_affine(
        &mut self,
        before: &mut Vec<TOp>,
        e: &AffineExpr,
        dims: &[TValue],
        syms: &[TValue],
        loc: Location,
    ) -> Pending {
        let index_ty = self.m.types.scalar(ElemType::Index);
        let (op, l, r) = match e {
            AffineExpr::Dim(d) => return Pending::Value(dims[*d as usize]),
            AffineExpr::Symbol(s) => return Pending::Value(syms[*s as usize]),
            AffineExpr::Const(c) => {
                return Pending::Op(
                    OpKind::Constant(ConstAttr::Int {
                        value: *c,
                        ty: index_ty,
                    }),
                    vec![],
                )
            }
            AffineExpr::Add(l, r) => (ArithOp::AddI, l, r),
            AffineExpr::Mul(l, r) => (ArithOp::MulI, l, r),
            AffineExpr::FloorDiv(l, r) => (ArithOp::FloorDivSI, l, r),
            AffineExpr::CeilDiv(l, r) => (ArithOp::CeilDivSI, l, r),
            AffineExpr::Mod(l, r) => (ArithOp::RemSI, l, r),
        };
        let a = self.expand_affine(before, l, dims, syms, loc);
        let a = self.materialize(before, a, loc);
        let b = self.expand_affine(before, r, dims, syms, loc);
        let b = self.materialize(before, b, loc);
        if op != ArithOp::RemSI {
            return Pending::Op(arith(op), vec![a, b]);
        }
        let rem = self.emit_arith(before, ArithOp::RemSI, vec![a, b], index_ty, loc);
        let zero = self.emit_index(before, 0, loc);
        let i1 = self.m.types.scalar(ElemType::I1);
        let neg = self.emit_arith(
            before,
            ArithOp::CmpI(CmpIPred::Slt),
            vec![rem, zero],
            i1,
            loc,
        );
        let up = self.emit_arith(before, ArithOp::AddI, vec![rem, b], index_ty, loc);
        Pending::Op(arith(ArithOp::Select), vec![neg, up, rem])
    }
}
