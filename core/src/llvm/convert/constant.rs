//! Constants: `spirv.Constant` values, spec constant values and global
//! initializers.
//!
//! Scalars and vectors become one `llvm.mlir.constant`; arrays and structs
//! (which the seed leaves out) are built member by member with
//! `llvm.mlir.undef` and `llvm.insertvalue`, which both printers can write.
//! A value given for a spec constant's id is its raw bits in the
//! constant's type (booleans: 0 or 1), as `kiln run-spv --spec` parses it.

use super::super::builder::FnBuilder;
use super::super::error::ConvertError;
use super::super::ir::{ConstValue, GlobalInit, InstKind, LType, LValue};
use super::{Cx, SpecAttr};
use crate::ir::{Attr, AttrKind, DenseValues, Type, TypeKind};
use crate::text::float::to_f64_bits;

/// What a constant is, independent of where it is emitted.
enum Tree {
    Leaf(ConstValue),
    Members(Vec<Tree>),
}

fn bad(cx: &Cx<'_>, ty: Type, what: &str) -> ConvertError {
    ConvertError::UnsupportedType {
        ty: cx.tc.name(ty),
        reason: format!("{what} is not a constant of this type"),
    }
}

/// The tree of constant attribute `attr` of spv type `ty`.
fn tree(cx: &Cx<'_>, attr: Attr, ty: Type) -> Result<Tree, ConvertError> {
    let kind = cx.m.attrs.kind(attr);
    let types = &cx.m.types;
    match (kind, types.kind(ty)) {
        (AttrKind::Bool(b), _) => Ok(Tree::Leaf(ConstValue::Int(i128::from(*b)))),
        (AttrKind::Int { value, .. }, TypeKind::Int { .. }) => {
            Ok(Tree::Leaf(ConstValue::Int(*value)))
        }
        (AttrKind::Float { bits, .. }, TypeKind::Float(_)) => {
            Ok(Tree::Leaf(ConstValue::Float(*bits)))
        }
        (AttrKind::Int { value, .. }, TypeKind::Float(_)) => {
            Ok(Tree::Leaf(ConstValue::Float((*value as f64).to_bits())))
        }
        (
            AttrKind::Dense { values, splat, .. },
            TypeKind::Vector { len, .. } | TypeKind::Array { len, .. },
        ) => {
            let n = *len as usize;
            let lane = |i: usize| -> ConstValue {
                let i = if *splat { 0 } else { i };
                match values {
                    DenseValues::Ints(v) => ConstValue::Int(v.get(i).copied().unwrap_or(0)),
                    DenseValues::Floats(v) => ConstValue::Float(v.get(i).copied().unwrap_or(0)),
                }
            };
            if !*splat && values.len() != n {
                return Err(bad(cx, ty, "a dense value of another length"));
            }
            let lanes: Vec<ConstValue> = (0..n).map(lane).collect();
            if matches!(types.kind(ty), TypeKind::Vector { .. }) {
                Ok(Tree::Leaf(ConstValue::Lanes(lanes)))
            } else {
                Ok(Tree::Members(lanes.into_iter().map(Tree::Leaf).collect()))
            }
        }
        (AttrKind::Array(items), TypeKind::Vector { element, .. }) => {
            let mut lanes = Vec::new();
            for &a in items {
                match tree(cx, a, *element)? {
                    Tree::Leaf(v) => lanes.push(v),
                    Tree::Members(_) => return Err(bad(cx, ty, "a nested aggregate")),
                }
            }
            Ok(Tree::Leaf(ConstValue::Lanes(lanes)))
        }
        (AttrKind::Array(items), TypeKind::Array { element, len, .. }) => {
            if items.len() != *len as usize {
                return Err(bad(cx, ty, "an array of another length"));
            }
            let e = *element;
            let mut out = Vec::new();
            for &a in items {
                out.push(tree(cx, a, e)?);
            }
            Ok(Tree::Members(out))
        }
        (AttrKind::Array(items), TypeKind::Struct(s)) => {
            if items.len() != s.members.len() {
                return Err(bad(cx, ty, "a struct value of another length"));
            }
            let member_types: Vec<Type> = s.members.iter().map(|m| m.ty).collect();
            let mut out = Vec::new();
            for (&a, t) in items.iter().zip(member_types) {
                out.push(tree(cx, a, t)?);
            }
            Ok(Tree::Members(out))
        }
        _ => Err(bad(cx, ty, "this attribute")),
    }
}

/// The tree of a spec constant's value.
fn spec_tree(cx: &Cx<'_>, attr: &SpecAttr, ty: Type) -> Result<Tree, ConvertError> {
    match attr {
        SpecAttr::Scalar {
            given: Some(bits), ..
        } => Ok(Tree::Leaf(match cx.m.types.kind(ty) {
            TypeKind::Float(kind) => ConstValue::Float(to_f64_bits(*kind, *bits)),
            TypeKind::Int { width, .. } => ConstValue::Int(sign_extend(*bits, *width)),
            _ => return Err(bad(cx, ty, "a given spec value")),
        })),
        SpecAttr::Scalar { default, .. } => tree(cx, *default, ty),
        SpecAttr::Composite { parts, .. } => {
            let member_types: Vec<Type> = match cx.m.types.kind(ty) {
                TypeKind::Vector { len, element } | TypeKind::Array { len, element, .. } => {
                    vec![*element; *len as usize]
                }
                TypeKind::Struct(s) => s.members.iter().map(|m| m.ty).collect(),
                _ => return Err(bad(cx, ty, "a composite spec constant")),
            };
            if member_types.len() != parts.len() {
                return Err(bad(
                    cx,
                    ty,
                    "a composite with another number of constituents",
                ));
            }
            let mut out = Vec::new();
            for (p, t) in parts.iter().zip(member_types) {
                out.push(spec_tree(cx, p, t)?);
            }
            if matches!(cx.m.types.kind(ty), TypeKind::Vector { .. }) {
                let lanes = out
                    .into_iter()
                    .map(|t| match t {
                        Tree::Leaf(v) => Ok(v),
                        Tree::Members(_) => Err(bad(cx, ty, "a nested vector")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Tree::Leaf(ConstValue::Lanes(lanes)))
            } else {
                Ok(Tree::Members(out))
            }
        }
    }
}

/// `bits` of a `width`-bit integer, sign-extended.
fn sign_extend(bits: u64, width: u32) -> i128 {
    if width == 0 || width >= 64 {
        return i128::from(bits as i64);
    }
    let shift = 64 - width;
    i128::from(((bits << shift) as i64) >> shift)
}

/// Emits a tree as instructions.
fn emit(b: &mut FnBuilder, t: Tree, ty: &LType) -> LValue {
    match t {
        Tree::Leaf(v) => b.inst(InstKind::Constant(v), Vec::new(), ty.clone()),
        Tree::Members(members) => {
            let mut agg = b.undef(ty.clone());
            for (i, m) in members.into_iter().enumerate() {
                let mty = ty.member(i as u64).cloned().unwrap_or(LType::I32);
                let v = emit(b, m, &mty);
                agg = b.insert_value(agg, v, vec![i as u32]);
            }
            agg
        }
    }
}

fn to_init(t: Tree) -> GlobalInit {
    match t {
        Tree::Leaf(v) => GlobalInit::Value(v),
        Tree::Members(m) => GlobalInit::Aggregate(m.into_iter().map(to_init).collect()),
    }
}

/// Emits `spirv.Constant`'s value `attr` of type `ty`.
pub(crate) fn materialize(
    cx: &mut Cx<'_>,
    b: &mut FnBuilder,
    attr: Attr,
    ty: Type,
) -> Result<LValue, ConvertError> {
    let t = tree(cx, attr, ty)?;
    let lty = cx.tc.convert(ty)?;
    Ok(emit(b, t, &lty))
}

/// Emits a spec constant's value.
pub(crate) fn materialize_spec(
    cx: &mut Cx<'_>,
    b: &mut FnBuilder,
    attr: &SpecAttr,
    ty: Type,
) -> Result<LValue, ConvertError> {
    let t = spec_tree(cx, attr, ty)?;
    let lty = cx.tc.convert(ty)?;
    Ok(emit(b, t, &lty))
}

/// A global's initializer from a spec constant's value.
pub(crate) fn global_init(
    cx: &mut Cx<'_>,
    attr: SpecAttr,
    ty: Type,
) -> Result<GlobalInit, ConvertError> {
    Ok(to_init(spec_tree(cx, &attr, ty)?))
}
