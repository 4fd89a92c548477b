//! The IR verifier: checks that a [`Module`] is a well-formed `spv.module`.
//!
//! [`verify`] walks the whole module once and collects **every** violation
//! it finds (it does not stop at the first), each as a [`VerifyError`] that
//! names the op, its source location and what was expected instead. Checks
//! that depend on something already reported as broken are skipped, so one
//! mistake yields one error rather than a cascade.
//!
//! The rules follow MLIR's SPIR-V dialect (`SPIRVOps.cpp` and the op
//! definitions; MLIR 19 semantics: structured control flow ops produce no
//! results and `spv.mlir.merge` takes no operands) plus the SPIR-V rules the
//! serializer relies on. Below, "value" means an SSA value and "type equal"
//! means handle equality of interned types (so `i32`, `si32` and `ui32` are
//! three different types, as in MLIR).
//!
//! # Invariants
//!
//! ## Handles and links (`structure.rs`)
//! * S1. Every operand, successor argument and successor block handle is in
//!   range, and so is the type of every result and block argument; no op is
//!   placed twice; every op, block and region placed in the tree points back
//!   at its parent (`OpData::parent`, `BlockData::parent`,
//!   `RegionData::parent`). Attribute handles are trusted (the attribute
//!   store does not expose its size).
//! * S2. No op has more than one result; only grammar ops (branches) have
//!   successors.
//!
//! ## Module (`structure.rs`)
//! * M1. The top op is a `spv.module` with no operands, results or
//!   successors and exactly one region holding exactly one block without
//!   arguments.
//! * M2. `addressing_model` and `memory_model` are present and are enum
//!   attributes of the right kind; `vce_triple`, when present, is a VCE
//!   attribute.
//! * M3. The module body holds only module-level ops: `spv.func`,
//!   `spv.GlobalVariable`, `spv.SpecConstant`, `spv.SpecConstantComposite`,
//!   `spv.EntryPoint`, `spv.ExecutionMode`.
//! * M4. The module is closed: an op of another dialect ([`OpKind::Foreign`])
//!   anywhere inside it is an error reported at that op's location.
//! * M5. Module-level ops have no operands, results, successors or regions
//!   (except `spv.func`, which has exactly one region).
//!
//! ## Functions (`structure.rs`, `control_flow.rs`)
//! * F1. `sym_name` is a string; `function_type` is present and is a function
//!   type with at most one result; `function_control`, when present, is a
//!   `FunctionControl` enum; `arg_attrs`, when present, is an array with one
//!   dictionary per parameter.
//! * F2. A function with a body has an entry block whose arguments match the
//!   function type's inputs in number and type (a function without blocks is
//!   a declaration and is accepted).
//! * F3. No nested `spv.func`, `spv.module` or other module-level op inside a
//!   function.
//! * F4. Every block of every region inside a function is non-empty, ends in
//!   a terminator, and has no terminator anywhere but at its end.
//! * F5. `spv.ReturnValue` returns a value of the function's result type;
//!   `spv.Return` only appears in functions without a result.
//! * F6. `spv.Unreachable` is not in the entry block of a region.
//!
//! ## Isolation and dominance (`structure.rs`, `dominance.rs`)
//! * D1. Every operand and successor argument of an op inside a function is
//!   defined inside the same function (functions are isolated from above:
//!   module-level values are reached through `spv.mlir.addressof` and
//!   `spv.mlir.referenceof`, constants are localized).
//! * D2. Every such value dominates its use: it is a block argument of the
//!   user's block or of an enclosing block, an op result defined earlier in
//!   the user's block or in an enclosing block before the op holding the
//!   use, or defined in a block of the same region that dominates the using
//!   block (dominators computed per region over the successor graph; a use
//!   in a block unreachable from its region's entry is not checked, as in
//!   MLIR). Values defined inside a selection or loop are not visible after
//!   it.
//!
//! ## Successors and block arguments (`control_flow.rs`)
//! * B1. Successor blocks belong to the same region as the branching op.
//! * B2. The arguments passed to a successor match the target block's
//!   arguments in number and type.
//! * B3. The entry block of a region has no predecessors.
//! * B4. `spv.BranchConditional` has a scalar `i1` condition and, when
//!   `branch_weights` is present, exactly two weights; `spv.Switch` has a
//!   scalar integer selector and one `literals` entry per non-default target.
//!
//! ## Structured control flow (`control_flow.rs`)
//! * C1. `spv.mlir.selection` and `spv.mlir.loop` have no operands, results
//!   or successors and exactly one region; `selection_control` /
//!   `loop_control`, when present, are enums of the right kind; an empty
//!   region is accepted (a degenerate construct, as in MLIR); the region's
//!   entry block and merge block take no arguments.
//! * C2. Selection: at least two blocks; the first (header) ends in
//!   `spv.BranchConditional` or `spv.Switch`; the last (merge) block holds
//!   exactly one op, `spv.mlir.merge`.
//! * C3. Loop: at least four blocks; the first (entry) block holds exactly
//!   one op, a `spv.Branch` to the second (header) block; the last (merge)
//!   block holds exactly one `spv.mlir.merge`; the second-to-last (continue)
//!   block branches to the header; no block other than the entry and
//!   continue blocks branches to the header.
//! * C4. `spv.mlir.merge` has no operands, appears only directly inside a
//!   selection or loop region, and only as the terminator of its last block.
//!
//! ## Symbols (`symbols.rs`)
//! * Y1. `spv.func`, `spv.GlobalVariable`, `spv.SpecConstant` and
//!   `spv.SpecConstantComposite` have a string `sym_name`; symbol names are
//!   unique in the module.
//! * Y2. `spv.mlir.addressof`: `variable` names a `spv.GlobalVariable`; the
//!   result type equals the variable's `type`.
//! * Y3. `spv.mlir.referenceof`: `spec_const` names a `spv.SpecConstant` or
//!   `spv.SpecConstantComposite`; the result type equals its type.
//! * Y4. `spv.FunctionCall`: `callee` names a `spv.func`; arguments match its
//!   inputs in number and type; it has a result of the callee's result type
//!   exactly when the callee returns one.
//! * Y5. `spv.EntryPoint`: `execution_model` is an `ExecutionModel` enum;
//!   `fn` names a `spv.func` (of any signature, as MLIR 19 takes it:
//!   spirv-val refuses parameters); every `interface` entry names a
//!   `spv.GlobalVariable`.
//! * Y6. `spv.ExecutionMode`: `fn` names a `spv.func` that is the `fn` of
//!   some `spv.EntryPoint`; `execution_mode` is an `ExecutionMode` enum;
//!   `values`, when present, is an array of integers.
//!
//! ## Global variables and specialization constants (`symbols.rs`)
//! * G1. `spv.GlobalVariable`: `type` is a pointer type whose storage class is
//!   not `Function`.
//! * G2. `descriptor_set` and `binding` are non-negative integers. As in
//!   MLIR 19 either may come alone and on any storage class (reflection
//!   needs both on a resource variable and says so).
//! * G3. `built_in`, when present, is the name of a `BuiltIn` enumerant (or a
//!   `BuiltIn` enum), and the variable's storage class is `Input` or
//!   `Output`.
//! * G4. `initializer`, when present, names a `spv.GlobalVariable` (of any
//!   pointer type, as MLIR 19 takes it) or a specialization constant (whose
//!   type is the pointee).
//! * G5. `spv.SpecConstant`: `default_value` is a scalar bool, integer or
//!   float attribute; `spec_id`, when present, is a non-negative integer.
//! * G6. `spv.SpecConstantComposite`: `type` is a composite type;
//!   `constituents` names specialization constants whose types fill the
//!   composite (one per struct member / array element / matrix column /
//!   vector component).
//!
//! ## Core instructions against the grammar (`operands.rs`)
//! * O1. Every `Core` and `Glsl` op is known to the grammar tables.
//! * O2. The number of SSA operands is within the bounds the grammar's id
//!   operands allow (optional ids add 0 or 1, variadic ids any number; each
//!   enumerant set in an enum attribute adds its id parameters as trailing
//!   operands: `image_operands = Bias` one more); the number of successors
//!   matches the label operands (`spv.Switch`: default plus one per literal).
//! * O3. The op has a result exactly when the grammar has `IdResult`
//!   (`spv.FunctionCall` is checked by Y4 instead).
//! * O4. Attributes for single (non-optional) literal or enum operands are
//!   present; every attribute the schema defines has the right kind: enum
//!   attributes of the operand's enum (`storage_class` is a `StorageClass`),
//!   scope / memory-semantics operands as `Scope` / `MemorySemantics` enums,
//!   integer literals as integers (arrays of integers when variadic), string
//!   literals as strings. A value enum names a grammar enumerant; an
//!   enumerant with literal parameters has its companion attribute
//!   (`memory_access = Aligned` needs `alignment`). Attributes the schema does
//!   not define are accepted (MLIR allows discardable attributes, and
//!   decorations are attributes).
//!
//! The ops MLIR models structurally are checked by their own rules instead:
//! `spv.Constant` (T9), `spv.mlir.addressof` (Y2), `spv.mlir.referenceof`
//! (Y3), `spv.mlir.merge` (C4), selection and loop (C1-C3).
//!
//! ## Operand and result types (`type_rules.rs`)
//! * T1. Integer arithmetic and bitwise ops (`IAdd` ... `UMod`, `SNegate`,
//!   `Not`, `Bitwise*`, `BitReverse`): operands and result have the same
//!   integer scalar/vector type; float arithmetic (`FAdd` ... `FNegate`): the
//!   same float type; GLSL float ops (`GL.Exp`, `GL.FMax`, ...): the same float
//!   type; GLSL `SAbs`, `SMin`, `UMax`, ...: the same integer type.
//! * T2. Shifts: base and shift are integers with the same number of
//!   components; the result has the base's type. `BitCount`, `GL.FindUMsb`,
//!   `GL.FindSMsb`, `GL.FindILsb`: integer operand, integer result with the
//!   same number of components. `BitFieldInsert` / `*Extract`: base, insert
//!   and result of one integer type, integer scalar offset and count.
//!   `GL.Length` / `GL.Distance`: float operand(s), the element type as
//!   result; `GL.Ldexp`: an integer exponent per component of `x`.
//! * T3. Comparisons (`IEqual` ... `ULessThanEqual`, `FOrd*`, `FUnord*`,
//!   `LogicalEqual`, `LogicalNotEqual`) and tests (`IsNan`, `IsInf`, ...):
//!   operands of the same integer / float / bool type; result `i1` or a
//!   vector of `i1` with the operands' number of components.
//!   `LogicalAnd`/`Or`/`Not`: bool operands and result of one type.
//!   `Any`/`All`: a bool vector operand, an `i1` result.
//! * T4. `Select`: bool scalar condition, or bool vector of the result's
//!   length; both choices and the result have one type.
//! * T5. Conversions: operand and result are scalars or vectors with equal
//!   numbers of components, of the classes the op converts between
//!   (`ConvertFToS` float -> integer, ...); `SConvert`/`UConvert` change the
//!   width, `FConvert` changes the type; `Bitcast` changes the type and keeps
//!   the total bit width (pointers convert freely).
//! * T6. `Load`/`Store`: the pointer operand is a pointer; the loaded /
//!   stored value's type is its pointee; a `storage_class` attribute, when
//!   present, equals the pointer's storage class. `CopyMemory`: both
//!   pointers have the same pointee.
//! * T16. Non-uniform group ops (`GroupNonUniform*`): the execution scope
//!   is `Workgroup` or `Subgroup`.
//! * T7. `AccessChain` / `InBoundsAccessChain` / `PtrAccessChain`: the base
//!   is a pointer; indices are integer scalars; indexing a struct needs an
//!   integer `spv.Constant` (of any width, as MLIR 19 and spirv-val take
//!   it) in range; the result is a pointer of the
//!   base's storage class to the type reached by walking the indices through
//!   struct / array / runtime array / vector / matrix types.
//! * T8. `CompositeExtract`/`CompositeInsert`: `indices` (at least one) are
//!   in range for the composite; the extracted type / inserted object equals
//!   the type reached; the insert's result has the composite's type. `CompositeConstruct`: the
//!   constituents fill the result (struct members, array elements, matrix
//!   columns, or scalars and vectors whose components add up to the result
//!   vector's length). `VectorShuffle`: two vectors of one element type; the
//!   result vector has that element type and one component per `components`
//!   entry, each selecting an existing component (or `0xFFFFFFFF`).
//!   `VectorExtractDynamic` / `VectorInsertDynamic`: element and index types.
//! * T9. `spv.Constant`: no operands, one result, a `value` attribute whose
//!   type equals the result type (integers, floats, `i1` from `true`/`false`,
//!   `dense<...>` with as many elements as the vector, arrays with one
//!   element attribute per array element).
//! * T10. `spv.Variable`: the result is a pointer with `Function` storage
//!   class, equal to the `storage_class` attribute; an initializer, when
//!   present, is the result of `spv.Constant`, `spv.mlir.addressof` or
//!   `spv.mlir.referenceof` and has the pointee type; no `descriptor_set`,
//!   `binding` or `built_in` attribute.
//! * T11. Atomics: the pointer operand's pointee, the value operands and the
//!   result share one type (integers for the integer atomics).
//! * T12. Subgroup ops: `GroupNonUniform*` arithmetic, broadcasts and
//!   shuffles have a value operand of the result's type (integer / float /
//!   bool as the op requires); `GroupNonUniformElect`/`All`/`Any`/`AllEqual`
//!   produce `i1`; `GroupNonUniformBallot` produces `vector<4xi32>`.
//! * T13. `IAddCarry`, `ISubBorrow`, `UMulExtended`, `SMulExtended`: both
//!   operands have one integer type and the result is a struct of two
//!   members of that type.
//! * T14. `Dot`: two float vectors of one type, result their element type;
//!   `VectorTimesScalar`: the scalar is the vector's element type.
//!
//! ## Cooperative matrices (`coop_matrix.rs`)
//! * T15. `KHR.CooperativeMatrixLoad` / `Store`: a pointer to a numeric
//!   scalar or vector in `StorageBuffer`, `Workgroup` or
//!   `PhysicalStorageBuffer` memory, an integer scalar stride, a
//!   `!spv.coopmatrix` result / object. `KHR.CooperativeMatrixMulAdd`: A, B
//!   and C have uses `MatrixA`, `MatrixB`, `MatrixAcc`, one scope and
//!   shapes M x K, K x N, M x N; the result has C's type; A and B are both
//!   integer or both float; `matrix_operands` other than `None` only on
//!   integer matrices. `KHR.CooperativeMatrixLength`: a cooperative matrix
//!   `cooperative_matrix_type` and an `i32` result. Elementwise ops on
//!   matrices: only `SNegate`, `FNegate`, `IAdd`, `FAdd`, `ISub`, `FSub`,
//!   `IMul`, `FMul`, `SDiv`, `UDiv`, `FDiv`, all operands and the result of
//!   one matrix type with integer / float elements as the op requires;
//!   conversions between matrices keep shape, scope and use;
//!   `CompositeConstruct` of a matrix takes one scalar of its element type;
//!   `CompositeExtract` / `CompositeInsert` reach an element (of the
//!   invocation's share) with one non-negative index.
//!
//! Ops outside these families are checked for the grammar rules (O1-O4),
//! isolation and dominance only.

mod attrs;
mod constants;
mod control_flow;
mod coop_matrix;
mod display;
mod dominance;
mod memory;
mod operands;
mod structure;
mod symbols;
mod type_rules;

use std::collections::HashMap;
use std::fmt;

use super::entity::{Block, Op, Region};
use super::module::Module;
use super::op::{Location, OpKind};

pub use display::TypeName;

/// One violation of an IR invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: '{op}' op {message}")]
pub struct VerifyError {
    /// Location of the offending op ([`Location::UNKNOWN`] for built ops).
    pub loc: Location,
    /// The op's name with the `spirv.` prefix (`spirv.IAdd`), or the full
    /// name of a foreign op.
    pub op: String,
    /// What is wrong and what was expected.
    pub message: String,
}

/// All violations found in a module, in walk order. `Display` prints one
/// error per line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl VerifyErrors {
    /// Iterates over the errors.
    pub fn iter(&self) -> std::slice::Iter<'_, VerifyError> {
        self.0.iter()
    }

    /// Number of errors.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no error.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyErrors {}

impl<'a> IntoIterator for &'a VerifyErrors {
    type Item = &'a VerifyError;
    type IntoIter = std::slice::Iter<'a, VerifyError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Verifies `module`, returning every violation found.
pub fn verify(module: &Module) -> Result<(), VerifyErrors> {
    let mut v = Verifier::new(module);
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(v.errors))
    }
}

/// The name of `kind` as the verifier reports it: `spirv.` + MLIR's name,
/// or a foreign op's own name.
pub(crate) fn op_name(kind: &OpKind) -> String {
    match kind {
        OpKind::Foreign(name) => name.clone(),
        k => format!("spirv.{}", k.name()),
    }
}

/// State of one verification run: the module, the errors found so far and
/// side tables computed on the way.
pub(crate) struct Verifier<'m> {
    pub(crate) m: &'m Module,
    pub(crate) errors: Vec<VerifyError>,
    /// Module-level symbol table (first definition wins).
    pub(crate) symbols: HashMap<&'m str, Op>,
    /// Position of every placed op in its block, indexed by op index.
    pub(crate) op_pos: Vec<u32>,
    /// Dominator trees, computed per region on first use.
    pub(crate) doms: HashMap<Region, dominance::DomTree>,
}

impl<'m> Verifier<'m> {
    fn new(m: &'m Module) -> Self {
        Verifier {
            m,
            errors: Vec::new(),
            symbols: HashMap::new(),
            op_pos: vec![u32::MAX; m.op_count()],
            doms: HashMap::new(),
        }
    }

    fn run(&mut self) {
        if !self.check_module_op() {
            return;
        }
        if !self.index_positions() {
            return;
        }
        self.collect_symbols();
        let body = self.m.body();
        for &op in &self.m.block(body).ops {
            self.check_module_level_op(op);
        }
    }

    /// Records an error about `op`.
    pub(crate) fn error(&mut self, op: Op, message: impl Into<String>) {
        let data = self.m.op(op);
        self.errors.push(VerifyError {
            loc: data.loc,
            op: op_name(&data.kind),
            message: message.into(),
        });
    }

    /// Records an error about `block`, attributed to the op owning its
    /// region and located at the block label when known.
    pub(crate) fn block_error(&mut self, owner: Op, block: Block, message: impl Into<String>) {
        let data = self.m.op(owner);
        let bloc = self.m.block(block).loc;
        self.errors.push(VerifyError {
            loc: if bloc.is_known() { bloc } else { data.loc },
            op: op_name(&data.kind),
            message: message.into(),
        });
    }

    /// The name `^bbN` of `block` (its position in its region).
    pub(crate) fn block_label(&self, block: Block) -> String {
        let pos = self
            .m
            .block(block)
            .parent
            .and_then(|r| self.m.region(r).blocks.iter().position(|&b| b == block));
        match pos {
            Some(i) => format!("^bb{i}"),
            None => format!("{block:?}"),
        }
    }

    /// Formats a type for messages.
    pub(crate) fn ty(&self, ty: super::entity::Type) -> TypeName<'m> {
        TypeName::new(&self.m.types, ty)
    }
}
