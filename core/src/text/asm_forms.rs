//! The custom assembly forms of grammar-driven ops, as one declarative table
//! interpreted by both the printer and the parser.
//!
//! Each row of [`FORMS`] names a set of ops (MLIR spelling without the
//! dialect prefix: `IAdd`, `GL.Exp`), the syntax after the op name as a
//! small template language modelled on MLIR's `assemblyFormat`, and the
//! [`Infer`] rule that recovers the types the syntax leaves out. The printer
//! walks the template to print an op; the parser walks the same template to
//! read it back, so the two cannot drift. Before printing, the printer checks
//! that the op *fits* its form (operand counts, attribute kinds, and that the
//! elided types are exactly what [`infer`] recomputes); an op that does not
//! fit is printed in the generic form instead, so printing always
//! round-trips.
//!
//! Template elements, separated by spaces:
//!
//! | element | meaning |
//! | --- | --- |
//! | `$N` | SSA operand `N` |
//! | `$N*` | operands `N..` as a comma-separated list |
//! | `opt(kw,$N)` | optional operand `N` written `kw(%v)` |
//! | `<attr>` | enum attribute `attr` in angle brackets: `<Workgroup>` |
//! | `"attr"` | enum attribute `attr` as a string: `"Reduce"` |
//! | `sc($N)` | storage class of operand `N`'s pointer type, as a string |
//! | `memaccess` | optional `["Volatile"]` / `["Aligned", 4]` (`memory_access`, `alignment`) |
//! | `srcmemaccess` | optional `, ["Volatile"]` (`source_memory_access`, `source_alignment`) |
//! | `attr(name)` | attribute `name` in its generic syntax (`[1 : i32]`) |
//! | `optenum(name)` | optional `, <Value>` for enum attribute `name` |
//! | `attr-dict` | the remaining attributes, `{...}` |
//! | `type($N)`, `type($r)` | type of operand `N` / of the result |
//! | `pointee($N)` | pointee type of operand `N` |
//! | `types($N*)` | types of operands `N..`, comma separated |
//! | `ctypes($N*)` | the same, each preceded by a comma |
//! | `,?` | an optional comma (accepted, never printed) |
//! | `,` `:` `[` `]` `(` `)` `->` `to` `into` | literal punctuation / keywords |
//!
//! A leading `~` glues an element to the previous one (no space:
//! `%v[1 : i32]`); `,`, `)` and `]` are always glued, and nothing is spaced
//! after `(` or `[`.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::grammar::{OperandKind, StorageClass};
use crate::ir::schema::{core_schema, Role};
use crate::ir::{AttrKind, AttrStore, OpKind, Signedness, Type, TypeKind, TypeStore};

/// A reference to a type in a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypeRef {
    /// The type of operand `N`.
    Operand(usize),
    /// The result type.
    Result,
    /// The pointee type of operand `N` (a pointer).
    Pointee(usize),
}

/// One element of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    /// `$N`.
    Operand(usize),
    /// `$N*`.
    Operands(usize),
    /// `opt(kw,$N)`.
    OptOperand(&'static str, usize),
    /// `<attr>`.
    EnumAngle(&'static str),
    /// `"attr"`.
    EnumStr(&'static str),
    /// `sc($N)`.
    PtrSc(usize),
    /// `memaccess` (`false`) or `srcmemaccess` (`true`: the source
    /// operand's, after a comma).
    MemAccess(bool),
    /// `attr(name)`.
    Attr(&'static str),
    /// `optenum(name)`: `, <Value>` when enum attribute `name` is present.
    OptEnum(&'static str),
    /// `attr-dict`.
    AttrDict,
    /// `type(...)` / `pointee(...)`.
    Type(TypeRef),
    /// `types($N*)` (`comma_led == false`) or `ctypes($N*)`.
    Types {
        /// First operand.
        from: usize,
        /// Whether every type is preceded by a comma.
        comma_led: bool,
    },
    /// `,?`.
    OptComma,
    /// Punctuation or keyword.
    Lit(&'static str),
}

/// An element and whether it is glued to the previous one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    /// The element.
    pub elem: Elem,
    /// Printed without a leading space.
    pub glued: bool,
}

/// How the types a form leaves out are recovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Infer {
    /// Every type is printed.
    Explicit,
    /// All operands and the result have the one printed type.
    Same,
    /// All operands have the printed type; the result is `i1` of its shape.
    BoolShaped,
    /// The result is `i1`.
    BoolScalar,
    /// The result has operand 0's type.
    ResultIsOp0,
    /// `Select`: operand 2 and the result have operand 1's type.
    Select,
    /// `Load`: operand 0 is a pointer to the result type.
    Load,
    /// `Store`: operand 0 is a pointer to operand 1's type.
    Store,
    /// `CopyMemory`: both operands point to the printed pointee.
    CopyMemory,
    /// `AccessChain`: the result points into operand 0's pointee.
    AccessChain,
    /// `PtrAccessChain`: as `AccessChain` after the element operand (#1),
    /// which steps over elements without changing the type.
    PtrAccessChain,
    /// `CompositeExtract`: the result is the indexed member.
    Extract,
    /// `CompositeInsert`: the result has operand 1's type.
    Insert,
    /// `VectorExtractDynamic`: the result is operand 0's element type.
    ExtractDynamic,
    /// `VectorInsertDynamic`: operand 1 is operand 0's element; result = operand 0.
    InsertDynamic,
    /// Atomics: the other operands and the result are operand 0's pointee.
    Atomic,
    /// Operand 0 is `i1` (ballots, assume).
    PredicateOp0,
    /// `IAddCarry` & co: both operands are the result struct's first member.
    Extended,
    /// `Dot`: operand 1 has operand 0's type.
    Dot,
    /// `SDotAccSat` & co: operand 1 is operand 0's type, operand 2 the result's.
    DotAcc,
    /// `BitFieldInsert`: operand 1 and the result have operand 0's type.
    BitFieldInsert,
    /// Group non-uniform arithmetic: result = operand 0; cluster size is `i32`.
    GroupArith,
    /// `KHR.CooperativeMatrixMulAdd`: the result has operand 2's type.
    ResultIsOp2,
    /// The result is `i32` (`KHR.CooperativeMatrixLength`).
    I32Result,
}

/// One custom form.
#[derive(Clone, Debug)]
pub(crate) struct AsmForm {
    /// The syntax printed and parsed.
    pub syntax: Vec<Item>,
    /// Other syntaxes accepted by the parser (chosen by their first token).
    pub alternatives: Vec<Vec<Item>>,
    /// The inference rule.
    pub infer: Infer,
}

/// The table: (op names, syntax, inference rule). Alternative parse-only
/// syntaxes follow their primary row with an op-name list starting `|`.
const FORMS: &[(&str, &str, Infer)] = &[
    // Arithmetic, bitwise and GLSL ops whose operands and result share one type.
    (
        "IAdd ISub IMul SDiv UDiv SMod SRem UMod FAdd FSub FMul FDiv FRem FMod \
         BitwiseAnd BitwiseOr BitwiseXor \
         GL.Atan2 GL.Pow GL.FMin GL.UMin GL.SMin GL.FMax GL.UMax GL.SMax GL.Step GL.Cross \
         GL.Reflect GL.NMin GL.NMax",
        "$0 , $1 attr-dict : type($r)",
        Infer::Same,
    ),
    (
        "FNegate SNegate Not BitReverse BitCount \
         GL.Round GL.RoundEven GL.Trunc GL.FAbs GL.SAbs GL.FSign GL.SSign GL.Floor GL.Ceil \
         GL.Fract GL.Radians GL.Degrees GL.Sin GL.Cos GL.Tan GL.Asin GL.Acos GL.Atan GL.Sinh \
         GL.Cosh GL.Tanh GL.Asinh GL.Acosh GL.Atanh GL.Exp GL.Log GL.Exp2 GL.Log2 GL.Sqrt \
         GL.InverseSqrt GL.Normalize GL.FindILsb GL.FindSMsb GL.FindUMsb GL.MatrixInverse",
        "$0 attr-dict : type($r)",
        Infer::Same,
    ),
    (
        "GL.FClamp GL.UClamp GL.SClamp GL.NClamp GL.SmoothStep GL.Fma GL.FaceForward",
        "$0 , $1 , $2 attr-dict : type($r)",
        Infer::Same,
    ),
    (
        "GL.FMix",
        "$0 : type($0) , $1 : type($1) , $2 : type($2) attr-dict -> type($r)",
        Infer::Explicit,
    ),
    (
        "GL.Ldexp",
        "$0 : type($0) , $1 : type($1) attr-dict -> type($r)",
        Infer::Explicit,
    ),
    (
        "GL.FrexpStruct GL.ModfStruct GL.Length GL.Determinant GL.PackSnorm4x8 \
         GL.PackUnorm4x8 GL.PackSnorm2x16 GL.PackUnorm2x16 GL.PackHalf2x16 GL.PackDouble2x32 \
         GL.UnpackSnorm2x16 GL.UnpackUnorm2x16 GL.UnpackHalf2x16 GL.UnpackSnorm4x8 \
         GL.UnpackUnorm4x8 GL.UnpackDouble2x32 Transpose",
        "$0 attr-dict : type($0) -> type($r)",
        Infer::Explicit,
    ),
    (
        "GL.Distance MatrixTimesMatrix MatrixTimesVector VectorTimesMatrix OuterProduct",
        "$0 , $1 attr-dict : type($0) , type($1) -> type($r)",
        Infer::Explicit,
    ),
    // Comparisons and predicates: the result is a boolean of the operand's shape.
    (
        "IEqual INotEqual UGreaterThan SGreaterThan UGreaterThanEqual SGreaterThanEqual \
         ULessThan SLessThan ULessThanEqual SLessThanEqual FOrdEqual FUnordEqual FOrdNotEqual \
         FUnordNotEqual FOrdLessThan FUnordLessThan FOrdGreaterThan FUnordGreaterThan \
         FOrdLessThanEqual FUnordLessThanEqual FOrdGreaterThanEqual FUnordGreaterThanEqual \
         LogicalEqual LogicalNotEqual LogicalOr LogicalAnd Ordered Unordered",
        "$0 , $1 attr-dict : type($0)",
        Infer::BoolShaped,
    ),
    (
        "LogicalNot IsNan IsInf IsFinite IsNormal SignBitSet",
        "$0 attr-dict : type($0)",
        Infer::BoolShaped,
    ),
    ("Any All", "$0 attr-dict : type($0)", Infer::BoolScalar),
    (
        "ShiftLeftLogical ShiftRightLogical ShiftRightArithmetic MatrixTimesScalar",
        "$0 , $1 attr-dict : type($0) , type($1)",
        Infer::ResultIsOp0,
    ),
    ("VectorTimesScalar", "$0 , $1 attr-dict : ( type($0) , type($1) ) -> type($r)", Infer::Explicit),
    (
        "BitFieldInsert",
        "$0 , $1 , $2 , $3 attr-dict : type($0) , type($2) , type($3)",
        Infer::BitFieldInsert,
    ),
    (
        "BitFieldSExtract BitFieldUExtract",
        "$0 , $1 , $2 attr-dict : type($0) , type($1) , type($2)",
        Infer::ResultIsOp0,
    ),
    // Conversions.
    (
        "ConvertFToU ConvertFToS ConvertSToF ConvertUToF UConvert SConvert FConvert Bitcast \
         ConvertPtrToU ConvertUToPtr PtrCastToGeneric GenericCastToPtr SatConvertSToU \
         SatConvertUToS QuantizeToF16",
        "$0 attr-dict : type($0) to type($r)",
        Infer::Explicit,
    ),
    ("Select", "$0 , $1 , $2 attr-dict : type($0) , type($1)", Infer::Select),
    (
        "IAddCarry ISubBorrow UMulExtended SMulExtended",
        "$0 , $1 attr-dict : type($r)",
        Infer::Extended,
    ),
    ("Dot", "$0 , $1 attr-dict : type($0) -> type($r)", Infer::Dot),
    (
        "SDot UDot SUDot",
        "$0 , $1 optenum(packed_vector_format) attr-dict : type($0) -> type($r)",
        Infer::Dot,
    ),
    (
        "SDotAccSat UDotAccSat SUDotAccSat",
        "$0 , $1 , $2 optenum(packed_vector_format) attr-dict : type($0) -> type($r)",
        Infer::DotAcc,
    ),
    // Memory.
    ("Load", "sc($0) $0 memaccess attr-dict : type($r)", Infer::Load),
    ("Store", "sc($0) $0 , $1 memaccess attr-dict : type($1)", Infer::Store),
    (
        "CopyMemory",
        "sc($0) $0 , sc($1) $1 memaccess srcmemaccess attr-dict : pointee($0)",
        Infer::CopyMemory,
    ),
    (
        "AccessChain",
        "$0 ~[ $1* ] attr-dict : type($0) ctypes($1*)",
        Infer::AccessChain,
    ),
    (
        "PtrAccessChain InBoundsPtrAccessChain",
        "$0 ~[ $1* ] attr-dict : type($0) ctypes($1*)",
        Infer::PtrAccessChain,
    ),
    ("Undef", "attr-dict : type($r)", Infer::Explicit),
    // Composites.
    ("CompositeExtract", "$0 ~attr(indices) attr-dict : type($0)", Infer::Extract),
    (
        "CompositeInsert",
        "$0 , $1 ~attr(indices) attr-dict : type($0) into type($1)",
        Infer::Insert,
    ),
    ("CompositeConstruct", "$0* attr-dict : ( types($0*) ) -> type($r)", Infer::Explicit),
    (
        "VectorShuffle",
        "attr(components) $0 , $1 attr-dict : type($0) , type($1) -> type($r)",
        Infer::Explicit,
    ),
    ("VectorExtractDynamic", "$0 ~[ $1 ] attr-dict : type($0) , type($1)", Infer::ExtractDynamic),
    (
        "VectorInsertDynamic",
        "$1 , $0 ~[ $2 ] attr-dict : type($0) , type($2)",
        Infer::InsertDynamic,
    ),
    // Barriers.
    (
        "ControlBarrier",
        "<execution_scope> , <memory_scope> , <memory_semantics> attr-dict",
        Infer::Explicit,
    ),
    ("MemoryBarrier", "<memory_scope> , <memory_semantics> attr-dict", Infer::Explicit),
    // Subgroup / group ops.
    ("GroupNonUniformBallot", "<execution_scope> $0 attr-dict : type($r)", Infer::PredicateOp0),
    ("GroupNonUniformElect", "<execution_scope> attr-dict : type($r)", Infer::Explicit),
    // Newer than MLIR 19 (which has no custom form for them): MLIR's later
    // `$execution_scope $value attr-dict : type($value), type($result)`.
    (
        "GroupNonUniformBallotFindLSB GroupNonUniformBallotFindMSB",
        "<execution_scope> $0 attr-dict : type($0) , type($r)",
        Infer::Explicit,
    ),
    (
        "GroupNonUniformBroadcast GroupNonUniformShuffle GroupNonUniformShuffleXor \
         GroupNonUniformShuffleUp GroupNonUniformShuffleDown GroupBroadcast",
        "<execution_scope> $0 , $1 attr-dict : type($0) , type($1)",
        Infer::ResultIsOp0,
    ),
    (
        "GroupNonUniformBroadcastFirst",
        "<execution_scope> $0 attr-dict : type($0)",
        Infer::ResultIsOp0,
    ),
    (
        "GroupNonUniformAll GroupNonUniformAny GroupNonUniformAllEqual",
        "<execution_scope> $0 attr-dict : type($0)",
        Infer::BoolScalar,
    ),
    (
        "GroupNonUniformIAdd GroupNonUniformFAdd GroupNonUniformIMul GroupNonUniformFMul \
         GroupNonUniformSMin GroupNonUniformUMin GroupNonUniformFMin GroupNonUniformSMax \
         GroupNonUniformUMax GroupNonUniformFMax GroupNonUniformBitwiseAnd \
         GroupNonUniformBitwiseOr GroupNonUniformBitwiseXor GroupNonUniformLogicalAnd \
         GroupNonUniformLogicalOr GroupNonUniformLogicalXor",
        "\"execution_scope\" \"group_operation\" $0 opt(cluster_size,$1) attr-dict : type($0)",
        Infer::GroupArith,
    ),
    // MLIR 20's spelling of the same ops, accepted when parsing.
    (
        "|",
        "<execution_scope> <group_operation> $0 opt(cluster_size,$1) attr-dict : type($0) ctypes($1*) -> type($r)",
        Infer::GroupArith,
    ),
    (
        "GroupIAdd GroupFAdd GroupFMin GroupUMin GroupSMin GroupFMax GroupUMax GroupSMax \
         KHR.GroupIMul KHR.GroupFMul",
        "<execution_scope> <group_operation> $0 attr-dict : type($0)",
        Infer::ResultIsOp0,
    ),
    ("KHR.SubgroupBallot", "$0 attr-dict : type($r)", Infer::PredicateOp0),
    // Cooperative matrices (SPV_KHR_cooperative_matrix), as MLIR 19 spells them.
    (
        "KHR.CooperativeMatrixLoad",
        "$0 , $1 , <matrix_layout> optenum(memory_operand) attr-dict : type($0) , type($1) -> type($r)",
        Infer::Explicit,
    ),
    (
        "KHR.CooperativeMatrixStore",
        "$0 , $1 , $2 , <matrix_layout> optenum(memory_operand) attr-dict : type($0) , type($1) , type($2)",
        Infer::Explicit,
    ),
    (
        "KHR.CooperativeMatrixMulAdd",
        "$0 , $1 , $2 optenum(matrix_operands) attr-dict : type($0) , type($1) -> type($2)",
        Infer::ResultIsOp2,
    ),
    (
        "KHR.CooperativeMatrixLength",
        "attr-dict : attr(cooperative_matrix_type)",
        Infer::I32Result,
    ),
    ("KHR.AssumeTrue", "$0 attr-dict", Infer::PredicateOp0),
    // Atomics.
    (
        "AtomicIAdd AtomicISub AtomicSMin AtomicUMin AtomicSMax AtomicUMax AtomicAnd AtomicOr \
         AtomicXor AtomicExchange EXT.AtomicFAdd EXT.AtomicFMin EXT.AtomicFMax",
        "<memory_scope> <semantics> $0 , $1 attr-dict : type($0)",
        Infer::Atomic,
    ),
    (
        "AtomicIIncrement AtomicIDecrement AtomicLoad",
        "<memory_scope> <semantics> $0 attr-dict : type($0)",
        Infer::Atomic,
    ),
    ("AtomicStore", "<memory_scope> <semantics> $0 , $1 attr-dict : type($0)", Infer::Atomic),
    (
        "AtomicCompareExchange AtomicCompareExchangeWeak",
        "<memory_scope> <equal_semantics> <unequal_semantics> $0 , $1 , $2 attr-dict : type($0)",
        Infer::Atomic,
    ),
    // Terminators without successors.
    ("ReturnValue", "$0 attr-dict : type($0)", Infer::Explicit),
    (
        "Return Unreachable Kill TerminateInvocation",
        "attr-dict",
        Infer::Explicit,
    ),
];

fn parse_template(src: &'static str) -> Vec<Item> {
    let mut items = Vec::new();
    for word in src.split_whitespace() {
        let (glued, word) = match word.strip_prefix('~') {
            Some(rest) => (true, rest),
            None => (false, word),
        };
        let operand = |s: &str| -> usize {
            s.strip_prefix('$')
                .and_then(|n| n.trim_end_matches('*').parse().ok())
                .unwrap_or_else(|| panic!("bad operand reference {s:?} in form template"))
        };
        let inner = |w: &'static str, head: &str| -> Option<&'static str> {
            w.strip_prefix(head).and_then(|r| r.strip_suffix(')'))
        };
        let elem = if word == "attr-dict" {
            Elem::AttrDict
        } else if word == "memaccess" {
            Elem::MemAccess(false)
        } else if word == "srcmemaccess" {
            Elem::MemAccess(true)
        } else if word == ",?" {
            Elem::OptComma
        } else if let Some(r) = inner(word, "type(") {
            Elem::Type(if r == "$r" {
                TypeRef::Result
            } else {
                TypeRef::Operand(operand(r))
            })
        } else if let Some(r) = inner(word, "pointee(") {
            Elem::Type(TypeRef::Pointee(operand(r)))
        } else if let Some(r) = inner(word, "types(") {
            Elem::Types {
                from: operand(r),
                comma_led: false,
            }
        } else if let Some(r) = inner(word, "ctypes(") {
            Elem::Types {
                from: operand(r),
                comma_led: true,
            }
        } else if let Some(r) = inner(word, "sc(") {
            Elem::PtrSc(operand(r))
        } else if let Some(r) = inner(word, "attr(") {
            Elem::Attr(r)
        } else if let Some(r) = inner(word, "optenum(") {
            Elem::OptEnum(r)
        } else if let Some(r) = inner(word, "opt(") {
            let (kw, op) = r.split_once(',').expect("opt(kw,$N)");
            Elem::OptOperand(kw, operand(op))
        } else if let Some(r) = word.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
            Elem::EnumAngle(r)
        } else if let Some(r) = word.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Elem::EnumStr(r)
        } else if word.starts_with('$') && word.ends_with('*') {
            Elem::Operands(operand(word))
        } else if word.starts_with('$') {
            Elem::Operand(operand(word))
        } else {
            assert!(
                matches!(
                    word,
                    "," | ":" | "[" | "]" | "(" | ")" | "->" | "to" | "into"
                ),
                "unknown template element {word:?}"
            );
            Elem::Lit(word)
        };
        let glued = glued || matches!(elem, Elem::Lit("," | ")" | "]"));
        items.push(Item { elem, glued });
    }
    items
}

fn table() -> &'static HashMap<&'static str, AsmForm> {
    static TABLE: OnceLock<HashMap<&'static str, AsmForm>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map: HashMap<&'static str, AsmForm> = HashMap::new();
        let mut last: Vec<&'static str> = Vec::new();
        for &(names, syntax, infer) in FORMS {
            let syntax = parse_template(syntax);
            if names == "|" {
                for name in &last {
                    if let Some(form) = map.get_mut(name) {
                        form.alternatives.push(syntax.clone());
                    }
                }
                continue;
            }
            last = names.split_whitespace().collect();
            for name in &last {
                map.insert(
                    name,
                    AsmForm {
                        syntax: syntax.clone(),
                        alternatives: Vec::new(),
                        infer,
                    },
                );
            }
        }
        map
    })
}

/// The custom form of `kind`, if it has one in the table.
pub(crate) fn form_for(kind: &OpKind) -> Option<&'static AsmForm> {
    /// Forms by opcode, resolved once from the name table.
    type ByOpcode = HashMap<u16, &'static AsmForm>;
    static BY_OPCODE: OnceLock<(ByOpcode, ByOpcode)> = OnceLock::new();
    let (core, glsl) = BY_OPCODE.get_or_init(|| {
        let mut core = HashMap::new();
        let mut glsl = HashMap::new();
        for (name, form) in table() {
            match OpKind::from_name(name) {
                Some(OpKind::Core(op)) => {
                    core.insert(op, form);
                }
                Some(OpKind::Glsl(op)) => {
                    glsl.insert(op, form);
                }
                _ => {}
            }
        }
        (core, glsl)
    });
    match kind {
        OpKind::Core(op) => core.get(op).copied(),
        OpKind::Glsl(op) => glsl.get(op).copied(),
        _ => None,
    }
}

/// The grammar operand kind of attribute `name` of a core op (from the schema).
pub(crate) fn attr_operand_kind(kind: &OpKind, name: &str) -> Option<OperandKind> {
    let OpKind::Core(opcode) = kind else {
        return None;
    };
    core_schema(*opcode)?.roles.iter().find_map(|r| match r {
        Role::Attr { name: n, kind, .. } if n == name => Some(*kind),
        _ => None,
    })
}

/// Whether a core / GLSL op produces a result.
pub(crate) fn has_result(kind: &OpKind) -> bool {
    match kind {
        OpKind::Core(opcode) => core_schema(*opcode).is_some_and(|s| s.has_result),
        OpKind::Glsl(_) => true,
        _ => false,
    }
}

/// Type access for [`infer`]: the parser interns new types, the printer only
/// looks existing ones up (a type that does not exist cannot match).
pub(crate) trait TypeCtx {
    /// The structure of `ty`.
    fn kind_of(&self, ty: Type) -> &TypeKind;
    /// The handle of `kind`, if it exists or can be created.
    fn get(&mut self, kind: TypeKind) -> Option<Type>;
}

impl TypeCtx for TypeStore {
    fn kind_of(&self, ty: Type) -> &TypeKind {
        self.kind(ty)
    }
    fn get(&mut self, kind: TypeKind) -> Option<Type> {
        Some(self.intern(kind))
    }
}

/// Read-only type access for the printer.
pub(crate) struct LookupTypes<'a>(pub &'a TypeStore);

impl TypeCtx for LookupTypes<'_> {
    fn kind_of(&self, ty: Type) -> &TypeKind {
        self.0.kind(ty)
    }
    fn get(&mut self, kind: TypeKind) -> Option<Type> {
        self.0.lookup(&kind)
    }
}

/// What is known about an op's types while printing or parsing a form.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sig {
    /// Operand types (`None`: not yet known).
    pub operands: Vec<Option<Type>>,
    /// Whether the op has a result.
    pub has_result: bool,
    /// The result type.
    pub result: Option<Type>,
    /// Storage classes given by `sc($N)`, per operand.
    pub storage: Vec<Option<StorageClass>>,
    /// Pointee types given by `pointee($N)`, per operand.
    pub pointee: Vec<Option<Type>>,
    /// Constant integer values of operands (for struct indexing).
    pub consts: Vec<Option<i128>>,
}

impl Sig {
    /// A signature for `n` operands.
    pub(crate) fn new(n: usize, has_result: bool) -> Sig {
        Sig {
            operands: vec![None; n],
            has_result,
            result: None,
            storage: vec![None; n],
            pointee: vec![None; n],
            consts: vec![None; n],
        }
    }

    fn op(&self, i: usize) -> Result<Type, InferError> {
        self.operands
            .get(i)
            .copied()
            .flatten()
            .ok_or(InferError::Operand(i))
    }

    fn set_op(&mut self, i: usize, ty: Type) {
        if let Some(slot) = self.operands.get_mut(i) {
            slot.get_or_insert(ty);
        }
    }

    fn set_result(&mut self, ty: Type) {
        if self.has_result {
            self.result.get_or_insert(ty);
        }
    }

    /// The single printed type among operands and result.
    fn any(&self) -> Result<Type, InferError> {
        self.result
            .or_else(|| self.operands.iter().flatten().next().copied())
            .ok_or(InferError::MissingType)
    }
}

fn bool_like(types: &mut dyn TypeCtx, ty: Type) -> Option<Type> {
    let i1 = types.get(TypeKind::Int {
        width: 1,
        signedness: Signedness::Signless,
    })?;
    match types.kind_of(ty).clone() {
        TypeKind::Vector { len, .. } => types.get(TypeKind::Vector { len, element: i1 }),
        _ => Some(i1),
    }
}

fn pointee_of(types: &dyn TypeCtx, ty: Type) -> Result<(Type, StorageClass), InferError> {
    match types.kind_of(ty) {
        TypeKind::Pointer {
            pointee,
            storage_class,
        } => Ok((*pointee, *storage_class)),
        _ => Err(InferError::ExpectedPointer),
    }
}

/// The type reached by indexing into `ty` with `index` (`None`: a
/// non-constant index).
pub(crate) fn index_into(
    types: &dyn TypeCtx,
    ty: Type,
    index: Option<i128>,
) -> Result<Type, InferError> {
    match types.kind_of(ty) {
        TypeKind::Vector { element, .. }
        | TypeKind::Array { element, .. }
        | TypeKind::RuntimeArray { element, .. } => Ok(*element),
        TypeKind::Matrix { column, .. } => Ok(*column),
        TypeKind::CoopMatrix(c) => Ok(c.element),
        TypeKind::Struct(s) => {
            let Some(i) = index else {
                return Err(InferError::StructIndexNotConstant);
            };
            usize::try_from(i)
                .ok()
                .and_then(|i| s.members.get(i))
                .map(|m| m.ty)
                .ok_or(InferError::StructIndexOutOfBounds(i))
        }
        _ => Err(InferError::NotComposite),
    }
}

/// Why the types of a custom form cannot be inferred.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InferError {
    /// An operand whose type is neither written nor inferable.
    #[error("cannot infer the type of operand #{0}")]
    Operand(usize),
    /// The result type, neither written nor inferable.
    #[error("cannot infer the result type")]
    Result,
    /// A form printing one type, none given.
    #[error("missing type")]
    MissingType,
    /// A pointer operand of another type.
    #[error("expected a pointer type")]
    ExpectedPointer,
    /// A struct indexed by a non-constant.
    #[error("index must be an integer spirv.Constant to access element of spirv.struct")]
    StructIndexNotConstant,
    /// A struct index past its members.
    #[error("struct index {0} out of bounds")]
    StructIndexOutOfBounds(i128),
    /// Indexing into a scalar.
    #[error("cannot index into a non-composite type")]
    NotComposite,
    /// The inferred type cannot be made (or a needed part is missing).
    #[error("cannot build the inferred type")]
    CannotBuild,
    /// A struct result expected.
    #[error("expected a struct result type")]
    ExpectedStructResult,
    /// No `indices` attribute.
    #[error("missing 'indices' attribute")]
    MissingIndices,
    /// `indices` not an array.
    #[error("'indices' must be an array attribute")]
    IndicesNotArray,
    /// `indices` holding non-integers.
    #[error("'indices' must hold integers")]
    IndicesNotIntegers,
}

/// Fills the types `infer` can recover. Fails with a message when a needed
/// type is missing or has the wrong shape.
pub(crate) fn infer(
    rule: Infer,
    sig: &mut Sig,
    attrs: &[(String, crate::ir::Attr)],
    attr_store: &AttrStore,
    types: &mut dyn TypeCtx,
) -> Result<(), InferError> {
    let n = sig.operands.len();
    let missing = || InferError::CannotBuild;
    match rule {
        Infer::Explicit => {}
        Infer::Same => {
            let t = sig.any()?;
            for i in 0..n {
                sig.set_op(i, t);
            }
            sig.set_result(t);
        }
        Infer::BoolShaped => {
            let t = sig.op(0).or_else(|_| sig.any())?;
            for i in 0..n {
                sig.set_op(i, t);
            }
            let b = bool_like(types, t).ok_or_else(missing)?;
            sig.set_result(b);
        }
        Infer::BoolScalar => {
            let b = types
                .get(TypeKind::Int {
                    width: 1,
                    signedness: Signedness::Signless,
                })
                .ok_or_else(missing)?;
            sig.set_result(b);
        }
        Infer::ResultIsOp0 => {
            let t = sig.op(0)?;
            sig.set_result(t);
        }
        Infer::Select => {
            let t = sig.op(1)?;
            sig.set_op(2, t);
            sig.set_result(t);
        }
        Infer::Load | Infer::Store => {
            let value = if rule == Infer::Load {
                sig.result.ok_or_else(missing)?
            } else {
                sig.op(1)?
            };
            let sc = sig.storage.first().copied().flatten().ok_or_else(missing)?;
            let ptr = types
                .get(TypeKind::Pointer {
                    pointee: value,
                    storage_class: sc,
                })
                .ok_or_else(missing)?;
            sig.set_op(0, ptr);
        }
        Infer::CopyMemory => {
            let pointee = sig.pointee.first().copied().flatten().ok_or_else(missing)?;
            for i in 0..n.min(2) {
                let sc = sig.storage.get(i).copied().flatten().ok_or_else(missing)?;
                let ptr = types
                    .get(TypeKind::Pointer {
                        pointee,
                        storage_class: sc,
                    })
                    .ok_or_else(missing)?;
                sig.set_op(i, ptr);
            }
        }
        Infer::AccessChain | Infer::PtrAccessChain => {
            let (mut ty, sc) = pointee_of(types, sig.op(0)?)?;
            let first = if matches!(rule, Infer::PtrAccessChain) {
                2
            } else {
                1
            };
            for i in first..n {
                ty = index_into(types, ty, sig.consts.get(i).copied().flatten())?;
            }
            let ptr = types
                .get(TypeKind::Pointer {
                    pointee: ty,
                    storage_class: sc,
                })
                .ok_or_else(missing)?;
            sig.set_result(ptr);
        }
        Infer::Extract => {
            let mut ty = sig.op(0)?;
            for index in indices(attrs, attr_store)? {
                ty = index_into(types, ty, Some(index))?;
            }
            sig.set_result(ty);
        }
        Infer::Insert => {
            let t = sig.op(1)?;
            sig.set_result(t);
        }
        Infer::ExtractDynamic => {
            let t = index_into(types, sig.op(0)?, None)?;
            sig.set_result(t);
        }
        Infer::InsertDynamic => {
            let v = sig.op(0)?;
            let e = index_into(types, v, None)?;
            sig.set_op(1, e);
            sig.set_result(v);
        }
        Infer::Atomic => {
            let (pointee, _) = pointee_of(types, sig.op(0)?)?;
            for i in 1..n {
                sig.set_op(i, pointee);
            }
            sig.set_result(pointee);
        }
        Infer::PredicateOp0 => {
            let b = types
                .get(TypeKind::Int {
                    width: 1,
                    signedness: Signedness::Signless,
                })
                .ok_or_else(missing)?;
            sig.set_op(0, b);
        }
        Infer::Extended => {
            let r = sig.result.ok_or_else(missing)?;
            let member = match types.kind_of(r) {
                TypeKind::Struct(s) if !s.members.is_empty() => s.members[0].ty,
                _ => return Err(InferError::ExpectedStructResult),
            };
            for i in 0..n {
                sig.set_op(i, member);
            }
        }
        Infer::Dot => {
            let t = sig.op(0)?;
            sig.set_op(1, t);
        }
        Infer::DotAcc => {
            let t = sig.op(0)?;
            sig.set_op(1, t);
            let r = sig.result.ok_or_else(missing)?;
            sig.set_op(2, r);
        }
        Infer::BitFieldInsert => {
            let t = sig.op(0)?;
            sig.set_op(1, t);
            sig.set_result(t);
        }
        Infer::ResultIsOp2 => {
            let t = sig.op(2)?;
            sig.set_result(t);
        }
        Infer::I32Result => {
            let i32t = types
                .get(TypeKind::Int {
                    width: 32,
                    signedness: Signedness::Signless,
                })
                .ok_or_else(missing)?;
            sig.set_result(i32t);
        }
        Infer::GroupArith => {
            let t = sig.op(0)?;
            sig.set_result(t);
            if n > 1 {
                let i32t = types
                    .get(TypeKind::Int {
                        width: 32,
                        signedness: Signedness::Signless,
                    })
                    .ok_or_else(missing)?;
                sig.set_op(1, i32t);
            }
        }
    }
    if let Some(i) = sig.operands.iter().position(Option::is_none) {
        return Err(InferError::Operand(i));
    }
    if sig.has_result && sig.result.is_none() {
        return Err(InferError::Result);
    }
    Ok(())
}

/// The values of the `indices` array attribute.
fn indices(
    attrs: &[(String, crate::ir::Attr)],
    store: &AttrStore,
) -> Result<Vec<i128>, InferError> {
    let attr = attrs
        .iter()
        .find(|(n, _)| n == "indices")
        .map(|(_, a)| *a)
        .ok_or(InferError::MissingIndices)?;
    let items = store.as_array(attr).ok_or(InferError::IndicesNotArray)?;
    items
        .iter()
        .map(|&a| match store.kind(a) {
            AttrKind::Int { value, .. } => Ok(*value),
            _ => Err(InferError::IndicesNotIntegers),
        })
        .collect()
}

/// The number of operands a template mentions: (fixed, has variadic tail,
/// optional trailing operand).
pub(crate) fn operand_shape(items: &[Item]) -> (usize, Option<usize>, Option<usize>) {
    let mut fixed = 0;
    let mut variadic = None;
    let mut optional = None;
    for item in items {
        match item.elem {
            Elem::Operand(i) => fixed = fixed.max(i + 1),
            Elem::Operands(i) => variadic = Some(i),
            Elem::OptOperand(_, i) => optional = Some(i),
            _ => {}
        }
    }
    (fixed, variadic, optional)
}

/// The attributes of a memory-access operand: the target's (or only)
/// one, or `OpCopyMemory`'s source one.
pub(crate) fn mem_access_names(source: bool) -> (&'static str, &'static str) {
    if source {
        ("source_memory_access", "source_alignment")
    } else {
        ("memory_access", "alignment")
    }
}

/// Attribute names a template consumes (never printed in its attr-dict).
pub(crate) fn consumed_attrs(items: &[Item]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for item in items {
        match item.elem {
            Elem::EnumAngle(a) | Elem::EnumStr(a) | Elem::Attr(a) | Elem::OptEnum(a) => out.push(a),
            Elem::MemAccess(source) => {
                let (access, alignment) = mem_access_names(source);
                out.push(access);
                out.push(alignment);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_names_known_ops_and_schema_attrs() {
        for &(names, syntax, _) in FORMS {
            let items = parse_template(syntax);
            if names == "|" {
                continue;
            }
            for name in names.split_whitespace() {
                let kind = OpKind::from_name(name)
                    .unwrap_or_else(|| panic!("form row names unknown op {name}"));
                for item in &items {
                    if let Elem::EnumAngle(a) | Elem::EnumStr(a) | Elem::OptEnum(a) = item.elem {
                        assert!(
                            attr_operand_kind(&kind, a).is_some(),
                            "{name}: schema has no enum attribute {a}"
                        );
                    }
                }
                assert!(form_for(&kind).is_some(), "{name} has no form");
                assert_eq!(kind.name(), name, "{name} is not MLIR's spelling");
            }
        }
    }

    #[test]
    fn templates_parse() {
        let t = parse_template("$0 ~[ $1* ] attr-dict : type($0) ctypes($1*)");
        assert_eq!(t[0].elem, Elem::Operand(0));
        assert!(t[1].glued);
        assert_eq!(t[2].elem, Elem::Operands(1));
        assert_eq!(
            t[7].elem,
            Elem::Types {
                from: 1,
                comma_led: true
            }
        );
    }
}
