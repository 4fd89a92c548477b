//! Data layout: the size and alignment of types.
//!
//! Two families of questions live here:
//!
//! * [`DataLayout`] answers MLIR's data layout queries — size (in bytes and
//!   bits), ABI alignment and preferred alignment — for a scope whose
//!   `#dlti.dl_spec` specifications ([`spec`]) it combines. It is what the
//!   type converter, the LLVM conversion and host-side packing consult.
//! * [`block`] lays out interface blocks under Vulkan's std140, std430 and
//!   scalar rules (member offsets, array and matrix strides) and checks
//!   explicit layouts; [`host`] turns a block into the description
//!   `kiln_abi::host_layout` compares `#[repr(C)]` host structs against.
//!
//! # Semantics of [`DataLayout`]
//!
//! For built-in types the answers are MLIR 19's defaults and interpolation
//! (`mlir/lib/Interfaces/DataLayoutInterfaces.cpp`), which the tests compare
//! against `mlir-opt-19 --test-data-layout-query` type by type:
//!
//! * integers `iN`/`siN`/`uiN`: size `ceil(N / 8)` bytes (`N` bits). Without
//!   integer entries the ABI alignment is the next power of two of the size
//!   for `N < 64` and 4 bytes for `N >= 64`; the preferred alignment is the
//!   next power of two of the size. With integer entries, an integer takes
//!   the entry of the smallest width `>= N` ("the closest from above"), or
//!   the widest entry when none is that wide; between entries of one width
//!   (`i32`, `ui32`) the first in specification order wins. Signedness is
//!   not part of the match.
//! * floats: size from the format; each format (`f16`, `bf16`, `f32`, `f64`)
//!   has its own entry; without one, ABI alignment is the next power of two
//!   of the size and preferred equals ABI.
//! * `index`: an integer of the width given by the `index` entry (64 bits by
//!   default), laid out through the integer rules above.
//! * `vector<N x T>`: `next_pow2(N) * size(T)` bytes; ABI and preferred
//!   alignment are the next power of two of that size. Vector entries are
//!   rejected, as in MLIR.
//!
//! MLIR 19 has no answer for SPIR-V types (the SPIR-V dialect types do not
//! implement the data layout type interface). kiln answers what MLIR 19
//! answers for the LLVM dialect type the SPIR-V-to-LLVM conversion maps each
//! one to (seed 003), and the tests check that through the oracle too:
//!
//! * `!spirv.array<N x T>` like `!llvm.array<N x T>`: `N * align(size(T),
//!   abi(T))` bytes, ABI and preferred alignment of `T`. With an explicit
//!   `stride = S` the size is `N * S` (the decoration wins).
//! * `!spirv.rtarray<T>` like `!llvm.array<0 x T>`: **size 0**, alignments of
//!   `T`. A struct ending in a runtime array therefore has the size of its
//!   fixed part (C's flexible array member). The block layouts give the
//!   stride.
//! * `!spirv.struct` without offsets like a packed `!llvm.struct<packed
//!   (...)>`: members back to back, ABI alignment 1, preferred alignment the
//!   largest member ABI alignment. With offsets (natural or not) like
//!   `!llvm.struct<(...)>`: the given offsets, ABI and preferred alignment
//!   the largest member ABI alignment, size the end of the furthest member
//!   rounded up to that alignment. A struct mixing members with and without
//!   offsets is an error. The decorations win: where they are not the
//!   natural offsets under the scope's spec (`(i8 [0], i32 [4])` when `i32`
//!   is 8-aligned), MLIR's converted `!llvm.struct` would move the member
//!   and kiln does not (the tests check both sides of this).
//! * `!spirv.matrix<C x vector<R x T>>` like an array of `C` column vectors.
//! * `!spirv.ptr<T, SC>` like `!llvm.ptr`: 64 bits, 8-byte alignments, index
//!   width 64, unless an entry keyed by a pointer in storage class `SC`
//!   says otherwise; a storage class without an entry takes the entry for
//!   `Function` if there is one, as `!llvm.ptr<N>` takes that of address
//!   space 0 (`Function` is address space 0 in the LLVM conversion's
//!   OpenCL mapping, and every storage class is for Vulkan).
//! * `none`, function, image, sampled image and sampler types have no data
//!   layout: [`LayoutError::Unsupported`].
//!
//! Where MLIR's answer would be unusable kiln deviates, and says so: the
//! alignment of `i0` (MLIR answers 0, then divides by it) is 1, and spec
//! values MLIR accepts but cannot honour are rejected ([`spec`]).
//!
//! # Scopes
//!
//! A specification belongs to a scope op: in kiln the builtin module wrapper
//! ([`Module::wrapper`]) encloses the `spirv.module` op, and both may carry a
//! `dlti.dl_spec` attribute ([`DataLayout::for_module`]). Specs combine from
//! the outermost scope inwards ([`DataLayout::nested`]): an inner entry
//! replaces the outer entry with the same key, other entries accumulate.
//! MLIR 19 leaves the compatibility of built-in entries undefined (it
//! asserts); kiln applies the rule MLIR's `!llvm.ptr` uses for every typed
//! key, which is the seed's example: a nested scope may only *relax* an
//! alignment (the inner ABI alignment must divide the outer one) and may not
//! change a size (the `index` width, a pointer's size). Identifier entries
//! must be identical, as in MLIR.
//!
//! # Caching
//!
//! A [`DataLayout`] caches every answer per [`Type`] handle, so build one per
//! scope and keep it (re-creating it per query discards the cache, the
//! anti-pattern the seed warns about). Handles are only meaningful in the
//! [`TypeStore`] the layout was queried with: use one `DataLayout` with one
//! store. Interning more types in the store is fine (handles never change
//! meaning); changing the scope's specification is not — build a new one.
//!
//! # Kernel types
//!
//! [`DataLayout::kernel_layout`] answers for the memref-level kernel IR's
//! types ([`kernel`]): scalars and vectors as above, memrefs as their LLVM
//! descriptor (MLIR 19 itself has no memref layout). The kernel IR's own
//! [`crate::kernel::parse_type`] parses their MLIR spelling for `kiln layout`
//! and the tests.
//!
//! # New type classes
//!
//! The queries match on [`TypeKind`]; kinds they do not know are
//! [`LayoutError::Unsupported`]. A new spv type class is answerable by
//! adding one arm in `DataLayout::compute` (and, if it takes spec entries,
//! one arm in the spec classifier).
//!
//! [`Module::wrapper`]: crate::ir::Module::wrapper

pub mod block;
pub mod host;
pub mod kernel;
pub mod spec;

use std::cell::RefCell;
use std::collections::HashMap;

pub use block::{BlockDetail, BlockLayoutError, BlockRules, BlockTypeLayout, MemberLayout};
pub use spec::{DataLayoutSpec, EntryKey, EntryValue, SpecEntry, SpecError};

use crate::grammar::StorageClass;
use crate::ir::{AttrKind, FloatKind, Module, Type, TypeKind, TypeStore};
use crate::kernel::KType;
use crate::text::{self, Prefix};
use spec::Classified;

/// The name of the attribute holding a scope's specification.
pub const DL_SPEC_ATTR: &str = "dlti.dl_spec";

/// Default pointer size and alignments, in bits (MLIR's `!llvm.ptr`).
const DEFAULT_POINTER_BITS: u64 = 64;

/// Size and alignments of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeLayout {
    /// Size in bits (for integers and floats the bit width; for everything
    /// else eight times the size in bytes).
    pub size_in_bits: u64,
    /// ABI (required) alignment in bytes.
    pub abi_align: u64,
    /// Preferred alignment in bytes.
    pub preferred_align: u64,
}

impl TypeLayout {
    /// Size in bytes: `ceil(size_in_bits / 8)`.
    pub fn size(&self) -> u64 {
        self.size_in_bits.div_ceil(8)
    }
}

/// Byte order, from `dlti.endianness`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// `"big"`.
    Big,
    /// `"little"`.
    Little,
}

/// A data layout query that has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The type has no data layout.
    #[error("{ty} has no data layout: {why}")]
    Unsupported {
        /// The type as printed.
        ty: String,
        /// Why.
        why: &'static str,
    },
    /// A struct where some members have offsets and some do not.
    #[error("{ty} has no data layout: some members have offsets and some do not")]
    MixedOffsets {
        /// The type as printed.
        ty: String,
    },
    /// The size does not fit 64 bits.
    #[error("the size of {ty} overflows 64 bits")]
    Overflow {
        /// The type as printed.
        ty: String,
    },
    /// A `dlti.dl_spec` attribute that is not a `#dlti.dl_spec`.
    #[error(
        "'dlti.dl_spec' on the {scope} is expected to be a #dlti.dl_spec attribute, found {found}"
    )]
    NotASpec {
        /// Which scope op (`builtin module`, `spirv.module`).
        scope: &'static str,
        /// The attribute as printed.
        found: String,
    },
    /// An invalid or incompatible specification on a scope op (what is wrong
    /// with it is the error's source).
    #[error("invalid 'dlti.dl_spec' on the {scope}")]
    Spec {
        /// Which scope op.
        scope: &'static str,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// A type that is not an aggregate where one was needed.
    #[error("{ty} is not {expected}")]
    NotAggregate {
        /// The type as printed.
        ty: String,
        /// What was expected (`a struct`, `an array or matrix`).
        expected: &'static str,
    },
}

/// Data layout queries for one scope, with a per-type cache.
#[derive(Clone, Debug, Default)]
pub struct DataLayout {
    /// The combined entries, outermost scope first, replaced in place by
    /// inner scopes.
    entries: Vec<Classified>,
    cache: RefCell<HashMap<Type, TypeLayout>>,
    /// Answers for kernel types ([`DataLayout::kernel_layout`]).
    kernel_cache: RefCell<HashMap<KType, TypeLayout>>,
}

impl DataLayout {
    /// The layout of a scope with one specification (or
    /// [`DataLayout::default`] for none: built-in defaults).
    pub fn new(spec: &DataLayoutSpec) -> Self {
        Self {
            entries: spec.classified().to_vec(),
            cache: RefCell::default(),
            kernel_cache: RefCell::default(),
        }
    }

    /// The layout of a scope nested in others: `specs` from the outermost to
    /// the innermost scope, each combined into the ones enclosing it with
    /// the compatibility check described in the module docs.
    pub fn nested(types: &TypeStore, specs: &[&DataLayoutSpec]) -> Result<Self, SpecError> {
        let mut entries: Vec<Classified> = Vec::new();
        for spec in specs {
            combine(types, &mut entries, spec.classified())?;
        }
        Ok(Self {
            entries,
            cache: RefCell::default(),
            kernel_cache: RefCell::default(),
        })
    }

    /// The layout inside `module`'s `spirv.module`: the `dlti.dl_spec` of the
    /// builtin module wrapper (outer scope) combined with that of the
    /// `spirv.module` op (inner scope). Key types are interned in the
    /// module's type store.
    pub fn for_module(module: &mut Module) -> Result<Self, LayoutError> {
        let outer = match &module.wrapper {
            Some(attrs) => attrs
                .iter()
                .find(|(name, _)| name == DL_SPEC_ATTR)
                .map(|(_, a)| *a),
            None => None,
        };
        let inner = module.attr(module.top(), DL_SPEC_ATTR);
        let mut specs = Vec::new();
        for (scope, attr) in [("builtin module", outer), ("spirv.module", inner)] {
            let Some(attr) = attr else { continue };
            let text = match module.attrs.kind(attr) {
                AttrKind::Opaque(text) if text.starts_with("#dlti.dl_spec") => text.clone(),
                _ => {
                    return Err(LayoutError::NotASpec {
                        scope,
                        found: text::print_attr(&module.attrs, &module.types, attr, Prefix::Spirv),
                    })
                }
            };
            let spec = DataLayoutSpec::parse(&mut module.types, &text)
                .map_err(|source| LayoutError::Spec { scope, source })?;
            specs.push((scope, spec));
        }
        let mut entries: Vec<Classified> = Vec::new();
        for (scope, spec) in &specs {
            combine(&module.types, &mut entries, spec.classified())
                .map_err(|source| LayoutError::Spec { scope, source })?;
        }
        Ok(Self {
            entries,
            cache: RefCell::default(),
            kernel_cache: RefCell::default(),
        })
    }

    /// Size, ABI alignment and preferred alignment of `ty` (cached).
    pub fn layout(&self, types: &TypeStore, ty: Type) -> Result<TypeLayout, LayoutError> {
        if let Some(l) = self.cache.borrow().get(&ty) {
            return Ok(*l);
        }
        let l = self.compute(types, ty)?;
        self.cache.borrow_mut().insert(ty, l);
        Ok(l)
    }

    /// Size of `ty` in bytes.
    pub fn size(&self, types: &TypeStore, ty: Type) -> Result<u64, LayoutError> {
        Ok(self.layout(types, ty)?.size())
    }

    /// Size of `ty` in bits.
    pub fn size_in_bits(&self, types: &TypeStore, ty: Type) -> Result<u64, LayoutError> {
        Ok(self.layout(types, ty)?.size_in_bits)
    }

    /// ABI alignment of `ty` in bytes.
    pub fn abi_alignment(&self, types: &TypeStore, ty: Type) -> Result<u64, LayoutError> {
        Ok(self.layout(types, ty)?.abi_align)
    }

    /// Preferred alignment of `ty` in bytes.
    pub fn preferred_alignment(&self, types: &TypeStore, ty: Type) -> Result<u64, LayoutError> {
        Ok(self.layout(types, ty)?.preferred_align)
    }

    /// The index bit width of `index` and pointer types (MLIR's
    /// `getTypeIndexBitwidth`); `None` for other types.
    pub fn index_bitwidth(&self, types: &TypeStore, ty: Type) -> Option<u64> {
        match types.kind(ty) {
            TypeKind::Index => Some(u64::from(self.index_bits())),
            TypeKind::Pointer { storage_class, .. } => Some(
                self.pointer_entry(*storage_class)
                    .map_or(DEFAULT_POINTER_BITS, |p| p.3),
            ),
            _ => None,
        }
    }

    /// Byte offsets of the members of a struct type.
    pub fn struct_offsets(&self, types: &TypeStore, ty: Type) -> Result<Vec<u64>, LayoutError> {
        let TypeKind::Struct(s) = types.kind(ty) else {
            return Err(LayoutError::NotAggregate {
                ty: print(types, ty),
                expected: "a struct",
            });
        };
        Ok(self.struct_parts(types, ty, s)?.0)
    }

    /// Distance in bytes between consecutive elements of an array or runtime
    /// array, or between the columns of a matrix.
    pub fn element_stride(&self, types: &TypeStore, ty: Type) -> Result<u64, LayoutError> {
        match types.kind(ty) {
            TypeKind::Array {
                stride: Some(s), ..
            }
            | TypeKind::RuntimeArray {
                stride: Some(s), ..
            } => Ok(u64::from(*s)),
            TypeKind::Array { element, .. }
            | TypeKind::RuntimeArray { element, .. }
            | TypeKind::Matrix {
                column: element, ..
            } => {
                let e = self.layout(types, *element)?;
                align_to(e.size(), e.abi_align).ok_or_else(|| overflow(types, ty))
            }
            _ => Err(LayoutError::NotAggregate {
                ty: print(types, ty),
                expected: "an array or matrix",
            }),
        }
    }

    /// `dlti.endianness`, when the scope sets it.
    pub fn endianness(&self) -> Option<Endianness> {
        match self.id_entry("dlti.endianness")? {
            EntryValue::String(s) if s == "big" => Some(Endianness::Big),
            EntryValue::String(s) if s == "little" => Some(Endianness::Little),
            _ => None,
        }
    }

    /// `dlti.alloca_memory_space`, when set.
    pub fn alloca_memory_space(&self) -> Option<&EntryValue> {
        self.id_entry("dlti.alloca_memory_space")
    }

    /// `dlti.program_memory_space`, when set.
    pub fn program_memory_space(&self) -> Option<&EntryValue> {
        self.id_entry("dlti.program_memory_space")
    }

    /// `dlti.global_memory_space`, when set.
    pub fn global_memory_space(&self) -> Option<&EntryValue> {
        self.id_entry("dlti.global_memory_space")
    }

    /// `dlti.stack_alignment` in bits, when set.
    pub fn stack_alignment(&self) -> Option<u64> {
        match self.id_entry("dlti.stack_alignment")? {
            EntryValue::Int { value, .. } => u64::try_from(*value).ok(),
            _ => None,
        }
    }

    /// The value of any identifier entry in effect (`"dlti.endianness"`,
    /// or another dialect's).
    pub fn id_entry(&self, name: &str) -> Option<&EntryValue> {
        self.entries.iter().find_map(|e| match e {
            Classified::Id { name: n, value } if n == name => Some(value),
            _ => None,
        })
    }

    // ---- computation ----------------------------------------------------

    fn compute(&self, types: &TypeStore, ty: Type) -> Result<TypeLayout, LayoutError> {
        let unsupported = |why| LayoutError::Unsupported {
            ty: print(types, ty),
            why,
        };
        match types.kind(ty) {
            TypeKind::Int { width, .. } => Ok(self.int_layout(*width)),
            TypeKind::Float(kind) => Ok(self.float_layout(*kind)),
            TypeKind::Index => Ok(self.int_layout(self.index_bits())),
            TypeKind::Vector { len, element } => {
                let e = self.layout(types, *element)?;
                vector_layout(1, u64::from(*len), e.size()).ok_or_else(|| overflow(types, ty))
            }
            TypeKind::Array {
                len,
                element,
                stride,
            } => {
                let e = self.layout(types, *element)?;
                let stride = match stride {
                    Some(s) => u64::from(*s),
                    None => align_to(e.size(), e.abi_align).ok_or_else(|| overflow(types, ty))?,
                };
                let size = stride
                    .checked_mul(u64::from(*len))
                    .ok_or_else(|| overflow(types, ty))?;
                bytes_layout(size, e.abi_align, e.preferred_align)
                    .ok_or_else(|| overflow(types, ty))
            }
            TypeKind::RuntimeArray { element, .. } => {
                let e = self.layout(types, *element)?;
                Ok(TypeLayout {
                    size_in_bits: 0,
                    abi_align: e.abi_align,
                    preferred_align: e.preferred_align,
                })
            }
            TypeKind::Matrix { columns, column } => {
                let c = self.layout(types, *column)?;
                let size = align_to(c.size(), c.abi_align)
                    .and_then(|s| s.checked_mul(u64::from(*columns)))
                    .ok_or_else(|| overflow(types, ty))?;
                bytes_layout(size, c.abi_align, c.preferred_align)
                    .ok_or_else(|| overflow(types, ty))
            }
            TypeKind::Struct(s) => {
                let (_, size, abi, pref) = self.struct_parts(types, ty, s)?;
                bytes_layout(size, abi, pref).ok_or_else(|| overflow(types, ty))
            }
            TypeKind::Pointer { storage_class, .. } => Ok(self.pointer_layout(*storage_class)),
            TypeKind::None => Err(unsupported("`none` has no values to store")),
            TypeKind::Function { .. } => Err(unsupported("function types have no values")),
            TypeKind::Image(_) | TypeKind::SampledImage(_) | TypeKind::Sampler => Err(unsupported(
                "image and sampler handles are opaque and have no size",
            )),
            TypeKind::CoopMatrix(_) => Err(unsupported(
                "a cooperative matrix is spread over a scope's invocations and has no size",
            )),
        }
    }

    /// Member offsets, size, ABI and preferred alignment of a struct.
    fn struct_parts(
        &self,
        types: &TypeStore,
        ty: Type,
        s: &crate::ir::StructType,
    ) -> Result<(Vec<u64>, u64, u64, u64), LayoutError> {
        let with = s.members.iter().filter(|m| m.offset.is_some()).count();
        if with != 0 && with != s.members.len() {
            return Err(LayoutError::MixedOffsets {
                ty: print(types, ty),
            });
        }
        let mut offsets = Vec::with_capacity(s.members.len());
        let mut max_abi = 1;
        let mut end = 0u64;
        for m in &s.members {
            let l = self.layout(types, m.ty)?;
            max_abi = max_abi.max(l.abi_align);
            let offset = match m.offset {
                Some(o) => u64::from(o),
                // Packed: back to back.
                None => end,
            };
            let member_end = offset
                .checked_add(l.size())
                .ok_or_else(|| overflow(types, ty))?;
            end = end.max(member_end);
            offsets.push(offset);
        }
        if with == 0 {
            // `!llvm.struct<packed (...)>`.
            Ok((offsets, end, 1, max_abi))
        } else {
            let size = align_to(end, max_abi).ok_or_else(|| overflow(types, ty))?;
            Ok((offsets, size, max_abi, max_abi))
        }
    }

    fn index_bits(&self) -> u32 {
        self.entries
            .iter()
            .find_map(|e| match e {
                Classified::Index { bits, .. } => Some(*bits),
                _ => None,
            })
            .unwrap_or(64)
    }

    /// The layout of an integer of `width` bits: MLIR's defaults, or the
    /// closest entry from above.
    fn int_layout(&self, width: u32) -> TypeLayout {
        let size = u64::from(width).div_ceil(8);
        let mut best: Option<(u32, u64, u64)> = None;
        let mut widest: Option<(u32, u64, u64)> = None;
        for e in &self.entries {
            let Classified::Int {
                width: w,
                abi_bits,
                pref_bits,
                ..
            } = e
            else {
                continue;
            };
            let cand = (*w, *abi_bits, *pref_bits);
            // Strict comparisons keep the first entry among equal widths.
            if *w >= width && best.is_none_or(|b| *w < b.0) {
                best = Some(cand);
            }
            if widest.is_none_or(|b| *w > b.0) {
                widest = Some(cand);
            }
        }
        let (abi, pref) = match best.or(widest) {
            Some((_, abi_bits, pref_bits)) => (abi_bits / 8, pref_bits / 8),
            None => {
                let natural = pow2_ceil(size).unwrap_or(1);
                let abi = if width < 64 { natural } else { 4 };
                (abi, natural)
            }
        };
        TypeLayout {
            size_in_bits: u64::from(width),
            abi_align: abi,
            preferred_align: pref,
        }
    }

    fn float_layout(&self, kind: FloatKind) -> TypeLayout {
        let bits = u64::from(kind.width());
        let entry = self.entries.iter().find_map(|e| match e {
            Classified::Float {
                kind: k,
                abi_bits,
                pref_bits,
                ..
            } if *k == kind => Some((*abi_bits, *pref_bits)),
            _ => None,
        });
        let (abi, pref) = match entry {
            Some((a, p)) => (a / 8, p / 8),
            None => {
                let natural = pow2_ceil(bits / 8).unwrap_or(1);
                (natural, natural)
            }
        };
        TypeLayout {
            size_in_bits: bits,
            abi_align: abi,
            preferred_align: pref,
        }
    }

    /// The layout of a pointer in storage class `sc`.
    fn pointer_layout(&self, sc: StorageClass) -> TypeLayout {
        let (size_bits, abi_bits, pref_bits) = match self.pointer_entry(sc) {
            Some((s, a, p, _)) => (s, a, p),
            None => (
                DEFAULT_POINTER_BITS,
                DEFAULT_POINTER_BITS,
                DEFAULT_POINTER_BITS,
            ),
        };
        TypeLayout {
            size_in_bits: size_bits,
            abi_align: abi_bits / 8,
            preferred_align: pref_bits / 8,
        }
    }

    /// `(size, abi, preferred, index)` bits of the pointer entry for `sc`,
    /// else of the entry for `Function` (what `!llvm.ptr` does with address
    /// space 0, which `Function` maps to).
    fn pointer_entry(&self, sc: StorageClass) -> Option<(u64, u64, u64, u64)> {
        let find = |sc: StorageClass| {
            self.entries.iter().find_map(|e| match e {
                Classified::Pointer {
                    storage_class,
                    size_bits,
                    abi_bits,
                    pref_bits,
                    index_bits,
                    ..
                } if *storage_class == sc => Some((*size_bits, *abi_bits, *pref_bits, *index_bits)),
                _ => None,
            })
        };
        find(sc).or_else(|| find(StorageClass::Function))
    }

    /// How many types have their layout cached.
    pub fn cached_types(&self) -> usize {
        self.cache.borrow().len()
    }
}

/// Combines the entries of a nested scope into those in effect outside it.
fn combine(
    types: &TypeStore,
    acc: &mut Vec<Classified>,
    inner: &[Classified],
) -> Result<(), SpecError> {
    for e in inner {
        match acc.iter().position(|o| same_key(o, e)) {
            Some(i) => {
                check_compatible(types, &acc[i], e)?;
                acc[i] = e.clone();
            }
            None => acc.push(e.clone()),
        }
    }
    Ok(())
}

fn same_key(a: &Classified, b: &Classified) -> bool {
    match (a, b) {
        (Classified::Int { key: x, .. }, Classified::Int { key: y, .. })
        | (Classified::Float { key: x, .. }, Classified::Float { key: y, .. })
        | (Classified::Index { key: x, .. }, Classified::Index { key: y, .. }) => x == y,
        (
            Classified::Pointer {
                storage_class: x, ..
            },
            Classified::Pointer {
                storage_class: y, ..
            },
        ) => x == y,
        (Classified::Id { name: x, .. }, Classified::Id { name: y, .. }) => x == y,
        _ => false,
    }
}

/// The nested-scope rule: alignments may only be relaxed, sizes kept,
/// identifier values kept.
fn check_compatible(
    types: &TypeStore,
    outer: &Classified,
    inner: &Classified,
) -> Result<(), SpecError> {
    let name = |t: &Type| text::print_type(types, *t, Prefix::Spirv);
    let relax = |what: String, outer_bits: u64, inner_bits: u64| {
        if outer_bits % inner_bits == 0 {
            Ok(())
        } else {
            Err(SpecError::Incompatible {
                reason: format!(
                    "{what}: ABI alignment {} bytes does not divide the enclosing scope's {} bytes (nested scopes may only relax alignment)",
                    inner_bits / 8,
                    outer_bits / 8
                ),
            })
        }
    };
    match (outer, inner) {
        (
            Classified::Int {
                key, abi_bits: o, ..
            },
            Classified::Int { abi_bits: i, .. },
        )
        | (
            Classified::Float {
                key, abi_bits: o, ..
            },
            Classified::Float { abi_bits: i, .. },
        ) => relax(name(key), *o, *i),
        (Classified::Index { bits: o, .. }, Classified::Index { bits: i, .. }) => {
            if o == i {
                Ok(())
            } else {
                Err(SpecError::Incompatible {
                    reason: format!(
                        "index: bit width {i} differs from the enclosing scope's {o} (nested scopes may not change sizes)"
                    ),
                })
            }
        }
        (
            Classified::Pointer {
                storage_class,
                size_bits: os,
                abi_bits: oa,
                ..
            },
            Classified::Pointer {
                size_bits: is,
                abi_bits: ia,
                ..
            },
        ) => {
            if os != is {
                return Err(SpecError::Incompatible {
                    reason: format!(
                        "pointers in {storage_class}: size {is} bits differs from the enclosing scope's {os} bits (nested scopes may not change sizes)"
                    ),
                });
            }
            relax(format!("pointers in {storage_class}"), *oa, *ia)
        }
        (Classified::Id { name, value: o }, Classified::Id { value: i, .. }) => {
            if o == i {
                Ok(())
            } else {
                Err(SpecError::Incompatible {
                    reason: format!(
                        "'{name}' is {} here but {} in the enclosing scope",
                        spec::print_value(types, i, Prefix::Spirv),
                        spec::print_value(types, o, Prefix::Spirv)
                    ),
                })
            }
        }
        _ => Ok(()),
    }
}

fn print(types: &TypeStore, ty: Type) -> String {
    text::print_type(types, ty, Prefix::Spirv)
}

fn overflow(types: &TypeStore, ty: Type) -> LayoutError {
    LayoutError::Overflow {
        ty: print(types, ty),
    }
}

/// MLIR's vector layout: `outer * next_pow2(last)` elements of the
/// element's size in whole bytes (`vector<3xi1>` is 4 bytes, not 4 bits), ABI
/// and preferred alignment the next power of two of that size. `outer` is
/// the product of the leading dimensions, `last` the innermost.
fn vector_layout(outer: u64, last: u64, element_bytes: u64) -> Option<TypeLayout> {
    let bytes = last
        .checked_next_power_of_two()?
        .checked_mul(outer)?
        .checked_mul(element_bytes)?;
    let align = pow2_ceil(bytes)?;
    bytes_layout(bytes, align, align)
}

/// A layout from a size in bytes; `None` when the bits overflow.
fn bytes_layout(size: u64, abi: u64, pref: u64) -> Option<TypeLayout> {
    Some(TypeLayout {
        size_in_bits: size.checked_mul(8)?,
        abi_align: abi,
        preferred_align: pref,
    })
}

/// The next power of two `>= n` (1 for 0); `None` on overflow.
pub(crate) fn pow2_ceil(n: u64) -> Option<u64> {
    n.checked_next_power_of_two()
}

/// `n` rounded up to a multiple of `align` (`align > 0`); `None` on overflow.
pub(crate) fn align_to(n: u64, align: u64) -> Option<u64> {
    let align = align.max(1);
    n.div_ceil(align).checked_mul(align)
}
