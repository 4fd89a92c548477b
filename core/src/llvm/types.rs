//! spv types → LLVM types (seed 003's type tables).
//!
//! * `iN`/`siN`/`uiN` → `iN` (LLVM integers are signless; ops say how to
//!   read them); `f16`/`bf16`/`f32`/`f64` → `half`/`bfloat`/`float`/`double`.
//! * `vector<N x T>` → `<N x T>`.
//! * `!spv.ptr<T, SC>` → `ptr`: the storage class is **dropped** (address
//!   space 0), as MLIR 19 does for every client API but OpenCL. Everything
//!   the CPU runner touches is host memory, and x86 gives address spaces
//!   256–258 a meaning (segment registers), so a mapping would buy nothing
//!   and risk miscompiles; the kernel ABI ([`super::abi`]) tells storage
//!   classes apart by where it puts their memory instead.
//! * `!spv.array<N x T>` → `[N x T]`, `!spv.rtarray<T>` → `[0 x T]`: the
//!   `stride` decoration, when present, must be the natural stride (the
//!   element's size rounded up to its ABI alignment under the data layout
//!   in use), else [`ConvertError::UnnaturalStride`].
//! * `!spv.struct<(...)>` without offsets → a packed struct; with offsets
//!   equal to the natural ones (each member at its predecessor's end
//!   rounded up to its ABI alignment) → a plain struct; with offsets equal
//!   to the packed ones (`(i8 [0], i32 [1])`) → a packed struct; anything
//!   else is [`ConvertError::UnnaturalOffset`] naming the member.
//! * `!spv.coopmatrix<RxCxT, Subgroup, Use>` → `<L x T>` with
//!   `L = ceil(R * C / S)`, the components one invocation holds when the
//!   subgroup has `S` invocations ([`TypeConv::with_subgroup_size`]; the
//!   distribution is described in `convert/coop.rs`); without a subgroup
//!   size, or at another scope, [`ConvertError::UnsupportedType`].
//! * Matrices, images, samplers: [`ConvertError::UnsupportedType`].
//!
//! The data layout is kiln's [`DataLayout`]: MLIR's defaults for the MLIR
//! ABI (what `mlir-translate` assumes), and for the kernel ABI the host's
//! (64-bit integers 8-byte aligned, as x86-64 and AArch64 lay them out),
//! since the kernel is compiled for the host by `llc`.

use std::collections::HashMap;

use super::error::ConvertError;
use super::ir::LType;
use crate::ir::{FloatKind, Type, TypeKind, TypeStore};
use crate::layout::DataLayout;
use crate::text::{print_type, Prefix};

/// Converts spv types, caching the answers.
#[derive(Debug)]
pub struct TypeConv<'a> {
    types: &'a TypeStore,
    layout: DataLayout,
    cache: HashMap<Type, LType>,
    subgroup_size: Option<u32>,
}

impl<'a> TypeConv<'a> {
    /// A converter reading `types`, laying structs out with `layout`.
    pub fn new(types: &'a TypeStore, layout: DataLayout) -> Self {
        TypeConv {
            types,
            layout,
            cache: HashMap::new(),
            subgroup_size: None,
        }
    }

    /// The converter for code that runs in subgroups of `size`
    /// invocations: cooperative matrices are then spread over them.
    pub fn with_subgroup_size(mut self, size: Option<u32>) -> Self {
        self.subgroup_size = size;
        self.cache.clear();
        self
    }

    /// The subgroup size given to [`Self::with_subgroup_size`].
    pub fn subgroup_size(&self) -> Option<u32> {
        self.subgroup_size
    }

    /// Components of a cooperative matrix of type `ty` each invocation
    /// holds (`ceil(rows * columns / subgroup size)`), or why there is no
    /// answer.
    pub fn coop_length(&self, ty: Type) -> Result<u32, ConvertError> {
        let TypeKind::CoopMatrix(c) = self.types.kind(ty) else {
            return Err(self.unsupported(ty, "not a cooperative matrix type"));
        };
        if c.scope != crate::grammar::Scope::Subgroup {
            return Err(self.unsupported(
                ty,
                "the CPU runner spreads cooperative matrices over subgroups only",
            ));
        }
        let s = self.subgroup_size.filter(|&s| s > 0).ok_or_else(|| {
            self.unsupported(
                ty,
                "cooperative matrices need the subgroup size the code runs with \
                 (the kernel ABI with ConvertOptions::subgroup_size; --subgroup-size N \
                 in kiln's LLVM conversions)",
            )
        })?;
        let n = u64::from(c.rows) * u64::from(c.columns);
        u32::try_from(n.div_ceil(u64::from(s)))
            .ok()
            .filter(|&l| l > 0)
            .ok_or_else(|| self.unsupported(ty, "an empty or oversized cooperative matrix"))
    }

    /// The spv type store.
    pub fn store(&self) -> &'a TypeStore {
        self.types
    }

    /// The data layout.
    pub fn layout(&self) -> &DataLayout {
        &self.layout
    }

    /// The spv type as printed.
    pub fn name(&self, ty: Type) -> String {
        print_type(self.types, ty, Prefix::Spirv)
    }

    /// The LLVM type of `ty`.
    pub fn convert(&mut self, ty: Type) -> Result<LType, ConvertError> {
        if let Some(t) = self.cache.get(&ty) {
            return Ok(t.clone());
        }
        let t = self.compute(ty)?;
        self.cache.insert(ty, t.clone());
        Ok(t)
    }

    /// Size in bytes of `ty` (as stored: the layout's size).
    pub fn size(&self, ty: Type) -> Result<u64, ConvertError> {
        if let TypeKind::CoopMatrix(c) = self.types.kind(ty) {
            // One invocation's components (a `Function` or `Private`
            // variable holds those).
            return Ok(u64::from(self.coop_length(ty)?) * self.size(c.element)?);
        }
        self.layout
            .size(self.types, ty)
            .map_err(|e| self.layout_err(ty, e))
    }

    /// ABI alignment in bytes of `ty`.
    pub fn align(&self, ty: Type) -> Result<u64, ConvertError> {
        if let TypeKind::CoopMatrix(c) = self.types.kind(ty) {
            return self.align(c.element);
        }
        self.layout
            .abi_alignment(self.types, ty)
            .map_err(|e| self.layout_err(ty, e))
    }

    fn layout_err(&self, ty: Type, e: crate::layout::LayoutError) -> ConvertError {
        ConvertError::UnsupportedType {
            ty: self.name(ty),
            reason: e.to_string(),
        }
    }

    fn unsupported(&self, ty: Type, reason: &str) -> ConvertError {
        ConvertError::UnsupportedType {
            ty: self.name(ty),
            reason: reason.to_owned(),
        }
    }

    fn compute(&mut self, ty: Type) -> Result<LType, ConvertError> {
        Ok(match self.types.kind(ty) {
            TypeKind::None => LType::Void,
            TypeKind::Int { width, .. } => LType::Int(*width),
            TypeKind::Float(FloatKind::F16) => LType::Half,
            TypeKind::Float(FloatKind::BF16) => LType::BFloat,
            TypeKind::Float(FloatKind::F32) => LType::Float,
            TypeKind::Float(FloatKind::F64) => LType::Double,
            TypeKind::Index => {
                return Err(self.unsupported(ty, "`index` is not a SPIR-V type"));
            }
            TypeKind::Vector { len, element } => {
                let (len, element) = (*len, *element);
                LType::vector(len, self.convert(element)?)
            }
            TypeKind::Array {
                len,
                element,
                stride,
            } => {
                let (len, element, stride) = (*len, *element, *stride);
                self.check_stride(ty, element, stride)?;
                LType::array(u64::from(len), self.convert(element)?)
            }
            TypeKind::RuntimeArray { element, stride } => {
                let (element, stride) = (*element, *stride);
                self.check_stride(ty, element, stride)?;
                LType::array(0, self.convert(element)?)
            }
            TypeKind::Pointer { .. } => LType::PTR,
            TypeKind::Struct(s) => {
                let members = s.members.clone();
                let mut fields = Vec::with_capacity(members.len());
                for m in &members {
                    fields.push(self.convert(m.ty)?);
                }
                let packed = self.struct_is_packed(ty, &members)?;
                LType::Struct { packed, fields }
            }
            TypeKind::Matrix { .. } => {
                return Err(self.unsupported(ty, "matrix types have no LLVM conversion"))
            }
            TypeKind::CoopMatrix(c) => {
                let element = c.element;
                let len = self.coop_length(ty)?;
                LType::vector(len, self.convert(element)?)
            }
            TypeKind::Image(_) | TypeKind::SampledImage(_) | TypeKind::Sampler => {
                return Err(self.unsupported(ty, "image and sampler types have no LLVM conversion"))
            }
            TypeKind::Function { .. } => {
                return Err(self.unsupported(ty, "a function type is not a value type"))
            }
        })
    }

    /// The natural distance between array elements of `element`.
    pub fn natural_stride(&self, element: Type) -> Result<u64, ConvertError> {
        let size = self.size(element)?;
        let align = self.align(element)?;
        Ok(size.div_ceil(align.max(1)) * align.max(1))
    }

    fn check_stride(
        &self,
        ty: Type,
        element: Type,
        stride: Option<u32>,
    ) -> Result<(), ConvertError> {
        let Some(stride) = stride else { return Ok(()) };
        let natural = self.natural_stride(element)?;
        if u64::from(stride) != natural {
            return Err(ConvertError::UnnaturalStride {
                ty: self.name(ty),
                stride,
                natural,
            });
        }
        Ok(())
    }

    /// Whether a struct maps to a packed LLVM struct (see the module docs).
    fn struct_is_packed(
        &self,
        ty: Type,
        members: &[crate::ir::StructMember],
    ) -> Result<bool, ConvertError> {
        let with = members.iter().filter(|m| m.offset.is_some()).count();
        if with == 0 {
            return Ok(true);
        }
        let mut natural_end = 0u64;
        let mut packed_end = 0u64;
        let (mut natural_ok, mut packed_ok) = (true, true);
        for (i, m) in members.iter().enumerate() {
            let size = self.size(m.ty)?;
            let align = self.align(m.ty)?.max(1);
            let natural = natural_end.div_ceil(align) * align;
            let Some(offset) = m.offset.map(u64::from) else {
                return Err(ConvertError::UnnaturalOffset {
                    ty: self.name(ty),
                    member: i,
                    offset: None,
                    natural,
                });
            };
            natural_ok &= offset == natural;
            packed_ok &= offset == packed_end;
            if !natural_ok && !packed_ok {
                return Err(ConvertError::UnnaturalOffset {
                    ty: self.name(ty),
                    member: i,
                    offset: Some(offset),
                    natural,
                });
            }
            natural_end = natural + size;
            packed_end += size;
        }
        Ok(!natural_ok)
    }
}
