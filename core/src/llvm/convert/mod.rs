//! The conversion proper: module-level ops here, functions and their ops
//! in the sibling files (one per op family, as the seed's tables group
//! them).
//!
//! Module-level ops:
//! * `spirv.GlobalVariable` → an LLVM global (MLIR ABI: `private` for
//!   `Private`, `external` otherwise, `constant` for `Input` and
//!   `UniformConstant`; a variable with `bind(S, B)` is named
//!   `[module_]name_descriptor_setS_bindingB` and a `location` is kept, as
//!   MLIR does) or a place in the kernel ABI ([`super::abi`]);
//! * `spirv.SpecConstant` / `SpecConstantComposite` → nothing: each
//!   `spirv.mlir.referenceof` becomes the constant's value, the one given in
//!   [`ConvertOptions::spec_values`] for its `spec_id`, else its default;
//! * `spirv.EntryPoint` → nothing in the MLIR ABI; in the kernel ABI an
//!   entry wrapper and a [`KernelInfo`];
//! * `spirv.ExecutionMode` → in the MLIR ABI a constant struct global
//!   `__spv__<fn>_execution_mode_info_<mode>` holding `{mode, values...}` as
//!   MLIR does; in the kernel ABI `LocalSize` is the kernel's workgroup size.
//! * `spirv.func` → `llvm.func` ([`func`]).

mod arith;
mod composite;
mod constant;
mod coop;
mod func;
mod glsl;
mod group;
mod int_dot;
mod memory;

use std::collections::{BTreeSet, HashMap};

use super::abi::{self, KernelInfo, SlotInfo, VarPlace};
use super::builder::FnBuilder;
use super::error::ConvertError;
use super::ir::{Global, GlobalInit, LType, Linkage, LlvmModule};
use super::types::TypeConv;
use super::{Abi, ConvertOptions, Converted};
use crate::grammar::{BuiltIn, ExecutionMode, OperandKind, StorageClass};
use crate::ir::{Module, Op, OpKind, Type, TypeKind};
use crate::layout::{DataLayout, DataLayoutSpec};

pub(crate) use func::Fx;

/// Where a global variable's memory is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// An LLVM global of this name (MLIR ABI).
    Global(String),
    /// A resource slot (kernel ABI).
    Slot(u32),
    /// An array of descriptors (kernel ABI): `count` consecutive slots
    /// from `first`, each holding one block of type `block`.
    Slots { first: u32, count: u32, block: Type },
    /// In the workgroup block: variable index, offset, size.
    Workgroup(u32, u64, u64),
    /// In the private block: variable index, offset, size.
    Private(u32, u64, u64),
    /// A built-in of the context, at this offset from its start.
    Builtin(u64),
}

/// Module-wide conversion state.
pub(crate) struct Cx<'m> {
    pub m: &'m Module,
    pub tc: TypeConv<'m>,
    pub opts: &'m ConvertOptions,
    pub out: LlvmModule,
    /// Global variable name → where it lives, and its pointee type.
    pub places: HashMap<String, (Place, Type)>,
    /// Spec constant name → its op.
    pub specs: HashMap<String, Op>,
    /// Function name → (parameter types including the context, result type).
    pub sigs: HashMap<String, (Vec<LType>, LType)>,
    /// Runtime functions called so far.
    pub runtime: BTreeSet<&'static str>,
    /// Subgroup call sites numbered so far.
    pub sites: u32,
    pub uses_barriers: bool,
    pub uses_subgroups: bool,
    /// Whether cooperative matrices were converted (the code then depends
    /// on the subgroup size).
    pub uses_coop: bool,
    pub max_access: u64,
    pub slots: Vec<SlotInfo>,
    pub workgroup_vars: Vec<VarPlace>,
    pub private_vars: Vec<VarPlace>,
    /// Private variables with an initializer: (offset, initializer symbol).
    pub private_inits: Vec<(u64, Type, String)>,
}

impl Cx<'_> {
    /// Whether the kernel ABI is in use.
    pub fn kernel(&self) -> bool {
        self.opts.abi == Abi::Kernel
    }
}

/// The data layout the kernel ABI assumes: the host's, where 64-bit
/// integers are 8-byte aligned (MLIR's default makes them 4-byte aligned).
const HOST_LAYOUT: &str = "#dlti.dl_spec<#dlti.dl_entry<i8, dense<8> : vector<2xi64>>, \
     #dlti.dl_entry<i16, dense<16> : vector<2xi64>>, \
     #dlti.dl_entry<i32, dense<32> : vector<2xi64>>, \
     #dlti.dl_entry<i64, dense<64> : vector<2xi64>>>";

/// Converts `module` (see [`super`]).
pub(crate) fn convert(module: &Module, opts: &ConvertOptions) -> Result<Converted, ConvertError> {
    crate::ir::verify::verify(module)?;
    // The layout needs its key types interned; a copy of the module keeps
    // the caller's untouched (handles stay valid in the copy's store, and
    // the converter only reads types that exist in the original).
    let layout = match opts.abi {
        Abi::Mlir => {
            let mut scratch = module.clone();
            DataLayout::for_module(&mut scratch).map_err(|e| ConvertError::UnsupportedType {
                ty: "the module's data layout".into(),
                reason: e.to_string(),
            })?
        }
        Abi::Kernel => {
            let mut types = module.types.clone();
            let spec = DataLayoutSpec::parse(&mut types, HOST_LAYOUT)
                .expect("the host layout spec is valid");
            DataLayout::new(&spec)
        }
    };
    let mut cx = Cx {
        m: module,
        tc: TypeConv::new(&module.types, layout).with_subgroup_size(opts.subgroup_size),
        opts,
        out: LlvmModule {
            name: module.symbol_name(module.top()).map(str::to_owned),
            ..LlvmModule::default()
        },
        places: HashMap::new(),
        specs: HashMap::new(),
        sigs: HashMap::new(),
        runtime: BTreeSet::new(),
        sites: 0,
        uses_barriers: false,
        uses_subgroups: false,
        uses_coop: false,
        max_access: 16,
        slots: Vec::new(),
        workgroup_vars: Vec::new(),
        private_vars: Vec::new(),
        private_inits: Vec::new(),
    };
    let ops: Vec<Op> = module.module_ops().to_vec();
    // Symbols first: globals, spec constants and signatures are used
    // before their definitions in function bodies.
    for &op in &ops {
        match module.op(op).kind {
            OpKind::GlobalVariable => cx.global_variable(op)?,
            OpKind::SpecConstant | OpKind::SpecConstantComposite => {
                let name = module.symbol_name(op).unwrap_or_default().to_owned();
                cx.specs.insert(name, op);
            }
            OpKind::Func => cx.signature(op)?,
            _ => {}
        }
    }
    let mut kernels = Vec::new();
    for &op in &ops {
        match module.op(op).kind {
            OpKind::Func => {
                let f = func::convert_func(&mut cx, op)?;
                cx.out.functions.push(f);
            }
            OpKind::ExecutionMode if !cx.kernel() => cx.execution_mode_global(op)?,
            OpKind::EntryPoint if cx.kernel() => kernels.push(op),
            _ => {}
        }
    }
    let mut infos = Vec::new();
    for op in kernels {
        infos.push(cx.entry_point(op)?);
    }
    cx.declare_runtime();
    Ok(Converted {
        module: cx.out,
        kernels: infos,
    })
}

impl<'m> Cx<'m> {
    fn attr_str(&self, op: Op, name: &str) -> Option<&'m str> {
        self.m.attr(op, name).and_then(|a| self.m.attrs.as_str(a))
    }

    fn attr_int(&self, op: Op, name: &str) -> Option<i128> {
        self.m.attr(op, name).and_then(|a| self.m.attrs.as_int(a))
    }

    fn malformed(&self, op: Op, message: impl Into<String>) -> ConvertError {
        ConvertError::Malformed {
            op: self.m.op(op).kind.name().into_owned(),
            loc: self.m.op(op).loc,
            message: message.into(),
        }
    }

    /// The type attribute `type` of a module-level op.
    fn type_attr(&self, op: Op) -> Result<Type, ConvertError> {
        self.m
            .attr(op, "type")
            .and_then(|a| self.m.attrs.as_type(a))
            .ok_or_else(|| self.malformed(op, "has no `type`"))
    }

    /// Records a function's LLVM signature.
    fn signature(&mut self, op: Op) -> Result<(), ConvertError> {
        let name = self.m.symbol_name(op).unwrap_or_default().to_owned();
        let fty = self
            .m
            .attr(op, "function_type")
            .and_then(|a| self.m.attrs.as_type(a))
            .ok_or_else(|| self.malformed(op, "has no function type"))?;
        let TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone() else {
            return Err(self.malformed(op, "function_type is not a function type"));
        };
        let mut params = Vec::new();
        if self.kernel() {
            params.push(LType::PTR);
        }
        for t in inputs {
            params.push(self.tc.convert(t)?);
        }
        let ret = match results.first() {
            Some(&t) => self.tc.convert(t)?,
            None => LType::Void,
        };
        self.sigs.insert(name, (params, ret));
        Ok(())
    }

    /// Places a global variable (and, in the MLIR ABI, emits it).
    fn global_variable(&mut self, op: Op) -> Result<(), ConvertError> {
        let name = self.m.symbol_name(op).unwrap_or_default().to_owned();
        let ptr_ty = self.type_attr(op)?;
        let (pointee, sc) = self
            .m
            .types
            .pointer_parts(ptr_ty)
            .ok_or_else(|| self.malformed(op, "type is not a pointer"))?;
        let init_sym = self
            .m
            .attr(op, "initializer")
            .and_then(|a| self.m.attrs.as_symbol(a))
            .map(str::to_owned);
        // Every variable's type must convert (an image, say, has no LLVM
        // form), except an array of descriptors, whose elements are slots
        // of their own.
        let ty = match self.descriptor_array(pointee, sc) {
            Some(_) if self.kernel() => None,
            _ => Some(self.tc.convert(pointee)?),
        };
        if let (false, Some(ty)) = (self.kernel(), ty) {
            let init = match &init_sym {
                Some(sym) => Some(self.symbol_init(op, sym, pointee)?),
                None => None,
            };
            // A bound variable is named after its module, set and binding,
            // as MLIR's spirv-cpu-runner expects.
            let symbol = match (
                self.attr_int(op, "descriptor_set"),
                self.attr_int(op, "binding"),
            ) {
                (Some(set), Some(binding)) => {
                    let prefix = self
                        .m
                        .symbol_name(self.m.top())
                        .map(|m| format!("{m}_"))
                        .unwrap_or_default();
                    format!("{prefix}{name}_descriptor_set{set}_binding{binding}")
                }
                _ => name.clone(),
            };
            let location = self.attr_int(op, "location").map(|l| l as i64);
            self.out.globals.push(Global {
                name: symbol.clone(),
                ty,
                linkage: if sc == StorageClass::Private {
                    Linkage::Private
                } else {
                    Linkage::External
                },
                constant: matches!(sc, StorageClass::Input | StorageClass::UniformConstant),
                addr_space: 0,
                init,
                location,
            });
            self.places.insert(name, (Place::Global(symbol), pointee));
            return Ok(());
        }
        let place = match sc {
            StorageClass::StorageBuffer | StorageClass::Uniform | StorageClass::PushConstant => {
                let binding = match (
                    self.attr_int(op, "descriptor_set"),
                    self.attr_int(op, "binding"),
                ) {
                    (Some(s), Some(b)) => Some((s as u32, b as u32)),
                    _ if sc == StorageClass::PushConstant => None,
                    _ => {
                        return Err(ConvertError::Kernel(format!(
                            "@{name}: a {sc} variable without bind(set, binding)"
                        )))
                    }
                };
                let first = self.slots.len() as u32;
                match self.descriptor_array(pointee, sc) {
                    Some((count, block)) => {
                        let (min_bytes, runtime_stride) = self.block_extent(block)?;
                        for element in 0..count {
                            self.slots.push(SlotInfo {
                                name: name.clone(),
                                storage_class: sc,
                                binding,
                                element,
                                min_bytes,
                                runtime_stride,
                            });
                        }
                        Place::Slots {
                            first,
                            count,
                            block,
                        }
                    }
                    None => {
                        let (min_bytes, runtime_stride) = self.block_extent(pointee)?;
                        self.slots.push(SlotInfo {
                            name: name.clone(),
                            storage_class: sc,
                            binding,
                            element: 0,
                            min_bytes,
                            runtime_stride,
                        });
                        Place::Slot(first)
                    }
                }
            }
            StorageClass::Workgroup | StorageClass::Private => {
                if init_sym.is_some() && sc == StorageClass::Workgroup {
                    return Err(ConvertError::Kernel(format!(
                        "@{name}: workgroup variables cannot have an initializer"
                    )));
                }
                let bytes = self.tc.size(pointee)?;
                let align = self.tc.align(pointee)?.max(16);
                let vars = if sc == StorageClass::Workgroup {
                    &mut self.workgroup_vars
                } else {
                    &mut self.private_vars
                };
                let end = vars.last().map_or(0, |v| v.offset + v.bytes);
                let offset = end.div_ceil(align) * align;
                let index = vars.len() as u32;
                vars.push(VarPlace {
                    name: name.clone(),
                    offset,
                    bytes,
                });
                if let Some(sym) = init_sym {
                    self.private_inits.push((offset, pointee, sym));
                }
                if sc == StorageClass::Workgroup {
                    Place::Workgroup(index, offset, bytes)
                } else {
                    Place::Private(index, offset, bytes)
                }
            }
            StorageClass::Input => {
                let builtin = self
                    .attr_str(op, "built_in")
                    .and_then(BuiltIn::from_name)
                    .ok_or_else(|| {
                        ConvertError::Kernel(format!(
                            "@{name}: an Input variable that is not a built-in"
                        ))
                    })?;
                let (offset, _) = abi::builtin_offset(builtin).ok_or_else(|| {
                    ConvertError::Kernel(format!(
                        "@{name}: built-in {builtin} is not provided to compute kernels"
                    ))
                })?;
                Place::Builtin(offset)
            }
            other => {
                return Err(ConvertError::Kernel(format!(
                    "@{name}: {other} variables have no place in a compute kernel"
                )))
            }
        };
        self.places.insert(name, (place, pointee));
        Ok(())
    }

    /// `(descriptors, block type)` when a `StorageBuffer` or `Uniform`
    /// variable of type `pointee` is an array of descriptors (an array of
    /// structs).
    fn descriptor_array(&self, pointee: Type, sc: StorageClass) -> Option<(u32, Type)> {
        if !matches!(sc, StorageClass::StorageBuffer | StorageClass::Uniform) {
            return None;
        }
        match self.m.types.kind(pointee) {
            TypeKind::Array { len, element, .. }
                if matches!(self.m.types.kind(*element), TypeKind::Struct(_)) =>
            {
                Some((*len, *element))
            }
            _ => None,
        }
    }

    /// `(fixed bytes, runtime-array stride)` of a block type.
    fn block_extent(&self, ty: Type) -> Result<(u64, Option<u64>), ConvertError> {
        let size = self.tc.size(ty)?;
        let stride = match self.m.types.kind(ty) {
            TypeKind::Struct(s) => match s.members.last() {
                Some(last) => match self.m.types.kind(last.ty) {
                    TypeKind::RuntimeArray { element, .. } => {
                        Some(self.tc.natural_stride(*element)?)
                    }
                    _ => None,
                },
                None => None,
            },
            TypeKind::RuntimeArray { element, .. } => Some(self.tc.natural_stride(*element)?),
            _ => None,
        };
        Ok((size, stride))
    }

    /// The initial value of a global from the symbol it names (a spec
    /// constant; MLIR ABI).
    fn symbol_init(&mut self, op: Op, sym: &str, ty: Type) -> Result<GlobalInit, ConvertError> {
        let spec = *self
            .specs
            .get(sym)
            .ok_or_else(|| self.malformed(op, format!("initializer @{sym} is not a constant")))?;
        let attr = self.spec_value_attr(spec)?;
        constant::global_init(self, attr, ty)
    }

    /// The MLIR ABI's execution-mode global.
    fn execution_mode_global(&mut self, op: Op) -> Result<(), ConvertError> {
        let f = self
            .m
            .attr(op, "fn")
            .and_then(|a| self.m.attrs.as_symbol(a))
            .unwrap_or_default()
            .to_owned();
        let mode = self
            .m
            .attr(op, "execution_mode")
            .and_then(|a| self.m.attrs.as_enum(a, OperandKind::ExecutionMode))
            .ok_or_else(|| self.malformed(op, "has no execution mode"))?;
        let values: Vec<i128> = self
            .m
            .attr(op, "values")
            .and_then(|a| self.m.attrs.as_array(a))
            .unwrap_or(&[])
            .iter()
            .filter_map(|&a| self.m.attrs.as_int(a))
            .collect();
        let mut fields = vec![LType::I32];
        let mut init = vec![GlobalInit::Value(super::ir::ConstValue::Int(i128::from(
            mode,
        )))];
        if !values.is_empty() {
            fields.push(LType::array(values.len() as u64, LType::I32));
            init.push(GlobalInit::Aggregate(
                values
                    .iter()
                    .map(|&v| GlobalInit::Value(super::ir::ConstValue::Int(v)))
                    .collect(),
            ));
        }
        self.out.globals.push(Global {
            name: format!("__spv__{f}_execution_mode_info_{mode}"),
            ty: LType::Struct {
                packed: false,
                fields,
            },
            linkage: Linkage::External,
            constant: true,
            addr_space: 0,
            init: Some(GlobalInit::Aggregate(init)),
            location: None,
        });
        Ok(())
    }

    /// The value attribute of a spec constant: the given value for its
    /// `spec_id`, else the default.
    pub fn spec_value_attr(&mut self, spec: Op) -> Result<SpecAttr, ConvertError> {
        match self.m.op(spec).kind {
            OpKind::SpecConstant => {
                let default = self
                    .m
                    .attr(spec, "default_value")
                    .ok_or_else(|| self.malformed(spec, "has no default value"))?;
                let id = self.attr_int(spec, "spec_id").map(|i| i as u32);
                let given = id.and_then(|id| self.opts.spec_values.get(&id).copied());
                Ok(SpecAttr::Scalar { default, given })
            }
            OpKind::SpecConstantComposite => {
                let names: Vec<String> = self
                    .m
                    .attr(spec, "constituents")
                    .and_then(|a| self.m.attrs.as_array(a))
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|&a| self.m.attrs.as_symbol(a).map(str::to_owned))
                    .collect();
                let mut parts = Vec::new();
                for n in names {
                    let op = *self.specs.get(&n).ok_or_else(|| {
                        self.malformed(spec, format!("constituent @{n} is not a spec constant"))
                    })?;
                    parts.push(self.spec_value_attr(op)?);
                }
                Ok(SpecAttr::Composite { parts })
            }
            _ => Err(self.malformed(spec, "is not a spec constant")),
        }
    }

    /// A spec constant's value as an integer (for workgroup sizes).
    fn spec_int(&mut self, spec: Op) -> Option<i128> {
        match self.spec_value_attr(spec).ok()? {
            SpecAttr::Scalar {
                given: Some(bits), ..
            } => Some(i128::from(bits as u32)),
            SpecAttr::Scalar { default, .. } => self.m.attrs.as_int(default),
            SpecAttr::Composite { .. } => None,
        }
    }

    /// The kernel ABI's entry wrapper and description of `spirv.EntryPoint`.
    fn entry_point(&mut self, op: Op) -> Result<KernelInfo, ConvertError> {
        let f = self
            .m
            .attr(op, "fn")
            .and_then(|a| self.m.attrs.as_symbol(a))
            .unwrap_or_default()
            .to_owned();
        let local_size = self.local_size(&f)?;
        let symbol = format!("{}{f}", abi::ENTRY_PREFIX);
        let mut b = FnBuilder::new(symbol.clone(), &[LType::PTR], LType::Void);
        let ctx = b.param(0);
        // Private variables start from their initializers in every invocation.
        let inits = self.private_inits.clone();
        if !inits.is_empty() {
            let slot = b.byte_gep_const(ctx, abi::CTX_PRIVATE);
            let base = b.load(slot, LType::PTR, Default::default());
            for (offset, ty, sym) in inits {
                let spec = *self.specs.get(&sym).ok_or_else(|| {
                    ConvertError::Kernel(format!("initializer @{sym} is not a constant"))
                })?;
                let attr = self.spec_value_attr(spec)?;
                let v = constant::materialize_spec(self, &mut b, &attr, ty)?;
                let p = b.byte_gep_const(base, offset);
                b.store(v, p, Default::default());
            }
        }
        b.call(&f, vec![ctx], LType::Void);
        b.terminate(super::ir::InstKind::Ret, Vec::new(), Vec::new());
        self.out.functions.push(b.finish());
        Ok(KernelInfo {
            name: f,
            symbol,
            local_size,
            slots: self.slots.clone(),
            workgroup_bytes: self.workgroup_vars.last().map_or(0, |v| v.offset + v.bytes),
            workgroup_vars: self.workgroup_vars.clone(),
            private_bytes: self.private_vars.last().map_or(0, |v| v.offset + v.bytes),
            private_vars: self.private_vars.clone(),
            uses_barriers: self.uses_barriers,
            uses_subgroups: self.uses_subgroups,
            max_access_bytes: self.max_access,
            fixed_subgroup_size: if self.uses_coop {
                self.opts.subgroup_size
            } else {
                None
            },
        })
    }

    /// The workgroup size of entry point `f`: a `WorkgroupSize` built-in
    /// constant wins over `LocalSize` / `LocalSizeId`, as in SPIR-V.
    fn local_size(&mut self, f: &str) -> Result<[u32; 3], ConvertError> {
        let ops: Vec<Op> = self.m.module_ops().to_vec();
        for &op in &ops {
            if self.m.op(op).kind == OpKind::SpecConstantComposite
                && self.attr_str(op, "built_in") == Some("WorkgroupSize")
            {
                let names: Vec<String> = self
                    .m
                    .attr(op, "constituents")
                    .and_then(|a| self.m.attrs.as_array(a))
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|&a| self.m.attrs.as_symbol(a).map(str::to_owned))
                    .collect();
                let mut size = [1u32; 3];
                for (slot, n) in size.iter_mut().zip(&names) {
                    let spec = *self.specs.get(n).ok_or_else(|| {
                        ConvertError::Kernel(format!("WorkgroupSize constituent @{n} is unknown"))
                    })?;
                    *slot = self
                        .spec_int(spec)
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or_else(|| {
                            ConvertError::Kernel(format!("WorkgroupSize constituent @{n}"))
                        })?;
                }
                return Ok(size);
            }
        }
        for &op in &ops {
            let d = self.m.op(op);
            if d.kind != OpKind::ExecutionMode
                || self
                    .m
                    .attr(op, "fn")
                    .and_then(|a| self.m.attrs.as_symbol(a))
                    != Some(f)
            {
                continue;
            }
            let mode = self
                .m
                .attr(op, "execution_mode")
                .and_then(|a| self.m.attrs.as_enum(a, OperandKind::ExecutionMode));
            if mode == Some(ExecutionMode::LocalSize as u32) {
                let values: Vec<u32> = self
                    .m
                    .attr(op, "values")
                    .and_then(|a| self.m.attrs.as_array(a))
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|&a| self.m.attrs.as_int(a))
                    .map(|v| v as u32)
                    .collect();
                if let [x, y, z] = values[..] {
                    return Ok([x, y, z]);
                }
            }
        }
        Err(ConvertError::Kernel(format!(
            "entry point @{f} has no LocalSize execution mode or WorkgroupSize built-in"
        )))
    }

    /// Declares the runtime functions the converted code calls.
    fn declare_runtime(&mut self) {
        let names: Vec<&'static str> = self.runtime.iter().copied().collect();
        for name in names {
            let (params, ret): (Vec<LType>, LType) = match name {
                abi::RT_BARRIER => (vec![LType::PTR], LType::Void),
                abi::RT_SUBGROUP => (
                    vec![
                        LType::PTR,
                        LType::I32,
                        LType::I32,
                        LType::I32,
                        LType::I32,
                        LType::I32,
                        LType::I32,
                        LType::PTR,
                        LType::I32,
                        LType::PTR,
                    ],
                    LType::Void,
                ),
                abi::RT_OOB => (
                    vec![LType::PTR, LType::I32, LType::I64, LType::I64],
                    LType::Void,
                ),
                abi::RT_COOP_MUL_ADD => {
                    let mut params = vec![LType::PTR];
                    params.extend([LType::I32; 9]);
                    params.extend([LType::PTR; 4]);
                    (params, LType::Void)
                }
                abi::RT_CHECK_PTR => (
                    vec![LType::PTR, LType::PTR, LType::I64, LType::I32],
                    LType::PTR,
                ),
                _ => continue,
            };
            self.declare(name, &params, ret);
        }
    }

    /// Declares an external function once.
    pub fn declare(&mut self, name: &str, params: &[LType], ret: LType) {
        if self.out.functions.iter().any(|f| f.name == name) {
            return;
        }
        let f = FnBuilder::new(name, params, ret);
        let mut func = f.finish();
        func.blocks.clear();
        self.out.functions.push(func);
    }
}

/// The value of a spec constant, before materialization.
#[derive(Clone, Debug)]
pub(crate) enum SpecAttr {
    /// A scalar: its default attribute and the bits given for its id.
    Scalar {
        default: crate::ir::Attr,
        given: Option<u64>,
    },
    /// A composite of other spec constants.
    Composite { parts: Vec<SpecAttr> },
}
