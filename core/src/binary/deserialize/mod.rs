//! The deserializer: SPIR-V binary words -> spv IR.
//!
//! [`deserialize`] reads one SPIR-V module into a [`Module`] that the
//! verifier accepts and the serializer turns back into an equivalent
//! binary. It is the inverse of [`super::serialize()`] and undoes the same
//! transformations (the dialect's "Serialization and deserialization"
//! notes):
//!
//! * `OpCapability` / `OpExtension` and the header's version become the
//!   module's `vce_triple`; `OpMemoryModel` its addressing and memory
//!   models; `OpExtInstImport "GLSL.std.450"` is implied by `GL.*` ops.
//! * `OpEntryPoint` / `OpExecutionMode(Id)` become `spv.EntryPoint` /
//!   `spv.ExecutionMode`; an entry point's name is its function's symbol.
//! * `OpName` gives functions, global variables and specialization
//!   constants their symbol names (made unique with a `_N` suffix; ids
//!   without a name get `spirv_fn_N`, `spirv_var_N`, `spirv_spec_N`) and
//!   identified structs their identifiers.
//! * Decorations become attributes of the op they decorate (MLIR's names:
//!   `descriptor_set`, `binding`, `built_in`, `no_signed_wrap`, ...), of
//!   the type (`ArrayStride`, `Offset`, member decorations), or of a
//!   function parameter (`arg_attrs`). `Block` is implied by the storage
//!   class of the variables of a struct and is dropped; a SPIR-V 1.0
//!   storage buffer (`Uniform` + `BufferBlock`) becomes the equivalent
//!   `StorageBuffer` + `Block` (adding `SPV_KHR_storage_buffer_storage_class`
//!   before SPIR-V 1.3), since the IR's structs carry no decorations.
//! * `OpType*` become interned types; `OpConstant*` (and module-level
//!   `OpUndef`) are materialized as `spv.Constant` (`spv.Undef`) where
//!   they are used; `OpSpecConstant*` become `spv.SpecConstant` /
//!   `spv.SpecConstantComposite` used through `spv.mlir.referenceof`;
//!   module-level `OpVariable`s become `spv.GlobalVariable` used through
//!   `spv.mlir.addressof`; function-level ones `spv.Variable` at the start
//!   of the function.
//! * Functions are rebuilt with structured control flow in
//!   `spv.mlir.selection` / `spv.mlir.loop` regions and `OpPhi` as block
//!   arguments (`structurize.rs`, `emit/`); values that the region form
//!   hides (defined in a construct, used after it) travel through function
//!   variables (`escapes.rs`).
//! * `OpSource*`, `OpString`, `OpModuleProcessed`, `OpMemberName`, names of
//!   other ids and non-semantic extended instructions are dropped; `OpLine`
//!   becomes op locations when [`DeserializeOptions::locations`] asks for
//!   them.
//!
//! Work is split as in MLIR's `Deserializer.cpp` / `DeserializeOps.cpp`:
//! [`reader`] decodes words generically from the grammar tables, this file
//! holds the module-level work, `types.rs`, `constants.rs`, `globals.rs`,
//! `decorations.rs` and `entry_points.rs` the module's declarations,
//! `ops.rs` the per-instruction decoding driven by [`crate::ir::schema`]
//! (the serializer's contract), `functions.rs` the function bodies,
//! `cfg.rs` / `structurize.rs` / `emit/` / `escapes.rs` the control flow and
//! `timeline.rs` where constants and variables go. Functions named
//! `process_*` handle one instruction or entity whole.
//!
//! The deserializer never panics: every malformed input is a
//! [`DeserializeError`] naming the instruction (word offset and opcode).
//! Nothing it does recurses over the input's nesting, so deep nesting
//! costs heap, not stack.

mod cfg;
mod constants;
mod decorations;
mod emit;
mod entry_points;
pub mod error;
mod escapes;
mod functions;
mod globals;
mod ops;
pub mod reader;
mod structurize;
mod timeline;
mod types;

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

pub use error::{At, DeserializeError};
pub use reader::check_words;

use crate::binary::serialize::tables::{FxHashMap, FxHasher};
use crate::grammar::{
    AddressingModel, Capability, Extension, MemoryModel, Opcode, OperandKind, Version,
};
use crate::ir::{Attr, AttrKind, Location, Module, Op, Type, Vce};

use self::decorations::Decorations;
use self::entry_points::{EntryPointInfo, ExecModeInfo};
use self::functions::FnBuilder;
use self::reader::Inst;

/// A hash set with the fast hasher.
type FxHashSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

/// Result type of the deserializer's steps.
type Result<T, E = DeserializeError> = std::result::Result<T, E>;

/// Options of [`deserialize_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeserializeOptions {
    /// Keep `OpLine` information as op locations (line and column).
    pub locations: bool,
    /// The deepest nesting accepted, of constructs in a function and of
    /// types in a type: deeper input is an error. The deserializer itself
    /// is iterative, but the IR's printer, verifier and serializer recurse
    /// over nesting (and the text parser stops at a depth of 100).
    pub max_nesting: usize,
}

/// The default [`DeserializeOptions::max_nesting`].
pub const MAX_NESTING: usize = 64;

impl Default for DeserializeOptions {
    fn default() -> Self {
        DeserializeOptions {
            locations: false,
            max_nesting: MAX_NESTING,
        }
    }
}

/// Reads the SPIR-V module `words` (either byte order) into the IR.
pub fn deserialize(words: &[u32]) -> Result<Module> {
    deserialize_with(words, &DeserializeOptions::default())
}

/// [`deserialize`] with options.
pub fn deserialize_with(words: &[u32], options: &DeserializeOptions) -> Result<Module> {
    let swapped = reader::host_order(words);
    let words = swapped.as_deref().unwrap_or(words);
    // Signedness as written (as MLIR reads it) when the result verifies;
    // when it does not and the module declares both signednesses of a
    // width, the two read as one signless type (see `types`).
    let faithful = read(words, options, Vec::new())?;
    let mixed = reader::mixed_signedness(words);
    if mixed.is_empty() || crate::ir::verify::verify(&faithful).is_ok() {
        return Ok(faithful);
    }
    read(words, options, mixed)
}

/// One pass over `words` (host order), reading the integer widths in
/// `signless` as signless whatever their signedness.
fn read(words: &[u32], options: &DeserializeOptions, signless: Vec<u32>) -> Result<Module> {
    let (header, mut reader) = reader::read_header(words)?;
    let mut d = Deserializer::new(header.version, *options);
    d.mixed_signedness = signless;
    d.next_body_label = next_body_labels(words);
    while let Some(inst) = reader.next_inst() {
        d.process_instruction(inst?)?;
    }
    d.finish(words.len())
}

/// For the entry label of each function body, the entry label of the next
/// body (a scan of the words: opcodes and word counts only).
fn next_body_labels(words: &[u32]) -> FxHashMap<u32, u32> {
    let mut firsts: Vec<u32> = Vec::new();
    let mut in_function = false;
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        let (count, opcode) = ((w >> 16) as usize, w & 0xffff);
        if count == 0 {
            break;
        }
        match opcode {
            54 => in_function = true,
            248 if in_function => {
                if let Some(&label) = words.get(i + 1) {
                    firsts.push(label);
                }
                in_function = false;
            }
            56 => in_function = false,
            _ => {}
        }
        i += count;
    }
    firsts.windows(2).map(|w| (w[0], w[1])).collect()
}

/// What an id of the module stands for.
#[derive(Clone, Debug)]
enum Def {
    /// A type (`OpTypeVoid` is `none`).
    Type(Type),
    /// A normal constant, materialized as `spv.Constant` at each use.
    Constant {
        /// Its type.
        ty: Type,
        /// Its value (`value` attribute of `spv.Constant`).
        value: Attr,
    },
    /// A module-level `OpUndef`, materialized as `spv.Undef` at each use.
    Undef(Type),
    /// A global variable, used through `spv.mlir.addressof`.
    Global {
        /// Its symbol.
        name: String,
        /// Its pointer type.
        ty: Type,
    },
    /// A specialization constant, used through `spv.mlir.referenceof`.
    Spec {
        /// Its symbol.
        name: String,
        /// Its type.
        ty: Type,
    },
    /// A function.
    Function {
        /// Its symbol.
        name: String,
    },
    /// An extended instruction set.
    ExtSet(ExtSet),
    /// An `OpString` or an `OpDecorationGroup`: only referenced by debug or
    /// annotation instructions.
    Other,
}

/// The extended instruction sets kiln knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExtSet {
    /// `GLSL.std.450`: `GL.*` ops.
    Glsl,
    /// `NonSemantic.*`: instructions without semantic effect, dropped.
    NonSemantic,
    /// Anything else: using it is an error.
    Other,
}

/// Sections of the logical module layout (SPIR-V 2.4), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Capabilities,
    Extensions,
    Imports,
    MemoryModel,
    EntryPoints,
    ExecutionModes,
    DebugStrings,
    Names,
    Processed,
    Annotations,
    Globals,
    Functions,
}

/// The deserializer's state.
struct Deserializer {
    m: Module,
    opts: DeserializeOptions,
    version: Version,
    section: Section,
    /// The first instruction of the current section (for layout errors).
    section_start: Option<At>,
    capabilities: Vec<Capability>,
    extensions: Vec<Extension>,
    memory_model: bool,
    entry_points: Vec<EntryPointInfo>,
    execution_modes: Vec<ExecModeInfo>,
    /// Entry point names by function id.
    entry_names: FxHashMap<u32, (String, At)>,
    /// The same names, as a set.
    entry_name_set: FxHashSet<String>,
    /// The next suffix to try for a symbol base (`base_N`).
    suffixes: FxHashMap<String, u64>,
    /// The nesting depth of each type read so far.
    type_depth: FxHashMap<Type, usize>,
    /// `OpName`s.
    names: FxHashMap<u32, String>,
    /// `OpString`s (file names of `OpLine`).
    strings: FxHashMap<u32, String>,
    /// Collected decorations.
    decorations: Decorations,
    /// Every id defined at module level.
    defs: FxHashMap<u32, Def>,
    /// Symbols given so far.
    symbols: FxHashSet<String>,
    /// The symbol of each symbol-bearing id.
    symbol_of: FxHashMap<u32, String>,
    /// Struct identifiers given so far.
    struct_names: FxHashSet<String>,
    /// `OpTypeForwardPointer`s not yet defined, with their storage class.
    forward_pointers: FxHashMap<u32, (u32, At)>,
    /// The function being read, from `OpFunction` to `OpFunctionEnd`.
    func: Option<FnBuilder>,
    /// The `OpLine` in effect, when locations are kept.
    line: Location,
    /// Whether a `BufferBlock` storage buffer was turned into a
    /// `StorageBuffer` one (the extension may need adding).
    upgraded_buffer_block: bool,
    /// `WorkgroupSize` from a `BuiltIn WorkgroupSize` constant.
    workgroup_size_constant: Option<(At, Vec<u32>)>,
    /// Structs decorated `Block`.
    block_structs: FxHashSet<Type>,
    /// Structs decorated `BufferBlock`.
    buffer_blocks: FxHashSet<Type>,
    /// Specialization constants standing for normal constants, by id.
    constant_specs: FxHashMap<u32, String>,
    /// The binary block (its `OpLabel` and label) each op comes from.
    op_origin: FxHashMap<Op, (At, u32)>,
    /// The binary block each IR block comes from.
    block_origin: FxHashMap<crate::ir::Block, (At, u32)>,
    /// Sorted ids of the module's constants, once functions begin.
    constant_ids: Option<Vec<u32>>,
    /// Each constituent left out of `constant_ids` (the serializer emitted
    /// it with a composite), with the smallest such composite's id (filled
    /// in with `constant_ids`).
    emitted_with: FxHashMap<u32, u32>,
    /// Each constituent of a composite constant, with the smallest id of a
    /// composite holding it (computed when first asked).
    constituents: Option<FxHashMap<u32, u32>>,
    /// For each function body's entry label, the next body's.
    next_body_label: FxHashMap<u32, u32>,
    /// The constituents of each `OpConstantComposite`.
    composite_parts: FxHashMap<u32, Vec<u32>>,
    /// Integer widths the module declares both signed and unsigned.
    mixed_signedness: Vec<u32>,
    /// Calls of functions not defined yet: (call, callee id).
    forward_calls: Vec<(At, u32)>,
}

impl Deserializer {
    fn new(version: Version, opts: DeserializeOptions) -> Self {
        Deserializer {
            m: Module::new(AddressingModel::Logical, MemoryModel::GLSL450, None),
            opts,
            version,
            section: Section::Capabilities,
            section_start: None,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            memory_model: false,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            entry_names: FxHashMap::default(),
            entry_name_set: FxHashSet::default(),
            suffixes: FxHashMap::default(),
            type_depth: FxHashMap::default(),
            names: FxHashMap::default(),
            strings: FxHashMap::default(),
            decorations: Decorations::default(),
            defs: FxHashMap::default(),
            symbols: FxHashSet::default(),
            symbol_of: FxHashMap::default(),
            struct_names: FxHashSet::default(),
            forward_pointers: FxHashMap::default(),
            func: None,
            line: Location::UNKNOWN,
            upgraded_buffer_block: false,
            workgroup_size_constant: None,
            block_structs: FxHashSet::default(),
            buffer_blocks: FxHashSet::default(),
            constant_specs: FxHashMap::default(),
            op_origin: FxHashMap::default(),
            block_origin: FxHashMap::default(),
            constant_ids: None,
            emitted_with: FxHashMap::default(),
            constituents: None,
            next_body_label: FxHashMap::default(),
            composite_parts: FxHashMap::default(),
            mixed_signedness: Vec::new(),
            forward_calls: Vec::new(),
        }
    }

    // ---- helpers -----------------------------------------------------------

    /// Records a module-level definition of `inst`'s result.
    fn define(&mut self, inst: &Inst, def: Def) -> Result<()> {
        let Some(id) = inst.result else {
            return Err(invalid(inst, "instruction has no result id"));
        };
        if self.defs.insert(id, def).is_some() {
            return Err(DeserializeError::Redefined { at: inst.at, id });
        }
        Ok(())
    }

    /// The type `id` names, defined before `inst`.
    fn type_of_id(&self, inst: &Inst, id: u32) -> Result<Type> {
        match self.defs.get(&id) {
            Some(Def::Type(t)) => Ok(*t),
            _ if self.forward_pointers.contains_key(&id) => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "%{id} is a forward-declared pointer used before its OpTypePointer (a recursive type); the IR's types cannot refer to themselves"
                ),
            }),
            _ => Err(DeserializeError::WrongId {
                at: inst.at,
                id,
                expected: "a type defined before this instruction",
            }),
        }
    }

    /// The result type of `inst`, which must name a type defined before it.
    fn result_type(&self, inst: &Inst) -> Result<Type> {
        match inst.result_type {
            Some(id) => self.type_of_id(inst, id),
            None => Err(invalid(inst, "instruction has no result type")),
        }
    }

    /// The symbol for `id`: its entry point name, else its `OpName`, else
    /// `{fallback}_{id}`; unique in the module.
    fn symbol(&mut self, id: u32, fallback: &str) -> String {
        if let Some(s) = self.symbol_of.get(&id) {
            return s.clone();
        }
        let name = match self.entry_names.get(&id) {
            Some((n, _)) => n.clone(),
            None => {
                let base = self
                    .names
                    .get(&id)
                    .filter(|n| !n.is_empty())
                    .cloned()
                    .unwrap_or_else(|| format!("{fallback}_{id}"));
                self.unique_symbol(&base)
            }
        };
        self.symbols.insert(name.clone());
        self.symbol_of.insert(id, name.clone());
        name
    }

    /// `base`, or `base_N` for the first N that is free.
    fn unique_symbol(&mut self, base: &str) -> String {
        if !self.symbols.contains(base) && !self.entry_name_set.contains(base) {
            return base.to_string();
        }
        // Suffixes already tried for this base are skipped: linear in the
        // number of names, however many share one.
        let start = self.suffixes.get(base).copied().unwrap_or(1);
        let mut n = start;
        loop {
            let s = format!("{base}_{n}");
            if !self.symbols.contains(&s) && !self.entry_name_set.contains(&s) {
                self.suffixes.insert(base.to_string(), n + 1);
                return s;
            }
            n += 1;
        }
    }

    /// Appends a module-level op.
    fn push_module_op(&mut self, op: Op) {
        let body = self.m.body();
        self.m.append_op(body, op);
    }

    /// The location for ops created now.
    fn loc(&self) -> Location {
        if self.opts.locations {
            self.line
        } else {
            Location::UNKNOWN
        }
    }

    /// The binary block (its `OpLabel` and label id) that defines `v`.
    fn origin_of_value(&self, v: crate::ir::Value) -> Option<(At, u32)> {
        match self.m.value(v).def {
            crate::ir::ValueDef::Result(op, _) => self.op_origin.get(&op).copied(),
            crate::ir::ValueDef::BlockArg(b, _) => self.block_origin.get(&b).copied(),
        }
    }

    /// The sorted ids of the module's normal constants (all defined before
    /// the first function) that the serializer emits on their own: not the
    /// constituents it emits right before the composite holding them
    /// (every id between them and the composite is a type or another
    /// constituent, and they are numbered in the order the serializer
    /// meets them in the composite). Fills in `emitted_with`.
    fn constant_ids(&mut self) -> &[u32] {
        let defs = &self.defs;
        let parts = &self.composite_parts;
        let emitted_with = &mut self.emitted_with;
        self.constant_ids.get_or_insert_with(|| {
            let implied = emitted_with;
            for (&c, direct) in parts {
                // Constituents, nested ones included.
                let mut closure: FxHashSet<u32> = FxHashSet::default();
                let mut stack = direct.clone();
                while let Some(p) = stack.pop() {
                    if closure.insert(p) {
                        if let Some(more) = parts.get(&p) {
                            stack.extend(more.iter().copied());
                        }
                    }
                }
                // Composites sit right after their parts: look a short
                // way only, so the check stays linear in the module.
                let mut run: Vec<u32> = closure
                    .iter()
                    .copied()
                    .filter(|&p| {
                        p < c
                            && c - p <= 64
                            && (p + 1..c).all(|i| {
                                closure.contains(&i) || matches!(defs.get(&i), Some(Def::Type(_)))
                            })
                    })
                    .collect();
                run.sort_unstable();
                // The serializer numbers the parts it emits with the
                // composite in the order it first meets them (nested
                // composites after their own parts): of the run, only the
                // largest top part in that order is; a part below it came
                // before, on its own.
                if run.is_empty() {
                    continue;
                }
                let mut at: FxHashMap<u32, usize> = FxHashMap::default();
                for (i, p) in first_met(direct, parts).into_iter().enumerate() {
                    if run.binary_search(&p).is_ok() {
                        at.insert(p, i);
                    }
                }
                let mut from = run.len() - 1;
                while from > 0 && at.get(&run[from - 1]) < at.get(&run[from]) {
                    from -= 1;
                }
                for &p in &run[from..] {
                    let e = implied.entry(p).or_insert(c);
                    *e = (*e).min(c);
                }
            }
            let mut ids: Vec<u32> = defs
                .iter()
                .filter_map(|(&id, d)| {
                    (matches!(d, Def::Constant { .. }) && !implied.contains_key(&id)).then_some(id)
                })
                .collect();
            ids.sort_unstable();
            ids
        })
    }

    /// Whether constant `id` is a constituent of a composite constant with
    /// a smaller id: a producer (MLIR) that numbers a composite before its
    /// parts. kiln's serializer numbers the parts first, so this never
    /// holds for its own output.
    fn is_late_constituent(&mut self, id: u32) -> bool {
        let parts = &self.composite_parts;
        let map = self.constituents.get_or_insert_with(|| {
            let mut map: FxHashMap<u32, u32> = FxHashMap::default();
            for (&c, direct) in parts {
                for &p in direct {
                    let e = map.entry(p).or_insert(c);
                    *e = (*e).min(c);
                }
            }
            map
        });
        map.get(&id).is_some_and(|&c| c < id)
    }

    /// `OpDecorate*` and the other annotations.
    fn process_annotation(&mut self, inst: &Inst) -> Result<()> {
        if inst.desc.op == Opcode::DecorationGroup {
            self.define(inst, Def::Other)?;
        }
        self.decorations.process(inst)
    }

    // ---- the instruction stream -------------------------------------------

    /// Checks that `inst` may appear in the logical layout here.
    fn enter_section(&mut self, inst: &Inst, section: Section) -> Result<()> {
        if section < self.section {
            let after = self
                .section_start
                .map(|a| format!(" after {} at word {}", a.opname(), a.offset))
                .unwrap_or_default();
            return Err(DeserializeError::Layout {
                at: inst.at,
                reason: format!(
                    "{} is out of place{after} (SPIR-V's logical module layout puts it earlier)",
                    inst.at.opname()
                ),
            });
        }
        if section > self.section {
            self.section = section;
            self.section_start = Some(inst.at);
        }
        Ok(())
    }

    fn process_instruction(&mut self, inst: Inst) -> Result<()> {
        if self.func.is_some() {
            return self.process_function_instruction(inst);
        }
        let op = inst.desc.op;
        match op {
            Opcode::Capability => {
                self.enter_section(&inst, Section::Capabilities)?;
                self.process_capability(&inst)
            }
            Opcode::Extension => {
                self.enter_section(&inst, Section::Extensions)?;
                self.process_extension(&inst)
            }
            Opcode::ExtInstImport => {
                self.enter_section(&inst, Section::Imports)?;
                self.process_ext_inst_import(&inst)
            }
            Opcode::MemoryModel => {
                self.enter_section(&inst, Section::MemoryModel)?;
                self.process_memory_model(&inst)
            }
            Opcode::EntryPoint => {
                self.enter_section(&inst, Section::EntryPoints)?;
                self.process_entry_point(&inst)
            }
            Opcode::ExecutionMode | Opcode::ExecutionModeId => {
                self.enter_section(&inst, Section::ExecutionModes)?;
                self.execution_modes.push(ExecModeInfo {
                    at: inst.at,
                    function: inst.id(0).unwrap_or(0),
                    mode: inst.word(1).unwrap_or(0),
                    values: inst.operands[2..].iter().map(|o| o.val.clone()).collect(),
                });
                Ok(())
            }
            Opcode::String => {
                self.enter_section(&inst, Section::DebugStrings)?;
                let s = inst.string(0).unwrap_or_default().to_string();
                if let Some(id) = inst.result {
                    self.strings.insert(id, s);
                }
                self.define(&inst, Def::Other)
            }
            Opcode::SourceExtension | Opcode::Source | Opcode::SourceContinued => {
                self.enter_section(&inst, Section::DebugStrings)
            }
            Opcode::Name => {
                self.enter_section(&inst, Section::Names)?;
                if let (Some(id), Some(name)) = (inst.id(0), inst.string(1)) {
                    self.names.insert(id, name.to_string());
                }
                Ok(())
            }
            Opcode::MemberName => self.enter_section(&inst, Section::Names),
            Opcode::ModuleProcessed => self.enter_section(&inst, Section::Processed),
            Opcode::Decorate
            | Opcode::MemberDecorate
            | Opcode::DecorateId
            | Opcode::DecorateString
            | Opcode::MemberDecorateString
            | Opcode::DecorationGroup
            | Opcode::GroupDecorate
            | Opcode::GroupMemberDecorate => {
                self.enter_section(&inst, Section::Annotations)?;
                self.process_annotation(&inst)
            }
            Opcode::Line | Opcode::NoLine => {
                self.enter_section(&inst, Section::Globals)?;
                self.process_line(&inst);
                Ok(())
            }
            Opcode::ExtInst => {
                self.enter_section(&inst, Section::Globals)?;
                // Module-level extended instructions are non-semantic (debug
                // info); they define ids only other such instructions use.
                match inst.id(0).and_then(|s| self.defs.get(&s)) {
                    Some(Def::ExtSet(ExtSet::NonSemantic)) => self.define(&inst, Def::Other),
                    _ => Err(DeserializeError::Unsupported {
                        at: inst.at,
                        what: "module-level OpExtInst of a semantic instruction set".into(),
                    }),
                }
            }
            Opcode::Function => {
                self.enter_section(&inst, Section::Functions)?;
                self.process_function(inst)
            }
            Opcode::Variable => {
                self.enter_section(&inst, Section::Globals)?;
                self.process_global_variable(&inst)
            }
            Opcode::Undef => {
                self.enter_section(&inst, Section::Globals)?;
                let ty = self.result_type(&inst)?;
                self.define(&inst, Def::Undef(ty))
            }
            _ if op.declares_type() => {
                self.enter_section(&inst, Section::Globals)?;
                self.process_type(&inst)
            }
            _ if op.creates_constant() => {
                self.enter_section(&inst, Section::Globals)?;
                self.process_constant(&inst)
            }
            _ => Err(DeserializeError::Layout {
                at: inst.at,
                reason: format!("{} outside a function", inst.at.opname()),
            }),
        }
    }

    fn process_function_instruction(&mut self, inst: Inst) -> Result<()> {
        match inst.desc.op {
            Opcode::Line | Opcode::NoLine => {
                self.process_line(&inst);
                Ok(())
            }
            Opcode::FunctionEnd => {
                let Some(builder) = self.func.take() else {
                    return Ok(());
                };
                self.process_function_end(builder, &inst)
            }
            _ => {
                let mut builder = self
                    .func
                    .take()
                    .ok_or_else(|| invalid(&inst, "no function"))?;
                let result = self.process_body_instruction(&mut builder, inst);
                self.func = Some(builder);
                result
            }
        }
    }

    /// `OpLine %file line column` / `OpNoLine`.
    fn process_line(&mut self, inst: &Inst) {
        if inst.desc.op == Opcode::NoLine {
            self.line = Location::UNKNOWN;
        } else {
            let line = inst.word(1).unwrap_or(0);
            let col = inst.word(2).unwrap_or(0);
            self.line = Location::new(line, col.max(1));
        }
    }

    // ---- module-level instructions ----------------------------------------

    fn process_capability(&mut self, inst: &Inst) -> Result<()> {
        let value = inst.word(0).unwrap_or(0);
        let cap = Capability::from_u32(value).ok_or(DeserializeError::UnknownEnumerant {
            at: inst.at,
            kind: OperandKind::Capability.name(),
            value,
        })?;
        if !self.capabilities.contains(&cap) {
            self.capabilities.push(cap);
        }
        Ok(())
    }

    fn process_extension(&mut self, inst: &Inst) -> Result<()> {
        let name = inst.string(0).unwrap_or_default();
        let ext = Extension::from_name(name).ok_or_else(|| DeserializeError::Unsupported {
            at: inst.at,
            what: format!("extension '{name}' is not in the grammar"),
        })?;
        if !self.extensions.contains(&ext) {
            self.extensions.push(ext);
        }
        Ok(())
    }

    fn process_ext_inst_import(&mut self, inst: &Inst) -> Result<()> {
        let name = inst.string(0).unwrap_or_default();
        let set = if name == "GLSL.std.450" {
            ExtSet::Glsl
        } else if name.starts_with("NonSemantic.") {
            ExtSet::NonSemantic
        } else {
            ExtSet::Other
        };
        self.define(inst, Def::ExtSet(set))
    }

    fn process_memory_model(&mut self, inst: &Inst) -> Result<()> {
        if self.memory_model {
            return Err(invalid(inst, "a second OpMemoryModel"));
        }
        self.memory_model = true;
        let top = self.m.top();
        let am = self
            .m
            .attrs
            .enumerant(OperandKind::AddressingModel, inst.word(0).unwrap_or(0));
        let mm = self
            .m
            .attrs
            .enumerant(OperandKind::MemoryModel, inst.word(1).unwrap_or(0));
        self.m.set_attr(top, "addressing_model", am);
        self.m.set_attr(top, "memory_model", mm);
        Ok(())
    }

    // ---- the end -------------------------------------------------------------

    /// Builds the entry points, execution modes and VCE triple, and checks
    /// that nothing is left open.
    fn finish(mut self, len: usize) -> Result<Module> {
        if let Some(f) = &self.func {
            return Err(DeserializeError::MissingFunctionEnd {
                at: f.at,
                function: f.id,
            });
        }
        if !self.memory_model {
            return Err(DeserializeError::NoMemoryModel { words: len });
        }
        if let Some((&id, &(_, at))) = self.forward_pointers.iter().min_by_key(|(id, _)| **id) {
            return Err(DeserializeError::Undefined { at, id });
        }
        for &(at, id) in &self.forward_calls {
            if !matches!(self.defs.get(&id), Some(Def::Function { .. })) {
                return Err(DeserializeError::WrongId {
                    at,
                    id,
                    expected: "a function",
                });
            }
        }
        self.decorations.check_all_used(&self.defs)?;
        self.process_workgroup_size_constant();
        for ep in std::mem::take(&mut self.entry_points) {
            self.process_entry_point_op(&ep)?;
        }
        for em in std::mem::take(&mut self.execution_modes) {
            self.process_execution_mode_op(&em)?;
        }
        let mut extensions = std::mem::take(&mut self.extensions);
        let storage_ext = Extension::SpvKhrStorageBufferStorageClass;
        if self.upgraded_buffer_block
            && self.version < Version::V1_3
            && !extensions.contains(&storage_ext)
        {
            extensions.push(storage_ext);
        }
        let vce = Vce {
            version: self.version,
            capabilities: std::mem::take(&mut self.capabilities),
            extensions,
        };
        let attr = self.m.attrs.intern(AttrKind::Vce(vce));
        let top = self.m.top();
        self.m.set_attr(top, "vce_triple", attr);
        Ok(self.m)
    }
}

/// An [`DeserializeError::Invalid`] about `inst`.
fn invalid(inst: &Inst, reason: impl Into<String>) -> DeserializeError {
    DeserializeError::Invalid {
        at: inst.at,
        reason: reason.into(),
    }
}

/// The constituents of a composite constant with parts `direct`, nested
/// ones included, in the order kiln's serializer meets them (each
/// composite after its own parts, each id once).
fn first_met(direct: &[u32], parts: &FxHashMap<u32, Vec<u32>>) -> Vec<u32> {
    let mut order = Vec::new();
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    // (id, whether its parts are done)
    let mut stack: Vec<(u32, bool)> = direct.iter().rev().map(|&p| (p, false)).collect();
    while let Some((p, done)) = stack.pop() {
        if done {
            order.push(p);
            continue;
        }
        if !seen.insert(p) {
            continue;
        }
        stack.push((p, true));
        if let Some(more) = parts.get(&p) {
            stack.extend(more.iter().rev().map(|&q| (q, false)));
        }
    }
    order
}
