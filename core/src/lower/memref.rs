//! `memref` -> spv (MLIR's `MemRefToSPIRV` patterns).
//!
//! A memref value is the pointer to its block (`!spv.struct<(array)>`);
//! `memref.load`/`store` linearize the indices with the memref type's
//! strides and offset into `spv.AccessChain %p[0, linear]`. `memref.cast`
//! and `memref.subview` (static strides) reuse the source pointer: the
//! result type's layout carries the offset and strides. Packed 8/16-bit
//! elements are read with shifts and masks and written with
//! `spv.AtomicAnd` + `spv.AtomicOr` on their 32-bit word (a plain
//! read-modify-write in private and function memory), as MLIR does.

use crate::grammar::{OperandKind, Scope, StorageClass};
use crate::ir::{Type, Value};
use crate::kernel::{KOpKind, KType, KValue, MemorySpace};

use super::ctx::Lowerer;
use super::error::LowerError;
use super::types::MemRefRepr;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::MemRefLoad => {
            let base = l.kopnd(0)?;
            let idx = (1..l.km.op(l.cur).operands.len())
                .map(|i| l.opnd(i))
                .collect::<Result<Vec<_>, _>>()?;
            let v = load(l, base, &idx)?;
            l.set_res(0, v)
        }
        KOpKind::MemRefStore => {
            let value = l.opnd(0)?;
            let base = l.kopnd(1)?;
            let idx = (2..l.km.op(l.cur).operands.len())
                .map(|i| l.opnd(i))
                .collect::<Result<Vec<_>, _>>()?;
            store(l, base, &idx, value)
        }
        KOpKind::MemRefAlloc | KOpKind::MemRefAlloca => alloc(l, kind == KOpKind::MemRefAlloca),
        KOpKind::MemRefDealloc => Ok(()),
        KOpKind::MemRefCast | KOpKind::MemRefSubView => {
            let src = l.opnd(0)?;
            let rty = l.res_ktype(0)?;
            // Check the result layout is representable.
            l.memref_repr(rty)?;
            l.set_res(0, src)
        }
        KOpKind::MemRefDim => dim(l),
        _ => Err(l.unsupported("no lowering for this memref op")),
    }
}

/// The representation of kernel memref value `base` and its spv pointer.
fn base_of(l: &mut Lowerer, base: KValue) -> Result<(MemRefRepr, Value), LowerError> {
    let kty = l.ktype(base);
    let repr = l.memref_repr(kty)?;
    if repr.strides.len() != rank(kty) {
        return Err(l.malformed("memref rank mismatch"));
    }
    Ok((repr, l.get(base)?))
}

fn rank(kty: &KType) -> usize {
    match kty {
        KType::MemRef { shape, .. } => shape.len(),
        _ => 0,
    }
}

/// The linear element index of `idx` in `repr`.
fn linearize(l: &mut Lowerer, repr: &MemRefRepr, idx: &[Value]) -> Result<Value, LowerError> {
    if idx.len() != repr.strides.len() {
        return Err(l.malformed(format!(
            "{} indices for a rank-{} memref",
            idx.len(),
            repr.strides.len()
        )));
    }
    let it = l.conv(&KType::Index)?;
    // Constant indices fold into one constant offset (as MLIR's
    // createOrFold does).
    let mut konst: i64 = repr.offset;
    let mut lin: Option<Value> = None;
    for (&i, &stride) in idx.iter().zip(&repr.strides) {
        if let Some(c) = const_value(l, i) {
            konst = konst.wrapping_add(c.wrapping_mul(stride));
            continue;
        }
        let term = if stride == 1 {
            i
        } else {
            let s = l.const_int(it, stride as i128);
            l.op1("IMul", vec![i, s], it)
        };
        lin = Some(match lin {
            Some(acc) => l.op1("IAdd", vec![acc, term], it),
            None => term,
        });
    }
    Ok(match lin {
        Some(v) if konst != 0 => {
            let o = l.const_int(it, konst as i128);
            l.op1("IAdd", vec![v, o], it)
        }
        Some(v) => v,
        None => l.const_int(it, konst as i128),
    })
}

/// The value of `v` when a `spv.Constant` integer defines it.
fn const_value(l: &Lowerer, v: Value) -> Option<i64> {
    let op = l.m.defining_op(v)?;
    if l.m.op(op).kind != crate::ir::OpKind::Constant {
        return None;
    }
    let a = l.m.attr(op, "value")?;
    match l.m.attrs.kind(a) {
        crate::ir::AttrKind::Int { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// `spv.AccessChain %base[0, %i]` to an element of type `elem`.
fn chain(l: &mut Lowerer, base: Value, i: Value, elem: Type) -> Value {
    let sc = storage_class_of(l, base);
    let zero = l.c32(0);
    let pty = l.m.types.pointer(elem, sc);
    l.op1("AccessChain", vec![base, zero, i], pty)
}

fn storage_class_of(l: &Lowerer, ptr: Value) -> StorageClass {
    l.m.types
        .pointer_parts(l.m.value_type(ptr))
        .map(|(_, sc)| sc)
        .unwrap_or(StorageClass::Function)
}

/// Word pointer and bit offset of a packed element.
fn packed_word(
    l: &mut Lowerer,
    repr: &MemRefRepr,
    base: Value,
    lin: Value,
    bits: u32,
) -> (Value, Value) {
    let it = l.m.value_type(lin);
    let per_word = l.const_int(it, (32 / bits) as i128);
    let word = l.op1("SDiv", vec![lin, per_word], it);
    let ptr = chain(l, base, word, repr.stored);
    let lane = l.op1("UMod", vec![lin, per_word], it);
    let width = l.const_int(it, bits as i128);
    let mut off = l.op1("IMul", vec![lane, width], it);
    let i32t = l.i32_ty();
    if it != i32t {
        off = l.op1("UConvert", vec![off], i32t);
    }
    (ptr, off)
}

/// Loads element `idx` of kernel memref `base`.
pub(crate) fn load(l: &mut Lowerer, base: KValue, idx: &[Value]) -> Result<Value, LowerError> {
    let (repr, ptr) = base_of(l, base)?;
    let lin = linearize(l, &repr, idx)?;
    if let Some(bits) = repr.packed_bits {
        let (wp, off) = packed_word(l, &repr, ptr, lin, bits);
        let i32t = l.i32_ty();
        let w = l.op1("Load", vec![wp], i32t);
        let sh = l.op1("ShiftRightArithmetic", vec![w, off], i32t);
        let mask = l.const_int(i32t, (1i128 << bits) - 1);
        let v = l.op1("BitwiseAnd", vec![sh, mask], i32t);
        let s = l.const_int(i32t, 32 - bits as i128);
        let v = l.op1("ShiftLeftLogical", vec![v, s], i32t);
        let v = l.op1("ShiftRightArithmetic", vec![v, s], i32t);
        if repr.bool_as_int {
            let zero = l.const_int(i32t, 0);
            return Ok(l.op1("INotEqual", vec![v, zero], repr.value));
        }
        return Ok(if repr.value != i32t {
            l.op1("SConvert", vec![v], repr.value)
        } else {
            v
        });
    }
    let ep = chain(l, ptr, lin, repr.stored);
    let v = l.op1("Load", vec![ep], repr.stored);
    if repr.bool_as_int {
        let zero = l.const_int(repr.stored, 0);
        return Ok(l.op1("INotEqual", vec![v, zero], repr.value));
    }
    Ok(v)
}

/// Stores `value` to element `idx` of kernel memref `base`.
pub(crate) fn store(
    l: &mut Lowerer,
    base: KValue,
    idx: &[Value],
    value: Value,
) -> Result<(), LowerError> {
    let (repr, ptr) = base_of(l, base)?;
    let lin = linearize(l, &repr, idx)?;
    if let Some(bits) = repr.packed_bits {
        let (wp, off) = packed_word(l, &repr, ptr, lin, bits);
        let i32t = l.i32_ty();
        let v = if repr.bool_as_int {
            let one = l.const_int(i32t, 1);
            let zero = l.const_int(i32t, 0);
            l.op1("Select", vec![value, one, zero], i32t)
        } else if l.m.value_type(value) != i32t {
            l.op1("UConvert", vec![value], i32t)
        } else {
            value
        };
        let mask = l.const_int(i32t, (1i128 << bits) - 1);
        let mask_sh = l.op1("ShiftLeftLogical", vec![mask, off], i32t);
        let clear = l.op1("Not", vec![mask_sh], i32t);
        let low = l.op1("BitwiseAnd", vec![v, mask], i32t);
        let set = l.op1("ShiftLeftLogical", vec![low, off], i32t);
        let sc = storage_class_of(l, ptr);
        match sc {
            StorageClass::StorageBuffer | StorageClass::Workgroup => {
                let scope = if sc == StorageClass::Workgroup {
                    Scope::Workgroup
                } else {
                    Scope::Device
                };
                let sa = l.enum_attr(OperandKind::Scope, scope as u32);
                // AcquireRelease.
                let sem = l.enum_attr(OperandKind::MemorySemantics, 0x8);
                l.op1_attrs(
                    "AtomicAnd",
                    vec![wp, clear],
                    i32t,
                    vec![("memory_scope", sa), ("semantics", sem)],
                );
                l.op1_attrs(
                    "AtomicOr",
                    vec![wp, set],
                    i32t,
                    vec![("memory_scope", sa), ("semantics", sem)],
                );
            }
            _ => {
                let w = l.op1("Load", vec![wp], i32t);
                let w = l.op1("BitwiseAnd", vec![w, clear], i32t);
                let w = l.op1("BitwiseOr", vec![w, set], i32t);
                l.store(wp, w);
            }
        }
        return Ok(());
    }
    let ep = chain(l, ptr, lin, repr.stored);
    let v = if repr.bool_as_int {
        let one = l.const_int(repr.stored, 1);
        let zero = l.const_int(repr.stored, 0);
        l.op1("Select", vec![value, one, zero], repr.stored)
    } else {
        value
    };
    l.store(ep, v);
    Ok(())
}

fn alloc(l: &mut Lowerer, alloca: bool) -> Result<(), LowerError> {
    if !l.km.op(l.cur).operands.is_empty() {
        return Err(l.unsupported("dynamically sized allocations"));
    }
    let kty = l.res_ktype(0)?.clone();
    let KType::MemRef {
        shape,
        elem,
        layout,
        space,
    } = &kty
    else {
        return Err(l.malformed("result is not a memref"));
    };
    let function_space = alloca && *space == MemorySpace::Default;
    if function_space {
        let fty = KType::MemRef {
            shape: shape.clone(),
            elem: elem.clone(),
            layout: layout.clone(),
            space: MemorySpace::Int(6),
        };
        let repr = l.memref_repr(&fty)?;
        let (pointee, _) =
            l.m.types
                .pointer_parts(repr.ptr)
                .ok_or_else(|| l.malformed("memref is not a pointer"))?;
        let v = l.variable(pointee);
        return l.set_res(0, v);
    }
    let repr = l.memref_repr(&kty)?;
    match repr.storage_class {
        StorageClass::Workgroup | StorageClass::Private if repr.len.is_some() => {
            let v = super::func::attribution_var(l, &repr)?;
            l.set_res(0, v)
        }
        sc => {
            Err(l.unsupported(format!(
                "cannot allocate a memref in {} memory inside a kernel (use workgroup or private memory)",
                sc.name()
            )))
        }
    }
}

fn dim(l: &mut Lowerer) -> Result<(), LowerError> {
    let base = l.kopnd(0)?;
    let it = l.res_type(0)?;
    let kty = l.ktype(base);
    let KType::MemRef { shape, .. } = kty else {
        return Err(l.malformed("operand is not a ranked memref"));
    };
    let shape = shape.clone();
    let index_k = l.kopnd(1)?;
    let d = match l.km.defining_op(index_k).map(|o| (l.km.op(o).kind, o)) {
        Some((KOpKind::ArithConstant | KOpKind::IndexConstant, o)) => match l.km.attr(o, "value") {
            Some(crate::kernel::KAttr::Int { value, .. }) => *value as usize,
            _ => return Err(l.unsupported("memref.dim needs a constant dimension")),
        },
        _ => return Err(l.unsupported("memref.dim needs a constant dimension")),
    };
    match shape.get(d) {
        Some(Some(n)) => {
            let v = l.const_int(it, *n as i128);
            l.set_res(0, v)
        }
        Some(None) if shape.len() == 1 => {
            let (repr, ptr) = base_of(l, base)?;
            let i32t = l.i32_ty();
            let a = l.m.attrs.int(0, i32t);
            let n = l.op1_attrs("ArrayLength", vec![ptr], i32t, vec![("array_member", a)]);
            let n = match repr.packed_bits {
                Some(bits) => {
                    let c = l.c32((32 / bits) as i64);
                    l.op1("IMul", vec![n, c], i32t)
                }
                None => n,
            };
            let n = if it != i32t {
                l.op1("UConvert", vec![n], it)
            } else {
                n
            };
            l.set_res(0, n)
        }
        _ => Err(l.unsupported("memref.dim of a dynamic inner dimension")),
    }
}
