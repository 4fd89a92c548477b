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

use crate::grammar::{Opcode, StorageClass};
use crate::kernel::{KOpKind, KType, MemorySpace};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::memory::{attribution_var, load_element, memref_base, store_element};
use super::helpers::texel;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::MemRefLoad => {
            let base = l.kernel_operand(0)?;
            let idx = (1..l.kernels.op(l.current_op).operands.len())
                .map(|i| l.operand(i))
                .collect::<Result<Vec<_>, _>>()?;
            if texel::is_texel_memref(l.kernel_type(base)) {
                let [index] = idx[..] else {
                    return Err(l.malformed("a texel buffer takes one index"));
                };
                let v = texel::fetch(l, base, index)?;
                return l.set_result(0, v);
            }
            let v = load_element(l, base, &idx)?;
            l.set_result(0, v)
        }
        KOpKind::MemRefStore => {
            let value = l.operand(0)?;
            let base = l.kernel_operand(1)?;
            if texel::is_texel_memref(l.kernel_type(base)) {
                return Err(l.unsupported("a store to a uniform texel buffer (read-only)"));
            }
            let idx = (2..l.kernels.op(l.current_op).operands.len())
                .map(|i| l.operand(i))
                .collect::<Result<Vec<_>, _>>()?;
            store_element(l, base, &idx, value)
        }
        KOpKind::MemRefAlloc | KOpKind::MemRefAlloca => alloc(l, kind == KOpKind::MemRefAlloca),
        KOpKind::MemRefDealloc => Ok(()),
        KOpKind::MemRefCast | KOpKind::MemRefSubView => {
            let src = l.operand(0)?;
            let rty = l.result_kernel_type(0)?;
            // Check the result layout is representable.
            l.memref_repr(rty)?;
            l.set_result(0, src)
        }
        KOpKind::MemRefDim => dim(l),
        _ => Err(l.unsupported("no lowering for this memref op")),
    }
}

fn alloc(l: &mut Lowerer, alloca: bool) -> Result<(), LowerError> {
    if !l.kernels.op(l.current_op).operands.is_empty() {
        return Err(l.unsupported("dynamically sized allocations"));
    }
    let kty = l.result_kernel_type(0)?.clone();
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
        let (pointee, _) = l
            .module
            .types
            .pointer_parts(repr.ptr)
            .ok_or_else(|| l.malformed("memref is not a pointer"))?;
        let v = l.variable(pointee);
        return l.set_result(0, v);
    }
    let repr = l.memref_repr(&kty)?;
    match repr.storage_class {
        StorageClass::Workgroup | StorageClass::Private if repr.len.is_some() => {
            let v = attribution_var(l, &repr)?;
            l.set_result(0, v)
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
    let base = l.kernel_operand(0)?;
    let it = l.result_type(0)?;
    let kty = l.kernel_type(base);
    let KType::MemRef { shape, .. } = kty else {
        return Err(l.malformed("operand is not a ranked memref"));
    };
    let shape = shape.clone();
    let index_k = l.kernel_operand(1)?;
    let d = match l
        .kernels
        .defining_op(index_k)
        .map(|o| (l.kernels.op(o).kind, o))
    {
        Some((KOpKind::ArithConstant | KOpKind::IndexConstant, o)) => {
            match l.kernels.attr(o, "value") {
                Some(crate::kernel::KAttr::Int { value, .. }) => *value as usize,
                _ => return Err(l.unsupported("memref.dim needs a constant dimension")),
            }
        }
        _ => return Err(l.unsupported("memref.dim needs a constant dimension")),
    };
    match shape.get(d) {
        Some(Some(n)) => {
            let v = l.const_int(it, *n as i128);
            l.set_result(0, v)
        }
        Some(None) if shape.len() == 1 => {
            let (repr, ptr) = memref_base(l, base)?;
            let i32t = l.i32_type();
            let a = l.module.attrs.int(0, i32t);
            let n = l.core_op_with_attrs(
                Opcode::ArrayLength,
                vec![ptr],
                i32t,
                vec![("array_member", a)],
            );
            let n = match repr.packed_bits {
                Some(bits) => {
                    let c = l.const_i32((32 / bits) as i64);
                    l.core_op(Opcode::IMul, vec![n, c], i32t)
                }
                None => n,
            };
            let n = if it != i32t {
                l.core_op(Opcode::UConvert, vec![n], it)
            } else {
                n
            };
            l.set_result(0, n)
        }
        _ => Err(l.unsupported("memref.dim of a dynamic inner dimension")),
    }
}
