//! Operations, values, blocks and regions.
//!
//! An op is an [`OpKind`] plus SSA operands, at most one result (SPIR-V
//! instructions produce zero or one), named attributes, successor blocks
//! with their arguments, and nested regions. Structural ops that have no
//! one-to-one binary instruction (`spv.module`, `spv.func`,
//! `spv.GlobalVariable`, `spv.Constant`, `spv.mlir.selection`, ...) have their
//! own [`OpKind`] variants; every other instruction of the SPIR-V core grammar
//! and of GLSL.std.450 is an [`OpKind::Core`] / [`OpKind::Glsl`] op described
//! by the generated grammar tables.
//!
//! Attribute names follow MLIR's (`sym_name`, `storage_class`,
//! `memory_access`, `function_control`, ...), so the generic form
//! `"spirv.Load"(%p) <{memory_access = #spirv.memory_access<Volatile>}>`
//! maps one to one onto an [`OpData`].

use std::borrow::Cow;

use super::entity::{Attr, Block, Op, Region, Type, Value};
use crate::grammar::{self, ExtInstDesc, InstDesc};

/// A position in the source text: 1-based line and column; 0 when unknown.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Location {
    /// 1-based line, 0 for synthesized ops.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl Location {
    /// A location for ops that were not parsed from text.
    pub const UNKNOWN: Location = Location { line: 0, col: 0 };

    /// A location at `line`:`col`.
    pub fn new(line: u32, col: u32) -> Self {
        Self { line, col }
    }

    /// Whether the location points into a source text.
    pub fn is_known(&self) -> bool {
        self.line != 0
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_known() {
            write!(f, "{}:{}", self.line, self.col)
        } else {
            f.write_str("<unknown>")
        }
    }
}

/// What an op is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `spv.module`: one region with one block holding module-level ops.
    Module,
    /// `spv.func`: a function; its body region's entry block arguments are
    /// the parameters.
    Func,
    /// `spv.GlobalVariable @sym ... : !spv.ptr<...>`.
    GlobalVariable,
    /// `spv.mlir.addressof @var`: the address of a global variable.
    AddressOf,
    /// `spv.Constant`: any normal constant, localized into functions.
    Constant,
    /// `spv.SpecConstant @sym spec_id(N) = value`.
    SpecConstant,
    /// `spv.SpecConstantComposite @sym (@a, @b) : type`.
    SpecConstantComposite,
    /// `spv.mlir.referenceof @spec`: the value of a specialization constant.
    ReferenceOf,
    /// `spv.EntryPoint "Model" @fn, @iface...`.
    EntryPoint,
    /// `spv.ExecutionMode @fn "Mode", literals...`.
    ExecutionMode,
    /// `spv.mlir.selection`: a structured selection construct.
    Selection,
    /// `spv.mlir.loop`: a structured loop construct.
    Loop,
    /// `spv.mlir.merge`: branch to the enclosing construct's merge target.
    Merge,
    /// A direct mirror of a core-grammar instruction, by opcode.
    Core(u16),
    /// A GLSL.std.450 extended instruction, by its number.
    Glsl(u16),
    /// An op of another dialect. Never valid inside `spv.module`; kept so the
    /// verifier can report it with its location.
    Foreign(String),
}

impl From<grammar::Opcode> for OpKind {
    fn from(op: grammar::Opcode) -> OpKind {
        OpKind::Core(op.opcode())
    }
}

impl From<grammar::GlslOp> for OpKind {
    fn from(op: grammar::GlslOp) -> OpKind {
        OpKind::Glsl(op.opcode())
    }
}

/// Vendor suffixes MLIR turns into a name prefix (`OpSubgroupBallotKHR` ->
/// `KHR.SubgroupBallot`).
const VENDORS: [&str; 6] = ["KHR", "EXT", "NV", "INTEL", "AMD", "ARM"];

impl OpKind {
    /// The op name without dialect prefix, as MLIR spells it with the
    /// `spirv.` prefix (`IAdd`, `GL.Sqrt`, `mlir.selection`, `KHR.SubgroupBallot`).
    pub fn name(&self) -> Cow<'static, str> {
        match self {
            OpKind::Module => "module".into(),
            OpKind::Func => "func".into(),
            OpKind::GlobalVariable => "GlobalVariable".into(),
            OpKind::AddressOf => "mlir.addressof".into(),
            OpKind::Constant => "Constant".into(),
            OpKind::SpecConstant => "SpecConstant".into(),
            OpKind::SpecConstantComposite => "SpecConstantComposite".into(),
            OpKind::ReferenceOf => "mlir.referenceof".into(),
            OpKind::EntryPoint => "EntryPoint".into(),
            OpKind::ExecutionMode => "ExecutionMode".into(),
            OpKind::Selection => "mlir.selection".into(),
            OpKind::Loop => "mlir.loop".into(),
            OpKind::Merge => "mlir.merge".into(),
            OpKind::Core(opcode) => match grammar::core_inst(*opcode) {
                Some(desc) => core_mlir_name(desc.opname),
                None => format!("Op{opcode}").into(),
            },
            OpKind::Glsl(opcode) => match grammar::glsl_inst(*opcode) {
                Some(desc) => format!("GL.{}", desc.opname).into(),
                None => format!("GL.Op{opcode}").into(),
            },
            OpKind::Foreign(name) => name.clone().into(),
        }
    }

    /// Resolves an op name written without the dialect prefix. Accepts both
    /// `GL.X` (current MLIR) and `GLSL.X` (the seeds).
    pub fn from_name(name: &str) -> Option<OpKind> {
        let structural = match name {
            "module" => Some(OpKind::Module),
            "func" => Some(OpKind::Func),
            "GlobalVariable" | "globalVariable" => Some(OpKind::GlobalVariable),
            "mlir.addressof" | "_address_of" => Some(OpKind::AddressOf),
            "Constant" | "constant" => Some(OpKind::Constant),
            "SpecConstant" | "specConstant" => Some(OpKind::SpecConstant),
            "SpecConstantComposite" | "specConstantComposite" => {
                Some(OpKind::SpecConstantComposite)
            }
            "mlir.referenceof" | "_reference_of" => Some(OpKind::ReferenceOf),
            "EntryPoint" => Some(OpKind::EntryPoint),
            "ExecutionMode" => Some(OpKind::ExecutionMode),
            "mlir.selection" | "selection" => Some(OpKind::Selection),
            "mlir.loop" | "loop" => Some(OpKind::Loop),
            "mlir.merge" | "_merge" => Some(OpKind::Merge),
            _ => None,
        };
        if structural.is_some() {
            return structural;
        }
        if let Some(ext) = name
            .strip_prefix("GL.")
            .or_else(|| name.strip_prefix("GLSL."))
        {
            return grammar::glsl_inst_by_name(ext).map(|d| OpKind::Glsl(d.opcode));
        }
        // Instructions the dialect models structurally never appear as ops.
        if matches!(
            name,
            "Function"
                | "FunctionEnd"
                | "FunctionParameter"
                | "Label"
                | "Phi"
                | "SelectionMerge"
                | "LoopMerge"
                | "ExtInst"
                | "ExtInstImport"
                | "Capability"
                | "Extension"
                | "MemoryModel"
                | "Decorate"
                | "MemberDecorate"
                | "ConstantTrue"
                | "ConstantFalse"
                | "ConstantComposite"
                | "ConstantNull"
                | "SpecConstantTrue"
                | "SpecConstantFalse"
                | "SpecConstantOp"
        ) || name.starts_with("Type")
        {
            return None;
        }
        if let Some((vendor, base)) = name.split_once('.') {
            if VENDORS.contains(&vendor) {
                let full = format!("{base}{vendor}");
                return grammar::core_inst_by_name(&full).map(|d| OpKind::Core(d.opcode));
            }
            return None;
        }
        grammar::core_inst_by_name(name).map(|d| OpKind::Core(d.opcode))
    }

    /// The grammar entry of a core instruction.
    pub fn core_desc(&self) -> Option<&'static InstDesc> {
        match self {
            OpKind::Core(op) => grammar::core_inst(*op),
            _ => None,
        }
    }

    /// The grammar entry of a GLSL.std.450 instruction.
    pub fn glsl_desc(&self) -> Option<&'static ExtInstDesc> {
        match self {
            OpKind::Glsl(op) => grammar::glsl_inst(*op),
            _ => None,
        }
    }

    /// Whether this is the core instruction `op`.
    pub fn is_core(&self, op: grammar::Opcode) -> bool {
        *self == OpKind::Core(op.opcode())
    }

    /// Whether the op ends a block (branches, returns, merge, kill, ...).
    pub fn is_terminator(&self) -> bool {
        match self {
            OpKind::Merge => true,
            OpKind::Core(_) => self.core_desc().is_some_and(|d| {
                matches!(
                    d.op,
                    grammar::Opcode::Branch
                        | grammar::Opcode::BranchConditional
                        | grammar::Opcode::Switch
                        | grammar::Opcode::Return
                        | grammar::Opcode::ReturnValue
                        | grammar::Opcode::Unreachable
                        | grammar::Opcode::Kill
                        | grammar::Opcode::TerminateInvocation
                        | grammar::Opcode::IgnoreIntersectionKHR
                        | grammar::Opcode::TerminateRayKHR
                        | grammar::Opcode::EmitMeshTasksEXT
                )
            }),
            _ => false,
        }
    }
}

/// MLIR's spelling of a core instruction name: vendor suffixes become a
/// prefix (`SubgroupBallotKHR` -> `KHR.SubgroupBallot`).
fn core_mlir_name(opname: &'static str) -> Cow<'static, str> {
    for vendor in VENDORS {
        if let Some(base) = opname.strip_suffix(vendor) {
            // Only when what is left is a proper name (`OpSDotKHR` -> `KHR.SDot`).
            if base
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            {
                return format!("{vendor}.{base}").into();
            }
        }
    }
    opname.into()
}

/// A successor of a branch op with the values passed to its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Successor {
    /// Target block.
    pub block: Block,
    /// Values bound to the target's block arguments.
    pub args: Vec<Value>,
}

/// The contents of an op.
#[derive(Clone, Debug)]
pub struct OpData {
    /// What the op is.
    pub kind: OpKind,
    /// SSA operands.
    pub operands: Vec<Value>,
    /// Results (at most one for valid spv ops).
    pub results: Vec<Value>,
    /// Named attributes, sorted by name.
    pub attrs: Vec<(String, Attr)>,
    /// Successor blocks (branch ops).
    pub successors: Vec<Successor>,
    /// Nested regions.
    pub regions: Vec<Region>,
    /// Source location.
    pub loc: Location,
    /// The block holding this op, once inserted.
    pub parent: Option<Block>,
}

impl OpData {
    /// The attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<Attr> {
        self.attrs
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| self.attrs[i].1)
    }

    /// The single result, if any.
    pub fn result(&self) -> Option<Value> {
        self.results.first().copied()
    }
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The `index`-th result of an op.
    Result(Op, u32),
    /// The `index`-th argument of a block.
    BlockArg(Block, u32),
}

/// The contents of a value.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
}

/// The contents of a block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Block arguments (the dialect's replacement for `OpPhi`).
    pub args: Vec<Value>,
    /// Ops in order; the last one is the terminator.
    pub ops: Vec<Op>,
    /// The region holding the block.
    pub parent: Option<Region>,
    /// Source location of the block label, if parsed.
    pub loc: Location,
}

/// The contents of a region.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    /// Blocks in order; the first is the entry block.
    pub blocks: Vec<Block>,
    /// The op owning the region.
    pub parent: Option<Op>,
}
