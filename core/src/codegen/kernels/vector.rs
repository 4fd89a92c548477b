//! Groups of 4 points ([`Distribution::Vector4`](super::super::strategy::Distribution::Vector4)):
//! an invocation emits 4 consecutive points of the last dimension at a
//! time, and every 32-bit tensor that spans the whole iteration space and
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

use crate::kernel::{KType, KValue};
use crate::tensor::types::ElemType;
use crate::tensor::TValue;

use super::super::bufferize::BufferId;
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::regions::DispatchRegion;
use super::super::strategy::DispatchShape;
use super::dispatch::stores;
use super::emitter::{Emitter, Key};

/// The group of 4 points being emitted.
pub(crate) struct VectorGroup {
    /// The group's index in the vectors of the whole space.
    q: KValue,
    /// Each lane's coordinates.
    lanes: Vec<Vec<KValue>>,
    /// The iteration space's sizes: a tensor of these sizes is indexed
    /// like the space, so its vector `q` holds the group's 4 points.
    space: Vec<Size>,
    /// Stores held until the group ends: value, buffer, each lane's
    /// memory-typed value.
    pending: Vec<(TValue, BufferId, [Option<KValue>; 4])>,
}

impl Emitter<'_, '_, '_> {
    /// The lane of the current group at `coords` if `v` moves as vectors.
    fn vector_lane(&self, v: TValue, coords: &[KValue]) -> Option<usize> {
        let g = self.vector_group.as_ref()?;
        let elem = self.c.info.m.value_kind(v).elem();
        if !matches!(elem, ElemType::F32 | ElemType::Int(32)) || self.c.shapes.of(v) != g.space {
            return None;
        }
        g.lanes.iter().position(|l| l == coords)
    }

    /// Element `coords` of `v` (buffer `buf`) as a lane of the group's
    /// vector, if `v` moves as vectors.
    pub(super) fn vector_lane_load(
        &mut self,
        v: TValue,
        buf: BufferId,
        coords: &[KValue],
    ) -> Option<KValue> {
        let lane = self.vector_lane(v, coords)?;
        let q = self.vector_group.as_ref()?.q;
        let vec = match self.memo(&Key::Vector(v)) {
            Some(x) => x[0],
            None => {
                let mem = self.buffer_vec4(buf);
                let x = self.b.load(mem, &[q]);
                self.remember(Key::Vector(v), vec![x]);
                x
            }
        };
        let x = self.b.extract(vec, lane as i64);
        Some(self.load_conv(x, self.c.info.m.value_kind(v).elem()))
    }

    /// Holds the store of `x` at `coords` of `v` (buffer `buf`) for the
    /// group's vector store; false if `v` does not move as vectors.
    pub(super) fn vector_lane_store(
        &mut self,
        v: TValue,
        buf: BufferId,
        coords: &[KValue],
        x: KValue,
    ) -> bool {
        let Some(lane) = self.vector_lane(v, coords) else {
            return false;
        };
        let raw = self.store_conv(x, self.c.info.m.value_kind(v).elem());
        let Some(g) = self.vector_group.as_mut() else {
            return false;
        };
        match g.pending.iter_mut().find(|(w, _, _)| *w == v) {
            Some((_, _, lanes)) => lanes[lane] = Some(raw),
            None => {
                let mut lanes = [None; 4];
                lanes[lane] = Some(raw);
                g.pending.push((v, buf, lanes));
            }
        }
        true
    }
}

/// Emits the groups of the invocation in workgroup `wgi`: `per` groups
/// strided by the workgroup size.
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
    let groups = e.div(total, four);
    let tid = e.b.thread_id("x");
    let block = e.index(wg * i64::from(per));
    let start = e.mul(wgi, block);
    let base = e.add(start, tid);
    for k in 0..per {
        let off = e.index(i64::from(k) * wg);
        let q = e.add(base, off);
        let inside = e.lt(q, groups);
        let domain = domain.clone();
        e.if_then(inside, |e| {
            let p0 = e.mul(q, four);
            let first = e.delinearize(p0, &domain);
            let n = first.len();
            let lanes: Vec<Vec<KValue>> = (0..4)
                .map(|j| {
                    let mut c = first.clone();
                    let dj = e.index(j);
                    c[n - 1] = e.add(first[n - 1], dj);
                    c
                })
                .collect();
            e.vector_group = Some(VectorGroup {
                q,
                lanes: lanes.clone(),
                space: shape.points.clone(),
                pending: Vec::new(),
            });
            let emitted = lanes.iter().try_for_each(|c| stores(e, d, c));
            let group = e.vector_group.take();
            emitted?;
            let Some(group) = group else {
                return Ok(());
            };
            for (v, buf, vals) in group.pending {
                e.mark_written(buf);
                if let [Some(a), Some(b), Some(c), Some(x)] = vals {
                    let ty = KType::vector(4, e.b.type_of(a));
                    let mut vec = e.b.splat(a, ty);
                    for (j, &l) in [b, c, x].iter().enumerate() {
                        vec = e.b.insert(l, vec, j as i64 + 1);
                    }
                    let mem = e.buffer_vec4(buf);
                    e.b.store(vec, mem, &[q]);
                } else {
                    let _ = v;
                    let mem = e.buffer(buf);
                    for (j, x) in vals.iter().enumerate() {
                        if let Some(x) = *x {
                            let dj = e.index(j as i64);
                            let idx = e.add(p0, dj);
                            e.b.store(x, mem, &[idx]);
                        }
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(())
}
