//! Stage 2: dispatch-region formation (IREE's flow dispatch regions).
//!
//! Every top-level value of a function gets a [`ValueFate`]; every value
//! that must live in memory and is computed on the device gets a
//! [`DispatchRegion`] that writes it. The rules, applied from the last op
//! to the first (so each op knows how its consumers read it):
//!
//! * scalars are computed on the host ([`ValueFate::Host`]: constants,
//!   `tensor.dim`, arithmetic on those) or, when they depend on tensor
//!   data (`tensor.extract`), inside the kernels that read them
//!   ([`ValueFate::DeviceScalar`]; a returned one gets a dispatch of its
//!   own, and so does a `cf.assert` on one: a one-invocation kernel that
//!   records the assert's fault where its condition is false);
//! * constants with data, dynamic constants and arguments are
//!   [`ValueFate::Source`]s: buffers filled from the host;
//! * reshapes of contiguous data (`tensor.cast`, `collapse_shape`,
//!   `expand_shape`, `util.optimization_barrier`) are views: when their
//!   result must be in memory it is an [`ValueFate::Alias`] of the
//!   operand's buffer, never a copy;
//! * data movement and constant patterns (fill, copy, transpose,
//!   broadcast, slices, pad, concat, splat) are recomputed inside whatever
//!   kernel reads them ([`ValueFate::Inlined`]), except a pad or transpose
//!   of data computed on the device that a convolution or pooling reads:
//!   it is written once by a dispatch of its own (such a reader reads each
//!   element once per window it falls in, and a recomputed pad or
//!   transpose costs a select and strided scalar loads at every read;
//!   `Former::staged_for_window`);
//! * an elementwise op is fused into its consumer when it has one consumer
//!   that reads each of its elements once (the consumer's map is
//!   injective, and the consumer itself runs once per element it
//!   writes); otherwise it is a dispatch of its own; the exception is a
//!   dequantization read by a contraction ([`super::dequant`]), recomputed
//!   at each of its reads so the weights stay in their stored bytes;
//! * a root (reduction loops — reductions, contractions, convolutions,
//!   pooling — or softmax) is a dispatch, unless its one consumer is an
//!   elementwise op reading it through a permutation (a reduction's
//!   directly or through `tensor.cast`s): then it becomes that
//!   consumer's prologue (the consumer is the root's epilogue), at most one
//!   root per dispatch, where the dispatch's kernel reaches that consumer
//!   through structured ops and reshapes ([`super::fused_path`]; not
//!   through an inlined pad, slice or concat, which map no point to one
//!   point of the root); a softmax's epilogue must moreover be a dispatch
//!   of its own reading it and writing through identity maps (the softmax
//!   kernel hands it each element at the softmax's coordinates); a
//!   root other than softmax read several times inside one all-parallel
//!   dispatch (through elementwise ops recomputed where read, as a
//!   convolution's batch norm is read twice by `x * relu6(x + 3)`) is
//!   that dispatch's prologue too when every read is at the same point of
//!   the root and the root's result coordinates are the dispatch's loops
//!   one to one and in order (so each point computes it once, and the
//!   dispatch's tiles are the root's);
//! * a reduction whose every reader is computed in one all-parallel
//!   dispatch, and whose value is the same along that dispatch's rows
//!   (its last loop), joins it as a row root, computed once per row (a
//!   layer norm's sum and sum of squares); elementwise ops between row
//!   roots and the dispatch, and those read only inside a dispatch with
//!   row roots, are recomputed where read; a returned per-row value read
//!   inside the group is written by it once per row (see
//!   [`super::row_group`]);
//! * an op that may fault at some of its points (a gather, a
//!   `tensor.insert` at a run-time index) is a dispatch of its own where
//!   a reader would compute it at only some of them (through a slice, as
//!   an `insert_slice`'s destination; [`super::partial`]), so its faults
//!   are errors wherever they are, as in the reference evaluator;
//! * returned values and tensors captured inside op regions are always in
//!   memory;
//! * a chain of ops computed inside one dispatch is at most
//!   [`MAX_FUSED_CHAIN`] ops deep (the kernel emitter computes a fused
//!   value by walking back through its producers): the op that would
//!   make it deeper is a dispatch of its own, so a chain of any length
//!   compiles to dispatches of bounded depth.
//!
//! A dispatch writes all results of its op ([`DispatchRegion::stored`]),
//! runs at the op's place in program order, and iterates over the op's
//! parallel loops (or its result's shape for `tensor` ops).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::tensor::affine::AffineMap;
use crate::tensor::ops::{ConvKind, LinalgKind, OpKind, TensorOp};
use crate::tensor::{TFunc, TOp, TValue, TensorModule};

use super::analysis::{FuncInfo, OpClass, UseKind};
use super::dequant;
use super::fused_path;
use super::partial;
use super::row_group::{self, RowOutput, RowRoot};

/// What becomes of a top-level value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFate {
    /// A scalar the host computes (at compile time when it can).
    Host,
    /// A scalar computed inside every kernel that reads it.
    DeviceScalar,
    /// Data that arrives in a buffer (arguments, constants).
    Source,
    /// Written to a buffer by dispatch `.0`.
    Stored(usize),
    /// The buffer of another value, seen with this value's shape.
    Alias(TValue),
    /// Computed inside the kernels that read it.
    Inlined,
    /// Never read.
    Dead,
}

/// The op family of a dispatch: what its strategy is chosen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum OpFamily {
    /// Elementwise arithmetic (fused chains included).
    Elementwise,
    /// Data movement: copies, transposes, slices, pads, fills.
    DataMovement,
    /// A reduction (`linalg.reduce`, generic with reduction loops).
    Reduction,
    /// A contraction (matmul family, matvec, vecmat, dot).
    Contraction,
    /// A convolution.
    Convolution,
    /// A pooling.
    Pooling,
    /// `linalg.softmax`.
    Softmax,
    /// Per-row reductions and the row-wise op that reads them, one
    /// dispatch (layer norm, RMS norm; see [`super::row_group`]).
    Normalization,
    /// One scalar written to memory.
    Scalar,
}

impl OpFamily {
    /// The family's name in `--explain` output.
    pub fn name(self) -> &'static str {
        match self {
            OpFamily::Elementwise => "elementwise",
            OpFamily::DataMovement => "data-movement",
            OpFamily::Reduction => "reduction",
            OpFamily::Contraction => "contraction",
            OpFamily::Convolution => "convolution",
            OpFamily::Pooling => "pooling",
            OpFamily::Softmax => "softmax",
            OpFamily::Normalization => "normalization",
            OpFamily::Scalar => "scalar",
        }
    }

    /// Whether the family has a root with reduction loops (or softmax).
    pub fn has_root(self) -> bool {
        matches!(
            self,
            OpFamily::Reduction
                | OpFamily::Contraction
                | OpFamily::Convolution
                | OpFamily::Pooling
                | OpFamily::Softmax
                | OpFamily::Normalization
        )
    }
}

/// One dispatch: the op whose results it writes and what it computes.
#[derive(Clone, Debug)]
pub struct DispatchRegion {
    /// Position among the function's dispatches (their run order).
    pub index: usize,
    /// `<function>_dispatch_<index>`: the kernel's name.
    pub name: String,
    /// The op whose results are written; the dispatch iterates over its
    /// parallel loops (or result shape).
    pub op: TOp,
    /// The values written to buffers.
    pub stored: Vec<TValue>,
    /// The reduction or softmax op computed inside (the op itself, or a
    /// root fused as the op's prologue).
    pub root: Option<TOp>,
    /// The op family.
    pub family: OpFamily,
    /// Reductions computed once per row before the row's points, in
    /// program order ([`OpFamily::Normalization`]; empty otherwise).
    pub row_roots: Vec<RowRoot>,
    /// Per-row values of the row group that live in memory too (returned,
    /// as `native_layer_norm` returns its mean): written once per row,
    /// and computed, not loaded, inside this dispatch.
    pub row_outputs: Vec<RowOutput>,
}

/// The dispatch regions of one function.
#[derive(Clone, Debug)]
pub struct FuncRegions {
    /// The function.
    pub func: TFunc,
    /// Its name.
    pub name: String,
    /// The fate of each top-level value.
    pub fates: HashMap<TValue, ValueFate>,
    /// The dispatches, in run order.
    pub dispatches: Vec<DispatchRegion>,
}

impl FuncRegions {
    /// The fate of `v` (values never looked at are dead).
    pub fn fate(&self, v: TValue) -> ValueFate {
        self.fates.get(&v).copied().unwrap_or(ValueFate::Dead)
    }
}

/// Whether `map` reads each operand element at most once over the
/// iteration space: every loop appears as a bare dim result (other
/// results are constants).
pub fn is_injective(map: &AffineMap) -> bool {
    let mut seen = vec![false; map.num_dims as usize];
    for e in &map.results {
        if let Some(d) = e.as_dim() {
            match seen.get_mut(d as usize) {
                Some(s) if !*s => *s = true,
                _ => return false,
            }
        } else if e.as_const().is_none() {
            return false;
        }
    }
    seen.iter().all(|&s| s)
}

/// Whether `op` is a `linalg.softmax`.
fn is_softmax(info: &FuncInfo<'_>, op: TOp) -> bool {
    matches!(&info.m.op(op).kind, OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. }))
}

/// Whether the body of structured op `op` reads its output argument `j`.
pub fn reads_output(info: &FuncInfo<'_>, op: TOp, j: usize) -> bool {
    let Some(s) = info.structured.get(&op) else {
        return false;
    };
    reads_block_arg(info, s.body, s.inputs.len() + j)
}

/// Whether structured op `op`'s region reads its input `k`: an input whose
/// block argument the region ignores is never loaded, so what computes it
/// is not needed (an out-of-bounds index there is never checked, as the
/// reference evaluator's poison leaves it unobserved).
fn reads_input(info: &FuncInfo<'_>, s: &crate::tensor::structured::Structured, k: usize) -> bool {
    reads_block_arg(info, s.body, k)
}

/// Whether argument `k` of region `body` has a use inside it.
fn reads_block_arg(info: &FuncInfo<'_>, body: crate::tensor::TBlock, k: usize) -> bool {
    let m = info.m;
    let Some(&arg) = m.block(body).args.get(k) else {
        return false;
    };
    let mut read = false;
    m.walk(body, &mut |o| read |= m.op(o).operands.contains(&arg));
    read
}

/// The most ops a chain of producers fused into one dispatch may hold
/// (see the module docs): it bounds the kernel emitter's recursion (a few
/// stack frames per op) and the size of one kernel.
pub const MAX_FUSED_CHAIN: usize = 256;

struct Former<'a, 'm> {
    info: &'a FuncInfo<'m>,
    /// How deep each op computed inside a dispatch sits in its chain of
    /// readers (the dispatch op is 0).
    depth: HashMap<TOp, usize>,
    fates: HashMap<TValue, ValueFate>,
    forced: HashSet<TValue>,
    /// Who reads each value, and whether once per element written.
    reads: HashMap<TValue, Vec<(TOp, bool)>>,
    once: HashMap<TOp, bool>,
    owner: HashMap<TOp, Option<TOp>>,
    has_root: HashSet<TOp>,
    /// Ops that are dispatches (their stored results), in reverse order.
    stored_ops: Vec<(TOp, Option<TOp>)>,
    /// Root attached to an owner op as its prologue.
    attached: HashMap<TOp, TOp>,
    /// Loop sources of the ops computed in a dispatch whose op may hold
    /// a row group (see [`super::row_group`]).
    sources: HashMap<TOp, Vec<Option<usize>>>,
    /// Row roots joined to each dispatch op, in reverse program order.
    row_roots: HashMap<TOp, Vec<RowRoot>>,
    /// Row outputs of each dispatch op, in reverse program order.
    row_outputs: HashMap<TOp, Vec<RowOutput>>,
    /// Elementwise ops that depend on a reduction.
    reaching_roots: HashSet<TOp>,
    /// Ops computed inside a dispatch at only some of their points (see
    /// [`super::partial`]).
    in_part: HashSet<TOp>,
}

/// Forms the dispatch regions of the analysed function.
pub fn form_dispatch_regions(info: &FuncInfo<'_>) -> FuncRegions {
    let mut f = Former {
        info,
        depth: HashMap::new(),
        fates: HashMap::new(),
        forced: HashSet::new(),
        reads: HashMap::new(),
        once: HashMap::new(),
        owner: HashMap::new(),
        has_root: HashSet::new(),
        stored_ops: Vec::new(),
        attached: HashMap::new(),
        sources: HashMap::new(),
        row_roots: HashMap::new(),
        row_outputs: HashMap::new(),
        reaching_roots: row_group::reaching_roots(info),
        in_part: HashSet::new(),
    };
    let m = info.m;
    for (&v, uses) in &info.uses {
        for u in uses {
            let force = match u.kind {
                UseKind::Returned(_) => true,
                UseKind::Captured => info.is_tensor(v),
                UseKind::Operand(_) => false,
            };
            if force {
                f.forced.insert(v);
            }
        }
    }
    // A tensor the host reads an element of is in memory.
    for &op in &info.host_reads {
        f.forced.insert(m.op(op).operands[0]);
    }
    // Arguments.
    for &a in &m.block(info.body).args {
        let fate = if info.is_tensor(a) {
            ValueFate::Source
        } else {
            ValueFate::Host
        };
        f.fates.insert(a, fate);
    }
    for &op in info.ops.iter().rev() {
        f.decide(op);
    }
    // Dispatches in program order.
    f.stored_ops.reverse();
    let fname = m.func(info.func).name.clone();
    let mut dispatches = Vec::new();
    for (op, root) in f.stored_ops.iter().copied() {
        let index = dispatches.len();
        let stored: Vec<TValue> = m
            .op(op)
            .results
            .iter()
            .copied()
            .filter(|r| f.fates.get(r) == Some(&ValueFate::Stored(usize::MAX)))
            .collect();
        for &r in &stored {
            f.fates.insert(r, ValueFate::Stored(index));
        }
        let root = root.or_else(|| f.attached.get(&op).copied());
        let mut row_roots = f.row_roots.remove(&op).unwrap_or_default();
        row_roots.reverse();
        let mut row_outputs = f.row_outputs.remove(&op).unwrap_or_default();
        row_outputs.reverse();
        for o in &row_outputs {
            f.fates.insert(o.value, ValueFate::Stored(index));
        }
        // A dispatch that writes per-row values runs as rows even without
        // row roots (a returned `mean = sum / n` whose sum is a dispatch
        // of its own): only the row-group kernel writes them.
        let family = if row_roots.is_empty() && row_outputs.is_empty() {
            family(info, op, root)
        } else {
            OpFamily::Normalization
        };
        dispatches.push(DispatchRegion {
            index,
            name: format!("{fname}_dispatch_{index}"),
            op,
            stored,
            root,
            family,
            row_roots,
            row_outputs,
        });
    }
    FuncRegions {
        func: info.func,
        name: fname,
        fates: f.fates,
        dispatches,
    }
}

fn family(info: &FuncInfo<'_>, op: TOp, root: Option<TOp>) -> OpFamily {
    let m = info.m;
    if let Some(r) = root {
        if let OpKind::Linalg(l) = &m.op(r).kind {
            return match &l.kind {
                LinalgKind::Softmax { .. } => OpFamily::Softmax,
                LinalgKind::Contraction(_) => OpFamily::Contraction,
                LinalgKind::Conv(c, _) if c.is_pooling() => OpFamily::Pooling,
                LinalgKind::Conv(ConvKind::Conv2dNhwcHwcf, _)
                | LinalgKind::Conv(ConvKind::Conv2dNchwFchw, _)
                | LinalgKind::Conv(ConvKind::DepthwiseConv2dNhwcHwc, _)
                | LinalgKind::Conv(ConvKind::DepthwiseConv2dNchwChw, _)
                | LinalgKind::Conv(ConvKind::Conv1dNcwFcw, _)
                | LinalgKind::Conv(ConvKind::Conv3dNcdhwFcdhw, _) => OpFamily::Convolution,
                _ => OpFamily::Reduction,
            };
        }
    }
    match info.class.get(&op) {
        Some(OpClass::Compute) => OpFamily::Elementwise,
        Some(OpClass::DeviceScalar) => OpFamily::Scalar,
        _ => OpFamily::DataMovement,
    }
}

impl Former<'_, '_> {
    fn record(&mut self, v: TValue, reader: TOp, once: bool) {
        self.reads.entry(v).or_default().push((reader, once));
    }

    /// Whether `v`'s data is needed (a `tensor.dim` or an unread `outs`
    /// operand needs only its shape, which the host knows).
    fn live(&self, v: TValue) -> bool {
        self.forced.contains(&v) || self.reads.get(&v).is_some_and(|r| !r.is_empty())
    }

    /// Whether `v` is read exactly once per element by one reader; that
    /// reader.
    fn single_once_reader(&self, v: TValue) -> Option<TOp> {
        match self.reads.get(&v).map(Vec::as_slice) {
            Some([(reader, true)]) => Some(*reader),
            _ => None,
        }
    }

    /// One more than the deepest reader of `op`'s results (the depth `op`
    /// has when computed inside its readers' dispatch).
    fn reader_depth(&self, op: TOp) -> usize {
        let m = self.info.m;
        m.op(op)
            .results
            .iter()
            .filter_map(|r| self.reads.get(r))
            .flatten()
            .map(|(c, _)| self.depth.get(c).copied().unwrap_or(0))
            .max()
            .unwrap_or(0)
            + 1
    }

    /// Whether `op`, computed inside its readers' dispatch, would be
    /// computed at only some of its points: a reader reads it in part, or
    /// is itself computed in part.
    fn computed_in_part(&self, op: TOp) -> bool {
        self.info.m.op(op).results.iter().any(|&r| {
            self.reads.get(&r).is_some_and(|rs| {
                rs.iter().any(|&(c, _)| {
                    self.in_part.contains(&c) || partial::reads_in_part(self.info, c, r)
                })
            })
        })
    }

    /// Whether `op`, a pad or a transpose of data computed at run time,
    /// is read by a convolution or pooling: such a reader reads each
    /// element many times (once per window position it falls in),
    /// and recomputed there a pad is a bounds select at every read and a
    /// transpose turns its vector loads into strided scalar ones (ocr_cls's
    /// 5x5 depthwise convolutions read through PP-OCR's NCHW pad and
    /// transpose ran at a third of their speed on lavapipe). So it is
    /// written once by a dispatch of its own and the reader reads the
    /// stored result. A transpose or pad of data that arrives in a buffer
    /// (weights, arguments) stays recomputed: staging it would copy it on
    /// every call.
    fn staged_for_window(&self, op: TOp) -> bool {
        let info = self.info;
        let m = info.m;
        let d = m.op(op);
        let costly = match &d.kind {
            OpKind::Tensor(TensorOp::Pad { .. }) => true,
            OpKind::Linalg(l) => matches!(l.kind, LinalgKind::Transpose { .. }),
            _ => false,
        };
        // Data that arrives in a buffer (weights, constants, arguments),
        // seen through other pads, transposes and reshapes, stays
        // recomputed where read: staging it would copy it on every call.
        let mut from_source = true;
        let mut v = d.operands.first().copied();
        for _ in 0..16 {
            let Some(cur) = v else { break };
            match info.value_class(cur) {
                OpClass::Alias | OpClass::Free => {
                    v = info
                        .def_op(cur)
                        .and_then(|p| m.op(p).operands.first().copied());
                }
                OpClass::Source => break,
                _ => {
                    from_source = false;
                    break;
                }
            }
        }
        costly
            && !from_source
            && d.results.iter().any(|r| {
                self.reads.get(r).is_some_and(|rs| {
                    rs.iter().any(|&(c, _)| {
                        info.class.get(&c) == Some(&OpClass::Root)
                            && matches!(
                                family(info, c, Some(c)),
                                OpFamily::Convolution | OpFamily::Pooling
                            )
                    })
                })
            })
    }

    fn owner_of(&self, op: TOp) -> Option<TOp> {
        self.owner.get(&op).copied().flatten()
    }

    fn decide(&mut self, op: TOp) {
        let info = self.info;
        let m = info.m;
        let d = m.op(op);
        let class = info.class[&op];
        match class {
            OpClass::HostScalar => {
                for &r in &d.results {
                    self.fates.insert(r, ValueFate::Host);
                }
            }
            OpClass::DeviceScalar if d.results.is_empty() => {
                // A `cf.assert` on a device scalar: a one-invocation
                // dispatch of its own, at its place in program order.
                self.stored_ops.push((op, None));
                self.owner.insert(op, Some(op));
            }
            OpClass::DeviceScalar => {
                let r = d.results[0];
                let stored = self.forced.contains(&r);
                if stored {
                    self.fates.insert(r, ValueFate::Stored(usize::MAX));
                    self.stored_ops.push((op, None));
                    self.owner.insert(op, Some(op));
                } else {
                    self.fates.insert(r, ValueFate::DeviceScalar);
                    self.owner.insert(op, None);
                }
                for &v in &d.operands {
                    if info.is_tensor(v) {
                        self.record(v, op, false);
                    }
                }
            }
            OpClass::Source => {
                for &r in &d.results {
                    self.fates.insert(r, ValueFate::Source);
                }
            }
            OpClass::Alias => {
                for (i, &r) in d.results.iter().enumerate() {
                    let src = if d.kind == OpKind::OptimizationBarrier {
                        d.operands[i]
                    } else {
                        d.operands[0]
                    };
                    if !info.is_tensor(r) {
                        // A scalar through a barrier: the operand's kind.
                        let fate = self.fates.get(&src).copied().unwrap_or(ValueFate::Host);
                        let fate = match info.value_class(src) {
                            OpClass::DeviceScalar => ValueFate::DeviceScalar,
                            _ if fate == ValueFate::DeviceScalar => fate,
                            _ => ValueFate::Host,
                        };
                        self.fates.insert(r, fate);
                        continue;
                    }
                    if self.forced.contains(&r) {
                        self.fates.insert(r, ValueFate::Alias(src));
                        self.forced.insert(src);
                    } else if self.live(r) {
                        if self.computed_in_part(op) {
                            self.in_part.insert(op);
                        }
                        self.fates.insert(r, ValueFate::Inlined);
                        let depth = self.reader_depth(op);
                        self.depth.insert(op, depth);
                        let reader = self.single_once_reader(r);
                        let once = reader.is_some();
                        self.once.insert(op, once);
                        let owner = reader.and_then(|c| self.owner_of(c));
                        self.owner.insert(op, owner);
                        self.record(src, op, once);
                    } else {
                        self.fates.insert(r, ValueFate::Dead);
                    }
                }
            }
            OpClass::Free | OpClass::Compute | OpClass::Root => self.decide_computed(op, class),
            OpClass::Return => {}
        }
    }

    fn decide_computed(&mut self, op: TOp, class: OpClass) {
        let info = self.info;
        let m = info.m;
        let d = m.op(op);
        if !d.results.iter().any(|&r| self.live(r)) {
            for &r in &d.results {
                self.fates.insert(r, ValueFate::Dead);
            }
            return;
        }
        let mut stored = d.results.len() > 1 || self.forced.contains(&d.results[0]);
        let mut attach_to = None;
        let mut row_host = None;
        if d.results.len() == 1
            && self.forced.contains(&d.results[0])
            && matches!(class, OpClass::Compute | OpClass::Root)
        {
            // A returned per-row value read inside a row group: the group
            // writes it (once per row) instead of a dispatch of its own.
            if let Some((host, src)) = self.row_host(op) {
                let host_loops = info.structured[&host].num_loops();
                if row_group::is_row_value(info, op, &src, host_loops) {
                    let r = d.results[0];
                    self.row_outputs.entry(host).or_default().push(RowOutput {
                        value: r,
                        loops: src.clone(),
                    });
                    self.join_row_group(op, host, src, ValueFate::Stored(usize::MAX));
                    self.record_operand_reads(op);
                    return;
                }
            }
        }
        if !stored {
            let r = d.results[0];
            let reader = self.single_once_reader(r);
            match class {
                OpClass::Free => stored = self.staged_for_window(op),
                OpClass::Compute => {
                    stored = reader.is_none();
                    if stored {
                        row_host = self.row_host(op);
                        stored = row_host.is_none();
                    }
                }
                _ => {
                    // A root: the prologue of its one elementwise consumer
                    // (seen through `tensor.cast`s, which change only what
                    // is known statically of the shape)?
                    let (seen, reader) = self.through_casts(r, reader);
                    attach_to = reader
                        .filter(|&c| self.is_epilogue(seen, c))
                        .filter(|&c| {
                            !is_softmax(info, op) || (seen == r && self.is_softmax_epilogue(r, c))
                        })
                        .and_then(|c| self.owner_of(c))
                        // The owner maps the root's point through its own
                        // loops: a concat's dispatch has none (the root is
                        // stored instead).
                        .filter(|o| info.structured.contains_key(o))
                        .filter(|o| !self.has_root.contains(o) && !self.row_roots.contains_key(o))
                        // The kernel maps the owner's point to the root's
                        // through structured ops only: not through an
                        // inlined pad, slice or concat between them
                        // (tensor_random seeds 7432 and 7796).
                        .filter(|&o| reader.is_some_and(|c| o == c || self.reaches(o, c)));
                    if attach_to.is_none() {
                        // Or a row root of the dispatch that reads it?
                        row_host = self.row_host(op);
                    }
                    if attach_to.is_none() && row_host.is_none() && !is_softmax(info, op) {
                        // Or the prologue of a dispatch whose elementwise
                        // chain reads it several times, each at the point
                        // the dispatch is at (`x * relu6(x + 3)` on a
                        // convolution's `x`)?
                        attach_to = self.multi_read_epilogue(op);
                    }
                    stored = attach_to.is_none() && row_host.is_none();
                }
            }
        }
        if !stored && row_host.is_none() && self.reader_depth(op) > MAX_FUSED_CHAIN {
            // Too deep a chain inside one dispatch: this op starts a new one.
            stored = true;
            attach_to = None;
        }
        let in_part = !stored && self.computed_in_part(op);
        if in_part && partial::may_fault(info, op) {
            // Its faults are errors at every point: it is computed whole.
            stored = true;
            attach_to = None;
            row_host = None;
        } else if in_part {
            self.in_part.insert(op);
        }
        let depth = if stored { 0 } else { self.reader_depth(op) };
        self.depth.insert(op, depth);
        if stored {
            for &r in &d.results {
                let fate = if self.live(r) {
                    ValueFate::Stored(usize::MAX)
                } else {
                    ValueFate::Dead
                };
                self.fates.insert(r, fate);
            }
            let root = (class == OpClass::Root).then_some(op);
            self.stored_ops.push((op, root));
            self.once.insert(op, true);
            self.owner.insert(op, Some(op));
            if root.is_some() {
                self.has_root.insert(op);
            } else if row_group::can_host(info, op) {
                let loops = info.structured[&op].num_loops();
                self.sources.insert(op, (0..loops).map(Some).collect());
            }
        } else if let Some((host, src)) = row_host {
            self.join_row_group(op, host, src, ValueFate::Inlined);
        } else {
            let r = d.results[0];
            self.fates.insert(r, ValueFate::Inlined);
            let reader = self.single_once_reader(r);
            // A prologue runs once per point of its dispatch, which maps
            // one to one onto its own points (`is_epilogue`,
            // `multi_read_epilogue`).
            self.once
                .insert(op, reader.is_some() || attach_to.is_some());
            let owner = reader.and_then(|c| self.owner_of(c)).or(attach_to);
            self.owner.insert(op, owner);
            if let Some(o) = attach_to {
                self.has_root.insert(o);
                self.attached.insert(o, op);
            }
            if let (None, Some(_)) = (reader, attach_to) {
                // A prologue read several times: its sources where its
                // readers agree on them (all its parallel loops).
                if let Some((_, src)) = self.placement_of_result(r, op, 0) {
                    self.sources.insert(op, src);
                }
            }
            if let (Some(c), Some(_)) = (reader, owner) {
                if let Some(src) = self
                    .sources
                    .get(&c)
                    .and_then(|cs| row_group::sources_from_reader(info, c, cs, r, op))
                {
                    self.sources.insert(op, src);
                }
            }
        }
        self.record_operand_reads(op);
    }

    /// The dispatch op that `op` (an unforced reduction or elementwise
    /// op with one result) joins as part of a row group, with `op`'s loop
    /// sources: every reader of its result is computed in that one
    /// dispatch, which may hold a row group and has no prologue root, and
    /// a reduction is a row root there ([`row_group::is_row_root`]) by
    /// the loop sources its readers agree on.
    fn row_host(&self, op: TOp) -> Option<(TOp, Vec<Option<usize>>)> {
        let info = self.info;
        let d = info.m.op(op);
        let [r] = d.results[..] else {
            return None;
        };
        let (host, src) = self.placement_of_result(r, op, 0)?;
        if host == op
            || self.attached.contains_key(&host)
            || !row_group::can_host(info, host)
            || self.owner_of(host) != Some(host)
        {
            return None;
        }
        // An elementwise op joins where it depends on a reduction (a
        // per-row value), or where the dispatch already holds row roots
        // that read it (a layer norm's input computed from two tensors
        // is recomputed by each pass rather than written and read back).
        if info.class.get(&op) == Some(&OpClass::Compute)
            && !self.reaching_roots.contains(&op)
            && !self.row_roots.contains_key(&host)
        {
            return None;
        }
        let host_loops = info.structured[&host].num_loops();
        if info.class.get(&op) == Some(&OpClass::Root)
            && !row_group::is_row_root(info, op, &src, host_loops)
        {
            return None;
        }
        Some((host, src))
    }

    /// The dispatch op whose prologue root `op` (one result, not a
    /// softmax) can be when its result is read more than once inside that
    /// dispatch (an elementwise op between them read twice, as
    /// `x * relu6(x + 3)` reads `x`): every read of it is computed in that
    /// one all-parallel dispatch with no root of its own, and every read
    /// is at the same point of `op`, whose result coordinates are the
    /// dispatch's loops one to one and in the same order (the loop sources
    /// of all readers agree, [`row_group::merge_sources`]). Each dispatch
    /// point then computes `op` once, at the point the kernel derives
    /// along any one of the paths ([`super::kernels`]' `root_point`), and
    /// every read of the result inside the dispatch is that value.
    fn multi_read_epilogue(&self, op: TOp) -> Option<TOp> {
        let info = self.info;
        let s = info.structured.get(&op)?;
        let [r] = info.m.op(op).results[..] else {
            return None;
        };
        let (host, src) = self.placement_of_result(r, op, 0)?;
        if host == op
            || !row_group::can_host(info, host)
            || self.owner_of(host) != Some(host)
            || self.has_root.contains(&host)
            || self.attached.contains_key(&host)
            || self.row_roots.contains_key(&host)
            || self.row_outputs.contains_key(&host)
            || src.len() != s.num_loops()
        {
            return None;
        }
        // The root's result coordinates, in order, are the dispatch's
        // loops in order: the dispatch's strategy tiles its own point
        // space, which is then the root's output space, as when the root
        // is stored. Through a permutation it would tile the root's output
        // in another order (an NHWC depthwise convolution read through a
        // transpose to NCHW, tiled over H x W, reads its input strided:
        // 15x slower per call in PP-OCR's detector than the convolution
        // stored and transposed by a second dispatch), so that root stays
        // a dispatch of its own.
        let host_loops = info.structured[&host].num_loops();
        let out_map = s.indexing_maps.get(s.inputs.len())?;
        let in_order = s.outputs.len() == 1
            && out_map.results.len() == host_loops
            && out_map.results.iter().enumerate().all(|(k, e)| {
                e.as_dim()
                    .is_some_and(|l| src.get(l as usize).copied().flatten() == Some(k))
            });
        // Every parallel loop of the root is one of those coordinates (so
        // each dispatch point computes the root at one point of its own).
        let parallel_covered = s.iterator_types.iter().enumerate().all(|(l, t)| {
            *t != crate::tensor::attr::IteratorType::Parallel
                || out_map.results.iter().any(|e| e.as_dim() == Some(l as u32))
        });
        // And the kernel reaches every reader through structured ops.
        let reached = self
            .reads
            .get(&r)
            .is_some_and(|rs| rs.iter().all(|&(c, _)| c == host || self.reaches(host, c)));
        (in_order && parallel_covered && reached).then_some(host)
    }

    /// Makes `op` (one result, of fate `fate`) a member of the row group
    /// of dispatch op `host` with loop sources `src`: a row root if it
    /// is a reduction.
    fn join_row_group(&mut self, op: TOp, host: TOp, src: Vec<Option<usize>>, fate: ValueFate) {
        let r = self.info.m.op(op).results[0];
        self.fates.insert(r, fate);
        self.once.insert(op, false);
        self.owner.insert(op, Some(host));
        if self.info.class.get(&op) == Some(&OpClass::Root) {
            self.row_roots.entry(host).or_default().push(RowRoot {
                op,
                loops: src.clone(),
            });
        }
        self.sources.insert(op, src);
    }

    /// The dispatch op that computes `c` and `c`'s loop sources there:
    /// its owner, or for an inlined data-movement op read by several ops
    /// (a broadcast of a row value, recomputed by each reader) the one
    /// dispatch all its readers are computed in.
    fn placement(&self, c: TOp, depth: usize) -> Option<(TOp, Vec<Option<usize>>)> {
        if let Some(o) = self.owner_of(c) {
            return Some((o, self.sources.get(&c)?.clone()));
        }
        let info = self.info;
        if info.class.get(&c) != Some(&OpClass::Free) || depth > 8 {
            return None;
        }
        let [r] = info.m.op(c).results[..] else {
            return None;
        };
        if self.fates.get(&r) != Some(&ValueFate::Inlined) {
            return None;
        }
        self.placement_of_result(r, c, depth + 1)
    }

    /// The one dispatch op computing every reader of `r` (a result of
    /// `producer`), and the producer's loop sources there. Where readers
    /// disagree on a loop's source (an elementwise op read at a row's
    /// points and along a reduction), it is unknown.
    fn placement_of_result(
        &self,
        r: TValue,
        producer: TOp,
        depth: usize,
    ) -> Option<(TOp, Vec<Option<usize>>)> {
        let mut out: Option<(TOp, Vec<Option<usize>>)> = None;
        for &(c, _) in self.reads.get(&r)? {
            let (host, cs) = self.placement(c, depth)?;
            let s = row_group::sources_from_reader(self.info, c, &cs, r, producer)?;
            out = Some(match out {
                None => (host, s),
                Some((h, x)) if h == host => (h, row_group::merge_sources(&x, &s)),
                Some(_) => return None,
            });
        }
        out
    }

    /// The value a reader of `r` reads it as, and that value's reader,
    /// seen through `tensor.cast`s computed inside their one reader (a
    /// cast changes only the static shape info, not the data or its
    /// coordinates: the kernels follow it, `kernels/point.rs`): `r` and
    /// `reader` where `reader` is not such a cast. A captured graph
    /// (runtime `ops::capture`) joins op programs of different shape
    /// classes with casts; its roots join their epilogues through them as
    /// in the same program written without casts.
    fn through_casts(&self, mut r: TValue, mut reader: Option<TOp>) -> (TValue, Option<TOp>) {
        let m = self.info.m;
        while let Some(c) = reader {
            let d = m.op(c);
            let &[cast] = d.results.as_slice() else {
                break;
            };
            if d.kind != OpKind::Tensor(TensorOp::Cast)
                || self.fates.get(&cast) != Some(&ValueFate::Inlined)
            {
                break;
            }
            r = cast;
            reader = self.single_once_reader(cast);
        }
        (r, reader)
    }

    /// Whether dispatch op `owner`'s kernel reaches `op`, decided to be
    /// computed inside it, through inlined structured ops and reshapes
    /// ([`fused_path::path_to`]), as it must to compute a prologue root
    /// that `op` reads.
    fn reaches(&self, owner: TOp, op: TOp) -> bool {
        let inlined = |v| self.fates.get(&v) == Some(&ValueFate::Inlined);
        fused_path::path_to(self.info, &inlined, owner, op).is_some()
    }

    /// Whether root result `r` can be the prologue of consumer `c`: `c` is
    /// an all-parallel structured op reading `r` as an input through an
    /// injective map.
    fn is_epilogue(&self, r: TValue, c: TOp) -> bool {
        let info = self.info;
        if !matches!(info.class.get(&c), Some(OpClass::Compute | OpClass::Free)) {
            return false;
        }
        let Some(s) = info.structured.get(&c) else {
            return false;
        };
        if s.outputs.len() != 1 {
            return false;
        }
        s.inputs
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == r)
            .all(|(k, _)| is_injective(&s.indexing_maps[k]))
            && s.inputs.contains(&r)
            && !s.outputs.contains(&r)
    }

    /// Whether consumer `c` can be the epilogue of the softmax whose
    /// result is `r`: the softmax kernel computes its rows in the
    /// softmax's own coordinates and hands each element to the epilogue at
    /// the same point, so `c` must be its dispatch's op (not fused further
    /// into another), all-parallel, read `r` through identity maps and
    /// write its results through identity maps (its loops are then the
    /// softmax's coordinates). Otherwise the softmax is stored and `c`
    /// reads it from memory.
    fn is_softmax_epilogue(&self, r: TValue, c: TOp) -> bool {
        let Some(s) = self.info.structured.get(&c) else {
            return false;
        };
        let rank = self.info.m.value_kind(r).tensor_shape().map(<[_]>::len);
        self.owner_of(c) == Some(c)
            && rank == Some(s.num_loops())
            && s.iterator_types
                .iter()
                .all(|t| *t == crate::tensor::attr::IteratorType::Parallel)
            && s.inputs
                .iter()
                .zip(&s.indexing_maps)
                .filter(|(&v, _)| v == r)
                .all(|(_, map)| map.is_identity())
            && s.indexing_maps[s.inputs.len()..]
                .iter()
                .all(AffineMap::is_identity)
    }

    fn record_operand_reads(&mut self, op: TOp) {
        let info = self.info;
        let m = info.m;
        let d = m.op(op);
        let once = self.once.get(&op).copied().unwrap_or(false);
        if let Some(s) = info.structured.get(&op).cloned() {
            // The same operand read twice through the same map is one read
            // (the kernel computes it once per point).
            let mut seen: Vec<(TValue, &AffineMap)> = Vec::new();
            for (k, &v) in s.inputs.iter().enumerate() {
                let map = &s.indexing_maps[k];
                if info.is_tensor(v) && reads_input(info, &s, k) && !seen.contains(&(v, map)) {
                    seen.push((v, map));
                    let fused = is_injective(map) || dequant::is_fused_dequantization(info, v, op);
                    self.record(v, op, once && fused);
                }
            }
            for (j, &v) in s.outputs.iter().enumerate() {
                if reads_output(info, op, j) {
                    self.record(v, op, once);
                }
            }
            return;
        }
        match &d.kind {
            OpKind::Linalg(_) => {
                // softmax: the input is read several times; the output
                // operand only gives the shape.
                self.record(d.operands[0], op, false);
            }
            OpKind::Tensor(t) => {
                let reads: Vec<TValue> = match t {
                    TensorOp::ExtractSlice { .. } | TensorOp::Pad { .. } => vec![d.operands[0]],
                    TensorOp::InsertSlice { .. } => vec![d.operands[0], d.operands[1]],
                    TensorOp::Insert => vec![d.operands[1]],
                    TensorOp::Concat { .. } => d.operands.clone(),
                    _ => Vec::new(),
                };
                for v in reads {
                    if info.is_tensor(v) {
                        self.record(v, op, once);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Prints the dispatch regions of a function (`kiln opt
/// --form-dispatch-regions`): one block per dispatch with the op it
/// writes, its family, its root and the ops fused into it.
pub fn print_regions(m: &TensorModule, info: &FuncInfo<'_>, r: &FuncRegions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// func @{}: {} dispatch{}",
        r.name,
        r.dispatches.len(),
        if r.dispatches.len() == 1 { "" } else { "es" }
    );
    let describe = |op: TOp| format!("{} at {}", m.op(op).kind.name(), m.op(op).loc);
    for d in &r.dispatches {
        let _ = writeln!(out, "dispatch @{} ({}) {{", d.name, d.family.name());
        let tys: Vec<String> = d
            .stored
            .iter()
            .map(|&v| m.types.text(m.value_type(v)))
            .collect();
        let _ = writeln!(out, "  writes {} : {}", describe(d.op), tys.join(", "));
        if let Some(root) = d.root.filter(|&x| x != d.op) {
            let _ = writeln!(out, "  prologue root {}", describe(root));
        }
        if !d.row_roots.is_empty() {
            let list: Vec<String> = d.row_roots.iter().map(|r| describe(r.op)).collect();
            let _ = writeln!(out, "  row roots {}", list.join(", "));
        }
        for o in &d.row_outputs {
            if let Some(op) = info.def_op(o.value) {
                let ty = m.types.text(m.value_type(o.value));
                let _ = writeln!(out, "  writes per row {} : {ty}", describe(op));
            }
        }
        let fused = fused_ops(info, r, d.op);
        if !fused.is_empty() {
            let list: Vec<String> = fused.iter().map(|&o| describe(o)).collect();
            let _ = writeln!(out, "  fuses {}", list.join(", "));
        }
        let _ = writeln!(out, "}}");
    }
    let aliases: Vec<String> = r
        .fates
        .iter()
        .filter_map(|(&v, f)| match f {
            ValueFate::Alias(_) => info.def_op(v),
            _ => None,
        })
        .map(|op| (info.position.get(&op).copied().unwrap_or(0), op))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .map(describe)
        .collect();
    if !aliases.is_empty() {
        let _ = writeln!(out, "views (no copy): {}", aliases.join(", "));
    }
    out
}

/// The inlined ops computed inside the dispatch writing `op`'s results
/// (a row group's per-row outputs included), in program order.
pub fn fused_ops(info: &FuncInfo<'_>, r: &FuncRegions, op: TOp) -> Vec<TOp> {
    let m = info.m;
    let mut seen = HashSet::new();
    let mut stack = vec![op];
    let mut out = Vec::new();
    let row_outputs = r
        .dispatches
        .iter()
        .filter(|d| d.op == op)
        .flat_map(|d| d.row_outputs.iter().map(|o| o.value))
        .collect::<Vec<_>>();
    while let Some(o) = stack.pop() {
        let mut operands: Vec<TValue> = m.op(o).operands.clone();
        for &reg in &m.op(o).regions {
            m.walk(reg, &mut |inner| {
                operands.extend(m.op(inner).operands.iter().copied())
            });
        }
        for v in operands {
            if !info.is_top_level(v) {
                continue;
            }
            let inline = matches!(r.fate(v), ValueFate::Inlined | ValueFate::DeviceScalar)
                || row_outputs.contains(&v);
            if let (true, Some(def)) = (inline, info.def_op(v)) {
                if seen.insert(def) {
                    out.push(def);
                    stack.push(def);
                }
            }
        }
    }
    out.sort_by_key(|o| info.position.get(o).copied().unwrap_or(0));
    out
}
