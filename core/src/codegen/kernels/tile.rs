//! Register tiles ([`Distribution::Tile`](super::super::strategy::Distribution::Tile)):
//! each invocation computes `rows` x `cols` points of the dispatch's last
//! two point dimensions with one loop over the root's reduction carrying
//! all their accumulators.
//!
//! Nothing here knows what a matmul is: the tile's points are evaluated by
//! the same body emission as any other point, and the emitter's memo
//! table (keyed by tensor and coordinate values) makes an operand element
//! read by several points of the tile one load per iteration — `A[m, k]`
//! for the tile's columns, `B[k, n]` for its rows, an input pixel for all
//! output channels of a convolution tile. Out-of-range rows and columns
//! (tails) are clamped to the last valid one, so the loop has no
//! branches, and their stores are skipped.
//!
//! Workgroup `w` covers the rows `[r0, r0 + rows)` and the columns
//! `c0 + t + j * W` (`t` the invocation, `W` the workgroup size, `j <
//! cols`): its invocations share the rows, so their row loads are
//! uniform, and neighbours touch neighbouring columns. Where the tile's
//! columns are a multiple of 4 and so is the last dimension, an
//! invocation's columns come in groups of 4 adjacent ones instead (group
//! `g` at `c0 + 4t + 4gW`), each a vector group ([`super::vector`]): what
//! is indexed last by the column (a matmul's B, its output) moves as
//! vec4, and a tile of 8 columns reads two B vectors per step where 4
//! columns read one (fewer loads per multiply-add than a taller tile).
//! Where the innermost reduction loop's size is a multiple of the tile's
//! depth (else of 4), the loop is unrolled by it and each 4 of its values
//! are a vector group too (a matmul's A row, a convolution's input
//! channels); in a tile deeper than [`TILE_DEPTH`] the points fold their
//! steps one point after another.

use crate::kernel::KValue;

use super::super::dequant::decodes;
use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::strategy::{DispatchShape, Slices, TileDims, TILE_DEPTH};
use super::emitter::Emitter;
use super::point::{root_point, stores};
use super::vector::VectorGroup;

/// The longest loop outside the innermost reduction loop that a deep tile
/// unrolls into it (a convolution's window column).
const MAX_UNROLLED_TAPS: i64 = 4;

/// Emits the tile of the invocation in workgroup `wgi`.
pub(super) fn emit_tile(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    dims: TileDims,
    split: Option<&Slices>,
) -> Result<(), CodegenError> {
    let TileDims { rows, cols, depth } = dims;
    let root = d
        .root
        .ok_or_else(|| e.internal(d.op, Invariant::NoRoot("a register tile")))?;
    let s = e.c.info.structured[&root].clone();
    let wg = i64::from(e.c.strategy.invocations());
    let domain = e.sizes(&shape.points);
    let n = domain.len();
    let (nr, nc) = (domain[n - 2], domain[n - 1]);
    let (loops, sizes) = e.reduction_loops(root, &s);
    let total = e.product(&sizes);
    // Split-K: which block and which slice of the reduction.
    let (wgi, slice) = Slices::block_of(split, e, wgi, total);

    // Which block of rows and columns (and which batch point) this
    // workgroup has.
    let rows_v = e.index(i64::from(rows));
    let span = e.index(wg * i64::from(cols));
    let (r0, c_start, batch_coords) = workgroup_block(e, wgi, &domain, rows_v, span);
    let tid = e.b.thread_id("x");
    // Groups of four adjacent columns per invocation where the tile's
    // columns and the last dimension are multiples of 4: each group is a
    // vector group, so tensors indexed by the column (a matmul's B and C)
    // move as vec4.
    let vector_cols = cols % 4 == 0 && e.known_fours(shape.points[n - 1]);
    let groups = if vector_cols { cols / 4 } else { 0 };
    let c0 = if vector_cols {
        let four = e.index(4);
        let t4 = e.mul(tid, four);
        e.add(c_start, t4)
    } else {
        e.add(c_start, tid)
    };

    let one = e.index(1);
    let last_row = e.sub(nr, one);
    let last_col = e.sub(nc, one);
    // Rows that tiles cover exactly need no clamp (and stay `r0 + i`, so
    // a convolution's pixel coordinates fold; see `add` of the emitter).
    let exact_rows = e.const_of(nr).is_some_and(|r| r % i64::from(rows) == 0);
    let mut row_at = Vec::new();
    for i in 0..rows {
        let off = e.index(i64::from(i));
        let r = e.add(r0, off);
        let clamped = if exact_rows {
            r
        } else {
            e.b.binary(crate::kernel::KOpKind::ArithMinUI, r, last_row)
        };
        let inside = e.lt(r, nr);
        row_at.push((clamped, inside));
    }
    let mut col_at = Vec::new();
    for g in 0..groups {
        // The group's base clamped so that all 4 columns are inside.
        let four = e.index(4);
        let last_base = e.sub(nc, four);
        let off = e.index(4 * i64::from(g) * wg);
        let first = e.add(c0, off);
        let base =
            e.b.binary(crate::kernel::KOpKind::ArithMinUI, first, last_base);
        let inside = e.lt(first, nc);
        let group = VectorGroup::new(e, base);
        col_at.extend((0..4).map(|j| (group.lane(j), inside)));
        e.vector_groups.push(group);
    }
    for j in 0..if vector_cols { 0 } else { cols } {
        let off = e.index(i64::from(j) * wg);
        let c = e.add(c0, off);
        let clamped = e.b.binary(crate::kernel::KOpKind::ArithMinUI, c, last_col);
        let inside = e.lt(c, nc);
        col_at.push((clamped, inside));
    }

    // The tile's points and their root points.
    let mut points = Vec::new();
    for &(r, r_in) in &row_at {
        for &(c, c_in) in &col_at {
            let mut coords = batch_coords.clone();
            coords.extend([r, c]);
            let rp = root_point(e, d, &coords, root)?;
            points.push((coords, rp, r_in, c_in));
        }
    }

    // One loop over the reduction (or the slice) for every point of the
    // tile; a slice folds from the identities.
    let inits = match split {
        Some(sl) => sl.identity_inits(e, root, &s, points.len())?,
        None => {
            let mut inits = Vec::new();
            for (_, rp, _, _) in &points {
                inits.extend(e.inits(root, &s, rp)?);
            }
            inits
        }
    };
    let outs = s.outputs.len();
    // An f16/bf16 output folded by one float op accumulates in f32 and
    // rounds once, after the loop (split-K partials stay unrounded).
    let wide = super::reduce::wide_combiners(e.c.info.m, &s);
    let (begin, end) = match &slice {
        Some(at) => (at.begin, at.end),
        None => (e.index(0), total),
    };
    let root_points: Vec<Vec<KValue>> = points.iter().map(|(_, rp, _, _)| rp.clone()).collect();
    // Unrolled by `depth` where the innermost reduction loop's size is a
    // multiple of it, else by 4 where a multiple of 4: each 4 of its
    // values are a vector group, so an operand indexed last by it (a
    // matmul's A row, a convolution's input channels) is read as vec4.
    // The points still fold their iterations in order: the same results
    // as one step at a time.
    let inner = sizes.last().and_then(|&k| e.const_of(k)).unwrap_or(0);
    let unroll = [depth, 4]
        .into_iter()
        .find(|&u| u > 0 && u % 4 == 0 && inner > 0 && inner % i64::from(u) == 0)
        .unwrap_or(1);
    let step = e.index(i64::from(unroll));
    // One step of the reduction: at each of the outer reduction
    // coordinates `heads` (one, or a convolution's window taps, below),
    // every point folds the step's `unroll` iterations of the innermost
    // loop from `last`.
    let fold = |e: &mut Emitter<'_, '_, '_>,
                unroll: u32,
                heads: &[Vec<KValue>],
                last: KValue,
                accs: &[KValue]| {
        let with_last = |head: &[KValue], l: KValue| {
            let mut c = head.to_vec();
            c.push(l);
            c
        };
        let mut lanes = vec![last];
        let groups = unroll / 4;
        if groups > 0 {
            lanes.clear();
            for g in 0..groups {
                let off = e.index(4 * i64::from(g));
                let base = e.add(last, off);
                let group = VectorGroup::new(e, base);
                lanes.extend((0..4).map(|u| group.lane(u)));
                e.vector_groups.push(group);
            }
        }
        let lane_coords: Vec<Vec<KValue>> = heads
            .iter()
            .flat_map(|h| lanes.iter().map(move |&l| with_last(h, l)))
            .collect();
        // In a deep tile, point by point, each folding the step's
        // iterations in turn: an accumulator is live across its own
        // multiply-adds only, not across the whole tile's (on a CPU
        // device, whose registers do not hold a large tile's
        // accumulators, one reload and one store per point and step
        // instead of per multiply-add). Otherwise iteration by
        // iteration across the tile, each operand value live across
        // one iteration only, as on GPUs: on lavapipe with 4 steps
        // that measured better for a convolution (3.33 ms against 3.74
        // point by point) and an f16 -> f16 matmul 512^3 (50 against
        // 56); only an f32 matmul 1024^3 with 16x16 tiles gained from
        // point by point there (29.9 against 30.6).
        let mut cur: Vec<Vec<KValue>> = accs.chunks(outs.max(1)).map(<[KValue]>::to_vec).collect();
        let at = |rp: &[KValue], rc: &[KValue]| {
            let mut p = rp.to_vec();
            for (i, &l) in loops.iter().enumerate() {
                p[l] = rc[i];
            }
            p
        };
        let wide = wide.as_deref();
        if depth > TILE_DEPTH {
            for (k, rp) in root_points.iter().enumerate() {
                for rc in &lane_coords {
                    cur[k] = e.fold_point(root, &s, wide, &at(rp, rc), &cur[k])?;
                }
            }
        } else {
            for rc in &lane_coords {
                for (k, rp) in root_points.iter().enumerate() {
                    cur[k] = e.fold_point(root, &s, wide, &at(rp, rc), &cur[k])?;
                }
            }
        }
        let cur: Vec<KValue> = cur.concat();
        for _ in 0..groups {
            e.vector_groups.pop();
        }
        Ok(cur)
    };
    // Several static reduction loops (a convolution's kh, kw, c) whose
    // innermost is unrolled: an outer loop over the others and an inner
    // one over the innermost, so the outer coordinates are split out of
    // the iteration once per inner loop, not at every step, and whatever
    // an operand's address takes from them is fixed across the inner
    // loop. The same iterations in the same order (and fewer back-edges
    // than the flat loop without unrolling, which the loop budget counts).
    // A single reduction loop of dynamic length, the whole of it (not a
    // split-K slice), in a tile whose depth is whole groups of 4.
    let dynamic_inner = (sizes.len() == 1 && slice.is_none() && depth % 4 == 0)
        .then(|| e.loop_sizes(root)[loops[0]])
        .filter(|k| k.fixed().is_none());
    let nested = unroll > 1
        && slice.is_none()
        && sizes.len() > 1
        && sizes.iter().all(|&z| e.const_of(z).is_some());
    // In a tile deeper than a GPU's, a small loop just outside the
    // innermost (a convolution's window column kw, up to
    // [`MAX_UNROLLED_TAPS`]) is unrolled into the inner loop too: the
    // tile's row `r` at tap `k` reads the input pixel that row `r + 1`
    // reads at tap `k - 1`, and the emitter's memo table (the pixel
    // coordinates fold to the same value) loads it once for all of them.
    // This folds the taps inside each innermost step, so a point's sum
    // runs in another order than the serial one (as split-K's does).
    let taps = match sizes.len() {
        n if nested && n > 2 && depth > TILE_DEPTH => e
            .const_of(sizes[n - 2])
            .filter(|&w| (2..=MAX_UNROLLED_TAPS).contains(&w))
            .unwrap_or(1),
        _ => 1,
    };
    // A fused decoding of 8- or 32-bit codes (a matmul over quantized
    // weights): its codes and scales read as 16-byte groups (`wide.rs`),
    // within the reduction loops only, as a row-slice matvec reads them.
    e.wide_reads = s.inputs.iter().any(|&v| decodes(e.c.info, v, 32));
    let accs = if nested {
        let n = sizes.len();
        let zero = e.index(0);
        let one = e.index(1);
        let unrolled = if taps > 1 { 2 } else { 1 };
        let outer_total = e.product(&sizes[..n - unrolled]);
        let inner = sizes[n - 1];
        let outer_sizes = sizes[..n - unrolled].to_vec();
        e.for_(zero, outer_total, one, &inits, |e, o, accs| {
            let oc = e.delinearize(o, &outer_sizes);
            let heads: Vec<Vec<KValue>> = if taps > 1 {
                (0..taps)
                    .map(|t| {
                        let mut h = oc.clone();
                        h.push(e.index(t));
                        h
                    })
                    .collect()
            } else {
                vec![oc]
            };
            e.for_(zero, inner, step, accs, |e, r, accs| {
                fold(e, unroll, &heads, r, accs)
            })
        })?
    } else if let Some(k) = dynamic_inner {
        // One reduction loop of dynamic length: unrolled by `depth` (its
        // groups of 4 vector groups) where the length is a multiple of it
        // at run time, step by step otherwise, under one uniform
        // condition.
        let len = sizes[0];
        let dv = e.index(i64::from(depth));
        let zero = e.index(0);
        let one = e.index(1);
        let aligned = e.multiple_of(len, i64::from(depth));
        let tys: Vec<_> = inits.iter().map(|&v| e.b.type_of(v)).collect();
        let inits_else = inits.clone();
        e.if_else(
            aligned,
            &tys,
            |e| {
                // The reduction's groups are whole: operands indexed last
                // by it, of this length, move as vectors.
                e.with_fours(Some(k), |e| {
                    e.for_(zero, len, dv, &inits, |e, r, accs| {
                        fold(e, depth, &[Vec::new()], r, accs)
                    })
                })
            },
            |e| {
                e.for_(zero, len, one, &inits_else, |e, r, accs| {
                    fold(e, 1, &[Vec::new()], r, accs)
                })
            },
        )?
    } else {
        let aligned = slice.is_none() && unroll > 1;
        e.for_(begin, end, step, &inits, |e, r, accs| {
            if aligned {
                // From 0 by `unroll`: the wide reads' coordinates fold.
                e.note_multiple(r, i64::from(unroll));
            }
            let mut rc = e.delinearize(r, &sizes);
            let last = rc.pop().expect("a reduction loop");
            fold(e, unroll, &[rc], last, accs)
        })?
    };
    e.wide_reads = false;

    // Split-K: the partial results of the points inside the domain, no
    // epilogue.
    if let (Some(sl), Some(at)) = (split, &slice) {
        for (k, (coords, _, r_in, c_in)) in points.iter().enumerate() {
            let inside = e.b.binary(crate::kernel::KOpKind::ArithAndI, *r_in, *c_in);
            let mine = &accs[k * outs..(k + 1) * outs];
            e.if_then(inside, |e| {
                sl.store_partials(e, shape, root, at.index, coords, mine);
                Ok(())
            })?;
        }
        for _ in 0..groups {
            e.vector_groups.pop();
        }
        return Ok(());
    }
    // The epilogue and stores of the points inside the domain.
    let accs = match &wide {
        Some(cs) => e.narrow_all(cs, &accs),
        None => accs,
    };
    if vector_cols {
        // A group's 4 columns in a row are inside or outside together: one
        // branch per row and group, its stores written as one vector.
        for (i, four) in points.chunks(4).enumerate() {
            let (r_in, c_in) = (four[0].2, four[0].3);
            let inside = e.b.binary(crate::kernel::KOpKind::ArithAndI, r_in, c_in);
            let row: Vec<(usize, Vec<KValue>)> = four
                .iter()
                .enumerate()
                .map(|(j, p)| (i * 4 + j, p.0.clone()))
                .collect();
            let accs = &accs;
            e.if_then(inside, |e| {
                for (k, coords) in &row {
                    e.prepared_roots
                        .insert(root, accs[k * outs..(k + 1) * outs].to_vec());
                    stores(e, d, coords)?;
                }
                e.flush_vector_stores();
                Ok(())
            })?;
        }
        for _ in 0..groups {
            e.vector_groups.pop();
        }
        return Ok(());
    }
    for (k, (coords, _, r_in, c_in)) in points.into_iter().enumerate() {
        let inside = e.b.binary(crate::kernel::KOpKind::ArithAndI, r_in, c_in);
        let mine = accs[k * outs..(k + 1) * outs].to_vec();
        e.if_then(inside, |e| {
            e.prepared_roots.insert(root, mine);
            stores(e, d, &coords)
        })?;
    }
    Ok(())
}

/// `ceil(a / b)` on indices.
/// The block of `rows` x `cols` outputs (over the last two dimensions of
/// `domain`) that workgroup `wgi` computes: its first row, its first
/// column and its batch coordinates. Row blocks vary fastest, so
/// consecutive workgroups read the same columns of the operand indexed by
/// the columns (a matmul's B strip), which stays in cache between them;
/// then column blocks, then the batch point.
pub(super) fn workgroup_block(
    e: &mut Emitter<'_, '_, '_>,
    wgi: KValue,
    domain: &[KValue],
    rows: KValue,
    cols: KValue,
) -> (KValue, KValue, Vec<KValue>) {
    let n = domain.len();
    let row_blocks = ceil_div(e, domain[n - 2], rows);
    let col_blocks = ceil_div(e, domain[n - 1], cols);
    let rb = e.rem(wgi, row_blocks);
    let rest = e.div(wgi, row_blocks);
    let cb = e.rem(rest, col_blocks);
    let batch = e.div(rest, col_blocks);
    let batch_coords = if n > 2 {
        e.delinearize(batch, &domain[..n - 2])
    } else {
        Vec::new()
    };
    let r0 = e.mul(rb, rows);
    let c0 = e.mul(cb, cols);
    (r0, c0, batch_coords)
}

pub(super) fn ceil_div(e: &mut Emitter<'_, '_, '_>, a: KValue, b: KValue) -> KValue {
    let one = e.index(1);
    let bm1 = e.sub(b, one);
    let s = e.add(a, bm1);
    e.div(s, b)
}
