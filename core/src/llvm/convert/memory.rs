//! Memory ops: `spirv.mlir.addressof`, `Variable` (`alloca`, plus a store
//! of the initializer), `Load` / `Store` (alignment, `volatile`,
//! `nontemporal` from the memory access; `MakePointerAvailable`,
//! `MakePointerVisible` and `NonPrivatePointer` need nothing on a CPU),
//! `AccessChain` / `InBoundsAccessChain` / `PtrAccessChain`
//! (`getelementptr`, with the seed's leading zero index for the first two),
//! `CopyMemory` (a load and a store of the pointee) and the atomics (beyond
//! the seed): read-modify-write ops → `atomicrmw`, compare-exchange →
//! `cmpxchg`, `AtomicLoad` / `AtomicStore` → atomic `load` / `store`; the
//! memory semantics give the ordering (none → `monotonic`, `Acquire`,
//! `Release`, `AcquireRelease`, `SequentiallyConsistent`); the scope is not
//! modelled (every atomic is system-wide, which is at least as strong).
//!
//! In the kernel ABI every access through a pointer that needs it is
//! bounds-checked (see [`super::super::abi`]).

use super::super::abi;
use super::super::error::ConvertError;
use super::super::ir::{
    BinOp, CastOp, GepIndex, IPred, InstKind, LType, LValue, MemFlags, Ordering, RmwOp,
};
use super::func::{PtrInfo, Root};
use super::{Fx, Place};
use crate::grammar::{OperandKind, StorageClass};
use crate::ir::{Op, Type, TypeKind, Value};

/// `MemoryAccess` bits.
const MA_VOLATILE: u32 = 0x1;
const MA_ALIGNED: u32 = 0x2;
const MA_NONTEMPORAL: u32 = 0x4;

impl Fx<'_, '_> {
    /// Handles the op if it is one of this family.
    pub(crate) fn memory(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        match name {
            "Variable" => self.variable(op)?,
            "Load" => {
                let p = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let mut flags = self.mem_flags(op, "memory_access", "alignment");
                let sc = self.sc_of(op, 0);
                self.layout_align(&mut flags, &ty, sc);
                let bytes = self.res_bytes(op)?;
                let p = self.guard(p, bytes, false, sc);
                let v = self.b.load(p, ty, flags);
                self.set(op, v);
            }
            "Store" => {
                let p = self.arg(op, 0)?;
                let v = self.arg(op, 1)?;
                let mut flags = self.mem_flags(op, "memory_access", "alignment");
                let sc = self.sc_of(op, 0);
                let spv = self.arg_ty(op, 1)?;
                let ty = self.cx.tc.convert(spv)?;
                self.layout_align(&mut flags, &ty, sc);
                let bytes = self.pointee_bytes(op, 0)?;
                let p = self.guard(p, bytes, true, sc);
                self.b.store(v, p, flags);
            }
            "CopyMemory" => {
                let dst = self.arg(op, 0)?;
                let src = self.arg(op, 1)?;
                let (pointee, _) = self
                    .m()
                    .types
                    .pointer_parts(self.arg_ty(op, 1)?)
                    .ok_or_else(|| self.malformed(op, "source is not a pointer"))?;
                let ty = self.cx.tc.convert(pointee)?;
                let bytes = self.cx.tc.size(pointee)?;
                let mut dflags = self.mem_flags(op, "memory_access", "alignment");
                let mut sflags = if self.m().attr(op, "source_memory_access").is_some() {
                    self.mem_flags(op, "source_memory_access", "source_alignment")
                } else {
                    dflags
                };
                let (ssc, dsc) = (self.sc_of(op, 1), self.sc_of(op, 0));
                self.layout_align(&mut sflags, &ty, ssc);
                self.layout_align(&mut dflags, &ty, dsc);
                let src = self.guard(src, bytes, false, ssc);
                let v = self.b.load(src, ty, sflags);
                let dst = self.guard(dst, bytes, true, dsc);
                self.b.store(v, dst, dflags);
            }
            "AccessChain" | "InBoundsAccessChain" | "PtrAccessChain" | "InBoundsPtrAccessChain" => {
                self.access_chain(op, name.contains("PtrAccessChain"))?
            }
            "AtomicLoad" => {
                let p = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let ordering = self.ordering(op, "semantics");
                let bytes = self.res_bytes(op)?;
                let sc = self.sc_of(op, 0);
                let p = self.guard(p, bytes, false, sc);
                let flags = MemFlags {
                    align: Some(bytes),
                    atomic: Some(ordering),
                    ..MemFlags::default()
                };
                let v = self.b.load(p, ty, flags);
                self.set(op, v);
            }
            "AtomicStore" => {
                let p = self.arg(op, 0)?;
                let v = self.arg(op, 1)?;
                let ordering = match self.ordering(op, "semantics") {
                    Ordering::Acquire | Ordering::AcqRel => Ordering::Release,
                    o => o,
                };
                let bytes = self.pointee_bytes(op, 0)?;
                let sc = self.sc_of(op, 0);
                let p = self.guard(p, bytes, true, sc);
                let flags = MemFlags {
                    align: Some(bytes),
                    atomic: Some(ordering),
                    ..MemFlags::default()
                };
                self.b.store(v, p, flags);
            }
            "AtomicCompareExchange" | "AtomicCompareExchangeWeak" => {
                let p = self.arg(op, 0)?;
                let value = self.arg(op, 1)?;
                let cmp = self.arg(op, 2)?;
                let success = self.ordering(op, "equal_semantics");
                let failure = match self.ordering(op, "unequal_semantics") {
                    Ordering::Release => Ordering::Monotonic,
                    Ordering::AcqRel => Ordering::Acquire,
                    o => o,
                };
                let ty = self.res_ty(op)?;
                let bytes = self.res_bytes(op)?;
                let sc = self.sc_of(op, 0);
                let p = self.guard(p, bytes, true, sc);
                let pair = LType::Struct {
                    packed: false,
                    fields: vec![ty.clone(), LType::BOOL],
                };
                let r = self.b.inst(
                    InstKind::CmpXchg { success, failure },
                    vec![p, cmp, value],
                    pair,
                );
                let v = self.b.extract_value(r, vec![0], ty);
                self.set(op, v);
            }
            _ => {
                let Some(rmw) = rmw_op(name) else {
                    return Ok(false);
                };
                let p = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let value = match name {
                    "AtomicIIncrement" | "AtomicIDecrement" => self.b.const_int(ty.clone(), 1),
                    _ => self.arg(op, 1)?,
                };
                let ordering = self.ordering(op, "semantics");
                let bytes = self.res_bytes(op)?;
                let sc = self.sc_of(op, 0);
                let p = self.guard(p, bytes, true, sc);
                let v = self.b.inst(
                    InstKind::AtomicRmw { op: rmw, ordering },
                    vec![p, value],
                    ty,
                );
                self.set(op, v);
            }
        }
        Ok(true)
    }

    /// `spirv.mlir.addressof @var`.
    pub(crate) fn address_of(&mut self, op: Op) -> Result<(), ConvertError> {
        let m = self.m();
        let sym = m
            .attr(op, "variable")
            .and_then(|a| m.attrs.as_symbol(a))
            .ok_or_else(|| self.malformed(op, "has no variable"))?;
        let (place, _) = self
            .cx
            .places
            .get(sym)
            .cloned()
            .ok_or_else(|| self.malformed(op, format!("@{sym} is not a global variable")))?;
        let (p, root) = match place {
            Place::Global(name) => (
                self.b
                    .inst(InstKind::AddressOf(name), Vec::new(), LType::PTR),
                Root::Unchecked,
            ),
            Place::Slot(index) => self.slot_base(index),
            Place::Slots {
                first,
                count,
                block,
            } => {
                if let Some(r) = self.m().op(op).result() {
                    self.descriptor_arrays.insert(r, (first, count, block));
                }
                return Ok(());
            }
            Place::Workgroup(index, offset, bytes) | Place::Private(index, offset, bytes) => {
                let (field, tag) = if matches!(place, Place::Workgroup(..)) {
                    (abi::CTX_WORKGROUP, abi::REGION_WORKGROUP)
                } else {
                    (abi::CTX_PRIVATE, abi::REGION_PRIVATE)
                };
                let ctx = self.ctx_param();
                let block = self.ctx_ptr(ctx, field);
                let p = self.b.byte_gep_const(block, offset);
                let region = abi::region_id(tag, index);
                (
                    p,
                    Root::Region {
                        base: p,
                        bytes,
                        region,
                    },
                )
            }
            Place::Builtin(offset) => {
                let ctx = self.ctx_param();
                (self.b.byte_gep_const(ctx, offset), Root::Unchecked)
            }
        };
        self.ptrs.insert(
            p,
            PtrInfo {
                root,
                dynamic: false,
            },
        );
        self.set(op, p);
        Ok(())
    }

    /// Slot `index`'s base pointer, loaded from the context's table.
    fn slot_base(&mut self, index: u32) -> (LValue, Root) {
        let ctx = self.ctx_param();
        let table = self.ctx_ptr(ctx, abi::CTX_SLOTS);
        let at = self.b.byte_gep_const(table, u64::from(index) * 8);
        let base = self.b.load(at, LType::PTR, MemFlags::default());
        (base, Root::Slot { index, base })
    }

    /// The context parameter (the kernel ABI's places only exist there).
    fn ctx_param(&mut self) -> LValue {
        match self.ctx {
            Some(c) => c,
            None => self.b.zero(LType::PTR),
        }
    }

    /// Loads the pointer field of the context at `offset`.
    pub(crate) fn ctx_ptr(&mut self, ctx: LValue, offset: u64) -> LValue {
        let at = self.b.byte_gep_const(ctx, offset);
        self.b.load(at, LType::PTR, MemFlags::default())
    }

    fn variable(&mut self, op: Op) -> Result<(), ConvertError> {
        let ptr_ty = self.res_spv(op)?;
        let (pointee, _) = self
            .m()
            .types
            .pointer_parts(ptr_ty)
            .ok_or_else(|| self.malformed(op, "result is not a pointer"))?;
        let ty = self.cx.tc.convert(pointee)?;
        let one = self.b.i32(1);
        let p = self.b.inst(
            InstKind::Alloca {
                elem: ty,
                align: None,
            },
            vec![one],
            LType::PTR,
        );
        let root = if self.cx.kernel() {
            Root::Region {
                base: p,
                bytes: self.cx.tc.size(pointee)?,
                region: abi::REGION_FUNCTION,
            }
        } else {
            Root::Unchecked
        };
        self.ptrs.insert(
            p,
            PtrInfo {
                root,
                dynamic: false,
            },
        );
        if !self.m().op(op).operands.is_empty() {
            let init = self.arg(op, 0)?;
            self.b.store(init, p, MemFlags::default());
        }
        self.set(op, p);
        Ok(())
    }

    fn access_chain(&mut self, op: Op, ptr_chain: bool) -> Result<(), ConvertError> {
        let m = self.m();
        let mut index_values: &[Value] = &m.op(op).operands[1..];
        let (base, pointee) = match self.descriptor_array(op, ptr_chain)? {
            Some((base, block)) => {
                index_values = &index_values[1..];
                if index_values.is_empty() {
                    self.set(op, base);
                    return Ok(());
                }
                (base, block)
            }
            None => {
                let (pointee, _) = m
                    .types
                    .pointer_parts(self.arg_ty(op, 0)?)
                    .ok_or_else(|| self.malformed(op, "base is not a pointer"))?;
                (self.arg(op, 0)?, pointee)
            }
        };
        let elem = self.cx.tc.convert(pointee)?;
        let mut operands = vec![base];
        let mut indices = Vec::new();
        let mut dynamic = false;
        let mut rest = index_values;
        if ptr_chain {
            let (&first, tail) = rest
                .split_first()
                .ok_or_else(|| self.malformed(op, "has no element index"))?;
            dynamic |= self.const_of(first) != Some(0);
            operands.push(self.val(op, first)?);
            indices.push(GepIndex::Operand(operands.len() - 1));
            rest = tail;
        } else {
            let zero = self.b.i32(0);
            operands.push(zero);
            indices.push(GepIndex::Operand(1));
        }
        let mut ty: Type = pointee;
        for &iv in rest {
            let c = self.const_of(iv);
            match m.types.kind(ty).clone() {
                TypeKind::Struct(s) => {
                    let i = c.ok_or_else(|| {
                        self.malformed(op, "indexes a struct with a non-constant")
                    })?;
                    let member = s
                        .members
                        .get(usize::try_from(i).unwrap_or(usize::MAX))
                        .ok_or_else(|| self.malformed(op, format!("struct has no member {i}")))?;
                    indices.push(GepIndex::Const(i as i32));
                    ty = member.ty;
                }
                TypeKind::Array { len, element, .. } => {
                    dynamic |= !c.is_some_and(|i| (0..i128::from(len)).contains(&i));
                    operands.push(self.val(op, iv)?);
                    indices.push(GepIndex::Operand(operands.len() - 1));
                    ty = element;
                }
                TypeKind::RuntimeArray { element, .. } => {
                    dynamic = true;
                    operands.push(self.val(op, iv)?);
                    indices.push(GepIndex::Operand(operands.len() - 1));
                    ty = element;
                }
                TypeKind::Vector { len, element } => {
                    dynamic |= !c.is_some_and(|i| (0..i128::from(len)).contains(&i));
                    operands.push(self.val(op, iv)?);
                    indices.push(GepIndex::Operand(operands.len() - 1));
                    ty = element;
                }
                TypeKind::CoopMatrix(cm) => {
                    // This invocation's components (`convert/coop.rs`).
                    let len = self.cx.tc.coop_length(ty)?;
                    dynamic |= !c.is_some_and(|i| (0..i128::from(len)).contains(&i));
                    operands.push(self.val(op, iv)?);
                    indices.push(GepIndex::Operand(operands.len() - 1));
                    ty = cm.element;
                }
                TypeKind::Matrix { .. } => {
                    return Err(self.unsupported(op, Some("matrix types".into())))
                }
                _ => return Err(self.malformed(op, "indexes into a scalar")),
            }
        }
        let p = self
            .b
            .inst(InstKind::Gep { elem, indices }, operands, LType::PTR);
        if let Some(info) = self.ptrs.get(&base).copied() {
            self.ptrs.insert(
                p,
                PtrInfo {
                    root: info.root,
                    dynamic: info.dynamic || dynamic,
                },
            );
        }
        self.set(op, p);
        Ok(())
    }

    /// When the access chain `op` starts from an array of descriptors:
    /// the base pointer of the descriptor its first index selects (a
    /// constant within the array, else an error) and that block's type.
    fn descriptor_array(
        &mut self,
        op: Op,
        ptr_chain: bool,
    ) -> Result<Option<(LValue, Type)>, ConvertError> {
        let operands = &self.m().op(op).operands;
        let Some(&(first, count, block)) =
            operands.first().and_then(|v| self.descriptor_arrays.get(v))
        else {
            return Ok(None);
        };
        let name = self.op_name(op);
        if ptr_chain {
            return Err(ConvertError::Kernel(format!(
                "{name}: a pointer access chain into an array of descriptors"
            )));
        }
        let element = operands
            .get(1)
            .and_then(|&i| self.const_of(i))
            .ok_or_else(|| {
                ConvertError::Kernel(format!(
                    "{name}: selects a descriptor of an array of descriptors with a \
                     non-constant index (the CPU runner binds each descriptor as its own slot)"
                ))
            })?;
        let element = u32::try_from(element)
            .ok()
            .filter(|&e| e < count)
            .ok_or_else(|| {
                self.malformed(
                    op,
                    format!("selects descriptor {element} of an array of {count}"),
                )
            })?;
        let (base, root) = self.slot_base(first + element);
        self.ptrs.insert(
            base,
            PtrInfo {
                root,
                dynamic: false,
            },
        );
        Ok(Some((base, block)))
    }

    /// Load/store flags from a memory-access attribute.
    fn mem_flags(&self, op: Op, attr: &str, align_attr: &str) -> MemFlags {
        let bits = self
            .enum_attr(op, attr, OperandKind::MemoryAccess)
            .unwrap_or(0);
        MemFlags {
            align: if bits & MA_ALIGNED != 0 {
                self.int_attr(op, align_attr).map(|a| a as u64)
            } else {
                None
            },
            volatile: bits & MA_VOLATILE != 0,
            nontemporal: bits & MA_NONTEMPORAL != 0,
            atomic: None,
        }
    }

    /// Kernel ABI: the alignment a load or store without an `Aligned`
    /// operand may assume. Outside `Function` memory (an `alloca`, laid
    /// out by LLVM) the bytes are laid out by SPIR-V's rules or by the
    /// runner (built-ins in the context at 4-byte offsets, buffers with
    /// scalar block layout), which guarantee the alignment of the widest
    /// scalar only: a vector or aggregate access says so, or LLVM assumes
    /// its ABI alignment (16 for `<3 x i32>`) and may use an aligned
    /// instruction that faults (`vmovdqa` of LocalInvocationId at context
    /// offset 68).
    fn layout_align(&self, flags: &mut MemFlags, ty: &LType, sc: Option<StorageClass>) {
        let aggregate = matches!(
            ty,
            LType::Vector(..) | LType::Array(..) | LType::Struct { .. }
        );
        if self.cx.kernel()
            && flags.align.is_none()
            && aggregate
            && sc != Some(StorageClass::Function)
        {
            flags.align = Some(ty.scalar_align());
        }
    }

    /// The LLVM ordering of a memory-semantics attribute.
    fn ordering(&self, op: Op, attr: &str) -> Ordering {
        let bits = self
            .enum_attr(op, attr, OperandKind::MemorySemantics)
            .unwrap_or(0);
        semantics_ordering(bits)
    }

    fn sc_of(&self, op: Op, i: usize) -> Option<StorageClass> {
        let v = *self.m().op(op).operands.get(i)?;
        self.storage_class(v)
    }

    fn res_bytes(&self, op: Op) -> Result<u64, ConvertError> {
        let t = self.res_spv(op)?;
        self.cx.tc.size(t)
    }

    fn pointee_bytes(&self, op: Op, i: usize) -> Result<u64, ConvertError> {
        let (pointee, _) = self
            .m()
            .types
            .pointer_parts(self.arg_ty(op, i)?)
            .ok_or_else(|| self.malformed(op, format!("operand #{i} is not a pointer")))?;
        self.cx.tc.size(pointee)
    }

    /// The pointer an access of `bytes` through `p` may use: `p` itself
    /// when it needs no check, else `p` when in bounds and a scratch
    /// pointer (after reporting) when not. Kernel ABI only.
    pub(crate) fn guard(
        &mut self,
        p: LValue,
        bytes: u64,
        store: bool,
        sc: Option<StorageClass>,
    ) -> LValue {
        let Some(ctx) = self.ctx else { return p };
        self.cx.max_access = self.cx.max_access.max(bytes);
        let info = self.ptrs.get(&p).copied();
        let (base, size, region) = match info {
            Some(PtrInfo { dynamic: false, .. })
            | Some(PtrInfo {
                root: Root::Unchecked,
                ..
            }) => return p,
            Some(PtrInfo {
                root: Root::Slot { index, base },
                ..
            }) => {
                let table = self.ctx_ptr(ctx, abi::CTX_SLOT_SIZES);
                let at = self.b.byte_gep_const(table, u64::from(index) * 8);
                let size = self.b.load(at, LType::I64, MemFlags::default());
                (base, size, index)
            }
            Some(PtrInfo {
                root:
                    Root::Region {
                        base,
                        bytes: total,
                        region,
                    },
                ..
            }) => {
                let size = self.b.i64(total as i64);
                (base, size, region)
            }
            None => {
                let checked = matches!(
                    sc,
                    Some(
                        StorageClass::StorageBuffer
                            | StorageClass::Uniform
                            | StorageClass::PushConstant
                            | StorageClass::Workgroup
                            | StorageClass::PhysicalStorageBuffer
                    )
                );
                if !checked {
                    return p;
                }
                self.cx.runtime.insert(abi::RT_CHECK_PTR);
                let n = self.b.i64(bytes as i64);
                let s = self.b.i32(i64::from(store));
                return self
                    .b
                    .call(abi::RT_CHECK_PTR, vec![ctx, p, n, s], LType::PTR)
                    .unwrap_or(p);
            }
        };
        let pi = self.b.cast(CastOp::PtrToInt, p, LType::I64);
        let bi = self.b.cast(CastOp::PtrToInt, base, LType::I64);
        let off = self.b.bin(BinOp::Sub, pi, bi);
        let inside = self.b.icmp(IPred::Ult, off, size);
        let room = self.b.bin(BinOp::Sub, size, off);
        let n = self.b.i64(bytes as i64);
        let fits = self.b.icmp(IPred::Uge, room, n);
        let ok = self.b.bin(BinOp::And, inside, fits);
        let scratch = self.ctx_ptr(
            ctx,
            if store {
                abi::CTX_WRITE_SCRATCH
            } else {
                abi::CTX_READ_SCRATCH
            },
        );
        let q = self.b.select(ok, p, scratch);
        let (cont, _) = self.b.block(&[]);
        let (report, _) = self.b.block(&[]);
        self.b.cond_br(
            ok,
            (cont, Vec::new()),
            (report, Vec::new()),
            Some((1 << 20, 1)),
        );
        self.b.set_block(report);
        self.cx.runtime.insert(abi::RT_OOB);
        let r = self.b.i32(i64::from(region));
        self.b.call(abi::RT_OOB, vec![ctx, r, off, n], LType::Void);
        self.b.br(cont, Vec::new());
        self.b.set_block(cont);
        q
    }
}

/// The LLVM ordering of SPIR-V memory semantics bits.
pub(crate) fn semantics_ordering(bits: u32) -> Ordering {
    if bits & 0x10 != 0 {
        Ordering::SeqCst
    } else if bits & 0x8 != 0 || bits & 0x6 == 0x6 {
        Ordering::AcqRel
    } else if bits & 0x2 != 0 {
        Ordering::Acquire
    } else if bits & 0x4 != 0 {
        Ordering::Release
    } else {
        Ordering::Monotonic
    }
}

/// Atomic read-modify-write ops.
fn rmw_op(name: &str) -> Option<RmwOp> {
    Some(match name {
        "AtomicIAdd" | "AtomicIIncrement" => RmwOp::Add,
        "AtomicISub" | "AtomicIDecrement" => RmwOp::Sub,
        "AtomicSMin" => RmwOp::Min,
        "AtomicUMin" => RmwOp::UMin,
        "AtomicSMax" => RmwOp::Max,
        "AtomicUMax" => RmwOp::UMax,
        "AtomicAnd" => RmwOp::And,
        "AtomicOr" => RmwOp::Or,
        "AtomicXor" => RmwOp::Xor,
        "AtomicExchange" => RmwOp::Xchg,
        "AtomicFAddEXT" => RmwOp::FAdd,
        "AtomicFMinEXT" => RmwOp::FMin,
        "AtomicFMaxEXT" => RmwOp::FMax,
        _ => return None,
    })
}
