//! The path through which a dispatch's kernel reaches an op computed
//! inside it: structured ops whose inputs are inlined results of the next
//! structured op, seen through inlined reshapes (`tensor.cast`,
//! `collapse_shape`, `expand_shape`). The kernels map a dispatch point to
//! its prologue root's point along it (`kernels/point.rs`); dispatch-region
//! formation ([`super::regions`]) attaches a root as a prologue only where
//! such a path exists (an inlined `tensor.pad`, slice or concat between
//! them is not a point-to-point map, so the root is stored instead).

use crate::tensor::attr::IteratorType;
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::{AffineExpr, TOp, TValue};

use super::analysis::{FuncInfo, OpClass};

/// The value an inlined input `v` is a reshaped view of: through
/// `tensor.cast`, `collapse_shape` and `expand_shape` ops whose results are
/// computed in the kernel (`inlined` says which values are; torch-mlir
/// puts them between the matmuls and the elementwise ops of attention),
/// down to the first other value.
pub fn through_reshapes(
    info: &FuncInfo<'_>,
    inlined: &dyn Fn(TValue) -> bool,
    mut v: TValue,
) -> TValue {
    while let Some(p) = info.def_op(v) {
        let reshape = matches!(
            info.m.op(p).kind,
            OpKind::Tensor(
                TensorOp::Cast | TensorOp::CollapseShape { .. } | TensorOp::ExpandShape { .. }
            )
        );
        if !reshape || !inlined(v) {
            break;
        }
        v = info.m.op(p).operands[0];
    }
    v
}

/// The inlined structured ops from `from` down to `to`: `(consumer,
/// input index)` pairs (an input may be a reshaped view of the next op's
/// result); `None` where `to` is not reached that way (`inlined` says
/// which values are computed inside the dispatch). A root other than `to`
/// on the way is not crossed.
pub fn path_to(
    info: &FuncInfo<'_>,
    inlined: &dyn Fn(TValue) -> bool,
    from: TOp,
    to: TOp,
) -> Option<Vec<(TOp, usize)>> {
    let s = info.structured.get(&from)?;
    for (k, &v) in s.inputs.iter().enumerate() {
        let v = through_reshapes(info, inlined, v);
        let Some(p) = info.def_op(v) else { continue };
        if !inlined(v) || !info.structured.contains_key(&p) {
            continue;
        }
        if p == to {
            return Some(vec![(from, k)]);
        }
        if info.class.get(&p) == Some(&OpClass::Root) {
            continue;
        }
        if let Some(mut rest) = path_to(info, inlined, p, to) {
            rest.insert(0, (from, k));
            return Some(rest);
        }
    }
    None
}

/// A coordinate along the path, as the kernels compute it
/// (`kernels/point.rs`): one of the first op's loop coordinates itself, a
/// constant, or anything else. The rules of [`Coord::add`] and friends are
/// the emitter's folds (`kernels/emitter.rs`): where they say a
/// coordinate is a loop's, the kernel's value is that loop's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coord {
    Loop(u32),
    Const(i64),
    Other,
}

impl Coord {
    fn size(s: Option<u64>) -> Coord {
        s.and_then(|n| i64::try_from(n).ok())
            .map_or(Coord::Other, Coord::Const)
    }

    fn add(a: Coord, b: Coord) -> Coord {
        match (a, b) {
            (Coord::Const(x), Coord::Const(y)) => {
                x.checked_add(y).map_or(Coord::Other, Coord::Const)
            }
            (Coord::Const(0), b) => b,
            (a, Coord::Const(0)) => a,
            _ => Coord::Other,
        }
    }

    fn mul(a: Coord, b: Coord) -> Coord {
        match (a, b) {
            (Coord::Const(x), Coord::Const(y)) => {
                x.checked_mul(y).map_or(Coord::Other, Coord::Const)
            }
            (Coord::Const(1), b) => b,
            (a, Coord::Const(1)) => a,
            (Coord::Const(0), _) | (_, Coord::Const(0)) => Coord::Const(0),
            _ => Coord::Other,
        }
    }

    fn div(a: Coord, b: Coord) -> Coord {
        match (a, b) {
            (Coord::Const(x), Coord::Const(y)) if y > 0 && x >= 0 => Coord::Const(x / y),
            (a, Coord::Const(1)) => a,
            _ => Coord::Other,
        }
    }

    fn rem(a: Coord, b: Coord) -> Coord {
        match (a, b) {
            (Coord::Const(x), Coord::Const(y)) if y > 0 && x >= 0 => Coord::Const(x % y),
            (_, Coord::Const(1)) => Coord::Const(0),
            _ => Coord::Other,
        }
    }

    fn affine(e: &AffineExpr, point: &[Coord]) -> Coord {
        match e {
            AffineExpr::Dim(d) => point.get(*d as usize).copied().unwrap_or(Coord::Other),
            AffineExpr::Const(c) => Coord::Const(*c),
            AffineExpr::Add(a, b) => Coord::add(Coord::affine(a, point), Coord::affine(b, point)),
            AffineExpr::Mul(a, b) => Coord::mul(Coord::affine(a, point), Coord::affine(b, point)),
            _ => Coord::Other,
        }
    }
}

/// For each loop of `to`, the loop of `from` whose coordinate it is at
/// the point of `to` that a point of `from` reads along [`path_to`]
/// (`None` where it is a constant or computed from several); `None`
/// where there is no such path or an op on it maps its output otherwise
/// than by loops and constants. A dispatch's workgroup-memory tile needs
/// its block's rows and columns to be the root's (a matmul read through
/// a transpose has them swapped); this is how the strategy knows
/// (`strategy/shape.rs`). Reshapes between the ops keep a coordinate in
/// a group of one non-unit dimension (as the kernels' `regroup` does);
/// `static_size(v, d)` is dimension `d` of tensor `v` where it is static
/// (the dispatch's shapes; `None` where dynamic).
pub fn root_loops_of(
    info: &FuncInfo<'_>,
    static_size: &dyn Fn(TValue, usize) -> Option<u64>,
    inlined: &dyn Fn(TValue) -> bool,
    from: TOp,
    to: TOp,
) -> Option<Vec<Option<u32>>> {
    let s = info.structured.get(&from)?;
    let mut point: Vec<Coord> = s
        .iterator_types
        .iter()
        .enumerate()
        .map(|(l, t)| match t {
            IteratorType::Parallel => Coord::Loop(l as u32),
            IteratorType::Reduction => Coord::Const(0),
        })
        .collect();
    if from != to {
        for (c, k) in path_to(info, inlined, from, to)? {
            let s = info.structured.get(&c)?;
            let coords: Vec<Coord> = s
                .indexing_maps
                .get(k)?
                .results
                .iter()
                .map(|x| Coord::affine(x, &point))
                .collect();
            let v = through_reshapes(info, inlined, s.inputs[k]);
            let coords = reshaped(info, static_size, s.inputs[k], v, coords);
            let p = info.def_op(v)?;
            let sp = info.structured.get(&p)?;
            let map = sp
                .indexing_maps
                .get(sp.inputs.len() + info.result_index(v))?;
            point = vec![Coord::Const(0); sp.num_loops()];
            for (i, x) in map.results.iter().enumerate() {
                if x.as_const().is_some() {
                    continue;
                }
                *point.get_mut(x.as_dim()? as usize)? = *coords.get(i)?;
            }
        }
    }
    Some(
        point
            .into_iter()
            .map(|c| match c {
                Coord::Loop(l) => Some(l),
                _ => None,
            })
            .collect(),
    )
}

/// `coords` of `v` as coordinates of `src` (through the reshapes
/// [`through_reshapes`] crossed), as the kernels' `reshaped_coords`
/// computes them.
fn reshaped(
    info: &FuncInfo<'_>,
    static_size: &dyn Fn(TValue, usize) -> Option<u64>,
    mut v: TValue,
    src: TValue,
    mut coords: Vec<Coord>,
) -> Vec<Coord> {
    let size = |v: TValue, d: u64| Coord::size(static_size(v, d as usize));
    let rank = |v: TValue| info.m.value_kind(v).tensor_shape().map_or(0, <[_]>::len);
    while v != src {
        let Some(p) = info.def_op(v) else { break };
        let u = info.m.op(p).operands[0];
        coords = match &info.m.op(p).kind {
            OpKind::Tensor(TensorOp::Cast) => coords,
            // `coords` in the collapsed `v`: each group delinearizes its
            // coordinate over the expanded dims of `u`.
            OpKind::Tensor(TensorOp::CollapseShape { reassociation }) => {
                let mut out = vec![Coord::Const(0); rank(u)];
                for (i, g) in reassociation.iter().enumerate() {
                    let mut rest = coords.get(i).copied().unwrap_or(Coord::Other);
                    for (j, &d) in g.iter().enumerate().rev() {
                        let c = if j == 0 {
                            rest
                        } else {
                            let s = size(u, d);
                            let c = Coord::rem(rest, s);
                            rest = Coord::div(rest, s);
                            c
                        };
                        if let Some(o) = out.get_mut(d as usize) {
                            *o = c;
                        }
                    }
                }
                out
            }
            // `coords` in the expanded `v`: each group of `u` linearizes
            // its coordinates.
            OpKind::Tensor(TensorOp::ExpandShape { reassociation, .. }) => reassociation
                .iter()
                .map(|g| {
                    let at = |d: u64| coords.get(d as usize).copied().unwrap_or(Coord::Other);
                    if let [one] = g[..] {
                        return at(one);
                    }
                    let mut idx = Coord::Const(0);
                    for (j, &d) in g.iter().enumerate() {
                        if j > 0 {
                            idx = Coord::mul(idx, size(v, d));
                        }
                        idx = Coord::add(idx, at(d));
                    }
                    idx
                })
                .collect(),
            _ => vec![Coord::Other; rank(u)],
        };
        v = u;
    }
    coords
}
