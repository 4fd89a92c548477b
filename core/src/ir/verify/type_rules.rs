//! Operand and result types of core and GLSL ops (T1-T5, T12-T14), driven
//! by one rule table per instruction set; pointer, composite and atomic ops
//! (T6-T8, T10, T11) are in `memory.rs`, constants (T9) in
//! `constants.rs`.
//!
//! Every rule runs only after the op's operand and result counts were found
//! consistent with the grammar (O2, O3), and stops at the first mismatch it
//! reports so that one wrong type does not cascade.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::structure::FuncCtx;
use super::Verifier;
use crate::grammar;
use crate::ir::entity::{Op, Type};
use crate::ir::op::OpKind;
use crate::ir::types::TypeKind;

/// A class of scalar-or-vector types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Integers other than `i1`.
    Int,
    /// Floats.
    Float,
    /// `i1`.
    Bool,
    /// Integers other than `i1`, or floats.
    Numeric,
    /// Integers (including `i1`) or floats.
    Any,
}

impl Class {
    /// How messages name the class.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Class::Int => "an integer scalar or vector",
            Class::Float => "a float scalar or vector",
            Class::Bool => "an i1 scalar or vector",
            Class::Numeric => "an integer or float scalar or vector",
            Class::Any => "a scalar or vector",
        }
    }
}

/// How a conversion relates operand and result widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// Any widths.
    Any,
    /// The component widths differ (`SConvert`, `UConvert`).
    Differ,
    /// The types differ (`FConvert`: `f16` <-> `bf16` is a conversion too).
    TypeDiffers,
}

/// The type rule of one op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// All operands and the result share one type of the class.
    Same(Class),
    /// Operands share one type of the class; the result is `i1` shaped
    /// like them.
    Compare(Class),
    /// Base and shift are integers with equal component counts; the result
    /// is the base's type.
    Shift,
    /// An integer operand; an integer result with as many components.
    IntCount,
    /// A bool vector operand; an `i1` result.
    AnyAll,
    /// `Select`.
    Select,
    /// A conversion between classes with equal component counts.
    Convert(Class, Class, Width),
    /// `Bitcast`.
    Bitcast,
    /// `BitFieldInsert`.
    BitFieldInsert,
    /// `BitFieldSExtract` / `BitFieldUExtract`.
    BitFieldExtract,
    /// `IAddCarry`, `ISubBorrow`, `UMulExtended`, `SMulExtended`.
    Extended,
    /// `Dot`.
    Dot,
    /// `VectorTimesScalar`.
    VectorTimesScalar,
    /// Subgroup op whose operand #0 is a value of the class and the
    /// result's type; further operands are integer scalars (ids, deltas,
    /// cluster sizes).
    GroupValue(Class),
    /// `GroupNonUniformAll` / `Any`: an `i1` predicate, an `i1` result.
    GroupPredicate,
    /// `GroupNonUniformAllEqual`: any value, an `i1` result.
    GroupAllEqual,
    /// `GroupNonUniformElect`: an `i1` result.
    GroupElect,
    /// `GroupNonUniformBallot`: an `i1` predicate, a `vector<4xi32>` result.
    GroupBallot,
    /// GLSL `Length`: a float operand, its element type as result.
    Length,
    /// GLSL `Distance`: two operands of one float type, the element type as
    /// result.
    Distance,
    /// GLSL `Ldexp`: a float `x`, an integer exponent with as many
    /// components, the result `x`'s type.
    Ldexp,
    /// `Load`, `Store`, `CopyMemory`.
    Load,
    /// See [`Rule::Load`].
    Store,
    /// See [`Rule::Load`].
    CopyMemory,
    /// `AccessChain`, `InBoundsAccessChain` (false) and `PtrAccessChain`,
    /// `InBoundsPtrAccessChain` (true: an element operand first).
    AccessChain(bool),
    /// `CompositeExtract`.
    CompositeExtract,
    /// `CompositeInsert`.
    CompositeInsert,
    /// `CompositeConstruct`.
    CompositeConstruct,
    /// `VectorShuffle`.
    VectorShuffle,
    /// `VectorExtractDynamic`.
    VectorExtractDynamic,
    /// `VectorInsertDynamic`.
    VectorInsertDynamic,
    /// `Variable`.
    Variable,
    /// An atomic read-modify-write on a pointee of the class, with that many
    /// value operands after the pointer; the result is the pointee type.
    Atomic(Class, usize),
    /// `AtomicStore`.
    AtomicStore,
    /// `Return`.
    Return,
    /// `ReturnValue`.
    ReturnValue,
    /// `Unreachable`.
    Unreachable,
    /// `BranchConditional`.
    BranchConditional,
    /// `Switch`.
    Switch,
    /// `FunctionCall`.
    FunctionCall,
    /// `KHR.CooperativeMatrixLoad`.
    CoopLoad,
    /// `KHR.CooperativeMatrixStore`.
    CoopStore,
    /// `KHR.CooperativeMatrixMulAdd`.
    CoopMulAdd,
    /// `KHR.CooperativeMatrixLength`.
    CoopLength,
}

/// Core instructions and their rules, by opname.
const CORE_RULES: &[(&str, Rule)] = {
    use Class::*;
    use Rule::*;
    &[
        // T1: integer arithmetic and bitwise ops.
        ("IAdd", Same(Int)),
        ("ISub", Same(Int)),
        ("IMul", Same(Int)),
        ("SDiv", Same(Int)),
        ("UDiv", Same(Int)),
        ("SRem", Same(Int)),
        ("SMod", Same(Int)),
        ("UMod", Same(Int)),
        ("SNegate", Same(Int)),
        ("Not", Same(Int)),
        ("BitwiseAnd", Same(Int)),
        ("BitwiseOr", Same(Int)),
        ("BitwiseXor", Same(Int)),
        ("BitReverse", Same(Int)),
        ("BitFieldInsert", BitFieldInsert),
        ("BitFieldSExtract", BitFieldExtract),
        ("BitFieldUExtract", BitFieldExtract),
        // T1: float arithmetic.
        ("FAdd", Same(Float)),
        ("FSub", Same(Float)),
        ("FMul", Same(Float)),
        ("FDiv", Same(Float)),
        ("FRem", Same(Float)),
        ("FMod", Same(Float)),
        ("FNegate", Same(Float)),
        // T2.
        ("ShiftLeftLogical", Shift),
        ("ShiftRightLogical", Shift),
        ("ShiftRightArithmetic", Shift),
        ("BitCount", IntCount),
        // T3: comparisons, tests and logic.
        ("IEqual", Compare(Int)),
        ("INotEqual", Compare(Int)),
        ("SGreaterThan", Compare(Int)),
        ("SGreaterThanEqual", Compare(Int)),
        ("SLessThan", Compare(Int)),
        ("SLessThanEqual", Compare(Int)),
        ("UGreaterThan", Compare(Int)),
        ("UGreaterThanEqual", Compare(Int)),
        ("ULessThan", Compare(Int)),
        ("ULessThanEqual", Compare(Int)),
        ("FOrdEqual", Compare(Float)),
        ("FUnordEqual", Compare(Float)),
        ("FOrdNotEqual", Compare(Float)),
        ("FUnordNotEqual", Compare(Float)),
        ("FOrdLessThan", Compare(Float)),
        ("FUnordLessThan", Compare(Float)),
        ("FOrdGreaterThan", Compare(Float)),
        ("FUnordGreaterThan", Compare(Float)),
        ("FOrdLessThanEqual", Compare(Float)),
        ("FUnordLessThanEqual", Compare(Float)),
        ("FOrdGreaterThanEqual", Compare(Float)),
        ("FUnordGreaterThanEqual", Compare(Float)),
        ("Ordered", Compare(Float)),
        ("Unordered", Compare(Float)),
        ("IsNan", Compare(Float)),
        ("IsInf", Compare(Float)),
        ("IsFinite", Compare(Float)),
        ("IsNormal", Compare(Float)),
        ("SignBitSet", Compare(Float)),
        ("LogicalEqual", Compare(Bool)),
        ("LogicalNotEqual", Compare(Bool)),
        ("LogicalAnd", Same(Bool)),
        ("LogicalOr", Same(Bool)),
        ("LogicalNot", Same(Bool)),
        ("Any", AnyAll),
        ("All", AnyAll),
        // T4.
        ("Select", Select),
        // T5.
        ("ConvertFToS", Convert(Float, Int, Width::Any)),
        ("ConvertFToU", Convert(Float, Int, Width::Any)),
        ("ConvertSToF", Convert(Int, Float, Width::Any)),
        ("ConvertUToF", Convert(Int, Float, Width::Any)),
        ("SConvert", Convert(Int, Int, Width::Differ)),
        ("UConvert", Convert(Int, Int, Width::Differ)),
        ("FConvert", Convert(Float, Float, Width::TypeDiffers)),
        ("Bitcast", Bitcast),
        // T6-T8, T10, T11.
        ("Load", Load),
        ("Store", Store),
        ("CopyMemory", CopyMemory),
        ("AccessChain", AccessChain(false)),
        ("InBoundsAccessChain", AccessChain(false)),
        ("PtrAccessChain", AccessChain(true)),
        ("InBoundsPtrAccessChain", AccessChain(true)),
        ("CompositeExtract", CompositeExtract),
        ("CompositeInsert", CompositeInsert),
        ("CompositeConstruct", CompositeConstruct),
        ("VectorShuffle", VectorShuffle),
        ("VectorExtractDynamic", VectorExtractDynamic),
        ("VectorInsertDynamic", VectorInsertDynamic),
        ("Variable", Variable),
        ("AtomicLoad", Atomic(Numeric, 0)),
        ("AtomicStore", AtomicStore),
        ("AtomicExchange", Atomic(Numeric, 1)),
        ("AtomicCompareExchange", Atomic(Int, 2)),
        ("AtomicIIncrement", Atomic(Int, 0)),
        ("AtomicIDecrement", Atomic(Int, 0)),
        ("AtomicIAdd", Atomic(Int, 1)),
        ("AtomicISub", Atomic(Int, 1)),
        ("AtomicSMin", Atomic(Int, 1)),
        ("AtomicUMin", Atomic(Int, 1)),
        ("AtomicSMax", Atomic(Int, 1)),
        ("AtomicUMax", Atomic(Int, 1)),
        ("AtomicAnd", Atomic(Int, 1)),
        ("AtomicOr", Atomic(Int, 1)),
        ("AtomicXor", Atomic(Int, 1)),
        ("AtomicFAddEXT", Atomic(Float, 1)),
        ("AtomicFMinEXT", Atomic(Float, 1)),
        ("AtomicFMaxEXT", Atomic(Float, 1)),
        // T12.
        ("GroupNonUniformIAdd", GroupValue(Int)),
        ("GroupNonUniformIMul", GroupValue(Int)),
        ("GroupNonUniformSMin", GroupValue(Int)),
        ("GroupNonUniformUMin", GroupValue(Int)),
        ("GroupNonUniformSMax", GroupValue(Int)),
        ("GroupNonUniformUMax", GroupValue(Int)),
        ("GroupNonUniformBitwiseAnd", GroupValue(Int)),
        ("GroupNonUniformBitwiseOr", GroupValue(Int)),
        ("GroupNonUniformBitwiseXor", GroupValue(Int)),
        ("GroupNonUniformFAdd", GroupValue(Float)),
        ("GroupNonUniformFMul", GroupValue(Float)),
        ("GroupNonUniformFMin", GroupValue(Float)),
        ("GroupNonUniformFMax", GroupValue(Float)),
        ("GroupNonUniformLogicalAnd", GroupValue(Bool)),
        ("GroupNonUniformLogicalOr", GroupValue(Bool)),
        ("GroupNonUniformLogicalXor", GroupValue(Bool)),
        ("GroupNonUniformBroadcast", GroupValue(Any)),
        ("GroupNonUniformBroadcastFirst", GroupValue(Any)),
        ("GroupNonUniformShuffle", GroupValue(Any)),
        ("GroupNonUniformShuffleXor", GroupValue(Any)),
        ("GroupNonUniformShuffleUp", GroupValue(Any)),
        ("GroupNonUniformShuffleDown", GroupValue(Any)),
        ("GroupNonUniformQuadBroadcast", GroupValue(Any)),
        ("GroupNonUniformQuadSwap", GroupValue(Any)),
        ("GroupNonUniformAll", GroupPredicate),
        ("GroupNonUniformAny", GroupPredicate),
        ("GroupNonUniformAllEqual", GroupAllEqual),
        ("GroupNonUniformElect", GroupElect),
        ("GroupNonUniformBallot", GroupBallot),
        // T13, T14.
        ("IAddCarry", Extended),
        ("ISubBorrow", Extended),
        ("UMulExtended", Extended),
        ("SMulExtended", Extended),
        ("Dot", Dot),
        ("VectorTimesScalar", VectorTimesScalar),
        // Control flow (F5, F6, B4, Y4).
        ("Return", Return),
        ("ReturnValue", ReturnValue),
        ("Unreachable", Unreachable),
        ("BranchConditional", BranchConditional),
        ("Switch", Switch),
        ("FunctionCall", FunctionCall),
        // T15.
        ("CooperativeMatrixLoadKHR", CoopLoad),
        ("CooperativeMatrixStoreKHR", CoopStore),
        ("CooperativeMatrixMulAddKHR", CoopMulAdd),
        ("CooperativeMatrixLengthKHR", CoopLength),
    ]
};

/// GLSL.std.450 instructions and their rules, by name.
const GLSL_RULES: &[(&str, Rule)] = {
    use Class::*;
    use Rule::*;
    &[
        ("Round", Same(Float)),
        ("RoundEven", Same(Float)),
        ("Trunc", Same(Float)),
        ("FAbs", Same(Float)),
        ("FSign", Same(Float)),
        ("Floor", Same(Float)),
        ("Ceil", Same(Float)),
        ("Fract", Same(Float)),
        ("Radians", Same(Float)),
        ("Degrees", Same(Float)),
        ("Sin", Same(Float)),
        ("Cos", Same(Float)),
        ("Tan", Same(Float)),
        ("Asin", Same(Float)),
        ("Acos", Same(Float)),
        ("Atan", Same(Float)),
        ("Sinh", Same(Float)),
        ("Cosh", Same(Float)),
        ("Tanh", Same(Float)),
        ("Asinh", Same(Float)),
        ("Acosh", Same(Float)),
        ("Atanh", Same(Float)),
        ("Atan2", Same(Float)),
        ("Pow", Same(Float)),
        ("Exp", Same(Float)),
        ("Log", Same(Float)),
        ("Exp2", Same(Float)),
        ("Log2", Same(Float)),
        ("Sqrt", Same(Float)),
        ("InverseSqrt", Same(Float)),
        ("FMin", Same(Float)),
        ("FMax", Same(Float)),
        ("FClamp", Same(Float)),
        ("FMix", Same(Float)),
        ("Step", Same(Float)),
        ("SmoothStep", Same(Float)),
        ("Fma", Same(Float)),
        ("NMin", Same(Float)),
        ("NMax", Same(Float)),
        ("NClamp", Same(Float)),
        ("Normalize", Same(Float)),
        ("FaceForward", Same(Float)),
        ("Reflect", Same(Float)),
        ("Cross", Same(Float)),
        ("SAbs", Same(Int)),
        ("SSign", Same(Int)),
        ("SMin", Same(Int)),
        ("SMax", Same(Int)),
        ("UMin", Same(Int)),
        ("UMax", Same(Int)),
        ("SClamp", Same(Int)),
        ("UClamp", Same(Int)),
        ("FindILsb", IntCount),
        ("FindSMsb", IntCount),
        ("FindUMsb", IntCount),
        ("Length", Length),
        ("Distance", Distance),
        ("Ldexp", Ldexp),
    ]
};

/// Builds an opcode-keyed rule map from a name-keyed table.
fn build(table: &[(&str, Rule)], lookup: impl Fn(&str) -> Option<u16>) -> HashMap<u16, Rule> {
    table
        .iter()
        .filter_map(|&(name, rule)| lookup(name).map(|op| (op, rule)))
        .collect()
}

/// The rule of `opcode` in `table`, keyed by opcode once (`lookup` maps a
/// name to its opcode).
fn rule_of(
    map: &'static OnceLock<HashMap<u16, Rule>>,
    table: &[(&str, Rule)],
    lookup: fn(&str) -> Option<u16>,
    opcode: u16,
) -> Option<Rule> {
    map.get_or_init(|| build(table, lookup))
        .get(&opcode)
        .copied()
}

/// The rule of core opcode `opcode`, if it has one.
pub(crate) fn core_rule(opcode: u16) -> Option<Rule> {
    static MAP: OnceLock<HashMap<u16, Rule>> = OnceLock::new();
    rule_of(
        &MAP,
        CORE_RULES,
        |n| grammar::core_inst_by_name(n).map(|d| d.opcode),
        opcode,
    )
}

/// The rule of GLSL.std.450 instruction `opcode`, if it has one.
pub(crate) fn glsl_rule(opcode: u16) -> Option<Rule> {
    static MAP: OnceLock<HashMap<u16, Rule>> = OnceLock::new();
    rule_of(
        &MAP,
        GLSL_RULES,
        |n| grammar::glsl_inst_by_name(n).map(|d| d.opcode),
        opcode,
    )
}

impl<'m> Verifier<'m> {
    /// Reports `message` about `op` and yields `None`, to stop a rule.
    pub(crate) fn fail<T>(&mut self, op: Op, message: String) -> Option<T> {
        self.error(op, message);
        None
    }

    /// The type of operand `i` of `op`.
    pub(crate) fn operand_ty(&self, op: Op, i: usize) -> Option<Type> {
        self.m.op(op).operands.get(i).map(|&v| self.m.value_type(v))
    }

    /// The type of `op`'s result.
    pub(crate) fn result_ty(&self, op: Op) -> Option<Type> {
        self.m.op(op).result().map(|v| self.m.value_type(v))
    }

    /// Whether `ty` is a scalar or vector of the class.
    pub(crate) fn in_class(&self, ty: Type, class: Class) -> bool {
        let types = &self.m.types;
        let is_shape = match types.kind(ty) {
            TypeKind::Int { .. } | TypeKind::Float(_) => true,
            TypeKind::Vector { element, .. } => types.is_scalar(*element),
            _ => false,
        };
        if !is_shape {
            return false;
        }
        let s = types.scalar_of(ty);
        match class {
            Class::Int => types.is_integer(s),
            Class::Float => types.is_float(s),
            Class::Bool => types.is_bool(s),
            Class::Numeric => types.is_integer(s) || types.is_float(s),
            Class::Any => true,
        }
    }

    /// Operand `i` has a type of the class; returns it.
    pub(crate) fn expect_class(&mut self, op: Op, i: usize, class: Class) -> Option<Type> {
        let t = self.operand_ty(op, i)?;
        if !self.in_class(t, class) {
            return self.fail(
                op,
                format!(
                    "operand #{i} has type {}, expected {}",
                    self.ty(t),
                    class.describe()
                ),
            );
        }
        Some(t)
    }

    /// Operand `i` is an integer scalar.
    pub(crate) fn expect_int_scalar(&mut self, op: Op, i: usize, what: &str) -> Option<()> {
        let t = self.operand_ty(op, i)?;
        if !self.m.types.is_integer(t) {
            return self.fail(
                op,
                format!(
                    "operand #{i} ({what}) has type {}, expected an integer scalar",
                    self.ty(t)
                ),
            );
        }
        Some(())
    }

    /// Operand `i` has exactly type `want`; `why` says where `want` comes
    /// from.
    pub(crate) fn expect_operand(&mut self, op: Op, i: usize, want: Type, why: &str) -> Option<()> {
        let t = self.operand_ty(op, i)?;
        if t != want {
            return self.fail(
                op,
                format!(
                    "operand #{i} has type {}, expected {} ({why})",
                    self.ty(t),
                    self.ty(want)
                ),
            );
        }
        Some(())
    }

    /// The result has exactly type `want`.
    pub(crate) fn expect_result(&mut self, op: Op, want: Type, why: &str) -> Option<()> {
        let t = self.result_ty(op)?;
        if t != want {
            return self.fail(
                op,
                format!(
                    "result has type {}, expected {} ({why})",
                    self.ty(t),
                    self.ty(want)
                ),
            );
        }
        Some(())
    }

    /// The result is `i1` (scalar) or a vector of `i1` with `count`
    /// components.
    fn expect_bool_result(&mut self, op: Op, count: u32, why: &str) -> Option<()> {
        let t = self.result_ty(op)?;
        let types = &self.m.types;
        let ok = self.in_class(t, Class::Bool)
            && types.component_count(t) == count
            && (count == 1) == types.is_scalar(t);
        if !ok {
            let want = if count == 1 {
                "i1".to_string()
            } else {
                format!("vector<{count}xi1>")
            };
            return self.fail(
                op,
                format!("result has type {}, expected {want} ({why})", self.ty(t)),
            );
        }
        Some(())
    }

    /// O1-O4, then (when the op's shape is sound) its type rule.
    pub(crate) fn check_core(&mut self, op: Op, ctx: FuncCtx<'m>) {
        if self.check_core_schema(op) {
            self.check_core_types(op, ctx);
        }
    }

    /// O1-O3, then (when the op's shape is sound) its type rule.
    pub(crate) fn check_glsl(&mut self, op: Op) {
        if self.check_glsl_schema(op) {
            self.check_glsl_types(op);
        }
    }

    /// T1-T14 and the control-flow rules for a core op.
    fn check_core_types(&mut self, op: Op, ctx: FuncCtx<'m>) {
        let OpKind::Core(opcode) = self.m.op(op).kind else {
            return;
        };
        let Some(rule) = core_rule(opcode) else {
            return;
        };
        match rule {
            Rule::Return => self.check_return(op, ctx, false),
            Rule::ReturnValue => self.check_return(op, ctx, true),
            Rule::Unreachable => self.check_unreachable(op),
            Rule::BranchConditional => self.check_branch_conditional(op),
            Rule::Switch => self.check_switch(op),
            Rule::FunctionCall => self.check_function_call(op),
            rule => {
                if matches!(
                    rule,
                    Rule::GroupValue(_)
                        | Rule::GroupPredicate
                        | Rule::GroupAllEqual
                        | Rule::GroupElect
                        | Rule::GroupBallot
                ) {
                    self.check_group_scope(op);
                }
                let _ = self.apply_rule(op, rule);
            }
        }
    }

    /// T16: a non-uniform group op's `execution_scope` is `Workgroup` or
    /// `Subgroup` (SPIR-V's rule for `OpGroupNonUniform*`, which MLIR 19's
    /// verifier and spirv-val check).
    fn check_group_scope(&mut self, op: Op) {
        let scope = self
            .m
            .attr(op, "execution_scope")
            .and_then(|a| match self.m.attrs.kind(a) {
                crate::ir::AttrKind::Enum { value, .. } => Some(*value),
                _ => None,
            });
        let allowed = [
            grammar::Scope::Workgroup as u32,
            grammar::Scope::Subgroup as u32,
        ];
        if let Some(value) = scope.filter(|v| !allowed.contains(v)) {
            let name = grammar::Scope::from_u32(value).map_or("?", |s| s.name());
            self.error(
                op,
                format!("execution scope must be 'Workgroup' or 'Subgroup', found '{name}'"),
            );
        }
    }

    /// T1, T2 for a GLSL op.
    fn check_glsl_types(&mut self, op: Op) {
        let OpKind::Glsl(opcode) = self.m.op(op).kind else {
            return;
        };
        if let Some(rule) = glsl_rule(opcode) {
            let _ = self.apply_rule(op, rule);
        }
    }

    fn apply_rule(&mut self, op: Op, rule: Rule) -> Option<()> {
        let n = self.m.op(op).operands.len();
        // T15: elementwise arithmetic and conversions on cooperative matrices.
        let on_matrix = self
            .operand_ty(op, 0)
            .is_some_and(|t| self.coop(t).is_some());
        if on_matrix {
            if let Rule::Same(class) | Rule::Convert(class, _, _) = rule {
                let name = match &self.m.op(op).kind {
                    OpKind::Core(opcode) => grammar::core_inst(*opcode).map_or("", |d| d.opname),
                    _ => "",
                };
                return match rule {
                    Rule::Convert(from, to, _) => {
                        self.check_coop_convert(op, from == Class::Float, to == Class::Float)
                    }
                    _ => self.check_coop_arithmetic(op, name, class == Class::Float),
                };
            }
        }
        match rule {
            Rule::Same(class) => {
                let t0 = self.expect_class(op, 0, class)?;
                for i in 1..n {
                    self.expect_operand(op, i, t0, "same as operand #0")?;
                }
                self.expect_result(op, t0, "same as operand #0")
            }
            Rule::Compare(class) => {
                let t0 = self.expect_class(op, 0, class)?;
                for i in 1..n {
                    self.expect_operand(op, i, t0, "same as operand #0")?;
                }
                let count = self.m.types.component_count(t0);
                self.expect_bool_result(op, count, "one i1 per operand component")
            }
            Rule::Shift => {
                let base = self.expect_class(op, 0, Class::Int)?;
                let shift = self.expect_class(op, 1, Class::Int)?;
                self.same_count(op, shift, base, "operand #1", "operand #0")?;
                self.expect_result(op, base, "same as operand #0")
            }
            Rule::IntCount => {
                let t = self.expect_class(op, 0, Class::Int)?;
                let r = self.result_ty(op)?;
                if !self.in_class(r, Class::Int) {
                    return self.fail(
                        op,
                        format!(
                            "result has type {}, expected {}",
                            self.ty(r),
                            Class::Int.describe()
                        ),
                    );
                }
                self.same_count(op, r, t, "the result", "operand #0")
            }
            Rule::AnyAll => {
                let t = self.expect_class(op, 0, Class::Bool)?;
                if self.m.types.is_scalar(t) {
                    return self.fail(
                        op,
                        format!(
                            "operand #0 has type {}, expected a vector of i1",
                            self.ty(t)
                        ),
                    );
                }
                self.expect_bool_result(op, 1, "a single i1")
            }
            Rule::Select => {
                let c = self.expect_class(op, 0, Class::Bool)?;
                let r = self.result_ty(op)?;
                self.expect_operand(op, 1, r, "the result type")?;
                self.expect_operand(op, 2, r, "the result type")?;
                if !self.m.types.is_scalar(c) {
                    let types = &self.m.types;
                    if !matches!(types.kind(r), TypeKind::Vector { .. })
                        || types.component_count(r) != types.component_count(c)
                    {
                        return self.fail(
                            op,
                            format!(
                                "has a vector condition of type {} but result type {}; expected a vector result with as many components",
                                self.ty(c),
                                self.ty(r)
                            ),
                        );
                    }
                }
                Some(())
            }
            Rule::Convert(from, to, width) => {
                let t = self.expect_class(op, 0, from)?;
                let r = self.result_ty(op)?;
                if !self.in_class(r, to) {
                    return self.fail(
                        op,
                        format!("result has type {}, expected {}", self.ty(r), to.describe()),
                    );
                }
                self.same_count(op, r, t, "the result", "the operand")?;
                let types = &self.m.types;
                match width {
                    Width::Any => {}
                    Width::Differ if types.bit_width(t) == types.bit_width(r) => {
                        return self.fail(
                            op,
                            format!(
                                "converts {} to {}; expected different bit widths for operand and result",
                                self.ty(t),
                                self.ty(r)
                            ),
                        );
                    }
                    Width::TypeDiffers if t == r => {
                        return self.fail(
                            op,
                            format!(
                                "converts {} to itself; expected a different result type",
                                self.ty(t)
                            ),
                        );
                    }
                    _ => {}
                }
                Some(())
            }
            Rule::Bitcast => self.check_bitcast(op),
            Rule::BitFieldInsert => {
                let base = self.expect_class(op, 0, Class::Int)?;
                self.expect_operand(op, 1, base, "same as operand #0")?;
                self.expect_int_scalar(op, 2, "offset")?;
                self.expect_int_scalar(op, 3, "count")?;
                self.expect_result(op, base, "same as operand #0")
            }
            Rule::BitFieldExtract => {
                let base = self.expect_class(op, 0, Class::Int)?;
                self.expect_int_scalar(op, 1, "offset")?;
                self.expect_int_scalar(op, 2, "count")?;
                self.expect_result(op, base, "same as operand #0")
            }
            Rule::Extended => {
                let t = self.expect_class(op, 0, Class::Int)?;
                self.expect_operand(op, 1, t, "same as operand #0")?;
                let r = self.result_ty(op)?;
                let ok = match self.m.types.kind(r) {
                    TypeKind::Struct(s) => {
                        s.members.len() == 2 && s.members.iter().all(|m| m.ty == t)
                    }
                    _ => false,
                };
                if !ok {
                    return self.fail(
                        op,
                        format!(
                            "result has type {}, expected a struct of two members of the operand type {}",
                            self.ty(r),
                            self.ty(t)
                        ),
                    );
                }
                Some(())
            }
            Rule::Dot => {
                let t = self.expect_class(op, 0, Class::Float)?;
                if self.m.types.is_scalar(t) {
                    return self.fail(
                        op,
                        format!(
                            "operand #0 has type {}, expected a float vector",
                            self.ty(t)
                        ),
                    );
                }
                self.expect_operand(op, 1, t, "same as operand #0")?;
                let e = self.m.types.scalar_of(t);
                self.expect_result(op, e, "the operands' element type")
            }
            Rule::VectorTimesScalar => {
                let t = self.expect_class(op, 0, Class::Float)?;
                let e = self.m.types.scalar_of(t);
                self.expect_operand(op, 1, e, "the vector's element type")?;
                self.expect_result(op, t, "same as operand #0")
            }
            Rule::GroupValue(class) => {
                let t = self.expect_class(op, 0, class)?;
                for i in 1..n {
                    self.expect_int_scalar(op, i, "id, delta or cluster size")?;
                }
                self.expect_result(op, t, "same as the value operand")
            }
            Rule::GroupPredicate => {
                let t = self.operand_ty(op, 0)?;
                if !self.m.types.is_bool(t) {
                    return self.fail(
                        op,
                        format!(
                            "operand #0 (predicate) has type {}, expected i1",
                            self.ty(t)
                        ),
                    );
                }
                self.expect_bool_result(op, 1, "a single i1")
            }
            Rule::GroupAllEqual => {
                self.expect_class(op, 0, Class::Any)?;
                self.expect_bool_result(op, 1, "a single i1")
            }
            Rule::GroupElect => self.expect_bool_result(op, 1, "a single i1"),
            Rule::GroupBallot => {
                let t = self.operand_ty(op, 0)?;
                if !self.m.types.is_bool(t) {
                    return self.fail(
                        op,
                        format!(
                            "operand #0 (predicate) has type {}, expected i1",
                            self.ty(t)
                        ),
                    );
                }
                let r = self.result_ty(op)?;
                let types = &self.m.types;
                let ok = matches!(types.kind(r), TypeKind::Vector { len: 4, element }
                    if matches!(types.kind(*element), TypeKind::Int { width: 32, .. }));
                if !ok {
                    return self.fail(
                        op,
                        format!("result has type {}, expected vector<4xi32>", self.ty(r)),
                    );
                }
                Some(())
            }
            Rule::Length => {
                let t = self.expect_class(op, 0, Class::Float)?;
                let e = self.m.types.scalar_of(t);
                self.expect_result(op, e, "the operand's element type")
            }
            Rule::Distance => {
                let t = self.expect_class(op, 0, Class::Float)?;
                self.expect_operand(op, 1, t, "same as operand #0")?;
                let e = self.m.types.scalar_of(t);
                self.expect_result(op, e, "the operands' element type")
            }
            Rule::Ldexp => {
                let x = self.expect_class(op, 0, Class::Float)?;
                let e = self.expect_class(op, 1, Class::Int)?;
                self.same_count(op, e, x, "operand #1", "operand #0")?;
                self.expect_result(op, x, "same as operand #0")
            }
            Rule::Load => self.check_load(op),
            Rule::Store => self.check_store(op),
            Rule::CopyMemory => self.check_copy_memory(op),
            Rule::AccessChain(element) => self.check_access_chain(op, element),
            Rule::CompositeExtract => self.check_composite_extract(op),
            Rule::CompositeInsert => self.check_composite_insert(op),
            Rule::CompositeConstruct => self.check_composite_construct(op),
            Rule::VectorShuffle => self.check_vector_shuffle(op),
            Rule::VectorExtractDynamic => {
                let v = self.expect_vector(op, 0)?;
                self.expect_int_scalar(op, 1, "index")?;
                let e = self.m.types.scalar_of(v);
                self.expect_result(op, e, "the vector's element type")
            }
            Rule::VectorInsertDynamic => {
                let v = self.expect_vector(op, 0)?;
                let e = self.m.types.scalar_of(v);
                self.expect_operand(op, 1, e, "the vector's element type")?;
                self.expect_int_scalar(op, 2, "index")?;
                self.expect_result(op, v, "same as operand #0")
            }
            Rule::Variable => self.check_variable(op),
            Rule::Atomic(class, values) => self.check_atomic(op, class, values),
            Rule::AtomicStore => self.check_atomic_store(op),
            Rule::CoopLoad => self.check_coop_load(op),
            Rule::CoopStore => self.check_coop_store(op),
            Rule::CoopMulAdd => self.check_coop_mul_add(op),
            Rule::CoopLength => self.check_coop_length(op),
            Rule::Return
            | Rule::ReturnValue
            | Rule::Unreachable
            | Rule::BranchConditional
            | Rule::Switch
            | Rule::FunctionCall => Some(()),
        }
    }

    /// `a` and `b` have the same number of components.
    fn same_count(&mut self, op: Op, a: Type, b: Type, a_name: &str, b_name: &str) -> Option<()> {
        let types = &self.m.types;
        let (ca, cb) = (types.component_count(a), types.component_count(b));
        if ca != cb {
            return self.fail(
                op,
                format!(
                    "{a_name} has type {} with {ca} component(s), expected {cb} like {b_name} ({})",
                    self.ty(a),
                    self.ty(b)
                ),
            );
        }
        Some(())
    }

    /// Operand `i` is a vector; returns its type.
    pub(crate) fn expect_vector(&mut self, op: Op, i: usize) -> Option<Type> {
        let t = self.operand_ty(op, i)?;
        if !matches!(self.m.types.kind(t), TypeKind::Vector { .. }) {
            return self.fail(
                op,
                format!("operand #{i} has type {}, expected a vector", self.ty(t)),
            );
        }
        Some(t)
    }

    fn check_bitcast(&mut self, op: Op) -> Option<()> {
        let t = self.operand_ty(op, 0)?;
        let r = self.result_ty(op)?;
        let types = &self.m.types;
        let bits = |ty: Type| -> Option<u32> {
            match types.kind(ty) {
                TypeKind::Pointer { .. } => Some(0),
                TypeKind::Int { .. } | TypeKind::Float(_) | TypeKind::Vector { .. } => types
                    .bit_width(ty)
                    .and_then(|w| w.checked_mul(types.component_count(ty))),
                _ => None,
            }
        };
        let (Some(tb), Some(rb)) = (bits(t), bits(r)) else {
            return self.fail(
                op,
                format!(
                    "converts {} to {}; expected scalars, vectors or pointers",
                    self.ty(t),
                    self.ty(r)
                ),
            );
        };
        if t == r {
            return self.fail(
                op,
                format!(
                    "converts {} to itself; expected a different result type",
                    self.ty(t)
                ),
            );
        }
        // Pointers (0 here) convert to and from any pointer or integer.
        if tb != 0 && rb != 0 && tb != rb {
            return self.fail(
                op,
                format!(
                    "converts {} ({tb} bits) to {} ({rb} bits); expected equal total bit widths",
                    self.ty(t),
                    self.ty(r)
                ),
            );
        }
        Some(())
    }
}
