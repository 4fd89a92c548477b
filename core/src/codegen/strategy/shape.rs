//! The shape of a dispatch that its strategy is chosen from
//! ([`DispatchShape`]): its points, its reduction, the element types it
//! touches and how its root reads its operands.

use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::combine::combiners;
use super::super::fused_path::root_loops_of;
use super::super::host::Size;
use super::super::regions::{DispatchRegion, FuncRegions, OpFamily, ValueFate};
use super::super::shapes::Shapes;

/// What a strategy is chosen from: the dispatch's iteration space and
/// reduction, and the element types it touches.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchShape {
    /// The op family.
    pub family: OpFamily,
    /// The sizes of the parallel iteration space (the points), without
    /// ordered as [`point_dims`](Self::point_dims) says.
    pub points: Vec<Size>,
    /// Where [`points`](Self::points) are not the dispatch op's parallel
    /// loops in order: the position among them of each point dimension
    /// (the others are unit loops, at coordinate 0; kernels map the
    /// points back). A tile runs over the root's
    /// [`tile_loops`]: a convolution of width 1, `[1, F, H, 1]`, tiles
    /// `F x H`, not `H x 1`; one in NCHW, `[N, F, H, W]`, takes points
    /// `[N, H, F, W]` and tiles `F x W`. Empty where the points are the
    /// loops.
    pub point_dims: Vec<usize>,
    /// Iterations of each point's reduction (the product of the root's
    /// reduction loops; a softmax row's length).
    pub reduction: Option<Size>,
    /// How the reduction folds each output.
    pub fold: Fold,
    /// The element types the dispatch reads and writes.
    pub elems: Vec<ElemType>,
    /// The element types of the root's results: what its reduction
    /// accumulates in (a 16-bit float rounds at every step).
    pub acc_elems: Vec<ElemType>,
    /// What a tile of the root's points shares of its operand loads.
    pub operands: OperandReuse,
    /// Where the tensors the root reads along its reduction have it.
    pub reduction_reads: ReductionReads,
    /// The element types of a plain matmul (a `linalg.matmul` alone, its
    /// operands in memory) or of a convolution read as an implicit GEMM
    /// (see [`super::plain_matmul`]), which may use cooperative matrices.
    pub coop_matmul: Option<super::MatmulTypes>,
    /// How the root streams rows along its one reduction loop, where it
    /// does (see `matvec::row_stream`).
    pub row_stream: Option<RowStream>,
    /// Passes over each row of a row-wise dispatch: 3 for softmax (max,
    /// sum of exponentials, normalisation), a row group's row roots plus
    /// one (a layer norm: 3); 0 for other families.
    pub row_passes: u64,
}

/// How a reduction folds each output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// With one associative op (see `combine::combiners`): its partial
    /// results may be combined in any order, across invocations and
    /// workgroups.
    Combinable,
    /// Otherwise (or no reduction): in order, by one invocation.
    Serial,
}

/// What the points of a register tile share of the root's operand loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandReuse {
    /// Nothing: every tensor the root reads is indexed by both of its
    /// last two parallel loops (a pooling window, a row sum), or there are
    /// fewer than two.
    None,
    /// A tensor the root reads is the same for several points of a
    /// register tile: its indexing map leaves out one of the root's last
    /// two parallel loops (a matmul's A and B, a convolution's input and
    /// filter).
    Tile,
    /// As [`OperandReuse::Tile`], and the root is matmul-like for
    /// workgroup-memory tiles: it has a reduction, and tensor inputs read
    /// along it that leave out the last parallel loop (a matmul's A) and
    /// the one before it (its B).
    Staged,
}

impl OperandReuse {
    /// Whether a register tile's points share loads.
    pub fn tile_shares_loads(self) -> bool {
        self != OperandReuse::None
    }

    /// Whether workgroup-memory tiles may stage both operands.
    pub fn stages_operands(self) -> bool {
        self == OperandReuse::Staged
    }
}

/// Where the tensors the root reads along its reduction have it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReductionReads {
    /// Every one in its last (contiguous) dimension: a row sum's rows, a
    /// layer norm's. Consecutive invocations of one output's workgroup
    /// then read consecutive elements.
    Innermost,
    /// Otherwise (a column sum), or none is read along it.
    Strided,
}

/// How a root with one reduction loop streams rows: an input that every
/// point reads its own row of, contiguous along the reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStream {
    /// With a vector read along the reduction (matrix x vector).
    WithVector,
    /// Its one input alone (a row sum, a row maximum); row slices take
    /// it where the device is a CPU.
    Alone,
}

impl DispatchShape {
    /// The number of points, when static.
    pub fn static_points(&self) -> Option<u64> {
        self.points
            .iter()
            .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?))
    }
}

/// The sizes of `op`'s loops (structured ops).
pub fn loop_sizes(info: &FuncInfo<'_>, shapes: &Shapes, op: TOp) -> Vec<Size> {
    let Some(s) = info.structured.get(&op) else {
        return Vec::new();
    };
    let operands: Vec<TValue> = s.operands().collect();
    s.loop_sources()
        .iter()
        .map(|src| {
            src.and_then(|(k, r)| shapes.of(operands[k]).get(r).copied())
                .unwrap_or(Size::Static(0))
        })
        .collect()
}

/// The parallel loops of a structured op (of loop sizes `sizes`) that a
/// tile of its points runs over, in order, the last two its rows and
/// columns: all of them, without the static unit ones where two others
/// remain (a tile shares nothing along a unit loop); and where the last
/// two do not split the tensor inputs (`is_tensor(k)`) as a matmul's rows
/// and columns do (an input read along one and not the other, another
/// the reverse) and an input reads the columns through a window (with a
/// reduction loop that is not a unit one), the latest loop that does
/// with the last one moved just before it: a convolution in NCHW, whose
/// output height and width only its input reads, tiles filters x output
/// columns (`[n, oh, f, ow]`), as the same convolution in NHWC does.
/// Lavapipe (5 runs, load 14 on 2 cores): a 3x3 convolution 1x96x26x42
/// by 24x96x3x3 took 2.2 and 2.5 s with 16x4 tiles over its output's
/// height and width, 0.83 and 0.84 s over filters x width; a 1x1
/// convolution (no window: its input moves as vec4 along the width)
/// 1x480x6x80 by 480x480x1x1 0.24 s over height and width, 0.82 s
/// over filters x width, so it keeps them.
pub fn tile_loops(s: &Structured, sizes: &[Size], is_tensor: impl Fn(usize) -> bool) -> Vec<u32> {
    let mut parallel: Vec<u32> = (0..s.num_loops() as u32)
        .filter(|&l| s.iterator_types[l as usize] == crate::tensor::attr::IteratorType::Parallel)
        .collect();
    let unit = |l: &u32| sizes.get(*l as usize) == Some(&Size::Static(1));
    if parallel.iter().filter(|l| !unit(l)).count() >= 2 {
        parallel.retain(|l| !unit(l));
    }
    let uses = |k: usize, l: u32| s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l));
    let only =
        |a: u32, b: u32| (0..s.inputs.len()).any(|k| is_tensor(k) && uses(k, a) && !uses(k, b));
    let split = |r: u32, c: u32| only(r, c) && only(c, r);
    let windowed = |c: u32| {
        (0..s.inputs.len()).any(|k| {
            is_tensor(k)
                && s.indexing_maps[k].results.iter().any(|e| {
                    e.uses_dim(c)
                        && (0..s.num_loops() as u32).any(|l| {
                            s.iterator_types[l as usize]
                                == crate::tensor::attr::IteratorType::Reduction
                                && !unit(&l)
                                && e.uses_dim(l)
                        })
                })
        })
    };
    if let [.., r, c] = parallel[..] {
        let n = parallel.len();
        if !split(r, c) && windowed(c) {
            if let Some(i) = parallel[..n - 2].iter().rposition(|&x| split(x, c)) {
                let x = parallel.remove(i);
                parallel.insert(n - 2, x);
            }
        }
    }
    parallel
}

/// The iterations of `op`'s reduction: the product of its reduction
/// loops' sizes (1 for none).
pub fn reduction_total(info: &FuncInfo<'_>, shapes: &mut Shapes, op: TOp) -> Size {
    let Some(s) = info.structured.get(&op) else {
        return Size::Static(1);
    };
    let red: Vec<Size> = s
        .iterator_types
        .iter()
        .zip(loop_sizes(info, shapes, op))
        .filter(|(t, _)| **t == crate::tensor::attr::IteratorType::Reduction)
        .map(|(_, s)| s)
        .collect();
    shapes.host.product(&red)
}

/// The shape of dispatch `d`.
pub fn dispatch_shape(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    shapes: &mut Shapes,
    d: &DispatchRegion,
) -> DispatchShape {
    let m = info.m;
    // A softmax root's dispatch runs over the softmax's rows, also where
    // an elementwise epilogue is the dispatch's op.
    let op = match d.root {
        Some(r) if matches!(&m.op(r).kind, OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. })) => {
            r
        }
        _ => d.op,
    };
    let mut points: Vec<Size> = match (&m.op(op).kind, info.structured.get(&op)) {
        (OpKind::Linalg(l), _) if matches!(l.kind, LinalgKind::Softmax { .. }) => {
            let LinalgKind::Softmax { dimension } = l.kind else {
                unreachable!()
            };
            let sh = shapes.of(m.op(op).results[0]);
            sh.iter()
                .enumerate()
                .filter(|(i, _)| *i as u64 != dimension)
                .map(|(_, &s)| s)
                .collect()
        }
        (_, Some(s)) => {
            let sizes = loop_sizes(info, shapes, op);
            s.iterator_types
                .iter()
                .zip(sizes)
                .filter(|(t, _)| **t == crate::tensor::attr::IteratorType::Parallel)
                .map(|(_, s)| s)
                .collect()
        }
        _ => m
            .op(op)
            .results
            .first()
            .map(|&r| shapes.of(r).to_vec())
            .unwrap_or_default(),
    };
    let mut reduction = None;
    let mut combinable = false;
    let mut row_passes = 0;
    if d.family == OpFamily::Normalization {
        // Rows: the points without the last loop, which each row runs,
        // as long as the longest of the row and the row roots'
        // reductions (for the loop budget; they are the row's length in a
        // layer norm).
        reduction = points.pop();
        for rr in &d.row_roots {
            let total = reduction_total(info, shapes, rr.op);
            if let (Some(Size::Static(a)), Size::Static(b)) = (reduction, total) {
                reduction = Some(Size::Static(a.max(b)));
            }
        }
        combinable = true;
        row_passes = d.row_roots.len() as u64 + 1;
    }
    let mut tile_shares_loads = false;
    let mut stages_operands = false;
    let mut reduction_innermost = false;
    let mut row_stream = None;
    // The root's tile loops (`tile_loops`).
    let mut root_tile = None;
    if let Some(s) = d.root.and_then(|r| info.structured.get(&r)) {
        let sizes = d
            .root
            .map(|r| loop_sizes(info, shapes, r))
            .unwrap_or_default();
        let rows = super::matvec::row_stream(s, |k| m.value_kind(s.inputs[k]).is_tensor(), &sizes);
        row_stream = rows.map(|with_vector| {
            if with_vector {
                RowStream::WithVector
            } else {
                RowStream::Alone
            }
        });
        let is_reduction =
            |l: u32| s.iterator_types[l as usize] == crate::tensor::attr::IteratorType::Reduction;
        let mut reading = s
            .inputs
            .iter()
            .enumerate()
            .filter(|&(k, &v)| {
                m.value_kind(v).is_tensor()
                    && (0..s.num_loops() as u32).any(|l| {
                        is_reduction(l) && s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l))
                    })
            })
            .map(|(k, _)| k)
            .peekable();
        reduction_innermost = reading.peek().is_some()
            && reading.all(|k| {
                s.indexing_maps[k].results.last().is_some_and(|e| {
                    (0..s.num_loops() as u32).any(|l| is_reduction(l) && e.uses_dim(l))
                })
            });
        let parallel = tile_loops(s, &sizes, |k| m.value_kind(s.inputs[k]).is_tensor());
        root_tile = Some(parallel.clone());
        if let [.., rows, cols] = parallel[..] {
            tile_shares_loads = s.inputs.iter().enumerate().any(|(k, &v)| {
                let uses = |l| s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l));
                m.value_kind(v).is_tensor() && (!uses(rows) || !uses(cols))
            });
            let reductions: Vec<u32> = (0..s.num_loops() as u32)
                .filter(|l| !parallel.contains(l))
                .collect();
            let side = |leaves_out: u32, keeps: u32| {
                s.inputs.iter().enumerate().any(|(k, &v)| {
                    let uses = |l| s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l));
                    m.value_kind(v).is_tensor()
                        && uses(keeps)
                        && !uses(leaves_out)
                        && reductions.iter().any(|&r| uses(r))
                })
            };
            stages_operands = !reductions.is_empty() && side(cols, rows) && side(rows, cols);
        }
    }
    if let Some(root) = d.root {
        match &m.op(root).kind {
            OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. }) => {
                let LinalgKind::Softmax { dimension } = l.kind else {
                    unreachable!()
                };
                reduction = shapes
                    .of(m.op(root).results[0])
                    .get(dimension as usize)
                    .copied();
                row_passes = 3;
            }
            _ => {
                if let Some(s) = info.structured.get(&root) {
                    reduction = Some(reduction_total(info, shapes, root));
                    combinable = combiners(m, s).is_some();
                }
            }
        }
    }
    let mut operands = match (stages_operands, tile_shares_loads) {
        (true, _) => OperandReuse::Staged,
        (false, true) => OperandReuse::Tile,
        (false, false) => OperandReuse::None,
    };
    // Where each of the root's loops is one of the dispatch op's parallel
    // loops, at a dispatch point (`fused_path::root_loops_of`): the
    // position of that loop among the op's parallel loops.
    let root_at: Option<Vec<Option<usize>>> = d.root.and_then(|root| {
        let inlined = |v| regions.fate(v) == ValueFate::Inlined;
        let static_size = |v, i: usize| match shapes.of(v).get(i) {
            Some(&Size::Static(n)) => Some(n),
            _ => None,
        };
        let loops = root_loops_of(info, &static_size, &inlined, d.op, root)?;
        let s = info.structured.get(&d.op)?;
        let dpar: Vec<u32> = (0..s.num_loops() as u32)
            .filter(|&l| {
                s.iterator_types[l as usize] == crate::tensor::attr::IteratorType::Parallel
            })
            .collect();
        Some(
            loops
                .into_iter()
                .map(|l| l.and_then(|l| dpar.iter().position(|&x| x == l)))
                .collect(),
        )
    });
    // A tile over the root's tile loops (`tile_loops`): the points follow
    // them where each is one of the dispatch op's loops at a point (the
    // root itself, an elementwise epilogue, a transpose of the root: its
    // loops in another order) and the op's other loops are unit ones, and
    // they differ from the points in order, or the last two points hold
    // a unit dimension; otherwise the points only leave out unit
    // dimensions where the last two hold one. The kernels map the points
    // back (`kernels/point.rs`).
    let mut point_dims = Vec::new();
    let structured_points =
        op == d.op && !matches!(d.family, OpFamily::Normalization | OpFamily::Softmax);
    let unit = |s: &Size| *s == Size::Static(1);
    let n = points.len();
    let unit_last = n >= 2 && points[n - 2..].iter().any(unit);
    if let (true, true, Some(order), Some(at)) = (
        structured_points && info.structured.contains_key(&op),
        operands.tile_shares_loads(),
        &root_tile,
        &root_at,
    ) {
        let dims: Option<Vec<usize>> = order
            .iter()
            .map(|&l| at.get(l as usize).copied().flatten())
            .collect();
        let follows = dims.filter(|dims| {
            let distinct = dims.iter().enumerate().all(|(i, x)| !dims[..i].contains(x));
            let rest_unit = (0..n).all(|i| dims.contains(&i) || unit(&points[i]));
            distinct && rest_unit
        });
        if let Some(dims) = follows {
            if unit_last || !dims.windows(2).all(|w| w[0] < w[1]) {
                point_dims = dims;
            }
        } else if unit_last && points.iter().filter(|s| !unit(s)).count() >= 2 {
            point_dims = (0..n).filter(|&i| !unit(&points[i])).collect();
        }
    }
    if !point_dims.is_empty() {
        points = point_dims.iter().map(|&i| points[i]).collect();
    }
    // A workgroup-memory tile's block runs over the last two points, which
    // must then be the root's last two tile loops (a matmul's rows and
    // columns); where they are not, the register tile shares the loads.
    if operands == OperandReuse::Staged {
        let at_point = |i: usize| point_dims.get(i).copied().unwrap_or(i);
        let follows = match (&root_tile, &root_at, points.len()) {
            (Some(order), Some(at), n) if n >= 2 && order.len() >= 2 => {
                let (lr, lc) = (order[order.len() - 2], order[order.len() - 1]);
                at.get(lr as usize) == Some(&Some(at_point(n - 2)))
                    && at.get(lc as usize) == Some(&Some(at_point(n - 1)))
            }
            _ => false,
        };
        if !follows {
            operands = OperandReuse::Tile;
        }
    }
    // Element types touched: the stored values, the root's and the op's
    // operands (what the kernel reads comes from these).
    let mut elems = Vec::new();
    let mut add = |e: ElemType| {
        if !elems.contains(&e) {
            elems.push(e);
        }
    };
    for v in d
        .stored
        .iter()
        .chain(d.row_outputs.iter().map(|o| &o.value))
    {
        add(m.value_kind(*v).elem());
    }
    let row_roots = d.row_roots.iter().map(|r| Some(r.op));
    for op in [Some(d.op), d.root].into_iter().chain(row_roots).flatten() {
        for &v in &m.op(op).operands {
            if m.value_kind(v).is_tensor() {
                add(m.value_kind(v).elem());
            }
        }
    }
    for f in super::super::regions::fused_ops(info, regions, d.op) {
        for &v in m.op(f).operands.iter().chain(&m.op(f).results) {
            if m.value_kind(v).is_tensor() && !matches!(regions.fate(v), ValueFate::Dead) {
                add(m.value_kind(v).elem());
            }
        }
    }
    let acc_elems = d
        .root
        .map(|r| {
            m.op(r)
                .results
                .iter()
                .map(|&v| m.value_kind(v).elem())
                .collect()
        })
        .unwrap_or_default();
    DispatchShape {
        family: d.family,
        points,
        point_dims,
        reduction,
        fold: if combinable {
            Fold::Combinable
        } else {
            Fold::Serial
        },
        elems,
        acc_elems,
        operands,
        reduction_reads: if reduction_innermost {
            ReductionReads::Innermost
        } else {
            ReductionReads::Strided
        },
        coop_matmul: super::plain_matmul(info, regions, d),
        row_stream,
        row_passes,
    }
}
