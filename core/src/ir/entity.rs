//! Typed handles into the IR's arenas.
//!
//! Every IR entity (op, value, block, region, type, attribute) lives in an
//! arena owned by a [`Module`](super::Module) (types and attributes in its
//! interning [`TypeStore`](super::TypeStore) and
//! [`AttrStore`](super::AttrStore)) and is referred to by a 32-bit handle. A handle is a non-zero index, so
//! `Option<Handle>` is as small as the handle itself, and equality of two
//! handles is equality of the entities they name (types and attributes are
//! interned).

/// Declares a copyable, hashable handle type for one arena (the spv IR's
/// handles below; the kernel IR declares its own in
/// [`crate::kernel::entity`], so the two never mix).
macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct $name(::std::num::NonZeroU32);

        impl $name {
            /// The handle of the `index`-th entity of its arena.
            #[inline]
            pub fn from_index(index: usize) -> Self {
                let raw = u32::try_from(index + 1).expect("arena larger than u32::MAX entries");
                Self(::std::num::NonZeroU32::new(raw).expect("index + 1 is never zero"))
            }

            /// The position of the entity in its arena.
            #[inline]
            pub fn index(self) -> usize {
                (self.0.get() - 1) as usize
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.index())
            }
        }

        impl $crate::ir::entity::EntityRef for $name {
            #[inline]
            fn new(index: usize) -> Self {
                Self::from_index(index)
            }
            #[inline]
            fn idx(self) -> usize {
                self.index()
            }
        }
    };
}
/// Other IRs of the crate (the tensor IR) declare their handles with it.
pub(crate) use entity;

entity!(
    /// An operation.
    Op, "op"
);
entity!(
    /// An SSA value: an op result or a block argument.
    Value, "v"
);
entity!(
    /// A basic block: arguments and a list of ops ending in a terminator.
    Block, "bb"
);
entity!(
    /// A region: an ordered list of blocks owned by an op.
    Region, "region"
);
entity!(
    /// An interned type.
    Type, "ty"
);
entity!(
    /// An interned attribute.
    Attr, "attr"
);

/// A growable arena addressed by a typed handle.
#[derive(Clone, Debug)]
pub struct Arena<H, T> {
    items: Vec<T>,
    _handle: std::marker::PhantomData<H>,
}

impl<H, T> Default for Arena<H, T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            _handle: std::marker::PhantomData,
        }
    }
}

/// Conversion between a handle and an arena index.
pub trait EntityRef: Copy {
    /// The handle of the `index`-th entry.
    fn new(index: usize) -> Self;
    /// The entry's index.
    fn idx(self) -> usize;
}

impl<H: EntityRef, T> Arena<H, T> {
    /// Adds an entry and returns its handle.
    pub fn push(&mut self, item: T) -> H {
        let h = H::new(self.items.len());
        self.items.push(item);
        h
    }

    /// The number of entries ever added.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Iterates over all handles and entries.
    pub fn iter(&self) -> impl Iterator<Item = (H, &T)> {
        self.items.iter().enumerate().map(|(i, t)| (H::new(i), t))
    }
}

impl<H: EntityRef, T> std::ops::Index<H> for Arena<H, T> {
    type Output = T;
    #[inline]
    fn index(&self, h: H) -> &T {
        &self.items[h.idx()]
    }
}

impl<H: EntityRef, T> std::ops::IndexMut<H> for Arena<H, T> {
    #[inline]
    fn index_mut(&mut self, h: H) -> &mut T {
        &mut self.items[h.idx()]
    }
}
