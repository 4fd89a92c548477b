//! Barriers and subgroup operations (beyond the seed).
//!
//! * `ControlBarrier` with `Workgroup` execution scope → a call of the
//!   runtime's workgroup barrier ([`abi::RT_BARRIER`]); with `Subgroup`
//!   scope → the runtime's subgroup rendezvous ([`SubgroupOp::Barrier`]);
//!   `Invocation` scope needs nothing. Larger scopes cannot be honoured by
//!   a barrier and have no conversion.
//! * `MemoryBarrier` → `fence` with the semantics' ordering (nothing when
//!   the semantics order nothing).
//! * `GroupNonUniform*` (subgroup scope only) → one call of
//!   [`abi::RT_SUBGROUP`] per op: the value goes through a stack slot
//!   (booleans as bytes), the operation code, group operation, cluster
//!   size and the op's extra operand (id, mask, delta, index, direction) as
//!   arguments, and the result comes back through another stack slot. Each
//!   call site has its own number, so the runtime knows which invocations
//!   meet at the same op.

use super::super::abi::{self, ElemCode, SubgroupOp};
use super::super::error::ConvertError;
use super::super::ir::{CastOp, IPred, InstKind, LType, LValue, MemFlags};
use super::memory::semantics_ordering;
use super::Fx;
use crate::grammar::{OperandKind, Scope};
use crate::ir::Op;

impl Fx<'_, '_> {
    /// Handles the op if it is one of this family.
    pub(crate) fn group(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        match name {
            "ControlBarrier" => {
                let scope = self.enum_attr(op, "execution_scope", OperandKind::Scope);
                match scope.and_then(Scope::from_u32) {
                    Some(Scope::Workgroup) => {
                        self.cx.uses_barriers = true;
                        self.cx.runtime.insert(abi::RT_BARRIER);
                        let ctx = self.ctx_or_null();
                        self.b.call(abi::RT_BARRIER, vec![ctx], LType::Void);
                    }
                    Some(Scope::Subgroup) => {
                        self.subgroup_call(SubgroupOp::Barrier, 0, None, None, None, None)?;
                    }
                    Some(Scope::Invocation) => {}
                    _ => {
                        return Err(self.unsupported(
                            op,
                            Some("only workgroup, subgroup and invocation scopes".into()),
                        ))
                    }
                }
                return Ok(true);
            }
            "MemoryBarrier" => {
                let bits = self
                    .enum_attr(op, "memory_semantics", OperandKind::MemorySemantics)
                    .unwrap_or(0);
                let ordering = semantics_ordering(bits);
                if ordering != super::super::ir::Ordering::Monotonic {
                    self.b.effect(InstKind::Fence(ordering), Vec::new());
                }
                return Ok(true);
            }
            _ => {}
        }
        let Some(rest) = name.strip_prefix("GroupNonUniform") else {
            return Ok(false);
        };
        let scope = self.enum_attr(op, "execution_scope", OperandKind::Scope);
        if scope != Some(Scope::Subgroup as u32) {
            return Err(self.unsupported(op, Some("only the subgroup scope".into())));
        }
        let group_op = self
            .enum_attr(op, "group_operation", OperandKind::GroupOperation)
            .unwrap_or(abi::GROUP_REDUCE);
        let res = self.res_ty(op)?;
        let arith = match rest {
            "IAdd" => Some(SubgroupOp::IAdd),
            "FAdd" => Some(SubgroupOp::FAdd),
            "IMul" => Some(SubgroupOp::IMul),
            "FMul" => Some(SubgroupOp::FMul),
            "SMin" => Some(SubgroupOp::SMin),
            "UMin" => Some(SubgroupOp::UMin),
            "FMin" => Some(SubgroupOp::FMin),
            "SMax" => Some(SubgroupOp::SMax),
            "UMax" => Some(SubgroupOp::UMax),
            "FMax" => Some(SubgroupOp::FMax),
            "BitwiseAnd" => Some(SubgroupOp::BitwiseAnd),
            "BitwiseOr" => Some(SubgroupOp::BitwiseOr),
            "BitwiseXor" => Some(SubgroupOp::BitwiseXor),
            "LogicalAnd" => Some(SubgroupOp::LogicalAnd),
            "LogicalOr" => Some(SubgroupOp::LogicalOr),
            "LogicalXor" => Some(SubgroupOp::LogicalXor),
            _ => None,
        };
        let v = if let Some(code) = arith {
            if group_op > abi::GROUP_CLUSTERED_REDUCE {
                return Err(self.unsupported(op, Some("this group operation".into())));
            }
            let value = self.arg(op, 0)?;
            let cluster = if self.m().op(op).operands.len() > 1 {
                let c = self.m().op(op).operands[1];
                let size = self
                    .const_of(c)
                    .ok_or_else(|| self.malformed(op, "cluster size must be a constant"))?;
                Some(size as u32)
            } else {
                None
            };
            self.subgroup_call(code, group_op, cluster, Some(value), None, Some(res))?
        } else {
            let (code, has_value, has_arg) = match rest {
                "Elect" => (SubgroupOp::Elect, false, false),
                "All" => (SubgroupOp::All, true, false),
                "Any" => (SubgroupOp::Any, true, false),
                "AllEqual" => (SubgroupOp::AllEqual, true, false),
                "Broadcast" => (SubgroupOp::Broadcast, true, true),
                "BroadcastFirst" => (SubgroupOp::BroadcastFirst, true, false),
                "Ballot" => (SubgroupOp::Ballot, true, false),
                "InverseBallot" => (SubgroupOp::InverseBallot, true, false),
                "BallotBitExtract" => (SubgroupOp::BallotBitExtract, true, true),
                "BallotBitCount" => (SubgroupOp::BallotBitCount, true, false),
                "BallotFindLSB" => (SubgroupOp::BallotFindLsb, true, false),
                "BallotFindMSB" => (SubgroupOp::BallotFindMsb, true, false),
                "Shuffle" => (SubgroupOp::Shuffle, true, true),
                "ShuffleXor" => (SubgroupOp::ShuffleXor, true, true),
                "ShuffleUp" => (SubgroupOp::ShuffleUp, true, true),
                "ShuffleDown" => (SubgroupOp::ShuffleDown, true, true),
                "QuadBroadcast" => (SubgroupOp::QuadBroadcast, true, true),
                "QuadSwap" => (SubgroupOp::QuadSwap, true, true),
                _ => return Err(self.unsupported(op, None)),
            };
            let value = if has_value {
                Some(self.arg(op, 0)?)
            } else {
                None
            };
            let arg = if has_arg {
                Some(self.arg(op, 1)?)
            } else {
                None
            };
            self.subgroup_call(code, group_op, None, value, arg, Some(res))?
        };
        let v = v.ok_or_else(|| self.malformed(op, "has no result"))?;
        self.set(op, v);
        Ok(true)
    }

    fn ctx_or_null(&mut self) -> LValue {
        match self.ctx {
            Some(c) => c,
            None => self.b.zero(LType::PTR),
        }
    }

    /// One call of the runtime's subgroup entry; returns the result loaded
    /// back as `res`.
    fn subgroup_call(
        &mut self,
        code: SubgroupOp,
        group_op: u32,
        cluster: Option<u32>,
        value: Option<LValue>,
        arg: Option<LValue>,
        res: Option<LType>,
    ) -> Result<Option<LValue>, ConvertError> {
        self.cx.uses_subgroups = true;
        self.cx.runtime.insert(abi::RT_SUBGROUP);
        let site = self.cx.sites;
        self.cx.sites += 1;
        // The value, booleans widened to bytes.
        let (input, elem, lanes) = match value {
            Some(v) => {
                let ty = self.b.ty(v).clone();
                let (v, ty) = if ty.scalar() == &LType::BOOL {
                    let bytes = ty.with_scalar(LType::Int(8));
                    (self.b.cast(CastOp::ZExt, v, bytes.clone()), bytes)
                } else {
                    (v, ty.clone())
                };
                let slot = self.b.entry_alloca(ty.clone());
                self.b.store(v, slot, MemFlags::default());
                let code = elem_code(self.b.ty(value.unwrap_or(v))).ok_or_else(|| {
                    ConvertError::UnsupportedType {
                        ty: ty.to_string(),
                        reason: "subgroup operations take scalars and vectors".into(),
                    }
                })?;
                (slot, code, ty.lanes())
            }
            None => (self.b.zero(LType::PTR), ElemCode::I32, 1),
        };
        let out_ty = res.as_ref().map(|t| {
            if t.scalar() == &LType::BOOL {
                t.with_scalar(LType::Int(8))
            } else {
                t.clone()
            }
        });
        let out = match &out_ty {
            Some(t) => self.b.entry_alloca(t.clone()),
            None => self.b.zero(LType::PTR),
        };
        let arg = match arg {
            Some(a) => self.fit_width(a, &LType::I32, false),
            None => self.b.i32(0),
        };
        let ctx = self.ctx_or_null();
        let args = vec![
            ctx,
            self.b.i32(i64::from(site)),
            self.b.i32(code as i64),
            self.b.i32(i64::from(group_op)),
            self.b.i32(i64::from(cluster.unwrap_or(0))),
            self.b.i32(elem as i64),
            self.b.i32(i64::from(lanes)),
            input,
            arg,
            out,
        ];
        self.b.call(abi::RT_SUBGROUP, args, LType::Void);
        let (Some(res), Some(out_ty)) = (res, out_ty) else {
            return Ok(None);
        };
        let loaded = self.b.load(out, out_ty.clone(), MemFlags::default());
        if res.scalar() == &LType::BOOL {
            let zero = self.b.const_int(out_ty, 0);
            return Ok(Some(self.b.icmp(IPred::Ne, loaded, zero)));
        }
        Ok(Some(loaded))
    }
}

/// The runtime's code for a value's element type.
fn elem_code(ty: &LType) -> Option<ElemCode> {
    Some(match ty.scalar() {
        LType::Int(1) => ElemCode::Bool,
        LType::Int(8) => ElemCode::I8,
        LType::Int(16) => ElemCode::I16,
        LType::Int(32) => ElemCode::I32,
        LType::Int(64) => ElemCode::I64,
        LType::Half => ElemCode::F16,
        LType::Float => ElemCode::F32,
        LType::Double => ElemCode::F64,
        _ => return None,
    })
}
