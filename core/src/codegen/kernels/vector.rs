//! Groups of 4 points ([`Distribution::Vector4`](super::super::strategy::Distribution::Vector4)):
//! an invocation emits 4 consecutive points of the last dimension at a
//! time, and every 32-bit tensor (or f16 tensor stored natively: 64-bit
//! vectors) that spans the whole iteration space and
//! is read or written at exactly those 4 points moves as one
//! `vector<4xT>` through a second binding of its buffer typed
//! `memref<?xvector<4xT>>` — the 128-bit loads and stores that make a
//! hand-written shader fast on lavapipe, where each element access costs
//! a per-lane address computation and bounds check.
//!
//! The points themselves are emitted one by one as in any other plan: a
//! load of such a tensor at a lane's coordinates becomes a lane of the
//! group's vector (loaded once), and a store is held until the group's
//! 4 lanes are known, then written as one vector. Any other access (a
//! broadcast operand, a transposed read) stays an element access.

use crate::kernel::{KOpKind, KType, KValue};
use crate::tensor::types::ElemType;
use crate::tensor::TValue;

use super::super::bufferize::BufferId;
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::regions::DispatchRegion;
use super::super::strategy::DispatchShape;
use super::emitter::{Emitter, Key};
use super::point::stores;

/// The group of 4 points being emitted: points whose coordinates differ
/// only in the last, which is `base + j` for lane `j` (`base` a multiple
/// of 4).
pub(crate) struct VectorGroup {
    /// The last coordinate of lane 0 (a multiple of 4).
    base: KValue,
    /// Each lane's last coordinate.
    lanes: [KValue; 4],
    /// Stores held until [`Emitter::flush_vector_stores`]: value, buffer,
    /// the other coordinates, each lane's memory-typed value.
    pending: Vec<PendingStore>,
}

struct PendingStore {
    v: TValue,
    buf: BufferId,
    prefix: Vec<KValue>,
    lanes: [Option<KValue>; 4],
}

impl VectorGroup {
    /// A group whose lane `j` has last coordinate `base + j`.
    pub(crate) fn new(e: &mut Emitter<'_, '_, '_>, base: KValue) -> VectorGroup {
        let lanes = [0, 1, 2, 3].map(|j| {
            let dj = e.index(j);
            e.add(base, dj)
        });
        VectorGroup {
            base,
            lanes,
            pending: Vec::new(),
        }
    }

    /// Lane `j`'s last coordinate.
    pub(crate) fn lane(&self, j: usize) -> KValue {
        self.lanes[j]
    }
}

impl Emitter<'_, '_, '_> {
    /// The group and lane that element `coords` of `v` is, where `v`
    /// moves as vectors: 32-bit elements (or f16 stored natively), a
    /// static last dimension that is a multiple of 4 (or, under
    /// [`runtime_fours`](Emitter::runtime_fours), the space's last
    /// dimension), read at a lane's last coordinate.
    fn vector_lane(&self, v: TValue, coords: &[KValue]) -> Option<(usize, usize)> {
        let elem = self.c.info.m.value_kind(v).elem();
        let native_f16 = elem == ElemType::F16
            && self.c.strategy.repr(elem) == super::super::strategy::TypeRepr::F16Storage;
        // bf16 and f16 held as bits: vectors of i16 where those are native.
        let bits16 = matches!(elem, ElemType::BF16 | ElemType::F16) && self.c.strategy.i16_vectors;
        if !matches!(elem, ElemType::F32 | ElemType::Int(32)) && !native_f16 && !bits16 {
            return None;
        }
        if !self.known_fours(*self.c.shapes.of(v).last()?) {
            return None;
        }
        self.lane_of(*coords.last()?)
    }

    /// The innermost vector group that has coordinate `x` as a lane, and
    /// which lane.
    fn lane_of(&self, x: KValue) -> Option<(usize, usize)> {
        self.vector_groups
            .iter()
            .enumerate()
            .rev()
            .find_map(|(gi, g)| g.lanes.iter().position(|&l| l == x).map(|j| (gi, j)))
    }

    /// Element `coords` of `v`, a reshape of `src` (sizes `vs` and `ss`),
    /// where its last coordinate is lane `j` of a vector group and both
    /// last dimensions are static multiples of 4: a reshape keeps the
    /// row-major linear index, so the element is the source element at
    /// the group's base mapped through the reshape, `j` further along the
    /// source's last dimension. That element is computed under a group of
    /// the source's own, so the source (or the tensor in memory it is a
    /// view of, through transposes that keep the last dimension) moves
    /// as vectors too. `None` where the element is not such a lane.
    pub(super) fn reshaped_lane(
        &mut self,
        v: TValue,
        src: TValue,
        coords: &[KValue],
        vs: &[KValue],
        ss: &[KValue],
    ) -> Result<Option<KValue>, CodegenError> {
        let shapes = self.c.shapes;
        let fours = |t: TValue| matches!(shapes.of(t).last(), Some(Size::Static(n)) if n % 4 == 0);
        if !fours(v) || !fours(src) {
            return Ok(None);
        }
        let Some(&last) = coords.last() else {
            return Ok(None);
        };
        let Some((group, lane)) = self.lane_of(last) else {
            return Ok(None);
        };
        let mut at_base = coords.to_vec();
        let n = at_base.len();
        at_base[n - 1] = self.vector_groups[group].base;
        let lin = self.linearize(&at_base, vs);
        let mut sc = self.delinearize(lin, ss);
        let m = sc.len();
        let derived = VectorGroup::new(self, sc[m - 1]);
        sc[m - 1] = derived.lane(lane);
        self.vector_groups.push(derived);
        let x = self.elem(src, &sc);
        self.vector_groups.pop();
        x.map(Some)
    }

    /// The index, in 4-element vectors, of the group's vector of `v` at
    /// the other coordinates `prefix`.
    fn vector_index(&mut self, v: TValue, group: usize, prefix: &[KValue]) -> Option<KValue> {
        let base = self.vector_groups.get(group)?.base;
        let shapes = self.c.shapes;
        let sizes = self.sizes(shapes.of(v));
        let mut coords = prefix.to_vec();
        coords.push(base);
        let idx = self.linearize(&coords, &sizes);
        let four = self.index(4);
        Some(self.div(idx, four))
    }

    /// Element `coords` of `v` (buffer `buf`) as a lane of the group's
    /// vector, if `v` moves as vectors.
    pub(super) fn vector_lane_load(
        &mut self,
        v: TValue,
        buf: BufferId,
        coords: &[KValue],
    ) -> Option<KValue> {
        let (group, lane) = self.vector_lane(v, coords)?;
        let prefix = coords[..coords.len() - 1].to_vec();
        let key = Key::Vector(v, self.vector_groups[group].base, prefix.clone());
        let vec = match self.memo(&key) {
            Some(x) => x[0],
            None => {
                let q = self.vector_index(v, group, &prefix)?;
                let x = self.load_group(v, buf, q);
                self.remember(key, vec![x]);
                x
            }
        };
        let x = self.b.extract(vec, lane as i64);
        Some(self.load_conv(x, self.c.info.m.value_kind(v).elem()))
    }

    /// Group `q` of `v` (buffer `buf`) as a vec4 of its memory type: a
    /// 64-bit word bitcast to 4 `i16` where `v` holds bf16 (or f16) bits
    /// and stores go as words (one component for the driver's per-lane
    /// load loop instead of 4; such tensors are never texels), else the
    /// vec4 view's element (a texel where `v` is read-only and the
    /// strategy reads texels).
    fn load_group(&mut self, v: TValue, buf: BufferId, q: KValue) -> KValue {
        let elem = self.c.info.m.value_kind(v).elem();
        let mem_ty = self.memory_type(elem);
        // (Natively stored f16 measured faster as RGBA16F texels: 4.5 ms
        // against 4.9 for two ops over 1024x4096 on lavapipe.)
        if self.c.strategy.word_stores && mem_ty == KType::Int(16) {
            let words = self.buffer_words(buf, 1);
            let w = self.b.load(words, &[q]);
            let ty = KType::vector(4, mem_ty);
            let cast = self.b.op(KOpKind::VectorBitcast, &[w], &[ty], Vec::new());
            return self.b.module().op(cast).results[0];
        }
        let mem = self.buffer_vec4(buf);
        self.b.load(mem, &[q])
    }

    /// Holds the store of `x` at `coords` of `v` (buffer `buf`) for a
    /// vector store at [`flush_vector_stores`](Self::flush_vector_stores);
    /// false if `v` does not move as vectors.
    pub(super) fn vector_lane_store(
        &mut self,
        v: TValue,
        buf: BufferId,
        coords: &[KValue],
        x: KValue,
    ) -> bool {
        let Some((group, lane)) = self.vector_lane(v, coords) else {
            return false;
        };
        let raw = self.store_conv(x, self.c.info.m.value_kind(v).elem());
        let prefix = coords[..coords.len() - 1].to_vec();
        let g = &mut self.vector_groups[group];
        match g
            .pending
            .iter_mut()
            .find(|p| p.v == v && p.prefix == prefix)
        {
            Some(p) => p.lanes[lane] = Some(raw),
            None => {
                let mut lanes = [None; 4];
                lanes[lane] = Some(raw);
                g.pending.push(PendingStore {
                    v,
                    buf,
                    prefix,
                    lanes,
                });
            }
        }
        true
    }

    /// Stores the vec4 `vec` as group `q` of buffer `buf`: as 64-bit
    /// words where the strategy says so and the group is 128 or 64 bits
    /// (32-bit or 16-bit elements), else as the vector.
    fn store_group(&mut self, buf: BufferId, q: KValue, vec: KValue) {
        let bits = match self.b.type_of(vec) {
            KType::Vector { elem, .. } => match *elem {
                KType::Int(n) => n,
                KType::Float(f) => f.bits(),
                _ => 0,
            },
            _ => 0,
        };
        let words = match bits {
            32 => 2,
            16 => 1,
            _ => 0,
        };
        if self.c.strategy.word_stores && words > 0 {
            let ty = KType::vector(words, KType::Int(64));
            let cast = self.b.op(KOpKind::VectorBitcast, &[vec], &[ty], Vec::new());
            let cast = self.b.module().op(cast).results[0];
            let mem = self.buffer_words(buf, words);
            self.b.store(cast, mem, &[q]);
        } else {
            let mem = self.buffer_vec4(buf);
            self.b.store(vec, mem, &[q]);
        }
    }

    /// Emits the held stores of every group: one vector store where all 4
    /// lanes were stored, element stores otherwise.
    pub(super) fn flush_vector_stores(&mut self) {
        for group in 0..self.vector_groups.len() {
            let pending = std::mem::take(&mut self.vector_groups[group].pending);
            let lanes = self.vector_groups[group].lanes;
            for p in pending {
                self.mark_written(p.buf);
                if let [Some(a), Some(b), Some(c), Some(x)] = p.lanes {
                    let Some(q) = self.vector_index(p.v, group, &p.prefix) else {
                        continue;
                    };
                    let ty = KType::vector(4, self.b.type_of(a));
                    let mut vec = self.b.splat(a, ty);
                    for (j, &l) in [b, c, x].iter().enumerate() {
                        vec = self.b.insert(l, vec, j as i64 + 1);
                    }
                    self.store_group(p.buf, q, vec);
                } else {
                    let shapes = self.c.shapes;
                    let sizes = self.sizes(shapes.of(p.v));
                    let mem = self.buffer(p.buf);
                    for (j, x) in p.lanes.iter().enumerate() {
                        if let Some(x) = *x {
                            let mut coords = p.prefix.clone();
                            coords.push(lanes[j]);
                            let idx = self.linearize(&coords, &sizes);
                            self.b.store(x, mem, &[idx]);
                        }
                    }
                }
            }
        }
    }
}

/// Emits the groups of the invocation in workgroup `wgi`: `per` groups
/// strided by the workgroup size.
///
/// Where the last dimension is not a static multiple of 4 (dynamic, or a
/// 1-D space of any length), only whole groups in one row take the
/// vector path:
/// - a 1-D space: the groups before the last partial one; the first
///   invocation then emits the 0 to 3 points after them one by one;
/// - an N-D space: every group where the last dimension is a multiple of
///   4 at run time; where it is not, every point one by one.
///
/// The points go through loops whose trip count is 0 where they have no
/// work: llvmpipe runs both sides of an `scf.if` under a lane mask but
/// leaves a loop as soon as no lane iterates, so whole groups pay
/// nothing for the point path.
pub(super) fn emit_vector4(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    per: u32,
) -> Result<(), CodegenError> {
    let wg = i64::from(e.c.strategy.invocations());
    let domain = e.sizes(&shape.points);
    let total = e.product(&domain);
    let four = e.index(4);
    let zero = e.index(0);
    let static_fours = matches!(shape.points.last(), Some(Size::Static(n)) if n % 4 == 0);
    // The whole groups in one row and, where there can be others, the
    // space's last dimension (tensors of that last dimension move as
    // vectors in those groups too) and whether its rows are a multiple of
    // 4 long (N-D).
    let whole = e.div(total, four);
    let (groups, runtime_fours, rows_of_fours) = if static_fours {
        (whole, None, None)
    } else if domain.len() == 1 {
        (whole, shape.points.last().copied(), None)
    } else {
        let n = domain.len();
        let fours = e.multiple_of(domain[n - 1], 4);
        let groups = super::tile::ceil_div(e, total, four);
        (groups, shape.points.last().copied(), Some(fours))
    };
    let tid = e.b.thread_id("x");
    let block = e.index(wg * i64::from(per));
    let start = e.mul(wgi, block);
    let base = e.add(start, tid);
    for k in 0..per {
        let off = e.index(i64::from(k) * wg);
        let q = e.add(base, off);
        let inside = e.lt(q, groups);
        e.if_then(inside, |e| {
            let p0 = e.mul(q, four);
            let Some(fours) = rows_of_fours else {
                return vector_group(e, d, &domain, p0, runtime_fours);
            };
            e.if_then(fours, |e| vector_group(e, d, &domain, p0, runtime_fours))?;
            // Rows that are not a multiple of 4: the group's points one
            // by one (those inside the space).
            let left = e.sub(total, p0);
            let short = e.lt(left, four);
            let left = e.b.select(short, left, four);
            let count = e.b.select(fours, zero, left);
            points(e, d, &domain, p0, count)
        })?;
    }
    if !static_fours && rows_of_fours.is_none() {
        // A 1-D space's last 0 to 3 points, by the first invocation.
        let first = e.b.cmpi("eq", base, zero);
        let p0 = e.mul(whole, four);
        let left = e.sub(total, p0);
        let count = e.b.select(first, left, zero);
        points(e, d, &domain, p0, count)?;
    }
    Ok(())
}

/// Emits the `count` points of `domain` from linear index `p0` one by
/// one (a loop: no iteration where `count` is 0).
fn points(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    domain: &[KValue],
    p0: KValue,
    count: KValue,
) -> Result<(), CodegenError> {
    let (zero, one) = (e.index(0), e.index(1));
    e.for_(zero, count, one, &[], |e, j, _| {
        let p = e.add(p0, j);
        let coords = e.delinearize(p, domain);
        stores(e, d, &coords)?;
        Ok(Vec::new())
    })?;
    Ok(())
}

/// Emits the group of 4 points starting at linear index `p0` of
/// `domain` as vectors (its points in one row), with
/// `runtime_fours` (where given) known to be a multiple of 4.
fn vector_group(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    domain: &[KValue],
    p0: KValue,
    runtime_fours: Option<Size>,
) -> Result<(), CodegenError> {
    e.with_fours(runtime_fours, |e| vector_group_here(e, d, domain, p0))
}

/// [`vector_group`] with the emitter's `runtime_fours` as it is.
fn vector_group_here(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    domain: &[KValue],
    p0: KValue,
) -> Result<(), CodegenError> {
    let first = e.delinearize(p0, domain);
    let n = first.len();
    let group = VectorGroup::new(e, first[n - 1]);
    let lanes: Vec<Vec<KValue>> = (0..4)
        .map(|j| {
            let mut c = first.clone();
            c[n - 1] = group.lane(j);
            c
        })
        .collect();
    e.vector_groups.push(group);
    let emitted = lanes.iter().try_for_each(|c| stores(e, d, c));
    if emitted.is_ok() {
        e.flush_vector_stores();
    }
    e.vector_groups.pop();
    emitted
}
