//! kiln's own model of an LLVM module: what the conversion produces and
//! the two printers read.
//!
//! It holds exactly what both outputs need and nothing else: types
//! ([`LType`]), functions of basic blocks whose arguments stand for phi
//! nodes (as in MLIR's LLVM dialect), instructions ([`Inst`]) and globals.
//! Constants, `undef`/`poison`/`zero` and the address of a global are
//! instructions here, as in the LLVM dialect (`llvm.mlir.constant`,
//! `llvm.mlir.addressof`); the LLVM IR printer writes them inline at their
//! uses instead.
//!
//! Invariants (the conversion keeps them; the printers rely on them):
//! * every [`LValue`] used by an instruction of a function is a parameter, a
//!   block argument or the result of an instruction of that function that
//!   dominates the use;
//! * every block ends with exactly one terminator ([`InstKind::is_terminator`]);
//!   the entry block has no arguments and no predecessors;
//! * a branch passes as many values to a block as it has arguments, of the
//!   arguments' types; no terminator names one block with arguments twice.

use std::fmt;

/// An LLVM type. Pointers are opaque (`ptr`), with an address space.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LType {
    /// `void` (function results only).
    Void,
    /// `iN`.
    Int(u32),
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `<N x T>`.
    Vector(u32, Box<LType>),
    /// `[N x T]`.
    Array(u64, Box<LType>),
    /// `{ ... }` or `<{ ... }>` when packed.
    Struct {
        /// Whether members are laid out without padding.
        packed: bool,
        /// Member types.
        fields: Vec<LType>,
    },
    /// `ptr` / `ptr addrspace(N)`.
    Ptr(u32),
}

impl LType {
    /// `i1`.
    pub const BOOL: LType = LType::Int(1);
    /// `i32`.
    pub const I32: LType = LType::Int(32);
    /// `i64`.
    pub const I64: LType = LType::Int(64);
    /// `ptr` in address space 0.
    pub const PTR: LType = LType::Ptr(0);

    /// `<len x elem>`.
    pub fn vector(len: u32, elem: LType) -> LType {
        LType::Vector(len, Box::new(elem))
    }

    /// `[len x elem]`.
    pub fn array(len: u64, elem: LType) -> LType {
        LType::Array(len, Box::new(elem))
    }

    /// The element type of a vector, or the type itself.
    pub fn scalar(&self) -> &LType {
        match self {
            LType::Vector(_, e) => e,
            t => t,
        }
    }

    /// The alignment in bytes of the widest scalar inside the type (a
    /// vector's element, an array's element, a struct's members; 1 for a
    /// packed struct): what SPIR-V's scalar block layout guarantees for a
    /// value of this type, where LLVM's ABI alignment of a vector or
    /// aggregate may be larger (16 for `<3 x i32>`).
    pub fn scalar_align(&self) -> u64 {
        match self {
            LType::Void => 1,
            LType::Int(w) => u64::from(w.div_ceil(8)).next_power_of_two(),
            LType::Half | LType::BFloat => 2,
            LType::Float => 4,
            LType::Double | LType::Ptr(_) => 8,
            LType::Vector(_, e) | LType::Array(_, e) => e.scalar_align(),
            LType::Struct { packed: true, .. } => 1,
            LType::Struct { fields, .. } => {
                fields.iter().map(LType::scalar_align).max().unwrap_or(1)
            }
        }
    }

    /// Number of vector lanes (1 for scalars).
    pub fn lanes(&self) -> u32 {
        match self {
            LType::Vector(n, _) => *n,
            _ => 1,
        }
    }

    /// Whether this is a floating-point scalar or vector.
    pub fn is_float(&self) -> bool {
        matches!(
            self.scalar(),
            LType::Half | LType::BFloat | LType::Float | LType::Double
        )
    }

    /// Whether this is an integer scalar or vector.
    pub fn is_int(&self) -> bool {
        matches!(self.scalar(), LType::Int(_))
    }

    /// The bit width of a scalar (or of a vector's element); 0 otherwise.
    pub fn bits(&self) -> u32 {
        match self.scalar() {
            LType::Int(w) => *w,
            LType::Half | LType::BFloat => 16,
            LType::Float => 32,
            LType::Double => 64,
            LType::Ptr(_) => 64,
            _ => 0,
        }
    }

    /// The same shape with `elem` as the scalar: `<N x elem>` for vectors.
    pub fn with_scalar(&self, elem: LType) -> LType {
        match self {
            LType::Vector(n, _) => LType::vector(*n, elem),
            _ => elem,
        }
    }

    /// Whether this is an aggregate (array or struct).
    pub fn is_aggregate(&self) -> bool {
        matches!(self, LType::Array(..) | LType::Struct { .. })
    }

    /// The type reached by `index` inside an aggregate or vector.
    pub fn member(&self, index: u64) -> Option<&LType> {
        match self {
            LType::Array(_, e) | LType::Vector(_, e) => Some(e),
            LType::Struct { fields, .. } => fields.get(usize::try_from(index).ok()?),
            _ => None,
        }
    }
}

/// A value of a function: a parameter, a block argument or an instruction result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LValue(pub u32);

/// A block of a function (index into [`Function::blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LBlock(pub u32);

/// Two-operand arithmetic and bitwise instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM instruction names")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

impl BinOp {
    /// The LLVM IR mnemonic (`add`, `fdiv`, ...), also the dialect op's
    /// name after `llvm.`.
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::UDiv => "udiv",
            BinOp::SDiv => "sdiv",
            BinOp::URem => "urem",
            BinOp::SRem => "srem",
            BinOp::FAdd => "fadd",
            BinOp::FSub => "fsub",
            BinOp::FMul => "fmul",
            BinOp::FDiv => "fdiv",
            BinOp::FRem => "frem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
        }
    }

    /// Whether the operation is on floats.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem
        )
    }
}

/// Conversions between types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM instruction names")]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    IntToPtr,
    Bitcast,
}

impl CastOp {
    /// The LLVM IR mnemonic (`zext`, `bitcast`, ...).
    pub fn name(self) -> &'static str {
        match self {
            CastOp::Trunc => "trunc",
            CastOp::ZExt => "zext",
            CastOp::SExt => "sext",
            CastOp::FPTrunc => "fptrunc",
            CastOp::FPExt => "fpext",
            CastOp::FPToUI => "fptoui",
            CastOp::FPToSI => "fptosi",
            CastOp::UIToFP => "uitofp",
            CastOp::SIToFP => "sitofp",
            CastOp::PtrToInt => "ptrtoint",
            CastOp::IntToPtr => "inttoptr",
            CastOp::Bitcast => "bitcast",
        }
    }
}

/// `icmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM predicate names")]
pub enum IPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl IPred {
    /// `eq`, `ne`, `ugt`, ...
    pub fn name(self) -> &'static str {
        match self {
            IPred::Eq => "eq",
            IPred::Ne => "ne",
            IPred::Ugt => "ugt",
            IPred::Uge => "uge",
            IPred::Ult => "ult",
            IPred::Ule => "ule",
            IPred::Sgt => "sgt",
            IPred::Sge => "sge",
            IPred::Slt => "slt",
            IPred::Sle => "sle",
        }
    }
}

/// `fcmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM predicate names")]
pub enum FPred {
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
}

impl FPred {
    /// `oeq`, `ogt`, ...
    pub fn name(self) -> &'static str {
        match self {
            FPred::Oeq => "oeq",
            FPred::Ogt => "ogt",
            FPred::Oge => "oge",
            FPred::Olt => "olt",
            FPred::Ole => "ole",
            FPred::One => "one",
            FPred::Ord => "ord",
            FPred::Ueq => "ueq",
            FPred::Ugt => "ugt",
            FPred::Uge => "uge",
            FPred::Ult => "ult",
            FPred::Ule => "ule",
            FPred::Une => "une",
            FPred::Uno => "uno",
        }
    }
}

/// Memory orderings of atomic instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM ordering names")]
pub enum Ordering {
    Monotonic,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Ordering {
    /// `monotonic`, `acquire`, ...
    pub fn name(self) -> &'static str {
        match self {
            Ordering::Monotonic => "monotonic",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
        }
    }
}

/// `atomicrmw` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the LLVM operation names")]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FMax,
    FMin,
}

impl RmwOp {
    /// The dialect's spelling (`_and`, `_or`, `_xor` for the bitwise ones).
    pub fn mlir_name(self) -> &'static str {
        match self {
            RmwOp::And => "_and",
            RmwOp::Or => "_or",
            RmwOp::Xor => "_xor",
            other => other.name(),
        }
    }

    /// `xchg`, `add`, `umax`, `fadd`, ...
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Xchg => "xchg",
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::Max => "max",
            RmwOp::Min => "min",
            RmwOp::UMax => "umax",
            RmwOp::UMin => "umin",
            RmwOp::FAdd => "fadd",
            RmwOp::FMax => "fmax",
            RmwOp::FMin => "fmin",
        }
    }
}

/// A scalar constant, or the lanes of a vector constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConstValue {
    /// An integer (the low bits of the type's width count).
    Int(i128),
    /// A float, stored as the bits of an `f64` holding the value exactly.
    Float(u64),
    /// Vector lanes (each `Int` or `Float`).
    Lanes(Vec<ConstValue>),
}

/// The operation of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// `llvm.mlir.constant` of a scalar or vector type.
    Constant(ConstValue),
    /// `llvm.mlir.undef`.
    Undef,
    /// `llvm.mlir.poison`.
    Poison,
    /// `llvm.mlir.zero` (`zeroinitializer` / `null`).
    Zero,
    /// `llvm.mlir.addressof @name`.
    AddressOf(String),
    /// Two operands of one type.
    Binary(BinOp),
    /// `fneg`.
    FNeg,
    /// `icmp pred a, b`.
    ICmp(IPred),
    /// `fcmp pred a, b`.
    FCmp(FPred),
    /// A conversion to the result type.
    Cast(CastOp),
    /// `select c, a, b`.
    Select,
    /// `extractelement v, i`.
    ExtractElement,
    /// `insertelement v, x, i` (operands: vector, value, index).
    InsertElement,
    /// `shufflevector a, b, mask` (`-1` is an undefined lane).
    ShuffleVector(Vec<i32>),
    /// `extractvalue agg, i...`.
    ExtractValue(Vec<u32>),
    /// `insertvalue agg, x, i...` (operands: aggregate, value).
    InsertValue(Vec<u32>),
    /// `alloca ty` of one element (operand: the count, an `i32` constant).
    Alloca {
        /// The allocated type.
        elem: LType,
        /// Alignment in bytes.
        align: Option<u64>,
    },
    /// `load ty, ptr` (the result type is the loaded type).
    Load(MemFlags),
    /// `store val, ptr` (operands: value, pointer).
    Store(MemFlags),
    /// `getelementptr elem, ptr, idx...`: indices are constants or operands
    /// after the base pointer.
    Gep {
        /// The source element type.
        elem: LType,
        /// The indices after the base.
        indices: Vec<GepIndex>,
    },
    /// A direct call of a function of the module (or a declared one).
    Call {
        /// Callee symbol.
        callee: String,
    },
    /// An LLVM intrinsic (`llvm.sqrt.f32`): operands are the arguments.
    Intrinsic(Intrinsic),
    /// `atomicrmw op ptr, val ordering` (operands: pointer, value).
    AtomicRmw {
        /// The operation.
        op: RmwOp,
        /// Its ordering.
        ordering: Ordering,
    },
    /// `cmpxchg ptr, cmp, new success failure`, giving `{T, i1}`.
    CmpXchg {
        /// Ordering on success.
        success: Ordering,
        /// Ordering on failure.
        failure: Ordering,
    },
    /// `fence ordering`.
    Fence(Ordering),
    /// `freeze x`.
    Freeze,
    /// `br` to the single successor.
    Br,
    /// `br i1 c, ...` to two successors, with optional branch weights.
    CondBr {
        /// `(true weight, false weight)`.
        weights: Option<(u32, u32)>,
    },
    /// `switch v, default [cases]`: successor 0 is the default, then one
    /// per case value.
    Switch(Vec<i128>),
    /// `ret` with zero or one operand.
    Ret,
    /// `unreachable`.
    Unreachable,
}

impl InstKind {
    /// Whether the instruction ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Br
                | InstKind::CondBr { .. }
                | InstKind::Switch(_)
                | InstKind::Ret
                | InstKind::Unreachable
        )
    }

    /// Whether the LLVM IR printer writes the result inline at its uses
    /// (constants and addresses are not instructions in LLVM IR).
    pub fn is_inline(&self) -> bool {
        matches!(
            self,
            InstKind::Constant(_)
                | InstKind::Undef
                | InstKind::Poison
                | InstKind::Zero
                | InstKind::AddressOf(_)
        )
    }
}

/// Flags of loads and stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemFlags {
    /// Alignment in bytes.
    pub align: Option<u64>,
    /// `volatile`.
    pub volatile: bool,
    /// `!nontemporal`.
    pub nontemporal: bool,
    /// An atomic load or store with this ordering.
    pub atomic: Option<Ordering>,
}

/// One index of a `getelementptr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GepIndex {
    /// A constant (struct member indices must be constants), printed as `i32`.
    Const(i32),
    /// The instruction's operand at this position (after the base at 0).
    Operand(usize),
}

/// An LLVM intrinsic call: `name` is the part after `llvm.` without the
/// overload suffix (`sqrt`, `ctpop`, `fma`); `overloads` are the types the
/// suffix names (`.f32`, `.v4i32`); `flag` is the trailing `i1` immediate
/// some intrinsics take (`ctlz`'s `is_zero_poison`, `abs`'s
/// `is_int_min_poison`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Intrinsic {
    /// `sqrt`, `fabs`, `ctlz`, ...
    pub name: &'static str,
    /// The overloaded types, in suffix order.
    pub overloads: Vec<LType>,
    /// The `i1` immediate argument, for the intrinsics that take one.
    pub flag: Option<bool>,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// Its operands.
    pub operands: Vec<LValue>,
    /// Its result, if it has one.
    pub result: Option<LValue>,
    /// Target blocks with the values passed to their arguments (terminators).
    pub successors: Vec<(LBlock, Vec<LValue>)>,
}

/// A basic block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockData {
    /// Block arguments (phi nodes in LLVM IR).
    pub args: Vec<LValue>,
    /// Instructions, the last one a terminator.
    pub insts: Vec<Inst>,
}

/// Linkage of functions and globals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// Visible outside the module (the default).
    External,
    /// `private`.
    Private,
    /// `internal`.
    Internal,
}

/// A function: defined when it has blocks, declared otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Symbol name (without `@`).
    pub name: String,
    /// Parameter values, in order.
    pub params: Vec<LValue>,
    /// Result type (`Void` for none).
    pub ret: LType,
    /// Types of all values, indexed by [`LValue`].
    pub values: Vec<LType>,
    /// Blocks; the first is the entry block.
    pub blocks: Vec<BlockData>,
    /// Linkage.
    pub linkage: Linkage,
    /// Function attributes passed through to LLVM (`noinline`,
    /// `alwaysinline`), as LLVM IR spells them.
    pub passthrough: Vec<&'static str>,
    /// The function's memory effects, when limited: `read` or `none`
    /// (LLVM's `memory(read)` / `memory(none)`).
    pub memory: Option<&'static str>,
}

impl Function {
    /// The type of `v`.
    pub fn ty(&self, v: LValue) -> &LType {
        &self.values[v.0 as usize]
    }

    /// Whether the function is only declared.
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The parameter types.
    pub fn param_types(&self) -> Vec<LType> {
        self.params.iter().map(|&p| self.ty(p).clone()).collect()
    }
}

/// A constant initializer of a global.
#[derive(Clone, Debug, PartialEq)]
pub enum GlobalInit {
    /// A scalar or vector constant.
    Value(ConstValue),
    /// `zeroinitializer`.
    Zero,
    /// `undef`.
    Undef,
    /// An array or struct, member by member.
    Aggregate(Vec<GlobalInit>),
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Symbol name (without `@`).
    pub name: String,
    /// The type of the value it holds.
    pub ty: LType,
    /// Linkage.
    pub linkage: Linkage,
    /// Whether it is read-only.
    pub constant: bool,
    /// Address space.
    pub addr_space: u32,
    /// The initial value (`None`: declared without one; an external global
    /// without an initializer is a declaration).
    pub init: Option<GlobalInit>,
    /// The SPIR-V `Location` decoration, kept as the dialect's `location`
    /// attribute (not part of the LLVM IR).
    pub location: Option<i64>,
}

/// A converted module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LlvmModule {
    /// The module's name (the `spirv.module`'s symbol), if it had one.
    pub name: Option<String>,
    /// Globals, in order.
    pub globals: Vec<Global>,
    /// Functions (definitions and declarations), in order.
    pub functions: Vec<Function>,
    /// When several spv modules were converted into this one: how many
    /// globals and functions each contributed, so printers keep their
    /// order (each module's globals, then its functions). Empty: one
    /// section.
    pub sections: Vec<(usize, usize)>,
}

impl LlvmModule {
    /// The `(globals, functions)` of each section, in order.
    pub fn section_items(&self) -> Vec<(&[Global], &[Function])> {
        if self.sections.is_empty() {
            return vec![(&self.globals[..], &self.functions[..])];
        }
        let (mut g, mut f) = (0, 0);
        let mut out = Vec::new();
        for &(ng, nf) in &self.sections {
            out.push((&self.globals[g..g + ng], &self.functions[f..f + nf]));
            g += ng;
            f += nf;
        }
        out
    }
}

impl LlvmModule {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The global named `name`.
    pub fn global(&self, name: &str) -> Option<&Global> {
        self.globals.iter().find(|g| g.name == name)
    }
}

impl fmt::Display for LType {
    /// LLVM IR spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LType::Void => f.write_str("void"),
            LType::Int(w) => write!(f, "i{w}"),
            LType::Half => f.write_str("half"),
            LType::BFloat => f.write_str("bfloat"),
            LType::Float => f.write_str("float"),
            LType::Double => f.write_str("double"),
            LType::Vector(n, e) => write!(f, "<{n} x {e}>"),
            LType::Array(n, e) => write!(f, "[{n} x {e}]"),
            LType::Struct { packed, fields } => {
                let (open, close) = if *packed { ("<{", "}>") } else { ("{", "}") };
                if fields.is_empty() {
                    return write!(f, "{open}{close}");
                }
                write!(f, "{open} ")?;
                for (i, t) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, " {close}")
            }
            LType::Ptr(0) => f.write_str("ptr"),
            LType::Ptr(n) => write!(f, "ptr addrspace({n})"),
        }
    }
}
