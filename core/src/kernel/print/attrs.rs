//! Types and attributes in MLIR 19's syntax.

use crate::kernel::module::KAttr;
use crate::kernel::types::{FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace};
use crate::text::{float, Prefix};
use kiln_abi::AbiSyntax;

/// A type as MLIR prints it (`memref<4x4xf32, strided<[8, 1], offset: 4>>`).
pub fn type_to_string(ty: &KType) -> String {
    let mut s = String::new();
    write_type(&mut s, ty);
    s
}

fn dims(out: &mut String, shape: impl Iterator<Item = Option<u64>>) {
    for d in shape {
        match d {
            Some(d) => out.push_str(&d.to_string()),
            None => out.push('?'),
        }
        out.push('x');
    }
}

/// The text of a memory space (without the leading `, `), `None` for the
/// default.
pub fn memory_space_to_string(space: &MemorySpace) -> Option<String> {
    match space {
        MemorySpace::Default => None,
        MemorySpace::Int(v) => Some(v.to_string()),
        MemorySpace::Gpu(g) => Some(format!(
            "#gpu.address_space<{}>",
            match g {
                GpuAddressSpace::Global => "global",
                GpuAddressSpace::Workgroup => "workgroup",
                GpuAddressSpace::Private => "private",
            }
        )),
        MemorySpace::StorageClass(sc) => Some(format!("#spirv.storage_class<{}>", sc.name())),
    }
}

fn opt_i64(v: Option<i64>) -> String {
    v.map_or_else(|| "?".to_owned(), |v| v.to_string())
}

fn write_type(out: &mut String, ty: &KType) {
    match ty {
        KType::Int(w) => {
            out.push('i');
            out.push_str(&w.to_string());
        }
        KType::Float(f) => out.push_str(match f {
            FloatTy::F16 => "f16",
            FloatTy::BF16 => "bf16",
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }),
        KType::Index => out.push_str("index"),
        KType::MmaMatrix {
            rows,
            cols,
            elem,
            operand,
        } => {
            out.push_str(&format!("!gpu.mma_matrix<{rows}x{cols}x"));
            write_type(out, elem);
            out.push_str(&format!(", \"{}\">", operand.name()));
        }
        KType::Vector { shape, elem } => {
            out.push_str("vector<");
            dims(out, shape.iter().map(|&d| Some(d)));
            write_type(out, elem);
            out.push('>');
        }
        KType::MemRef {
            shape,
            elem,
            layout,
            space,
        } => {
            out.push_str("memref<");
            dims(out, shape.iter().copied());
            write_type(out, elem);
            if let MemRefLayout::Strided { offset, strides } = layout {
                out.push_str(", strided<[");
                let s: Vec<String> = strides.iter().map(|&s| opt_i64(s)).collect();
                out.push_str(&s.join(", "));
                out.push(']');
                if *offset != Some(0) {
                    out.push_str(", offset: ");
                    out.push_str(&opt_i64(*offset));
                }
                out.push('>');
            }
            if let Some(s) = memory_space_to_string(space) {
                out.push_str(", ");
                out.push_str(&s);
            }
            out.push('>');
        }
        KType::UnrankedMemRef { elem, space } => {
            out.push_str("memref<*x");
            write_type(out, elem);
            if let Some(s) = memory_space_to_string(space) {
                out.push_str(", ");
                out.push_str(&s);
            }
            out.push('>');
        }
        KType::Function { inputs, results } => {
            out.push('(');
            let ins: Vec<String> = inputs.iter().map(type_to_string).collect();
            out.push_str(&ins.join(", "));
            out.push_str(") -> ");
            out.push_str(&results_to_string(results));
        }
    }
}

/// Result types as a function type prints them: `f32`, `()`, `(f32, i1)`.
pub fn results_to_string(results: &[KType]) -> String {
    let rs: Vec<String> = results.iter().map(type_to_string).collect();
    if results.len() == 1 && !matches!(results[0], KType::Function { .. }) {
        rs[0].clone()
    } else {
        format!("({})", rs.join(", "))
    }
}

/// A scalar value of type `ty` without its type (`1.500000e+00`, `-3`,
/// `true`).
pub fn scalar_literal(attr: &KAttr) -> String {
    match attr {
        KAttr::Int { value, ty } => int_literal(*value, ty),
        KAttr::Float { value, ty } => float_literal(*value, ty),
        _ => attr_to_string(attr),
    }
}

fn int_literal(value: i128, ty: &KType) -> String {
    if *ty == KType::Int(1) {
        if value & 1 == 1 { "true" } else { "false" }.to_owned()
    } else {
        value.to_string()
    }
}

fn float_literal(value: f64, ty: &KType) -> String {
    let f = match ty {
        KType::Float(f) => *f,
        _ => FloatTy::F64,
    };
    float::format_float(f.kind(), value.to_bits()).0
}

/// Quotes a string as MLIR does.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\22"),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\0A"),
            b'\t' => out.push_str("\\09"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:02X}")),
        }
    }
    out.push('"');
    out
}

/// A symbol name (`@k`, or `@"odd name"`).
pub fn symbol(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-'));
    if plain {
        format!("@{s}")
    } else {
        format!("@{}", quote(s))
    }
}

/// An attribute value as MLIR prints it (with its type where MLIR shows
/// one).
pub fn attr_to_string(attr: &KAttr) -> String {
    match attr {
        KAttr::Unit => "unit".to_owned(),
        KAttr::Bool(b) => b.to_string(),
        KAttr::Int { value, ty } => {
            if *ty == KType::Int(1) {
                int_literal(*value, ty)
            } else {
                format!("{value} : {}", type_to_string(ty))
            }
        }
        KAttr::Float { value, ty } => {
            format!("{} : {}", float_literal(*value, ty), type_to_string(ty))
        }
        KAttr::String(s) => quote(s),
        KAttr::Type(t) => type_to_string(t),
        KAttr::SymbolRef(path) => path
            .iter()
            .map(|s| symbol(s))
            .collect::<Vec<_>>()
            .join("::"),
        KAttr::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(attr_to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        KAttr::DenseI64(v) => int_array("i64", v),
        KAttr::DenseInts { values, ty } => {
            let elem = ty.scalar().clone();
            let items: Vec<String> = values.iter().map(|&v| int_literal(v, &elem)).collect();
            format!("dense<{}> : {}", dense_body(&items, ty), type_to_string(ty))
        }
        KAttr::DenseFloats { values, ty } => {
            let elem = ty.scalar().clone();
            let items: Vec<String> = values.iter().map(|&v| float_literal(v, &elem)).collect();
            format!("dense<{}> : {}", dense_body(&items, ty), type_to_string(ty))
        }
        KAttr::Dict(entries) => dict_to_string(entries),
        KAttr::Enum(e) => match e.as_str() {
            "global" | "workgroup" | "private" => format!("#gpu.address_space<{e}>"),
            other => quote(other),
        },
        KAttr::EntryPointAbi(abi) => abi.print(AbiSyntax::Mlir),
        KAttr::InterfaceVarAbi(abi) => abi.print(AbiSyntax::Mlir),
        KAttr::TargetEnv(env) => env.print(Prefix::Spirv),
    }
}

/// The body of `dense<...>`: one value for a splat, else nested lists
/// following the vector's shape.
/// `array<i32: 1, 2>` with element type `elem`; `array<i32>` when empty,
/// as MLIR prints (and kiln parses) it.
pub(crate) fn int_array(elem: &str, values: &[i64]) -> String {
    if values.is_empty() {
        return format!("array<{elem}>");
    }
    let items: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    format!("array<{elem}: {}>", items.join(", "))
}

fn dense_body(items: &[String], ty: &KType) -> String {
    if items.is_empty() {
        return "[]".to_owned();
    }
    if items.iter().all(|i| *i == items[0]) {
        return items[0].clone();
    }
    let shape: Vec<u64> = match ty {
        KType::Vector { shape, .. } => shape.clone(),
        _ => vec![items.len() as u64],
    };
    nest(items, &shape)
}

fn nest(items: &[String], shape: &[u64]) -> String {
    match shape {
        [] | [_] => format!("[{}]", items.join(", ")),
        [n, rest @ ..] => {
            let chunk = (items.len() / (*n).max(1) as usize).max(1);
            let parts: Vec<String> = items.chunks(chunk).map(|c| nest(c, rest)).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// An attribute name, quoted when it is not a bare identifier.
fn attr_name(name: &str) -> String {
    let plain = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'));
    if plain {
        name.to_owned()
    } else {
        quote(name)
    }
}

/// Attributes MLIR 19 declares as `array<i32: ...>` (kept as
/// [`KAttr::DenseI64`] in the kernel IR).
pub(super) const I32_ARRAYS: [&str; 3] =
    ["known_block_size", "known_grid_size", "operandSegmentSizes"];

/// `{a = 1 : i32, b}`, sorted by name as MLIR's dictionaries are.
pub fn dict_to_string(entries: &[(String, KAttr)]) -> String {
    let mut sorted: Vec<&(String, KAttr)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let items: Vec<String> = sorted
        .into_iter()
        .map(|(n, v)| match v {
            KAttr::Unit => attr_name(n),
            // MLIR declares these as `DenseI32ArrayAttr`.
            KAttr::DenseI64(items) if I32_ARRAYS.contains(&n.as_str()) => {
                format!("{} = {}", attr_name(n), int_array("i32", items))
            }
            v => format!("{} = {}", attr_name(n), attr_to_string(v)),
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}
