//! The spv IR: a Rust rendering of MLIR's SPIR-V dialect.
//!
//! * [`entity`]: typed handles and arenas.
//! * [`types`]: interned types (builtin scalars/vectors and `!spv.*`).
//! * [`attr`]: interned attributes (enum operands, literals, decorations).
//! * [`op`]: ops, values, blocks, regions, locations.
//! * [`module`]: the [`Module`] container and its builder API.
//! * [`schema`]: how grammar operands map onto SSA operands, attributes and successors.
//! * [`uses`]: use lists kept current through rewrites.

pub mod attr;
pub mod entity;
pub mod module;
pub mod op;
pub mod schema;
pub mod types;
pub mod uses;
pub mod verify;

pub use attr::{AttrKind, AttrStore, DenseValues, Vce};
pub use entity::{Attr, Block, Op, Region, Type, Value};
pub use module::{Module, OpSpec};
pub use op::{BlockData, Location, OpData, OpKind, RegionData, Successor, ValueData, ValueDef};
pub use types::{
    CoopMatrixType, CoopMatrixUse, FloatKind, ImageArrayed, ImageDepth, ImageSamplerUse,
    ImageSampling, ImageType, MemberDecoration, Signedness, StructMember, StructType, TypeKind,
    TypeStore,
};
pub use uses::UseMap;
