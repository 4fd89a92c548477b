//! `spv.Constant` (T9): the `value` attribute against the result type.

use super::attrs::describe;
use super::Verifier;
use crate::ir::attr::{AttrKind, DenseValues};
use crate::ir::entity::{Attr, Op, Type};
use crate::ir::types::TypeKind;

impl Verifier<'_> {
    /// T9.
    pub(crate) fn check_constant(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        if !data.operands.is_empty() {
            self.error(
                op,
                format!("expected no operands, found {}", data.operands.len()),
            );
        }
        if data.results.len() != 1 {
            self.error(
                op,
                format!("expected exactly one result, found {}", data.results.len()),
            );
            return;
        }
        let ty = m.value_type(data.results[0]);
        let Some(value) = self.require_attr(op, "value") else {
            return;
        };
        if let Err(msg) = self.value_matches(value, ty) {
            self.error(op, msg);
        }
    }

    /// Whether constant attribute `attr` is a value of type `ty`; the error
    /// says why not.
    fn value_matches(&self, attr: Attr, ty: Type) -> Result<(), String> {
        let m = self.m;
        let types = &m.types;
        let mismatch = |value_ty: Type| {
            Err(format!(
                "result type {} does not match the value's type {}",
                self.ty(ty),
                self.ty(value_ty)
            ))
        };
        match m.attrs.kind(attr) {
            AttrKind::Int { ty: vt, .. } | AttrKind::Float { ty: vt, .. } => {
                if *vt != ty {
                    return mismatch(*vt);
                }
                if !types.is_scalar(ty) {
                    return Err(format!(
                        "has a scalar value but result type {}; expected a scalar type",
                        self.ty(ty)
                    ));
                }
                Ok(())
            }
            AttrKind::Bool(_) => {
                if types.is_bool(ty) && types.is_scalar(ty) {
                    Ok(())
                } else {
                    Err(format!(
                        "has a boolean value but result type {}; expected i1",
                        self.ty(ty)
                    ))
                }
            }
            AttrKind::Dense {
                ty: vt,
                values,
                splat,
            } => {
                if *vt != ty {
                    return mismatch(*vt);
                }
                let (len, element) = match types.kind(ty) {
                    TypeKind::Vector { len, element } => (*len as usize, *element),
                    TypeKind::Array { len, element, .. } if types.is_scalar(*element) => {
                        (*len as usize, *element)
                    }
                    _ => {
                        return Err(format!(
                            "has a dense value of type {}; expected a vector or an array of scalars",
                            self.ty(ty)
                        ))
                    }
                };
                let kind_ok = match values {
                    DenseValues::Ints(_) => !types.is_float(element),
                    DenseValues::Floats(_) => types.is_float(element),
                };
                if !kind_ok {
                    return Err(format!(
                        "has dense elements of the wrong kind for element type {}",
                        self.ty(element)
                    ));
                }
                let n = values.len();
                if n != len && !(*splat && n == 1) {
                    return Err(format!(
                        "has {n} dense element(s), expected {len} for {}",
                        self.ty(ty)
                    ));
                }
                Ok(())
            }
            AttrKind::Array(items) => {
                let TypeKind::Array { len, element, .. } = types.kind(ty) else {
                    return Err(format!(
                        "has an array value but result type {}; expected a !spirv.array type",
                        self.ty(ty)
                    ));
                };
                if items.len() != *len as usize {
                    return Err(format!(
                        "has {} array element(s), expected {len} for {}",
                        items.len(),
                        self.ty(ty)
                    ));
                }
                for (i, &item) in items.iter().enumerate() {
                    self.value_matches(item, *element)
                        .map_err(|e| format!("array element #{i}: {e}"))?;
                }
                Ok(())
            }
            other => Err(format!(
                "attribute 'value' must be an integer, float, boolean, dense or array attribute, found {}",
                describe(other)
            )),
        }
    }
}
