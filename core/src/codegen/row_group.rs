//! Row groups: per-row reductions fused with their row-wise consumer into
//! one dispatch (layer norm, RMS norm, `x - max(x)`, `x / sum(x)` along
//! the last axis), the way `linalg.softmax` is one dispatch.
//!
//! A dispatch whose op is all-parallel over loops `(i_0, .., i_{n-1})`
//! runs as rows: the points that share `i_0 .. i_{n-2}` are one row, the
//! last loop its columns. A reduction ("row root") joins it when every
//! read of its result is computed inside that dispatch and its value is
//! the same across a row: its parallel loops equal the dispatch's first
//! `n - 1` loops, each once, so each row computes each root once and no
//! work is repeated. Elementwise ops read several times inside such a
//! dispatch are recomputed where read instead of stored when they depend
//! on a reduction (a layer norm's `mean = sum / D`: a per-row value, not
//! a tensor worth a dispatch), or when row roots read them (a layer
//! norm's input computed from two tensors, or widened from f16: each
//! pass recomputes it rather than the dispatch before writing it and
//! every pass reading it back). The kernel computes the row
//! roots in program order, cooperatively over the row's invocations,
//! then the row's points (`kernels::row_group`).
//!
//! Which loop of the dispatch each loop of an op computed inside it
//! equals is tracked as "loop sources": `Some(i)` for loop `i` of the
//! dispatch's op, `None` where unknown (a reduction loop, or a coordinate
//! that is not a bare loop). They pass through the indexing maps of
//! every op in between, structured data movement included: a
//! `linalg.broadcast` of a row value read by several ops (the named-op
//! form StableHLO lowers a layer norm to) is placed where its readers
//! are.

use std::collections::HashSet;

use crate::tensor::attr::IteratorType;
use crate::tensor::{TOp, TValue};

use super::analysis::{FuncInfo, OpClass};
use super::combine::combiners;

/// A reduction computed once per row of its dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowRoot {
    /// The reduction op.
    pub op: TOp,
    /// For each of its loops, the dispatch op's loop it equals (every
    /// parallel loop has one; reduction loops are `None`).
    pub loops: Vec<Option<usize>>,
}

/// A per-row value a row group also writes to memory (a layer norm's
/// mean, returned beside the normalised rows): one element per row,
/// written by the row's first invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowOutput {
    /// The value (the one result of a row root or of an elementwise op
    /// in the group).
    pub value: TValue,
    /// Its op's loop sources (see [`RowRoot::loops`]).
    pub loops: Vec<Option<usize>>,
}

/// Whether the one result of structured op `op`, with loop sources `src`
/// in a dispatch of `host_loops` loops, is a per-row value the row group
/// can write: every coordinate of it is a constant or a loop that is one
/// of the dispatch's row loops (all but the last).
pub(super) fn is_row_value(
    info: &FuncInfo<'_>,
    op: TOp,
    src: &[Option<usize>],
    host_loops: usize,
) -> bool {
    let Some(s) = info.structured.get(&op) else {
        return false;
    };
    if s.outputs.len() != 1 {
        return false;
    }
    let Some(map) = s.indexing_maps.get(s.inputs.len()) else {
        return false;
    };
    map.results.iter().all(|e| {
        e.as_const().is_some()
            || e.as_dim()
                .is_some_and(|d| matches!(src.get(d as usize), Some(Some(i)) if i + 1 < host_loops))
    })
}

/// The elementwise (and structured data-movement) ops that depend on a
/// reduction through such ops: the elementwise ones are what a row group
/// may recompute instead of storing.
pub(super) fn reaching_roots(info: &FuncInfo<'_>) -> HashSet<TOp> {
    let m = info.m;
    let mut out = HashSet::new();
    for &op in &info.ops {
        let class = info.class.get(&op);
        if !matches!(class, Some(OpClass::Compute | OpClass::Free))
            || !info.structured.contains_key(&op)
        {
            continue;
        }
        let reaches = m.op(op).operands.iter().any(|&v| {
            info.def_op(v).is_some_and(|p| {
                out.contains(&p)
                    || (info.class.get(&p) == Some(&OpClass::Root)
                        && info.structured.contains_key(&p))
            })
        });
        if reaches {
            out.insert(op);
        }
    }
    out
}

/// Whether `op` may hold a row group: an all-parallel structured op with
/// one output and at least one loop.
pub(super) fn can_host(info: &FuncInfo<'_>, op: TOp) -> bool {
    info.structured.get(&op).is_some_and(|s| {
        s.outputs.len() == 1
            && s.num_loops() >= 1
            && s.iterator_types
                .iter()
                .all(|t| *t == IteratorType::Parallel)
    })
}

/// The loop sources of structured op `producer` seen from one reader
/// `reader` (whose own sources are `reader_src`) reading `v`, one of the
/// producer's results: the reader's maps give `v`'s coordinates, the
/// producer's output map its loops. `None` when the reader is not
/// structured; a loop read at different coordinates through different
/// operands has no source.
pub(super) fn sources_from_reader(
    info: &FuncInfo<'_>,
    reader: TOp,
    reader_src: &[Option<usize>],
    v: TValue,
    producer: TOp,
) -> Option<Vec<Option<usize>>> {
    let rs = info.structured.get(&reader)?;
    let ps = info.structured.get(&producer)?;
    let j = info.result_index(v);
    let out_map = ps.indexing_maps.get(ps.inputs.len() + j)?;
    let mut found: Option<Vec<Option<usize>>> = None;
    for (k, operand) in rs.operands().enumerate() {
        if operand != v {
            continue;
        }
        let map = rs.indexing_maps.get(k)?;
        let coords: Vec<Option<usize>> = map
            .results
            .iter()
            .map(|e| {
                e.as_dim()
                    .and_then(|d| reader_src.get(d as usize).copied().flatten())
            })
            .collect();
        let mut src = vec![None; ps.num_loops()];
        for (t, e) in out_map.results.iter().enumerate() {
            if let (Some(l), Some(&c)) = (e.as_dim(), coords.get(t)) {
                src[l as usize] = c;
            }
        }
        found = Some(match found {
            Some(f) => merge_sources(&f, &src),
            None => src,
        });
    }
    found
}

/// Loop sources seen from two readers: each loop's where they agree,
/// `None` where they do not.
pub(super) fn merge_sources(a: &[Option<usize>], b: &[Option<usize>]) -> Vec<Option<usize>> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if x == y { x } else { None })
        .collect()
}

/// Whether reduction `op`, with loop sources `src` in a dispatch of
/// `host_loops` loops, is a row root there: combinable, one result, and
/// its parallel loops are the host's first `host_loops - 1` loops, each
/// once (so its value is the same along a row and each row computes it
/// once).
pub(super) fn is_row_root(
    info: &FuncInfo<'_>,
    op: TOp,
    src: &[Option<usize>],
    host_loops: usize,
) -> bool {
    let Some(s) = info.structured.get(&op) else {
        return false;
    };
    if s.outputs.len() != 1 || combiners(info.m, s).is_none() || src.len() != s.num_loops() {
        return false;
    }
    let mut covered = vec![false; host_loops.saturating_sub(1)];
    for (l, t) in s.iterator_types.iter().enumerate() {
        if *t != IteratorType::Parallel {
            continue;
        }
        match src[l] {
            Some(i) if i + 1 < host_loops && !covered[i] => covered[i] = true,
            _ => return false,
        }
    }
    covered.iter().all(|&c| c)
}
