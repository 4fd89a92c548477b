//! Requirements of op instances.
//!
//! An op's own requirements ([`op_own_requirements`], what MLIR's op
//! availability interfaces report) are:
//!
//! * its instruction's: the core instruction of an [`OpKind::Core`] op (for
//!   the integer dot products also the input capability its operand type
//!   needs: `DotProductInput4x8BitPacked`, `DotProductInput4x8Bit` or
//!   `DotProductInputAll`), the `GLSL.std.450` instruction of an
//!   [`OpKind::Glsl`] op (and `Shader`, which the set needs), and for the
//!   structural ops the instruction they serialize to (`spv.func` →
//!   `OpFunction`, `spv.GlobalVariable` → `OpVariable`, `spv.EntryPoint`,
//!   `spv.ExecutionMode`, `spv.SpecConstant*`, `spv.mlir.selection` →
//!   `OpSelectionMerge`, `spv.mlir.loop` → `OpLoopMerge`);
//! * every enum attribute's ([`AttrKind::Enum`], also inside array
//!   attributes): storage class, scopes, memory semantics, memory access,
//!   image operands, group operation, execution model and mode, function,
//!   selection and loop control, addressing and memory model, ...;
//! * every decoration's: attributes that name a decoration (`NoSignedWrap`,
//!   `no_signed_wrap`, `descriptor_set`, `binding`, `spec_id`,
//!   `linkage_attributes`, ...; the op's own attributes, such as `alignment`
//!   of a load, are not decorations), the `BuiltIn` decoration and builtin
//!   of `built_in = "..."`, and `spirv.decoration` entries of `arg_attrs`.
//!
//! Its type requirements ([`op_type_requirements`]) are those of the types
//! of its operands and results (as in MLIR), and also of its type-valued
//! attributes (`function_type`, a global variable's `type`), of typed
//! constant values and of the arguments of the blocks of its regions: kiln
//! declares every such type, so it needs what they need. Ops of other
//! dialects ([`OpKind::Foreign`]) require nothing.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::types::TypeCache;
use super::{enumerant_requirements, Origin, Requirement, Requirements};
use crate::grammar::{self, BuiltIn, Capability, Decoration, OperandKind, Version};
use crate::ir::schema::{self, Role};
use crate::ir::{Attr, AttrKind, Module, Op, OpKind, Type, TypeKind};

/// Everything `op` requires: [`op_own_requirements`] then
/// [`op_type_requirements`].
pub fn op_requirements(m: &Module, op: Op) -> Requirements {
    let mut out = op_own_requirements(m, op);
    let mut cache = TypeCache::default();
    out.extend(types_of(m, op, &mut cache));
    out
}

/// What the op's instruction and its attributes require (see the module
/// docs).
pub fn op_own_requirements(m: &Module, op: Op) -> Requirements {
    let mut out = Requirements::new();
    let data = m.op(op);
    match &data.kind {
        OpKind::Core(opcode) => {
            if let Some(desc) = grammar::core_inst(*opcode) {
                out.push(Requirement::for_instruction(desc));
                if let Some(r) = dot_product_input(m, op, desc) {
                    out.push(r);
                }
            }
        }
        OpKind::Glsl(opcode) => {
            if let Some(desc) = grammar::glsl_inst(*opcode) {
                let ext_inst = |capabilities| Requirement {
                    origin: Origin::ExtInstruction(desc.opname),
                    min_version: Version::V1_0,
                    last_version: None,
                    capabilities,
                    extensions: Vec::new(),
                };
                // The GLSL.std.450 set is for shaders (MLIR's `GL` ops
                // require `Shader`); some instructions need more.
                out.push(ext_inst(vec![Capability::Shader]));
                let mut caps = desc.capabilities.to_vec();
                caps.sort_by_key(|c| c.name());
                out.push(ext_inst(caps));
            }
        }
        OpKind::Foreign(_) => return out,
        kind => {
            if let Some(desc) = structural_instruction(kind).and_then(grammar::core_inst_by_name) {
                out.push(Requirement::for_instruction(desc));
            }
        }
    }
    for (name, attr) in &data.attrs {
        attr_requirements(m, &data.kind, name, *attr, &mut out);
    }
    out
}

/// What the types the op uses require (see the module docs).
pub fn op_type_requirements(m: &Module, op: Op) -> Requirements {
    let mut cache = TypeCache::default();
    types_of(m, op, &mut cache)
}

/// [`op_type_requirements`] with a shared cache.
pub(crate) fn types_of(m: &Module, op: Op, cache: &mut TypeCache) -> Requirements {
    let mut out = Requirements::new();
    let data = m.op(op);
    if matches!(data.kind, OpKind::Foreign(_)) {
        return out;
    }
    let mut add = |ty: Type| out.extend_from(cache.get(&m.types, ty, None));
    for &v in data.operands.iter().chain(&data.results) {
        add(m.value_type(v));
    }
    for (name, attr) in &data.attrs {
        if let Some(ty) = attr_type(m, name, *attr) {
            add(ty);
        }
    }
    for &r in &data.regions {
        for &b in &m.region(r).blocks {
            for &arg in &m.block(b).args {
                add(m.value_type(arg));
            }
        }
    }
    out
}

/// The input capability of an integer dot product (`OpSDot`, `OpUDot`,
/// `OpSUDot` and their `AccSat` forms), which depends on the operand type as
/// `SPV_KHR_integer_dot_product` says: a packed 32-bit scalar needs
/// `DotProductInput4x8BitPacked`, `vector<4xi8>` `DotProductInput4x8Bit`,
/// any other integer vector `DotProductInputAll`.
fn dot_product_input(m: &Module, op: Op, desc: &'static grammar::InstDesc) -> Option<Requirement> {
    if !matches!(
        desc.opname,
        "SDot" | "UDot" | "SUDot" | "SDotAccSat" | "UDotAccSat" | "SUDotAccSat"
    ) {
        return None;
    }
    let ty = m.value_type(*m.op(op).operands.first()?);
    let cap = match m.types.kind(ty) {
        TypeKind::Vector { len: 4, element } if m.types.bit_width(*element) == Some(8) => {
            Capability::DotProductInput4x8Bit
        }
        TypeKind::Vector { .. } => Capability::DotProductInputAll,
        _ => Capability::DotProductInput4x8BitPacked,
    };
    Some(Requirement {
        origin: Origin::Operand {
            instruction: desc.opname,
            ty: crate::text::print_type(&m.types, ty, crate::text::Prefix::Spirv),
        },
        min_version: Version::V1_0,
        last_version: None,
        capabilities: vec![cap],
        extensions: Vec::new(),
    })
}

/// The type a type attribute holds or a typed constant value (`value` of a
/// constant, `default_value` of a spec constant) has. Other integer
/// attributes (`spec_id`, `descriptor_set`, `alignment`, ...) are literals of
/// the instruction, whatever type the text gave them (MLIR's default `i64`
/// for `spec_id(4)`), and need nothing.
fn attr_type(m: &Module, name: &str, attr: Attr) -> Option<Type> {
    match m.attrs.kind(attr) {
        AttrKind::Type(t) => Some(*t),
        AttrKind::Int { ty, .. } | AttrKind::Float { ty, .. } | AttrKind::Dense { ty, .. }
            if matches!(name, "value" | "default_value") =>
        {
            Some(*ty)
        }
        _ => None,
    }
}

/// The instruction a structural op serializes to.
fn structural_instruction(kind: &OpKind) -> Option<&'static str> {
    Some(match kind {
        OpKind::Func => "Function",
        OpKind::GlobalVariable => "Variable",
        OpKind::SpecConstant => "SpecConstant",
        OpKind::SpecConstantComposite => "SpecConstantComposite",
        OpKind::EntryPoint => "EntryPoint",
        OpKind::ExecutionMode => "ExecutionMode",
        OpKind::Selection => "SelectionMerge",
        OpKind::Loop => "LoopMerge",
        _ => return None,
    })
}

/// Whether `name` is an attribute `kind` uses for itself (never a
/// decoration).
fn is_own_attr(kind: &OpKind, name: &str) -> bool {
    let fixed: &[&str] = match kind {
        OpKind::Module => &["addressing_model", "memory_model", "vce_triple", "sym_name"],
        OpKind::Func => &[
            "sym_name",
            "function_type",
            "function_control",
            "arg_attrs",
            "res_attrs",
            "sym_visibility",
            "workgroup_attributions",
        ],
        OpKind::GlobalVariable => &["sym_name", "type", "initializer", "built_in"],
        OpKind::Constant => &["value"],
        OpKind::SpecConstant => &["sym_name", "default_value"],
        OpKind::SpecConstantComposite => &["sym_name", "constituents", "type"],
        OpKind::AddressOf => &["variable"],
        OpKind::ReferenceOf => &["spec_const"],
        OpKind::EntryPoint => &["execution_model", "fn", "interface"],
        OpKind::ExecutionMode => &["fn", "execution_mode", "values"],
        OpKind::Selection => &["selection_control"],
        OpKind::Loop => &["loop_control"],
        OpKind::Merge | OpKind::Glsl(_) | OpKind::Foreign(_) => &[],
        OpKind::Core(_) => &["alignment", "source_memory_access", "source_alignment"],
    };
    if fixed.contains(&name) {
        return true;
    }
    let OpKind::Core(opcode) = kind else {
        return false;
    };
    let Some(s) = schema::core_schema(*opcode) else {
        return false;
    };
    s.roles.iter().any(|role| match role {
        Role::Attr {
            name: attr, kind, ..
        } => attr == name || schema::enum_literal_params_attr(*kind, attr) == name,
        Role::Callee => name == "callee",
        Role::TypeAttr { name: attr } => attr == name,
        Role::SwitchTargets => name == "literals",
        _ => false,
    })
}

/// The decoration an attribute name stands for: the name compared without
/// case and underscores (`no_signed_wrap`, `NoSignedWrap`). Dotted names
/// (dialect attributes) are never decorations.
fn decoration_named(name: &str) -> Option<Decoration> {
    static NAMES: OnceLock<HashMap<String, Decoration>> = OnceLock::new();
    if name.is_empty() || name.contains('.') {
        return None;
    }
    let key = |s: &str| -> String {
        s.chars()
            .filter(|&c| c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let table = NAMES.get_or_init(|| {
        let mut map = HashMap::new();
        for &d in Decoration::all() {
            let desc = d.desc();
            for n in std::iter::once(&desc.name).chain(desc.aliases) {
                map.entry(key(n)).or_insert(d);
            }
        }
        map
    });
    table.get(&key(name)).copied()
}

/// The requirements one attribute adds.
fn attr_requirements(m: &Module, kind: &OpKind, name: &str, attr: Attr, out: &mut Requirements) {
    enum_attrs(m, attr, out, 0);
    if name == "built_in" {
        if let Some(b) = m.attrs.as_str(attr).and_then(BuiltIn::from_name) {
            out.extend(enumerant_requirements(
                OperandKind::Decoration,
                Decoration::BuiltIn as u32,
            ));
            out.extend(enumerant_requirements(OperandKind::BuiltIn, b as u32));
        }
        return;
    }
    if name == "arg_attrs" || name == "res_attrs" {
        for &dict in m.attrs.as_array(attr).unwrap_or(&[]) {
            if let AttrKind::Dict(entries) = m.attrs.kind(dict) {
                for (key, value) in entries {
                    if key == "spirv.decoration" || key == "spv.decoration" {
                        let d = match m.attrs.kind(*value) {
                            AttrKind::Dialect { name, body } if name == "decoration" => {
                                Decoration::from_name(body.trim())
                            }
                            _ => None,
                        };
                        if let Some(d) = d {
                            out.extend(enumerant_requirements(OperandKind::Decoration, d as u32));
                        }
                    }
                }
            }
        }
        return;
    }
    if matches!(m.attrs.kind(attr), AttrKind::Bool(false)) {
        return;
    }
    if let Some(d) = decoration_named(name) {
        if !is_own_attr(kind, name) {
            out.extend(enumerant_requirements(OperandKind::Decoration, d as u32));
        }
    }
}

/// Requirements of the enum attributes in `attr` (recursing into arrays).
fn enum_attrs(m: &Module, attr: Attr, out: &mut Requirements, depth: u32) {
    match m.attrs.kind(attr) {
        AttrKind::Enum { kind, value } => out.extend(enumerant_requirements(*kind, *value)),
        AttrKind::Array(items) if depth < 8 => {
            for &item in items {
                enum_attrs(m, item, out, depth + 1);
            }
        }
        _ => {}
    }
}
