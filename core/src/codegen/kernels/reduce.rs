//! Roots: a reduction's value at a parallel point — serially in one
//! invocation (optionally one chunk of its iterations per dispatch), or
//! cooperatively by a workgroup (strided partial folds combined through
//! subgroup operations or a workgroup-memory tree) — and softmax rows.

use crate::kernel::KValue;
use crate::kernel::{GpuAddressSpace, KOpKind, KType, MemRefLayout, MemorySpace};
use crate::tensor::attr::IteratorType;
use crate::tensor::eval::Scalar;
use crate::tensor::ops::ArithOp;
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::combine::{ArgPart, Combiner};
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::strategy::Combine;
use super::emitter::Emitter;
use super::PushValue;

/// What a vec4 softmax loop folds per group: the group's 4 elements'
/// coordinates and the accumulator to the new accumulator.
/// How far a softmax row's elements may pass the reference point of the
/// two-pass normaliser before it moves (`e^16` times 2^32 terms stays far
/// below f32's range).
const SOFTMAX_SLACK: f64 = 16.0;

/// The most vec4 groups of a softmax row one invocation holds in
/// registers (512 floats: a 4,096-long row split over 8 invocations).
const SOFTMAX_RESIDENT_GROUPS: u64 = 128;

type GroupFold<'f, E> =
    dyn FnMut(&mut E, &[Vec<KValue>], &[KValue]) -> Result<Vec<KValue>, CodegenError> + 'f;

/// Where a serial reduction's iterations and first accumulators come from.
pub(crate) enum SerialRange {
    /// All iterations, starting from the `outs` values.
    Whole,
    /// The chunk given by push constants; the first chunk starts from the
    /// `outs` values, later ones from the scratch buffers (one per output).
    Chunk {
        /// The scratch buffers.
        scratch: Vec<usize>,
    },
}

impl Emitter<'_, '_, '_> {
    /// The sizes of `op`'s loops.
    pub fn loop_sizes(&mut self, op: TOp) -> Vec<Size> {
        super::super::strategy::loop_sizes(self.c.info, self.c.shapes, op)
    }

    /// The reduction loops of `s` and their sizes (as indices).
    pub fn reduction_loops(&mut self, op: TOp, s: &Structured) -> (Vec<usize>, Vec<KValue>) {
        let sizes = self.loop_sizes(op);
        let loops: Vec<usize> = (0..s.num_loops())
            .filter(|&l| s.iterator_types[l] == IteratorType::Reduction)
            .collect();
        let ks = loops.iter().map(|&l| self.size(sizes[l])).collect();
        (loops, ks)
    }

    /// The initial values of `op`'s outputs at `point`.
    pub fn inits(
        &mut self,
        op: TOp,
        s: &Structured,
        point: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let n_in = s.inputs.len();
        (0..s.outputs.len())
            .map(|j| self.operand_at(op, s, n_in + j, s.outputs[j], point))
            .collect()
    }

    /// The linear index of output `j` of `op` at `point` in a buffer of
    /// the output's shape.
    pub fn output_index(
        &mut self,
        op: TOp,
        s: &Structured,
        j: usize,
        point: &[KValue],
    ) -> Result<KValue, CodegenError> {
        let n_in = s.inputs.len();
        let map = s.indexing_maps[n_in + j].clone();
        let coords = map
            .results
            .iter()
            .map(|e| self.affine(op, e, point))
            .collect::<Result<Vec<_>, _>>()?;
        let shapes = self.c.shapes;
        let sizes = self.sizes(shapes.of(s.outputs[j]));
        Ok(self.linearize(&coords, &sizes))
    }

    /// A serial reduction of `op` at parallel point `point`: its output
    /// values after the iterations of `range`.
    pub fn serial_root(
        &mut self,
        op: TOp,
        s: &Structured,
        point: &[KValue],
        range: &SerialRange,
    ) -> Result<Vec<KValue>, CodegenError> {
        let (loops, sizes) = self.reduction_loops(op, s);
        let total = self.product(&sizes);
        let inits = self.inits(op, s, point)?;
        let (begin, end, acc0) = match range {
            SerialRange::Whole => (self.index(0), total, inits),
            SerialRange::Chunk { scratch } => {
                let b = self.push(PushValue::ChunkBegin);
                let b = self.b.index_cast(b, KType::Index);
                let e = self.push(PushValue::ChunkEnd);
                let e = self.b.index_cast(e, KType::Index);
                let first = self.push(PushValue::ChunkFirst);
                let zero = self.b.const_int(0, KType::i32());
                let first = self.b.cmpi("ne", first, zero);
                let mut accs = Vec::new();
                for (j, &init) in inits.iter().enumerate() {
                    let idx = self.output_index(op, s, j, point)?;
                    let elem = self.c.info.m.value_kind(s.outputs[j]).elem();
                    let t = self.load_at(scratch[j], idx, elem);
                    accs.push(self.b.select(first, init, t));
                }
                (b, e, accs)
            }
        };
        let one = self.index(1);
        let point = point.to_vec();
        self.for_(begin, end, one, &acc0, |e, r, accs| {
            let rc = e.delinearize(r, &sizes);
            let mut p = point.clone();
            for (i, &l) in loops.iter().enumerate() {
                p[l] = rc[i];
            }
            e.body(op, s, &p, Some(accs))
        })
    }

    /// Widens a narrow integer accumulator to i32 for workgroup combining.
    fn widen(&mut self, v: KValue, c: &Combiner) -> KValue {
        match c.elem {
            ElemType::Int(w) if w < 32 => {
                let k = if c.unsigned() {
                    KOpKind::ArithExtUI
                } else {
                    KOpKind::ArithExtSI
                };
                self.b.cast(k, v, KType::i32())
            }
            _ => v,
        }
    }

    /// Narrows a widened accumulator back.
    pub fn narrow(&mut self, v: KValue, c: &Combiner) -> KValue {
        match c.elem {
            ElemType::Int(w) if w < 32 => self.b.cast(KOpKind::ArithTruncI, v, KType::Int(w)),
            _ => v,
        }
    }

    fn widened_elem(c: &Combiner) -> ElemType {
        match c.elem {
            ElemType::Int(w) if w < 32 => ElemType::I32,
            e => e,
        }
    }

    /// The identities of `cs`, widened.
    pub fn identities(&mut self, cs: &[Combiner]) -> Vec<KValue> {
        cs.iter()
            .map(|c| self.konst(c.identity(), Self::widened_elem(c)))
            .collect()
    }

    /// A strided cooperative fold: invocation iterations `r = base + t *
    /// stride` below `total` (`base < stride`), folding what `x_at(r)`
    /// gives (unwidened). With `groups` (`total` a multiple of 4), each
    /// step takes the 4 adjacent iterations `4 * (base + t * stride) + j`
    /// as a vector group, so a tensor indexed last by the iteration is
    /// read as vec4. The rounds every invocation runs whole have no bounds
    /// check; only the last, partial round checks.
    pub fn coop_loop(
        &mut self,
        cs: &[Combiner],
        total: KValue,
        base: KValue,
        stride: KValue,
        groups: bool,
        mut x_at: impl FnMut(&mut Self, KValue) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let acc0 = self.identities(cs);
        let one = self.index(1);
        let unit = self.index(if groups { 4 } else { 1 });
        let base = self.mul(base, unit);
        let stride = self.mul(stride, unit);
        let sm1 = self.sub(stride, one);
        let t_end = self.add(total, sm1);
        let t_end = self.div(t_end, stride);
        let zero = self.index(0);
        // Rounds in which every invocation's step is inside:
        // t < (total + unit - stride) / stride, none if total + unit < stride.
        let lim = self.add(total, unit);
        let short = self.lt(lim, stride);
        let rest = self.sub(lim, stride);
        let full = self.div(rest, stride);
        let t_full = self.b.select(short, zero, full);
        let mut step = |e: &mut Self, r: KValue, accs: &[KValue]| {
            if groups {
                e.fold_group(cs, accs, r, &mut x_at)
            } else {
                let xs = x_at(e, r)?;
                Ok(e.fold_xs(cs, accs, &xs))
            }
        };
        let bulk = self.for_(zero, t_full, one, &acc0, |e, t, accs| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            step(e, r, accs)
        })?;
        let tys: Vec<KType> = acc0.iter().map(|&v| self.b.type_of(v)).collect();
        self.for_(t_full, t_end, one, &bulk, |e, t, accs| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, total);
            let keep = accs.to_vec();
            let accs = accs.to_vec();
            e.if_else(inside, &tys, |e| step(e, r, &accs), |_| Ok(keep))
        })
    }

    /// Invocation `inv` of `count` folds its own contiguous span of the
    /// `total` iterations (`ceil(total / count)` of them, the last spans
    /// shorter or empty), in groups of 4 read as vec4 with `groups`
    /// (`total` a multiple of 4).
    pub fn span_loop(
        &mut self,
        cs: &[Combiner],
        total: KValue,
        inv: KValue,
        count: KValue,
        groups: bool,
        mut x_at: impl FnMut(&mut Self, KValue) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let acc0 = self.identities(cs);
        let one = self.index(1);
        let unit = self.index(if groups { 4 } else { 1 });
        // In units (groups of 4, or iterations).
        let units = self.div(total, unit);
        let cm1 = self.sub(count, one);
        let span = self.add(units, cm1);
        let span = self.div(span, count);
        let start = self.mul(inv, span);
        let end = self.add(start, span);
        let end = self.b.binary(KOpKind::ArithMinUI, end, units);
        // An empty span: start past the end.
        let start = self.b.binary(KOpKind::ArithMinUI, start, end);
        self.for_(start, end, one, &acc0, |e, q, accs| {
            if groups {
                let four = e.index(4);
                let r4 = e.mul(q, four);
                e.fold_group(cs, accs, r4, &mut x_at)
            } else {
                let xs = x_at(e, q)?;
                Ok(e.fold_xs(cs, accs, &xs))
            }
        })
    }

    /// Folds `xs` (unwidened values, one per combiner) into the widened
    /// `accs`.
    pub(super) fn fold_xs(
        &mut self,
        cs: &[Combiner],
        accs: &[KValue],
        xs: &[KValue],
    ) -> Vec<KValue> {
        let w: Vec<KValue> = cs
            .iter()
            .enumerate()
            .map(|(k, c)| self.widen(xs[k], c))
            .collect();
        self.fold_all(cs, accs, &w, true)
    }

    /// Folds the results `b` into `a`, one per combiner (widened values
    /// with `widened`), an arg-reduction's two together: `b`'s pair
    /// replaces `a`'s where its value is better, or equal with a smaller
    /// index ([`ArgPart`]).
    pub(super) fn fold_all(
        &mut self,
        cs: &[Combiner],
        a: &[KValue],
        b: &[KValue],
        widened: bool,
    ) -> Vec<KValue> {
        let mut out = a.to_vec();
        for (k, c) in cs.iter().enumerate() {
            match c.arg {
                None => {
                    let elem = if widened {
                        Self::widened_elem(c)
                    } else {
                        c.elem
                    };
                    out[k] = self.combine(c.op, a[k], b[k], elem);
                }
                Some(ArgPart::Value { index: j }) => {
                    let better = self.arg_better(c, b[k], a[k]);
                    let eq = self.arg_equal(c, b[k], a[k]);
                    let smaller = self.index_less(&cs[j], b[j], a[j]);
                    let tie = self.b.binary(KOpKind::ArithAndI, eq, smaller);
                    let take = self.b.binary(KOpKind::ArithOrI, better, tie);
                    out[k] = self.b.select(take, b[k], a[k]);
                    out[j] = self.index_select(&cs[j], take, b[j], a[j]);
                }
                Some(ArgPart::Index { .. }) => {}
            }
        }
        out
    }

    /// Whether arg-reduction value `x` is better than `y` (larger for an
    /// argmax, smaller for an argmin; false for a NaN).
    fn arg_better(&mut self, c: &Combiner, x: KValue, y: KValue) -> KValue {
        match c.op {
            ArithOp::MaximumF => self.b.cmpf("ogt", x, y),
            ArithOp::MinimumF => self.b.cmpf("olt", x, y),
            ArithOp::MaxSI => self.b.cmpi("sgt", x, y),
            ArithOp::MinSI => self.b.cmpi("slt", x, y),
            ArithOp::MaxUI => self.b.cmpi("ugt", x, y),
            _ => self.b.cmpi("ult", x, y),
        }
    }

    /// Whether arg-reduction values `x` and `y` are equal.
    fn arg_equal(&mut self, c: &Combiner, x: KValue, y: KValue) -> KValue {
        if c.elem == ElemType::F32 {
            self.b.cmpf("oeq", x, y)
        } else {
            self.b.cmpi("eq", x, y)
        }
    }

    /// Whether index `x` of index combiner `c` is below `y`.
    fn index_less(&mut self, c: &Combiner, x: KValue, y: KValue) -> KValue {
        if self.is_pair(c.elem) {
            self.pair_cmp(crate::tensor::attr::CmpIPred::Slt, x, y)
        } else {
            self.b.cmpi("slt", x, y)
        }
    }

    /// `cond ? x : y` for indices of index combiner `c`.
    fn index_select(&mut self, c: &Combiner, cond: KValue, x: KValue, y: KValue) -> KValue {
        if self.is_pair(c.elem) {
            self.pair_select(cond, x, y)
        } else {
            self.b.select(cond, x, y)
        }
    }

    /// Each combiner's result over the subgroup (every lane gets it): one
    /// `gpu.subgroup_reduce` each; an arg-reduction's value by its
    /// extremum, then its index as the smallest among the lanes holding
    /// that value.
    pub(super) fn subgroup_all(&mut self, cs: &[Combiner], accs: &[KValue]) -> Vec<KValue> {
        let mut out = accs.to_vec();
        for (k, c) in cs.iter().enumerate() {
            match c.arg {
                None => out[k] = self.b.subgroup_reduce(c.subgroup_kind(), accs[k], false),
                Some(ArgPart::Value { index: j }) => {
                    let v = self.b.subgroup_reduce(c.subgroup_kind(), accs[k], false);
                    let holds = self.arg_equal(c, accs[k], v);
                    let none = self.konst(cs[j].identity(), cs[j].elem);
                    let cand = self.index_select(&cs[j], holds, accs[j], none);
                    out[k] = v;
                    out[j] = self.b.subgroup_reduce("minsi", cand, false);
                }
                Some(ArgPart::Index { .. }) => {}
            }
        }
        out
    }

    /// Folds `x_at(r)` for the 4 iterations `r4 + j` into `accs`, in
    /// order, with them a vector group (what is indexed last by them is
    /// read as vec4).
    fn fold_group(
        &mut self,
        cs: &[Combiner],
        accs: &[KValue],
        r4: KValue,
        x_at: &mut impl FnMut(&mut Self, KValue) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let group = super::vector::VectorGroup::new(self, r4);
        let lanes: Vec<KValue> = (0..4).map(|j| group.lane(j)).collect();
        self.vector_groups.push(group);
        let mut out = accs.to_vec();
        let mut result = Ok(());
        for r in lanes {
            match x_at(self, r) {
                Ok(xs) => out = self.fold_xs(cs, &out, &xs),
                Err(err) => {
                    result = Err(err);
                    break;
                }
            }
        }
        self.vector_groups.pop();
        result.map(|()| out)
    }

    fn shared(&mut self, n: u32, ty: KType) -> KValue {
        self.b.alloc(KType::MemRef {
            shape: vec![Some(u64::from(n))],
            elem: Box::new(ty),
            layout: MemRefLayout::Identity,
            space: MemorySpace::Gpu(GpuAddressSpace::Workgroup),
        })
    }

    /// Combines the widened `accs` of each slice of `slice` invocations
    /// (`lane`: the invocation's place in its slice; `slice == wg`: the
    /// whole workgroup) by a tree in workgroup memory, one entry per
    /// invocation and combiner, halving the active lanes of every slice
    /// each step, a barrier after each. Returns the buffers: a slice's
    /// lane 0 entry holds its totals (the other lanes' are partial).
    pub(super) fn slice_tree(
        &mut self,
        cs: &[Combiner],
        accs: &[KValue],
        tid: KValue,
        lane: KValue,
        wg: u32,
        slice: u32,
    ) -> Result<Vec<KValue>, CodegenError> {
        let mut bufs = Vec::new();
        for &a in accs {
            let ty = self.b.type_of(a);
            let buf = self.shared(wg, ty);
            self.b.store(a, buf, &[tid]);
            bufs.push(buf);
        }
        self.b.barrier();
        let mut step = slice / 2;
        while step >= 1 {
            let sv = self.index(i64::from(step));
            let active = self.lt(lane, sv);
            let bufs2 = bufs.clone();
            self.if_then(active, |e| {
                let other = e.add(tid, sv);
                let a: Vec<KValue> = bufs2.iter().map(|&b| e.b.load(b, &[tid])).collect();
                let b: Vec<KValue> = bufs2.iter().map(|&b| e.b.load(b, &[other])).collect();
                let r = e.fold_all(cs, &a, &b, true);
                for (k, &x) in r.iter().enumerate() {
                    e.b.store(x, bufs2[k], &[tid]);
                }
                Ok(())
            })?;
            self.b.barrier();
            step /= 2;
        }
        Ok(bufs)
    }

    pub(super) fn gpu_index(&mut self, kind: KOpKind) -> KValue {
        let op = self.b.op(kind, &[], &[KType::Index], Vec::new());
        self.b.module().op(op).results[0]
    }

    /// Combines each invocation's widened `accs` over the workgroup of
    /// `wg` invocations; every invocation gets the totals.
    pub fn workgroup_reduce(
        &mut self,
        cs: &[Combiner],
        accs: &[KValue],
        how: Combine,
        wg: u32,
    ) -> Result<Vec<KValue>, CodegenError> {
        if wg == 1 {
            return Ok(accs.to_vec());
        }
        let tid = self.b.thread_id("x");
        let mut out = Vec::new();
        match how {
            Combine::OneSubgroup => out = self.subgroup_all(cs, accs),
            Combine::Subgroup => {
                let lane = self.b.lane_id();
                let sgid = self.gpu_index(KOpKind::GpuSubgroupId);
                let nsg = self.gpu_index(KOpKind::GpuNumSubgroups);
                let sums = self.subgroup_all(cs, accs);
                let mut bufs = Vec::new();
                for &s in &sums {
                    let ty = self.b.type_of(s);
                    let buf = self.shared(wg, ty);
                    bufs.push(buf);
                    let zero = self.index(0);
                    let first = self.b.cmpi("eq", lane, zero);
                    self.if_then(first, |e| {
                        e.b.store(s, buf, &[sgid]);
                        Ok(())
                    })?;
                }
                self.b.barrier();
                let zero = self.index(0);
                let one = self.index(1);
                let firsts: Vec<KValue> = bufs.iter().map(|&b| self.b.load(b, &[zero])).collect();
                out = self.for_(one, nsg, one, &firsts, |e, i, acc| {
                    let xs: Vec<KValue> = bufs.iter().map(|&b| e.b.load(b, &[i])).collect();
                    Ok(e.fold_all(cs, acc, &xs, true))
                })?;
                self.b.barrier();
            }
            Combine::WorkgroupTree => {
                let bufs = self.slice_tree(cs, accs, tid, tid, wg, wg)?;
                let zero = self.index(0);
                for &buf in &bufs {
                    out.push(self.b.load(buf, &[zero]));
                }
                self.b.barrier();
            }
        }
        Ok(out)
    }

    /// The final values of a combinable reduction: `init (op) total` per
    /// output (totals widened).
    pub fn finish_combine(
        &mut self,
        cs: &[Combiner],
        inits: &[KValue],
        totals: &[KValue],
    ) -> Vec<KValue> {
        let t: Vec<KValue> = cs
            .iter()
            .enumerate()
            .map(|(k, c)| self.narrow(totals[k], c))
            .collect();
        self.fold_all(cs, inits, &t, false)
    }

    /// The x values (unwidened) of a combinable reduction of `op` at
    /// `point`.
    pub fn combinable_xs(
        &mut self,
        op: TOp,
        s: &Structured,
        cs: &[Combiner],
        point: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let skip: Vec<TOp> = cs.iter().map(|c| c.combine_op).collect();
        let want: Vec<_> = cs.iter().map(|c| c.x).collect();
        let dummies: Vec<KValue> = cs
            .iter()
            .map(|c| self.konst(c.identity(), c.elem))
            .collect();
        self.body_values(op, s, point, Some(&dummies), &skip, &want)
    }

    /// [`combinable_xs`](Self::combinable_xs) of `op` at iteration `r` of
    /// its reduction: `rp` the parallel point, `loops` the reduction
    /// loops and `red` their sizes (`r` linear over them).
    pub fn combinable_xs_at(
        &mut self,
        op: TOp,
        s: &Structured,
        cs: &[Combiner],
        rp: &[KValue],
        (loops, red): (&[usize], &[KValue]),
        r: KValue,
    ) -> Result<Vec<KValue>, CodegenError> {
        let rc = self.delinearize(r, red);
        let mut p = rp.to_vec();
        for (i, &l) in loops.iter().enumerate() {
            p[l] = rc[i];
        }
        self.combinable_xs(op, s, cs, &p)
    }

    // ---- softmax ----------------------------------------------------------

    /// The larger of `a` and `b` for a softmax row's maximum: `maxnumf`
    /// marked `nnan`, which lowers to the bare GLSL `FMax` (one
    /// instruction, not three with the NaN checks). NaN handling cannot
    /// change a softmax: a NaN anywhere in the row makes its sum of
    /// exponentials, and so every output of the row, NaN either way.
    fn softmax_max(&mut self, a: KValue, b: KValue) -> KValue {
        let m = self.combine(ArithOp::MaxNumF, a, b, ElemType::F32);
        self.b.fastmath(m, "nnan");
        m
    }

    /// Pushes the vector group of 4 adjacent elements of a row whose
    /// last coordinate starts at `r4` (the caller pops it) and returns
    /// the 4 elements' coordinates: `coords` with the last one replaced.
    fn push_row_group(&mut self, r4: KValue, coords: &[KValue]) -> Vec<Vec<KValue>> {
        let group = super::vector::VectorGroup::new(self, r4);
        let dim = coords.len() - 1;
        let lanes = (0..4)
            .map(|j| {
                let mut c = coords.to_vec();
                c[dim] = group.lane(j);
                c
            })
            .collect();
        self.vector_groups.push(group);
        lanes
    }

    /// `math.exp` of an f32 value.
    fn exp_f32(&mut self, d: KValue) -> KValue {
        let ex = self
            .b
            .op(KOpKind::MathExp, &[d], &[KType::f32()], Vec::new());
        self.b.module().op(ex).results[0]
    }

    /// One softmax row: `input` and `output` are the op's operand and
    /// result; `coords` the row's coordinates with `dim` left at 0; the
    /// row is split over `wg` invocations (`lane`'s share, `lane` in
    /// `0..wg`) combined with `how` (`wg == 1`: serial, `lane` unused).
    #[allow(clippy::too_many_arguments, reason = "one call site per strategy")]
    pub fn softmax_row(
        &mut self,
        op: TOp,
        input: crate::tensor::TValue,
        output: crate::tensor::TValue,
        dim: usize,
        coords: &[KValue],
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let m = self.c.info.m;
        let elem = m.value_kind(input).elem();
        let shapes = self.c.shapes;
        let row = shapes.of(input)[dim];
        if dim + 1 == coords.len()
            && elem == ElemType::F32
            && matches!(row, Size::Static(k) if k % 4 == 0)
        {
            return self.softmax_row_vec4(op, input, output, coords, (wg, lane), how);
        }
        let n = self.size(row);
        let (base, stride) = if wg == 1 {
            (self.index(0), self.index(1))
        } else {
            (lane, self.index(i64::from(wg)))
        };
        let lowest = match elem {
            ElemType::F16 => -65504.0,
            ElemType::BF16 => -3.389_531_389_251_535_5e38,
            ElemType::F64 => f64::MIN,
            _ => f64::from(f32::MIN),
        };
        let x_at = |e: &mut Self, r: KValue| -> Result<KValue, CodegenError> {
            let mut c = coords.to_vec();
            c[dim] = r;
            e.elem(input, &c)
        };
        let max_c = Combiner::plain(ArithOp::MaxNumF, op, input, elem);
        let sum_c = Combiner::plain(ArithOp::AddF, op, input, elem);
        // Strided loop helper: fold f(r) over this invocation's share.
        let one = self.index(1);
        let sm1 = self.sub(stride, one);
        let t_end = self.add(n, sm1);
        let t_end = self.div(t_end, stride);
        let zero = self.index(0);
        // max
        let low = self.konst(Scalar::Float(lowest), elem);
        let mx = self.for_(zero, t_end, one, &[low], |e, t, acc| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            let keep = acc[0];
            let ty = e.b.type_of(keep);
            e.if_else(
                inside,
                &[ty],
                |e| {
                    let x = x_at(e, r)?;
                    Ok(vec![e.combine(ArithOp::MaxNumF, x, keep, elem)])
                },
                |_| Ok(vec![keep]),
            )
        })?;
        let mx = self.workgroup_reduce(std::slice::from_ref(&max_c), &mx, how, wg)?[0];
        let exp_at = |e: &mut Self, r: KValue| -> Result<KValue, CodegenError> {
            let x = x_at(e, r)?;
            let d = e.combine(ArithOp::SubF, x, mx, elem);
            let ty = e.compute_type(elem);
            let ex = e.b.op(KOpKind::MathExp, &[d], &[ty], Vec::new());
            let ex = e.b.module().op(ex).results[0];
            Ok(e.round(ex, elem))
        };
        let z = self.konst(Scalar::Float(0.0), elem);
        let sum = self.for_(zero, t_end, one, &[z], |e, t, acc| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            let keep = acc[0];
            let ty = e.b.type_of(keep);
            e.if_else(
                inside,
                &[ty],
                |e| {
                    let x = exp_at(e, r)?;
                    Ok(vec![e.combine(ArithOp::AddF, x, keep, elem)])
                },
                |_| Ok(vec![keep]),
            )
        })?;
        let sum = self.workgroup_reduce(std::slice::from_ref(&sum_c), &sum, how, wg)?[0];
        self.for_(zero, t_end, one, &[], |e, t, _| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            e.if_then(inside, |e| {
                let x = exp_at(e, r)?;
                let q = e.combine(ArithOp::DivF, x, sum, elem);
                let mut c = coords.to_vec();
                c[dim] = r;
                e.store(output, &c, q)
            })?;
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// [`softmax_row`](Self::softmax_row) along the last dimension of an
    /// f32 tensor whose rows are a multiple of 4 long: each invocation
    /// takes groups of 4 adjacent elements (a vector group: the row is
    /// read and written as vec4), strided by 4 x the workgroup size, with
    /// no bounds check where the row is a multiple of that.
    ///
    /// Two passes over the row instead of three: the first keeps a
    /// running reference point `m` and the sum `s` of `exp(x - m)`
    /// (the "online" softmax normaliser); the second writes
    /// `exp(x - max) / s`, `s` rescaled once to the row's maximum.
    /// `m` moves to a group's maximum only when that passes it by more
    /// than [`SOFTMAX_SLACK`], rescaling `s` by `exp(m_old - m_new)`: a
    /// row that rises slowly is not rescaled at every group, which would
    /// add an exponential's rounding each time. Split over a workgroup,
    /// the invocations' maxima combine first and each invocation's sum is
    /// rescaled to the row's maximum before the sums combine. The
    /// quotients multiply by the sum's reciprocal (one division per row).
    /// Where the invocation's share is at most
    /// [`SOFTMAX_RESIDENT_GROUPS`] groups with no tail, it is held in
    /// registers instead ([`softmax_row_resident`](Self::softmax_row_resident)).
    #[allow(clippy::too_many_arguments, reason = "the row's description")]
    fn softmax_row_vec4(
        &mut self,
        op: TOp,
        input: crate::tensor::TValue,
        output: crate::tensor::TValue,
        coords: &[KValue],
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let elem = ElemType::F32;
        let dim = coords.len() - 1;
        let shapes = self.c.shapes;
        let Size::Static(len) = shapes.of(input)[dim] else {
            return Err(self.unsupported(op, "internal: a dynamic row in the vec4 softmax"));
        };
        let n = self.index(len as i64);
        let span = 4 * u64::from(wg.max(1));
        let checked = len % span != 0;
        let base = if wg == 1 {
            self.index(0)
        } else {
            let four = self.index(4);
            self.mul(lane, four)
        };
        let stride = self.index(span as i64);
        let t_end = self.index(len.div_ceil(span) as i64);
        let zero = self.index(0);
        let one = self.index(1);
        let combiner = |op_: ArithOp| Combiner::plain(op_, op, input, elem);
        // Folds `f` over this invocation's groups: `f` gets the group's 4
        // elements' coordinates with the group in place.
        let fold = |e: &mut Self,
                    inits: &[KValue],
                    f: &mut GroupFold<'_, Self>|
         -> Result<Vec<KValue>, CodegenError> {
            e.for_(zero, t_end, one, inits, |e, t, acc| {
                let off = e.mul(t, stride);
                let r4 = e.add(base, off);
                let keep = acc.to_vec();
                let tys: Vec<KType> = keep.iter().map(|&v| e.b.type_of(v)).collect();
                let mut body = |e: &mut Self| -> Result<Vec<KValue>, CodegenError> {
                    let lanes = e.push_row_group(r4, coords);
                    let out = f(e, &lanes, &keep);
                    e.vector_groups.pop();
                    out
                };
                if checked {
                    let inside = e.lt(r4, n);
                    let kept = keep.clone();
                    e.if_else(inside, &tys, &mut body, |_| Ok(kept))
                } else {
                    body(e)
                }
            })
        };
        let per_lane = len / span;
        if !checked && per_lane <= SOFTMAX_RESIDENT_GROUPS {
            let share = (base, span, per_lane);
            return self.softmax_row_resident(op, (input, output), coords, share, wg, how);
        }
        let exp = |e: &mut Self, d: KValue| e.exp_f32(d);
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let z = self.konst(Scalar::Float(0.0), elem);
        let slack = self.konst(Scalar::Float(SOFTMAX_SLACK), elem);
        // Pass 1: a running reference point (within `slack` below the
        // maximum so far) and the sum of exponentials relative to it.
        let ms = fold(self, &[low, z, low], &mut |e, lanes, acc| {
            let (m, s, true_max) = (acc[0], acc[1], acc[2]);
            let mut xs = Vec::with_capacity(lanes.len());
            for c in lanes {
                xs.push(e.elem(input, c)?);
            }
            let mut gmax = xs[0];
            for &x in &xs[1..] {
                gmax = e.softmax_max(x, gmax);
            }
            // The reference point moves only when the group's maximum
            // passes it by more than the slack: each rescale costs an
            // exponential and its rounding, and below the slack the
            // terms stay far from overflowing.
            let top = e.combine(ArithOp::AddF, m, slack, elem);
            let raised = e.b.cmpf("ogt", gmax, top);
            let m_new = e.b.select(raised, gmax, m);
            let d = e.combine(ArithOp::SubF, m, m_new, elem);
            let scale = exp(e, d);
            let rescaled = e.combine(ArithOp::MulF, s, scale, elem);
            let mut s_new = e.b.select(raised, rescaled, s);
            for &x in &xs {
                let d = e.combine(ArithOp::SubF, x, m_new, elem);
                let ex = exp(e, d);
                s_new = e.combine(ArithOp::AddF, ex, s_new, elem);
            }
            let true_max = e.softmax_max(gmax, true_max);
            Ok(vec![m_new, s_new, true_max])
        })?;
        let (m_own, s_own, max_own) = (ms[0], ms[1], ms[2]);
        // The quotients are taken against the row's true maximum (the
        // largest ones are then the most accurate, as with three passes):
        // each sum is rescaled to it once.
        let mx = self.workgroup_reduce(&[combiner(ArithOp::MaxNumF)], &[max_own], how, wg)?[0];
        let d = self.combine(ArithOp::SubF, m_own, mx, elem);
        let scale = exp(self, d);
        let s_own = self.combine(ArithOp::MulF, s_own, scale, elem);
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &[s_own], how, wg)?[0];
        // Pass 2: the normalised exponentials.
        let one_f = self.konst(Scalar::Float(1.0), elem);
        let inv = self.combine(ArithOp::DivF, one_f, sum, elem);
        fold(self, &[], &mut |e, lanes, _| {
            for c in lanes {
                let x = e.elem(input, c)?;
                let d = e.combine(ArithOp::SubF, x, mx, elem);
                let ex = exp(e, d);
                let q = e.combine(ArithOp::MulF, ex, inv, elem);
                e.store(output, c, q)?;
            }
            e.flush_vector_stores();
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// [`softmax_row_vec4`](Self::softmax_row_vec4) where this
    /// invocation's share of the row is `groups` vec4 groups at `base +
    /// t * span` (no tail): the share is loaded once and held in
    /// registers (the row is read from memory once, each exponential
    /// computed once). Three steps: the maximum, then the exponentials
    /// and their sum, then the stores of `exp(x - max) * (1 / sum)`. The
    /// maximum and the sum keep one chain per vector lane, so the folds
    /// do not wait on each other.
    fn softmax_row_resident(
        &mut self,
        op: TOp,
        (input, output): (crate::tensor::TValue, crate::tensor::TValue),
        coords: &[KValue],
        (base, span, groups): (KValue, u64, u64),
        wg: u32,
        how: Combine,
    ) -> Result<(), CodegenError> {
        let elem = ElemType::F32;
        let combiner = |op_: ArithOp| Combiner::plain(op_, op, input, elem);
        // The group at `base + t * span`, pushed; its 4 elements'
        // coordinates.
        let group_at = |e: &mut Self, t: u64| -> Vec<Vec<KValue>> {
            let off = e.index((t * span) as i64);
            let r4 = e.add(base, off);
            e.push_row_group(r4, coords)
        };
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let mut maxes = [low; 4];
        let mut xs = Vec::with_capacity(groups as usize * 4);
        for t in 0..groups {
            let lanes = group_at(self, t);
            for (j, c) in lanes.iter().enumerate() {
                let x = self.elem(input, c)?;
                maxes[j] = self.softmax_max(x, maxes[j]);
                xs.push(x);
            }
            self.vector_groups.pop();
        }
        let m01 = self.softmax_max(maxes[0], maxes[1]);
        let m23 = self.softmax_max(maxes[2], maxes[3]);
        let own = self.softmax_max(m01, m23);
        let mx = self.workgroup_reduce(&[combiner(ArithOp::MaxNumF)], &[own], how, wg)?[0];
        let z = self.konst(Scalar::Float(0.0), elem);
        let mut sums = [z; 4];
        let mut exs = Vec::with_capacity(xs.len());
        for (i, &x) in xs.iter().enumerate() {
            let d = self.combine(ArithOp::SubF, x, mx, elem);
            let ex = self.exp_f32(d);
            sums[i % 4] = self.combine(ArithOp::AddF, ex, sums[i % 4], elem);
            exs.push(ex);
        }
        let s01 = self.combine(ArithOp::AddF, sums[0], sums[1], elem);
        let s23 = self.combine(ArithOp::AddF, sums[2], sums[3], elem);
        let own = self.combine(ArithOp::AddF, s01, s23, elem);
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &[own], how, wg)?[0];
        let one = self.konst(Scalar::Float(1.0), elem);
        let inv = self.combine(ArithOp::DivF, one, sum, elem);
        for t in 0..groups {
            let lanes = group_at(self, t);
            for (j, c) in lanes.iter().enumerate() {
                let q = self.combine(ArithOp::MulF, exs[t as usize * 4 + j], inv, elem);
                self.store(output, c, q)?;
            }
            self.flush_vector_stores();
            self.vector_groups.pop();
        }
        Ok(())
    }
}
