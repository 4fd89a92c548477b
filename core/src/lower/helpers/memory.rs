//! Memory: element access to a memref (linearized indices, packed 8/16-bit
//! elements in 32-bit words) and module variables for workgroup and
//! private buffers.
//!
//! A storage buffer larger than the env's `maxStorageBufferRange` is a
//! kernel argument of type `!spv.ptr<!spv.array<N x block>>`: N
//! descriptors, chunk `k` bound at byte `k * C` of the buffer, where `C` is
//! [`storage_chunk_bytes`](crate::target::ResourceLimits::storage_chunk_bytes)
//! (the tensor compiler lists such bindings in `LowerOptions::split_bindings`;
//! the runtime binds the chunks).
//! An access to element `i` (of `2^e` bytes) of such a buffer splits `i`
//! into chunk `i >> s` and index `i & (2^s - 1)` in it (`s = log2(C) - e`)
//! and runs once per chunk, under `if (i >> s) == k`, through the constant
//! descriptor index `k`: a descriptor array indexed by a constant needs no
//! device feature, and a branch per lane stays right where the chunk
//! differs between the invocations of a subgroup (a dynamic,
//! non-uniform descriptor index would need `descriptorIndexing`, which
//! lavapipe lacks). A load goes through a function variable.

use crate::grammar::{Opcode, OperandKind, Scope, StorageClass};
use crate::ir::{Type, Value};
use crate::kernel::{KType, KValue};

use crate::lower::context::Lowerer;
use crate::lower::error::LowerError;
use crate::lower::types::MemRefRepr;

/// The representation of kernel memref value `base` and its spv pointer.
pub(crate) fn memref_base(
    l: &mut Lowerer,
    base: KValue,
) -> Result<(MemRefRepr, Value), LowerError> {
    let kty = l.kernel_type(base);
    let repr = l.memref_repr(kty)?;
    if repr.strides.len() != rank(kty) {
        return Err(l.malformed("memref rank mismatch"));
    }
    Ok((repr, l.lowered(base)?))
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
    let it = l.convert_type(&KType::Index)?;
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
            l.core_op(Opcode::IMul, vec![i, s], it)
        };
        lin = Some(match lin {
            Some(acc) => l.core_op(Opcode::IAdd, vec![acc, term], it),
            None => term,
        });
    }
    Ok(match lin {
        Some(v) if konst != 0 => {
            let o = l.const_int(it, konst as i128);
            l.core_op(Opcode::IAdd, vec![v, o], it)
        }
        Some(v) => v,
        None => l.const_int(it, konst as i128),
    })
}

/// The value of `v` when a `spv.Constant` integer defines it.
pub(crate) fn const_value(l: &Lowerer, v: Value) -> Option<i64> {
    let op = l.module.defining_op(v)?;
    if l.module.op(op).kind != crate::ir::OpKind::Constant {
        return None;
    }
    let a = l.module.attr(op, "value")?;
    match l.module.attrs.kind(a) {
        crate::ir::AttrKind::Int { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// The chunk count and `log2` of the elements per chunk when `base` points
/// to a split storage buffer (an array of blocks) of elements of type
/// `elem`.
fn split_of(l: &Lowerer, base: Value, elem: Type) -> Option<(u32, u32)> {
    let (pointee, sc) = l.module.types.pointer_parts(l.module.value_type(base))?;
    let crate::ir::TypeKind::Array { len, element, .. } = l.module.types.kind(pointee) else {
        return None;
    };
    if sc != StorageClass::StorageBuffer
        || !matches!(
            l.module.types.kind(*element),
            crate::ir::TypeKind::Struct(_)
        )
    {
        return None;
    }
    let chunk = l.type_converter.target().env().limits.storage_chunk_bytes();
    let bits = l.module.types.bit_width(elem).unwrap_or(32).max(8);
    let n = match l.module.types.component_count(elem) {
        3 => 4,
        n => n,
    };
    let elem_bytes = u64::from(bits / 8 * n).max(1);
    Some((*len, (chunk / elem_bytes).trailing_zeros()))
}

/// Runs `access` with the pointer to element `i` (of type `elem`) of
/// `base`: once, or for a split buffer once per chunk, each under its
/// `if` (see the module docs).
fn with_element(
    l: &mut Lowerer,
    base: Value,
    i: Value,
    elem: Type,
    access: &mut dyn FnMut(&mut Lowerer, Value) -> Result<(), LowerError>,
) -> Result<(), LowerError> {
    let Some((chunks, shift)) = split_of(l, base, elem) else {
        let p = chain(l, base, i, elem);
        return access(l, p);
    };
    let it = l.module.value_type(i);
    let s = l.const_int(it, i128::from(shift));
    let chunk = l.core_op(Opcode::ShiftRightLogical, vec![i, s], it);
    let mask = l.const_int(it, (1i128 << shift) - 1);
    let inner = l.core_op(Opcode::BitwiseAnd, vec![i, mask], it);
    let zero = l.const_i32(0);
    let pty = l.module.types.pointer(elem, StorageClass::StorageBuffer);
    let bool_ty = l.bool_type();
    for k in 0..chunks {
        let kv = l.const_int(it, i128::from(k));
        let here = l.core_op(Opcode::IEqual, vec![chunk, kv], bool_ty);
        let ki = l.const_i32(i64::from(k));
        l.emit_if(here, |l| {
            let p = l.core_op(Opcode::AccessChain, vec![base, ki, zero, inner], pty);
            access(l, p)
        })?;
    }
    Ok(())
}

/// Loads element `i` (of type `elem`) of `base`, split or not.
fn load_at(l: &mut Lowerer, base: Value, i: Value, elem: Type) -> Result<Value, LowerError> {
    if split_of(l, base, elem).is_none() {
        let p = chain(l, base, i, elem);
        return Ok(l.core_op(Opcode::Load, vec![p], elem));
    }
    let var = l.variable(elem);
    with_element(l, base, i, elem, &mut |l, p| {
        let v = l.core_op(Opcode::Load, vec![p], elem);
        l.store(var, v);
        Ok(())
    })?;
    Ok(l.load(var))
}

/// `spv.AccessChain %base[0, %i]` to an element of type `elem`.
fn chain(l: &mut Lowerer, base: Value, i: Value, elem: Type) -> Value {
    let sc = storage_class_of(l, base);
    let zero = l.const_i32(0);
    let pty = l.module.types.pointer(elem, sc);
    l.core_op(Opcode::AccessChain, vec![base, zero, i], pty)
}

fn storage_class_of(l: &Lowerer, ptr: Value) -> StorageClass {
    l.module
        .types
        .pointer_parts(l.module.value_type(ptr))
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
    let (word, off) = packed_parts(l, lin, bits);
    (chain(l, base, word, repr.stored), off)
}

/// The pointer to element `idx` of kernel memref `base` (an error for
/// packed 8/16-bit or boolean elements, which have no pointer of their own).
pub(crate) fn element_pointer(
    l: &mut Lowerer,
    base: KValue,
    idx: &[Value],
) -> Result<Value, LowerError> {
    let (repr, ptr) = memref_base(l, base)?;
    if repr.packed_bits.is_some() || repr.bool_as_int {
        return Err(
            l.unsupported("a matrix of packed or boolean elements (they have no element pointer)")
        );
    }
    if split_of(l, ptr, repr.stored).is_some() {
        return Err(l.unsupported(
            "an element pointer into a storage buffer split across descriptors \
             (larger than maxStorageBufferRange)",
        ));
    }
    let lin = linearize(l, &repr, idx)?;
    Ok(chain(l, ptr, lin, repr.stored))
}

/// The word index and bit offset of packed element `lin` (`bits` wide).
fn packed_parts(l: &mut Lowerer, lin: Value, bits: u32) -> (Value, Value) {
    let it = l.module.value_type(lin);
    let per_word = l.const_int(it, (32 / bits) as i128);
    let word = l.core_op(Opcode::SDiv, vec![lin, per_word], it);
    let lane = l.core_op(Opcode::UMod, vec![lin, per_word], it);
    let width = l.const_int(it, bits as i128);
    let mut off = l.core_op(Opcode::IMul, vec![lane, width], it);
    let i32t = l.i32_type();
    if it != i32t {
        off = l.core_op(Opcode::UConvert, vec![off], i32t);
    }
    (word, off)
}

/// Loads element `idx` of kernel memref `base`.
pub(crate) fn load_element(
    l: &mut Lowerer,
    base: KValue,
    idx: &[Value],
) -> Result<Value, LowerError> {
    let (repr, ptr) = memref_base(l, base)?;
    let lin = linearize(l, &repr, idx)?;
    let split = split_of(l, ptr, repr.stored).is_some();
    if let Some(bits) = repr.packed_bits {
        let i32t = l.i32_type();
        let (w, off) = if split {
            let (word, off) = packed_parts(l, lin, bits);
            (load_at(l, ptr, word, i32t)?, off)
        } else {
            let (wp, off) = packed_word(l, &repr, ptr, lin, bits);
            (l.core_op(Opcode::Load, vec![wp], i32t), off)
        };
        let sh = l.core_op(Opcode::ShiftRightArithmetic, vec![w, off], i32t);
        let mask = l.const_int(i32t, (1i128 << bits) - 1);
        let v = l.core_op(Opcode::BitwiseAnd, vec![sh, mask], i32t);
        let s = l.const_int(i32t, 32 - bits as i128);
        let v = l.core_op(Opcode::ShiftLeftLogical, vec![v, s], i32t);
        let v = l.core_op(Opcode::ShiftRightArithmetic, vec![v, s], i32t);
        if repr.bool_as_int {
            let zero = l.const_int(i32t, 0);
            return Ok(l.core_op(Opcode::INotEqual, vec![v, zero], repr.value));
        }
        return Ok(if repr.value != i32t {
            l.core_op(Opcode::SConvert, vec![v], repr.value)
        } else {
            v
        });
    }
    let v = if split {
        load_at(l, ptr, lin, repr.stored)?
    } else {
        let ep = chain(l, ptr, lin, repr.stored);
        l.core_op(Opcode::Load, vec![ep], repr.stored)
    };
    if repr.bool_as_int {
        let zero = l.const_int(repr.stored, 0);
        return Ok(l.core_op(Opcode::INotEqual, vec![v, zero], repr.value));
    }
    Ok(v)
}

/// Stores `value` to element `idx` of kernel memref `base`.
pub(crate) fn store_element(
    l: &mut Lowerer,
    base: KValue,
    idx: &[Value],
    value: Value,
) -> Result<(), LowerError> {
    let (repr, ptr) = memref_base(l, base)?;
    let lin = linearize(l, &repr, idx)?;
    if split_of(l, ptr, repr.stored).is_some() {
        return store_split(l, &repr, ptr, lin, value);
    }
    if let Some(bits) = repr.packed_bits {
        let (wp, off) = packed_word(l, &repr, ptr, lin, bits);
        let i32t = l.i32_type();
        let (clear, set) = packed_masks(l, &repr, value, off, bits);
        let sc = storage_class_of(l, ptr);
        match sc {
            StorageClass::StorageBuffer | StorageClass::Workgroup => {
                let scope = if sc == StorageClass::Workgroup {
                    Scope::Workgroup
                } else {
                    Scope::Device
                };
                merge_atomically(l, wp, (clear, set), scope);
            }
            _ => {
                let w = l.core_op(Opcode::Load, vec![wp], i32t);
                let w = l.core_op(Opcode::BitwiseAnd, vec![w, clear], i32t);
                let w = l.core_op(Opcode::BitwiseOr, vec![w, set], i32t);
                l.store(wp, w);
            }
        }
        return Ok(());
    }
    let ep = chain(l, ptr, lin, repr.stored);
    let v = stored_value(l, &repr, value);
    l.store(ep, v);
    Ok(())
}

/// `value` as memory of `repr` holds it: an `i1` as an integer 0 or 1.
fn stored_value(l: &mut Lowerer, repr: &MemRefRepr, value: Value) -> Value {
    if repr.bool_as_int {
        let one = l.const_int(repr.stored, 1);
        let zero = l.const_int(repr.stored, 0);
        l.core_op(Opcode::Select, vec![value, one, zero], repr.stored)
    } else {
        value
    }
}

/// The masks that store `value` as the `bits`-bit field at bit `off` of a
/// 32-bit word: `(clear, set)`, to be merged as `(w & clear) | set`.
fn packed_masks(
    l: &mut Lowerer,
    repr: &MemRefRepr,
    value: Value,
    off: Value,
    bits: u32,
) -> (Value, Value) {
    let i32t = l.i32_type();
    let v = if repr.bool_as_int {
        let one = l.const_int(i32t, 1);
        let zero = l.const_int(i32t, 0);
        l.core_op(Opcode::Select, vec![value, one, zero], i32t)
    } else if l.module.value_type(value) != i32t {
        l.core_op(Opcode::UConvert, vec![value], i32t)
    } else {
        value
    };
    let mask = l.const_int(i32t, (1i128 << bits) - 1);
    let mask_sh = l.core_op(Opcode::ShiftLeftLogical, vec![mask, off], i32t);
    let clear = l.core_op(Opcode::Not, vec![mask_sh], i32t);
    let low = l.core_op(Opcode::BitwiseAnd, vec![v, mask], i32t);
    let set = l.core_op(Opcode::ShiftLeftLogical, vec![low, off], i32t);
    (clear, set)
}

/// Merges `(w & clear) | set` into the word at `wp` with two atomics of
/// `scope` (other invocations may store other fields of the same word).
fn merge_atomically(l: &mut Lowerer, wp: Value, (clear, set): (Value, Value), scope: Scope) {
    let i32t = l.i32_type();
    let sa = l.enum_attr(OperandKind::Scope, scope as u32);
    // AcquireRelease.
    let sem = l.enum_attr(OperandKind::MemorySemantics, 0x8);
    l.core_op_with_attrs(
        Opcode::AtomicAnd,
        vec![wp, clear],
        i32t,
        vec![("memory_scope", sa), ("semantics", sem)],
    );
    l.core_op_with_attrs(
        Opcode::AtomicOr,
        vec![wp, set],
        i32t,
        vec![("memory_scope", sa), ("semantics", sem)],
    );
}

/// [`store_element`] into a split storage buffer (see the module docs).
fn store_split(
    l: &mut Lowerer,
    repr: &MemRefRepr,
    ptr: Value,
    lin: Value,
    value: Value,
) -> Result<(), LowerError> {
    let Some(bits) = repr.packed_bits else {
        let v = stored_value(l, repr, value);
        return with_element(l, ptr, lin, repr.stored, &mut |l, p| {
            l.store(p, v);
            Ok(())
        });
    };
    let (word, off) = packed_parts(l, lin, bits);
    let i32t = l.i32_type();
    let masks = packed_masks(l, repr, value, off, bits);
    with_element(l, ptr, word, i32t, &mut |l, wp| {
        merge_atomically(l, wp, masks, Scope::Device);
        Ok(())
    })
}

/// A module variable for a workgroup or private buffer, and its address at
/// the insertion point.
pub(crate) fn attribution_var(l: &mut Lowerer, repr: &MemRefRepr) -> Result<Value, LowerError> {
    let prefix = if repr.storage_class == StorageClass::Workgroup {
        "__workgroup_mem__"
    } else {
        "__private_mem__"
    };
    let name = format!("{prefix}{}", l.global_counter);
    l.global_counter += 1;
    l.global(&name, repr.ptr, None);
    Ok(l.address_of(&name, repr.ptr))
}
