//! The serializer's side tables: ids keyed by IR handles, kept apart from
//! the IR (cranelift's `SecondaryMap` idea), and a fast hasher for the
//! tables keyed by encodings.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::marker::PhantomData;

use crate::ir::entity::EntityRef;

/// Ids of IR entities (values, blocks, types), indexed by handle. SPIR-V
/// ids are never 0, so 0 marks "no id yet" inside the table; the API only
/// deals in `Option<u32>`.
pub(super) struct IdMap<K> {
    ids: Vec<u32>,
    _key: PhantomData<K>,
}

impl<K: EntityRef> IdMap<K> {
    /// A table sized for `len` entities (it grows on demand).
    pub(super) fn with_capacity(len: usize) -> Self {
        IdMap {
            ids: vec![0; len],
            _key: PhantomData,
        }
    }

    /// The id of `key`, if it has one.
    #[inline]
    pub(super) fn get(&self, key: K) -> Option<u32> {
        self.ids.get(key.idx()).copied().filter(|&id| id != 0)
    }

    /// Gives `key` the id `id` (non-zero).
    #[inline]
    pub(super) fn insert(&mut self, key: K, id: u32) {
        debug_assert_ne!(id, 0, "SPIR-V ids are never 0");
        let i = key.idx();
        if i >= self.ids.len() {
            self.ids.resize(i + 1, 0);
        }
        self.ids[i] = id;
    }

    /// Forgets the id of `key`.
    #[inline]
    pub(super) fn remove(&mut self, key: K) {
        if let Some(slot) = self.ids.get_mut(key.idx()) {
            *slot = 0;
        }
    }
}

/// A multiplicative hasher (the one rustc uses, "FxHash"): fast on the
/// small integer keys of the serializer's tables. Not DoS-resistant, which
/// does not matter for keys derived from the IR being serialized.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
