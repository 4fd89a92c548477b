//! Constants: `spv.Constant` (unified into the types section),
//! specialization constants, and the `i32` constants that stand for scope,
//! memory-semantics and array-length operands.
//!
//! Normal constants are deduplicated by encoding (type id, opcode, literal
//! words or constituent ids). Literals follow the SPIR-V rules: one word for
//! types up to 32 bits, two (low word first) for 64-bit types; narrower
//! integers are sign-extended into the word when the type is signed
//! (`siN`) and zero-extended otherwise; `f16` / `bf16` literals hold the
//! 16-bit pattern (rounded to nearest, ties to even) in the low half of the
//! word. Vectors, arrays, structs and matrices become `OpConstantComposite`
//! over their elements (dense splats expanded); `i1` becomes
//! `OpConstantTrue` / `OpConstantFalse`.

use rspirv::dr::Operand;
use rspirv::spirv;

use super::types::describe_type;
use super::{inst, OpProblem, Result, Serializer, SymbolKind};
use crate::ir::{Attr, AttrKind, DenseValues, FloatKind, Op, OpKind, Signedness, Type, TypeKind};

/// The encoding a constant is deduplicated by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ConstKey {
    /// `OpConstant` (with its literal), `OpConstantTrue` / `OpConstantFalse`
    /// (without).
    Scalar {
        opcode: u32,
        ty: u32,
        literal: Option<Literal>,
    },
    /// `OpConstantComposite`.
    Composite { ty: u32, ids: Vec<u32> },
}

/// The one or two words of a scalar literal (low word first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Literal {
    words: [u32; 2],
    wide: bool,
}

/// The most constituents one `OpConstantComposite` holds (65,535 words
/// less the opcode, type and result words).
const MAX_CONSTITUENTS: usize = 0xffff - 3;

impl Literal {
    fn one(word: u32) -> Literal {
        Literal {
            words: [word, 0],
            wide: false,
        }
    }

    fn two(bits: u64) -> Literal {
        Literal {
            words: [bits as u32, (bits >> 32) as u32],
            wide: true,
        }
    }

    /// The literal's words.
    #[cfg(test)]
    fn words(&self) -> &[u32] {
        &self.words[..if self.wide { 2 } else { 1 }]
    }

    /// The literal as one operand (64-bit literals as `LiteralBit64`).
    fn operand(self) -> Operand {
        if self.wide {
            Operand::LiteralBit64(u64::from(self.words[0]) | (u64::from(self.words[1]) << 32))
        } else {
            Operand::LiteralBit32(self.words[0])
        }
    }
}

/// One scalar element value.
#[derive(Clone, Copy, Debug)]
enum Scalar {
    /// An integer (or bool as 0/1).
    Int(i128),
    /// A float, as the bits of an `f64`.
    Float(u64),
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::Float(bits) => write!(f, "{:?}", f64::from_bits(*bits)),
        }
    }
}

/// Why a constant cannot be encoded: the (element) value, its type and a
/// reason.
struct ConstFailure {
    value: String,
    ty: Type,
    reason: String,
}

/// A failure while encoding a constant: the value does not fit, or
/// something else (its type) already reported with context.
enum ConstError {
    Value(ConstFailure),
    Other(super::SerializeError),
}

impl From<super::SerializeError> for ConstError {
    fn from(e: super::SerializeError) -> Self {
        ConstError::Other(e)
    }
}

/// A [`ConstError`], or `None` when the attribute's shape does not match
/// the type (the caller words that message).
struct MaybeConstError(Option<ConstError>);

impl MaybeConstError {
    fn or_else(self, f: impl FnOnce() -> ConstError) -> ConstError {
        self.0.unwrap_or_else(f)
    }
}

impl Serializer<'_> {
    /// The id of the `spv.Constant` `op` (emitting it on first use).
    pub(super) fn prepare_constant(&mut self, op: Op) -> Result<u32> {
        let result = self.m.op(op).result().ok_or_else(|| {
            self.err(
                op,
                OpProblem::ResultCount {
                    expected: 1,
                    found: 0,
                },
            )
        })?;
        if let Some(id) = self.value_ids.get(result) {
            return Ok(id);
        }
        let value = self.required_attr(op, "value")?;
        let ty = self.m.value_type(result);
        let id = self.prepare_constant_attr(op, ty, value)?;
        self.value_ids.insert(result, id);
        Ok(id)
    }

    /// `OpConstant %uint value`.
    pub(super) fn prepare_u32_constant(&mut self, value: u32) -> u32 {
        let ty = self.prepare_u32_type();
        self.intern_scalar_constant(spirv::Op::Constant, ty, Some(Literal::one(value)))
    }

    /// The constant of type `ty` holding `attr`; failures reported on `op`.
    fn prepare_constant_attr(&mut self, op: Op, ty: Type, attr: Attr) -> Result<u32> {
        self.constant_inner(op, ty, attr).map_err(|e| match e {
            ConstError::Value(f) => self.err(
                op,
                OpProblem::Constant {
                    value: f.value,
                    ty: describe_type(&self.m.types, f.ty),
                    reason: f.reason,
                },
            ),
            ConstError::Other(e) => e,
        })
    }

    fn constant_inner(&mut self, op: Op, ty: Type, attr: Attr) -> Result<u32, ConstError> {
        let fail = |s: &Self, reason: String| {
            ConstError::Value(ConstFailure {
                value: describe_attr(s, attr),
                ty,
                reason,
            })
        };
        // Reports types without encoding (`index`) before looking at values.
        let ty_id = self.prepare_type(op, ty)?;
        let m = self.m;
        let kind = m.types.kind(ty);
        let attr_kind = m.attrs.kind(attr);
        let ids = match kind {
            TypeKind::Int { .. } | TypeKind::Float(_) => {
                let scalar = match *attr_kind {
                    AttrKind::Int { value, .. } => Scalar::Int(value),
                    AttrKind::Bool(b) => Scalar::Int(i128::from(b)),
                    AttrKind::Float { bits, .. } => Scalar::Float(bits),
                    _ => return Err(fail(self, "expected a scalar attribute".into())),
                };
                return self.scalar_constant(op, ty, scalar);
            }
            &TypeKind::Vector { len, element } | &TypeKind::Array { len, element, .. } => {
                match attr_kind {
                    AttrKind::Dense { values, splat, .. } => {
                        let scalars = expand_dense(values, *splat, len as usize)
                            .map_err(|e| fail(self, e.to_string()))?;
                        let mut ids = Vec::with_capacity(scalars.len());
                        for s in scalars {
                            ids.push(self.scalar_constant(op, element, s)?);
                        }
                        ids
                    }
                    AttrKind::Array(items) if items.len() == len as usize => {
                        let mut ids = Vec::with_capacity(items.len());
                        for &a in items {
                            ids.push(self.constant_inner(op, element, a)?);
                        }
                        ids
                    }
                    _ => {
                        return Err(fail(
                            self,
                            format!("expected a dense or array attribute with {len} elements"),
                        ))
                    }
                }
            }
            TypeKind::Struct(st) => {
                let members: Vec<Type> = st.members.iter().map(|m| m.ty).collect();
                self.constant_elements(op, attr_kind, &members)
                    .map_err(|e| {
                        e.or_else(|| fail(self, "expected one element per member".into()))
                    })?
            }
            &TypeKind::Matrix { columns, column } => {
                let cols = vec![column; columns as usize];
                self.constant_elements(op, attr_kind, &cols).map_err(|e| {
                    e.or_else(|| fail(self, "expected one element per column".into()))
                })?
            }
            _ => {
                return Err(fail(
                    self,
                    "constants of this type are not supported".into(),
                ))
            }
        };
        // An instruction's word count is 16 bits: opcode word, type, result
        // and at most 65,532 constituents.
        if ids.len() > MAX_CONSTITUENTS {
            return Err(fail(
                self,
                format!(
                    "{} constituents do not fit one OpConstantComposite (at most {MAX_CONSTITUENTS})",
                    ids.len()
                ),
            ));
        }
        Ok(self.intern_composite_constant(ty_id, ids))
    }

    /// The constituents of an `Array` attribute, element `i` of type
    /// `types[i]`; `Err(None)` when the shapes differ.
    fn constant_elements(
        &mut self,
        op: Op,
        attr_kind: &AttrKind,
        types: &[Type],
    ) -> Result<Vec<u32>, MaybeConstError> {
        let AttrKind::Array(items) = attr_kind else {
            return Err(MaybeConstError(None));
        };
        if items.len() != types.len() {
            return Err(MaybeConstError(None));
        }
        let mut ids = Vec::with_capacity(items.len());
        for (&t, &a) in types.iter().zip(items) {
            ids.push(
                self.constant_inner(op, t, a)
                    .map_err(|e| MaybeConstError(Some(e)))?,
            );
        }
        Ok(ids)
    }

    /// A scalar constant of type `ty`.
    fn scalar_constant(&mut self, op: Op, ty: Type, value: Scalar) -> Result<u32, ConstError> {
        let ty_id = self.prepare_type(op, ty)?;
        let fail = |reason: String| {
            ConstError::Value(ConstFailure {
                value: value.to_string(),
                ty,
                reason,
            })
        };
        if self.m.types.is_bool(ty) {
            let Scalar::Int(v) = value else {
                return Err(fail(
                    "a bool constant needs an integer or bool value".into(),
                ));
            };
            let opcode = if v != 0 {
                spirv::Op::ConstantTrue
            } else {
                spirv::Op::ConstantFalse
            };
            return Ok(self.intern_scalar_constant(opcode, ty_id, None));
        }
        let literal =
            scalar_words(self.m.types.kind(ty), value).map_err(|e| fail(e.to_string()))?;
        Ok(self.intern_scalar_constant(spirv::Op::Constant, ty_id, Some(literal)))
    }

    /// Emits (or finds) `OpConstant %ty literal` or `OpConstantTrue` /
    /// `OpConstantFalse` (no literal).
    fn intern_scalar_constant(
        &mut self,
        opcode: spirv::Op,
        ty: u32,
        literal: Option<Literal>,
    ) -> u32 {
        let key = ConstKey::Scalar {
            opcode: opcode as u32,
            ty,
            literal,
        };
        if let Some(&id) = self.const_keys.get(&key) {
            return id;
        }
        let id = self.next_id();
        let operands = literal.map(Literal::operand).into_iter().collect();
        self.types_global_values
            .push(inst(opcode, Some(ty), Some(id), operands));
        self.const_keys.insert(key, id);
        id
    }

    /// Emits (or finds) `OpConstantComposite %ty constituents...`.
    fn intern_composite_constant(&mut self, ty: u32, ids: Vec<u32>) -> u32 {
        let operands = ids.iter().map(|&i| Operand::IdRef(i)).collect();
        let key = ConstKey::Composite { ty, ids };
        if let Some(&id) = self.const_keys.get(&key) {
            return id;
        }
        let id = self.next_id();
        self.types_global_values.push(inst(
            spirv::Op::ConstantComposite,
            Some(ty),
            Some(id),
            operands,
        ));
        self.const_keys.insert(key, id);
        id
    }

    // ---- specialization constants -----------------------------------------

    /// `spv.SpecConstant` / `spv.SpecConstantComposite` -> `OpSpecConstant*`
    /// (+ `SpecId`, name). Returns its id.
    pub(super) fn process_spec_constant(&mut self, op: Op) -> Result<u32> {
        let name = self
            .m
            .symbol_name(op)
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr("sym_name".into())))?
            .to_string();
        if let Some(&id) = self.symbol_ids.get(&name) {
            return Ok(id);
        }
        self.enter_symbol(op, &name)?;
        let id = if self.m.op(op).kind == OpKind::SpecConstantComposite {
            self.prepare_spec_constant_composite(op)?
        } else {
            self.prepare_spec_constant_scalar(op)?
        };
        self.emit_name(id, &name);
        self.leave_symbol(&name, id);
        Ok(id)
    }

    fn prepare_spec_constant_scalar(&mut self, op: Op) -> Result<u32> {
        let value = self.required_attr(op, "default_value")?;
        let (ty, scalar) = match self.m.attrs.kind(value) {
            AttrKind::Bool(b) => (None, Scalar::Int(i128::from(*b))),
            AttrKind::Int { value, ty } => (Some(*ty), Scalar::Int(*value)),
            AttrKind::Float { bits, ty } => (Some(*ty), Scalar::Float(*bits)),
            _ => return Err(self.bad_attr(op, "default_value", "a bool, integer or float")),
        };
        let (ty_id, opcode, literal) = match ty {
            Some(ty) if !self.m.types.is_bool(ty) => {
                let ty_id = self.prepare_type(op, ty)?;
                let literal = scalar_words(self.m.types.kind(ty), scalar).map_err(|e| {
                    self.err(
                        op,
                        OpProblem::Constant {
                            value: scalar.to_string(),
                            ty: describe_type(&self.m.types, ty),
                            reason: e.to_string(),
                        },
                    )
                })?;
                (ty_id, spirv::Op::SpecConstant, Some(literal))
            }
            _ => {
                let ty_id = self.intern_bool_type();
                let truthy = matches!(scalar, Scalar::Int(v) if v != 0);
                let opcode = if truthy {
                    spirv::Op::SpecConstantTrue
                } else {
                    spirv::Op::SpecConstantFalse
                };
                (ty_id, opcode, None)
            }
        };
        let id = self.next_id();
        let operands = literal.map(Literal::operand).into_iter().collect();
        self.types_global_values
            .push(inst(opcode, Some(ty_id), Some(id), operands));
        if let Some(spec_id) = self.m.attr(op, "spec_id") {
            let v = self
                .m
                .attrs
                .as_int(spec_id)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| self.bad_attr(op, "spec_id", "a 32-bit unsigned integer"))?;
            self.emit_decorate(
                id,
                crate::grammar::Decoration::SpecId,
                vec![Operand::LiteralBit32(v)],
            );
        }
        Ok(id)
    }

    fn prepare_spec_constant_composite(&mut self, op: Op) -> Result<u32> {
        let ty_attr = self.required_attr(op, "type")?;
        let ty = self
            .m
            .attrs
            .as_type(ty_attr)
            .ok_or_else(|| self.bad_attr(op, "type", "a type"))?;
        let ty_id = self.prepare_type(op, ty)?;
        let list = self.required_attr(op, "constituents")?;
        let items = self
            .m
            .attrs
            .as_array(list)
            .ok_or_else(|| self.bad_attr(op, "constituents", "an array of symbol references"))?
            .to_vec();
        let mut ids = Vec::with_capacity(items.len());
        for item in items {
            let Some(sym) = self.m.attrs.as_symbol(item) else {
                return Err(self.bad_attr(op, "constituents", "an array of symbol references"));
            };
            let sym = sym.to_string();
            ids.push(self.prepare_symbol(op, &sym, SymbolKind::SpecConstant)?);
        }
        let id = self.next_id();
        self.types_global_values.push(inst(
            spirv::Op::SpecConstantComposite,
            Some(ty_id),
            Some(id),
            ids.into_iter().map(Operand::IdRef).collect(),
        ));
        // `built_in = "WorkgroupSize"` makes the composite the specializable
        // workgroup size.
        self.process_decorations(op, id, &|n| {
            matches!(n, "sym_name" | "type" | "constituents")
        })?;
        Ok(id)
    }

    /// `OpTypeBool`, without needing an `i1` in the IR's type store.
    fn intern_bool_type(&mut self) -> u32 {
        let key = super::types::TypeKey::Inst(spirv::Op::TypeBool as u32, vec![], None);
        if let Some(&id) = self.type_keys.get(&key) {
            return id;
        }
        let id = self.next_id();
        self.types_global_values
            .push(inst(spirv::Op::TypeBool, None, Some(id), vec![]));
        self.type_keys.insert(key, id);
        id
    }
}

/// Why a constant's value has no encoding in its type.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum LiteralError {
    /// A dense attribute without elements.
    #[error("empty dense attribute")]
    EmptyDense,
    /// A dense attribute whose element count is not the type's.
    #[error("{found} elements for a type with {expected}")]
    DenseCount {
        /// Elements given.
        found: usize,
        /// Elements of the type.
        expected: usize,
    },
    /// An integer outside the range of its type's width.
    #[error("value does not fit in {width} bits")]
    DoesNotFit {
        /// The type's width in bits.
        width: u32,
    },
    /// An integer value for a float type.
    #[error("expected a float value")]
    ExpectedFloat,
    /// A float value for an integer type.
    #[error("expected an integer value")]
    ExpectedInteger,
    /// A value for a type that is not a scalar.
    #[error("not a scalar type")]
    NotScalar,
}

/// The scalars of a dense attribute with `len` elements (a splat repeated).
fn expand_dense(
    values: &DenseValues,
    splat: bool,
    len: usize,
) -> std::result::Result<Vec<Scalar>, LiteralError> {
    let all: Vec<Scalar> = match values {
        DenseValues::Ints(v) => v.iter().map(|&x| Scalar::Int(x)).collect(),
        DenseValues::Floats(v) => v.iter().map(|&x| Scalar::Float(x)).collect(),
    };
    if splat || all.len() == 1 {
        match all.first() {
            Some(&s) => Ok(vec![s; len]),
            None => Err(LiteralError::EmptyDense),
        }
    } else if all.len() == len {
        Ok(all)
    } else {
        Err(LiteralError::DenseCount {
            found: all.len(),
            expected: len,
        })
    }
}

/// The literal of a scalar of type `kind`.
fn scalar_words(kind: &TypeKind, value: Scalar) -> std::result::Result<Literal, LiteralError> {
    match (kind, value) {
        (TypeKind::Int { width, signedness }, Scalar::Int(v)) => {
            let width = *width;
            // Attribute values are kept sign-extended (`255 : ui8` is stored
            // as -1), so any value whose `width` low bits read back as it,
            // signed or unsigned, fits.
            let (min, max) = (-(1i128 << (width - 1)), (1i128 << width) - 1);
            if v < min || v > max {
                return Err(LiteralError::DoesNotFit { width });
            }
            let bits = v as u64;
            if width > 32 {
                return Ok(Literal::two(bits));
            }
            let mask = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let mut word = (bits as u32) & mask;
            let negative = width < 32 && word & (1 << (width - 1)) != 0;
            if *signedness == Signedness::Signed && negative {
                word |= !mask;
            }
            Ok(Literal::one(word))
        }
        (TypeKind::Float(kind), Scalar::Float(bits)) => {
            let x = f64::from_bits(bits);
            Ok(match kind {
                FloatKind::F16 => Literal::one(round_to_narrow_float(x, 5, 10)),
                FloatKind::BF16 => Literal::one(round_to_narrow_float(x, 8, 7)),
                FloatKind::F32 => Literal::one((x as f32).to_bits()),
                FloatKind::F64 => Literal::two(bits),
            })
        }
        (TypeKind::Float(_), Scalar::Int(_)) => Err(LiteralError::ExpectedFloat),
        (TypeKind::Int { .. }, Scalar::Float(_)) => Err(LiteralError::ExpectedInteger),
        _ => Err(LiteralError::NotScalar),
    }
}

/// The bit pattern of `x` in a binary floating-point format with
/// `exp_bits` exponent and `mant_bits` mantissa bits, rounded to nearest
/// with ties to even (scaling by powers of two is exact in `f64`, so the
/// only rounding is the final one).
fn round_to_narrow_float(x: f64, exp_bits: u32, mant_bits: u32) -> u32 {
    let sign = if x.is_sign_negative() {
        1u32 << (exp_bits + mant_bits)
    } else {
        0
    };
    let exp_all_ones = ((1u32 << exp_bits) - 1) << mant_bits;
    if x.is_nan() {
        return sign | exp_all_ones | (1 << (mant_bits - 1));
    }
    let a = x.abs();
    let bias = (1i32 << (exp_bits - 1)) - 1;
    // Values at or above this round to infinity.
    let overflow = (2.0 - 2f64.powi(-(mant_bits as i32) - 1)) * 2f64.powi(bias);
    if a >= overflow {
        return sign | exp_all_ones;
    }
    let min_normal = 2f64.powi(1 - bias);
    if a < min_normal {
        // Subnormal: units of 2^(1 - bias - mant_bits); rounding up to the
        // smallest normal gives its encoding as the encodings are contiguous.
        let units = (a * 2f64.powi(bias - 1 + mant_bits as i32)).round_ties_even();
        return sign | units as u32;
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let q = (a * 2f64.powi(mant_bits as i32 - e)).round_ties_even() as u32;
    // q is in [2^m, 2^(m+1)]; the top value carries into the exponent.
    let biased = (e + bias) as u32;
    sign | ((biased << mant_bits) + (q - (1 << mant_bits)))
}

/// A short rendering of an attribute for messages.
fn describe_attr(s: &Serializer<'_>, attr: Attr) -> String {
    match s.m.attrs.kind(attr) {
        AttrKind::Int { value, .. } => value.to_string(),
        AttrKind::Float { bits, .. } => format!("{:?}", f64::from_bits(*bits)),
        AttrKind::Bool(b) => b.to_string(),
        AttrKind::Dense { .. } => "dense<...>".into(),
        AttrKind::Array(items) => format!("[{} elements]", items.len()),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16(x: f64) -> u32 {
        round_to_narrow_float(x, 5, 10)
    }

    #[test]
    fn half_precision_rounding() {
        assert_eq!(f16(1.0), 0x3c00);
        assert_eq!(f16(-2.0), 0xc000);
        assert_eq!(f16(0.0), 0);
        assert_eq!(f16(-0.0), 0x8000);
        assert_eq!(f16(65504.0), 0x7bff);
        assert_eq!(f16(65519.0), 0x7bff);
        assert_eq!(f16(65520.0), 0x7c00);
        assert_eq!(f16(f64::INFINITY), 0x7c00);
        assert_eq!(f16(f64::NAN) & 0x7e00, 0x7e00);
        // Smallest subnormal and the tie below it.
        assert_eq!(f16(2f64.powi(-24)), 1);
        assert_eq!(f16(2f64.powi(-25)), 0);
        assert_eq!(f16(1.5 * 2f64.powi(-25)), 1);
        // 1 + 2^-11 is a tie between 1.0 and the next value: even wins.
        assert_eq!(f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // Largest subnormal rounding up into the normals.
        assert_eq!(f16(2f64.powi(-14) - 2f64.powi(-26)), 0x0400);
        assert_eq!(f16(0.1), 0x2e66);
    }

    #[test]
    fn bfloat16_rounding() {
        assert_eq!(round_to_narrow_float(1.0, 8, 7), 0x3f80);
        assert_eq!(round_to_narrow_float(-2.5, 8, 7), 0xc020);
    }

    #[test]
    fn integer_words() {
        let words = |kind: &TypeKind, v| scalar_words(kind, v).map(|l| l.words().to_vec());
        let int = |width, signedness| TypeKind::Int { width, signedness };
        assert_eq!(
            words(&int(8, Signedness::Signed), Scalar::Int(-1)),
            Ok(vec![0xffff_ffff])
        );
        assert_eq!(
            words(&int(8, Signedness::Signless), Scalar::Int(-1)),
            Ok(vec![0xff])
        );
        assert_eq!(
            words(&int(16, Signedness::Unsigned), Scalar::Int(65535)),
            Ok(vec![0xffff])
        );
        assert_eq!(
            words(&int(64, Signedness::Signless), Scalar::Int(-2)),
            Ok(vec![0xffff_fffe, 0xffff_ffff])
        );
        assert_eq!(
            words(&int(8, Signedness::Unsigned), Scalar::Int(-1)),
            Ok(vec![0xff])
        );
        assert_eq!(
            words(&int(8, Signedness::Signed), Scalar::Int(255)),
            Ok(vec![0xffff_ffff])
        );
        assert!(words(&int(8, Signedness::Unsigned), Scalar::Int(256)).is_err());
        assert!(words(&int(8, Signedness::Signed), Scalar::Int(-129)).is_err());
        assert!(words(&int(32, Signedness::Signless), Scalar::Int(1 << 40)).is_err());
    }
}
