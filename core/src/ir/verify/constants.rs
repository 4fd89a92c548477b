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
        if let Err(e) = self.value_matches(value, ty) {
            self.error(op, e.to_string());
        }
    }

    /// Whether constant attribute `attr` is a value of type `ty`; the error
    /// says why not.
    fn value_matches(&self, attr: Attr, ty: Type) -> Result<(), ValueMismatch> {
        let m = self.m;
        let types = &m.types;
        let name = |t: Type| self.ty(t).to_string();
        let mismatch = |value_ty: Type| {
            Err(ValueMismatch::Type {
                result: name(ty),
                value: name(value_ty),
            })
        };
        match m.attrs.kind(attr) {
            AttrKind::Int { ty: vt, .. } | AttrKind::Float { ty: vt, .. } => {
                if *vt != ty {
                    return mismatch(*vt);
                }
                if !types.is_scalar(ty) {
                    return Err(ValueMismatch::ScalarForNonScalar(name(ty)));
                }
                Ok(())
            }
            AttrKind::Bool(_) => {
                if types.is_bool(ty) && types.is_scalar(ty) {
                    Ok(())
                } else {
                    Err(ValueMismatch::BoolForNonBool(name(ty)))
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
                    _ => return Err(ValueMismatch::DenseForNonVector(name(ty))),
                };
                let kind_ok = match values {
                    DenseValues::Ints(_) => !types.is_float(element),
                    DenseValues::Floats(_) => types.is_float(element),
                };
                if !kind_ok {
                    return Err(ValueMismatch::DenseKind(name(element)));
                }
                let n = values.len();
                if n != len && !(*splat && n == 1) {
                    return Err(ValueMismatch::DenseCount {
                        found: n,
                        expected: len,
                        ty: name(ty),
                    });
                }
                Ok(())
            }
            AttrKind::Array(items) => {
                let TypeKind::Array { len, element, .. } = types.kind(ty) else {
                    return Err(ValueMismatch::ArrayForNonArray(name(ty)));
                };
                if items.len() != *len as usize {
                    return Err(ValueMismatch::ArrayCount {
                        found: items.len(),
                        expected: *len,
                        ty: name(ty),
                    });
                }
                for (i, &item) in items.iter().enumerate() {
                    self.value_matches(item, *element)
                        .map_err(|e| ValueMismatch::Element {
                            index: i,
                            error: Box::new(e),
                        })?;
                }
                Ok(())
            }
            other => Err(ValueMismatch::NotAValue(describe(other))),
        }
    }
}

/// Why a constant's `value` attribute is not a value of its result type
/// (the verifier's message; types are in MLIR syntax).
#[derive(Debug, thiserror::Error)]
enum ValueMismatch {
    /// The value's own type is another type.
    #[error("result type {result} does not match the value's type {value}")]
    Type {
        /// The result type.
        result: String,
        /// The value's type.
        value: String,
    },
    /// A scalar value for a non-scalar result type.
    #[error("has a scalar value but result type {0}; expected a scalar type")]
    ScalarForNonScalar(String),
    /// A boolean value for a result type other than `i1`.
    #[error("has a boolean value but result type {0}; expected i1")]
    BoolForNonBool(String),
    /// A dense value for a result type that is neither a vector nor an
    /// array of scalars.
    #[error("has a dense value of type {0}; expected a vector or an array of scalars")]
    DenseForNonVector(String),
    /// Integer elements for a float element type, or the reverse.
    #[error("has dense elements of the wrong kind for element type {0}")]
    DenseKind(String),
    /// A dense value with the wrong number of elements.
    #[error("has {found} dense element(s), expected {expected} for {ty}")]
    DenseCount {
        /// Elements given.
        found: usize,
        /// Elements of the type.
        expected: usize,
        /// The result type.
        ty: String,
    },
    /// An array value for a result type that is not an array.
    #[error("has an array value but result type {0}; expected a !spirv.array type")]
    ArrayForNonArray(String),
    /// An array value with the wrong number of elements.
    #[error("has {found} array element(s), expected {expected} for {ty}")]
    ArrayCount {
        /// Elements given.
        found: usize,
        /// Elements of the type.
        expected: u32,
        /// The result type.
        ty: String,
    },
    /// An element of an array value that is not a value of the element type.
    #[error("array element #{index}: {error}")]
    Element {
        /// The element's index.
        index: usize,
        /// Why it does not match.
        error: Box<ValueMismatch>,
    },
    /// An attribute of a kind no constant has.
    #[error(
        "attribute 'value' must be an integer, float, boolean, dense or array attribute, found {0}"
    )]
    NotAValue(String),
}
