//! Cooperative matrices (`SPV_KHR_cooperative_matrix`, `Subgroup` scope)
//! in the kernel ABI, where a CPU runner executes a subgroup's invocations
//! as fibers (see [`super::super::abi`]).
//!
//! **Distribution.** The spec leaves the mapping of a matrix's components
//! to invocations implementation-dependent; kiln's CPU runner fixes it:
//! with `S` invocations per subgroup (the conversion's
//! [`ConvertOptions::subgroup_size`]), an `R` x `C` matrix is cut in
//! row-major order into chunks of `L = ceil(R * C / S)` components, and the
//! invocation with `SubgroupLocalInvocationId` `l` holds chunk `l`: its
//! component `i` (`0 <= i < L`, what `OpCompositeExtract` index `i` reads
//! and `OpCooperativeMatrixLengthKHR` counts) is the matrix element at
//! row-major index `l * L + i`, row `(l * L + i) / C`, column
//! `(l * L + i) % C`. When `S` does not divide `R * C`, the last chunks
//! end with padding components (index `>= R * C`): loaded as zero, never
//! stored, ignored by the multiply-add. A matrix value is an LLVM
//! `<L x T>` vector ([`super::super::types`]), so conversions and
//! component-wise arithmetic (`OpFAdd`, `OpFConvert`, `OpSNegate`, ...),
//! `OpCompositeExtract` / `OpCompositeInsert` need nothing of their own.
//!
//! * `OpCooperativeMatrixLoadKHR` / `StoreKHR`: each invocation loads or
//!   stores its own components, element `(row, col)` at
//!   `Pointer[row * Stride]` + `col` components (`RowMajorKHR`) or
//!   `Pointer[col * Stride]` + `row` (`ColumnMajorKHR`), `Stride` counted
//!   in the pointee type (a scalar or vector) as the spec says; every
//!   access is bounds-checked as a `Load`/`Store` through a dynamic access
//!   chain would be. Memory operands are hints or visibility operations a
//!   CPU needs nothing for.
//! * `OpCooperativeMatrixMulAddKHR`: a subgroup collective through the
//!   harness ([`abi::RT_COOP_MUL_ADD`]): each invocation passes its
//!   components of A, B and C and receives its components of the result.
//!   The harness gathers the whole operands and computes, per the spec:
//!   integer components sign-extended where the operands say
//!   `Matrix{A,B,C}SignedComponents`, else zero-extended; the exact sum of
//!   products added to C and wrapped to the result's width, or with
//!   `SaturatingAccumulation` clamped to the result's range (signed with
//!   `MatrixResultSignedComponents`); floats (the client API defines their
//!   internal precision) as exact products summed in `double` with C and
//!   rounded once to the result type. Every invocation of the subgroup
//!   must take part, as the spec requires (the harness stops the kernel
//!   otherwise).
//! * `OpCooperativeMatrixLengthKHR`: the constant `L`.
//! * `OpCompositeConstruct` of a matrix (one constituent): every component
//!   is that value; `OpMatrixTimesScalar` of a matrix: each component times
//!   the scalar.
//!
//! [`ConvertOptions::subgroup_size`]: super::super::ConvertOptions::subgroup_size

use super::super::abi::{self, ElemCode, SubgroupOp};
use super::super::error::ConvertError;
use super::super::ir::{BinOp, IPred, LType, LValue, MemFlags};
use super::func::{PtrInfo, Root};
use super::Fx;
use crate::grammar::{BuiltIn, OperandKind};
use crate::ir::{CoopMatrixType, Op, Type, TypeKind};

/// `CooperativeMatrixOperands` bits (the spec's values).
const MATRIX_A_SIGNED: u32 = 0x1;
const MATRIX_B_SIGNED: u32 = 0x2;
const MATRIX_C_SIGNED: u32 = 0x4;
const MATRIX_RESULT_SIGNED: u32 = 0x8;
const SATURATING_ACCUMULATION: u32 = 0x10;
const KNOWN_OPERANDS: u32 = MATRIX_A_SIGNED
    | MATRIX_B_SIGNED
    | MATRIX_C_SIGNED
    | MATRIX_RESULT_SIGNED
    | SATURATING_ACCUMULATION;

impl Fx<'_, '_> {
    /// Handles the op if it is one of this family (before the composite
    /// and arithmetic families, whose `CompositeConstruct` and
    /// `MatrixTimesScalar` it takes when the result is a matrix).
    pub(crate) fn coop(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        match name {
            "CooperativeMatrixLoadKHR" => self.coop_access(op, false)?,
            "CooperativeMatrixStoreKHR" => self.coop_access(op, true)?,
            "CooperativeMatrixMulAddKHR" => self.coop_mul_add(op)?,
            "CooperativeMatrixLengthKHR" => {
                let m = self.m();
                let ty = m
                    .attr(op, "cooperative_matrix_type")
                    .and_then(|a| m.attrs.as_type(a))
                    .ok_or_else(|| self.malformed(op, "has no cooperative matrix type"))?;
                let len = self.cx.tc.coop_length(ty)?;
                self.cx.uses_coop = true;
                let v = self.b.i32(i64::from(len));
                self.set(op, v);
            }
            "CompositeConstruct" | "MatrixTimesScalar" => {
                let res = self.res_spv(op)?;
                if self.coop_type(res).is_none() {
                    return Ok(false);
                }
                let ty = self.res_ty(op)?;
                self.cx.uses_coop = true;
                if name == "CompositeConstruct" {
                    let parts = self.args(op)?;
                    let [x] = parts[..] else {
                        return Err(self.malformed(
                            op,
                            "a cooperative matrix is constructed from exactly one constituent",
                        ));
                    };
                    let v = self.b.splat(x, &ty);
                    self.set(op, v);
                } else {
                    let m = self.arg(op, 0)?;
                    let s = self.arg(op, 1)?;
                    let s = self.b.splat(s, &ty);
                    let bin = if ty.is_float() {
                        BinOp::FMul
                    } else {
                        BinOp::Mul
                    };
                    let v = self.b.bin(bin, m, s);
                    self.set(op, v);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The cooperative matrix type `ty` is, if it is one.
    fn coop_type(&self, ty: Type) -> Option<CoopMatrixType> {
        match self.m().types.kind(ty) {
            TypeKind::CoopMatrix(c) => Some(*c),
            _ => None,
        }
    }

    /// The context, or the error for an op that needs the kernel ABI.
    fn coop_ctx(&self, op: Op) -> Result<LValue, ConvertError> {
        self.ctx.ok_or_else(|| {
            self.unsupported(
                op,
                Some(
                    "cooperative matrices run in the kernel ABI only (a CPU runner's subgroups)"
                        .into(),
                ),
            )
        })
    }

    /// This invocation's `SubgroupLocalInvocationId`, as `i64`.
    fn coop_lane(&mut self, ctx: LValue) -> LValue {
        let (offset, _) = abi::builtin_offset(BuiltIn::SubgroupLocalInvocationId)
            .expect("the context holds SubgroupLocalInvocationId");
        let p = self.b.byte_gep_const(ctx, offset);
        let lane = self.b.load(p, LType::I32, MemFlags::default());
        self.fit_width(lane, &LType::I64, false)
    }

    /// `OpCooperativeMatrixLoadKHR` (`store` false) or `StoreKHR`.
    fn coop_access(&mut self, op: Op, store: bool) -> Result<(), ConvertError> {
        let ctx = self.coop_ctx(op)?;
        self.cx.uses_coop = true;
        let (mty, lty) = if store {
            let t = self.arg_ty(op, 1)?;
            (t, self.cx.tc.convert(t)?)
        } else {
            let t = self.res_spv(op)?;
            (t, self.res_ty(op)?)
        };
        let c = self
            .coop_type(mty)
            .ok_or_else(|| self.malformed(op, "does not load or store a cooperative matrix"))?;
        let len = self.cx.tc.coop_length(mty)?;
        let base = self.arg(op, 0)?;
        let ptr_ty = self.arg_ty(op, 0)?;
        let (pointee, sc) = self
            .m()
            .types
            .pointer_parts(ptr_ty)
            .ok_or_else(|| self.malformed(op, "operand #0 is not a pointer"))?;
        let pointee_bytes = self.cx.tc.size(pointee)?;
        let elem_bytes = self.cx.tc.size(c.element)?;
        let stride_at = if store { 2 } else { 1 };
        let stride = if self.m().op(op).operands.len() > stride_at {
            let s = self.arg(op, stride_at)?;
            self.fit_width(s, &LType::I64, false)
        } else {
            return Err(self.malformed(op, "has no stride"));
        };
        let layout = self
            .enum_attr(op, "matrix_layout", OperandKind::CooperativeMatrixLayout)
            .unwrap_or(0);
        if layout > 1 {
            return Err(self.unsupported(
                op,
                Some("only the RowMajorKHR and ColumnMajorKHR layouts".into()),
            ));
        }
        let value = if store { Some(self.arg(op, 1)?) } else { None };
        let elem = lty.scalar().clone();
        let total = u64::from(c.rows) * u64::from(c.columns);
        let ragged = u64::from(len) * u64::from(self.cx.tc.subgroup_size().unwrap_or(0)) != total;
        let info = self.ptrs.get(&base).copied();
        let lane = self.coop_lane(ctx);
        let len_v = self.b.i64(i64::from(len));
        let first = self.b.bin(BinOp::Mul, lane, len_v);
        let cols = self.b.i64(i64::from(c.columns));
        let row_step = self.b.i64(pointee_bytes as i64);
        let col_step = self.b.i64(elem_bytes as i64);
        let stride_bytes = self.b.bin(BinOp::Mul, stride, row_step);
        let flags = MemFlags {
            align: Some(elem.scalar_align()),
            ..MemFlags::default()
        };
        let mut acc = if store {
            None
        } else {
            Some(self.b.zero(lty.clone()))
        };
        for i in 0..len {
            let iv = self.b.i64(i64::from(i));
            let mut idx = self.b.bin(BinOp::Add, first, iv);
            let valid = if ragged {
                let n = self.b.i64(total as i64);
                let ok = self.b.icmp(IPred::Ult, idx, n);
                let zero = self.b.i64(0);
                idx = self.b.select(ok, idx, zero);
                Some(ok)
            } else {
                None
            };
            let row = self.b.bin(BinOp::UDiv, idx, cols);
            let col = self.b.bin(BinOp::URem, idx, cols);
            let (major, minor) = if layout == 0 { (row, col) } else { (col, row) };
            let major_off = self.b.bin(BinOp::Mul, major, stride_bytes);
            let minor_off = self.b.bin(BinOp::Mul, minor, col_step);
            let off = self.b.bin(BinOp::Add, major_off, minor_off);
            let p = self.b.byte_gep(base, off);
            if let Some(PtrInfo { root, .. }) = info {
                self.ptrs.insert(
                    p,
                    PtrInfo {
                        root,
                        dynamic: root != Root::Unchecked,
                    },
                );
            }
            let p = self.guard(p, elem_bytes, store, Some(sc));
            let lane_i = self.b.i32(i64::from(i));
            match (value, acc) {
                (Some(v), _) => {
                    let x = self.b.extract_element(v, lane_i);
                    let p = match valid {
                        // Padding components are not stored.
                        Some(ok) => {
                            let scratch = self.ctx_ptr(ctx, abi::CTX_WRITE_SCRATCH);
                            self.b.select(ok, p, scratch)
                        }
                        None => p,
                    };
                    self.b.store(x, p, flags);
                }
                (None, Some(a)) => {
                    let mut x = self.b.load(p, elem.clone(), flags);
                    if let Some(ok) = valid {
                        let zero = self.b.zero(elem.clone());
                        x = self.b.select(ok, x, zero);
                    }
                    acc = Some(self.b.insert_element(a, x, lane_i));
                }
                (None, None) => unreachable!("a load accumulates"),
            }
        }
        if let Some(v) = acc {
            self.set(op, v);
        }
        Ok(())
    }

    /// `OpCooperativeMatrixMulAddKHR`: one call of the harness's collective.
    fn coop_mul_add(&mut self, op: Op) -> Result<(), ConvertError> {
        let ctx = self.coop_ctx(op)?;
        self.cx.uses_coop = true;
        let mut types = Vec::new();
        for i in 0..3 {
            let t = self.arg_ty(op, i)?;
            let c = self.coop_type(t).ok_or_else(|| {
                self.malformed(op, format!("operand #{i} is not a cooperative matrix"))
            })?;
            types.push((t, c));
        }
        let res = self.res_spv(op)?;
        let rc = self
            .coop_type(res)
            .ok_or_else(|| self.malformed(op, "the result is not a cooperative matrix"))?;
        let (a, b, c) = (types[0].1, types[1].1, types[2].1);
        let (m, n, k) = (a.rows, b.columns, a.columns);
        if b.rows != k || c.rows != m || c.columns != n || rc.rows != m || rc.columns != n {
            return Err(self.malformed(op, "operand sizes do not match (M x K, K x N, M x N)"));
        }
        let operands = self
            .enum_attr(
                op,
                "matrix_operands",
                OperandKind::CooperativeMatrixOperands,
            )
            .unwrap_or(0);
        if operands & !KNOWN_OPERANDS != 0 {
            return Err(self.unsupported(
                op,
                Some(format!("cooperative matrix operands {operands:#x}")),
            ));
        }
        let mut codes = Vec::new();
        let mut floats = Vec::new();
        for ty in [a.element, b.element, c.element, rc.element] {
            let lt = self.cx.tc.convert(ty)?;
            floats.push(lt.is_float());
            let code = coop_elem_code(&lt).ok_or_else(|| ConvertError::UnsupportedType {
                ty: lt.to_string(),
                reason: "a cooperative matrix component the CPU runner does not multiply".into(),
            })?;
            codes.push(code);
        }
        if floats.iter().any(|&f| f != floats[3]) {
            return Err(self.unsupported(
                op,
                Some("a multiply-add mixing integer and float matrices".into()),
            ));
        }
        self.cx.uses_subgroups = true;
        self.cx.runtime.insert(abi::RT_COOP_MUL_ADD);
        let site = self.cx.sites;
        self.cx.sites += 1;
        let mut slots = Vec::new();
        for i in 0..3 {
            let v = self.arg(op, i)?;
            let ty = self.b.ty(v).clone();
            let slot = self.b.entry_alloca(ty);
            self.b.store(v, slot, MemFlags::default());
            slots.push(slot);
        }
        let rty = self.res_ty(op)?;
        let out = self.b.entry_alloca(rty.clone());
        let mut args = vec![ctx, self.b.i32(i64::from(site))];
        for d in [m, n, k] {
            args.push(self.b.i32(i64::from(d)));
        }
        for code in codes {
            args.push(self.b.i32(code as i64));
        }
        args.push(self.b.i32(i64::from(operands)));
        args.extend(slots);
        args.push(out);
        debug_assert_eq!(SubgroupOp::CoopMulAdd as u32, 60);
        self.b.call(abi::RT_COOP_MUL_ADD, args, LType::Void);
        let v = self.b.load(out, rty, MemFlags::default());
        self.set(op, v);
        Ok(())
    }
}

/// The runtime's code for a matrix component type.
fn coop_elem_code(ty: &LType) -> Option<ElemCode> {
    Some(match ty.scalar() {
        LType::Int(8) => ElemCode::I8,
        LType::Int(16) => ElemCode::I16,
        LType::Int(32) => ElemCode::I32,
        LType::Int(64) => ElemCode::I64,
        LType::Half => ElemCode::F16,
        LType::BFloat => ElemCode::BF16,
        LType::Float => ElemCode::F32,
        LType::Double => ElemCode::F64,
        _ => return None,
    })
}
