//! The per-point helpers every kernel family uses: the loop point of a
//! dispatch's root that a point reads ([`root_point`], through the inlined
//! ops and reshapes between them, [`path_to`]) and the stores of the
//! dispatch's values at a point ([`stores`]).

use crate::kernel::KValue;
use crate::tensor::attr::IteratorType;
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::{TOp, TValue};

use super::super::analysis::OpClass;
use super::super::error::{CodegenError, Invariant};
use super::super::fused_path::{path_to, through_reshapes};
use super::super::regions::{DispatchRegion, ValueFate};
use super::emitter::Emitter;

/// The full loop point of the dispatch's structured op `op` from its
/// point `coords` (reduction loops at 0; the points in the order of
/// [`Emitter::point_dims`] where it has one, the loops they leave out
/// at 0).
fn full_point(e: &mut Emitter<'_, '_, '_>, op: TOp, coords: &[KValue]) -> Vec<KValue> {
    let s = &e.c.info.structured[&op];
    let types = s.iterator_types.clone();
    let zero = e.index(0);
    let mut parallel = coords.to_vec();
    if !e.point_dims.is_empty() {
        let n = types
            .iter()
            .filter(|t| **t == IteratorType::Parallel)
            .count();
        parallel = vec![zero; n];
        for (&at, &c) in e.point_dims.iter().zip(coords) {
            if let Some(p) = parallel.get_mut(at) {
                *p = c;
            }
        }
    }
    let mut it = parallel.iter();
    types
        .iter()
        .map(|t| match t {
            IteratorType::Parallel => *it.next().unwrap_or(&zero),
            IteratorType::Reduction => zero,
        })
        .collect()
}

/// The coordinates in `src` (what [`through_reshapes`] returns for `v`)
/// of the element of `v` at `coords`.
fn reshaped_coords(
    e: &mut Emitter<'_, '_, '_>,
    mut v: TValue,
    src: TValue,
    mut coords: Vec<KValue>,
) -> Vec<KValue> {
    let info = e.c.info;
    while v != src {
        let Some(p) = info.def_op(v) else { break };
        let u = info.m.op(p).operands[0];
        coords = match &info.m.op(p).kind {
            OpKind::Tensor(TensorOp::Cast) => coords,
            OpKind::Tensor(TensorOp::CollapseShape { reassociation }) => {
                regroup(e, &coords, u, reassociation, false)
            }
            OpKind::Tensor(TensorOp::ExpandShape { reassociation, .. }) => {
                regroup(e, &coords, v, reassociation, true)
            }
            _ => {
                let vs = e.sizes(e.c.shapes.of(v));
                let us = e.sizes(e.c.shapes.of(u));
                let lin = e.linearize(&coords, &vs);
                e.delinearize(lin, &us)
            }
        };
        v = u;
    }
    coords
}

/// Coordinates through a reshape's reassociation, group by group, so that
/// a dim in a group of its own keeps its coordinate (the same value: a
/// workgroup-memory tile recognizes its rows and columns in the root's
/// point by it). `expanded` is the expanded tensor; with `expand`,
/// `coords` are in it and each source dim linearizes its group's
/// coordinates, else `coords` are in the collapsed tensor and each group
/// delinearizes its coordinate over the expanded dims (dims of no group,
/// unit dims, at 0).
fn regroup(
    e: &mut Emitter<'_, '_, '_>,
    coords: &[KValue],
    expanded: TValue,
    reassociation: &[Vec<u64>],
    expand: bool,
) -> Vec<KValue> {
    let sizes = e.sizes(e.c.shapes.of(expanded));
    if expand {
        return reassociation
            .iter()
            .map(|g| match g[..] {
                [one] => coords[one as usize],
                _ => {
                    let cs: Vec<KValue> = g.iter().map(|&d| coords[d as usize]).collect();
                    let ss: Vec<KValue> = g.iter().map(|&d| sizes[d as usize]).collect();
                    e.linearize(&cs, &ss)
                }
            })
            .collect();
    }
    let zero = e.index(0);
    let mut out = vec![zero; sizes.len()];
    for (i, g) in reassociation.iter().enumerate() {
        match g[..] {
            [one] => out[one as usize] = coords[i],
            _ => {
                let ss: Vec<KValue> = g.iter().map(|&d| sizes[d as usize]).collect();
                for (&d, c) in g.iter().zip(e.delinearize(coords[i], &ss)) {
                    out[d as usize] = c;
                }
            }
        }
    }
    out
}

/// The loop point of root `root` that the dispatch's point `coords`
/// reads.
pub(super) fn root_point(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    coords: &[KValue],
    root: TOp,
) -> Result<Vec<KValue>, CodegenError> {
    let mut point = full_point(e, d.op, coords);
    if root == d.op {
        return Ok(point);
    }
    let info = e.c.info;
    let regions = e.c.regions;
    let inlined = |v| regions.fate(v) == ValueFate::Inlined;
    let path = path_to(info, &inlined, d.op, root)
        .ok_or_else(|| e.internal(root, Invariant::RootUnreachable))?;
    for (c, k) in path {
        let s = info.structured[&c].clone();
        let map = s.indexing_maps[k].clone();
        let oc = map
            .results
            .iter()
            .map(|x| e.affine(c, x, &point))
            .collect::<Result<Vec<_>, _>>()?;
        let v = through_reshapes(info, &inlined, s.inputs[k]);
        let oc = reshaped_coords(e, s.inputs[k], v, oc);
        let p = info.def_op(v).expect("an op result");
        let sp = info.structured[&p].clone();
        point = e.point_from_output(p, &sp, info.result_index(v), &oc)?;
    }
    Ok(point)
}

/// Stores the dispatch's values at its point `coords` (roots already
/// prepared).
pub(super) fn stores(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    coords: &[KValue],
) -> Result<(), CodegenError> {
    let info = e.c.info;
    let m = info.m;
    let op = d.op;
    if let Some(s) = info.structured.get(&op).cloned() {
        let point = full_point(e, op, coords);
        let yields = if info.class[&op] == OpClass::Root {
            e.prepared_roots
                .get(&op)
                .cloned()
                .ok_or_else(|| e.internal(op, Invariant::RootNotPrepared))?
        } else {
            e.body(op, &s, &point, None)?
        };
        for &r in &d.stored {
            let j = info.result_index(r);
            let map = s.indexing_maps[s.inputs.len() + j].clone();
            let oc = map
                .results
                .iter()
                .map(|x| e.affine(op, x, &point))
                .collect::<Result<Vec<_>, _>>()?;
            e.store(r, &oc, yields[j])?;
        }
        return Ok(());
    }
    if matches!(m.op(op).kind, OpKind::Assert { .. }) {
        // A `cf.assert` on a device scalar: one invocation checks it.
        let cond = e.scalar(m.op(op).operands[0])?;
        return e.checked_assert(op, cond);
    }
    for &r in &d.stored {
        if m.value_kind(r).is_tensor() {
            let v = e.compute_elem(r, coords)?;
            e.store(r, coords, v)?;
        } else {
            let v = e.compute_scalar(r)?;
            let buf =
                e.c.buffers
                    .buffer(r)
                    .ok_or_else(|| e.internal(op, Invariant::NoBuffer("a stored scalar")))?;
            let zero = e.index(0);
            e.store_at(buf, zero, v, m.value_kind(r).elem());
        }
    }
    Ok(())
}
