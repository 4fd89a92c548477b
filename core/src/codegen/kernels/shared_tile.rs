//! Workgroup-memory tiles ([`Distribution::SharedTile`](super::super::strategy::Distribution::SharedTile)): a workgroup
//! computes a `BM` x `BN` block of the dispatch's last two point
//! dimensions, each invocation a `TM` x `TN` register tile of it (rows
//! `ty + i * BM/TM`, columns `tx + j * BN/TN` of the block, so that
//! neighbouring invocations read neighbouring workgroup-memory words and
//! store neighbouring columns).
//!
//! The root's inputs that are read along its reduction and leave out the
//! block's columns (a matmul's A) or its rows (its B) are *staged*: per
//! step of `BK` reduction iterations the workgroup loads their `BM x BK`
//! and `BK x BN` blocks together (each invocation `BM * BK / W` elements,
//! the tensor's contiguous dimension varying fastest across invocations,
//! as vec4 where it is a static multiple of 4), stores them into
//! workgroup memory `[BK][BM + 1]` (padded by one word against bank
//! conflicts), barrier, then every invocation folds its tile for the
//! step reading the staged values, barrier. Nothing here knows what a
//! matmul is: an element is staged by evaluating the input at the step's
//! coordinates (a fused producer, a transposed map and a batch all come
//! out of the same evaluation as anywhere else), and the fold reads it
//! through the emitter's memo table, where the staged value is entered
//! under the coordinates the root's body reads it at.
//!
//! Edges: rows, columns and reduction iterations past the end are
//! clamped to the last valid one when staging (so the loads are
//! branch-free and in bounds), the last step folds only the iterations
//! that remain, and the stores of points outside the domain are skipped.
//! The number of steps and each step's iterations are the same for all
//! invocations, so every barrier is in uniform control flow.

use crate::kernel::GpuAddressSpace;
use crate::kernel::{KOpKind, KType, KValue, MemRefLayout, MemorySpace};
use crate::tensor::{AffineExpr, TValue};

use super::super::error::{CodegenError, Invariant};
use super::super::host::Size;
use super::super::regions::DispatchRegion;
use super::super::strategy::{loop_sizes, tile_loops, DispatchShape, SharedDims, Slices};
use super::emitter::{Emitter, Key};
use super::point::{root_point, stores};
use super::tile::{ceil_div, workgroup_block};
use super::vector::VectorGroup;

/// The most multiply-adds (depth x register tile) a step's fold is
/// unrolled for.
const UNROLL_FMAS: u32 = 1024;

/// Which side of the block a staged input runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Indexed by the block's rows (a matmul's A).
    Rows,
    /// Indexed by the block's columns (a matmul's B).
    Cols,
}

/// A staged input of the root.
struct Staged {
    /// The input's operand index.
    k: usize,
    v: TValue,
    side: Side,
    /// Its workgroup memory, `[BK][extent + 1]` flattened (twice where
    /// double-buffered).
    tile: KValue,
    /// The block's extent along `side`.
    extent: u32,
    /// Whether the tensor's last coordinate is the side's loop (else a
    /// reduction loop varies fastest while staging).
    side_fastest: bool,
    /// Whether its staging moves as vec4 groups.
    vec4: bool,
}

/// Emits the block of workgroup `wgi`.
pub(super) fn emit_shared_tile(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    t: SharedDims,
    split: Option<&Slices>,
) -> Result<(), CodegenError> {
    let root = d
        .root
        .ok_or_else(|| e.internal(d.op, Invariant::NoRoot("a workgroup-memory tile")))?;
    let s = e.c.info.structured[&root].clone();
    let domain = e.sizes(&shape.points);
    let n = domain.len();
    let (nr, nc) = (domain[n - 2], domain[n - 1]);
    let (loops, sizes) = e.reduction_loops(root, &s);
    let total = e.product(&sizes);
    // Split-K: which block and which slice of the reduction.
    let (wgi, slice) = Slices::block_of(split, e, wgi, total);

    // The block of this workgroup.
    let bm_v = e.index(i64::from(t.bm));
    let bn_v = e.index(i64::from(t.bn));
    let (r0, c0, batch_coords) = workgroup_block(e, wgi, &domain, bm_v, bn_v);
    let tid = e.b.thread_id("x");
    let (wy, wx) = (t.bm / t.tm, t.bn / t.tn);
    let wx_v = e.index(i64::from(wx));
    let tx = e.rem(tid, wx_v);
    let ty = e.div(tid, wx_v);
    let one = e.index(1);
    let last_row = e.sub(nr, one);
    let last_col = e.sub(nc, one);

    // This invocation's rows and columns: (offset in the block, clamped
    // coordinate, inside the domain).
    let row_at = lanes(e, t.tm, wy, ty, r0, nr, last_row);
    let col_at = lanes(e, t.tn, wx, tx, c0, nc, last_col);

    // The tile's points and their root points.
    let mut points = Vec::new();
    for (i, &(_, r, r_in)) in row_at.iter().enumerate() {
        for (j, &(_, c, c_in)) in col_at.iter().enumerate() {
            let mut coords = batch_coords.clone();
            coords.extend([r, c]);
            let rp = root_point(e, d, &coords, root)?;
            points.push((i, j, coords, rp, r_in, c_in));
        }
    }
    // The root's loops of the block's rows and columns (its last two
    // that are not unit loops, as the strategy saw them).
    let root_sizes = loop_sizes(e.c.info, e.c.shapes, root);
    let m = e.c.info.m;
    let parallel: Vec<usize> =
        tile_loops(&s, &root_sizes, |k| m.value_kind(s.inputs[k]).is_tensor())
            .into_iter()
            .map(|l| l as usize)
            .collect();
    let [.., lr, lc] = parallel[..] else {
        return Err(e.internal(
            root,
            Invariant::PlanMismatch {
                kernel: "a workgroup-memory tile",
                what: "fewer than two parallel loops",
            },
        ));
    };
    if points
        .iter()
        .any(|(i, j, _, rp, _, _)| rp[lr] != row_at[*i].1 || rp[lc] != col_at[*j].1)
    {
        return Err(e.internal(
            root,
            Invariant::PlanMismatch {
                kernel: "a workgroup-memory tile",
                what: "the block's rows and columns are not the root's last parallel loops",
            },
        ));
    }

    // The staged inputs and their workgroup memory.
    let mut staged = Vec::new();
    for (k, &v) in s.inputs.iter().enumerate() {
        if !m.value_kind(v).is_tensor() {
            continue;
        }
        let map = &s.indexing_maps[k];
        let uses = |l: usize| map.results.iter().any(|x| x.uses_dim(l as u32));
        let side = match (uses(lr), uses(lc)) {
            (true, false) => Side::Rows,
            (false, true) => Side::Cols,
            _ => continue,
        };
        if !loops.iter().any(|&l| uses(l)) {
            continue;
        }
        let (extent, side_loop) = match side {
            Side::Rows => (t.bm, lr),
            Side::Cols => (t.bn, lc),
        };
        let last = map.results.last();
        let side_fastest = matches!(last, Some(AffineExpr::Dim(x)) if *x as usize == side_loop);
        let reduction_fastest =
            loops.len() == 1 && matches!(last, Some(AffineExpr::Dim(x)) if *x as usize == loops[0]);
        let last_static4 = matches!(
            e.c.shapes.of(v).last(),
            Some(Size::Static(len)) if *len >= 4 && len % 4 == 0
        );
        let fast_extent = if side_fastest { extent } else { t.bk };
        let vec4 = last_static4
            && (side_fastest || reduction_fastest)
            && fast_extent % 4 == 0
            && (extent * t.bk) % (4 * t.wg) == 0;
        let elem = m.value_kind(v).elem();
        let ty = e.compute_type(elem);
        let tile = e.b.alloc(KType::MemRef {
            shape: vec![Some(
                u64::from(t.bk * (extent + 1)) * if t.double { 2 } else { 1 },
            )],
            elem: Box::new(ty),
            layout: MemRefLayout::Identity,
            space: MemorySpace::Gpu(GpuAddressSpace::Workgroup),
        });
        staged.push(Staged {
            k,
            v,
            side,
            tile,
            extent,
            side_fastest,
            vec4,
        });
    }
    if !staged.iter().any(|x| x.side == Side::Rows) || !staged.iter().any(|x| x.side == Side::Cols)
    {
        return Err(e.internal(
            root,
            Invariant::PlanMismatch {
                kernel: "a workgroup-memory tile",
                what: "no staged operands on both sides",
            },
        ));
    }

    // A slice folds from the identities.
    let inits = match split {
        Some(sl) => sl.identity_inits(e, root, &s, points.len())?,
        None => {
            let mut inits = Vec::new();
            for (_, _, _, rp, _, _) in &points {
                inits.extend(e.inits(root, &s, rp)?);
            }
            inits
        }
    };
    let outs = s.outputs.len();
    let template = points[0].3.clone();
    let zero = e.index(0);
    // The iterations this workgroup folds: the whole reduction or its
    // slice (step `i` starts at `begin + i * BK`).
    let (begin, end) = match &slice {
        Some(at) => (at.begin, at.end),
        None => (zero, total),
    };
    let bk_v = e.index(i64::from(t.bk));
    let span = e.sub(end, begin);
    let steps = ceil_div(e, span, bk_v);
    let one = e.index(1);
    let side_info = [
        (Side::Rows, r0, last_row, lr),
        (Side::Cols, c0, last_col, lc),
    ];
    // The values of every staged block at the step starting at `k0`:
    // (staged input, index within one buffer, value).
    let load_step = |e: &mut Emitter<'_, '_, '_>, k0: KValue| {
        let one = e.index(1);
        let last_k = e.sub(total, one);
        let mut out = Vec::new();
        for (xi, x) in staged.iter().enumerate() {
            let &(_, start, last, side_loop) = side_info
                .iter()
                .find(|(sd, ..)| *sd == x.side)
                .expect("both sides");
            let geometry = Geometry {
                t,
                tid,
                template: &template,
                loops: &loops,
                sizes: &sizes,
                side: (start, last, side_loop),
                k: (k0, last_k),
            };
            for (at, v) in stage(e, &s, root, x, &geometry)? {
                out.push((xi, at, v));
            }
        }
        Ok::<_, CodegenError>(out)
    };
    let store_step =
        |e: &mut Emitter<'_, '_, '_>, vals: &[(usize, KValue, KValue)], buffer: KValue| {
            for &(xi, at, v) in vals {
                let x = &staged[xi];
                let size = e.index(i64::from(t.bk * (x.extent + 1)));
                let off = e.mul(buffer, size);
                let at = e.add(off, at);
                e.b.store(v, x.tile, &[at]);
            }
        };
    // An f16/bf16 output folded by one float op accumulates in f32 and
    // rounds once, after the loop (split-K partials stay unrounded).
    let wide = super::reduce::wide_combiners(e.c.info.m, &s);
    // Iteration `kk` of the step starting at `k0`, from buffer `buffer`.
    let fold_at = |e: &mut Emitter<'_, '_, '_>,
                   k0: KValue,
                   buffer: KValue,
                   kk: KValue,
                   accs: &[KValue]|
     -> Result<Vec<KValue>, CodegenError> {
        let kg = e.add(k0, kk);
        let rc = e.delinearize(kg, &sizes);
        // The staged values this invocation's tile reads at `kk`.
        let mut reads: Vec<Vec<KValue>> = Vec::new();
        for x in &staged {
            let size = e.index(i64::from(t.bk * (x.extent + 1)));
            let base = e.mul(buffer, size);
            let row = e.index(i64::from(x.extent + 1));
            let at = e.mul(kk, row);
            let at = e.add(base, at);
            let locals: Vec<KValue> = match x.side {
                Side::Rows => row_at.iter().map(|r| r.0).collect(),
                Side::Cols => col_at.iter().map(|c| c.0).collect(),
            };
            let vals = locals
                .into_iter()
                .map(|l| {
                    let idx = e.add(at, l);
                    e.b.load(x.tile, &[idx])
                })
                .collect();
            reads.push(vals);
        }
        let mut next = Vec::with_capacity(accs.len());
        for (p, (i, j, _, rp, _, _)) in points.iter().enumerate() {
            let mut pt = rp.clone();
            for (q, &l) in loops.iter().enumerate() {
                pt[l] = rc[q];
            }
            for (x, vals) in staged.iter().zip(&reads) {
                let coords = s.indexing_maps[x.k]
                    .results
                    .clone()
                    .iter()
                    .map(|a| e.affine(root, a, &pt))
                    .collect::<Result<Vec<_>, _>>()?;
                let val = match x.side {
                    Side::Rows => vals[*i],
                    Side::Cols => vals[*j],
                };
                e.remember(Key::Elem(x.v, coords), vec![val]);
            }
            let mine = &accs[p * outs..(p + 1) * outs];
            next.extend(e.fold_point(root, &s, wide.as_deref(), &pt, mine)?);
        }
        Ok(next)
    };
    // The fold of one step from buffer `buffer`: unrolled where every
    // step is a full one of static length (a reduction that is a static
    // multiple of BK) and the tile small enough, else a loop over the
    // step's iterations (fewer in the last step).
    let full_steps = e.const_of(total).is_some_and(|k| k % i64::from(t.bk) == 0)
        && split.is_none_or(|sl| sl.len % u64::from(t.bk) == 0);
    let unroll = full_steps && t.bk * t.tm * t.tn <= UNROLL_FMAS;
    let fold_step = |e: &mut Emitter<'_, '_, '_>,
                     k0: KValue,
                     buffer: KValue,
                     accs: &[KValue]|
     -> Result<Vec<KValue>, CodegenError> {
        if unroll {
            let mut cur = accs.to_vec();
            for u in 0..t.bk {
                let kk = e.index(i64::from(u));
                cur = fold_at(e, k0, buffer, kk, &cur)?;
            }
            return Ok(cur);
        }
        let count = if full_steps {
            bk_v
        } else {
            let left = e.sub(end, k0);
            e.b.binary(KOpKind::ArithMinUI, left, bk_v)
        };
        let zero = e.index(0);
        let one = e.index(1);
        e.for_(zero, count, one, accs, |e, kk, accs| {
            fold_at(e, k0, buffer, kk, accs)
        })
    };
    let accs = if t.double {
        // Step 0 staged before the loop; each step loads the next one's
        // blocks (the last step reloads its own, in bounds and unused)
        // into registers, folds from its buffer, stores them into the
        // other buffer, and one barrier separates the steps.
        let any = e.lt(zero, steps);
        e.if_then(any, |e| {
            let vals = load_step(e, begin)?;
            store_step(e, &vals, zero);
            Ok(())
        })?;
        e.b.barrier();
        e.for_(zero, steps, one, &inits, |e, step, accs| {
            let one = e.index(1);
            let two = e.index(2);
            let k0 = e.mul(step, bk_v);
            let k0 = e.add(begin, k0);
            let last_step = e.sub(steps, one);
            let next = e.add(step, one);
            let next = e.b.binary(KOpKind::ArithMinUI, next, last_step);
            let next_k0 = e.mul(next, bk_v);
            let next_k0 = e.add(begin, next_k0);
            let vals = load_step(e, next_k0)?;
            let cur = e.rem(step, two);
            let out = fold_step(e, k0, cur, accs)?;
            let other = e.sub(one, cur);
            store_step(e, &vals, other);
            e.b.barrier();
            Ok(out)
        })?
    } else {
        e.for_(zero, steps, one, &inits, |e, step, accs| {
            let k0 = e.mul(step, bk_v);
            let k0 = e.add(begin, k0);
            let vals = load_step(e, k0)?;
            let zero = e.index(0);
            store_step(e, &vals, zero);
            e.b.barrier();
            let out = fold_step(e, k0, zero, accs)?;
            e.b.barrier();
            Ok(out)
        })?
    };

    // Split-K: the partial results of the points inside the domain, no
    // epilogue.
    if let (Some(sl), Some(at)) = (split, &slice) {
        for (p, (_, _, coords, _, r_in, c_in)) in points.iter().enumerate() {
            let inside = e.b.binary(KOpKind::ArithAndI, *r_in, *c_in);
            let mine = &accs[p * outs..(p + 1) * outs];
            e.if_then(inside, |e| {
                sl.store_partials(e, shape, root, at.index, coords, mine);
                Ok(())
            })?;
        }
        return Ok(());
    }
    // The epilogue and stores of the points inside the domain.
    let accs = match &wide {
        Some(cs) => e.narrow_all(cs, &accs),
        None => accs,
    };
    for (p, (_, _, coords, _, r_in, c_in)) in points.into_iter().enumerate() {
        let inside = e.b.binary(KOpKind::ArithAndI, r_in, c_in);
        let mine = accs[p * outs..(p + 1) * outs].to_vec();
        e.if_then(inside, |e| {
            e.prepared_roots.insert(root, mine);
            stores(e, d, &coords)
        })?;
    }
    Ok(())
}

/// An invocation's `count` rows (or columns) of the block, `stride`
/// apart from `local0`: (offset in the block, coordinate clamped to
/// `last`, whether it is below `n`).
fn lanes(
    e: &mut Emitter<'_, '_, '_>,
    count: u32,
    stride: u32,
    local0: KValue,
    start: KValue,
    n: KValue,
    last: KValue,
) -> Vec<(KValue, KValue, KValue)> {
    (0..count)
        .map(|i| {
            let off = e.index(i64::from(i * stride));
            let local = e.add(local0, off);
            let c = e.add(start, local);
            let clamped = e.b.binary(KOpKind::ArithMinUI, c, last);
            let inside = e.lt(c, n);
            (local, clamped, inside)
        })
        .collect()
}

/// Where a step's staged elements come from: the tile, this invocation,
/// the root point of the block's first point, the reduction loops and
/// sizes, the side's first coordinate, last coordinate and root loop, and
/// the step's first reduction iteration and the last one.
struct Geometry<'g> {
    t: SharedDims,
    tid: KValue,
    template: &'g [KValue],
    loops: &'g [usize],
    sizes: &'g [KValue],
    side: (KValue, KValue, usize),
    k: (KValue, KValue),
}

/// Loads staged input `x`'s block for the step starting at reduction
/// iteration `k0`: element `q * W + tid` of the block for each `q`, the
/// tensor's contiguous dimension fastest. Returns each element's index in
/// one buffer (`[BK][extent + 1]`) and its value.
fn stage(
    e: &mut Emitter<'_, '_, '_>,
    s: &crate::tensor::structured::Structured,
    root: crate::tensor::TOp,
    x: &Staged,
    g: &Geometry<'_>,
) -> Result<Vec<(KValue, KValue)>, CodegenError> {
    let Geometry {
        t,
        tid,
        template,
        loops,
        sizes,
        side: (start, last, side_loop),
        k: (k0, last_k),
    } = *g;
    let mut out = Vec::new();
    let map = s.indexing_maps[x.k].clone();
    let width = if x.vec4 { 4 } else { 1 };
    let fast = if x.side_fastest { x.extent } else { t.bk } / width;
    let per = x.extent * t.bk / (t.wg * width);
    let fast_v = e.index(i64::from(fast));
    let row = e.index(i64::from(x.extent + 1));
    let tensor_last = match e.c.shapes.of(x.v).last() {
        Some(&Size::Static(len)) => len as i64,
        _ => 0,
    };
    for q in 0..per {
        let off = e.index(i64::from(q * t.wg));
        let g = e.add(tid, off);
        let f = e.rem(g, fast_v);
        let slow = e.div(g, fast_v);
        let w = e.index(i64::from(width));
        let f = e.mul(f, w);
        let (sl, kl) = if x.side_fastest { (f, slow) } else { (slow, f) };
        let gs = e.add(start, sl);
        let gk = e.add(k0, kl);
        let gs = e.b.binary(KOpKind::ArithMinUI, gs, last);
        let gk = e.b.binary(KOpKind::ArithMinUI, gk, last_k);
        // The lanes' coordinates along the fast dimension: one, or a
        // vec4 group whose base is clamped so that a group wholly past
        // the end stays in bounds (the dimension and the base are
        // multiples of 4, so a group is wholly inside or wholly past).
        let (fast_coords, group) = if x.vec4 {
            let base = if x.side_fastest {
                e.add(start, sl)
            } else {
                e.add(k0, kl)
            };
            let four = e.index(4);
            let len = e.index(tensor_last);
            let last_base = e.sub(len, four);
            let base = e.b.binary(KOpKind::ArithMinUI, base, last_base);
            let group = VectorGroup::new(e, base);
            let lanes: Vec<KValue> = (0..4).map(|j| group.lane(j)).collect();
            (lanes, Some(group))
        } else {
            (vec![if x.side_fastest { gs } else { gk }], None)
        };
        if let Some(group) = group {
            e.vector_groups.push(group);
        }
        let mut result = Ok(());
        for (j, &fc) in fast_coords.iter().enumerate() {
            let (s_at, k_at) = if x.side_fastest { (fc, gk) } else { (gs, fc) };
            let mut pt = template.to_vec();
            pt[side_loop] = s_at;
            let rc = e.delinearize(k_at, sizes);
            for (i, &l) in loops.iter().enumerate() {
                pt[l] = rc[i];
            }
            let coords = match map
                .results
                .iter()
                .map(|a| e.affine(root, a, &pt))
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(c) => c,
                Err(err) => {
                    result = Err(err);
                    break;
                }
            };
            let val = match e.elem(x.v, &coords) {
                Ok(v) => v,
                Err(err) => {
                    result = Err(err);
                    break;
                }
            };
            let dj = e.index(j as i64);
            let (sl_j, kl_j) = if x.side_fastest {
                (e.add(sl, dj), kl)
            } else {
                (sl, e.add(kl, dj))
            };
            let at = e.mul(kl_j, row);
            let at = e.add(at, sl_j);
            out.push((at, val));
        }
        if x.vec4 {
            e.vector_groups.pop();
        }
        result?;
    }
    Ok(out)
}
