//! The serializer: spv IR -> SPIR-V binary words.
//!
//! [`serialize`] turns one [`Module`] into a SPIR-V module in the logical
//! layout the specification requires (section 2.4):
//!
//! 1. `OpCapability` / `OpExtension` from the `vce_triple` attribute (the
//!    header's version is the triple's version, 1.0 without a triple);
//! 2. `OpExtInstImport "GLSL.std.450"`, only when a `GL.*` op is used;
//! 3. `OpMemoryModel` from `addressing_model` / `memory_model`;
//! 4. `OpEntryPoint`s, then `OpExecutionMode(Id)`s, in module order;
//! 5. `OpName` for functions, global variables, specialization constants
//!    and identified structs;
//! 6. decorations: layout (`ArrayStride`, `Offset`, member decorations,
//!    `Block` on the pointee struct of interface variables), `SpecId`, the
//!    decoration attributes of ops and of function parameters;
//! 7. types, constants and global variables, deduplicated and each emitted
//!    after everything it refers to;
//! 8. functions, with structured control flow flattened into blocks with
//!    merge instructions and block arguments turned into `OpPhi`.
//!
//! The transformations follow MLIR's serializer (see the dialect's
//! "Serialization and deserialization" notes): `spv.Constant`s, which the
//! dialect localizes into functions, are unified in the types section;
//! `spv.mlir.addressof` / `spv.mlir.referenceof` emit nothing and stand for
//! the id of the variable / specialization constant; every `spv.Variable`
//! of a function is hoisted to the start of its entry block.
//!
//! Work is split like MLIR's `Serializer.cpp` / `SerializeOps.cpp`:
//! this file holds the module-level work (sections, symbols, entry points,
//! decorations), `types.rs` and `constants.rs` the types section, `ops.rs`
//! the per-op encoding driven by [`crate::ir::schema`], and `control_flow.rs`
//! functions, blocks, structured constructs and phis. Functions named
//! `process_*` emit an entity whole; `prepare_*` ones compute what an
//! emission needs (an id, operands) and may emit its dependencies.
//!
//! Ids live in side tables keyed by IR handles (never in the IR). Every id
//! the serializer hands out is defined in the output; a value that is used
//! but never defined is an error, not a dangling id.

mod constants;
mod control_flow;
mod error;
mod ops;
pub(crate) mod tables;
mod types;

use std::collections::HashSet;
use std::sync::OnceLock;

use rspirv::binary::Assemble;
use rspirv::dr::{self, Instruction, Operand};
use rspirv::spirv;

pub use error::{OpProblem, SerializeError};

use crate::grammar::{self, Decoration, OperandCategory, OperandKind, StorageClass, Version};
use crate::ir::{Attr, AttrKind, Block, Module, Op, OpKind, Type, TypeKind, Value};

use self::constants::ConstKey;
use self::control_flow::FnState;
use self::tables::{FxHashMap, IdMap};
use self::types::TypeKey;

/// The deepest nesting of selections and loops the serializer writes
/// (deeper is [`OpProblem::TooDeep`]): what kiln's deserializer reads back
/// ([`MAX_NESTING`](crate::binary::deserialize::MAX_NESTING)), below
/// lavapipe's 80 (deeper selections it silently ignores).
pub const MAX_CONSTRUCT_DEPTH: usize = crate::binary::deserialize::MAX_NESTING;

/// Serializes `module` into SPIR-V words.
///
/// The module is expected to have passed the verifier; the serializer checks
/// what it relies on itself and reports violations as [`SerializeError`]s
/// with the op they are about.
pub fn serialize(module: &Module) -> Result<Vec<u32>, SerializeError> {
    Ok(serialize_to_dr(module)?.assemble())
}

/// Serializes `module` into rspirv's data representation, the sections
/// [`serialize`] assembles into words.
///
/// Operands are kept as the words they encode: ids as `IdRef`, 64-bit
/// literals as `LiteralBit64`, every other literal and enum value as
/// `LiteralBit32`. For typed operands (to disassemble with symbolic enum
/// names), load the words of [`serialize`] with `rspirv::dr::load_words`
/// (whose loader, as of rspirv 0.13, rejects `OpExecutionModeId`).
pub fn serialize_to_dr(module: &Module) -> Result<dr::Module, SerializeError> {
    let mut s = Serializer::new(module);
    s.process_module()?;
    // SPIR-V's universal limit on result ids (what the deserializer, and
    // every consumer, accepts): refuse rather than write a binary nobody
    // reads.
    if s.next_id > crate::binary::deserialize::reader::MAX_BOUND {
        return Err(s.err(
            module.top(),
            OpProblem::TooManyIds {
                ids: u64::from(s.next_id) - 1,
            },
        ));
    }
    Ok(s.finish())
}

/// Result type of fallible serializer steps.
pub(super) type Result<T, E = SerializeError> = std::result::Result<T, E>;

/// The serializer's state: output sections and the side tables mapping IR
/// entities to ids.
pub(super) struct Serializer<'m> {
    m: &'m Module,
    next_id: u32,
    version: Version,

    capabilities: Vec<Instruction>,
    extensions: Vec<Instruction>,
    ext_inst_imports: Vec<Instruction>,
    memory_model: Option<Instruction>,
    entry_points: Vec<Instruction>,
    execution_modes: Vec<Instruction>,
    debug_names: Vec<Instruction>,
    annotations: Vec<Instruction>,
    types_global_values: Vec<Instruction>,
    functions: Vec<dr::Function>,

    /// Id of the `GLSL.std.450` import, when a `GL.*` op is used.
    glsl_import: Option<u32>,
    /// Types already emitted, by IR handle.
    type_ids: IdMap<Type>,
    /// Types already emitted, by encoding (unifies `i32` / `ui32`).
    type_keys: FxHashMap<TypeKey, u32>,
    /// Constants already emitted, by encoding.
    const_keys: FxHashMap<ConstKey, u32>,
    /// Ids of SSA values (results, block arguments, aliases of constants,
    /// variables and specialization constants).
    value_ids: IdMap<Value>,
    /// Labels of blocks.
    block_ids: IdMap<Block>,
    /// Module-level ops by symbol name.
    symbols: FxHashMap<String, Op>,
    /// Ids of symbols: functions up front, variables and specialization
    /// constants once emitted.
    symbol_ids: FxHashMap<String, u32>,
    /// Symbols being emitted (cycle detection).
    in_progress: HashSet<String>,
    /// Struct ids already decorated `Block`.
    block_decorated: HashSet<u32>,
    /// The function being serialized.
    func: FnState,
}

impl<'m> Serializer<'m> {
    fn new(m: &'m Module) -> Self {
        Serializer {
            m,
            next_id: 1,
            version: Version::V1_0,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            ext_inst_imports: Vec::new(),
            memory_model: None,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            debug_names: Vec::new(),
            annotations: Vec::new(),
            types_global_values: Vec::new(),
            functions: Vec::new(),
            glsl_import: None,
            type_ids: IdMap::with_capacity(m.types.len()),
            type_keys: FxHashMap::default(),
            const_keys: FxHashMap::default(),
            value_ids: IdMap::with_capacity(m.value_count()),
            block_ids: IdMap::with_capacity(m.block_count()),
            symbols: FxHashMap::default(),
            symbol_ids: FxHashMap::default(),
            in_progress: HashSet::new(),
            block_decorated: HashSet::new(),
            func: FnState::default(),
        }
    }

    /// Assembles the sections into an rspirv module.
    fn finish(self) -> dr::Module {
        // The generator word is rspirv's (registered tool 15), which encodes
        // the binary.
        let mut header = dr::ModuleHeader::new(self.next_id);
        header.set_version(self.version.major, self.version.minor);
        dr::Module {
            header: Some(header),
            capabilities: self.capabilities,
            extensions: self.extensions,
            ext_inst_imports: self.ext_inst_imports,
            memory_model: self.memory_model,
            entry_points: self.entry_points,
            execution_modes: self.execution_modes,
            debug_string_source: Vec::new(),
            debug_names: self.debug_names,
            debug_module_processed: Vec::new(),
            annotations: self.annotations,
            types_global_values: self.types_global_values,
            functions: self.functions,
        }
    }

    /// A fresh id.
    pub(super) fn next_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// An error about `op`.
    pub(super) fn err(&self, op: Op, problem: OpProblem) -> SerializeError {
        let data = self.m.op(op);
        SerializeError::Op {
            op: data.kind.name().into_owned(),
            handle: op,
            loc: data.loc,
            problem,
        }
    }

    /// The attribute `name` of `op`, or a missing-attribute error.
    pub(super) fn required_attr(&self, op: Op, name: &str) -> Result<Attr> {
        self.m
            .attr(op, name)
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr(name.to_string())))
    }

    /// A bad-attribute error.
    pub(super) fn bad_attr(&self, op: Op, name: &str, expected: &str) -> SerializeError {
        self.err(
            op,
            OpProblem::BadAttr {
                name: name.to_string(),
                expected: expected.to_string(),
            },
        )
    }

    /// The value of the enum attribute `name` of `op` (of operand kind
    /// `kind`); `None` when absent.
    pub(super) fn enum_attr(&self, op: Op, name: &str, kind: OperandKind) -> Result<Option<u32>> {
        let Some(attr) = self.m.attr(op, name) else {
            return Ok(None);
        };
        match self.m.attrs.kind(attr) {
            AttrKind::Enum { kind: k, value } if *k == kind => Ok(Some(*value)),
            AttrKind::Int { value, .. } => u32::try_from(*value)
                .map(Some)
                .map_err(|_| self.bad_attr(op, name, &format!("a #spv.{} value", kind.name()))),
            _ => Err(self.bad_attr(op, name, &format!("a #spv.{} value", kind.name()))),
        }
    }

    // ---- module level ---------------------------------------------------

    /// Emits the whole module.
    fn process_module(&mut self) -> Result<()> {
        let top = self.m.top();
        if self.m.op(top).kind != OpKind::Module {
            return Err(self.err(
                top,
                OpProblem::Structure("the top op is not a spv.module".into()),
            ));
        }
        self.process_module_attrs(top)?;
        self.prepare_symbols()?;
        self.prepare_ext_inst_imports();
        let m = self.m;
        for &op in m.module_ops() {
            match m.op(op).kind {
                OpKind::GlobalVariable => {
                    self.process_global_variable(op)?;
                }
                OpKind::SpecConstant | OpKind::SpecConstantComposite => {
                    self.process_spec_constant(op)?;
                }
                OpKind::Func => self.process_func(op)?,
                OpKind::EntryPoint => self.process_entry_point(op)?,
                OpKind::ExecutionMode => self.process_execution_mode(op)?,
                _ => {
                    return Err(self.err(
                        op,
                        OpProblem::Structure("op is not allowed directly in spv.module".into()),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Capabilities, extensions, memory model and header version.
    fn process_module_attrs(&mut self, top: Op) -> Result<()> {
        if let Some(attr) = self.m.attr(top, "vce_triple") {
            let AttrKind::Vce(vce) = self.m.attrs.kind(attr) else {
                return Err(self.bad_attr(top, "vce_triple", "a #spv.vce triple"));
            };
            if vce.version < Version::V1_0 || vce.version > grammar::GRAMMAR_VERSION {
                return Err(self.err(
                    top,
                    OpProblem::Unsupported(format!("SPIR-V version {}", vce.version)),
                ));
            }
            self.version = vce.version;
            for &cap in &vce.capabilities {
                self.capabilities.push(inst(
                    spirv::Op::Capability,
                    None,
                    None,
                    vec![Operand::LiteralBit32(cap as u32)],
                ));
            }
            for &ext in &vce.extensions {
                self.extensions.push(inst(
                    spirv::Op::Extension,
                    None,
                    None,
                    vec![Operand::LiteralString(ext.name().to_string())],
                ));
            }
        }
        let addressing = self
            .enum_attr(top, "addressing_model", OperandKind::AddressingModel)?
            .ok_or_else(|| self.err(top, OpProblem::MissingAttr("addressing_model".into())))?;
        let memory = self
            .enum_attr(top, "memory_model", OperandKind::MemoryModel)?
            .ok_or_else(|| self.err(top, OpProblem::MissingAttr("memory_model".into())))?;
        self.memory_model = Some(inst(
            spirv::Op::MemoryModel,
            None,
            None,
            vec![
                Operand::LiteralBit32(addressing),
                Operand::LiteralBit32(memory),
            ],
        ));
        Ok(())
    }

    /// Builds the symbol table and gives every function its id up front (calls
    /// and entry points may precede the callee).
    fn prepare_symbols(&mut self) -> Result<()> {
        let m = self.m;
        for &op in m.module_ops() {
            let Some(name) = m.symbol_name(op) else {
                continue;
            };
            let name = name.to_string();
            if self.symbols.insert(name.clone(), op).is_some() {
                return Err(self.err(op, OpProblem::DuplicateSymbol(name)));
            }
            if self.m.op(op).kind == OpKind::Func {
                let id = self.next_id();
                self.symbol_ids.insert(name, id);
            }
        }
        Ok(())
    }

    /// `OpExtInstImport "GLSL.std.450"` when any `GL.*` op is used.
    fn prepare_ext_inst_imports(&mut self) {
        let mut uses_glsl = false;
        self.m.walk(self.m.top(), &mut |op| {
            uses_glsl |= matches!(self.m.op(op).kind, OpKind::Glsl(_));
        });
        if uses_glsl {
            let id = self.next_id();
            self.ext_inst_imports.push(inst(
                spirv::Op::ExtInstImport,
                None,
                Some(id),
                vec![Operand::LiteralString("GLSL.std.450".into())],
            ));
            self.glsl_import = Some(id);
        }
    }

    /// Resolves the symbol reference attribute `attr_name` of `user` to the
    /// id of what it names, emitting variables and specialization constants
    /// on first use. `expected` lists the op kinds the reference may name.
    pub(super) fn prepare_symbol_ref(
        &mut self,
        user: Op,
        attr_name: &str,
        expected: SymbolKind,
    ) -> Result<u32> {
        let m = self.m;
        let attr = self.required_attr(user, attr_name)?;
        let Some(name) = m.attrs.as_symbol(attr) else {
            return Err(self.bad_attr(user, attr_name, "a symbol reference"));
        };
        self.prepare_symbol(user, name, expected)
    }

    /// The id of symbol `name` (see [`Serializer::prepare_symbol_ref`]).
    pub(super) fn prepare_symbol(
        &mut self,
        user: Op,
        name: &str,
        expected: SymbolKind,
    ) -> Result<u32> {
        let Some(&op) = self.symbols.get(name) else {
            return Err(self.err(user, OpProblem::UnknownSymbol(name.to_string())));
        };
        let kind = &self.m.op(op).kind;
        if !expected.accepts(kind) {
            return Err(self.err(
                user,
                OpProblem::WrongSymbol {
                    name: name.to_string(),
                    expected: expected.describe(),
                },
            ));
        }
        if let Some(&id) = self.symbol_ids.get(name) {
            return Ok(id);
        }
        match kind {
            OpKind::GlobalVariable => self.process_global_variable(op),
            _ => self.process_spec_constant(op),
        }
    }

    /// Marks `name` as being emitted; errors on a cycle.
    pub(super) fn enter_symbol(&mut self, op: Op, name: &str) -> Result<()> {
        if !self.in_progress.insert(name.to_string()) {
            return Err(self.err(op, OpProblem::SymbolCycle(name.to_string())));
        }
        Ok(())
    }

    /// Records the id of symbol `name` once emitted.
    pub(super) fn leave_symbol(&mut self, name: &str, id: u32) {
        self.in_progress.remove(name);
        self.symbol_ids.insert(name.to_string(), id);
    }

    /// `OpName %id "name"`.
    pub(super) fn emit_name(&mut self, id: u32, name: &str) {
        self.debug_names.push(inst(
            spirv::Op::Name,
            None,
            None,
            vec![Operand::IdRef(id), Operand::LiteralString(name.to_string())],
        ));
    }

    /// `spv.GlobalVariable` -> `OpVariable` in the types section (+ name,
    /// decorations, `Block` on an interface struct). Returns its id.
    pub(super) fn process_global_variable(&mut self, op: Op) -> Result<u32> {
        let name = self
            .m
            .symbol_name(op)
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr("sym_name".into())))?
            .to_string();
        if let Some(&id) = self.symbol_ids.get(&name) {
            return Ok(id);
        }
        self.enter_symbol(op, &name)?;
        let ty_attr = self.required_attr(op, "type")?;
        let ptr = self
            .m
            .attrs
            .as_type(ty_attr)
            .ok_or_else(|| self.bad_attr(op, "type", "a pointer type"))?;
        let Some((pointee, storage_class)) = self.m.types.pointer_parts(ptr) else {
            return Err(self.bad_attr(op, "type", "a pointer type"));
        };
        let ty_id = self.prepare_type(op, ptr)?;
        let mut operands = vec![Operand::LiteralBit32(storage_class as u32)];
        if self.m.attr(op, "initializer").is_some() {
            let init = self.prepare_symbol_ref(op, "initializer", SymbolKind::Initializer)?;
            operands.push(Operand::IdRef(init));
        }
        let id = self.next_id();
        self.types_global_values
            .push(inst(spirv::Op::Variable, Some(ty_id), Some(id), operands));
        if is_interface_storage(storage_class) {
            // A block, or an array of blocks (an array of descriptors).
            let block = match self.m.types.kind(pointee) {
                TypeKind::Array { element, .. } | TypeKind::RuntimeArray { element, .. } => {
                    *element
                }
                _ => pointee,
            };
            if let TypeKind::Struct(_) = self.m.types.kind(block) {
                let struct_id = self.prepare_type(op, block)?;
                self.decorate_block(struct_id);
            }
        }
        self.emit_name(id, &name);
        self.process_decorations(op, id, &|n| {
            matches!(n, "sym_name" | "type" | "initializer")
        })?;
        self.leave_symbol(&name, id);
        Ok(id)
    }

    /// `Block` on a struct, once.
    fn decorate_block(&mut self, struct_id: u32) {
        if self.block_decorated.insert(struct_id) {
            self.emit_decorate(struct_id, Decoration::Block, Vec::new());
        }
    }

    /// `spv.EntryPoint` -> `OpEntryPoint model %fn "name" %interface...`.
    fn process_entry_point(&mut self, op: Op) -> Result<()> {
        let model = self
            .enum_attr(op, "execution_model", OperandKind::ExecutionModel)?
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr("execution_model".into())))?;
        let fn_id = self.prepare_symbol_ref(op, "fn", SymbolKind::Function)?;
        let fn_attr = self.required_attr(op, "fn")?;
        let name = self
            .m
            .attrs
            .as_symbol(fn_attr)
            .unwrap_or_default()
            .to_string();
        let mut operands = vec![
            Operand::LiteralBit32(model),
            Operand::IdRef(fn_id),
            Operand::LiteralString(name),
        ];
        if let Some(attr) = self.m.attr(op, "interface") {
            let items = self
                .m
                .attrs
                .as_array(attr)
                .ok_or_else(|| self.bad_attr(op, "interface", "an array of symbol references"))?
                .to_vec();
            for item in items {
                let Some(var) = self.m.attrs.as_symbol(item) else {
                    return Err(self.bad_attr(op, "interface", "an array of symbol references"));
                };
                let var = var.to_string();
                let id = self.prepare_symbol(op, &var, SymbolKind::GlobalVariable)?;
                operands.push(Operand::IdRef(id));
            }
        }
        self.entry_points
            .push(inst(spirv::Op::EntryPoint, None, None, operands));
        Ok(())
    }

    /// `spv.ExecutionMode` -> `OpExecutionMode`, or `OpExecutionModeId` when
    /// the mode's parameters are ids (the values become `i32` constants).
    fn process_execution_mode(&mut self, op: Op) -> Result<()> {
        let fn_id = self.prepare_symbol_ref(op, "fn", SymbolKind::Function)?;
        let mode = self
            .enum_attr(op, "execution_mode", OperandKind::ExecutionMode)?
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr("execution_mode".into())))?;
        let desc = grammar::enumerant(OperandKind::ExecutionMode, mode)
            .ok_or_else(|| self.bad_attr(op, "execution_mode", "a known execution mode"))?;
        let takes_ids = desc
            .parameters
            .iter()
            .any(|p| p.kind.category() == OperandCategory::Id);
        let mut values = Vec::new();
        if let Some(attr) = self.m.attr(op, "values") {
            values = self
                .int_list(attr)
                .ok_or_else(|| self.bad_attr(op, "values", "an array of integers"))?;
        }
        let mut operands = vec![Operand::IdRef(fn_id), Operand::LiteralBit32(mode)];
        for v in values {
            let word = v as u32;
            operands.push(if takes_ids {
                Operand::IdRef(self.prepare_u32_constant(word))
            } else {
                Operand::LiteralBit32(word)
            });
        }
        let opcode = if takes_ids {
            spirv::Op::ExecutionModeId
        } else {
            spirv::Op::ExecutionMode
        };
        self.execution_modes
            .push(inst(opcode, None, None, operands));
        Ok(())
    }

    /// The integers of an `Array` (of `Int`) or `DenseArray` attribute.
    pub(super) fn int_list(&self, attr: Attr) -> Option<Vec<i128>> {
        match self.m.attrs.kind(attr) {
            AttrKind::Array(items) => items.iter().map(|&a| self.m.attrs.as_int(a)).collect(),
            AttrKind::DenseArray { values, .. } => Some(values.clone()),
            _ => None,
        }
    }

    // ---- decorations ------------------------------------------------------

    /// `OpDecorate %target decoration operands...` (or `OpDecorateString`
    /// when the operands are all strings: `UserSemantic`; a decoration with
    /// a string among other operands, `LinkageAttributes`, is an
    /// `OpDecorate`, valid in SPIR-V 1.0).
    pub(super) fn emit_decorate(
        &mut self,
        target: u32,
        decoration: Decoration,
        extra: Vec<Operand>,
    ) {
        let all_strings =
            !extra.is_empty() && extra.iter().all(|o| matches!(o, Operand::LiteralString(_)));
        let opcode = if all_strings {
            spirv::Op::DecorateString
        } else {
            spirv::Op::Decorate
        };
        let mut operands = vec![
            Operand::IdRef(target),
            Operand::LiteralBit32(decoration as u32),
        ];
        operands.extend(extra);
        self.annotations.push(inst(opcode, None, None, operands));
    }

    /// Emits every attribute of `op` that names a decoration (its name in
    /// CamelCase, `no_signed_wrap` -> `NoSignedWrap`, is a [`Decoration`]
    /// enumerant) and that `is_own` does not claim, as a decoration of
    /// `target`. Other attributes are ignored.
    pub(super) fn process_decorations(
        &mut self,
        op: Op,
        target: u32,
        is_own: &dyn Fn(&str) -> bool,
    ) -> Result<()> {
        let m = self.m;
        for (name, attr) in &m.op(op).attrs {
            let Some(decoration) = decoration_for_attr(name) else {
                continue;
            };
            if is_own(name) {
                continue;
            }
            if let Some(extra) = self.prepare_decoration_operands(op, name, decoration, *attr)? {
                self.emit_decorate(target, decoration, extra);
            }
        }
        Ok(())
    }

    /// Whether `op` carries any decoration attribute that `is_own` does not
    /// claim.
    pub(super) fn has_decorations(&self, op: Op, is_own: &dyn Fn(&str) -> bool) -> bool {
        self.m
            .op(op)
            .attrs
            .iter()
            .any(|(n, _)| !is_own(n) && decoration_for_attr(n).is_some())
    }

    /// The operands following the decoration in `OpDecorate`, from the
    /// attribute's value and the grammar's parameter list; `None` when the
    /// decoration is switched off (`false`).
    pub(super) fn prepare_decoration_operands(
        &mut self,
        op: Op,
        name: &str,
        decoration: Decoration,
        attr: Attr,
    ) -> Result<Option<Vec<Operand>>> {
        let fail = |s: &Self, reason: String| {
            s.err(
                op,
                OpProblem::Decoration {
                    name: name.to_string(),
                    reason,
                },
            )
        };
        let params = decoration.desc().parameters;
        let kind = self.m.attrs.kind(attr);
        if let AttrKind::Dialect {
            name: mnemonic,
            body,
        } = kind
        {
            return dialect_decoration_operands(params, mnemonic, body)
                .map(Some)
                .ok_or_else(|| {
                    fail(
                        self,
                        format!(
                            "#spv.{mnemonic}<{body}> is not a value of decoration {}",
                            decoration.name()
                        ),
                    )
                });
        }
        if params.is_empty() {
            return match kind {
                AttrKind::Unit | AttrKind::Bool(true) => Ok(Some(Vec::new())),
                AttrKind::Bool(false) => Ok(None),
                _ => Err(fail(
                    self,
                    "takes no value; expected a unit attribute".into(),
                )),
            };
        }
        let values: &[Attr] = if params.len() == 1 {
            std::slice::from_ref(&attr)
        } else {
            match kind {
                AttrKind::Array(items) if items.len() == params.len() => items,
                _ => {
                    return Err(fail(
                        self,
                        format!("expects an array of {} values", params.len()),
                    ))
                }
            }
        };
        let mut out = Vec::with_capacity(params.len());
        for (param, &value) in params.iter().zip(values) {
            let operand = self
                .decoration_operand(param.kind, value)
                .map_err(|e| fail(self, e.to_string()))?;
            out.push(operand);
        }
        Ok(Some(out))
    }

    /// One decoration parameter of kind `kind` from attribute `value`.
    fn decoration_operand(
        &self,
        kind: OperandKind,
        value: Attr,
    ) -> std::result::Result<Operand, DecorationOperandError> {
        let attrs = &self.m.attrs;
        match (kind.category(), kind, attrs.kind(value)) {
            (_, OperandKind::LiteralInteger, AttrKind::Int { value, .. }) => u32::try_from(*value)
                .map(Operand::LiteralBit32)
                .map_err(|_| DecorationOperandError::TooWide(*value)),
            (_, OperandKind::LiteralString, AttrKind::String(s)) => {
                Ok(Operand::LiteralString(s.clone()))
            }
            (
                OperandCategory::ValueEnum | OperandCategory::BitEnum,
                _,
                AttrKind::Enum { value, .. },
            ) => Ok(Operand::LiteralBit32(*value)),
            (OperandCategory::ValueEnum | OperandCategory::BitEnum, _, AttrKind::String(s)) => {
                grammar::parse_bits(kind, s)
                    .map(Operand::LiteralBit32)
                    .ok_or_else(|| DecorationOperandError::UnknownName {
                        name: s.clone(),
                        kind,
                    })
            }
            (
                OperandCategory::ValueEnum | OperandCategory::BitEnum,
                _,
                AttrKind::Int { value, .. },
            ) => u32::try_from(*value)
                .map(Operand::LiteralBit32)
                .map_err(|_| DecorationOperandError::UnknownValue {
                    value: *value,
                    kind,
                }),
            (OperandCategory::Id, _, _) => Err(DecorationOperandError::IdOperand),
            _ => Err(DecorationOperandError::WrongKind(kind)),
        }
    }
}

/// Why an attribute is not a decoration parameter of its operand kind.
#[derive(Debug, thiserror::Error)]
enum DecorationOperandError {
    /// An integer literal outside 32 bits.
    #[error("value {0} does not fit in 32 bits")]
    TooWide(i128),
    /// An enumerant name the operand kind does not have.
    #[error("'{name}' is not a {kind} enumerant")]
    UnknownName {
        /// The name given.
        name: String,
        /// The operand kind.
        kind: OperandKind,
    },
    /// An enumerant value outside 32 bits.
    #[error("value {value} is not a {kind} enumerant")]
    UnknownValue {
        /// The value given.
        value: i128,
        /// The operand kind.
        kind: OperandKind,
    },
    /// An `<id>` parameter (not supported).
    #[error("decorations taking an <id> operand are not supported")]
    IdOperand,
    /// An attribute of another kind.
    #[error("expects a {0} value")]
    WrongKind(OperandKind),
}

/// The operands of a decoration written as MLIR's dialect attribute: a
/// bit or value enum (`#spirv.fastmath_mode<NotNaN|NSZ>` for
/// `FPFastMathMode`), or `#spirv.linkage_attributes<linkage_name = "n",
/// linkage_type = <Import>>` for `LinkageAttributes`; `None` when `body`
/// does not fit the decoration's parameters.
fn dialect_decoration_operands(
    params: &[grammar::OperandDesc],
    mnemonic: &str,
    body: &str,
) -> Option<Vec<Operand>> {
    let enum_operand = |kind: OperandKind, text: &str| {
        matches!(
            kind.category(),
            OperandCategory::ValueEnum | OperandCategory::BitEnum
        )
        .then(|| grammar::parse_bits(kind, text.trim()))
        .flatten()
        .map(Operand::LiteralBit32)
    };
    match (mnemonic, params) {
        ("linkage_attributes", [name, ty])
            if name.kind == OperandKind::LiteralString && ty.kind == OperandKind::LinkageType =>
        {
            let field = |key: &str| {
                let at = body.find(key)? + key.len();
                let rest = body[at..].trim_start().strip_prefix('=')?.trim_start();
                Some(rest)
            };
            let linkage_name = field("linkage_name")?
                .strip_prefix('"')?
                .split('"')
                .next()?;
            let linkage_type = field("linkage_type")?
                .strip_prefix('<')?
                .split('>')
                .next()?;
            Some(vec![
                Operand::LiteralString(linkage_name.to_string()),
                enum_operand(ty.kind, linkage_type)?,
            ])
        }
        (_, [param]) => Some(vec![enum_operand(param.kind, body)?]),
        _ => None,
    }
}

/// What a symbol reference may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SymbolKind {
    /// A `spv.func`.
    Function,
    /// A `spv.GlobalVariable`.
    GlobalVariable,
    /// A `spv.SpecConstant` or `spv.SpecConstantComposite`.
    SpecConstant,
    /// A global variable's initializer: a variable or a specialization
    /// constant.
    Initializer,
}

impl SymbolKind {
    fn accepts(self, kind: &OpKind) -> bool {
        match self {
            SymbolKind::Function => *kind == OpKind::Func,
            SymbolKind::GlobalVariable => *kind == OpKind::GlobalVariable,
            SymbolKind::SpecConstant => {
                matches!(kind, OpKind::SpecConstant | OpKind::SpecConstantComposite)
            }
            SymbolKind::Initializer => matches!(
                kind,
                OpKind::GlobalVariable | OpKind::SpecConstant | OpKind::SpecConstantComposite
            ),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            SymbolKind::Function => "a spv.func",
            SymbolKind::GlobalVariable => "a spv.GlobalVariable",
            SymbolKind::SpecConstant => "a specialization constant",
            SymbolKind::Initializer => "a spv.GlobalVariable or specialization constant",
        }
    }
}

/// Storage classes whose struct pointees are interface blocks (`Block`).
fn is_interface_storage(sc: StorageClass) -> bool {
    matches!(
        sc,
        StorageClass::StorageBuffer
            | StorageClass::Uniform
            | StorageClass::PushConstant
            | StorageClass::PhysicalStorageBuffer
    )
}

/// The decoration an attribute name stands for: the name in CamelCase
/// (`no_signed_wrap` -> `NoSignedWrap`; names already in CamelCase stay),
/// compared without regard to case so `fp_fast_math_mode` finds
/// `FPFastMathMode`. Dotted (dialect) names are never decorations.
pub(super) fn decoration_for_attr(name: &str) -> Option<Decoration> {
    static NAMES: OnceLock<FxHashMap<Vec<u8>, Decoration>> = OnceLock::new();
    // Longer than any decoration name (the longest has 42 characters).
    const MAX: usize = 64;
    if name.is_empty() || name.len() > MAX || name.contains('.') {
        return None;
    }
    let table = NAMES.get_or_init(|| {
        let mut map = FxHashMap::default();
        for &d in Decoration::all() {
            let desc = d.desc();
            for n in std::iter::once(&desc.name).chain(desc.aliases) {
                let mut buf = [0u8; MAX];
                if let Some(key) = normalize(n, &mut buf) {
                    map.entry(key.to_vec()).or_insert(d);
                }
            }
        }
        map
    });
    let mut buf = [0u8; MAX];
    table.get(normalize(name, &mut buf)?).copied()
}

/// `name` in lower case without underscores, written into `buf`; `None`
/// when it does not fit.
fn normalize<'b>(name: &str, buf: &'b mut [u8]) -> Option<&'b [u8]> {
    let mut len = 0;
    for b in name.bytes().filter(|&b| b != b'_') {
        *buf.get_mut(len)? = b.to_ascii_lowercase();
        len += 1;
    }
    Some(&buf[..len])
}

/// An instruction with rspirv's grammar entry for `opcode`.
pub(super) fn inst(
    opcode: spirv::Op,
    result_type: Option<u32>,
    result_id: Option<u32>,
    operands: Vec<Operand>,
) -> Instruction {
    let class = grammar_class(opcode as u32)
        // Invariant: rspirv's table lists every opcode of its `spirv` crate.
        .expect("rspirv's instruction table covers every spirv::Op");
    Instruction {
        class,
        result_type,
        result_id,
        operands,
    }
}

/// rspirv's grammar entry for a raw opcode, if its tables know it.
pub(super) fn grammar_class(opcode: u32) -> Option<&'static rspirv::grammar::Instruction<'static>> {
    static TABLE: OnceLock<FxHashMap<u32, &'static rspirv::grammar::Instruction<'static>>> =
        OnceLock::new();
    TABLE
        .get_or_init(|| {
            rspirv::grammar::INSTRUCTION_TABLE
                .iter()
                .map(|i| (i.opcode as u32, i))
                .collect()
        })
        .get(&opcode)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoration_names() {
        assert_eq!(
            decoration_for_attr("no_signed_wrap"),
            Some(Decoration::NoSignedWrap)
        );
        assert_eq!(
            decoration_for_attr("NoSignedWrap"),
            Some(Decoration::NoSignedWrap)
        );
        assert_eq!(decoration_for_attr("built_in"), Some(Decoration::BuiltIn));
        assert_eq!(
            decoration_for_attr("descriptor_set"),
            Some(Decoration::DescriptorSet)
        );
        assert_eq!(decoration_for_attr("sym_name"), None);
        assert_eq!(decoration_for_attr("spirv.decoration"), None);
    }
}
