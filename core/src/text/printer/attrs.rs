//! Printing attributes.

use crate::grammar;
use crate::ir::{
    Attr, AttrKind, AttrStore, DenseValues, Signedness, Type, TypeKind, TypeStore, Vce,
};
use crate::text::enums::{enum_mnemonic, enum_text, mlir_capability_name};
use crate::text::float;
use crate::text::Prefix;

use super::types::write_type;

/// Whether `s` prints without quotes (`[a-zA-Z_][a-zA-Z0-9_$.]*`).
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Appends `s` with MLIR's string escapes (without the quotes).
pub(crate) fn write_escaped(out: &mut String, s: &str) {
    for &b in s.as_bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:02X}")),
        }
    }
}

/// Appends `"s"`.
pub(crate) fn write_string(out: &mut String, s: &str) {
    out.push('"');
    write_escaped(out, s);
    out.push('"');
}

/// Appends `@name` (quoted when it is not a bare identifier).
pub(crate) fn write_symbol(out: &mut String, name: &str) {
    out.push('@');
    if is_bare_identifier(name) {
        out.push_str(name);
    } else {
        write_string(out, name);
    }
}

/// Appends a dictionary key.
pub(crate) fn write_key(out: &mut String, key: &str) {
    if is_bare_identifier(key) {
        out.push_str(key);
    } else {
        write_string(out, key);
    }
}

/// Appends `{a = 1 : i32, flag}`.
pub(crate) fn write_dict(
    out: &mut String,
    attrs: &AttrStore,
    types: &TypeStore,
    entries: &[(String, Attr)],
    prefix: Prefix,
) {
    out.push('{');
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_key(out, &crate::text::attr_name_for(prefix, k));
        if !matches!(attrs.kind(*v), AttrKind::Unit) {
            out.push_str(" = ");
            write_attr(out, attrs, types, *v, prefix);
        }
    }
    out.push('}');
}

/// Appends the integer `value` of type `ty` as MLIR prints it (unsigned
/// types zero-extended).
pub(crate) fn write_int_value(out: &mut String, types: &TypeStore, value: i128, ty: Type) {
    match types.kind(ty) {
        TypeKind::Int {
            width,
            signedness: Signedness::Unsigned,
        } if *width < 128 => {
            let mask = (1u128 << width) - 1;
            out.push_str(&((value as u128) & mask).to_string());
        }
        _ => out.push_str(&value.to_string()),
    }
}

/// Appends the text of `attr`.
pub(crate) fn write_attr(
    out: &mut String,
    attrs: &AttrStore,
    types: &TypeStore,
    attr: Attr,
    prefix: Prefix,
) {
    write_attr_depth(out, attrs, types, attr, prefix, 0);
}

fn write_attr_depth(
    out: &mut String,
    attrs: &AttrStore,
    types: &TypeStore,
    attr: Attr,
    prefix: Prefix,
    depth: u32,
) {
    if depth > 500 {
        out.push_str("<<NESTING TOO DEEP>>");
        return;
    }
    let p = prefix.as_str();
    match attrs.kind(attr) {
        AttrKind::Unit => out.push_str("unit"),
        AttrKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        AttrKind::Int { value, ty } => {
            if matches!(
                types.kind(*ty),
                TypeKind::Int {
                    width: 1,
                    signedness: Signedness::Signless
                }
            ) {
                out.push_str(if *value != 0 { "true" } else { "false" });
                return;
            }
            write_int_value(out, types, *value, *ty);
            out.push_str(" : ");
            write_type(out, types, *ty, prefix);
        }
        AttrKind::Float { bits, ty } => {
            let kind = match types.kind(*ty) {
                TypeKind::Float(k) => *k,
                _ => crate::ir::FloatKind::F64,
            };
            out.push_str(&float::format_float(kind, *bits).0);
            out.push_str(" : ");
            write_type(out, types, *ty, prefix);
        }
        AttrKind::String(s) => write_string(out, s),
        AttrKind::Type(t) => write_type(out, types, *t, prefix),
        AttrKind::Array(items) => {
            out.push('[');
            for (i, &a) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                // As MLIR, an array's elements elide the default integer
                // attribute type, signless i64.
                if let AttrKind::Int { value, ty } = attrs.kind(a) {
                    if matches!(
                        types.kind(*ty),
                        TypeKind::Int {
                            width: 64,
                            signedness: Signedness::Signless
                        }
                    ) {
                        write_int_value(out, types, *value, *ty);
                        continue;
                    }
                }
                write_attr_depth(out, attrs, types, a, prefix, depth + 1);
            }
            out.push(']');
        }
        AttrKind::Dict(entries) => write_dict(out, attrs, types, entries, prefix),
        AttrKind::SymbolRef(path) => {
            for (i, s) in path.iter().enumerate() {
                if i > 0 {
                    out.push_str("::");
                }
                write_symbol(out, s);
            }
        }
        AttrKind::Dense { ty, values, splat } => {
            out.push_str("dense<");
            let element = match types.kind(*ty) {
                TypeKind::Vector { element, .. } => *element,
                _ => *ty,
            };
            let is_bool = matches!(types.kind(element), TypeKind::Int { width: 1, .. });
            let float_kind = match types.kind(element) {
                TypeKind::Float(k) => Some(*k),
                _ => None,
            };
            let n = values.len();
            if !*splat {
                out.push('[');
            }
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                match values {
                    DenseValues::Ints(v) if is_bool => {
                        out.push_str(if v[i] != 0 { "true" } else { "false" })
                    }
                    DenseValues::Ints(v) => write_int_value(out, types, v[i], element),
                    DenseValues::Floats(v) => {
                        let k = float_kind.unwrap_or(crate::ir::FloatKind::F64);
                        out.push_str(&float::format_float(k, v[i]).0);
                    }
                }
            }
            if !*splat {
                out.push(']');
            }
            out.push_str("> : ");
            write_type(out, types, *ty, prefix);
        }
        AttrKind::DenseArray { element, values } => {
            out.push_str("array<");
            write_type(out, types, *element, prefix);
            let is_bool = matches!(types.kind(*element), TypeKind::Int { width: 1, .. });
            for (i, v) in values.iter().enumerate() {
                out.push_str(if i == 0 { ": " } else { ", " });
                if is_bool {
                    out.push_str(if *v != 0 { "true" } else { "false" });
                } else {
                    write_int_value(out, types, *v, *element);
                }
            }
            out.push('>');
        }
        AttrKind::Enum { kind, value } => {
            out.push_str(&format!("#{p}.{}<", enum_mnemonic(*kind)));
            let text = enum_text(*kind, *value);
            // Enumerant names that start with a digit (`2D`) are spelled `Dim2D`.
            if *kind == grammar::OperandKind::Dim
                && text.starts_with(|c: char| c.is_ascii_digit())
                && grammar::enumerant(*kind, *value).is_some()
            {
                out.push_str("Dim");
            }
            out.push_str(&text);
            out.push('>');
        }
        AttrKind::Vce(vce) => write_vce(out, vce, prefix),
        AttrKind::Dialect { name, body } => {
            out.push_str(&format!("#{p}.{name}<"));
            if prefix == Prefix::Spv {
                out.push_str(&crate::text::rewrite_prefixes(body, "spirv.", "spv."));
            } else {
                out.push_str(body);
            }
            out.push('>');
        }
        AttrKind::Opaque(text) => out.push_str(text),
    }
}

/// Appends `#<prefix>.vce<v1.0, [Shader], [SPV_KHR_...]>` as MLIR 19 prints
/// it (capabilities in [`mlir_capability_name`]'s spelling).
pub(crate) fn write_vce(out: &mut String, vce: &Vce, prefix: Prefix) {
    let caps: Vec<&str> = vce
        .capabilities
        .iter()
        .map(|&c| mlir_capability_name(c))
        .collect();
    let exts: Vec<&str> = vce.extensions.iter().map(|e| e.name()).collect();
    out.push_str(&format!(
        "#{}.vce<{}, [{}], [{}]>",
        prefix.as_str(),
        vce.version,
        caps.join(", "),
        exts.join(", ")
    ));
}
