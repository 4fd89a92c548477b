//! A tensor's memory: one pooled slice, or several for a tensor larger
//! than one allocation may be (`maxMemoryAllocationSize`, see
//! [`Context::max_allocation_size`](kiln_vulkan::Context::max_allocation_size)).
//!
//! Byte `i` of a tensor's memory in pieces is byte `i % piece` of slice
//! `i / piece`, where `piece` is a whole number of storage chunks
//! (`ResourceLimits::storage_chunk_bytes`) wherever one allocation holds a
//! chunk: a kernel that binds the tensor in chunks (chunk `k` at byte
//! `k * chunk`) finds each chunk inside one slice, so the chunked binding
//! works unchanged. Copies, fills, uploads and read-backs are split at
//! the pieces' edges ([`Pieces::spans`], [`Pieces::pairs`]); a binding
//! whose range crosses an edge is refused (`stream::dispatch_parts`).
//! Hazards are tracked in the tensor's own byte offsets, which do not
//! depend on the pieces.

use kiln_vulkan::{CommandBatch, CopyRegion, MemoryKind, Slice};

use crate::error::Result;

/// A tensor's memory: `slices[k]` holds bytes `k * piece ..` (see the
/// module docs).
pub(crate) struct Pieces {
    slices: Vec<Slice>,
    /// Bytes per slice (all but the last hold exactly this many).
    piece: u64,
    /// Bytes in all.
    size: u64,
}

/// A part of a byte range that lies in one slice.
pub(crate) struct Span<'a> {
    /// The slice.
    pub(crate) slice: &'a Slice,
    /// The part's offset in the slice.
    pub(crate) at: u64,
    /// The part's offset from the range's start.
    pub(crate) from: u64,
    /// Its length.
    pub(crate) len: u64,
}

/// A part of a copy that lies in one slice of each side: `len` bytes from
/// `src` at `src_at` to `dst` at `dst_at`.
pub(crate) struct Pair<'a> {
    pub(crate) src: &'a Slice,
    pub(crate) src_at: u64,
    pub(crate) dst: &'a Slice,
    pub(crate) dst_at: u64,
    pub(crate) len: u64,
}

/// The bytes per piece of a tensor on a device whose allocations hold at
/// most `limit` bytes, whose storage chunks are `chunk` bytes and whose
/// slices are aligned to `align`: the most whole chunks one allocation
/// holds, else (a chunk larger than an allocation) the most whole
/// alignment units.
pub(crate) fn piece_bytes(limit: u64, chunk: u64, align: u64) -> u64 {
    if limit >= chunk {
        limit / chunk * chunk
    } else {
        (limit / align * align).max(align)
    }
}

/// Bytes `offset .. offset + len` (nothing past `size`) of memory in
/// pieces of `piece` bytes, as `(piece, offset in it, offset from the
/// range's start, length)`, one per piece they touch, in order.
fn split(piece: u64, size: u64, offset: u64, len: u64) -> Vec<(usize, u64, u64, u64)> {
    let end = offset.saturating_add(len).min(size);
    let mut out = Vec::new();
    let mut pos = offset;
    while pos < end {
        let (k, at) = (pos / piece, pos % piece);
        let n = (piece - at).min(end - pos);
        out.push((k as usize, at, pos - offset, n));
        pos += n;
    }
    out
}

impl Pieces {
    /// One slice.
    pub(crate) fn one(slice: Slice) -> Self {
        let size = slice.size();
        Self {
            slices: vec![slice],
            piece: size.max(1),
            size,
        }
    }

    /// `bytes` of memory from `allocate` (a slice of the bytes asked):
    /// one slice if one allocation (at most `limit` bytes) holds them,
    /// else slices of [`piece_bytes`] each (for storage chunks of `chunk`
    /// bytes and slices aligned to `align`).
    pub(crate) fn allocate(
        bytes: u64,
        limit: u64,
        chunk: u64,
        align: u64,
        mut allocate: impl FnMut(u64) -> Result<Slice>,
    ) -> Result<Self> {
        if bytes <= limit {
            return Ok(Self::one(allocate(bytes)?));
        }
        let piece = piece_bytes(limit, chunk, align);
        let mut slices = Vec::with_capacity(bytes.div_ceil(piece) as usize);
        let mut start = 0;
        while start < bytes {
            slices.push(allocate(piece.min(bytes - start))?);
            start += piece;
        }
        Ok(Self {
            slices,
            piece,
            size: bytes,
        })
    }

    /// The memory kind (every slice's).
    pub(crate) fn kind(&self) -> MemoryKind {
        self.slices[0].kind()
    }

    /// Bytes in all.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// The first slice (the only one unless the tensor is in pieces).
    pub(crate) fn first(&self) -> &Slice {
        &self.slices[0]
    }

    /// The slice if there is only one.
    pub(crate) fn single(&self) -> Option<&Slice> {
        match self.slices.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// How many slices.
    pub(crate) fn count(&self) -> usize {
        self.slices.len()
    }

    /// Bytes per piece.
    pub(crate) fn piece(&self) -> u64 {
        self.piece
    }

    /// The slice holding bytes `offset .. offset + len` whole and the
    /// range's offset in it; `None` where the range crosses a piece's end.
    pub(crate) fn within(&self, offset: u64, len: u64) -> Option<(&Slice, u64)> {
        if len == 0 && offset == self.size {
            let last = self.slices.last()?;
            return Some((last, last.size()));
        }
        let k = (offset / self.piece) as usize;
        let at = offset % self.piece;
        let slice = self.slices.get(k)?;
        (at + len <= slice.size()).then_some((slice, at))
    }

    /// The parts of bytes `offset .. offset + len`, one per slice they
    /// touch, in order (nothing past the end).
    pub(crate) fn spans(&self, offset: u64, len: u64) -> Vec<Span<'_>> {
        split(self.piece, self.size, offset, len)
            .into_iter()
            .map(|(k, at, from, len)| Span {
                slice: &self.slices[k],
                at,
                from,
                len,
            })
            .collect()
    }

    /// The parts of a copy of `len` bytes from `src` at `src_offset` to
    /// `dst` at `dst_offset`, each inside one slice of either side.
    pub(crate) fn pairs<'a>(
        src: &'a Pieces,
        src_offset: u64,
        dst: &'a Pieces,
        dst_offset: u64,
        len: u64,
    ) -> Vec<Pair<'a>> {
        let mut out = Vec::new();
        for s in src.spans(src_offset, len) {
            for d in dst.spans(dst_offset + s.from, s.len) {
                out.push(Pair {
                    src: s.slice,
                    src_at: s.at + d.from,
                    dst: d.slice,
                    dst_at: d.at,
                    len: d.len,
                });
            }
        }
        out
    }

    /// Records copies of `regions` (byte offsets in `src` and `dst`) into
    /// `batch`: one command where both sides are one slice, else one per
    /// part of a region inside one slice of either side.
    pub(crate) fn copy_regions(
        batch: &mut CommandBatch,
        src: &Pieces,
        dst: &Pieces,
        regions: &[CopyRegion],
    ) -> kiln_vulkan::Result<()> {
        if let (Some(s), Some(d)) = (src.single(), dst.single()) {
            return batch.copy_regions(s, d, regions);
        }
        for r in regions {
            src.check(r.src_offset, r.size)?;
            dst.check(r.dst_offset, r.size)?;
            for p in Pieces::pairs(src, r.src_offset, dst, r.dst_offset, r.size) {
                batch.copy(p.src, p.src_at, p.dst, p.dst_at, p.len)?;
            }
        }
        Ok(())
    }

    /// Records a copy of `len` bytes from `src` at `src_offset` to `dst`
    /// at `dst_offset` into `batch` (see [`copy_regions`](Self::copy_regions)).
    pub(crate) fn copy(
        batch: &mut CommandBatch,
        src: &Pieces,
        src_offset: u64,
        dst: &Pieces,
        dst_offset: u64,
        len: u64,
    ) -> kiln_vulkan::Result<()> {
        let region = CopyRegion {
            src_offset,
            dst_offset,
            size: len,
        };
        Self::copy_regions(batch, src, dst, &[region])
    }

    /// Records a copy of `len` bytes from the staging slice `src` at
    /// `src_offset` into these pieces at `offset`.
    pub(crate) fn copy_in(
        &self,
        batch: &mut CommandBatch,
        src: &Slice,
        src_offset: u64,
        offset: u64,
        len: u64,
    ) -> kiln_vulkan::Result<()> {
        if let Some(one) = self.single() {
            return batch.copy(src, src_offset, one, offset, len);
        }
        self.check(offset, len)?;
        for s in self.spans(offset, len) {
            batch.copy(src, src_offset + s.from, s.slice, s.at, s.len)?;
        }
        Ok(())
    }

    /// Records a copy of `len` bytes of these pieces at `offset` into the
    /// staging slice `dst` at `dst_offset`.
    pub(crate) fn copy_out(
        &self,
        batch: &mut CommandBatch,
        offset: u64,
        dst: &Slice,
        dst_offset: u64,
        len: u64,
    ) -> kiln_vulkan::Result<()> {
        if let Some(one) = self.single() {
            return batch.copy(one, offset, dst, dst_offset, len);
        }
        self.check(offset, len)?;
        for s in self.spans(offset, len) {
            batch.copy(s.slice, s.at, dst, dst_offset + s.from, s.len)?;
        }
        Ok(())
    }

    /// Records filling `len` bytes at `offset` (a multiple of 4) with
    /// `word`.
    pub(crate) fn fill(
        &self,
        batch: &mut CommandBatch,
        offset: u64,
        len: u64,
        word: u32,
    ) -> kiln_vulkan::Result<()> {
        if let Some(one) = self.single() {
            return batch.fill(one, offset, len, word);
        }
        self.check(offset, len)?;
        for s in self.spans(offset, len) {
            batch.fill(s.slice, s.at, s.len, word)?;
        }
        Ok(())
    }

    fn check(&self, offset: u64, len: u64) -> kiln_vulkan::Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.size => Ok(()),
            _ => Err(kiln_vulkan::Error::OutOfRange {
                offset,
                len,
                size: self.size,
            }),
        }
    }

    /// Copies `out.len()` bytes at `offset` out through the mappings
    /// (host-visible kinds only).
    pub(crate) fn read(&self, offset: u64, out: &mut [u8]) -> kiln_vulkan::Result<()> {
        if let Some(one) = self.single() {
            return one.read(offset, out);
        }
        self.check(offset, out.len() as u64)?;
        for s in self.spans(offset, out.len() as u64) {
            let from = s.from as usize;
            s.slice.read(s.at, &mut out[from..from + s.len as usize])?;
        }
        Ok(())
    }

    /// Calls `f` on the `len` bytes at `offset`: in place for one slice,
    /// else on a host copy of them.
    pub(crate) fn read_with<R>(
        &self,
        offset: u64,
        len: usize,
        f: impl FnOnce(&[u8]) -> R,
    ) -> kiln_vulkan::Result<R> {
        if let Some(one) = self.single() {
            return one.read_with(offset, len, f);
        }
        let mut bytes = vec![0u8; len];
        self.read(offset, &mut bytes)?;
        Ok(f(&bytes))
    }

    /// Copies `data` in at `offset` through the mappings (host-visible
    /// kinds only).
    pub(crate) fn write(&mut self, offset: u64, data: &[u8]) -> kiln_vulkan::Result<()> {
        if self.slices.len() == 1 {
            return self.slices[0].write(offset, data);
        }
        self.check(offset, data.len() as u64)?;
        let piece = self.piece;
        let mut pos = 0usize;
        while pos < data.len() {
            let at = offset + pos as u64;
            let k = (at / piece) as usize;
            let slice = &mut self.slices[k];
            let local = at % piece;
            let n = ((slice.size() - local) as usize).min(data.len() - pos);
            slice.write(local, &data[pos..pos + n])?;
            pos += n;
        }
        Ok(())
    }

    /// Calls `fill` on the `len` bytes at `offset`: in place for one slice,
    /// else on a host buffer then copied in.
    pub(crate) fn write_with<R>(
        &mut self,
        offset: u64,
        len: usize,
        fill: impl FnOnce(&mut [u8]) -> R,
    ) -> kiln_vulkan::Result<R> {
        if self.slices.len() == 1 {
            return self.slices[0].write_with(offset, len, fill);
        }
        self.check(offset, len as u64)?;
        let mut bytes = vec![0u8; len];
        let r = fill(&mut bytes);
        self.write(offset, &bytes)?;
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::{piece_bytes, split};

    #[test]
    fn ranges_split_at_the_pieces_edges() {
        // Pieces of 8 KiB, 40,000 bytes in all (the last piece 7,232).
        assert_eq!(split(8192, 40_000, 0, 100), vec![(0, 0, 0, 100)]);
        assert_eq!(
            split(8192, 40_000, 6000, 12_000),
            vec![(0, 6000, 0, 2192), (1, 0, 2192, 8192), (2, 0, 10_384, 1616)]
        );
        assert_eq!(split(8192, 40_000, 8192, 8192), vec![(1, 0, 0, 8192)]);
        assert_eq!(
            split(8192, 40_000, 32_000, 9000),
            vec![(3, 7424, 0, 768), (4, 0, 768, 7232)]
        );
        assert!(split(8192, 40_000, 40_000, 0).is_empty());
    }

    #[test]
    fn pieces_are_whole_chunks_where_an_allocation_holds_one() {
        assert_eq!(piece_bytes(65536, 4096, 64), 65536);
        assert_eq!(piece_bytes(100_000, 4096, 64), 24 * 4096);
        assert_eq!(piece_bytes(2 << 30, 1 << 27, 64), 2 << 30);
        // A chunk larger than an allocation: whole alignment units.
        assert_eq!(piece_bytes(100_000, 1 << 17, 64), 99_968);
    }
}
