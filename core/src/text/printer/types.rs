//! Printing types.

use crate::ir::{
    FloatKind, ImageArrayed, ImageDepth, ImageSamplerUse, ImageSampling, Signedness, Type,
    TypeKind, TypeStore,
};
use crate::text::Prefix;

use super::attrs::is_bare_identifier;

/// Appends the text of `ty`.
pub(crate) fn write_type(out: &mut String, types: &TypeStore, ty: Type, prefix: Prefix) {
    write_type_depth(out, types, ty, prefix, 0);
}

fn write_type_depth(out: &mut String, types: &TypeStore, ty: Type, prefix: Prefix, depth: u32) {
    if depth > 500 || ty.index() >= types.len() {
        out.push_str("<<INVALID TYPE>>");
        return;
    }
    let d = depth + 1;
    let p = prefix.as_str();
    let sub = |out: &mut String, t: Type| write_type_depth(out, types, t, prefix, d);
    match types.kind(ty) {
        TypeKind::None => out.push_str("none"),
        TypeKind::Int { width, signedness } => {
            out.push_str(match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            });
            out.push_str(&width.to_string());
        }
        TypeKind::Float(f) => out.push_str(match f {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }),
        TypeKind::Index => out.push_str("index"),
        TypeKind::Vector { len, element } => {
            out.push_str(&format!("vector<{len}x"));
            sub(out, *element);
            out.push('>');
        }
        TypeKind::Array {
            len,
            element,
            stride,
        } => {
            out.push_str(&format!("!{p}.array<{len} x "));
            sub(out, *element);
            if let Some(s) = stride {
                out.push_str(&format!(", stride={s}"));
            }
            out.push('>');
        }
        TypeKind::RuntimeArray { element, stride } => {
            out.push_str(&format!("!{p}.rtarray<"));
            sub(out, *element);
            if let Some(s) = stride {
                out.push_str(&format!(", stride={s}"));
            }
            out.push('>');
        }
        TypeKind::Pointer {
            pointee,
            storage_class,
        } => {
            out.push_str(&format!("!{p}.ptr<"));
            sub(out, *pointee);
            out.push_str(", ");
            out.push_str(storage_class.name());
            out.push('>');
        }
        TypeKind::Struct(s) => {
            out.push_str(&format!("!{p}.struct<"));
            if let Some(id) = &s.identifier {
                if is_bare_identifier(id) {
                    out.push_str(id);
                } else {
                    out.push('"');
                    super::attrs::write_escaped(out, id);
                    out.push('"');
                }
                out.push_str(", ");
            }
            out.push('(');
            for (i, m) in s.members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                sub(out, m.ty);
                if m.offset.is_some() || !m.decorations.is_empty() {
                    out.push_str(" [");
                    let mut first = true;
                    if let Some(off) = m.offset {
                        out.push_str(&off.to_string());
                        first = false;
                    }
                    for dec in &m.decorations {
                        if !first {
                            out.push_str(", ");
                        }
                        first = false;
                        out.push_str(dec.decoration.name());
                        if let Some(v) = dec.value {
                            out.push_str(&format!("={v}"));
                        }
                    }
                    out.push(']');
                }
            }
            out.push_str(")>");
        }
        TypeKind::Image(img) => {
            out.push_str(&format!("!{p}.image<"));
            sub(out, img.element);
            out.push_str(", ");
            let dim = img.dim.name();
            if dim.starts_with(|c: char| c.is_ascii_digit()) {
                out.push_str("Dim");
            }
            out.push_str(dim);
            out.push_str(match img.depth {
                ImageDepth::NoDepth => ", NoDepth",
                ImageDepth::IsDepth => ", IsDepth",
                ImageDepth::DepthUnknown => ", DepthUnknown",
            });
            out.push_str(match img.arrayed {
                ImageArrayed::NonArrayed => ", NonArrayed",
                ImageArrayed::Arrayed => ", Arrayed",
            });
            out.push_str(match img.sampling {
                ImageSampling::SingleSampled => ", SingleSampled",
                ImageSampling::MultiSampled => ", MultiSampled",
            });
            out.push_str(match img.sampler_use {
                ImageSamplerUse::SamplerUnknown => ", SamplerUnknown",
                ImageSamplerUse::NeedSampler => ", NeedSampler",
                ImageSamplerUse::NoSampler => ", NoSampler",
            });
            out.push_str(", ");
            out.push_str(img.format.name());
            out.push('>');
        }
        TypeKind::SampledImage(image) => {
            out.push_str(&format!("!{p}.sampled_image<"));
            sub(out, *image);
            out.push('>');
        }
        TypeKind::Sampler => out.push_str(&format!("!{p}.sampler")),
        TypeKind::Matrix { columns, column } => {
            out.push_str(&format!("!{p}.matrix<{columns} x "));
            sub(out, *column);
            out.push('>');
        }
        TypeKind::CoopMatrix(c) => {
            out.push_str(&format!("!{p}.coopmatrix<{}x{}x", c.rows, c.columns));
            sub(out, c.element);
            out.push_str(&format!(", {}, {}>", c.scope.name(), c.usage.name()));
        }
        TypeKind::Function { inputs, results } => {
            out.push('(');
            for (i, &t) in inputs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                sub(out, t);
            }
            out.push_str(") -> ");
            let single =
                results.len() == 1 && !matches!(types.kind(results[0]), TypeKind::Function { .. });
            if single {
                sub(out, results[0]);
            } else {
                out.push('(');
                for (i, &t) in results.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    sub(out, t);
                }
                out.push(')');
            }
        }
    }
}
