//! Constants: `OpConstant*` become attributes materialized as
//! `spv.Constant` where they are used; `OpSpecConstant*` become
//! `spv.SpecConstant` / `spv.SpecConstantComposite` ops.
//!
//! Values follow the serializer's conventions, so a constant reads back to
//! the attribute it was written from: integers as `iN`/`siN` attributes
//! whose value is the literal sign-extended from the type's width (`255 :
//! ui8` is kept as -1), floats as the `f64` of their value (exact for
//! `f16`, `bf16` and `f32`), bools as `true` / `false`, vectors as
//! `dense<[...]>`, arrays, structs and matrices as arrays of their
//! elements' attributes. `OpConstantNull` is the zero of its type
//! (scalars, vectors, arrays, structs, matrices). A
//! `spv.SpecConstantComposite` names specialization constants only: a
//! normal constant among its constituents becomes a specialization
//! constant without `SpecId` (which always has its default value).
//!
//! `OpSpecConstantOp` has no counterpart in the IR and is an error, as are
//! `OpConstantSampler` and null pointers.

use super::error::DeserializeError;
use super::reader::{Inst, Val};
use super::{invalid, Def, Deserializer, Result};
use crate::grammar::{BuiltIn, Decoration, Opcode};
use crate::ir::{Attr, AttrKind, DenseValues, FloatKind, OpKind, OpSpec, Type, TypeKind};

impl Deserializer {
    /// One `OpConstant*` / `OpSpecConstant*` instruction.
    pub(super) fn process_constant(&mut self, inst: &Inst) -> Result<()> {
        let ty = self.result_type(inst)?;
        let id = inst.result.unwrap_or(0);
        match inst.desc.op {
            Opcode::ConstantTrue | Opcode::ConstantFalse => {
                self.expect_bool(inst, ty)?;
                let value = self
                    .m
                    .attrs
                    .intern(AttrKind::Bool(inst.desc.op == Opcode::ConstantTrue));
                self.normal_constant(inst, ty, value)
            }
            Opcode::Constant => {
                let value = self.scalar_attr(inst, ty, inst.operands.first().map(|o| &o.val))?;
                self.normal_constant(inst, ty, value)
            }
            Opcode::ConstantComposite => {
                let value = self.composite_attr(inst, ty)?;
                let parts = inst.ids_from(0).collect();
                self.composite_parts.insert(id, parts);
                self.normal_constant(inst, ty, value)
            }
            Opcode::ConstantNull => {
                let value = self.null_attr(inst, ty)?;
                self.normal_constant(inst, ty, value)
            }
            Opcode::SpecConstantTrue | Opcode::SpecConstantFalse => {
                self.expect_bool(inst, ty)?;
                let value = self
                    .m
                    .attrs
                    .intern(AttrKind::Bool(inst.desc.op == Opcode::SpecConstantTrue));
                self.spec_constant(inst, id, ty, value)
            }
            Opcode::SpecConstant => {
                let value = self.scalar_attr(inst, ty, inst.operands.first().map(|o| &o.val))?;
                self.spec_constant(inst, id, ty, value)
            }
            Opcode::SpecConstantComposite => self.spec_constant_composite(inst, id, ty),
            Opcode::SpecConstantOp => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: "OpSpecConstantOp: the IR has no specialization constant operations".into(),
            }),
            _ => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("{} has no IR counterpart", inst.at.opname()),
            }),
        }
    }

    fn expect_bool(&self, inst: &Inst, ty: Type) -> Result<()> {
        if self.m.types.is_bool(ty) {
            Ok(())
        } else {
            Err(invalid(inst, "a boolean constant's type is not OpTypeBool"))
        }
    }

    /// A normal constant: its attribute, for materialization at each use.
    /// Its decorations: `BuiltIn WorkgroupSize` sets the workgroup size;
    /// anything else is an error.
    fn normal_constant(&mut self, inst: &Inst, ty: Type, value: Attr) -> Result<()> {
        let id = inst.result.unwrap_or(0);
        for d in self.decorations.take(id) {
            let builtin = d.params.first().and_then(|p| match p.val {
                Val::Word(w) => BuiltIn::from_u32(w),
                _ => None,
            });
            if d.decoration == Decoration::BuiltIn && builtin == Some(BuiltIn::WorkgroupSize) {
                let sizes = self
                    .int_elements(value)
                    .filter(|s| s.len() == 3)
                    .ok_or_else(|| {
                        invalid(
                            inst,
                            "the WorkgroupSize constant is not a vector of 3 integers",
                        )
                    })?;
                self.workgroup_size_constant = Some((d.at, sizes));
                continue;
            }
            return Err(DeserializeError::Unsupported {
                at: d.at,
                what: format!(
                    "decoration {} on a normal constant (the IR's constants carry no decorations)",
                    d.decoration
                ),
            });
        }
        self.define(inst, Def::Constant { ty, value })
    }

    /// The integer elements of a dense vector attribute (a splat
    /// expanded to the vector's length).
    fn int_elements(&self, value: Attr) -> Option<Vec<u32>> {
        match self.m.attrs.kind(value) {
            AttrKind::Dense {
                ty,
                values: DenseValues::Ints(v),
                splat,
            } => {
                let words: Vec<u32> = v.iter().map(|&x| x as u32).collect();
                match (splat, self.m.types.kind(*ty), words.first()) {
                    (true, TypeKind::Vector { len, .. }, Some(&w)) => Some(vec![w; *len as usize]),
                    _ => Some(words),
                }
            }
            _ => None,
        }
    }

    /// The attribute of a scalar literal of type `ty`.
    pub(super) fn scalar_attr(&mut self, inst: &Inst, ty: Type, val: Option<&Val>) -> Result<Attr> {
        let bits: u64 = match val {
            Some(Val::Word(w)) => u64::from(*w),
            Some(Val::Wide(w)) => *w,
            _ => return Err(invalid(inst, "missing literal value")),
        };
        match self.m.types.kind(ty).clone() {
            TypeKind::Int { width, .. } => Ok(self.m.attrs.int(sign_extend(bits, width), ty)),
            TypeKind::Float(kind) => {
                let x = match kind {
                    FloatKind::F16 => half_to_f64(bits as u16),
                    FloatKind::BF16 => f64::from(f32::from_bits((bits as u32 & 0xffff) << 16)),
                    FloatKind::F32 => f64::from(f32::from_bits(bits as u32)),
                    FloatKind::F64 => f64::from_bits(bits),
                };
                Ok(self.m.attrs.float(x, ty))
            }
            _ => Err(invalid(
                inst,
                "the constant's type is not a scalar integer or float",
            )),
        }
    }

    /// The attribute of an `OpConstantComposite`.
    fn composite_attr(&mut self, inst: &Inst, ty: Type) -> Result<Attr> {
        let mut elements = Vec::with_capacity(inst.operands.len());
        for (i, o) in inst.operands.iter().enumerate() {
            let Val::Id(id) = o.val else {
                return Err(invalid(inst, format!("constituent {i} is not an id")));
            };
            match self.defs.get(&id) {
                Some(Def::Constant { ty, value }) => elements.push((*ty, *value)),
                Some(Def::Spec { .. }) => {
                    return Err(invalid(
                        inst,
                        format!("constituent %{id} is a specialization constant (use OpSpecConstantComposite)"),
                    ))
                }
                _ => {
                    return Err(DeserializeError::WrongId {
                        at: inst.at,
                        id,
                        expected: "a constant defined before this instruction",
                    })
                }
            }
        }
        let Some(count) = self.constituent_count(ty) else {
            return Err(invalid(inst, "the constant's type is not a composite"));
        };
        let fills = count == elements.len()
            && self
                .constituent_types(ty)
                .is_some_and(|expected| expected.iter().zip(&elements).all(|(t, (et, _))| t == et));
        if !fills {
            return Err(invalid(
                inst,
                format!(
                    "{} constituent(s) do not fill the composite type (it has {count})",
                    elements.len(),
                ),
            ));
        }
        let attrs: Vec<Attr> = elements.into_iter().map(|(_, a)| a).collect();
        Ok(self.composite_from(ty, attrs))
    }

    /// How many constituents a composite of type `ty` has (checked before
    /// [`Self::constituent_types`] lists them: an array type may declare
    /// 2^31 - 1 elements).
    fn constituent_count(&self, ty: Type) -> Option<usize> {
        match self.m.types.kind(ty) {
            TypeKind::Vector { len, .. } | TypeKind::Array { len, .. } => Some(*len as usize),
            TypeKind::Matrix { columns, .. } => Some(*columns as usize),
            TypeKind::Struct(s) => Some(s.members.len()),
            _ => None,
        }
    }

    /// The types a composite of type `ty` is built from, in order.
    fn constituent_types(&self, ty: Type) -> Option<Vec<Type>> {
        match self.m.types.kind(ty) {
            TypeKind::Vector { len, element } => Some(vec![*element; *len as usize]),
            TypeKind::Array { len, element, .. } => Some(vec![*element; *len as usize]),
            TypeKind::Matrix { columns, column } => Some(vec![*column; *columns as usize]),
            TypeKind::Struct(s) => Some(s.members.iter().map(|m| m.ty).collect()),
            _ => None,
        }
    }

    /// A composite attribute of type `ty` from its elements' attributes:
    /// `dense` for vectors, an array otherwise.
    fn composite_from(&mut self, ty: Type, elements: Vec<Attr>) -> Attr {
        if matches!(self.m.types.kind(ty), TypeKind::Vector { .. }) {
            let mut ints = Vec::new();
            let mut floats = Vec::new();
            for &a in &elements {
                match self.m.attrs.kind(a) {
                    AttrKind::Int { value, .. } => ints.push(*value),
                    AttrKind::Bool(b) => ints.push(i128::from(*b)),
                    AttrKind::Float { bits, .. } => floats.push(*bits),
                    _ => {}
                }
            }
            // All elements equal: a splat, as MLIR's dense attributes are.
            let splat = match (&ints[..], &floats[..]) {
                ([first, rest @ ..], []) => rest.iter().all(|v| v == first),
                ([], [first, rest @ ..]) => rest.iter().all(|v| v == first),
                _ => false,
            };
            if splat {
                ints.truncate(1);
                floats.truncate(1);
            }
            let values = if floats.is_empty() {
                DenseValues::Ints(ints)
            } else {
                DenseValues::Floats(floats)
            };
            return self.m.attrs.intern(AttrKind::Dense { ty, values, splat });
        }
        self.m.attrs.array(elements)
    }

    /// The zero of type `ty` (`OpConstantNull`).
    fn null_attr(&mut self, inst: &Inst, ty: Type) -> Result<Attr> {
        // Iterative over nested composites: build children first.
        enum Work {
            Visit(Type),
            Build(Type, usize),
        }
        let mut work = vec![Work::Visit(ty)];
        let mut done: Vec<Attr> = Vec::new();
        let mut budget: usize = 1 << 22;
        let too_many = || DeserializeError::Unsupported {
            at: inst.at,
            what: "an OpConstantNull with more than 4 million elements".into(),
        };
        while let Some(w) = work.pop() {
            budget = budget.checked_sub(1).ok_or_else(too_many)?;
            match w {
                Work::Visit(t) => match self.m.types.kind(t).clone() {
                    TypeKind::Int { .. } if self.m.types.is_bool(t) => {
                        done.push(self.m.attrs.intern(AttrKind::Bool(false)))
                    }
                    TypeKind::Int { .. } => done.push(self.m.attrs.int(0, t)),
                    TypeKind::Float(_) => done.push(self.m.attrs.float(0.0, t)),
                    _ => {
                        if self.constituent_count(t).is_some_and(|n| n > budget) {
                            return Err(too_many());
                        }
                        // kiln writes the value back as OpConstantComposite,
                        // whose word count (16 bits) holds 65,532 parts.
                        if self.constituent_count(t).is_some_and(|n| n > 0xffff - 3) {
                            return Err(DeserializeError::Unsupported {
                                at: inst.at,
                                what: "an OpConstantNull of a composite of more than 65,532 constituents (kiln writes constants as OpConstantComposite)".into(),
                            });
                        }
                        let Some(parts) = self.constituent_types(t) else {
                            return Err(DeserializeError::Unsupported {
                                at: inst.at,
                                what: "OpConstantNull of a type that is not a scalar or composite"
                                    .into(),
                            });
                        };
                        work.push(Work::Build(t, parts.len()));
                        work.extend(parts.into_iter().rev().map(Work::Visit));
                    }
                },
                Work::Build(t, n) => {
                    let elements = done.split_off(done.len() - n);
                    let a = self.composite_from(t, elements);
                    done.push(a);
                }
            }
        }
        done.pop()
            .ok_or_else(|| invalid(inst, "OpConstantNull without a value"))
    }

    // ---- specialization constants -------------------------------------------

    /// `spv.SpecConstant @name spec_id(N) = value`.
    fn spec_constant(&mut self, inst: &Inst, id: u32, ty: Type, value: Attr) -> Result<()> {
        let name = self.symbol(id, "spirv_spec");
        let mut spec = OpSpec::new(OpKind::SpecConstant).loc(self.loc());
        for d in self.decorations.take(id) {
            match (d.decoration, d.params.first().map(|p| &p.val)) {
                (Decoration::SpecId, Some(Val::Word(w))) => {
                    let i32t = self.m.types.int(32);
                    let a = self.m.attrs.int(i128::from(*w), i32t);
                    spec = spec.attr("spec_id", a);
                }
                _ => {
                    return Err(DeserializeError::Unsupported {
                        at: d.at,
                        what: format!(
                            "decoration {} on a scalar specialization constant",
                            d.decoration
                        ),
                    })
                }
            }
        }
        let sym = self.m.attrs.string(name.clone());
        let op = self
            .m
            .create_op(spec.attr("sym_name", sym).attr("default_value", value));
        self.push_module_op(op);
        self.define(inst, Def::Spec { name, ty })
    }

    /// `spv.SpecConstantComposite @name (@a, @b) : T`.
    fn spec_constant_composite(&mut self, inst: &Inst, id: u32, ty: Type) -> Result<()> {
        let Some(count) = self.constituent_count(ty) else {
            return Err(invalid(inst, "the constant's type is not a composite"));
        };
        if count != inst.operands.len() {
            return Err(invalid(
                inst,
                format!(
                    "{} constituent(s) for a composite of {count}",
                    inst.operands.len(),
                ),
            ));
        }
        let expected = self.constituent_types(ty).unwrap_or_default();
        let mut constituents = Vec::with_capacity(expected.len());
        for (i, o) in inst.operands.iter().enumerate() {
            let Val::Id(cid) = o.val else {
                return Err(invalid(inst, format!("constituent {i} is not an id")));
            };
            let name = match self.defs.get(&cid).cloned() {
                Some(Def::Spec { name, ty: cty }) if cty == expected[i] => name,
                Some(Def::Constant { ty: cty, value }) if cty == expected[i] => {
                    self.spec_constant_for(inst, cid, value)?
                }
                Some(Def::Spec { .. } | Def::Constant { .. }) => {
                    return Err(invalid(
                        inst,
                        format!("constituent %{cid} does not have the type of element {i}"),
                    ))
                }
                _ => {
                    return Err(DeserializeError::WrongId {
                        at: inst.at,
                        id: cid,
                        expected: "a constant defined before this instruction",
                    })
                }
            };
            constituents.push(self.m.attrs.symbol(name));
        }
        let name = self.symbol(id, "spirv_spec");
        let decorations = self.decorations.take(id);
        let extra =
            super::decorations::as_attrs(&mut self.m.attrs, &mut self.m.types, &decorations)?;
        let sym = self.m.attrs.string(name.clone());
        let list = self.m.attrs.array(constituents);
        let ty_attr = self.m.attrs.ty(ty);
        let mut spec = OpSpec::new(OpKind::SpecConstantComposite)
            .loc(self.loc())
            .attr("sym_name", sym)
            .attr("constituents", list)
            .attr("type", ty_attr);
        spec.attrs.extend(extra);
        let op = self.m.create_op(spec);
        self.push_module_op(op);
        self.define(inst, Def::Spec { name, ty })
    }

    /// A specialization constant (without `SpecId`, so always its default)
    /// standing for the normal scalar constant `%id`, created once.
    pub(super) fn spec_constant_for(
        &mut self,
        inst: &Inst,
        id: u32,
        value: Attr,
    ) -> Result<String> {
        if let Some(name) = self.constant_specs.get(&id) {
            return Ok(name.clone());
        }
        if !matches!(
            self.m.attrs.kind(value),
            AttrKind::Int { .. } | AttrKind::Float { .. } | AttrKind::Bool(_)
        ) {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "composite constant %{id} where the IR needs a specialization constant"
                ),
            });
        }
        let base = format!("spirv_const_{id}");
        let name = self.unique_symbol(&base);
        self.symbols.insert(name.clone());
        let sym = self.m.attrs.string(name.clone());
        let op = self.m.create_op(
            OpSpec::new(OpKind::SpecConstant)
                .attr("sym_name", sym)
                .attr("default_value", value),
        );
        self.push_module_op(op);
        self.constant_specs.insert(id, name.clone());
        Ok(name)
    }
}

/// `bits` read as a `width`-bit two's-complement number.
fn sign_extend(bits: u64, width: u32) -> i128 {
    if width >= 64 {
        return i128::from(bits as i64);
    }
    let shift = 64 - width;
    i128::from(((bits << shift) as i64) >> shift)
}

/// An IEEE half-precision bit pattern as `f64` (exact).
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f64::from(h & 0x3ff);
    match exp {
        0 => sign * mant * 2f64.powi(-24),
        0x1f if mant == 0.0 => sign * f64::INFINITY,
        0x1f => f64::NAN,
        _ => sign * (1.0 + mant / 1024.0) * 2f64.powi(exp - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_by_width() {
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(0xffff_ffff, 32), -1);
        assert_eq!(sign_extend(u64::MAX, 64), -1);
        assert_eq!(sign_extend(5, 64), 5);
    }

    #[test]
    fn halves() {
        assert_eq!(half_to_f64(0x3c00), 1.0);
        assert_eq!(half_to_f64(0xc000), -2.0);
        assert_eq!(half_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(half_to_f64(0x7bff), 65504.0);
        assert!(half_to_f64(0x7e00).is_nan());
        assert_eq!(half_to_f64(0x7c00), f64::INFINITY);
    }
}
