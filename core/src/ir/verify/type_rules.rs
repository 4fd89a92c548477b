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
use crate::grammar::{self, GlslOp, Opcode};
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

/// Core instructions and their rules.
const CORE_RULES: &[(Opcode, Rule)] = {
    use Class::*;
    use Rule::*;
    &[
        // T1: integer arithmetic and bitwise ops.
        (Opcode::IAdd, Same(Int)),
        (Opcode::ISub, Same(Int)),
        (Opcode::IMul, Same(Int)),
        (Opcode::SDiv, Same(Int)),
        (Opcode::UDiv, Same(Int)),
        (Opcode::SRem, Same(Int)),
        (Opcode::SMod, Same(Int)),
        (Opcode::UMod, Same(Int)),
        (Opcode::SNegate, Same(Int)),
        (Opcode::Not, Same(Int)),
        (Opcode::BitwiseAnd, Same(Int)),
        (Opcode::BitwiseOr, Same(Int)),
        (Opcode::BitwiseXor, Same(Int)),
        (Opcode::BitReverse, Same(Int)),
        (Opcode::BitFieldInsert, BitFieldInsert),
        (Opcode::BitFieldSExtract, BitFieldExtract),
        (Opcode::BitFieldUExtract, BitFieldExtract),
        // T1: float arithmetic.
        (Opcode::FAdd, Same(Float)),
        (Opcode::FSub, Same(Float)),
        (Opcode::FMul, Same(Float)),
        (Opcode::FDiv, Same(Float)),
        (Opcode::FRem, Same(Float)),
        (Opcode::FMod, Same(Float)),
        (Opcode::FNegate, Same(Float)),
        // T2.
        (Opcode::ShiftLeftLogical, Shift),
        (Opcode::ShiftRightLogical, Shift),
        (Opcode::ShiftRightArithmetic, Shift),
        (Opcode::BitCount, IntCount),
        // T3: comparisons, tests and logic.
        (Opcode::IEqual, Compare(Int)),
        (Opcode::INotEqual, Compare(Int)),
        (Opcode::SGreaterThan, Compare(Int)),
        (Opcode::SGreaterThanEqual, Compare(Int)),
        (Opcode::SLessThan, Compare(Int)),
        (Opcode::SLessThanEqual, Compare(Int)),
        (Opcode::UGreaterThan, Compare(Int)),
        (Opcode::UGreaterThanEqual, Compare(Int)),
        (Opcode::ULessThan, Compare(Int)),
        (Opcode::ULessThanEqual, Compare(Int)),
        (Opcode::FOrdEqual, Compare(Float)),
        (Opcode::FUnordEqual, Compare(Float)),
        (Opcode::FOrdNotEqual, Compare(Float)),
        (Opcode::FUnordNotEqual, Compare(Float)),
        (Opcode::FOrdLessThan, Compare(Float)),
        (Opcode::FUnordLessThan, Compare(Float)),
        (Opcode::FOrdGreaterThan, Compare(Float)),
        (Opcode::FUnordGreaterThan, Compare(Float)),
        (Opcode::FOrdLessThanEqual, Compare(Float)),
        (Opcode::FUnordLessThanEqual, Compare(Float)),
        (Opcode::FOrdGreaterThanEqual, Compare(Float)),
        (Opcode::FUnordGreaterThanEqual, Compare(Float)),
        (Opcode::Ordered, Compare(Float)),
        (Opcode::Unordered, Compare(Float)),
        (Opcode::IsNan, Compare(Float)),
        (Opcode::IsInf, Compare(Float)),
        (Opcode::IsFinite, Compare(Float)),
        (Opcode::IsNormal, Compare(Float)),
        (Opcode::SignBitSet, Compare(Float)),
        (Opcode::LogicalEqual, Compare(Bool)),
        (Opcode::LogicalNotEqual, Compare(Bool)),
        (Opcode::LogicalAnd, Same(Bool)),
        (Opcode::LogicalOr, Same(Bool)),
        (Opcode::LogicalNot, Same(Bool)),
        (Opcode::Any, AnyAll),
        (Opcode::All, AnyAll),
        // T4.
        (Opcode::Select, Select),
        // T5.
        (Opcode::ConvertFToS, Convert(Float, Int, Width::Any)),
        (Opcode::ConvertFToU, Convert(Float, Int, Width::Any)),
        (Opcode::ConvertSToF, Convert(Int, Float, Width::Any)),
        (Opcode::ConvertUToF, Convert(Int, Float, Width::Any)),
        (Opcode::SConvert, Convert(Int, Int, Width::Differ)),
        (Opcode::UConvert, Convert(Int, Int, Width::Differ)),
        (Opcode::FConvert, Convert(Float, Float, Width::TypeDiffers)),
        (Opcode::Bitcast, Bitcast),
        // T6-T8, T10, T11.
        (Opcode::Load, Load),
        (Opcode::Store, Store),
        (Opcode::CopyMemory, CopyMemory),
        (Opcode::AccessChain, AccessChain(false)),
        (Opcode::InBoundsAccessChain, AccessChain(false)),
        (Opcode::PtrAccessChain, AccessChain(true)),
        (Opcode::InBoundsPtrAccessChain, AccessChain(true)),
        (Opcode::CompositeExtract, CompositeExtract),
        (Opcode::CompositeInsert, CompositeInsert),
        (Opcode::CompositeConstruct, CompositeConstruct),
        (Opcode::VectorShuffle, VectorShuffle),
        (Opcode::VectorExtractDynamic, VectorExtractDynamic),
        (Opcode::VectorInsertDynamic, VectorInsertDynamic),
        (Opcode::Variable, Variable),
        (Opcode::AtomicLoad, Atomic(Numeric, 0)),
        (Opcode::AtomicStore, AtomicStore),
        (Opcode::AtomicExchange, Atomic(Numeric, 1)),
        (Opcode::AtomicCompareExchange, Atomic(Int, 2)),
        (Opcode::AtomicIIncrement, Atomic(Int, 0)),
        (Opcode::AtomicIDecrement, Atomic(Int, 0)),
        (Opcode::AtomicIAdd, Atomic(Int, 1)),
        (Opcode::AtomicISub, Atomic(Int, 1)),
        (Opcode::AtomicSMin, Atomic(Int, 1)),
        (Opcode::AtomicUMin, Atomic(Int, 1)),
        (Opcode::AtomicSMax, Atomic(Int, 1)),
        (Opcode::AtomicUMax, Atomic(Int, 1)),
        (Opcode::AtomicAnd, Atomic(Int, 1)),
        (Opcode::AtomicOr, Atomic(Int, 1)),
        (Opcode::AtomicXor, Atomic(Int, 1)),
        (Opcode::AtomicFAddEXT, Atomic(Float, 1)),
        (Opcode::AtomicFMinEXT, Atomic(Float, 1)),
        (Opcode::AtomicFMaxEXT, Atomic(Float, 1)),
        // T12.
        (Opcode::GroupNonUniformIAdd, GroupValue(Int)),
        (Opcode::GroupNonUniformIMul, GroupValue(Int)),
        (Opcode::GroupNonUniformSMin, GroupValue(Int)),
        (Opcode::GroupNonUniformUMin, GroupValue(Int)),
        (Opcode::GroupNonUniformSMax, GroupValue(Int)),
        (Opcode::GroupNonUniformUMax, GroupValue(Int)),
        (Opcode::GroupNonUniformBitwiseAnd, GroupValue(Int)),
        (Opcode::GroupNonUniformBitwiseOr, GroupValue(Int)),
        (Opcode::GroupNonUniformBitwiseXor, GroupValue(Int)),
        (Opcode::GroupNonUniformFAdd, GroupValue(Float)),
        (Opcode::GroupNonUniformFMul, GroupValue(Float)),
        (Opcode::GroupNonUniformFMin, GroupValue(Float)),
        (Opcode::GroupNonUniformFMax, GroupValue(Float)),
        (Opcode::GroupNonUniformLogicalAnd, GroupValue(Bool)),
        (Opcode::GroupNonUniformLogicalOr, GroupValue(Bool)),
        (Opcode::GroupNonUniformLogicalXor, GroupValue(Bool)),
        (Opcode::GroupNonUniformBroadcast, GroupValue(Any)),
        (Opcode::GroupNonUniformBroadcastFirst, GroupValue(Any)),
        (Opcode::GroupNonUniformShuffle, GroupValue(Any)),
        (Opcode::GroupNonUniformShuffleXor, GroupValue(Any)),
        (Opcode::GroupNonUniformShuffleUp, GroupValue(Any)),
        (Opcode::GroupNonUniformShuffleDown, GroupValue(Any)),
        (Opcode::GroupNonUniformQuadBroadcast, GroupValue(Any)),
        (Opcode::GroupNonUniformQuadSwap, GroupValue(Any)),
        (Opcode::GroupNonUniformAll, GroupPredicate),
        (Opcode::GroupNonUniformAny, GroupPredicate),
        (Opcode::GroupNonUniformAllEqual, GroupAllEqual),
        (Opcode::GroupNonUniformElect, GroupElect),
        (Opcode::GroupNonUniformBallot, GroupBallot),
        // T13, T14.
        (Opcode::IAddCarry, Extended),
        (Opcode::ISubBorrow, Extended),
        (Opcode::UMulExtended, Extended),
        (Opcode::SMulExtended, Extended),
        (Opcode::Dot, Dot),
        (Opcode::VectorTimesScalar, VectorTimesScalar),
        // Control flow (F5, F6, B4, Y4).
        (Opcode::Return, Return),
        (Opcode::ReturnValue, ReturnValue),
        (Opcode::Unreachable, Unreachable),
        (Opcode::BranchConditional, BranchConditional),
        (Opcode::Switch, Switch),
        (Opcode::FunctionCall, FunctionCall),
        // T15.
        (Opcode::CooperativeMatrixLoadKHR, CoopLoad),
        (Opcode::CooperativeMatrixStoreKHR, CoopStore),
        (Opcode::CooperativeMatrixMulAddKHR, CoopMulAdd),
        (Opcode::CooperativeMatrixLengthKHR, CoopLength),
    ]
};

/// GLSL.std.450 instructions and their rules.
const GLSL_RULES: &[(GlslOp, Rule)] = {
    use Class::*;
    use Rule::*;
    &[
        (GlslOp::Round, Same(Float)),
        (GlslOp::RoundEven, Same(Float)),
        (GlslOp::Trunc, Same(Float)),
        (GlslOp::FAbs, Same(Float)),
        (GlslOp::FSign, Same(Float)),
        (GlslOp::Floor, Same(Float)),
        (GlslOp::Ceil, Same(Float)),
        (GlslOp::Fract, Same(Float)),
        (GlslOp::Radians, Same(Float)),
        (GlslOp::Degrees, Same(Float)),
        (GlslOp::Sin, Same(Float)),
        (GlslOp::Cos, Same(Float)),
        (GlslOp::Tan, Same(Float)),
        (GlslOp::Asin, Same(Float)),
        (GlslOp::Acos, Same(Float)),
        (GlslOp::Atan, Same(Float)),
        (GlslOp::Sinh, Same(Float)),
        (GlslOp::Cosh, Same(Float)),
        (GlslOp::Tanh, Same(Float)),
        (GlslOp::Asinh, Same(Float)),
        (GlslOp::Acosh, Same(Float)),
        (GlslOp::Atanh, Same(Float)),
        (GlslOp::Atan2, Same(Float)),
        (GlslOp::Pow, Same(Float)),
        (GlslOp::Exp, Same(Float)),
        (GlslOp::Log, Same(Float)),
        (GlslOp::Exp2, Same(Float)),
        (GlslOp::Log2, Same(Float)),
        (GlslOp::Sqrt, Same(Float)),
        (GlslOp::InverseSqrt, Same(Float)),
        (GlslOp::FMin, Same(Float)),
        (GlslOp::FMax, Same(Float)),
        (GlslOp::FClamp, Same(Float)),
        (GlslOp::FMix, Same(Float)),
        (GlslOp::Step, Same(Float)),
        (GlslOp::SmoothStep, Same(Float)),
        (GlslOp::Fma, Same(Float)),
        (GlslOp::NMin, Same(Float)),
        (GlslOp::NMax, Same(Float)),
        (GlslOp::NClamp, Same(Float)),
        (GlslOp::Normalize, Same(Float)),
        (GlslOp::FaceForward, Same(Float)),
        (GlslOp::Reflect, Same(Float)),
        (GlslOp::Cross, Same(Float)),
        (GlslOp::SAbs, Same(Int)),
        (GlslOp::SSign, Same(Int)),
        (GlslOp::SMin, Same(Int)),
        (GlslOp::SMax, Same(Int)),
        (GlslOp::UMin, Same(Int)),
        (GlslOp::UMax, Same(Int)),
        (GlslOp::SClamp, Same(Int)),
        (GlslOp::UClamp, Same(Int)),
        (GlslOp::FindILsb, IntCount),
        (GlslOp::FindSMsb, IntCount),
        (GlslOp::FindUMsb, IntCount),
        (GlslOp::Length, Length),
        (GlslOp::Distance, Distance),
        (GlslOp::Ldexp, Ldexp),
    ]
};

/// The rule of `opcode` in `table`, keyed by opcode once (`number` gives a
/// table key's opcode).
fn rule_of<K: Copy>(
    map: &'static OnceLock<HashMap<u16, Rule>>,
    table: &[(K, Rule)],
    number: fn(K) -> u16,
    opcode: u16,
) -> Option<Rule> {
    map.get_or_init(|| table.iter().map(|&(k, rule)| (number(k), rule)).collect())
        .get(&opcode)
        .copied()
}

/// The rule of core opcode `opcode`, if it has one.
pub(crate) fn core_rule(opcode: u16) -> Option<Rule> {
    static MAP: OnceLock<HashMap<u16, Rule>> = OnceLock::new();
    rule_of(&MAP, CORE_RULES, Opcode::opcode, opcode)
}

/// The rule of GLSL.std.450 instruction `opcode`, if it has one.
pub(crate) fn glsl_rule(opcode: u16) -> Option<Rule> {
    static MAP: OnceLock<HashMap<u16, Rule>> = OnceLock::new();
    rule_of(&MAP, GLSL_RULES, GlslOp::opcode, opcode)
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
                let core = match &self.m.op(op).kind {
                    OpKind::Core(opcode) => grammar::core_inst(*opcode).map(|d| d.op),
                    _ => None,
                };
                return match rule {
                    Rule::Convert(from, to, _) => {
                        self.check_coop_convert(op, from == Class::Float, to == Class::Float)
                    }
                    _ => self.check_coop_arithmetic(op, core, class == Class::Float),
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
