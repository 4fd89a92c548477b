//! Pointer, composite and atomic ops: `Load`/`Store`/`CopyMemory` (T6),
//! access chains (T7), composite ops and vector shuffles (T8), `Variable`
//! (T10) and atomics (T11).

use super::type_rules::Class;
use super::Verifier;
use crate::grammar::{OperandKind, StorageClass};
use crate::ir::attr::{AttrKind, DenseValues};
use crate::ir::entity::{Op, Type, Value};
use crate::ir::op::OpKind;
use crate::ir::types::TypeKind;

/// One step into a composite type.
enum Step {
    /// The constituent type reached.
    Into(Type),
    /// The index is out of range for a composite of `len` constituents.
    OutOfRange(usize),
    /// The type cannot be indexed (with this kind of index).
    NotComposite,
}

impl<'m> Verifier<'m> {
    /// Operand `i` is a pointer; returns its pointee and storage class.
    fn expect_pointer(&mut self, op: Op, i: usize) -> Option<(Type, StorageClass)> {
        let t = self.operand_ty(op, i)?;
        match self.m.types.pointer_parts(t) {
            Some(parts) => Some(parts),
            None => self.fail(
                op,
                format!("operand #{i} has type {}, expected a pointer", self.ty(t)),
            ),
        }
    }

    /// The integer value of `v` when it is the result of an integer
    /// `spv.Constant`, with the constant's bit width.
    fn constant_int(&self, v: Value) -> Option<(i128, u32)> {
        let m = self.m;
        let def = m.defining_op(v)?;
        if m.op(def).kind != OpKind::Constant {
            return None;
        }
        let value = m.attr(def, "value").and_then(|a| match m.attrs.kind(a) {
            AttrKind::Int { value, .. } => Some(*value),
            _ => None,
        })?;
        let width = match m.types.kind(m.value_type(v)) {
            TypeKind::Int { width, .. } => *width,
            _ => return None,
        };
        Some((value, width))
    }

    /// One index step into `ty` with a known index; `dynamic` when the
    /// index is not a literal (runtime arrays are then indexable).
    fn step(&self, ty: Type, index: Option<i128>, dynamic: bool) -> Step {
        let in_range = |len: usize| match index {
            Some(i) if i < 0 || i >= len as i128 => Err(Step::OutOfRange(len)),
            _ => Ok(()),
        };
        let (len, into) = match self.m.types.kind(ty) {
            TypeKind::Struct(s) => {
                let len = s.members.len();
                return match index {
                    Some(i) if i >= 0 && (i as usize) < len => Step::Into(s.members[i as usize].ty),
                    _ => Step::OutOfRange(len),
                };
            }
            TypeKind::Array { len, element, .. } => (*len as usize, *element),
            TypeKind::Vector { len, element } => (*len as usize, *element),
            TypeKind::Matrix { columns, column } => (*columns as usize, *column),
            TypeKind::RuntimeArray { element, .. } if dynamic => return Step::Into(*element),
            // T15: an invocation's own elements of a cooperative matrix;
            // how many it holds is known at run time only
            // (`KHR.CooperativeMatrixLength`).
            TypeKind::CoopMatrix(c) => {
                return match index {
                    Some(i) if i < 0 || i > i128::from(u32::MAX) => Step::OutOfRange(0),
                    _ => Step::Into(c.element),
                }
            }
            _ => return Step::NotComposite,
        };
        match in_range(len) {
            Ok(()) => Step::Into(into),
            Err(e) => e,
        }
    }

    /// A list-of-integers attribute (`indices`, `components`); empty when
    /// absent, `None` when malformed (already reported by the schema check).
    fn int_list(&self, op: Op, name: &str) -> Option<Vec<i128>> {
        let m = self.m;
        let Some(a) = m.attr(op, name) else {
            return Some(Vec::new());
        };
        match m.attrs.kind(a) {
            AttrKind::Array(items) => items.iter().map(|&i| m.attrs.as_int(i)).collect(),
            AttrKind::DenseArray { values, .. } => Some(values.clone()),
            AttrKind::Dense {
                values: DenseValues::Ints(v),
                ..
            } => Some(v.clone()),
            _ => None,
        }
    }

    /// T6: a `storage_class` attribute agrees with the pointer's.
    fn storage_class_agrees(&mut self, op: Op, sc: StorageClass) -> Option<()> {
        let m = self.m;
        let Some(a) = m.attr(op, "storage_class") else {
            return Some(());
        };
        match m.attrs.as_enum(a, OperandKind::StorageClass) {
            Some(v) if v == sc as u32 => Some(()),
            Some(v) => {
                let name = crate::grammar::format_bits(OperandKind::StorageClass, v);
                self.fail(
                    op,
                    format!("attribute 'storage_class' is {name}, but the pointer's storage class is {sc}"),
                )
            }
            None => self.fail(
                op,
                "attribute 'storage_class' must be an enum attribute of kind StorageClass"
                    .to_string(),
            ),
        }
    }

    /// T6: `Load`.
    pub(crate) fn check_load(&mut self, op: Op) -> Option<()> {
        let (pointee, sc) = self.expect_pointer(op, 0)?;
        self.storage_class_agrees(op, sc)?;
        self.expect_result(op, pointee, "the pointee type of operand #0")
    }

    /// T6: `Store`.
    pub(crate) fn check_store(&mut self, op: Op) -> Option<()> {
        let (pointee, sc) = self.expect_pointer(op, 0)?;
        self.storage_class_agrees(op, sc)?;
        self.expect_operand(op, 1, pointee, "the pointee type of operand #0")
    }

    /// T6: `CopyMemory`.
    pub(crate) fn check_copy_memory(&mut self, op: Op) -> Option<()> {
        let (target, _) = self.expect_pointer(op, 0)?;
        let (source, _) = self.expect_pointer(op, 1)?;
        if target != source {
            return self.fail(
                op,
                format!(
                    "copies from a pointer to {} into a pointer to {}; expected the same pointee type",
                    self.ty(source),
                    self.ty(target)
                ),
            );
        }
        Some(())
    }

    /// T7: access chains; `element` for the `Ptr` variants.
    pub(crate) fn check_access_chain(&mut self, op: Op, element: bool) -> Option<()> {
        let m = self.m;
        let (pointee, sc) = self.expect_pointer(op, 0)?;
        let operands = &m.op(op).operands;
        let first = if element {
            self.expect_int_scalar(op, 1, "element")?;
            2
        } else {
            1
        };
        let mut cur = pointee;
        for (k, &idx) in operands.iter().enumerate().skip(first) {
            let n = k - first;
            let it = m.value_type(idx);
            if !m.types.is_integer(it) {
                return self.fail(
                    op,
                    format!(
                        "index #{n} has type {}, expected an integer scalar",
                        self.ty(it)
                    ),
                );
            }
            let is_struct = matches!(m.types.kind(cur), TypeKind::Struct(_));
            let constant = self.constant_int(idx);
            // Any integer width, as MLIR 19 and spirv-val take it (an i64
            // index into a struct of physical storage buffer pointers).
            if is_struct && constant.is_none() {
                return self.fail(
                    op,
                    format!(
                        "index #{n} indexes into {} and must be an integer spirv.Constant",
                        self.ty(cur)
                    ),
                );
            }
            // Only struct indices are required to be in range statically.
            let known = if is_struct {
                constant.map(|c| c.0)
            } else {
                None
            };
            match self.step(cur, known, true) {
                Step::Into(t) => cur = t,
                Step::OutOfRange(len) => {
                    return self.fail(
                        op,
                        format!(
                            "index #{n} is {}, out of range for {} with {len} member(s)",
                            known.unwrap_or(-1),
                            self.ty(cur)
                        ),
                    );
                }
                Step::NotComposite => {
                    return self.fail(
                        op,
                        format!(
                            "has {} index(es), but index #{n} indexes into {}, which is not a composite",
                            operands.len() - first,
                            self.ty(cur)
                        ),
                    );
                }
            }
        }
        let r = self.result_ty(op)?;
        if m.types.pointer_parts(r) != Some((cur, sc)) {
            let want = m.types.lookup(&TypeKind::Pointer {
                pointee: cur,
                storage_class: sc,
            });
            let want = match want {
                Some(w) => self.ty(w).to_string(),
                None => format!("!spirv.ptr<{}, {sc}>", self.ty(cur)),
            };
            return self.fail(
                op,
                format!(
                    "result has type {}, expected {want} (a pointer to the type the indices reach, in the base's storage class)",
                    self.ty(r)
                ),
            );
        }
        Some(())
    }

    /// Walks literal `indices` from `ty`; reports and returns `None` on a
    /// bad index.
    fn walk_literal(&mut self, op: Op, ty: Type, indices: &[i128]) -> Option<Type> {
        let mut cur = ty;
        for (n, &i) in indices.iter().enumerate() {
            match self.step(cur, Some(i), false) {
                Step::Into(t) => cur = t,
                Step::OutOfRange(len) => {
                    return self.fail(
                        op,
                        format!(
                            "index #{n} is {i}, out of range for {} with {len} constituent(s)",
                            self.ty(cur)
                        ),
                    );
                }
                Step::NotComposite => {
                    return self.fail(
                        op,
                        format!(
                            "index #{n} cannot index into {}; expected a struct, array, vector or matrix",
                            self.ty(cur)
                        ),
                    );
                }
            }
        }
        Some(cur)
    }

    /// T8: `CompositeExtract`.
    pub(crate) fn check_composite_extract(&mut self, op: Op) -> Option<()> {
        let t = self.operand_ty(op, 0)?;
        let indices = self.int_list(op, "indices")?;
        if indices.is_empty() {
            return self.fail(op, "expected at least one index in 'indices'".to_string());
        }
        let reached = self.walk_literal(op, t, &indices)?;
        self.expect_result(op, reached, "the type the indices reach")
    }

    /// T8: `CompositeInsert`.
    pub(crate) fn check_composite_insert(&mut self, op: Op) -> Option<()> {
        let t = self.operand_ty(op, 1)?;
        let indices = self.int_list(op, "indices")?;
        if indices.is_empty() {
            return self.fail(op, "expected at least one index in 'indices'".to_string());
        }
        let reached = self.walk_literal(op, t, &indices)?;
        self.expect_operand(op, 0, reached, "the type the indices reach in operand #1")?;
        self.expect_result(op, t, "the composite's type")
    }

    /// T8: `CompositeConstruct`.
    pub(crate) fn check_composite_construct(&mut self, op: Op) -> Option<()> {
        let m = self.m;
        let r = self.result_ty(op)?;
        let operands = &m.op(op).operands;
        // T15: a cooperative matrix is constructed from one scalar of its
        // element type, which every element takes.
        if let TypeKind::CoopMatrix(c) = m.types.kind(r) {
            let ok = operands.len() == 1 && m.value_type(operands[0]) == c.element;
            if !ok {
                return self.fail(
                    op,
                    format!(
                        "constructs {} from {} operand(s); expected one {}",
                        self.ty(r),
                        operands.len(),
                        self.ty(c.element)
                    ),
                );
            }
            return Some(());
        }
        if let TypeKind::Vector { len, element } = m.types.kind(r) {
            let mut total = 0u32;
            for (i, &v) in operands.iter().enumerate() {
                let t = m.value_type(v);
                if m.types.scalar_of(t) != *element || !self.in_class(t, Class::Any) {
                    return self.fail(
                        op,
                        format!(
                            "operand #{i} has type {}, expected {} or a vector of it",
                            self.ty(t),
                            self.ty(*element)
                        ),
                    );
                }
                total += m.types.component_count(t);
            }
            if total != *len {
                return self.fail(
                    op,
                    format!(
                        "constituents have {total} component(s) in all, expected {len} to fill {}",
                        self.ty(r)
                    ),
                );
            }
            return Some(());
        }
        let Some(len) = self.composite_len(r) else {
            return self.fail(
                op,
                format!("result has type {}, expected a composite type", self.ty(r)),
            );
        };
        if len != operands.len() {
            return self.fail(
                op,
                format!(
                    "has {} constituent(s), expected {len} to fill {}",
                    operands.len(),
                    self.ty(r)
                ),
            );
        }
        let parts = self.composite_parts(r).unwrap_or_default();
        for (i, &want) in parts.iter().enumerate() {
            self.expect_operand(op, i, want, "the result's constituent type")?;
        }
        Some(())
    }

    /// T8: `VectorShuffle`.
    pub(crate) fn check_vector_shuffle(&mut self, op: Op) -> Option<()> {
        let a = self.expect_vector(op, 0)?;
        let b = self.expect_vector(op, 1)?;
        let types = &self.m.types;
        let elem = types.scalar_of(a);
        if types.scalar_of(b) != elem {
            return self.fail(
                op,
                format!(
                    "operand #1 has type {}, expected a vector of {} like operand #0",
                    self.ty(b),
                    self.ty(elem)
                ),
            );
        }
        let avail = i128::from(types.component_count(a)) + i128::from(types.component_count(b));
        let components = self.int_list(op, "components")?;
        let r = self.result_ty(op)?;
        let types = &self.m.types;
        let ok = matches!(types.kind(r), TypeKind::Vector { len, element }
            if *element == elem && *len as usize == components.len());
        if !ok {
            return self.fail(
                op,
                format!(
                    "result has type {}, expected a vector of {} with {} component(s), one per 'components' entry",
                    self.ty(r),
                    self.ty(elem),
                    components.len()
                ),
            );
        }
        for (n, &c) in components.iter().enumerate() {
            let undef = c == 0xFFFF_FFFF || c == -1;
            if !undef && !(0..avail).contains(&c) {
                return self.fail(
                    op,
                    format!(
                        "component #{n} selects {c}, but the operands have {avail} components in all"
                    ),
                );
            }
        }
        Some(())
    }

    /// T10: `Variable`.
    pub(crate) fn check_variable(&mut self, op: Op) -> Option<()> {
        let m = self.m;
        for attr in ["descriptor_set", "binding", "built_in"] {
            if m.attr(op, attr).is_some() {
                self.error(
                    op,
                    format!(
                        "cannot have '{attr}' attribute (only allowed in spirv.GlobalVariable)"
                    ),
                );
            }
        }
        let r = self.result_ty(op)?;
        let Some((pointee, sc)) = m.types.pointer_parts(r) else {
            return self.fail(
                op,
                format!("result has type {}, expected a pointer", self.ty(r)),
            );
        };
        if sc != StorageClass::Function {
            return self.fail(
                op,
                format!(
                    "has storage class {sc}; it can only model function-level variables (Function storage class); use spirv.GlobalVariable for module-level variables"
                ),
            );
        }
        if let Some(a) = m.attr(op, "storage_class") {
            if m.attrs.as_enum(a, OperandKind::StorageClass) != Some(sc as u32) {
                return self.fail(
                    op,
                    "attribute 'storage_class' must match the result pointer's storage class (Function)"
                        .to_string(),
                );
            }
        }
        if let Some(&init) = m.op(op).operands.first() {
            let def = m.defining_op(init).map(|d| &m.op(d).kind);
            if !matches!(
                def,
                Some(OpKind::Constant | OpKind::AddressOf | OpKind::ReferenceOf)
            ) {
                return self.fail(
                    op,
                    "initializer must be the result of a spirv.Constant, spirv.mlir.addressof or spirv.mlir.referenceof op".to_string(),
                );
            }
            self.expect_operand(op, 0, pointee, "the pointee type of the result")?;
        }
        Some(())
    }

    /// T11: read-modify-write atomics.
    pub(crate) fn check_atomic(&mut self, op: Op, class: Class, values: usize) -> Option<()> {
        let (pointee, _) = self.expect_pointer(op, 0)?;
        if !self.in_class(pointee, class) || !self.m.types.is_scalar(pointee) {
            return self.fail(
                op,
                format!(
                    "operand #0 points to {}, expected a pointer to {}",
                    self.ty(pointee),
                    class.describe().replace(" or vector", "")
                ),
            );
        }
        for i in 1..=values {
            self.expect_operand(op, i, pointee, "the pointee type of operand #0")?;
        }
        self.expect_result(op, pointee, "the pointee type of operand #0")
    }

    /// T11: `AtomicStore`.
    pub(crate) fn check_atomic_store(&mut self, op: Op) -> Option<()> {
        let (pointee, _) = self.expect_pointer(op, 0)?;
        self.expect_operand(op, 1, pointee, "the pointee type of operand #0")
    }
}
