//! Vulkan block layouts: std140, std430 and scalar.
//!
//! Shader interface blocks (`Uniform`, `StorageBuffer`, `PushConstant`,
//! `PhysicalStorageBuffer` storage) must be explicitly laid out: every struct
//! member carries an `Offset`, every array an `ArrayStride`, every matrix
//! member a `MatrixStride` and `RowMajor`/`ColMajor`. The rules are the
//! Vulkan specification's "Offset and Stride Assignment", as glslang applies
//! them to GLSL `std140`, `std430` and `scalar` blocks (the tests compile
//! GLSL with `glslangValidator` and compare every decoration):
//!
//! | type | std140 | std430 | scalar |
//! | --- | --- | --- | --- |
//! | scalar of `N` bytes | align `N` | align `N` | align `N` |
//! | 2-vector | `2N` | `2N` | `N` |
//! | 3- and 4-vector | `4N` | `4N` | `N` |
//! | array | element align, at least 16 | element align | element align |
//! | array stride | element size rounded up to the array align | same | same |
//! | struct | largest member align, at least 16 | largest member align | largest member align |
//! | struct size | end rounded up to the struct align | same | end of the last member |
//! | column-major matrix | array of its column vectors | same | same |
//! | row-major matrix | array of its row vectors | same | same |
//!
//! Further:
//!
//! * a member's offset is the end of the previous member rounded up to the
//!   member's alignment; an array occupies `stride * N` bytes (scalar
//!   layout: `stride * (N - 1)` plus one element, so a member may follow in
//!   the last element's padding, as glslang does);
//! * matrices are column-major unless the struct member carries `RowMajor`;
//!   the member gets `ColMajor`/`RowMajor` and `MatrixStride` (for arrays of
//!   matrices too);
//! * a runtime array may only be the last member of the outermost struct;
//!   a struct that ends in one has the size of its fixed part (the offset of
//!   the runtime array);
//! * `PhysicalStorageBuffer` pointers are 8 bytes, aligned to 8; booleans,
//!   other pointers, images and samplers have no layout in a block.
//!
//! [`check`] validates explicit decorations against the same alignments (it
//! is exactly as strict as the rules above, not Vulkan's relaxed block
//! layout, which also lets vectors sit at their scalar alignment): offsets
//! multiples of the member's alignment and not overlapping the previous
//! member (nor, outside scalar layout, the padding after a previous array or
//! struct), strides present, multiples of the alignment and no smaller than
//! an element, runtime arrays last. Errors name the member by its index
//! path (`member 2.1`, `member 3[].0` for a member of an array's struct
//! element).

use std::fmt;
use std::str::FromStr;

use crate::grammar::{Decoration, StorageClass};
use crate::ir::{MemberDecoration, StructMember, StructType, Type, TypeKind, TypeStore};
use crate::text::{self, Prefix};

use super::align_to;

/// A block layout standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockRules {
    /// GLSL `std140` (extended alignment: arrays and structs align to 16).
    Std140,
    /// GLSL `std430` (base alignment).
    Std430,
    /// `GL_EXT_scalar_block_layout` / `VK_EXT_scalar_block_layout`.
    Scalar,
}

impl BlockRules {
    /// Every standard.
    pub const ALL: [BlockRules; 3] = [BlockRules::Std140, BlockRules::Std430, BlockRules::Scalar];

    /// `std140`, `std430` or `scalar`.
    pub fn name(self) -> &'static str {
        match self {
            BlockRules::Std140 => "std140",
            BlockRules::Std430 => "std430",
            BlockRules::Scalar => "scalar",
        }
    }
}

impl fmt::Display for BlockRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown block layout name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown block layout '{0}' (expected std140, std430 or scalar)")]
pub struct UnknownRules(pub String);

impl FromStr for BlockRules {
    type Err = UnknownRules;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BlockRules::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRules(s.to_string()))
    }
}

/// The layout of one type under block rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockTypeLayout {
    /// Bytes the type takes when laid out as a member: where the next
    /// member may start at the earliest (before alignment).
    pub size: u64,
    /// Alignment under the rules, in bytes.
    pub align: u64,
    /// Structure of aggregates.
    pub detail: BlockDetail,
}

/// The aggregate part of a [`BlockTypeLayout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockDetail {
    /// A scalar, vector or pointer.
    Plain,
    /// An array (`len: None` for a runtime array).
    Array {
        /// Number of elements; `None` for a runtime array.
        len: Option<u32>,
        /// `ArrayStride`.
        stride: u64,
        /// The element's layout.
        element: Box<BlockTypeLayout>,
    },
    /// A matrix.
    Matrix {
        /// `MatrixStride`: between columns (column-major) or rows.
        stride: u64,
        /// Whether rows rather than columns are contiguous vectors.
        row_major: bool,
        /// Number of stored vectors (columns, or rows when row-major).
        vectors: u32,
        /// Bytes of one stored vector.
        vector_size: u64,
    },
    /// A struct.
    Struct {
        /// The members, in declaration order.
        members: Vec<MemberLayout>,
    },
}

/// One struct member's placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberLayout {
    /// `Offset`.
    pub offset: u64,
    /// The member type's layout.
    pub layout: BlockTypeLayout,
}

impl BlockTypeLayout {
    /// Bytes from the start of the value to the end of its last data byte
    /// (what a shader may access; `0` for a runtime array): the array's last
    /// element and a struct's last member without trailing padding.
    pub fn extent(&self) -> u64 {
        match &self.detail {
            BlockDetail::Plain => self.size,
            BlockDetail::Array { len: None, .. } => 0,
            BlockDetail::Array { len: Some(0), .. } => 0,
            BlockDetail::Array {
                len: Some(n),
                stride,
                element,
            } => (u64::from(*n) - 1) * stride + element.extent(),
            BlockDetail::Matrix {
                stride,
                vectors,
                vector_size,
                ..
            } => (u64::from(*vectors).max(1) - 1) * stride + vector_size,
            BlockDetail::Struct { members } => members
                .iter()
                .map(|m| m.offset + m.layout.extent())
                .max()
                .unwrap_or(0),
        }
    }

    /// Member offsets of a struct.
    pub fn offsets(&self) -> Option<Vec<u64>> {
        match &self.detail {
            BlockDetail::Struct { members } => Some(members.iter().map(|m| m.offset).collect()),
            _ => None,
        }
    }

    /// Array or matrix stride.
    pub fn stride(&self) -> Option<u64> {
        match &self.detail {
            BlockDetail::Array { stride, .. } | BlockDetail::Matrix { stride, .. } => Some(*stride),
            _ => None,
        }
    }

    fn is_runtime_array(&self) -> bool {
        matches!(self.detail, BlockDetail::Array { len: None, .. })
    }

    /// The innermost matrix of a matrix or (nested) array of matrices.
    fn matrix(&self) -> Option<(u64, bool)> {
        match &self.detail {
            BlockDetail::Matrix {
                stride, row_major, ..
            } => Some((*stride, *row_major)),
            BlockDetail::Array { element, .. } => element.matrix(),
            _ => None,
        }
    }
}

/// Why a type cannot be laid out, or its explicit layout breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlockLayoutError {
    /// A type with no layout in a block.
    #[error("{ty} ({at}) cannot be laid out under {rules}: {why}")]
    Unsupported {
        /// The type as printed.
        ty: String,
        /// Where it is (`member 2`, `the type`).
        at: String,
        /// The rules.
        rules: BlockRules,
        /// Why.
        why: &'static str,
    },
    /// A struct member without `Offset`.
    #[error("{member} has no Offset decoration")]
    MissingOffset {
        /// The member path.
        member: String,
    },
    /// A member offset that is not a multiple of its alignment.
    #[error("{member} at offset {offset} is not aligned to {align} ({rules} alignment of {ty})")]
    MisalignedMember {
        /// The member path.
        member: String,
        /// Its offset.
        offset: u64,
        /// The alignment it needs.
        align: u64,
        /// The rules.
        rules: BlockRules,
        /// Its type as printed.
        ty: String,
    },
    /// A member placed before the previous one (and its padding) ends.
    #[error(
        "{member} at offset {offset} overlaps the previous member, which extends to offset {end}"
    )]
    Overlap {
        /// The member path.
        member: String,
        /// Its offset.
        offset: u64,
        /// Where the previous member (with the padding the rules reserve
        /// after arrays and structs) ends.
        end: u64,
    },
    /// An array without `ArrayStride`.
    #[error("{at}: array type has no stride")]
    MissingArrayStride {
        /// Where.
        at: String,
    },
    /// An `ArrayStride` that is not a positive multiple of the array's
    /// alignment.
    #[error("{at}: array stride {stride} is not a positive multiple of {align} ({rules} alignment of the array)")]
    MisalignedArrayStride {
        /// Where.
        at: String,
        /// The stride.
        stride: u64,
        /// The alignment.
        align: u64,
        /// The rules.
        rules: BlockRules,
    },
    /// An `ArrayStride` smaller than an element.
    #[error(
        "{at}: array stride {stride} is smaller than its element, which needs {element} bytes"
    )]
    ArrayStrideTooSmall {
        /// Where.
        at: String,
        /// The stride.
        stride: u64,
        /// The element's extent.
        element: u64,
    },
    /// A matrix member without `MatrixStride`.
    #[error("{at}: matrix has no MatrixStride decoration")]
    MissingMatrixStride {
        /// Where.
        at: String,
    },
    /// A `MatrixStride` that is not a positive multiple of the matrix's
    /// alignment.
    #[error("{at}: matrix stride {stride} is not a positive multiple of {align} ({rules} alignment of the matrix)")]
    MisalignedMatrixStride {
        /// Where.
        at: String,
        /// The stride.
        stride: u64,
        /// The alignment.
        align: u64,
        /// The rules.
        rules: BlockRules,
    },
    /// A `MatrixStride` smaller than a column (or row) vector.
    #[error("{at}: matrix stride {stride} is smaller than a {kind} vector of {vector} bytes")]
    MatrixStrideTooSmall {
        /// Where.
        at: String,
        /// The stride.
        stride: u64,
        /// `column` or `row`.
        kind: &'static str,
        /// The vector's size.
        vector: u64,
    },
    /// A runtime array that is not the last member of the outermost struct.
    #[error("{at}: a runtime array may only be the last member of the outermost struct")]
    RuntimeArrayNotLast {
        /// Where.
        at: String,
    },
    /// An identified struct whose laid-out form differs from it (identified
    /// structs are unique by name, so kiln cannot make a second one).
    #[error("identified struct '{name}' is not laid out for {rules} and cannot be re-decorated under the same name")]
    IdentifiedStruct {
        /// The identifier.
        name: String,
        /// The rules.
        rules: BlockRules,
    },
    /// A size beyond 64 bits.
    #[error("the size of {ty} overflows 64 bits")]
    Overflow {
        /// The type as printed.
        ty: String,
    },
}

/// Lays `ty` out under `rules`, ignoring any offsets and strides it
/// already carries (a member's `RowMajor` is honoured).
pub fn layout(
    types: &TypeStore,
    ty: Type,
    rules: BlockRules,
) -> Result<BlockTypeLayout, BlockLayoutError> {
    Walker {
        types,
        rules,
        explicit: false,
    }
    .walk(ty, &Path::root(), None, true)
}

/// The explicitly laid-out form of `ty` under `rules`: structs get member
/// offsets (and `ColMajor`/`RowMajor` + `MatrixStride` on matrix members,
/// other member decorations kept), arrays and runtime arrays get strides,
/// recursively; scalars, vectors and pointers are returned unchanged. Any
/// layout already present is replaced.
pub fn decorate(
    types: &mut TypeStore,
    ty: Type,
    rules: BlockRules,
) -> Result<Type, BlockLayoutError> {
    let l = layout(types, ty, rules)?;
    build(types, ty, &l, rules)
}

/// Checks the explicit layout of `ty` (normally a struct with offsets)
/// against `rules` and returns the layout its decorations describe.
pub fn check(
    types: &TypeStore,
    ty: Type,
    rules: BlockRules,
) -> Result<BlockTypeLayout, BlockLayoutError> {
    Walker {
        types,
        rules,
        explicit: true,
    }
    .walk(ty, &Path::root(), None, true)
}

/// A member path for messages.
#[derive(Clone, Debug, Default)]
struct Path(String);

impl Path {
    fn root() -> Self {
        Path(String::new())
    }
    fn member(&self, i: usize) -> Self {
        if self.0.is_empty() {
            Path(i.to_string())
        } else {
            Path(format!("{}.{i}", self.0))
        }
    }
    fn element(&self) -> Self {
        Path(format!("{}[]", self.0))
    }
    /// `member 2.1`, `element [].0` (inside a top-level array), `the type`.
    fn text(&self) -> String {
        if self.0.is_empty() {
            "the type".to_string()
        } else if self.0.starts_with('[') {
            format!("element {}", self.0)
        } else {
            format!("member {}", self.0)
        }
    }
}

/// Member decorations that carry layout (replaced by [`decorate`]).
fn is_layout_decoration(d: Decoration) -> bool {
    matches!(
        d,
        Decoration::Offset | Decoration::MatrixStride | Decoration::RowMajor | Decoration::ColMajor
    )
}

/// `(row_major, MatrixStride)` from a member's decorations.
fn matrix_decorations(m: &StructMember) -> (bool, Option<u32>) {
    let row_major = m
        .decorations
        .iter()
        .any(|d| d.decoration == Decoration::RowMajor);
    let stride = m
        .decorations
        .iter()
        .find(|d| d.decoration == Decoration::MatrixStride)
        .and_then(|d| d.value);
    (row_major, stride)
}

/// What the enclosing struct member says about a matrix inside it.
#[derive(Clone, Copy)]
struct MatrixDecor {
    row_major: bool,
    stride: Option<u32>,
}

struct Walker<'a> {
    types: &'a TypeStore,
    rules: BlockRules,
    /// Read offsets and strides from the type and check them (true), or
    /// compute them (false).
    explicit: bool,
}

impl Walker<'_> {
    fn print(&self, ty: Type) -> String {
        text::print_type(self.types, ty, Prefix::Spirv)
    }

    fn overflow(&self, ty: Type) -> BlockLayoutError {
        BlockLayoutError::Overflow { ty: self.print(ty) }
    }

    fn unsupported(&self, ty: Type, at: &Path, why: &'static str) -> BlockLayoutError {
        BlockLayoutError::Unsupported {
            ty: self.print(ty),
            at: at.text(),
            rules: self.rules,
            why,
        }
    }

    /// Size in bytes of a scalar usable in a block.
    fn scalar_size(&self, ty: Type, at: &Path) -> Result<u64, BlockLayoutError> {
        match self.types.kind(ty) {
            TypeKind::Int { width: 1, .. } => Err(self.unsupported(
                ty,
                at,
                "booleans have no physical size (use a 32-bit integer)",
            )),
            TypeKind::Int { width, .. } if matches!(width, 8 | 16 | 32 | 64) => {
                Ok(u64::from(*width) / 8)
            }
            TypeKind::Int { .. } => Err(self.unsupported(
                ty,
                at,
                "only 8-, 16-, 32- and 64-bit integers can be stored",
            )),
            TypeKind::Float(k) => Ok(u64::from(k.width()) / 8),
            _ => Err(self.unsupported(ty, at, "vector elements must be scalars")),
        }
    }

    /// Alignment of a vector of `n` components of `s` bytes.
    fn vector_align(&self, ty: Type, at: &Path, n: u32, s: u64) -> Result<u64, BlockLayoutError> {
        match (self.rules, n) {
            (BlockRules::Scalar, _) => Ok(s),
            (_, 2) => Ok(2 * s),
            (_, 3 | 4) => Ok(4 * s),
            _ => Err(self.unsupported(
                ty,
                at,
                "the block layout rules define vectors of 2, 3 and 4 components only",
            )),
        }
    }

    fn plain(size: u64, align: u64) -> BlockTypeLayout {
        BlockTypeLayout {
            size,
            align,
            detail: BlockDetail::Plain,
        }
    }

    fn walk(
        &self,
        ty: Type,
        at: &Path,
        matrix: Option<MatrixDecor>,
        top: bool,
    ) -> Result<BlockTypeLayout, BlockLayoutError> {
        match self.types.kind(ty) {
            TypeKind::Int { .. } | TypeKind::Float(_) => {
                let s = self.scalar_size(ty, at)?;
                Ok(Self::plain(s, s))
            }
            TypeKind::Vector { len, element } => {
                let s = self.scalar_size(*element, at)?;
                let align = self.vector_align(ty, at, *len, s)?;
                Ok(Self::plain(u64::from(*len) * s, align))
            }
            TypeKind::Pointer {
                storage_class: StorageClass::PhysicalStorageBuffer,
                ..
            } => Ok(Self::plain(8, 8)),
            TypeKind::Pointer { .. } => Err(self.unsupported(
                ty,
                at,
                "only PhysicalStorageBuffer pointers have a physical size",
            )),
            TypeKind::Array {
                len,
                element,
                stride,
            } => self.array(ty, at, Some(*len), *element, *stride, matrix),
            TypeKind::RuntimeArray { element, stride } => {
                self.array(ty, at, None, *element, *stride, matrix)
            }
            TypeKind::Matrix { columns, column } => self.matrix(ty, at, *columns, *column, matrix),
            TypeKind::Struct(s) => self.structure(ty, at, s, top),
            TypeKind::None
            | TypeKind::Index
            | TypeKind::Function { .. }
            | TypeKind::Image(_)
            | TypeKind::SampledImage(_)
            | TypeKind::Sampler
            | TypeKind::CoopMatrix(_) => Err(self.unsupported(
                ty,
                at,
                "only numbers, vectors, matrices, arrays, structs and physical pointers can be in a block",
            )),
        }
    }

    fn array(
        &self,
        ty: Type,
        at: &Path,
        len: Option<u32>,
        element: Type,
        explicit_stride: Option<u32>,
        matrix: Option<MatrixDecor>,
    ) -> Result<BlockTypeLayout, BlockLayoutError> {
        let e = self.walk(element, &at.element(), matrix, false)?;
        if e.is_runtime_array() {
            return Err(BlockLayoutError::RuntimeArrayNotLast {
                at: at.element().text(),
            });
        }
        let align = match self.rules {
            BlockRules::Std140 => e.align.max(16),
            _ => e.align,
        };
        let stride = if self.explicit {
            let stride = u64::from(
                explicit_stride
                    .ok_or_else(|| BlockLayoutError::MissingArrayStride { at: at.text() })?,
            );
            if stride == 0 || stride % align != 0 {
                return Err(BlockLayoutError::MisalignedArrayStride {
                    at: at.text(),
                    stride,
                    align,
                    rules: self.rules,
                });
            }
            if stride < e.extent() {
                return Err(BlockLayoutError::ArrayStrideTooSmall {
                    at: at.text(),
                    stride,
                    element: e.extent(),
                });
            }
            stride
        } else {
            align_to(e.size, align).ok_or_else(|| self.overflow(ty))?
        };
        let size = match (len, self.rules) {
            (None, _) | (Some(0), _) => Some(0),
            (Some(n), BlockRules::Scalar) => stride
                .checked_mul(u64::from(n) - 1)
                .and_then(|s| s.checked_add(e.size)),
            (Some(n), _) => stride.checked_mul(u64::from(n)),
        }
        .ok_or_else(|| self.overflow(ty))?;
        Ok(BlockTypeLayout {
            size,
            align,
            detail: BlockDetail::Array {
                len,
                stride,
                element: Box::new(e),
            },
        })
    }

    fn matrix(
        &self,
        ty: Type,
        at: &Path,
        columns: u32,
        column: Type,
        decor: Option<MatrixDecor>,
    ) -> Result<BlockTypeLayout, BlockLayoutError> {
        let TypeKind::Vector { len: rows, element } = self.types.kind(column) else {
            return Err(self.unsupported(ty, at, "matrix columns must be vectors"));
        };
        let s = self.scalar_size(*element, at)?;
        let row_major = decor.is_some_and(|d| d.row_major);
        // The stored vectors: columns, or rows when row-major.
        let (components, vectors) = if row_major {
            (columns, *rows)
        } else {
            (*rows, columns)
        };
        let mut align = self.vector_align(ty, at, components, s)?;
        if self.rules == BlockRules::Std140 {
            align = align.max(16);
        }
        let vector_size = u64::from(components) * s;
        let kind = if row_major { "row" } else { "column" };
        let stride = match decor.and_then(|d| d.stride).filter(|_| self.explicit) {
            Some(stride) => {
                let stride = u64::from(stride);
                if stride == 0 || stride % align != 0 {
                    return Err(BlockLayoutError::MisalignedMatrixStride {
                        at: at.text(),
                        stride,
                        align,
                        rules: self.rules,
                    });
                }
                if stride < vector_size {
                    return Err(BlockLayoutError::MatrixStrideTooSmall {
                        at: at.text(),
                        stride,
                        kind,
                        vector: vector_size,
                    });
                }
                stride
            }
            // A matrix inside a struct member must say its stride.
            None if self.explicit && decor.is_some() => {
                return Err(BlockLayoutError::MissingMatrixStride { at: at.text() })
            }
            None => align_to(vector_size, align).ok_or_else(|| self.overflow(ty))?,
        };
        let size = stride
            .checked_mul(u64::from(vectors))
            .ok_or_else(|| self.overflow(ty))?;
        Ok(BlockTypeLayout {
            size,
            align,
            detail: BlockDetail::Matrix {
                stride,
                row_major,
                vectors,
                vector_size,
            },
        })
    }

    fn structure(
        &self,
        ty: Type,
        at: &Path,
        s: &StructType,
        top: bool,
    ) -> Result<BlockTypeLayout, BlockLayoutError> {
        let last = s.members.len().checked_sub(1);
        let mut members = Vec::with_capacity(s.members.len());
        let mut align = match self.rules {
            BlockRules::Std140 => 16,
            _ => 1,
        };
        let mut cursor = 0u64;
        let mut runtime_tail = None;
        for (i, m) in s.members.iter().enumerate() {
            let path = at.member(i);
            let (row_major, stride) = matrix_decorations(m);
            let decor = MatrixDecor { row_major, stride };
            let l = self.walk(m.ty, &path, Some(decor), false)?;
            if l.is_runtime_array() && (!top || Some(i) != last) {
                return Err(BlockLayoutError::RuntimeArrayNotLast { at: path.text() });
            }
            align = align.max(l.align);
            let offset = if self.explicit {
                let offset =
                    u64::from(m.offset.ok_or_else(|| BlockLayoutError::MissingOffset {
                        member: path.text(),
                    })?);
                if offset % l.align != 0 {
                    return Err(BlockLayoutError::MisalignedMember {
                        member: path.text(),
                        offset,
                        align: l.align,
                        rules: self.rules,
                        ty: self.print(m.ty),
                    });
                }
                offset
            } else {
                align_to(cursor, l.align).ok_or_else(|| self.overflow(ty))?
            };
            cursor = offset
                .checked_add(l.size)
                .ok_or_else(|| self.overflow(ty))?;
            if l.is_runtime_array() {
                runtime_tail = Some(offset);
            }
            members.push(MemberLayout { offset, layout: l });
        }
        if self.explicit {
            self.check_overlaps(&members, at)?;
        }
        let end = members
            .iter()
            .map(|m| m.offset + m.layout.size)
            .max()
            .unwrap_or(0);
        let size = match (runtime_tail, self.rules) {
            (Some(offset), _) => offset,
            (None, BlockRules::Scalar) => end,
            (None, _) => align_to(end, align).ok_or_else(|| self.overflow(ty))?,
        };
        Ok(BlockTypeLayout {
            size,
            align,
            detail: BlockDetail::Struct { members },
        })
    }

    /// Members in offset order must not overlap, nor (outside scalar
    /// layout) sit in the padding after an array or struct; a runtime array
    /// must come last in memory too.
    fn check_overlaps(&self, members: &[MemberLayout], at: &Path) -> Result<(), BlockLayoutError> {
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| (members[i].offset, i));
        let mut next = 0u64;
        let mut runtime: Option<usize> = None;
        for &i in &order {
            let m = &members[i];
            if let Some(r) = runtime {
                return Err(BlockLayoutError::RuntimeArrayNotLast {
                    at: at.member(r).text(),
                });
            }
            if m.offset < next {
                return Err(BlockLayoutError::Overlap {
                    member: at.member(i).text(),
                    offset: m.offset,
                    end: next,
                });
            }
            next = m.offset + m.layout.extent();
            let padded = matches!(
                m.layout.detail,
                BlockDetail::Array { .. } | BlockDetail::Struct { .. }
            );
            if self.rules != BlockRules::Scalar && padded {
                next = align_to(next, m.layout.align).unwrap_or(u64::MAX);
            }
            if m.layout.is_runtime_array() {
                runtime = Some(i);
            }
        }
        Ok(())
    }
}

/// Builds the decorated form of `ty` from its computed layout.
fn build(
    types: &mut TypeStore,
    ty: Type,
    l: &BlockTypeLayout,
    rules: BlockRules,
) -> Result<Type, BlockLayoutError> {
    let kind = types.kind(ty).clone();
    match (&kind, &l.detail) {
        (
            TypeKind::Array { len, element, .. },
            BlockDetail::Array {
                stride,
                element: el,
                ..
            },
        ) => {
            let e = build(types, *element, el, rules)?;
            let stride = u32::try_from(*stride).map_err(|_| overflow(types, ty))?;
            Ok(types.array(*len, e, Some(stride)))
        }
        (
            TypeKind::RuntimeArray { element, .. },
            BlockDetail::Array {
                stride,
                element: el,
                ..
            },
        ) => {
            let e = build(types, *element, el, rules)?;
            let stride = u32::try_from(*stride).map_err(|_| overflow(types, ty))?;
            Ok(types.runtime_array(e, Some(stride)))
        }
        (TypeKind::Struct(s), BlockDetail::Struct { members }) => {
            let mut out = Vec::with_capacity(s.members.len());
            for (m, ml) in s.members.iter().zip(members) {
                let mty = build(types, m.ty, &ml.layout, rules)?;
                let offset = u32::try_from(ml.offset).map_err(|_| overflow(types, ty))?;
                let mut decorations: Vec<MemberDecoration> = m
                    .decorations
                    .iter()
                    .filter(|d| !is_layout_decoration(d.decoration))
                    .copied()
                    .collect();
                if let Some((stride, row_major)) = ml.layout.matrix() {
                    let stride = u32::try_from(stride).map_err(|_| overflow(types, ty))?;
                    decorations.push(MemberDecoration {
                        decoration: if row_major {
                            Decoration::RowMajor
                        } else {
                            Decoration::ColMajor
                        },
                        value: None,
                    });
                    decorations.push(MemberDecoration {
                        decoration: Decoration::MatrixStride,
                        value: Some(stride),
                    });
                }
                // MLIR keeps member decorations sorted by decoration value.
                decorations.sort_by_key(|d| d.decoration as u32);
                out.push(StructMember {
                    ty: mty,
                    offset: Some(offset),
                    decorations,
                });
            }
            let new = TypeKind::Struct(StructType {
                identifier: s.identifier.clone(),
                members: out,
            });
            if let Some(name) = &s.identifier {
                if new != kind {
                    return Err(BlockLayoutError::IdentifiedStruct {
                        name: name.clone(),
                        rules,
                    });
                }
                return Ok(ty);
            }
            Ok(types.intern(new))
        }
        _ => Ok(ty),
    }
}

fn overflow(types: &TypeStore, ty: Type) -> BlockLayoutError {
    BlockLayoutError::Overflow {
        ty: text::print_type(types, ty, Prefix::Spirv),
    }
}
