//! Cooperative matrices (`SPV_KHR_cooperative_matrix`, T15): the four
//! `KHR.CooperativeMatrix*` ops and elementwise arithmetic and conversions
//! on `!spv.coopmatrix` values. The rules are MLIR's (`CooperativeMatrixOps.cpp`)
//! plus the shape rules of the SPIR-V extension.

use super::Verifier;
use crate::grammar::{Opcode, OperandKind, StorageClass};
use crate::ir::entity::{Op, Type};
use crate::ir::types::{CoopMatrixType, CoopMatrixUse, TypeKind};
use crate::ir::AttrKind;

/// Elementwise ops the extension allows on cooperative matrices (with one
/// matrix type for operands and result).
pub(crate) const ARITHMETIC: &[Opcode] = &[
    Opcode::SNegate,
    Opcode::FNegate,
    Opcode::IAdd,
    Opcode::FAdd,
    Opcode::ISub,
    Opcode::FSub,
    Opcode::IMul,
    Opcode::FMul,
    Opcode::SDiv,
    Opcode::UDiv,
    Opcode::FDiv,
];

impl Verifier<'_> {
    /// The cooperative matrix type of `ty`, if it is one.
    pub(crate) fn coop(&self, ty: Type) -> Option<CoopMatrixType> {
        self.m.types.coop_matrix(ty)
    }

    /// Operand `i` is a cooperative matrix; returns its type.
    fn expect_coop(&mut self, op: Op, i: usize, what: &str) -> Option<(Type, CoopMatrixType)> {
        let t = self.operand_ty(op, i)?;
        match self.coop(t) {
            Some(c) => Some((t, c)),
            None => self.fail(
                op,
                format!(
                    "operand #{i} ({what}) has type {}, expected a cooperative matrix",
                    self.ty(t)
                ),
            ),
        }
    }

    /// The pointer of a load or store: a pointer into `StorageBuffer`,
    /// `Workgroup` or `PhysicalStorageBuffer` memory whose pointee is a
    /// numeric scalar or vector.
    fn expect_coop_pointer(&mut self, op: Op) -> Option<()> {
        let t = self.operand_ty(op, 0)?;
        let types = &self.m.types;
        let ok = match types.pointer_parts(t) {
            Some((pointee, sc)) => {
                matches!(
                    sc,
                    StorageClass::StorageBuffer
                        | StorageClass::Workgroup
                        | StorageClass::PhysicalStorageBuffer
                ) && (types.is_integer(pointee)
                    || types.is_float(pointee)
                    || matches!(types.kind(pointee), TypeKind::Vector { element, .. }
                        if !types.is_bool(*element)))
            }
            None => false,
        };
        if !ok {
            return self.fail(
                op,
                format!(
                    "operand #0 has type {}, expected a pointer to a numeric scalar or vector in StorageBuffer, Workgroup or PhysicalStorageBuffer memory",
                    self.ty(t)
                ),
            );
        }
        Some(())
    }

    /// The stride operand (`i`) of a load or store, when present.
    fn expect_stride(&mut self, op: Op, i: usize) -> Option<()> {
        if self.m.op(op).operands.len() > i {
            self.expect_int_scalar(op, i, "stride")?;
        }
        Some(())
    }

    /// `KHR.CooperativeMatrixLoad`: pointer, stride; a matrix result.
    pub(crate) fn check_coop_load(&mut self, op: Op) -> Option<()> {
        self.expect_coop_pointer(op)?;
        self.expect_stride(op, 1)?;
        let r = self.result_ty(op)?;
        if self.coop(r).is_none() {
            return self.fail(
                op,
                format!(
                    "result has type {}, expected a cooperative matrix",
                    self.ty(r)
                ),
            );
        }
        Some(())
    }

    /// `KHR.CooperativeMatrixStore`: pointer, matrix, stride.
    pub(crate) fn check_coop_store(&mut self, op: Op) -> Option<()> {
        self.expect_coop_pointer(op)?;
        self.expect_coop(op, 1, "object")?;
        self.expect_stride(op, 2)
    }

    /// `KHR.CooperativeMatrixMulAdd`: A (M x K, `MatrixA`), B (K x N,
    /// `MatrixB`) and C (M x N, `MatrixAcc`) of one scope; the result has
    /// C's type; A and B are both integer or both float; `matrix_operands`
    /// only for integer matrices.
    pub(crate) fn check_coop_mul_add(&mut self, op: Op) -> Option<()> {
        let (_, a) = self.expect_coop(op, 0, "A")?;
        let (_, b) = self.expect_coop(op, 1, "B")?;
        let (ct, c) = self.expect_coop(op, 2, "C")?;
        self.expect_result(op, ct, "the type of operand #2")?;
        let uses = [
            (a.usage, CoopMatrixUse::MatrixA, "A"),
            (b.usage, CoopMatrixUse::MatrixB, "B"),
            (c.usage, CoopMatrixUse::MatrixAcc, "C"),
        ];
        for (found, want, name) in uses {
            if found != want {
                return self.fail(
                    op,
                    format!("{name} has use {}, expected {}", found.name(), want.name()),
                );
            }
        }
        if a.scope != b.scope || a.scope != c.scope {
            return self.fail(op, "A, B and C must have the same scope".to_string());
        }
        if a.rows != c.rows || b.columns != c.columns || a.columns != b.rows {
            return self.fail(
                op,
                format!(
                    "shapes {}x{} * {}x{} + {}x{} do not multiply (expected M x K, K x N, M x N)",
                    a.rows, a.columns, b.rows, b.columns, c.rows, c.columns
                ),
            );
        }
        let types = &self.m.types;
        let float = |t: Type| types.is_float(t);
        let all_int = !float(a.element) && !float(b.element) && !float(c.element);
        if float(a.element) != float(b.element) {
            return self.fail(
                op,
                "A and B must both have integer or both have float elements".to_string(),
            );
        }
        let operands = self
            .m
            .attr(op, "matrix_operands")
            .map(|a| self.m.attrs.kind(a));
        if let Some(AttrKind::Enum {
            kind: OperandKind::CooperativeMatrixOperands,
            value,
        }) = operands
        {
            if *value != 0 && !all_int {
                return self.fail(
                    op,
                    "matrix operands (signedness, saturation) need integer matrices".to_string(),
                );
            }
        }
        Some(())
    }

    /// `KHR.CooperativeMatrixLength`: `cooperative_matrix_type` is a
    /// cooperative matrix type; the result is `i32`.
    pub(crate) fn check_coop_length(&mut self, op: Op) -> Option<()> {
        let ty = match self
            .m
            .attr(op, "cooperative_matrix_type")
            .map(|a| self.m.attrs.kind(a))
        {
            Some(AttrKind::Type(t)) => *t,
            _ => return Some(()), // reported by the schema check
        };
        if self.coop(ty).is_none() {
            return self.fail(
                op,
                format!(
                    "'cooperative_matrix_type' is {}, expected a cooperative matrix type",
                    self.ty(ty)
                ),
            );
        }
        let r = self.result_ty(op)?;
        if !matches!(self.m.types.kind(r), TypeKind::Int { width: 32, .. }) {
            return self.fail(op, format!("result has type {}, expected i32", self.ty(r)));
        }
        Some(())
    }

    /// Elementwise arithmetic on cooperative matrices (operand #0 is one):
    /// an op the extension allows, the element type in `float` / integer
    /// class, every operand and the result of operand #0's type.
    pub(crate) fn check_coop_arithmetic(
        &mut self,
        op: Op,
        core: Option<Opcode>,
        float: bool,
    ) -> Option<()> {
        let (t, c) = self.expect_coop(op, 0, "matrix")?;
        if !core.is_some_and(|o| ARITHMETIC.contains(&o)) {
            return self.fail(
                op,
                format!("is not defined on cooperative matrices ({})", self.ty(t)),
            );
        }
        let types = &self.m.types;
        let ok = if float {
            types.is_float(c.element)
        } else {
            types.is_integer(c.element)
        };
        if !ok {
            return self.fail(
                op,
                format!(
                    "operand #0 has type {}, expected {} elements",
                    self.ty(t),
                    if float { "float" } else { "integer" }
                ),
            );
        }
        for i in 1..self.m.op(op).operands.len() {
            self.expect_operand(op, i, t, "same as operand #0")?;
        }
        self.expect_result(op, t, "same as operand #0")
    }

    /// A conversion between cooperative matrices: both sides matrices of
    /// one shape, scope and use, the elements of the classes `from_float` /
    /// `to_float` say.
    pub(crate) fn check_coop_convert(
        &mut self,
        op: Op,
        from_float: bool,
        to_float: bool,
    ) -> Option<()> {
        let (t, a) = self.expect_coop(op, 0, "matrix")?;
        let r = self.result_ty(op)?;
        let Some(b) = self.coop(r) else {
            return self.fail(
                op,
                format!(
                    "converts {} to {}; expected a cooperative matrix result",
                    self.ty(t),
                    self.ty(r)
                ),
            );
        };
        if (a.rows, a.columns, a.scope, a.usage) != (b.rows, b.columns, b.scope, b.usage) {
            return self.fail(
                op,
                format!(
                    "converts {} to {}; expected the same shape, scope and use",
                    self.ty(t),
                    self.ty(r)
                ),
            );
        }
        let types = &self.m.types;
        let class_ok = |e: Type, float: bool| {
            if float {
                types.is_float(e)
            } else {
                types.is_integer(e)
            }
        };
        if !class_ok(a.element, from_float) || !class_ok(b.element, to_float) || t == r {
            return self.fail(
                op,
                format!(
                    "converts {} to {}; expected {} to {} elements of different types",
                    self.ty(t),
                    self.ty(r),
                    if from_float { "float" } else { "integer" },
                    if to_float { "float" } else { "integer" }
                ),
            );
        }
        Some(())
    }
}
