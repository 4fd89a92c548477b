//! Attributes: compile-time constant data attached to ops.
//!
//! Attributes carry everything about an op that is not an SSA operand: enum
//! operands (`#spv.storage_class<StorageBuffer>`), literals, symbol
//! references, constant values, and decorations (`{NoSignedWrap}`,
//! `RelaxedPrecision`), as the dialect folds `OpDecorate` into the decorated
//! op. Attributes are interned in an [`AttrStore`]: equal attributes have
//! equal [`Attr`] handles.

use std::collections::HashMap;

use super::entity::{Attr, Type};
use crate::grammar::{Capability, Extension, OperandKind, Version};

/// The version / capabilities / extensions triple of `#spv.vce<...>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Vce {
    /// SPIR-V version.
    pub version: Version,
    /// Capabilities, in order.
    pub capabilities: Vec<Capability>,
    /// Extensions, in order.
    pub extensions: Vec<Extension>,
}

/// Element values of a `dense<...>` attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DenseValues {
    /// Integer elements (also used for `i1` as 0/1).
    Ints(Vec<i128>),
    /// Float elements, stored as the bits of an `f64`.
    Floats(Vec<u64>),
}

impl DenseValues {
    /// Number of stored elements (1 for a splat).
    pub fn len(&self) -> usize {
        match self {
            DenseValues::Ints(v) => v.len(),
            DenseValues::Floats(v) => v.len(),
        }
    }

    /// Whether no element is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The structure of an attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind {
    /// `unit`: presence is the information (e.g. `{NoSignedWrap}`).
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// `42 : i32`. The value is kept sign-extended.
    Int {
        /// The value.
        value: i128,
        /// The integer (or `index`) type.
        ty: Type,
    },
    /// `1.5 : f32`, value stored as `f64` bits.
    Float {
        /// Bits of the value as an `f64`.
        bits: u64,
        /// The float type.
        ty: Type,
    },
    /// `"text"`.
    String(String),
    /// A type used as an attribute (`function_type = (i32) -> i32`).
    Type(Type),
    /// `[a, b, c]`.
    Array(Vec<Attr>),
    /// `{name = value, ...}`, sorted by name.
    Dict(Vec<(String, Attr)>),
    /// `@sym` or `@outer::@inner`.
    SymbolRef(Vec<String>),
    /// `dense<...> : vector<...>` (or a splat `dense<1.0>`).
    Dense {
        /// The shaped type of the whole constant.
        ty: Type,
        /// Element values in row-major order; one element for a splat.
        values: DenseValues,
        /// Whether a single stored value stands for every element.
        splat: bool,
    },
    /// `array<i32: 1, 2, 3>`.
    DenseArray {
        /// Element type.
        element: Type,
        /// Values.
        values: Vec<i128>,
    },
    /// A SPIR-V enum operand: `#spv.storage_class<StorageBuffer>`,
    /// `#spv.memory_access<Volatile|Aligned>`.
    Enum {
        /// Which operand kind of the grammar.
        kind: OperandKind,
        /// The enumerant value, or the OR of bits for bit enums.
        value: u32,
    },
    /// `#spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>`.
    Vce(Vce),
    /// Another SPIR-V dialect attribute kept as written:
    /// `#spv.target_env<...>`, `#spv.interface_var_abi<...>`, ...
    /// `name` is the mnemonic (`target_env`); `body` is the text between the
    /// angle brackets, with nested dialect prefixes normalized to `spirv.`.
    Dialect {
        /// Mnemonic without the dialect prefix.
        name: String,
        /// Text between the outer angle brackets.
        body: String,
    },
    /// An attribute of another dialect kept verbatim (`#gpu.address_space<workgroup>`).
    Opaque(String),
}

/// Interns attributes.
#[derive(Clone, Debug, Default)]
pub struct AttrStore {
    kinds: Vec<AttrKind>,
    map: HashMap<AttrKind, Attr>,
}

impl AttrStore {
    /// Returns the handle of `kind`, adding it if it is new.
    pub fn intern(&mut self, kind: AttrKind) -> Attr {
        if let Some(&a) = self.map.get(&kind) {
            return a;
        }
        let a = Attr::from_index(self.kinds.len());
        self.kinds.push(kind.clone());
        self.map.insert(kind, a);
        a
    }

    /// The structure of `attr`.
    #[inline]
    pub fn kind(&self, attr: Attr) -> &AttrKind {
        &self.kinds[attr.index()]
    }

    /// `unit`.
    pub fn unit(&mut self) -> Attr {
        self.intern(AttrKind::Unit)
    }
    /// An integer attribute of type `ty`.
    pub fn int(&mut self, value: i128, ty: Type) -> Attr {
        self.intern(AttrKind::Int { value, ty })
    }
    /// A float attribute of type `ty`.
    pub fn float(&mut self, value: f64, ty: Type) -> Attr {
        self.intern(AttrKind::Float {
            bits: value.to_bits(),
            ty,
        })
    }
    /// A string attribute.
    pub fn string(&mut self, s: impl Into<String>) -> Attr {
        self.intern(AttrKind::String(s.into()))
    }
    /// A flat symbol reference `@name`.
    pub fn symbol(&mut self, name: impl Into<String>) -> Attr {
        self.intern(AttrKind::SymbolRef(vec![name.into()]))
    }
    /// A type attribute.
    pub fn ty(&mut self, ty: Type) -> Attr {
        self.intern(AttrKind::Type(ty))
    }
    /// An array attribute.
    pub fn array(&mut self, items: Vec<Attr>) -> Attr {
        self.intern(AttrKind::Array(items))
    }
    /// An enum attribute.
    pub fn enumerant(&mut self, kind: OperandKind, value: u32) -> Attr {
        self.intern(AttrKind::Enum { kind, value })
    }

    /// The integer value of an `Int` (or `Bool`) attribute.
    pub fn as_int(&self, attr: Attr) -> Option<i128> {
        match self.kind(attr) {
            AttrKind::Int { value, .. } => Some(*value),
            AttrKind::Bool(b) => Some(*b as i128),
            _ => None,
        }
    }
    /// The string of a `String` attribute.
    pub fn as_str(&self, attr: Attr) -> Option<&str> {
        match self.kind(attr) {
            AttrKind::String(s) => Some(s),
            _ => None,
        }
    }
    /// The leaf name of a symbol reference.
    pub fn as_symbol(&self, attr: Attr) -> Option<&str> {
        match self.kind(attr) {
            AttrKind::SymbolRef(path) => path.last().map(String::as_str),
            _ => None,
        }
    }
    /// The type of a `Type` attribute.
    pub fn as_type(&self, attr: Attr) -> Option<Type> {
        match self.kind(attr) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        }
    }
    /// The elements of an `Array` attribute.
    pub fn as_array(&self, attr: Attr) -> Option<&[Attr]> {
        match self.kind(attr) {
            AttrKind::Array(items) => Some(items),
            _ => None,
        }
    }
    /// The value of an `Enum` attribute of the given kind.
    pub fn as_enum(&self, attr: Attr, kind: OperandKind) -> Option<u32> {
        match self.kind(attr) {
            AttrKind::Enum { kind: k, value } if *k == kind => Some(*value),
            _ => None,
        }
    }
}
