//! `lower-abi-attrs`: turns an entry function's shader-interface attributes
//! into global variables, an entry point and execution modes (MLIR's
//! `LowerABIAttributesPass`, `-spirv-lower-abi-attrs`).
//!
//! A function is an *entry function* when it carries
//! `spirv.entry_point_abi` or any of its arguments carries
//! `spirv.interface_var_abi`. For each one, [`run`]:
//!
//! 1. creates one `spv.GlobalVariable @<fn>_arg_<i> bind(set, binding)` per
//!    argument, right before the function:
//!    * a pointer argument in `StorageBuffer` or `Uniform` storage keeps its
//!      storage class; its pointee, wrapped in a one-member struct when it
//!      is not a struct already (Vulkan wants a `Block` struct there; the
//!      serializer adds `Block`), is given an explicit layout
//!      ([`crate::layout::block::decorate`]): std430 for storage buffers,
//!      std140 for uniform buffers, scalar layout for both when
//!      [`LowerAbiOptions::scalar_block_layout`] asks for it; a pointee
//!      that is an array of structs is an array of descriptors: each
//!      struct is laid out, the array has no stride;
//!    * a pointer argument in `UniformConstant` storage (images, samplers)
//!      becomes a variable of the same type, without layout;
//!    * a scalar or vector argument whose ABI names `StorageBuffer` or
//!      `Uniform` becomes a variable of a one-member block (as MLIR does);
//!    * scalar or vector arguments whose ABI names `PushConstant` or no
//!      storage class are gathered, in argument order, into **one**
//!      push-constant block (std430, or scalar layout when asked), named
//!      `@<fn>_arg_<i>` when there is one such argument (MLIR's name) and
//!      `@<fn>_push_constants` when there are several; Vulkan allows one
//!      push-constant block per entry point, and push-constant variables
//!      carry no `DescriptorSet`/`Binding` (spirv-val rejects them: VUID
//!      06491). A pointer argument in `PushConstant` storage is that block
//!      itself and may not be combined with scalar push-constant arguments;
//!    * `spirv.decoration = #spirv.decoration<X>` entries of the argument's
//!      attribute dictionary (for instance `NonWritable`) move to the
//!      variable;
//! 2. replaces each used argument by `spv.mlir.addressof` of its variable
//!    at the top of the entry block (followed by `spv.AccessChain %v[0]` for
//!    a wrapped pointee, and `spv.AccessChain` + `spv.Load` for a scalar);
//!    an unused argument's variable is declared but not referenced (MLIR
//!    takes its address anyway, which leaves no trace in the binary), so it
//!    is not part of the entry point's pipeline interface.
//!    Where MLIR inserts a `spv.Bitcast` from the laid-out pointer to the
//!    argument's original type (which spirv-val rejects in logical
//!    addressing), kiln re-types the uses instead: access chains, loads,
//!    `spv.CompositeExtract` and `spv.CopyObject` get the laid-out result
//!    types, transitively; any
//!    other op that would see a changed aggregate type is an error naming
//!    it;
//! 3. drops the arguments, `arg_attrs` and `spirv.entry_point_abi` (the
//!    function type becomes `() -> ()`); a `subgroup_size` stays behind as
//!    `spirv.entry_point_abi<subgroup_size = N>`, as in MLIR (a Vulkan
//!    shader cannot declare it; the runtime sets it at pipeline creation);
//! 4. adds `spv.EntryPoint "GLCompute" @fn` unless the module has one for
//!    the function, and gives the entry point its interface list: from
//!    SPIR-V 1.4 on every global variable the function and its callees
//!    reference, before that only the `Input`/`Output` ones (the module's
//!    `vce_triple` version decides, else the target env's);
//! 5. adds `spv.ExecutionMode @fn "LocalSize", x, y, z` from the
//!    `workgroup_size` of `spirv.entry_point_abi` (an existing `LocalSize`
//!    or `LocalSizeId` mode is kept; a function with neither is an error, a
//!    Vulkan compute shader needs one) and `"SignedZeroInfNanPreserve",
//!    width` for its `target_width` and, with
//!    [`LowerAbiOptions::signed_zero_inf_nan_preserve`], for every float
//!    width the module computes in that the target env preserves
//!    ([`TargetEnv::preserves_signed_zero_inf_nan`]), and `"DenormPreserve",
//!    width` likewise ([`TargetEnv::preserves_denormals`]). With
//!    [`LowerAbiOptions::workgroup_size_spec_ids`] the workgroup size is
//!    also made specializable: three `spv.SpecConstant`s with those
//!    `spec_id`s (defaults from the ABI) in a `WorkgroupSize` built-in
//!    `spv.SpecConstantComposite`, as glslang does for `local_size_x_id`
//!    (kiln's IR has no id-operand form of `LocalSizeId` for spec
//!    constants).
//!
//! The pass does not touch the VCE triple: run `update-vce` afterwards
//! when a new feature (`SignedZeroInfNanPreserve`) needs one
//! ([`super::pipeline`] runs both, and the interface lists again).

use std::collections::{BTreeSet, HashMap, HashSet};

use kiln_abi::{AbiSyntax, EntryPointAbi, InterfaceVarAbi};

use crate::grammar::{
    Decoration, ExecutionMode, ExecutionModel, Opcode, OperandKind, StorageClass, Version,
};
use crate::ir::{
    AttrKind, Block, Location, Module, Op, OpKind, OpSpec, Type, TypeKind, UseMap, Value,
};
use crate::layout::block::{decorate, BlockLayoutError, BlockRules};
use crate::target::TargetEnv;
use crate::text::{self, Prefix};

/// Options of [`run_with`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerAbiOptions {
    /// Lay storage, uniform and push-constant blocks out with the scalar
    /// block layout (`VK_EXT_scalar_block_layout`; validate with
    /// `--scalar-block-layout`) instead of std430/std140.
    pub scalar_block_layout: bool,
    /// Make the workgroup size specializable: three `spv.SpecConstant`s
    /// with these `spec_id`s (defaults from the ABI) gathered into a
    /// `spv.SpecConstantComposite` decorated `BuiltIn WorkgroupSize`, which
    /// overrides the `LocalSize` mode (what glslang emits for
    /// `local_size_x_id`; valid from SPIR-V 1.0).
    pub workgroup_size_spec_ids: Option<[u32; 3]>,
    /// Declare `ExecutionMode SignedZeroInfNanPreserve <width>` on every
    /// entry point for each float width (16, 32, 64) that a value of the
    /// module has and the target env preserves
    /// ([`TargetEnv::preserves_signed_zero_inf_nan`]): without it a driver
    /// may fold `x * 0.0` to `+0` and `x + 0.0` to `x` (Mesa's NIR does),
    /// which IEEE does not allow. The same option declares `ExecutionMode
    /// DenormPreserve <width>` for each such width whose denormals the env
    /// preserves ([`TargetEnv::preserves_denormals`]): without it a driver
    /// may flush denormals to zero (NVIDIA's does for f32). kiln's kernel
    /// lowering asks for both; MLIR's pass has no such option (off by
    /// default).
    pub signed_zero_inf_nan_preserve: bool,
}

/// Why `lower-abi-attrs` failed. Every variant names the function.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LowerAbiError {
    /// An attribute is malformed.
    #[error("{loc}: @{func}: {what}: {reason}")]
    BadAttr {
        /// The function.
        func: String,
        /// Its location.
        loc: Location,
        /// Which attribute (`argument 2's spirv.interface_var_abi`).
        what: String,
        /// What is wrong.
        reason: String,
    },
    /// An argument of an entry function has no `spirv.interface_var_abi`.
    #[error("{loc}: @{func}: argument {index} has no spirv.interface_var_abi attribute")]
    MissingArgAbi {
        /// The function.
        func: String,
        /// Its location.
        loc: Location,
        /// The argument.
        index: usize,
    },
    /// An argument type or storage class the pass cannot turn into a
    /// resource variable.
    #[error("{loc}: @{func}: argument {index} of type {ty}: {reason}")]
    UnsupportedArg {
        /// The function.
        func: String,
        /// Its location.
        loc: Location,
        /// The argument.
        index: usize,
        /// Its type, printed.
        ty: String,
        /// Why.
        reason: String,
    },
    /// A block type cannot be laid out (why is the error's source).
    #[error("{loc}: @{func}: argument {index}")]
    Layout {
        /// The function.
        func: String,
        /// Its location.
        loc: Location,
        /// The argument.
        index: usize,
        /// The layout error.
        #[source]
        source: BlockLayoutError,
    },
    /// A use of an argument that cannot follow its new, laid-out type.
    #[error("{loc}: @{func}: '{op}' uses argument {index}, whose laid-out type differs: {reason}")]
    UnsupportedUse {
        /// The function.
        func: String,
        /// The using op's location.
        loc: Location,
        /// The using op's name.
        op: String,
        /// The argument.
        index: usize,
        /// Why.
        reason: String,
    },
    /// The function cannot be an entry function.
    #[error("{loc}: @{func}: {reason}")]
    BadFunction {
        /// The function.
        func: String,
        /// Its location.
        loc: Location,
        /// Why.
        reason: String,
    },
}

/// Runs the pass with default options: see the module docs.
///
/// `env` supplies the SPIR-V version when the module has no `vce_triple`
/// (it decides which globals the entry point's interface lists).
pub fn run(module: &mut Module, env: &TargetEnv) -> Result<(), LowerAbiError> {
    run_with(module, env, &LowerAbiOptions::default())
}

/// Runs the pass with `options`: see the module docs.
pub fn run_with(
    module: &mut Module,
    env: &TargetEnv,
    options: &LowerAbiOptions,
) -> Result<(), LowerAbiError> {
    let version = match module.attr_kind(module.top(), "vce_triple") {
        Some(AttrKind::Vce(vce)) => vce.version,
        _ => env.version(),
    };
    let funcs: Vec<Op> = module
        .module_ops()
        .iter()
        .copied()
        .filter(|&op| module.op(op).kind == OpKind::Func)
        .collect();
    // The float-controls modes to declare, each with its width.
    let mut preserve: Vec<(ExecutionMode, u32)> = Vec::new();
    if options.signed_zero_inf_nan_preserve {
        for w in float_widths(module) {
            if env.preserves_signed_zero_inf_nan(w) {
                preserve.push((ExecutionMode::SignedZeroInfNanPreserve, w));
            }
            if env.preserves_denormals(w) {
                preserve.push((ExecutionMode::DenormPreserve, w));
            }
        }
    }
    for func in funcs {
        if let Some(entry) = EntryFn::read(module, func)? {
            entry.lower(module, version, options, &preserve)?;
        }
    }
    Ok(())
}

/// The float widths of the module's values (operands, results and block
/// arguments of every op, vectors by their element), ascending.
pub fn float_widths(module: &Module) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let mut add = |ty: Type| {
        let scalar = module.types.scalar_of(ty);
        if module.types.is_float(scalar) {
            if let Some(w) = module.types.bit_width(scalar) {
                out.insert(w);
            }
        }
    };
    let mut stack = vec![module.top()];
    while let Some(op) = stack.pop() {
        let data = module.op(op);
        for &v in data.operands.iter().chain(&data.results) {
            add(module.value_type(v));
        }
        for &r in &data.regions {
            for &b in &module.region(r).blocks {
                for &arg in &module.block(b).args {
                    add(module.value_type(arg));
                }
                stack.extend_from_slice(&module.block(b).ops);
            }
        }
    }
    out
}

/// Recomputes the interface list of every `spv.EntryPoint` for the
/// module's current `vce_triple` version (none: SPIR-V 1.0): from 1.4 on
/// every global variable the entry function and its callees reference,
/// before that only the `Input`/`Output` ones (spirv-val rejects others).
///
/// The pass pipeline ([`super::pipeline`]) runs it after `update-vce`,
/// which may have changed the version the pass assumed (a module without a
/// `vce_triple` is lowered for the target env's version, and `update-vce`
/// may then choose a lower one, or raise a declared one).
pub fn update_entry_point_interfaces(module: &mut Module) {
    let version = match module.attr_kind(module.top(), "vce_triple") {
        Some(AttrKind::Vce(vce)) => vce.version,
        _ => Version::V1_0,
    };
    let eps: Vec<Op> = module
        .module_ops()
        .iter()
        .copied()
        .filter(|&op| module.op(op).kind == OpKind::EntryPoint)
        .collect();
    for ep in eps {
        let Some(func) = module
            .attr(ep, "fn")
            .and_then(|a| module.attrs.as_symbol(a))
            .and_then(|n| module.lookup_symbol(n))
        else {
            continue;
        };
        let names = interface_of(module, func, version);
        let list: Vec<_> = names.into_iter().map(|n| module.attrs.symbol(n)).collect();
        let a = module.attrs.array(list);
        module.set_attr(ep, "interface", a);
    }
}

/// An entry function's attributes, read before anything is changed.
struct EntryFn {
    func: Op,
    name: String,
    loc: Location,
    abi: EntryPointAbi,
    args: Vec<(InterfaceVarAbi, Vec<Decoration>)>,
    inputs: Vec<Type>,
}

/// A module variable planned for an entry function.
struct GlobalPlan {
    name: String,
    ty: Type,
    /// Its descriptor set and binding (`None` for push constants).
    binding: Option<InterfaceVarAbi>,
    decorations: Vec<Decoration>,
}

/// What [`EntryFn::plan`] decides, read by the later steps.
struct Plan {
    /// The function's entry block and its parameters.
    entry_block: Block,
    params: Vec<Value>,
    /// The variables to create, in order.
    globals: Vec<GlobalPlan>,
    /// How each argument is rebuilt.
    args: Vec<ArgPlan>,
    /// The symbol names chosen so far.
    taken: HashSet<String>,
}

/// The scalar push-constant arguments gathered while planning.
#[derive(Default)]
struct PushPlan {
    /// `(argument, type)` of each member, in argument order.
    members: Vec<(usize, Type)>,
    /// The pointer argument that is a push-constant block itself.
    pointer_arg: Option<usize>,
}

/// How one argument is rebuilt.
enum ArgPlan {
    /// `addressof` of its own variable, then access chain `[0]` when wrapped.
    Variable { var: String, wrapped: bool },
    /// Member `member` of the push-constant block `var`, loaded.
    PushMember { var: String, member: u32 },
}

impl EntryFn {
    fn read(m: &Module, func: Op) -> Result<Option<EntryFn>, LowerAbiError> {
        let name = m.symbol_name(func).unwrap_or("").to_owned();
        let loc = m.op(func).loc;
        let bad = |what: &str, reason: String| LowerAbiError::BadAttr {
            func: name.clone(),
            loc,
            what: what.to_owned(),
            reason,
        };
        let abi = match m.attr_kind(func, EntryPointAbi::ATTR_NAME) {
            None => None,
            Some(AttrKind::Dialect { name: n, body }) if n == EntryPointAbi::MNEMONIC => Some(
                EntryPointAbi::parse_body(body)
                    .map_err(|e| bad(EntryPointAbi::ATTR_NAME, e.to_string()))?,
            ),
            Some(_) => {
                return Err(bad(
                    EntryPointAbi::ATTR_NAME,
                    "expected #spirv.entry_point_abi<...>".into(),
                ))
            }
        };
        let inputs = match m
            .attr(func, "function_type")
            .and_then(|a| m.attrs.as_type(a))
        {
            Some(ty) => match m.types.kind(ty) {
                TypeKind::Function { inputs, results } => {
                    if abi.is_some() && !results.is_empty() {
                        return Err(LowerAbiError::BadFunction {
                            func: name,
                            loc,
                            reason: "an entry function must return nothing".into(),
                        });
                    }
                    inputs.clone()
                }
                _ => return Err(bad("function_type", "not a function type".into())),
            },
            None => return Err(bad("function_type", "missing".into())),
        };
        let dicts: Vec<Vec<(String, crate::ir::Attr)>> = match m.attr(func, "arg_attrs") {
            None => vec![Vec::new(); inputs.len()],
            Some(a) => m
                .attrs
                .as_array(a)
                .ok_or_else(|| bad("arg_attrs", "not an array".into()))?
                .iter()
                .map(|&d| match m.attrs.kind(d) {
                    AttrKind::Dict(entries) => Ok(entries.clone()),
                    _ => Err(bad("arg_attrs", "not an array of dictionaries".into())),
                })
                .collect::<Result<_, _>>()?,
        };
        let mut args = Vec::with_capacity(inputs.len());
        let mut any_abi = false;
        for index in 0..inputs.len() {
            let entries = dicts.get(index).cloned().unwrap_or_default();
            let mut var_abi = None;
            let mut decorations = Vec::new();
            for (key, value) in &entries {
                let key = key.as_str();
                if key == InterfaceVarAbi::ATTR_NAME || key == "spv.interface_var_abi" {
                    let what = format!("argument {index}'s {}", InterfaceVarAbi::ATTR_NAME);
                    match m.attrs.kind(*value) {
                        AttrKind::Dialect { name: n, body } if n == InterfaceVarAbi::MNEMONIC => {
                            var_abi = Some(
                                InterfaceVarAbi::parse_body(body)
                                    .map_err(|e| bad(&what, e.to_string()))?,
                            )
                        }
                        _ => {
                            return Err(bad(&what, "expected #spirv.interface_var_abi<...>".into()))
                        }
                    }
                } else if key == "spirv.decoration" || key == "spv.decoration" {
                    decorations.push(decoration_of(m, *value).ok_or_else(|| {
                        bad(
                            &format!("argument {index}'s spirv.decoration"),
                            "not a decoration without operands".into(),
                        )
                    })?);
                }
            }
            any_abi |= var_abi.is_some();
            args.push((var_abi, decorations));
        }
        if abi.is_none() && !any_abi {
            return Ok(None);
        }
        let args = args
            .into_iter()
            .enumerate()
            .map(|(index, (a, d))| {
                a.map(|a| (a, d))
                    .ok_or_else(|| LowerAbiError::MissingArgAbi {
                        func: name.clone(),
                        loc,
                        index,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(EntryFn {
            func,
            name,
            loc,
            abi: abi.unwrap_or_default(),
            args,
            inputs,
        }))
    }

    fn unsupported(&self, m: &Module, index: usize, reason: impl Into<String>) -> LowerAbiError {
        LowerAbiError::UnsupportedArg {
            func: self.name.clone(),
            loc: self.loc,
            index,
            ty: text::print_type(&m.types, self.inputs[index], Prefix::Spirv),
            reason: reason.into(),
        }
    }

    /// Lowers the entry function in the five steps of the module docs, each
    /// a method passing on the [`Plan`] of the first.
    fn lower(
        self,
        m: &mut Module,
        version: Version,
        options: &LowerAbiOptions,
        preserve: &[(ExecutionMode, u32)],
    ) -> Result<(), LowerAbiError> {
        let mut plan = self.plan(m, options)?;
        let global_types = self.create_variables(m, &plan);
        self.replace_arguments(m, &plan, &global_types)?;
        self.drop_abi_attrs(m, &plan);
        self.add_entry_point(m, version);
        self.add_execution_modes(m, options, preserve, &mut plan.taken)
    }

    /// Step 1: plans the variables: one per argument (or one push-constant block
    /// for the scalar ones) and how each argument is rebuilt from it.
    fn plan(&self, m: &mut Module, options: &LowerAbiOptions) -> Result<Plan, LowerAbiError> {
        let entry_block = m
            .op(self.func)
            .regions
            .first()
            .and_then(|&r| m.region(r).blocks.first().copied())
            .ok_or_else(|| LowerAbiError::BadFunction {
                func: self.name.clone(),
                loc: self.loc,
                reason: "an entry function needs a body".into(),
            })?;
        let params: Vec<Value> = m.block(entry_block).args.clone();
        if params.len() != self.inputs.len() {
            return Err(LowerAbiError::BadFunction {
                func: self.name.clone(),
                loc: self.loc,
                reason: format!(
                    "the entry block has {} arguments for {} parameters",
                    params.len(),
                    self.inputs.len()
                ),
            });
        }
        let mut plan = Plan {
            entry_block,
            params,
            globals: Vec::new(),
            args: Vec::with_capacity(self.inputs.len()),
            taken: HashSet::new(),
        };
        let mut push = PushPlan::default();
        for index in 0..self.args.len() {
            self.plan_argument(m, options, index, &mut plan, &mut push)?;
        }
        if !push.members.is_empty() {
            self.plan_push_constants(m, options, &mut plan, &push)?;
        }
        Ok(plan)
    }

    /// The variable of argument `index` (or its place in the push-constant
    /// block, gathered in `push`).
    fn plan_argument(
        &self,
        m: &mut Module,
        options: &LowerAbiOptions,
        index: usize,
        plan: &mut Plan,
        push: &mut PushPlan,
    ) -> Result<(), LowerAbiError> {
        let (var_abi, decorations) = &self.args[index];
        let ty = self.inputs[index];
        let own_name = format!("{}_arg_{index}", self.name);
        let layout = |m: &mut Module, pointee: Type, sc: StorageClass| {
            decorate(&mut m.types, pointee, block_rules(options, sc)).map_err(|source| {
                LowerAbiError::Layout {
                    func: self.name.clone(),
                    loc: self.loc,
                    index,
                    source,
                }
            })
        };
        let abi_sc = var_abi.storage_class.map(|s| s.value());
        match m.types.kind(ty).clone() {
            TypeKind::Pointer {
                pointee,
                storage_class,
            } => {
                if abi_sc.is_some_and(|s| s != storage_class as u32) {
                    return Err(self.unsupported(
                        m,
                        index,
                        format!(
                            "the ABI's storage class differs from the pointer's {}",
                            storage_class.name()
                        ),
                    ));
                }
                let var = unique_name(m, &mut plan.taken, &own_name);
                match storage_class {
                    StorageClass::StorageBuffer
                    | StorageClass::Uniform
                    | StorageClass::PushConstant => {
                        // An array of blocks is an array of descriptors
                        // (each block laid out, the array without stride).
                        let blocks = match m.types.kind(pointee) {
                            TypeKind::Array { len, element, .. }
                                if storage_class != StorageClass::PushConstant
                                    && matches!(m.types.kind(*element), TypeKind::Struct(_)) =>
                            {
                                Some((*len, *element))
                            }
                            _ => None,
                        };
                        let is_struct = blocks.is_some()
                            || matches!(m.types.kind(pointee), TypeKind::Struct(_));
                        let var_ty = if let Some((len, element)) = blocks {
                            let block = layout(m, element, storage_class)?;
                            let array = m.types.array(len, block, None);
                            m.types.pointer(array, storage_class)
                        } else {
                            let block = if is_struct {
                                pointee
                            } else {
                                m.types.struct_of(vec![(pointee, None)])
                            };
                            let block = layout(m, block, storage_class)?;
                            m.types.pointer(block, storage_class)
                        };
                        if storage_class == StorageClass::PushConstant {
                            if push.pointer_arg.replace(index).is_some() {
                                return Err(self.unsupported(
                                    m,
                                    index,
                                    "a second push-constant block (Vulkan allows one per entry point)",
                                ));
                            }
                            plan.globals.push(GlobalPlan {
                                name: var.clone(),
                                ty: var_ty,
                                binding: None,
                                decorations: decorations.clone(),
                            });
                        } else {
                            plan.globals.push(GlobalPlan {
                                name: var.clone(),
                                ty: var_ty,
                                binding: Some(*var_abi),
                                decorations: decorations.clone(),
                            });
                        }
                        plan.args.push(ArgPlan::Variable {
                            var,
                            wrapped: !is_struct,
                        });
                    }
                    StorageClass::UniformConstant => {
                        plan.globals.push(GlobalPlan {
                            name: var.clone(),
                            ty,
                            binding: Some(*var_abi),
                            decorations: decorations.clone(),
                        });
                        plan.args.push(ArgPlan::Variable {
                            var,
                            wrapped: false,
                        });
                    }
                    other => {
                        return Err(self.unsupported(
                            m,
                            index,
                            format!(
                                "{} is not a storage class of shader resources \
                                 (StorageBuffer, Uniform, UniformConstant, PushConstant)",
                                other.name()
                            ),
                        ))
                    }
                }
            }
            TypeKind::Int { .. } | TypeKind::Float(_) | TypeKind::Vector { .. } => {
                match var_abi.storage_class {
                    None | Some(kiln_abi::StorageClass::PushConstant) => {
                        push.members.push((index, ty));
                        plan.args.push(ArgPlan::PushMember {
                            var: String::new(),
                            member: 0,
                        });
                    }
                    Some(
                        sc @ (kiln_abi::StorageClass::StorageBuffer
                        | kiln_abi::StorageClass::Uniform),
                    ) => {
                        let sc = if sc == kiln_abi::StorageClass::Uniform {
                            StorageClass::Uniform
                        } else {
                            StorageClass::StorageBuffer
                        };
                        let var = unique_name(m, &mut plan.taken, &own_name);
                        let block = m.types.struct_of(vec![(ty, None)]);
                        let block = layout(m, block, sc)?;
                        let var_ty = m.types.pointer(block, sc);
                        plan.globals.push(GlobalPlan {
                            name: var.clone(),
                            ty: var_ty,
                            binding: Some(*var_abi),
                            decorations: decorations.clone(),
                        });
                        plan.args.push(ArgPlan::PushMember { var, member: 0 });
                    }
                    Some(sc) => {
                        return Err(self.unsupported(
                            m,
                            index,
                            format!(
                                "a scalar or vector argument must live in StorageBuffer, \
                                 Uniform or PushConstant storage, not {}",
                                sc.name()
                            ),
                        ))
                    }
                }
            }
            _ => {
                return Err(self.unsupported(
                    m,
                    index,
                    "an entry-function argument must be a pointer, scalar or vector",
                ))
            }
        }
        Ok(())
    }

    /// The one push-constant block of the scalar arguments in `push`.
    fn plan_push_constants(
        &self,
        m: &mut Module,
        options: &LowerAbiOptions,
        plan: &mut Plan,
        push: &PushPlan,
    ) -> Result<(), LowerAbiError> {
        if let Some(index) = push.pointer_arg {
            return Err(self.unsupported(
                m,
                index,
                "a push-constant block together with scalar push-constant arguments \
                 (Vulkan allows one push-constant block per entry point)",
            ));
        }
        let var = if push.members.len() == 1 {
            // The argument's own name, as MLIR names it.
            unique_name(
                m,
                &mut plan.taken,
                &format!("{}_arg_{}", self.name, push.members[0].0),
            )
        } else {
            unique_name(m, &mut plan.taken, &format!("{}_push_constants", self.name))
        };
        let block = m
            .types
            .struct_of(push.members.iter().map(|&(_, t)| (t, None)).collect());
        let first = push.members[0].0;
        let block = decorate(
            &mut m.types,
            block,
            block_rules(options, StorageClass::PushConstant),
        )
        .map_err(|source| LowerAbiError::Layout {
            func: self.name.clone(),
            loc: self.loc,
            index: first,
            source,
        })?;
        let var_ty = m.types.pointer(block, StorageClass::PushConstant);
        plan.globals.push(GlobalPlan {
            name: var.clone(),
            ty: var_ty,
            binding: None,
            decorations: Vec::new(),
        });
        for (member, &(index, _)) in push.members.iter().enumerate() {
            plan.args[index] = ArgPlan::PushMember {
                var: var.clone(),
                member: member as u32,
            };
        }
        Ok(())
    }

    /// Step 2: creates the planned variables before the function; returns their
    /// types by name.
    fn create_variables(&self, m: &mut Module, plan: &Plan) -> HashMap<String, Type> {
        let i32_ty = m.types.int(32);
        let mut global_types = HashMap::new();
        for GlobalPlan {
            name,
            ty,
            binding: var_abi,
            decorations,
        } in &plan.globals
        {
            let mut spec = OpSpec::new(OpKind::GlobalVariable).loc(self.loc);
            let a = m.attrs.string(name.clone());
            spec = spec.attr("sym_name", a);
            let a = m.attrs.ty(*ty);
            spec = spec.attr("type", a);
            if let Some(v) = var_abi {
                let a = m.attrs.int(i128::from(v.descriptor_set), i32_ty);
                spec = spec.attr("descriptor_set", a);
                let a = m.attrs.int(i128::from(v.binding), i32_ty);
                spec = spec.attr("binding", a);
            }
            for d in decorations {
                let a = m.attrs.unit();
                spec = spec.attr(d.name(), a);
            }
            let op = m.create_op(spec);
            m.insert_op_before(self.func, op);
            global_types.insert(name.clone(), *ty);
        }

        global_types
    }

    /// Step 3: replaces each used argument by its variable (address, access
    /// chain, load), re-typing the uses that see a laid-out type.
    fn replace_arguments(
        &self,
        m: &mut Module,
        plan: &Plan,
        global_types: &HashMap<String, Type>,
    ) -> Result<(), LowerAbiError> {
        let i32_ty = m.types.int(32);
        let anchor = m.block(plan.entry_block).ops.first().copied();
        let insert = |m: &mut Module, spec: OpSpec| -> Value {
            let op = m.create_op(spec.loc(self.loc));
            match anchor {
                Some(a) => m.insert_op_before(a, op),
                None => m.append_op(plan.entry_block, op),
            }
            m.op(op).results[0]
        };
        let access_chain = OpKind::from(Opcode::AccessChain);
        let load = OpKind::from(Opcode::Load);
        // No arguments, nothing to replace: skip the walk.
        let mut uses = if plan.args.is_empty() {
            UseMap::default()
        } else {
            UseMap::build(m, self.func)
        };
        for (index, arg_plan) in plan.args.iter().enumerate() {
            let old = plan.params[index];
            if uses.users(old).is_empty() {
                // Nothing to replace: the variable exists but is not used
                // (as in the binary, where an unused address leaves no
                // trace), so it is not part of the pipeline interface.
                continue;
            }
            let (var, member, scalar) = match arg_plan {
                ArgPlan::Variable { var, wrapped } => (var, wrapped.then_some(0), false),
                ArgPlan::PushMember { var, member } => (var, Some(*member), true),
            };
            let var_ty = global_types[var];
            let sym = m.attrs.symbol(var.clone());
            let mut value = insert(
                m,
                OpSpec::new(OpKind::AddressOf)
                    .attr("variable", sym)
                    .results([var_ty]),
            );
            if let Some(member) = member {
                let (block, sc) = m
                    .types
                    .pointer_parts(var_ty)
                    .expect("variables are pointers");
                let member_ty = match m.types.kind(block) {
                    TypeKind::Struct(s) => s.members[member as usize].ty,
                    _ => unreachable!("blocks are structs"),
                };
                let c = m.attrs.int(i128::from(member), i32_ty);
                let idx = insert(
                    m,
                    OpSpec::new(OpKind::Constant)
                        .attr("value", c)
                        .results([i32_ty]),
                );
                let ptr_ty = m.types.pointer(member_ty, sc);
                value = insert(
                    m,
                    OpSpec::new(access_chain.clone())
                        .operands([value, idx])
                        .results([ptr_ty]),
                );
                if scalar {
                    value = insert(
                        m,
                        OpSpec::new(load.clone())
                            .operands([value])
                            .results([member_ty]),
                    );
                }
            }
            uses.replace_all_uses(m, old, value);
            if m.value_type(value) != self.inputs[index] {
                retype_uses(m, &mut uses, value, index, &self.name)?;
            }
        }
        Ok(())
    }

    /// Step 4: drops the parameters and the ABI attributes (a subgroup size
    /// stays).
    fn drop_abi_attrs(&self, m: &mut Module, plan: &Plan) {
        m.block_mut(plan.entry_block).args.clear();
        let fn_ty = m.types.function(Vec::new(), Vec::new());
        let a = m.attrs.ty(fn_ty);
        m.set_attr(self.func, "function_type", a);
        m.remove_attr(self.func, "arg_attrs");
        m.remove_attr(self.func, EntryPointAbi::ATTR_NAME);
        if let Some(subgroup_size) = self.abi.subgroup_size {
            // Kept for the runtime, as MLIR keeps it (a Vulkan shader cannot
            // declare its subgroup size).
            let rest = EntryPointAbi {
                subgroup_size: Some(subgroup_size),
                ..EntryPointAbi::default()
            };
            let a = m.attrs.intern(AttrKind::Dialect {
                name: EntryPointAbi::MNEMONIC.to_owned(),
                body: rest.body(AbiSyntax::Mlir),
            });
            m.set_attr(self.func, EntryPointAbi::ATTR_NAME, a);
        }
    }

    /// Step 5a: adds the entry point with its interface for `version` (or the
    /// interface joins an existing entry point's).
    fn add_entry_point(&self, m: &mut Module, version: Version) {
        let interface = interface_of(m, self.func, version);
        let fn_sym = m.attrs.symbol(self.name.clone());
        let existing_ep = m.module_ops().iter().copied().find(|&op| {
            m.op(op).kind == OpKind::EntryPoint
                && m.attr(op, "fn").and_then(|a| m.attrs.as_symbol(a)) == Some(self.name.as_str())
        });
        match existing_ep {
            Some(ep) => {
                let mut list: Vec<crate::ir::Attr> = m
                    .attr(ep, "interface")
                    .and_then(|a| m.attrs.as_array(a))
                    .map(<[_]>::to_vec)
                    .unwrap_or_default();
                for name in interface {
                    let s = m.attrs.symbol(name);
                    if !list.contains(&s) {
                        list.push(s);
                    }
                }
                let a = m.attrs.array(list);
                m.set_attr(ep, "interface", a);
            }
            None => {
                let model = m.attrs.enumerant(
                    OperandKind::ExecutionModel,
                    ExecutionModel::GLCompute as u32,
                );
                let list: Vec<_> = interface.into_iter().map(|n| m.attrs.symbol(n)).collect();
                let list = m.attrs.array(list);
                let body = m.body();
                m.build(
                    body,
                    OpSpec::new(OpKind::EntryPoint)
                        .attr("execution_model", model)
                        .attr("fn", fn_sym)
                        .attr("interface", list)
                        .loc(self.loc),
                );
            }
        }
    }

    /// Step 5b: `LocalSize` from the ABI's workgroup size (with specialization
    /// constants when asked), `SignedZeroInfNanPreserve` for its target
    /// width, and each mode and width of `preserve`, unless the module has
    /// them.
    fn add_execution_modes(
        &self,
        m: &mut Module,
        options: &LowerAbiOptions,
        preserve: &[(ExecutionMode, u32)],
        taken: &mut HashSet<String>,
    ) -> Result<(), LowerAbiError> {
        let i32_ty = m.types.int(32);
        let body = m.body();
        let has_mode = |m: &Module, modes: &[ExecutionMode]| {
            m.module_ops().iter().any(|&op| {
                m.op(op).kind == OpKind::ExecutionMode
                    && m.attr(op, "fn").and_then(|a| m.attrs.as_symbol(a))
                        == Some(self.name.as_str())
                    && matches!(
                        m.attr_kind(op, "execution_mode"),
                        Some(AttrKind::Enum { value, .. })
                            if modes.iter().any(|&x| x as u32 == *value)
                    )
            })
        };
        let add_mode = |m: &mut Module, mode: ExecutionMode, values: &[i128]| {
            let mode_attr = m.attrs.enumerant(OperandKind::ExecutionMode, mode as u32);
            let vals: Vec<_> = values.iter().map(|&v| m.attrs.int(v, i32_ty)).collect();
            let vals = m.attrs.array(vals);
            let fn_sym = m.attrs.symbol(self.name.clone());
            m.build(
                body,
                OpSpec::new(OpKind::ExecutionMode)
                    .attr("fn", fn_sym)
                    .attr("execution_mode", mode_attr)
                    .attr("values", vals)
                    .loc(self.loc),
            );
        };
        if !has_mode(m, &[ExecutionMode::LocalSize, ExecutionMode::LocalSizeId]) {
            let Some(size) = self.abi.workgroup_size else {
                return Err(LowerAbiError::BadFunction {
                    func: self.name.clone(),
                    loc: self.loc,
                    reason: "no workgroup size: give spirv.entry_point_abi a workgroup_size \
                             (or the module an ExecutionMode LocalSize)"
                        .into(),
                });
            };
            add_mode(m, ExecutionMode::LocalSize, &size.map(i128::from));
            if let Some(ids) = options.workgroup_size_spec_ids {
                // As glslang does for `local_size_x_id`: the LocalSize
                // above holds the defaults, overridden by a WorkgroupSize
                // built-in made of three specialization constants.
                let mut constituents = Vec::new();
                for (dim, (&id, &default)) in ids.iter().zip(size.iter()).enumerate() {
                    let name = unique_name(
                        m,
                        taken,
                        &format!("{}_workgroup_size_{}", self.name, ["x", "y", "z"][dim]),
                    );
                    let s = m.attrs.string(name.clone());
                    let id = m.attrs.int(i128::from(id), i32_ty);
                    let v = m.attrs.int(i128::from(default), i32_ty);
                    let op = m.create_op(
                        OpSpec::new(OpKind::SpecConstant)
                            .attr("sym_name", s)
                            .attr("spec_id", id)
                            .attr("default_value", v)
                            .loc(self.loc),
                    );
                    m.insert_op_before(self.func, op);
                    constituents.push(m.attrs.symbol(name));
                }
                let name = unique_name(m, taken, &format!("{}_workgroup_size", self.name));
                let s = m.attrs.string(name);
                let list = m.attrs.array(constituents);
                let v3 = m.types.vector(3, i32_ty);
                let ty = m.attrs.ty(v3);
                let builtin = m.attrs.string("WorkgroupSize");
                let op = m.create_op(
                    OpSpec::new(OpKind::SpecConstantComposite)
                        .attr("sym_name", s)
                        .attr("constituents", list)
                        .attr("type", ty)
                        .attr("built_in", builtin)
                        .loc(self.loc),
                );
                m.insert_op_before(self.func, op);
            }
        }
        if let Some(width) = self.abi.target_width {
            if !has_mode(m, &[ExecutionMode::SignedZeroInfNanPreserve]) {
                add_mode(
                    m,
                    ExecutionMode::SignedZeroInfNanPreserve,
                    &[i128::from(width)],
                );
            }
        }
        // The modes and widths already declared (by the module or the
        // target width).
        let declared: Vec<(u32, i128)> = m
            .module_ops()
            .iter()
            .filter(|&&op| {
                m.op(op).kind == OpKind::ExecutionMode
                    && m.attr(op, "fn").and_then(|a| m.attrs.as_symbol(a))
                        == Some(self.name.as_str())
            })
            .filter_map(|&op| {
                let mode = m
                    .attr(op, "execution_mode")
                    .and_then(|a| m.attrs.as_enum(a, OperandKind::ExecutionMode))?;
                let vals = m.attr(op, "values").and_then(|a| m.attrs.as_array(a))?;
                Some((mode, m.attrs.as_int(*vals.first()?)?))
            })
            .collect();
        for &(mode, width) in preserve {
            let width = i128::from(width);
            if !declared.contains(&(mode as u32, width)) {
                add_mode(m, mode, &[width]);
            }
        }
        Ok(())
    }
}

/// The block layout rules of a buffer in storage class `sc`.
fn block_rules(options: &LowerAbiOptions, sc: StorageClass) -> BlockRules {
    if options.scalar_block_layout {
        BlockRules::Scalar
    } else if sc == StorageClass::Uniform {
        BlockRules::Std140
    } else {
        BlockRules::Std430
    }
}

/// The decoration a `#spirv.decoration<X>` attribute names, when it takes
/// no operands.
fn decoration_of(m: &Module, attr: crate::ir::Attr) -> Option<Decoration> {
    let d = match m.attrs.kind(attr) {
        AttrKind::Dialect { name, body } if name == "decoration" => {
            Decoration::from_name(body.trim())?
        }
        AttrKind::Enum {
            kind: OperandKind::Decoration,
            value,
        } => Decoration::from_u32(*value)?,
        _ => return None,
    };
    d.desc().parameters.is_empty().then_some(d)
}

/// `base`, or `base_1`, `base_2`, ... when a module symbol or an earlier
/// choice already has that name.
fn unique_name(m: &Module, taken: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 0;
    while taken.contains(&name) || m.lookup_symbol(&name).is_some() {
        n += 1;
        name = format!("{base}_{n}");
    }
    taken.insert(name.clone());
    name
}

/// Gives the users of `value` (whose type changed to its laid-out form)
/// result types that follow, transitively.
fn retype_uses(
    m: &mut Module,
    uses: &mut UseMap,
    value: Value,
    index: usize,
    func_name: &str,
) -> Result<(), LowerAbiError> {
    let mut work = vec![value];
    while let Some(v) = work.pop() {
        for user in uses.users(v).to_vec() {
            let d = m.op(user);
            let kind = d.kind.clone();
            let loc = d.loc;
            let err = |m: &Module, reason: &str| LowerAbiError::UnsupportedUse {
                func: func_name.to_owned(),
                loc,
                op: format!("spirv.{}", m.op(user).kind.name()),
                index,
                reason: reason.to_owned(),
            };
            if d.successors.iter().any(|s| s.args.contains(&v)) {
                return Err(err(m, "passed to a block"));
            }
            let opname = kind.core_desc().map(|desc| desc.opname).unwrap_or("");
            let new_ty = match opname {
                "AccessChain"
                | "InBoundsAccessChain"
                | "PtrAccessChain"
                | "InBoundsPtrAccessChain"
                    if d.operands.first() == Some(&v) =>
                {
                    let skip = usize::from(opname.contains("Ptr"));
                    let indices: Vec<Value> =
                        d.operands.get(1 + skip..).unwrap_or_default().to_vec();
                    Some(access_chain_type(m, m.value_type(v), &indices).ok_or_else(|| {
                        err(m, "cannot follow the access chain's indices through the laid-out type")
                    })?)
                }
                "Load" => {
                    let (pointee, _) = m
                        .types
                        .pointer_parts(m.value_type(v))
                        .ok_or_else(|| err(m, "loads from a non-pointer"))?;
                    Some(pointee)
                }
                "CopyObject" => Some(m.value_type(v)),
                "CompositeExtract" if d.operands.first() == Some(&v) => {
                    let indices: Option<Vec<i128>> = m
                        .attr(user, "indices")
                        .and_then(|a| m.attrs.as_array(a))
                        .and_then(|items| items.iter().map(|&i| m.attrs.as_int(i)).collect());
                    let ty = indices.and_then(|ix| composite_member_type(m, m.value_type(v), &ix));
                    Some(ty.ok_or_else(|| err(m, "cannot follow the extract's indices"))?)
                }
                "Store" => {
                    if d.operands.get(1) == Some(&v) {
                        return Err(err(m, "stores a laid-out aggregate"));
                    }
                    let stored = d.operands.get(1).map(|&s| m.value_type(s));
                    let pointee = m.types.pointer_parts(m.value_type(v)).map(|p| p.0);
                    if stored != pointee {
                        return Err(err(m, "stores a value of the original, unlaid-out type"));
                    }
                    None
                }
                "ArrayLength" => None,
                name if name.starts_with("Atomic") => None,
                _ => return Err(err(m, "the op cannot take a value of the laid-out type")),
            };
            let Some(new_ty) = new_ty else { continue };
            let Some(&old_result) = m.op(user).results.first() else {
                return Err(err(m, "the op has no result"));
            };
            if m.value_type(old_result) == new_ty {
                continue;
            }
            // Rebuild the op with the new result type.
            let d = m.op(user).clone();
            let spec = OpSpec {
                kind: d.kind,
                operands: d.operands,
                result_types: vec![new_ty],
                attrs: d.attrs,
                successors: d.successors,
                regions: 0,
                loc: d.loc,
            };
            let new_op = m.create_op(spec);
            m.insert_op_before(user, new_op);
            let new_result = m.op(new_op).results[0];
            uses.replace_user(m, user, new_op);
            uses.replace_all_uses(m, old_result, new_result);
            m.detach_op(user);
            work.push(new_result);
        }
    }
    Ok(())
}

/// The result type of an access chain into `base` (a pointer) by
/// `indices`; struct indices must be constants.
fn access_chain_type(m: &mut Module, base: Type, indices: &[Value]) -> Option<Type> {
    let (mut ty, sc) = m.types.pointer_parts(base)?;
    for &i in indices {
        ty = match m.types.kind(ty).clone() {
            TypeKind::Struct(s) => {
                let op = m.defining_op(i)?;
                if m.op(op).kind != OpKind::Constant {
                    return None;
                }
                let n = m.attr(op, "value").and_then(|a| m.attrs.as_int(a))?;
                s.members.get(usize::try_from(n).ok()?)?.ty
            }
            TypeKind::Array { element, .. }
            | TypeKind::RuntimeArray { element, .. }
            | TypeKind::Vector { element, .. } => element,
            TypeKind::Matrix { column, .. } => column,
            _ => return None,
        };
    }
    Some(m.types.pointer(ty, sc))
}

/// The type reached from composite `ty` by literal `indices`.
fn composite_member_type(m: &Module, ty: Type, indices: &[i128]) -> Option<Type> {
    let mut ty = ty;
    for &i in indices {
        ty = match m.types.kind(ty) {
            TypeKind::Struct(s) => s.members.get(usize::try_from(i).ok()?)?.ty,
            TypeKind::Array { element, .. } | TypeKind::Vector { element, .. } => *element,
            TypeKind::Matrix { column, .. } => *column,
            _ => return None,
        };
    }
    Some(ty)
}

/// The symbols of the globals `func` and its callees reference through
/// `spv.mlir.addressof`, in first-use order: all of them from SPIR-V 1.4 on,
/// only `Input`/`Output` ones before.
fn interface_of(m: &Module, func: Op, version: Version) -> Vec<String> {
    let mut seen_fns: HashSet<Op> = HashSet::new();
    let mut stack = vec![func];
    let mut names: Vec<String> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    while let Some(f) = stack.pop() {
        if !seen_fns.insert(f) {
            continue;
        }
        m.walk(f, &mut |op| {
            let d = m.op(op);
            if d.kind == OpKind::AddressOf {
                if let Some(name) = m.attr(op, "variable").and_then(|a| m.attrs.as_symbol(a)) {
                    if seen.insert(name.to_owned()) {
                        names.push(name.to_owned());
                    }
                }
            } else if d.kind.is_core(Opcode::FunctionCall) {
                if let Some(callee) = m
                    .attr(op, "callee")
                    .and_then(|a| m.attrs.as_symbol(a))
                    .and_then(|n| m.lookup_symbol(n))
                {
                    stack.push(callee);
                }
            }
        });
    }
    names
        .into_iter()
        .filter(|name| {
            if version >= Version::V1_4 {
                return true;
            }
            let Some(var) = m.lookup_symbol(name) else {
                return false;
            };
            m.attr(var, "type")
                .and_then(|a| m.attrs.as_type(a))
                .and_then(|t| m.types.pointer_parts(t))
                .is_some_and(|(_, sc)| matches!(sc, StorageClass::Input | StorageClass::Output))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::serialize;
    use crate::reflect::reflect_module;
    use crate::text::PrintOptions;
    use crate::validate::{validate, ValidationEnv};

    fn lower(src: &str, options: &LowerAbiOptions) -> Result<Module, LowerAbiError> {
        let mut m = text::parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
        run_with(&mut m, &TargetEnv::default(), options)?;
        crate::ir::verify::verify(&m).unwrap_or_else(|e| panic!("verify: {e}"));
        Ok(m)
    }

    fn print(m: &Module) -> String {
        text::print(m, &PrintOptions::default())
    }

    const VCE: &str = "requires #spirv.vce<v1.3, [Shader], []>";

    /// The seeds' spelling lowers exactly like MLIR 19's.
    #[test]
    fn seeds_syntax_lowers_like_mlir_syntax() {
        let seeds = r#"spv.module Logical GLSL450 requires #spv.vce<v1.3, [Shader], []> {
  spv.func @f(%a: !spv.ptr<!spv.struct<(!spv.array<4 x f32>)>, StorageBuffer> {spv.interface_var_abi = #spv.interface_var_abi<(0, 1)>},
              %s: i32 {spv.interface_var_abi = #spv.interface_var_abi<(0, 0), StorageBuffer>}) "None"
  attributes {spv.entry_point_abi = #spv.entry_point_abi<local_size = dense<[16, 2, 1]> : vector<3xi32>>} {
    spv.Return
  }
}"#;
        let mlir = seeds.replace("spv.", "spirv.").replace(
            "local_size = dense<[16, 2, 1]> : vector<3xi32>",
            "workgroup_size = [16, 2, 1]",
        );
        let a = print(&lower(seeds, &LowerAbiOptions::default()).unwrap());
        let b = print(&lower(&mlir, &LowerAbiOptions::default()).unwrap());
        assert_eq!(a, b);
        assert!(
            a.contains("spirv.ExecutionMode @f \"LocalSize\", 16, 2, 1"),
            "{a}"
        );
        assert!(
            a.contains("@f_arg_1 bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>"),
            "{a}"
        );
    }

    /// Specializable workgroup size: a WorkgroupSize built-in of spec
    /// constants; valid, and reflected with its SpecIds from the IR.
    #[test]
    fn workgroup_size_from_spec_constants() {
        let src = format!(
            r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @g(%a: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 2, 1]>}} {{
    %n = "spirv.ArrayLength"(%a) {{array_member = 0 : i32}} : (!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer>) -> i32
    spirv.Return
  }}
}}"#
        );
        let options = LowerAbiOptions {
            workgroup_size_spec_ids: Some([10, 11, 12]),
            ..LowerAbiOptions::default()
        };
        let m = lower(&src, &options).unwrap();
        let text = print(&m);
        assert!(text.contains("built_in = \"WorkgroupSize\""), "{text}");
        let words = serialize(&m).unwrap();
        validate(&words, ValidationEnv::Vulkan1_1).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let iface = reflect_module(&m, "g").unwrap();
        assert_eq!(iface.workgroup_size, [64, 2, 1]);
        assert_eq!(
            iface.workgroup_size_spec_ids,
            [Some(10), Some(11), Some(12)]
        );
    }

    /// Scalar block layout packs a vec3 after a float; std430 aligns it
    /// to 16.
    #[test]
    fn scalar_block_layout_option() {
        let src = format!(
            r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @h(%a: !spirv.ptr<!spirv.struct<(f32, vector<3xf32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    spirv.Return
  }}
}}"#
        );
        let std430 = print(&lower(&src, &LowerAbiOptions::default()).unwrap());
        assert!(
            std430.contains("!spirv.struct<(f32 [0], vector<3xf32> [16])>"),
            "{std430}"
        );
        let options = LowerAbiOptions {
            scalar_block_layout: true,
            ..LowerAbiOptions::default()
        };
        let m = lower(&src, &options).unwrap();
        let scalar = print(&m);
        assert!(
            scalar.contains("!spirv.struct<(f32 [0], vector<3xf32> [4])>"),
            "{scalar}"
        );
        // A vec3 at offset 8 straddles a 16-byte boundary, which even the
        // relaxed (Vulkan 1.1) rules refuse: the validator accepts it only
        // with the scalar rules on.
        assert!(validate(&serialize(&m).unwrap(), ValidationEnv::Vulkan1_1).is_ok());
        let src = src.replace("(f32, vector<3xf32>)", "(f32, f32, vector<3xf32>)");
        let m = lower(&src, &options).unwrap();
        let scalar = print(&m);
        assert!(
            scalar.contains("!spirv.struct<(f32 [0], f32 [4], vector<3xf32> [8])>"),
            "{scalar}"
        );
        let words = serialize(&m).unwrap();
        assert!(validate(&words, ValidationEnv::Vulkan1_1).is_err());
        let rules = crate::validate::LayoutRules {
            scalar_block_layout: true,
            ..Default::default()
        };
        crate::validate::validate_with(&words, ValidationEnv::Vulkan1_1, rules)
            .unwrap_or_else(|e| panic!("{e}\n{scalar}"));
    }

    /// Images stay UniformConstant variables without layout; target_width
    /// becomes SignedZeroInfNanPreserve.
    #[test]
    fn image_argument_and_target_width() {
        let src = format!(
            r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @i(%img: !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant> {{spirv.interface_var_abi = #spirv.interface_var_abi<(1, 3)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 8, 1], target_width = 32>}} {{
    %0 = spirv.Load "UniformConstant" %img : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
    spirv.Return
  }}
}}"#
        );
        let m = lower(&src, &LowerAbiOptions::default()).unwrap();
        let text = print(&m);
        assert!(
            text.contains("spirv.GlobalVariable @i_arg_0 bind(1, 3) : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>"),
            "{text}"
        );
        assert!(
            text.contains("spirv.ExecutionMode @i \"SignedZeroInfNanPreserve\", 32"),
            "{text}"
        );
    }

    /// With `signed_zero_inf_nan_preserve`, each float width the module
    /// computes in and the env preserves gets the mode once (the target
    /// width's mode counts); other widths and other envs get none.
    /// The lines naming execution mode `mode` after lowering module `src`
    /// for `env`, with the float-controls modes on or off.
    fn float_modes(src: &str, env: &TargetEnv, on: bool, mode: &str) -> Vec<String> {
        let mut m = text::parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
        let options = LowerAbiOptions {
            signed_zero_inf_nan_preserve: on,
            ..LowerAbiOptions::default()
        };
        run_with(&mut m, env, &options).unwrap();
        print(&m)
            .lines()
            .filter(|l| l.contains(mode))
            .map(|l| l.trim().to_string())
            .collect()
    }

    #[test]
    fn signed_zero_inf_nan_preserve_per_width() {
        let src = |abi: &str| {
            format!(
                r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @k(%a: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]{abi}>}} {{
    %x = spirv.Constant 1.0 : f64
    %y = spirv.FMul %x, %x : f64
    %h = spirv.Constant dense<1.0> : vector<2xf16>
    spirv.Return
  }}
}}"#
            )
        };
        let env = |widths: &str| -> TargetEnv {
            format!(
                "#spv.target_env<#spv.vce<v1.6, [Shader, Float16, Float64, \
                 SignedZeroInfNanPreserve], []>, {{signed_zero_inf_nan_preserve_widths = {widths}}}>"
            )
            .parse()
            .unwrap()
        };
        let run = |abi: &str, env: &TargetEnv, on: bool| {
            float_modes(&src(abi), env, on, "SignedZeroInfNanPreserve")
        };
        let mode = |w: u32| format!("spirv.ExecutionMode @k \"SignedZeroInfNanPreserve\", {w}");
        // f16 (a vector's element) and f64 are used; f32 only in the buffer
        // type, which no value has; the env preserves f64 and f32.
        assert_eq!(run("", &env("[32, 64]"), true), vec![mode(64)]);
        assert_eq!(
            run("", &env("[16, 32, 64]"), true),
            vec![mode(16), mode(64)]
        );
        assert_eq!(
            run(", target_width = 64", &env("[16, 32, 64]"), true),
            vec![mode(64), mode(16)]
        );
        assert!(run("", &env("[16, 32, 64]"), false).is_empty());
        assert!(run("", &TargetEnv::default(), true).is_empty());
    }

    /// With the same option, each float width the module computes in and
    /// the env lists in `denorm_preserve_widths` (with the `DenormPreserve`
    /// capability) gets `DenormPreserve` once; an env without the
    /// capability gets none, whatever it lists.
    #[test]
    fn denorm_preserve_per_width() {
        let src = format!(
            r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @k(%a: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>}} {{
    %x = spirv.Constant 1.0 : f32
    %y = spirv.FMul %x, %x : f32
    %h = spirv.Constant dense<1.0> : vector<2xf16>
    spirv.Return
  }}
}}"#
        );
        let env = |caps: &str, widths: &str| -> TargetEnv {
            format!(
                "#spv.target_env<#spv.vce<v1.6, [Shader, Float16{caps}], []>, \
                 {{denorm_preserve_widths = {widths}}}>"
            )
            .parse()
            .unwrap()
        };
        let run = |env: &TargetEnv| float_modes(&src, env, true, "DenormPreserve");
        let mode = |w: u32| format!("spirv.ExecutionMode @k \"DenormPreserve\", {w}");
        assert_eq!(
            run(&env(", DenormPreserve", "[16, 32, 64]")),
            vec![mode(16), mode(32)]
        );
        assert_eq!(run(&env(", DenormPreserve", "[64, 32]")), vec![mode(32)]);
        assert!(run(&env("", "[16, 32, 64]")).is_empty());
    }

    /// A laid-out aggregate passed where its old type is expected is an
    /// error naming the op and the argument.
    #[test]
    fn unsupported_use_is_an_error() {
        let src = format!(
            r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @callee(%p: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, StorageBuffer>) "None" {{
    spirv.Return
  }}
  spirv.func @j(%a: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    spirv.FunctionCall @callee(%a) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>)>, StorageBuffer>) -> ()
    spirv.Return
  }}
}}"#
        );
        let err = lower(&src, &LowerAbiOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "7:5: @j: 'spirv.FunctionCall' uses argument 0, whose laid-out type differs: \
             the op cannot take a value of the laid-out type"
        );
    }

    #[test]
    fn bad_arguments_are_errors() {
        let with = |arg: &str| {
            format!(
                r#"spirv.module Logical GLSL450 {VCE} {{
  spirv.func @k({arg}) "None" attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    spirv.Return
  }}
}}"#
            )
        };
        let err = lower(
            &with(
                "%a: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0), Workgroup>}",
            ),
            &LowerAbiOptions::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("argument 0 of type f32: a scalar or vector argument must live in StorageBuffer, Uniform or PushConstant storage, not Workgroup"), "{err}");
        let err = lower(
            &with("%a: !spirv.ptr<f32, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0), Uniform>}"),
            &LowerAbiOptions::default(),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("the ABI's storage class differs from the pointer's StorageBuffer"),
            "{err}"
        );
        let err = lower(
            &with("%a: !spirv.ptr<!spirv.struct<(f32)>, PushConstant> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}, %b: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}"),
            &LowerAbiOptions::default(),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("one push-constant block per entry point"),
            "{err}"
        );
    }
}
