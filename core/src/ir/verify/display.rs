//! Type names in error messages, in the dialect's text syntax.

use std::fmt;

use crate::ir::entity::Type;
use crate::ir::types::{
    ImageArrayed, ImageDepth, ImageSamplerUse, ImageSampling, Signedness, TypeKind, TypeStore,
};

/// A type formatted the way the text form spells it (`i32`,
/// `vector<4xf32>`, `!spirv.ptr<f32, StorageBuffer>`), for messages.
#[derive(Clone, Copy)]
pub struct TypeName<'a> {
    types: &'a TypeStore,
    ty: Type,
}

impl<'a> TypeName<'a> {
    /// Formats `ty` from `types`.
    pub fn new(types: &'a TypeStore, ty: Type) -> Self {
        TypeName { types, ty }
    }

    fn sub(&self, ty: Type) -> TypeName<'a> {
        TypeName::new(self.types, ty)
    }
}

impl fmt::Debug for TypeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for TypeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ty.index() >= self.types.len() {
            return write!(f, "<invalid type {:?}>", self.ty);
        }
        match self.types.kind(self.ty) {
            TypeKind::None => f.write_str("none"),
            TypeKind::Int { width, signedness } => match signedness {
                Signedness::Signless => write!(f, "i{width}"),
                Signedness::Signed => write!(f, "si{width}"),
                Signedness::Unsigned => write!(f, "ui{width}"),
            },
            TypeKind::Float(k) => f.write_str(match k {
                crate::ir::FloatKind::F16 => "f16",
                crate::ir::FloatKind::BF16 => "bf16",
                crate::ir::FloatKind::F32 => "f32",
                crate::ir::FloatKind::F64 => "f64",
            }),
            TypeKind::Index => f.write_str("index"),
            TypeKind::Vector { len, element } => write!(f, "vector<{len}x{}>", self.sub(*element)),
            TypeKind::Array {
                len,
                element,
                stride,
            } => {
                write!(f, "!spirv.array<{len} x {}", self.sub(*element))?;
                if let Some(s) = stride {
                    write!(f, ", stride={s}")?;
                }
                f.write_str(">")
            }
            TypeKind::RuntimeArray { element, stride } => {
                write!(f, "!spirv.rtarray<{}", self.sub(*element))?;
                if let Some(s) = stride {
                    write!(f, ", stride={s}")?;
                }
                f.write_str(">")
            }
            TypeKind::Pointer {
                pointee,
                storage_class,
            } => write!(f, "!spirv.ptr<{}, {storage_class:?}>", self.sub(*pointee)),
            TypeKind::Struct(s) => {
                f.write_str("!spirv.struct<")?;
                if let Some(id) = &s.identifier {
                    write!(f, "{id}, ")?;
                }
                f.write_str("(")?;
                for (i, m) in s.members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", self.sub(m.ty))?;
                    let mut decos: Vec<String> = Vec::new();
                    if let Some(o) = m.offset {
                        decos.push(o.to_string());
                    }
                    for d in &m.decorations {
                        match d.value {
                            Some(v) => decos.push(format!("{:?}={v}", d.decoration)),
                            None => decos.push(format!("{:?}", d.decoration)),
                        }
                    }
                    if !decos.is_empty() {
                        write!(f, " [{}]", decos.join(", "))?;
                    }
                }
                f.write_str(")>")
            }
            TypeKind::Image(img) => write!(
                f,
                "!spirv.image<{}, {:?}, {}, {}, {}, {}, {:?}>",
                self.sub(img.element),
                img.dim,
                match img.depth {
                    ImageDepth::NoDepth => "NoDepth",
                    ImageDepth::IsDepth => "IsDepth",
                    ImageDepth::DepthUnknown => "DepthUnknown",
                },
                match img.arrayed {
                    ImageArrayed::NonArrayed => "NonArrayed",
                    ImageArrayed::Arrayed => "Arrayed",
                },
                match img.sampling {
                    ImageSampling::SingleSampled => "SingleSampled",
                    ImageSampling::MultiSampled => "MultiSampled",
                },
                match img.sampler_use {
                    ImageSamplerUse::SamplerUnknown => "SamplerUnknown",
                    ImageSamplerUse::NeedSampler => "NeedSampler",
                    ImageSamplerUse::NoSampler => "NoSampler",
                },
                img.format
            ),
            TypeKind::SampledImage(t) => write!(f, "!spirv.sampled_image<{}>", self.sub(*t)),
            TypeKind::Sampler => f.write_str("!spirv.sampler"),
            TypeKind::Matrix { columns, column } => {
                write!(f, "!spirv.matrix<{columns} x {}>", self.sub(*column))
            }
            TypeKind::CoopMatrix(c) => write!(
                f,
                "!spirv.coopmatrix<{}x{}x{}, {}, {}>",
                c.rows,
                c.columns,
                self.sub(c.element),
                c.scope.name(),
                c.usage.name()
            ),
            TypeKind::Function { inputs, results } => {
                f.write_str("(")?;
                for (i, t) in inputs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", self.sub(*t))?;
                }
                f.write_str(") -> ")?;
                if results.len() == 1 {
                    write!(f, "{}", self.sub(results[0]))
                } else {
                    f.write_str("(")?;
                    for (i, t) in results.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{}", self.sub(*t))?;
                    }
                    f.write_str(")")
                }
            }
        }
    }
}
