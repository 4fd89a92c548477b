//! Reflection: recovering the [`PipelineInterface`] of a compute entry point
//! from a SPIR-V binary.
//!
//! [`reflect_binary`] parses the words with rspirv, finds the `GLCompute`
//! `OpEntryPoint` with the requested name and reports:
//!
//! - **bindings**: every module-scope variable in the `StorageBuffer`,
//!   `Uniform` or `UniformConstant` storage class that the entry point
//!   *statically uses* (its id appears as an operand in the entry function or
//!   in a function it calls, directly or indirectly). Variables declared but
//!   unused by this entry point are left out, so a host need not bind them.
//!   Each must carry `DescriptorSet` and `Binding` decorations. The descriptor
//!   type follows from the storage class and type:
//!   `StorageBuffer` → storage buffer; `Uniform` + `BufferBlock` struct →
//!   storage buffer; `Uniform` + `Block` struct → uniform buffer;
//!   `UniformConstant` `OpTypeImage` with `Sampled = 2` / `1` → storage /
//!   sampled image; `OpTypeSampler` → sampler; `OpTypeSampledImage` →
//!   combined image-sampler; an `OpTypeImage` with `Dim = Buffer` and
//!   `Sampled = 1` / `2` → uniform / storage texel buffer, whose `Image
//!   Format` operand is the binding's `texel_format` (`Rgba32f/i/ui`, `Rgba16f`,
//!   `R32f/i/ui` or `Unknown`; other formats are unsupported). A variable
//!   whose type is an `OpTypeArray` of one of these is a descriptor array:
//!   the binding describes one element and `count` is the array's length.
//!   Runtime arrays of descriptors, subpass inputs and other opaque types
//!   are reported as unsupported.
//! - **access**: `NonWritable` on the variable, or on every member of its
//!   block, makes a binding read-only; `NonReadable` likewise write-only.
//!   Uniform buffers, uniform texel buffers, samplers and sampled images are
//!   always read-only.
//! - **sizes**: a buffer's `min_size` is the extent of its block computed from
//!   `Offset`, `ArrayStride` and `MatrixStride` decorations (the decorations
//!   are the layout; no layout rules are assumed). A block ending in a runtime
//!   array reports the bytes before the array as `min_size` and the array's
//!   `ArrayStride` as `element_stride`.
//! - **push constants**: the statically used `PushConstant` variable (at most
//!   one) gives a range starting at offset 0 whose size is the block's extent
//!   rounded up to a multiple of 4, so host bytes are laid out exactly as the
//!   block's member offsets say.
//! - **workgroup size**: a constant decorated `BuiltIn WorkgroupSize` wins
//!   (as the SPIR-V specification says); otherwise `LocalSize`, otherwise
//!   `LocalSizeId` with constant operands. Specialization constants count with
//!   their default values.
//! - **specialization constants, workgroup memory** (`extras.rs`): every
//!   `OpSpecConstant*` with a `SpecId`; which of them set the workgroup
//!   size; the std430 sizes of the used `Workgroup` variables, summed (see
//!   [`crate::reflect`] on sizes).
//!
//! Bindings that two variables share (aliasing) merge when their descriptor
//! types agree and are an error otherwise.

mod extras;

use std::collections::{BTreeMap, HashMap, HashSet};

use kiln_abi::{Access, DescriptorType, PipelineInterface, PushConstantRange, ResourceBinding};
use rspirv::binary;
use rspirv::dr::{self, Instruction, Operand};
use spirv::{Decoration, Op, StorageClass, Word};

use super::common::{self, access_from, merge_alias, select_entry_point};
use super::ReflectError;

/// Reflects the interface of the `GLCompute` entry point `entry_point` of
/// the SPIR-V module `words`. See the module documentation for the rules.
pub fn reflect_binary(words: &[u32], entry_point: &str) -> Result<PipelineInterface, ReflectError> {
    let (module, execution_mode_ids) = load(words)?;
    let index = ModuleIndex::new(&module);
    let entry_fn = find_entry_point(&module, entry_point)?;
    let used = index.statically_used(entry_fn);

    let mut bindings: BTreeMap<(u32, u32), (ResourceBinding, String)> = BTreeMap::new();
    let mut push: Option<(PushConstantRange, String)> = None;

    for inst in &module.types_global_values {
        if inst.class.opcode != Op::Variable {
            continue;
        }
        let Some(var) = inst.result_id else { continue };
        if !used.contains(&var) {
            continue;
        }
        let class = match inst.operands.first() {
            Some(Operand::StorageClass(c)) => *c,
            _ => {
                return Err(index.malformed(var, "OpVariable without a storage class"));
            }
        };
        match class {
            StorageClass::StorageBuffer | StorageClass::Uniform | StorageClass::UniformConstant => {
                let binding = index.resource_binding(var, inst, class)?;
                let desc = index.describe(var);
                match bindings.get_mut(&binding.key()) {
                    None => {
                        bindings.insert(binding.key(), (binding, desc));
                    }
                    Some((prev, prev_desc)) => merge_alias(prev, prev_desc, binding, desc)?,
                }
            }
            StorageClass::PushConstant => {
                let range = index.push_constant_range(var, inst)?;
                let desc = index.describe(var);
                if let Some((_, first)) = push {
                    return Err(ReflectError::MultiplePushConstantBlocks {
                        name: entry_point.to_owned(),
                        first,
                        second: desc,
                    });
                }
                push = Some((range, desc));
            }
            // Vulkan gives a compute shader no inputs or outputs but
            // built-ins; spirv-val 2023.1 does not check it, and lavapipe
            // crashes on an `Input` variable without one.
            StorageClass::Input | StorageClass::Output if !index.has_builtin(var) => {
                return Err(index.malformed(
                    var,
                    format!(
                        "an {class:?} variable without a BuiltIn decoration (a compute \
                         shader's only inputs and outputs are built-ins)"
                    ),
                ));
            }
            _ => {}
        }
    }

    let workgroup_size =
        index.workgroup_size(&module, &execution_mode_ids, entry_fn, entry_point)?;
    let extras = extras::extras(&index, &module, &used, entry_fn, &execution_mode_ids)?;
    Ok(PipelineInterface {
        entry_point: entry_point.to_owned(),
        bindings: bindings.into_values().map(|(b, _)| b).collect(),
        push_constants: push.map(|(r, _)| r),
        workgroup_size,
        workgroup_size_spec_ids: extras.workgroup_size_spec_ids,
        spec_constants: extras.spec_constants,
        workgroup_memory: extras.workgroup_memory,
    })
}

/// Loads `words` into an rspirv module, returning the `OpExecutionModeId`
/// instructions apart.
///
/// rspirv 0.13's loader rejects `OpExecutionModeId` (it files it nowhere) and
/// module-scope `OpExtInst` (non-semantic debug info); this consumer takes
/// the former aside and drops the latter before they reach the loader.
fn load(words: &[u32]) -> Result<(dr::Module, Vec<Instruction>), ReflectError> {
    // rspirv's parser panics on some malformed input: only checked words
    // reach it.
    crate::binary::deserialize::check_words(words).map_err(|e| ReflectError::Parse {
        reason: e.to_string(),
    })?;
    struct Consumer {
        loader: dr::Loader,
        in_function: bool,
        execution_mode_ids: Vec<Instruction>,
    }
    impl binary::Consumer for Consumer {
        fn initialize(&mut self) -> binary::ParseAction {
            self.loader.initialize()
        }
        fn finalize(&mut self) -> binary::ParseAction {
            self.loader.finalize()
        }
        fn consume_header(&mut self, header: dr::ModuleHeader) -> binary::ParseAction {
            self.loader.consume_header(header)
        }
        fn consume_instruction(&mut self, inst: Instruction) -> binary::ParseAction {
            match inst.class.opcode {
                Op::ExecutionModeId => {
                    self.execution_mode_ids.push(inst);
                    return binary::ParseAction::Continue;
                }
                Op::ExtInst if !self.in_function => return binary::ParseAction::Continue,
                Op::Function => self.in_function = true,
                Op::FunctionEnd => self.in_function = false,
                _ => {}
            }
            self.loader.consume_instruction(inst)
        }
    }
    let mut consumer = Consumer {
        loader: dr::Loader::new(),
        in_function: false,
        execution_mode_ids: Vec::new(),
    };
    binary::parse_words(words, &mut consumer).map_err(|e| ReflectError::Parse {
        reason: e.to_string(),
    })?;
    Ok((consumer.loader.module(), consumer.execution_mode_ids))
}

/// Finds the function id of the `GLCompute` entry point named `name`.
fn find_entry_point(module: &dr::Module, name: &str) -> Result<Word, ReflectError> {
    let mut entries = Vec::new();
    for ep in &module.entry_points {
        match ep.operands.as_slice() {
            [Operand::ExecutionModel(m), Operand::IdRef(f), Operand::LiteralString(n), ..] => {
                entries.push((n.clone(), format!("{m:?}"), *f));
            }
            _ => {
                return Err(ReflectError::Malformed {
                    resource: "OpEntryPoint".to_owned(),
                    reason: "operands are not (execution model, function, name, ...)".to_owned(),
                })
            }
        }
    }
    select_entry_point(entries, name)
}

/// The entry points of a SPIR-V binary as `(name, execution model)`.
pub fn binary_entry_points(words: &[u32]) -> Result<Vec<(String, String)>, ReflectError> {
    // rspirv's parser panics on some malformed input: only checked words
    // reach it.
    crate::binary::deserialize::check_words(words).map_err(|e| ReflectError::Parse {
        reason: e.to_string(),
    })?;
    struct Entries(Vec<(String, String)>);
    impl binary::Consumer for Entries {
        fn initialize(&mut self) -> binary::ParseAction {
            binary::ParseAction::Continue
        }
        fn finalize(&mut self) -> binary::ParseAction {
            binary::ParseAction::Continue
        }
        fn consume_header(&mut self, _: dr::ModuleHeader) -> binary::ParseAction {
            binary::ParseAction::Continue
        }
        fn consume_instruction(&mut self, inst: Instruction) -> binary::ParseAction {
            match inst.class.opcode {
                Op::EntryPoint => {
                    if let [Operand::ExecutionModel(m), _, Operand::LiteralString(n), ..] =
                        inst.operands.as_slice()
                    {
                        self.0.push((n.clone(), format!("{m:?}")));
                    }
                    binary::ParseAction::Continue
                }
                // Entry points come before any function.
                Op::Function => binary::ParseAction::Stop,
                _ => binary::ParseAction::Continue,
            }
        }
    }
    let mut entries = Entries(Vec::new());
    match binary::parse_words(words, &mut entries) {
        // Stopping at the first function is this consumer's own request.
        Ok(()) | Err(binary::ParseState::ConsumerStopRequested) => Ok(entries.0),
        Err(e) => Err(ReflectError::Parse {
            reason: e.to_string(),
        }),
    }
}

/// A decoration with its extra operands (after the target and decoration).
type Deco<'m> = (Decoration, &'m [Operand]);

/// Side tables over a loaded module: definitions, names and decorations by id.
struct ModuleIndex<'m> {
    /// Module-scope definitions with their position among them.
    defs: HashMap<Word, (usize, &'m Instruction)>,
    names: HashMap<Word, &'m str>,
    decorations: HashMap<Word, Vec<Deco<'m>>>,
    member_decorations: HashMap<(Word, u32), Vec<Deco<'m>>>,
    functions: HashMap<Word, &'m dr::Function>,
}

impl<'m> ModuleIndex<'m> {
    fn new(module: &'m dr::Module) -> Self {
        let mut defs = HashMap::new();
        for (pos, inst) in module.types_global_values.iter().enumerate() {
            if let Some(id) = inst.result_id {
                defs.insert(id, (pos, inst));
            }
        }
        let mut names = HashMap::new();
        for inst in &module.debug_names {
            if let (Op::Name, [Operand::IdRef(id), Operand::LiteralString(n)]) =
                (inst.class.opcode, inst.operands.as_slice())
            {
                names.insert(*id, n.as_str());
            }
        }
        let mut decorations: HashMap<Word, Vec<Deco<'m>>> = HashMap::new();
        let mut member_decorations: HashMap<(Word, u32), Vec<Deco<'m>>> = HashMap::new();
        for inst in &module.annotations {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (
                    Op::Decorate | Op::DecorateId | Op::DecorateString,
                    [Operand::IdRef(id), Operand::Decoration(d), rest @ ..],
                ) => decorations.entry(*id).or_default().push((*d, rest)),
                (
                    Op::MemberDecorate | Op::MemberDecorateString,
                    [Operand::IdRef(id), Operand::LiteralBit32(m), Operand::Decoration(d), rest @ ..],
                ) => member_decorations
                    .entry((*id, *m))
                    .or_default()
                    .push((*d, rest)),
                _ => {}
            }
        }
        let functions = module
            .functions
            .iter()
            .filter_map(|f| Some((f.def.as_ref()?.result_id?, f)))
            .collect();
        Self {
            defs,
            names,
            decorations,
            member_decorations,
            functions,
        }
    }

    /// Every id used as an operand in `entry` or the functions it calls.
    fn statically_used(&self, entry: Word) -> HashSet<Word> {
        let mut used = HashSet::new();
        let mut visited = HashSet::new();
        let mut stack = vec![entry];
        while let Some(f) = stack.pop() {
            if !visited.insert(f) {
                continue;
            }
            let Some(func) = self.functions.get(&f) else {
                continue;
            };
            for inst in func.all_inst_iter() {
                for op in &inst.operands {
                    if let Operand::IdRef(id) = op {
                        used.insert(*id);
                    }
                }
                if inst.class.opcode == Op::FunctionCall {
                    if let Some(Operand::IdRef(callee)) = inst.operands.first() {
                        stack.push(*callee);
                    }
                }
            }
        }
        used
    }

    /// `variable %12 "name"` (the name only when the module has one).
    fn describe(&self, id: Word) -> String {
        match self.names.get(&id) {
            Some(n) if !n.is_empty() => format!("variable %{id} \"{n}\""),
            _ => format!("variable %{id}"),
        }
    }

    /// The module-scope definition of `id`, if there is one.
    fn lookup(&self, id: Word) -> Option<&'m Instruction> {
        self.defs.get(&id).map(|&(_, inst)| inst)
    }

    fn malformed(&self, id: Word, reason: impl Into<String>) -> ReflectError {
        ReflectError::Malformed {
            resource: self.describe(id),
            reason: reason.into(),
        }
    }

    fn def(&self, id: Word, ctx: &dyn Fn() -> String) -> Result<&'m Instruction, ReflectError> {
        self.defs
            .get(&id)
            .map(|&(_, inst)| inst)
            .ok_or_else(|| ReflectError::Malformed {
                resource: ctx(),
                reason: format!("id %{id} is not a type or constant defined at module scope"),
            })
    }

    /// Checks that type `part` is defined before type `whole`, which
    /// contains it, as SPIR-V requires; the size walk relies on it to end.
    fn defined_before(
        &self,
        part: Word,
        whole: Word,
        ctx: &dyn Fn() -> String,
    ) -> Result<(), ReflectError> {
        match (self.defs.get(&part), self.defs.get(&whole)) {
            (Some(&(p, _)), Some(&(w, _))) if p >= w => Err(ReflectError::Malformed {
                resource: ctx(),
                reason: format!("type %{whole} uses type %{part} before its definition"),
            }),
            _ => Ok(()),
        }
    }

    fn decoration(&self, id: Word, d: Decoration) -> Option<&'m [Operand]> {
        self.decorations
            .get(&id)?
            .iter()
            .find(|(dd, _)| *dd == d)
            .map(|(_, ops)| *ops)
    }

    fn member_decoration(&self, id: Word, member: u32, d: Decoration) -> Option<&'m [Operand]> {
        self.member_decorations
            .get(&(id, member))?
            .iter()
            .find(|(dd, _)| *dd == d)
            .map(|(_, ops)| *ops)
    }

    fn has_decoration(&self, id: Word, d: Decoration) -> bool {
        self.decoration(id, d).is_some()
    }

    /// The single literal operand of decoration `d` on `id`, if present.
    fn decoration_literal(&self, id: Word, d: Decoration) -> Option<u32> {
        match self.decoration(id, d)? {
            [Operand::LiteralBit32(v), ..] => Some(*v),
            _ => None,
        }
    }

    /// The pointee type of variable `var`'s pointer type.
    fn pointee(&self, var: Word, inst: &Instruction) -> Result<Word, ReflectError> {
        let ctx = || self.describe(var);
        let ptr_ty = inst
            .result_type
            .ok_or_else(|| self.malformed(var, "OpVariable without a result type"))?;
        let ptr = self.def(ptr_ty, &ctx)?;
        match (ptr.class.opcode, ptr.operands.as_slice()) {
            (Op::TypePointer, [Operand::StorageClass(_), Operand::IdRef(pointee)]) => Ok(*pointee),
            _ => Err(self.malformed(var, "the variable's type is not an OpTypePointer")),
        }
    }

    fn resource_binding(
        &self,
        var: Word,
        inst: &Instruction,
        class: StorageClass,
    ) -> Result<ResourceBinding, ReflectError> {
        let set = self
            .decoration_literal(var, Decoration::DescriptorSet)
            .ok_or_else(|| ReflectError::MissingDecoration {
                resource: self.describe(var),
                decoration: "DescriptorSet",
            })?;
        let binding = self
            .decoration_literal(var, Decoration::Binding)
            .ok_or_else(|| ReflectError::MissingDecoration {
                resource: self.describe(var),
                decoration: "Binding",
            })?;
        let resource = || format!("{} (binding {set}:{binding})", self.describe(var));
        let unsupported = |what: &str| ReflectError::Unsupported {
            resource: resource(),
            what: what.to_owned(),
        };
        let mut pointee = self.pointee(var, inst)?;
        let mut ty = self.def(pointee, &resource)?;
        let mut count = 1;
        match (ty.class.opcode, ty.operands.as_slice()) {
            (Op::TypeArray, [Operand::IdRef(element), Operand::IdRef(len)]) => {
                count = self.constant_u32(*len, &resource)?;
                if count == 0 {
                    return Err(unsupported("an empty array of descriptors"));
                }
                pointee = *element;
                ty = self.def(pointee, &resource)?;
                if matches!(ty.class.opcode, Op::TypeArray | Op::TypeRuntimeArray) {
                    return Err(unsupported("a nested array of descriptors"));
                }
            }
            (Op::TypeRuntimeArray, _) => {
                return Err(unsupported(
                    "a runtime array of descriptors (descriptor indexing)",
                ))
            }
            _ => {}
        }
        let var_non_writable = self.has_decoration(var, Decoration::NonWritable);
        let var_non_readable = self.has_decoration(var, Decoration::NonReadable);

        let mut texel_format = None;
        let (descriptor_type, access, min_size, element_stride) = match class {
            StorageClass::StorageBuffer | StorageClass::Uniform => {
                if ty.class.opcode != Op::TypeStruct {
                    return Err(ReflectError::Malformed {
                        resource: resource(),
                        reason: format!(
                            "a {class:?} variable must point to a struct, found Op{:?}",
                            ty.class.opcode
                        ),
                    });
                }
                let descriptor_type = if class == StorageClass::StorageBuffer
                    || self.has_decoration(pointee, Decoration::BufferBlock)
                {
                    DescriptorType::StorageBuffer
                } else if self.has_decoration(pointee, Decoration::Block) {
                    DescriptorType::UniformBuffer
                } else {
                    return Err(ReflectError::MissingDecoration {
                        resource: resource(),
                        decoration: "Block or BufferBlock (on the struct type)",
                    });
                };
                let layout = self.struct_layout(pointee, &resource)?;
                let access = if descriptor_type == DescriptorType::UniformBuffer {
                    Access::ReadOnly
                } else {
                    let members = ty.operands.len() as u32;
                    let all = |d: Decoration| {
                        members > 0
                            && (0..members).all(|m| self.member_decoration(pointee, m, d).is_some())
                    };
                    access_from(
                        var_non_writable || all(Decoration::NonWritable),
                        var_non_readable || all(Decoration::NonReadable),
                    )
                };
                (descriptor_type, access, layout.size, layout.runtime_stride)
            }
            StorageClass::UniformConstant => match ty.class.opcode {
                Op::TypeImage => {
                    let (dim, sampled, format) = match ty.operands.as_slice() {
                        [Operand::IdRef(_), Operand::Dim(dim), _, _, _, Operand::LiteralBit32(s), Operand::ImageFormat(f), ..] => {
                            (*dim, *s, *f)
                        }
                        _ => return Err(unsupported("an OpTypeImage with unexpected operands")),
                    };
                    match dim {
                        spirv::Dim::DimBuffer => {
                            let (descriptor_type, format) =
                                common::texel_buffer(sampled, format as u32)
                                    .map_err(|what| unsupported(&what.to_string()))?;
                            texel_format = Some(format);
                            let access = if descriptor_type == DescriptorType::UniformTexelBuffer {
                                Access::ReadOnly
                            } else {
                                access_from(var_non_writable, var_non_readable)
                            };
                            (descriptor_type, access, 0, None)
                        }
                        spirv::Dim::DimSubpassData => return Err(unsupported("a subpass input")),
                        _ => match sampled {
                            2 => (
                                DescriptorType::StorageImage,
                                access_from(var_non_writable, var_non_readable),
                                0,
                                None,
                            ),
                            1 => (DescriptorType::SampledImage, Access::ReadOnly, 0, None),
                            _ => {
                                return Err(unsupported("an image with Sampled = 0 (unknown use)"))
                            }
                        },
                    }
                }
                Op::TypeSampler => (DescriptorType::Sampler, Access::ReadOnly, 0, None),
                Op::TypeSampledImage => (
                    DescriptorType::CombinedImageSampler,
                    Access::ReadOnly,
                    0,
                    None,
                ),
                other => {
                    return Err(unsupported(&format!(
                        "a UniformConstant variable of type Op{other:?}"
                    )))
                }
            },
            _ => unreachable!("resource_binding is called for descriptor storage classes only"),
        };
        Ok(ResourceBinding {
            set,
            binding,
            descriptor_type,
            access,
            min_size,
            element_stride,
            count,
            texel_format,
        })
    }

    fn push_constant_range(
        &self,
        var: Word,
        inst: &Instruction,
    ) -> Result<PushConstantRange, ReflectError> {
        let resource = || format!("push-constant {}", self.describe(var));
        let pointee = self.pointee(var, inst)?;
        let ty = self.def(pointee, &resource)?;
        if ty.class.opcode != Op::TypeStruct {
            return Err(ReflectError::Malformed {
                resource: resource(),
                reason: "a PushConstant variable must point to a struct".to_owned(),
            });
        }
        let layout = self.struct_layout(pointee, &resource)?;
        common::push_constant_range(&resource, layout.size, layout.runtime_stride.is_some())
    }

    /// The extent of a struct from its `Offset` member decorations.
    fn struct_layout(
        &self,
        struct_ty: Word,
        resource: &dyn Fn() -> String,
    ) -> Result<Layout, ReflectError> {
        let ty = self.def(struct_ty, resource)?;
        let members = ty.operands.len();
        let mut size = 0u64;
        let mut runtime_stride = None;
        for (m, op) in ty.operands.iter().enumerate() {
            let Operand::IdRef(member_ty) = op else {
                return Err(ReflectError::Malformed {
                    resource: resource(),
                    reason: format!("struct %{struct_ty} has a non-id member operand"),
                });
            };
            // A pointer member may be forward-declared (`OpTypeForwardPointer`);
            // the walk does not look through it.
            if self
                .lookup(*member_ty)
                .is_none_or(|d| d.class.opcode != Op::TypePointer)
            {
                self.defined_before(*member_ty, struct_ty, resource)?;
            }
            let m = m as u32;
            let offset = match self.member_decoration(struct_ty, m, Decoration::Offset) {
                Some([Operand::LiteralBit32(o), ..]) => u64::from(*o),
                _ => {
                    return Err(ReflectError::MissingDecoration {
                        resource: format!("{} (struct %{struct_ty} member {m})", resource()),
                        decoration: "Offset",
                    })
                }
            };
            let member_def = self.def(*member_ty, resource)?;
            if member_def.class.opcode == Op::TypeRuntimeArray {
                if m as usize != members - 1 {
                    return Err(ReflectError::Malformed {
                        resource: resource(),
                        reason: format!(
                            "struct %{struct_ty} has a runtime array as member {m}, \
                             which is not its last member"
                        ),
                    });
                }
                runtime_stride = Some(self.array_stride(*member_ty, resource)?);
                size = size.max(offset);
                continue;
            }
            let member_size = self.member_size(struct_ty, m, *member_ty, resource)?;
            let end = offset
                .checked_add(member_size)
                .ok_or_else(|| self.size_overflow(struct_ty, resource))?;
            size = size.max(end);
        }
        Ok(Layout {
            size,
            runtime_stride,
        })
    }

    /// The size of member `m` of `struct_ty`, whose type is `ty`; matrices
    /// take their stride from the member's `MatrixStride`.
    fn member_size(
        &self,
        struct_ty: Word,
        m: u32,
        ty: Word,
        resource: &dyn Fn() -> String,
    ) -> Result<u64, ReflectError> {
        let def = self.def(ty, resource)?;
        if def.class.opcode != Op::TypeMatrix {
            return self.type_size(ty, resource);
        }
        let (column_ty, columns) = match def.operands.as_slice() {
            [Operand::IdRef(c), Operand::LiteralBit32(n)] => (*c, u64::from(*n)),
            _ => return Err(self.malformed_type(ty, resource)),
        };
        let stride = match self.member_decoration(struct_ty, m, Decoration::MatrixStride) {
            Some([Operand::LiteralBit32(s), ..]) => u64::from(*s),
            _ => {
                return Err(ReflectError::MissingDecoration {
                    resource: format!("{} (struct %{struct_ty} member {m})", resource()),
                    decoration: "MatrixStride",
                })
            }
        };
        let row_major = self
            .member_decoration(struct_ty, m, Decoration::RowMajor)
            .is_some();
        let lines = if row_major {
            match self.def(column_ty, resource)?.operands.as_slice() {
                [Operand::IdRef(_), Operand::LiteralBit32(rows)] => u64::from(*rows),
                _ => return Err(self.malformed_type(column_ty, resource)),
            }
        } else {
            columns
        };
        lines
            .checked_mul(stride)
            .ok_or_else(|| self.size_overflow(ty, resource))
    }

    /// The size in bytes of a type inside an explicitly laid out block.
    fn type_size(&self, ty: Word, resource: &dyn Fn() -> String) -> Result<u64, ReflectError> {
        let def = self.def(ty, resource)?;
        match (def.class.opcode, def.operands.as_slice()) {
            (Op::TypeInt, [Operand::LiteralBit32(w), ..]) => Ok(u64::from(*w) / 8),
            (Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => Ok(u64::from(*w) / 8),
            (Op::TypeVector, [Operand::IdRef(c), Operand::LiteralBit32(n)]) => {
                self.defined_before(*c, ty, resource)?;
                u64::from(*n)
                    .checked_mul(self.type_size(*c, resource)?)
                    .ok_or_else(|| self.size_overflow(ty, resource))
            }
            (Op::TypeArray, [Operand::IdRef(_), Operand::IdRef(len)]) => {
                let len = self.constant_u64(*len, resource)?;
                let stride = u64::from(self.array_stride(ty, resource)?);
                len.checked_mul(stride)
                    .ok_or_else(|| self.size_overflow(ty, resource))
            }
            (Op::TypeStruct, _) => {
                let layout = self.struct_layout(ty, resource)?;
                if layout.runtime_stride.is_some() {
                    return Err(ReflectError::Malformed {
                        resource: resource(),
                        reason: format!("nested struct %{ty} ends in a runtime array"),
                    });
                }
                Ok(layout.size)
            }
            (Op::TypePointer, _) => Ok(8),
            (Op::TypeMatrix, _) => Err(ReflectError::MissingDecoration {
                resource: format!("{} (matrix type %{ty} outside a struct member)", resource()),
                decoration: "MatrixStride",
            }),
            (Op::TypeBool, _) => Err(ReflectError::Malformed {
                resource: resource(),
                reason: "OpTypeBool has no defined size in an externally visible block".to_owned(),
            }),
            (op, _) => Err(ReflectError::Unsupported {
                resource: resource(),
                what: format!("the size of Op{op:?} (type %{ty}) in a block"),
            }),
        }
    }

    fn array_stride(&self, ty: Word, resource: &dyn Fn() -> String) -> Result<u32, ReflectError> {
        self.decoration_literal(ty, Decoration::ArrayStride)
            .ok_or_else(|| ReflectError::MissingDecoration {
                resource: format!("{} (array type %{ty})", resource()),
                decoration: "ArrayStride",
            })
    }

    fn size_overflow(&self, ty: Word, resource: &dyn Fn() -> String) -> ReflectError {
        ReflectError::Malformed {
            resource: resource(),
            reason: format!("the size of type %{ty} does not fit in 64 bits"),
        }
    }

    fn malformed_type(&self, ty: Word, resource: &dyn Fn() -> String) -> ReflectError {
        ReflectError::Malformed {
            resource: resource(),
            reason: format!("type %{ty} has unexpected operands"),
        }
    }

    /// The value of an integer constant or specialization constant (its
    /// default value).
    fn constant_u64(&self, id: Word, resource: &dyn Fn() -> String) -> Result<u64, ReflectError> {
        let def = self.def(id, resource)?;
        match (def.class.opcode, def.operands.as_slice()) {
            (Op::Constant | Op::SpecConstant, [Operand::LiteralBit32(v)]) => Ok(u64::from(*v)),
            (Op::Constant | Op::SpecConstant, [Operand::LiteralBit64(v)]) => Ok(*v),
            (op, _) => Err(ReflectError::Unsupported {
                resource: resource(),
                what: format!("Op{op:?} %{id} where an integer constant is needed"),
            }),
        }
    }

    fn constant_u32(&self, id: Word, resource: &dyn Fn() -> String) -> Result<u32, ReflectError> {
        let v = self.constant_u64(id, resource)?;
        u32::try_from(v).map_err(|_| ReflectError::Malformed {
            resource: resource(),
            reason: format!("constant %{id} = {v} does not fit in 32 bits"),
        })
    }

    fn workgroup_size(
        &self,
        module: &dr::Module,
        execution_mode_ids: &[Instruction],
        entry_fn: Word,
        name: &str,
    ) -> Result<[u32; 3], ReflectError> {
        let resource = || format!("workgroup size of entry point \"{name}\"");
        // A constant decorated BuiltIn WorkgroupSize overrides LocalSize.
        for (id, decos) in &self.decorations {
            let is_wg = decos.iter().any(|(d, rest)| {
                *d == Decoration::BuiltIn
                    && matches!(rest, [Operand::BuiltIn(spirv::BuiltIn::WorkgroupSize)])
            });
            let Some(&(_, def)) = self.defs.get(id) else {
                continue;
            };
            if !is_wg
                || !matches!(
                    def.class.opcode,
                    Op::ConstantComposite | Op::SpecConstantComposite
                )
            {
                continue;
            }
            return match def.operands.as_slice() {
                [Operand::IdRef(x), Operand::IdRef(y), Operand::IdRef(z)] => Ok([
                    self.constant_u32(*x, &resource)?,
                    self.constant_u32(*y, &resource)?,
                    self.constant_u32(*z, &resource)?,
                ]),
                _ => Err(ReflectError::Malformed {
                    resource: resource(),
                    reason: format!("WorkgroupSize constant %{id} is not a 3-component composite"),
                }),
            };
        }
        let mut from_id = None;
        for mode in module.execution_modes.iter().chain(execution_mode_ids) {
            let (target, mode_kind, rest) = match mode.operands.as_slice() {
                [Operand::IdRef(t), Operand::ExecutionMode(m), rest @ ..] => (*t, *m, rest),
                _ => continue,
            };
            if target != entry_fn {
                continue;
            }
            match (mode.class.opcode, mode_kind, rest) {
                (
                    Op::ExecutionMode,
                    spirv::ExecutionMode::LocalSize,
                    [Operand::LiteralBit32(x), Operand::LiteralBit32(y), Operand::LiteralBit32(z)],
                ) => return Ok([*x, *y, *z]),
                (Op::ExecutionModeId, spirv::ExecutionMode::LocalSizeId, ids) => {
                    from_id = Some(ids);
                }
                _ => {}
            }
        }
        if let Some(ids) = from_id {
            let mut size = [0u32; 3];
            if ids.len() != 3 {
                return Err(ReflectError::Malformed {
                    resource: resource(),
                    reason: "LocalSizeId needs three operands".to_owned(),
                });
            }
            for (slot, op) in size.iter_mut().zip(ids) {
                let id = match op {
                    Operand::IdRef(id) | Operand::LiteralBit32(id) => *id,
                    _ => {
                        return Err(ReflectError::Malformed {
                            resource: resource(),
                            reason: "LocalSizeId operands must be ids".to_owned(),
                        })
                    }
                };
                *slot = self.constant_u32(id, &resource)?;
            }
            return Ok(size);
        }
        Err(ReflectError::MissingWorkgroupSize {
            name: name.to_owned(),
        })
    }
}

/// The extent of a block and the stride of its trailing runtime array.
struct Layout {
    size: u64,
    runtime_stride: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rspirv::binary::Assemble;
    use rspirv::dr::Builder;
    use spirv::{AddressingModel, Capability, ExecutionModel, FunctionControl, MemoryModel};

    /// A module under construction: header done, globals next, then `finish`
    /// emits a `main` that references `uses` and returns the words.
    struct Module {
        b: Builder,
        main: Word,
    }

    impl Module {
        fn new() -> Self {
            let mut b = Builder::new();
            b.set_version(1, 3);
            b.capability(Capability::Shader);
            b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
            let main = b.id();
            Self { b, main }
        }

        fn u32_ty(&mut self) -> Word {
            self.b.type_int(32, 0)
        }

        fn f32_ty(&mut self) -> Word {
            self.b.type_float(32, None)
        }

        fn offset(&mut self, s: Word, member: u32, offset: u32) {
            self.b.member_decorate(
                s,
                member,
                Decoration::Offset,
                [Operand::LiteralBit32(offset)],
            );
        }

        fn set_binding(&mut self, var: Word, set: u32, binding: u32) {
            self.b
                .decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(set)]);
            self.b
                .decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        }

        /// `struct { elem data[]; }` with `Block`, `ArrayStride stride`.
        fn runtime_array_block(&mut self, elem: Word, stride: u32) -> Word {
            let arr = self.b.type_runtime_array(elem);
            self.b.decorate(
                arr,
                Decoration::ArrayStride,
                [Operand::LiteralBit32(stride)],
            );
            let id = self.b.id();
            let s = self.b.type_struct_id(Some(id), [arr]);
            self.b.decorate(s, Decoration::Block, []);
            self.offset(s, 0, 0);
            s
        }

        fn var(&mut self, pointee: Word, class: StorageClass, name: &str) -> Word {
            let ptr = self.b.type_pointer(None, class, pointee);
            let v = self.b.variable(ptr, None, class, None);
            self.b.name(v, name);
            v
        }

        fn storage_buffer(&mut self, set: u32, binding: u32, name: &str) -> Word {
            let f32_ty = self.f32_ty();
            let s = self.runtime_array_block(f32_ty, 4);
            let v = self.var(s, StorageClass::StorageBuffer, name);
            self.set_binding(v, set, binding);
            v
        }

        /// Emits `void main()` whose body copies each of `uses` (a
        /// reference is all reflection looks for) and the entry point.
        fn finish(mut self, uses: &[Word], interface: &[Word]) -> Vec<u32> {
            let void = self.b.type_void();
            let fn_ty = self.b.type_function(void, []);
            self.b
                .begin_function(void, Some(self.main), FunctionControl::NONE, fn_ty)
                .unwrap();
            self.b.begin_block(None).unwrap();
            for &u in uses {
                let ty = self
                    .b
                    .module_ref()
                    .types_global_values
                    .iter()
                    .find_map(|i| (i.result_id == Some(u)).then_some(i.result_type).flatten());
                self.b.copy_object(ty.unwrap(), None, u).unwrap();
            }
            self.b.ret().unwrap();
            self.b.end_function().unwrap();
            self.b
                .entry_point(ExecutionModel::GLCompute, self.main, "main", interface);
            self.b.module().assemble()
        }

        /// Declares `LocalSize 1, 1, 1`, finishes with `uses` and returns
        /// the error reflecting `main` gives.
        fn reflect_err(mut self, uses: &[Word]) -> ReflectError {
            self.b
                .execution_mode(self.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
            let words = self.finish(uses, &[]);
            reflect_binary(&words, "main").unwrap_err()
        }

        /// Declares `LocalSize 1, 1, 1`, finishes with `uses` and returns
        /// the interface of `main`.
        fn reflect(mut self, uses: &[Word]) -> PipelineInterface {
            self.b
                .execution_mode(self.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
            let words = self.finish(uses, &[]);
            reflect_binary(&words, "main").expect("reflect")
        }
    }

    #[test]
    fn vector_add() {
        let mut m = Module::new();
        let a = m.storage_buffer(0, 0, "a");
        let b = m.storage_buffer(0, 1, "b");
        let c = m.storage_buffer(0, 2, "c");
        // a and b are readonly through member decorations (as glslang emits).
        for v in [a, b] {
            let ptr_ty =
                m.b.module_ref()
                    .types_global_values
                    .iter()
                    .find_map(|i| (i.result_id == Some(v)).then_some(i.result_type).flatten());
            let s = m.b.module_ref().types_global_values.iter().find_map(|i| {
                (i.result_id == ptr_ty).then(|| match i.operands[1] {
                    Operand::IdRef(s) => s,
                    _ => unreachable!(),
                })
            });
            m.b.member_decorate(s.unwrap(), 0, Decoration::NonWritable, []);
        }
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [64, 1, 1]);
        let words = m.finish(&[c, b, a], &[a, b, c]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.entry_point, "main");
        assert_eq!(iface.workgroup_size, [64, 1, 1]);
        assert_eq!(iface.push_constants, None);
        let got: Vec<_> = iface
            .bindings
            .iter()
            .map(|b| {
                (
                    b.set,
                    b.binding,
                    b.descriptor_type,
                    b.access,
                    b.min_size,
                    b.element_stride,
                )
            })
            .collect();
        use DescriptorType::StorageBuffer as S;
        assert_eq!(
            got,
            vec![
                (0, 0, S, Access::ReadOnly, 0, Some(4)),
                (0, 1, S, Access::ReadOnly, 0, Some(4)),
                (0, 2, S, Access::ReadWrite, 0, Some(4)),
            ]
        );
        assert_eq!(iface.check(), Ok(()));
    }

    #[test]
    fn uniform_blocks_sparse_sets_push_constants_and_local_size_id() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let u32_ty = m.u32_ty();
        let vec4 = m.b.type_vector(f32_ty, 4);
        let mat4 = m.b.type_matrix(vec4, 4);
        let four = m.b.constant_bit32(u32_ty, 4);
        let arr = m.b.type_array(f32_ty, four);
        m.b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(16)]);
        // uniform Params { vec4 v; mat4 m; float a[4]; } at set 2, binding 0.
        let params = m.b.type_struct([vec4, mat4, arr]);
        m.b.decorate(params, Decoration::Block, []);
        m.offset(params, 0, 0);
        m.offset(params, 1, 16);
        m.b.member_decorate(params, 1, Decoration::ColMajor, []);
        m.b.member_decorate(
            params,
            1,
            Decoration::MatrixStride,
            [Operand::LiteralBit32(16)],
        );
        m.offset(params, 2, 80);
        let ubo = m.var(params, StorageClass::Uniform, "params");
        m.set_binding(ubo, 2, 0);
        // Uniform + BufferBlock (SPIR-V 1.0 storage buffer) at set 0, binding 0,
        // with a u32 header and a runtime array of u32 at offset 16.
        let rt = m.b.type_runtime_array(u32_ty);
        m.b.decorate(rt, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
        let id = m.b.id();
        let old = m.b.type_struct_id(Some(id), [u32_ty, rt]);
        m.b.decorate(old, Decoration::BufferBlock, []);
        m.offset(old, 0, 0);
        m.offset(old, 1, 16);
        m.b.member_decorate(old, 1, Decoration::NonReadable, []);
        let ssbo = m.var(old, StorageClass::Uniform, "data");
        m.set_binding(ssbo, 0, 0);
        m.b.decorate(ssbo, Decoration::NonReadable, []);
        // push_constant { uint n; float scale; uint8-ish tail at 8 (u16) }
        let u16_ty = m.b.type_int(16, 0);
        let id = m.b.id();
        let pc_ty = m.b.type_struct_id(Some(id), [u32_ty, f32_ty, u16_ty]);
        m.b.decorate(pc_ty, Decoration::Block, []);
        m.offset(pc_ty, 0, 0);
        m.offset(pc_ty, 1, 4);
        m.offset(pc_ty, 2, 8);
        let pc = m.var(pc_ty, StorageClass::PushConstant, "pc");
        // LocalSizeId with a constant and a specialization constant.
        let eight = m.b.constant_bit32(u32_ty, 8);
        let spec = m.b.spec_constant_bit32(u32_ty, 2);
        let one = m.b.constant_bit32(u32_ty, 1);
        m.b.execution_mode_id(
            m.main,
            spirv::ExecutionMode::LocalSizeId,
            [eight, spec, one],
        );
        let words = m.finish(&[pc, ubo, ssbo], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.workgroup_size, [8, 2, 1]);
        assert_eq!(
            iface.push_constants,
            Some(PushConstantRange {
                offset: 0,
                size: 12
            })
        );
        assert_eq!(iface.sets(), vec![0, 2]);
        assert_eq!(
            iface.binding(0, 0),
            Some(&ResourceBinding {
                set: 0,
                binding: 0,
                descriptor_type: DescriptorType::StorageBuffer,
                access: Access::WriteOnly,
                min_size: 16,
                element_stride: Some(4),
                count: 1,
                texel_format: None,
            })
        );
        assert_eq!(
            iface.binding(2, 0),
            Some(&ResourceBinding {
                set: 2,
                binding: 0,
                descriptor_type: DescriptorType::UniformBuffer,
                access: Access::ReadOnly,
                min_size: 16 + 64 + 64,
                element_stride: None,
                count: 1,
                texel_format: None,
            })
        );
    }

    #[test]
    fn workgroup_size_builtin_wins_over_local_size() {
        let mut m = Module::new();
        let u32_ty = m.u32_ty();
        let v3 = m.b.type_vector(u32_ty, 3);
        let x = m.b.constant_bit32(u32_ty, 16);
        let y = m.b.spec_constant_bit32(u32_ty, 4);
        let z = m.b.constant_bit32(u32_ty, 1);
        let wg = m.b.spec_constant_composite(v3, [x, y, z]);
        m.b.decorate(
            wg,
            Decoration::BuiltIn,
            [Operand::BuiltIn(spirv::BuiltIn::WorkgroupSize)],
        );
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        let words = m.finish(&[], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.workgroup_size, [16, 4, 1]);
        assert!(iface.bindings.is_empty());
    }

    #[test]
    fn only_statically_used_resources_count_including_callees() {
        let mut m = Module::new();
        let used_in_callee = m.storage_buffer(0, 0, "used");
        let _unused = m.storage_buffer(0, 1, "unused");
        // helper() references `used`; main calls helper.
        let void = m.b.type_void();
        let fn_ty = m.b.type_function(void, []);
        let helper =
            m.b.begin_function(void, None, FunctionControl::NONE, fn_ty)
                .unwrap();
        m.b.begin_block(None).unwrap();
        let ptr = m.b.module_ref().types_global_values.iter().find_map(|i| {
            (i.result_id == Some(used_in_callee))
                .then_some(i.result_type)
                .flatten()
        });
        m.b.copy_object(ptr.unwrap(), None, used_in_callee).unwrap();
        m.b.ret().unwrap();
        m.b.end_function().unwrap();
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        // main: call helper.
        m.b.begin_function(void, Some(m.main), FunctionControl::NONE, fn_ty)
            .unwrap();
        m.b.begin_block(None).unwrap();
        m.b.function_call(void, None, helper, []).unwrap();
        m.b.ret().unwrap();
        m.b.end_function().unwrap();
        m.b.entry_point(ExecutionModel::GLCompute, m.main, "main", []);
        let words = m.b.module().assemble();
        let iface = reflect_binary(&words, "main").unwrap();
        let keys: Vec<_> = iface.bindings.iter().map(ResourceBinding::key).collect();
        assert_eq!(keys, vec![(0, 0)]);
    }

    #[test]
    fn images_and_samplers() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let storage = m.b.type_image(
            f32_ty,
            spirv::Dim::Dim2D,
            0,
            0,
            0,
            2,
            spirv::ImageFormat::Rgba32f,
            None,
        );
        let sampled = m.b.type_image(
            f32_ty,
            spirv::Dim::Dim2D,
            0,
            0,
            0,
            1,
            spirv::ImageFormat::Unknown,
            None,
        );
        let sampler = m.b.type_sampler();
        let combined = m.b.type_sampled_image(sampled);
        let img_ro = m.var(storage, StorageClass::UniformConstant, "img_ro");
        m.set_binding(img_ro, 0, 0);
        m.b.decorate(img_ro, Decoration::NonWritable, []);
        let img_rw = m.var(storage, StorageClass::UniformConstant, "img_rw");
        m.set_binding(img_rw, 0, 1);
        let tex = m.var(sampled, StorageClass::UniformConstant, "tex");
        m.set_binding(tex, 1, 0);
        let smp = m.var(sampler, StorageClass::UniformConstant, "smp");
        m.set_binding(smp, 1, 1);
        let comb = m.var(combined, StorageClass::UniformConstant, "comb");
        m.set_binding(comb, 1, 2);
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [8, 8, 1]);
        let words = m.finish(&[img_ro, img_rw, tex, smp, comb], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        let got: Vec<_> = iface
            .bindings
            .iter()
            .map(|b| (b.set, b.binding, b.descriptor_type, b.access))
            .collect();
        use DescriptorType as D;
        assert_eq!(
            got,
            vec![
                (0, 0, D::StorageImage, Access::ReadOnly),
                (0, 1, D::StorageImage, Access::ReadWrite),
                (1, 0, D::SampledImage, Access::ReadOnly),
                (1, 1, D::Sampler, Access::ReadOnly),
                (1, 2, D::CombinedImageSampler, Access::ReadOnly),
            ]
        );
    }

    #[test]
    fn texel_buffers_report_type_access_and_format() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let u32_ty = m.u32_ty();
        let buffer_image = |m: &mut Module, ty, sampled, format| {
            m.b.type_image(ty, spirv::Dim::DimBuffer, 0, 0, 0, sampled, format, None)
        };
        let uniform_f = buffer_image(&mut m, f32_ty, 1, spirv::ImageFormat::Rgba32f);
        let uniform_u = buffer_image(&mut m, u32_ty, 1, spirv::ImageFormat::Rgba32ui);
        let storage_r = buffer_image(&mut m, f32_ty, 2, spirv::ImageFormat::R32f);
        let storage_unknown = buffer_image(&mut m, f32_ty, 2, spirv::ImageFormat::Unknown);
        let a = m.var(uniform_f, StorageClass::UniformConstant, "a");
        m.set_binding(a, 0, 0);
        let b = m.var(uniform_u, StorageClass::UniformConstant, "b");
        m.set_binding(b, 0, 1);
        let out = m.var(storage_r, StorageClass::UniformConstant, "out");
        m.set_binding(out, 0, 2);
        m.b.decorate(out, Decoration::NonReadable, []);
        let any = m.var(storage_unknown, StorageClass::UniformConstant, "any");
        m.set_binding(any, 1, 0);
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [64, 1, 1]);
        let words = m.finish(&[a, b, out, any], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.check(), Ok(()));
        let got: Vec<_> = iface
            .bindings
            .iter()
            .map(|b| {
                (
                    b.key(),
                    b.descriptor_type,
                    b.access,
                    b.texel_format,
                    b.min_size,
                )
            })
            .collect();
        use kiln_abi::TexelFormat as F;
        use DescriptorType as D;
        assert_eq!(
            got,
            vec![
                (
                    (0, 0),
                    D::UniformTexelBuffer,
                    Access::ReadOnly,
                    Some(F::Rgba32f),
                    0
                ),
                (
                    (0, 1),
                    D::UniformTexelBuffer,
                    Access::ReadOnly,
                    Some(F::Rgba32ui),
                    0
                ),
                (
                    (0, 2),
                    D::StorageTexelBuffer,
                    Access::WriteOnly,
                    Some(F::R32f),
                    0
                ),
                (
                    (1, 0),
                    D::StorageTexelBuffer,
                    Access::ReadWrite,
                    Some(F::Unknown),
                    0
                ),
            ]
        );
    }

    #[test]
    fn texel_buffer_formats_kiln_cannot_bind_are_unsupported() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let rg = m.b.type_image(
            f32_ty,
            spirv::Dim::DimBuffer,
            0,
            0,
            0,
            1,
            spirv::ImageFormat::Rg32f,
            None,
        );
        let v = m.var(rg, StorageClass::UniformConstant, "rg");
        m.set_binding(v, 0, 3);
        let err = m.reflect_err(&[v]);
        assert!(matches!(err, ReflectError::Unsupported { .. }), "{err}");
        assert!(
            err.to_string().ends_with(
                "(binding 0:3): a texel buffer of image format 6 (kiln binds Rgba32f, Rgba32i, \
                 Rgba32ui, Rgba16f, R32f, R32i, R32ui) is not supported"
            ),
            "{err}"
        );
    }

    #[test]
    fn aliased_bindings_merge() {
        let mut m = Module::new();
        let a = m.storage_buffer(0, 0, "as_f32");
        let b = m.storage_buffer(0, 0, "again");
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        let words = m.finish(&[a, b], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.bindings.len(), 1);
    }

    #[test]
    fn entry_point_not_found_lists_available() {
        let mut m = Module::new();
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        let words = m.finish(&[], &[]);
        let err = reflect_binary(&words, "nope").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no GLCompute entry point named \"nope\"; the module's entry points are: \
             \"main\" (GLCompute)"
        );
    }

    #[test]
    fn non_compute_entry_point() {
        let mut m = Module::new();
        let void = m.b.type_void();
        let fn_ty = m.b.type_function(void, []);
        m.b.begin_function(void, Some(m.main), FunctionControl::NONE, fn_ty)
            .unwrap();
        m.b.begin_block(None).unwrap();
        m.b.ret().unwrap();
        m.b.end_function().unwrap();
        m.b.entry_point(ExecutionModel::Fragment, m.main, "frag", []);
        let words = m.b.module().assemble();
        let err = reflect_binary(&words, "frag").unwrap_err();
        assert_eq!(
            err.to_string(),
            "entry point \"frag\" has execution model Fragment, not GLCompute"
        );
    }

    #[test]
    fn missing_workgroup_size() {
        let words = Module::new().finish(&[], &[]);
        let err = reflect_binary(&words, "main").unwrap_err();
        assert_eq!(
            err.to_string(),
            "entry point \"main\" declares no workgroup size \
             (no LocalSize, LocalSizeId or WorkgroupSize built-in)"
        );
    }

    #[test]
    fn missing_binding_decoration() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let s = m.runtime_array_block(f32_ty, 4);
        let v = m.var(s, StorageClass::StorageBuffer, "buf");
        m.b.decorate(v, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!("variable %{v} \"buf\": missing Binding decoration")
        );
    }

    #[test]
    fn array_size_overflow_is_an_error() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let u64_ty = m.b.type_int(64, 0);
        let len = m.b.constant_bit64(u64_ty, u64::MAX);
        let arr = m.b.type_array(f32_ty, len);
        m.b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(16)]);
        let s = m.b.type_struct([arr]);
        m.b.decorate(s, Decoration::Block, []);
        m.offset(s, 0, 0);
        let v = m.var(s, StorageClass::Uniform, "params");
        m.set_binding(v, 0, 0);
        let err = m.reflect_err(&[v]);
        assert!(
            err.to_string()
                .ends_with(&format!("the size of type %{arr} does not fit in 64 bits")),
            "{err}"
        );
    }

    #[test]
    fn self_containing_struct_is_an_error() {
        let mut m = Module::new();
        let s = m.b.id();
        m.b.type_struct_id(Some(s), [s]);
        m.b.decorate(s, Decoration::Block, []);
        m.offset(s, 0, 0);
        let v = m.var(s, StorageClass::Uniform, "params");
        m.set_binding(v, 0, 0);
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!(
                "variable %{v} \"params\" (binding 0:0): \
                 type %{s} uses type %{s} before its definition"
            )
        );
    }

    #[test]
    fn self_containing_workgroup_struct_is_an_error() {
        let mut m = Module::new();
        let s = m.b.id();
        m.b.type_struct_id(Some(s), [s]);
        let v = m.var(s, StorageClass::Workgroup, "shared");
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!("variable %{v} \"shared\": type %{s} uses type %{s} before its definition")
        );
    }

    #[test]
    fn workgroup_size_overflow_is_an_error() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let u64_ty = m.b.type_int(64, 0);
        let len = m.b.constant_bit64(u64_ty, u64::MAX);
        let arr = m.b.type_array(f32_ty, len);
        let v = m.var(arr, StorageClass::Workgroup, "shared");
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!("variable %{v} \"shared\": the size of type %{arr} does not fit in 64 bits")
        );
    }

    #[test]
    fn forward_pointer_member_is_allowed() {
        let mut m = Module::new();
        let u32_ty = m.u32_ty();
        let ptr = m.b.id();
        m.b.type_forward_pointer(ptr, StorageClass::PhysicalStorageBuffer);
        let id = m.b.id();
        let s = m.b.type_struct_id(Some(id), [u32_ty, ptr]);
        m.b.type_pointer(Some(ptr), StorageClass::PhysicalStorageBuffer, s);
        m.b.decorate(s, Decoration::Block, []);
        m.offset(s, 0, 0);
        m.offset(s, 1, 8);
        let v = m.var(s, StorageClass::StorageBuffer, "list");
        m.set_binding(v, 0, 0);
        let w = m.var(s, StorageClass::Workgroup, "shared");
        m.b.execution_mode(m.main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        let words = m.finish(&[v, w], &[]);
        let iface = reflect_binary(&words, "main").unwrap();
        assert_eq!(iface.bindings[0].min_size, 16);
        assert_eq!(iface.workgroup_memory, 16);
    }

    #[test]
    fn missing_array_stride() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let arr = m.b.type_runtime_array(f32_ty);
        let s = m.b.type_struct([arr]);
        m.b.decorate(s, Decoration::Block, []);
        m.offset(s, 0, 0);
        let v = m.var(s, StorageClass::StorageBuffer, "buf");
        m.set_binding(v, 0, 3);
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!(
                "variable %{v} \"buf\" (binding 0:3) (array type %{arr}): \
                 missing ArrayStride decoration"
            )
        );
    }

    #[test]
    fn conflicting_alias_is_an_error() {
        let mut m = Module::new();
        let a = m.storage_buffer(0, 0, "ssbo");
        let f32_ty = m.f32_ty();
        let id = m.b.id();
        let s = m.b.type_struct_id(Some(id), [f32_ty]);
        m.b.decorate(s, Decoration::Block, []);
        m.offset(s, 0, 0);
        let u = m.var(s, StorageClass::Uniform, "ubo");
        m.set_binding(u, 0, 0);
        let err = m.reflect_err(&[a, u]);
        assert_eq!(
            err.to_string(),
            format!(
                "binding 0:0 is declared as a storage buffer by variable %{a} \"ssbo\" \
                 and as a uniform buffer by variable %{u} \"ubo\""
            )
        );
    }

    #[test]
    fn descriptor_arrays_count_their_elements() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let u32_ty = m.u32_ty();
        let s = m.runtime_array_block(f32_ty, 4);
        let two = m.b.constant_bit32(u32_ty, 2);
        let arr = m.b.type_array(s, two);
        let v = m.var(arr, StorageClass::StorageBuffer, "bufs");
        m.set_binding(v, 1, 0);
        let iface = m.reflect(&[v]);
        let b = iface.binding(1, 0).expect("binding 1:0");
        assert_eq!((b.count, b.min_size, b.element_stride), (2, 0, Some(4)));
        assert_eq!(b.descriptor_type, DescriptorType::StorageBuffer);
    }

    #[test]
    fn runtime_descriptor_arrays_are_unsupported() {
        let mut m = Module::new();
        let f32_ty = m.f32_ty();
        let s = m.runtime_array_block(f32_ty, 4);
        let arr = m.b.type_runtime_array(s);
        let v = m.var(arr, StorageClass::StorageBuffer, "bufs");
        m.set_binding(v, 1, 0);
        let err = m.reflect_err(&[v]);
        assert_eq!(
            err.to_string(),
            format!(
                "variable %{v} \"bufs\" (binding 1:0): a runtime array of descriptors \
                 (descriptor indexing) is not supported"
            )
        );
    }

    #[test]
    fn garbage_is_a_parse_error() {
        let err = reflect_binary(&[1, 2, 3], "main").unwrap_err();
        assert!(matches!(err, ReflectError::Parse { .. }), "{err:?}");
        let err = reflect_binary(&[], "main").unwrap_err();
        assert!(matches!(err, ReflectError::Parse { .. }), "{err:?}");
    }
}
