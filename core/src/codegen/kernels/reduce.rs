//! Roots: a reduction's value at a parallel point — serially in one
//! invocation (optionally one chunk of its iterations per dispatch), or
//! cooperatively by a workgroup (strided partial folds combined through
//! subgroup operations or a workgroup-memory tree). Softmax rows are in
//! [`softmax`](super::softmax).

use crate::kernel::KValue;
use crate::kernel::{GpuAddressSpace, KOpKind, KType, MemRefLayout, MemorySpace};
use crate::tensor::attr::IteratorType;
use crate::tensor::ops::ArithOp;
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::combine::{accumulates_in_f32, scratch_elem, ArgPart, Combiner};
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::strategy::Combine;
use super::emitter::Emitter;
use super::PushValue;

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
    /// values after the iterations of `range`. A chunk of an f16/bf16
    /// reduction that accumulates in f32 ([`wide_combiners`]) returns its
    /// accumulators unrounded (f32, as its scratch holds them between
    /// chunks): the caller rounds them once after the last chunk
    /// ([`narrow_all`](Self::narrow_all)).
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
        let wide = wide_combiners(self.c.info.m, s);
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
                    let elem = scratch_elem(self.c.info.m, s, j);
                    let t = self.load_at(scratch[j], idx, elem);
                    accs.push(self.b.select(first, init, t));
                }
                (b, e, accs)
            }
        };
        let one = self.index(1);
        let point = point.to_vec();
        if let Some(cs) = wide {
            // f16/bf16 folded by one float op: accumulate in f32 from the
            // inits (exact in f32), round once.
            let accs = self.for_(begin, end, one, &acc0, |e, r, accs| {
                let rc = e.delinearize(r, &sizes);
                let mut p = point.clone();
                for (i, &l) in loops.iter().enumerate() {
                    p[l] = rc[i];
                }
                let xs = e.combinable_xs(op, s, &cs, &p)?;
                Ok(e.fold_xs(&cs, accs, &xs))
            })?;
            return Ok(match range {
                SerialRange::Whole => self.narrow_all(&cs, &accs),
                SerialRange::Chunk { .. } => accs,
            });
        }
        self.for_(begin, end, one, &acc0, |e, r, accs| {
            let rc = e.delinearize(r, &sizes);
            let mut p = point.clone();
            for (i, &l) in loops.iter().enumerate() {
                p[l] = rc[i];
            }
            e.body(op, s, &p, Some(accs))
        })
    }

    /// The accumulators `accs` (of one point or of several, each with one
    /// per combiner of `cs`) narrowed back to their element types
    /// ([`narrow`](Self::narrow)).
    pub fn narrow_all(&mut self, cs: &[Combiner], accs: &[KValue]) -> Vec<KValue> {
        accs.iter()
            .enumerate()
            .map(|(k, &v)| self.narrow(v, &cs[k % cs.len()]))
            .collect()
    }

    /// Folds iteration `p` of `op`'s reduction into the accumulators
    /// `accs`: widened ones with the combiners `wide` (see
    /// [`wide_combiners`]), else through the body.
    pub fn fold_point(
        &mut self,
        op: TOp,
        s: &Structured,
        wide: Option<&[Combiner]>,
        p: &[KValue],
        accs: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        match wide {
            Some(cs) => {
                let xs = self.combinable_xs(op, s, cs, p)?;
                Ok(self.fold_xs(cs, accs, &xs))
            }
            None => self.body(op, s, p, Some(accs)),
        }
    }

    /// A widened accumulator `v` of combiner `c` as a partial result kept
    /// in scratch, and the type it is stored as: unrounded f32 where `c`
    /// accumulates in f32 (see [`scratch_elem`]), else narrowed to `c`'s
    /// type.
    pub fn partial_of(&mut self, v: KValue, c: &Combiner) -> (KValue, ElemType) {
        if accumulates_in_f32(c) {
            (v, ElemType::F32)
        } else {
            (self.narrow(v, c), c.elem)
        }
    }

    /// A partial result of combiner `c` stored by
    /// [`partial_of`](Self::partial_of), from element `at` of `buf`.
    pub fn load_partial(&mut self, buf: usize, at: KValue, c: &Combiner) -> KValue {
        let elem = if accumulates_in_f32(c) {
            ElemType::F32
        } else {
            c.elem
        };
        self.load_at(buf, at, elem)
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

    /// Narrows a widened accumulator back (f16/bf16: rounds it, once).
    pub fn narrow(&mut self, v: KValue, c: &Combiner) -> KValue {
        match c.elem {
            ElemType::Int(w) if w < 32 => self.b.cast(KOpKind::ArithTruncI, v, KType::Int(w)),
            ElemType::F16 | ElemType::BF16 if accumulates_in_f32(c) => self.round(v, c.elem),
            _ => v,
        }
    }

    /// The type a combiner accumulates in: i32 for narrower integers, f32
    /// (unrounded: f16/bf16 compute in f32) for f16/bf16 folded by a float
    /// op, so the sum of 4,096 f16 values rounds once, not 4,096 times.
    fn widened_elem(c: &Combiner) -> ElemType {
        match c.elem {
            ElemType::Int(w) if w < 32 => ElemType::I32,
            ElemType::F16 | ElemType::BF16 if accumulates_in_f32(c) => ElemType::F32,
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
    /// gives (unwidened). With `groups` > 0 (`total` a multiple of
    /// `4 * groups`), each step takes the `4 * groups` adjacent iterations
    /// `4 * groups * (base + t * stride) + j` as `groups` vector groups of
    /// 4 in one scope, so a tensor indexed last by the iteration is read
    /// as vec4 and what the step's iterations share (a quantized block's
    /// code group and scale, `wide.rs`) is read once. The rounds every
    /// invocation runs whole have no bounds check; only the last, partial
    /// round checks (and is not emitted where it is statically empty).
    /// With [`loads_first`](Self::loads_first) a step's loads come
    /// before its arithmetic (`schedule.rs`).
    pub fn coop_loop(
        &mut self,
        cs: &[Combiner],
        total: KValue,
        base: KValue,
        stride: KValue,
        groups: u32,
        mut x_at: impl FnMut(&mut Self, KValue) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let acc0 = self.identities(cs);
        let one = self.index(1);
        let unit_n = if groups > 0 { 4 * i64::from(groups) } else { 1 };
        let unit = self.index(unit_n);
        let base = self.mul(base, unit);
        let stride = self.mul(stride, unit);
        let sm1 = self.sub(stride, one);
        let t_end = self.add(total, sm1);
        let t_end = self.div(t_end, stride);
        let zero = self.index(0);
        // Rounds in which every invocation's step is inside:
        // t < (total + unit - stride) / stride, none if total + unit < stride.
        let lim = self.add(total, unit);
        let (t_full, tail) = match (self.const_of(lim), self.const_of(stride)) {
            (Some(l), Some(st)) if st > 0 => {
                let full = if l < st { 0 } else { (l - st) / st };
                let t_full = self.index(full);
                (t_full, self.const_of(t_end) != Some(full))
            }
            _ => {
                let short = self.lt(lim, stride);
                let rest = self.sub(lim, stride);
                let full = self.div(rest, stride);
                (self.b.select(short, zero, full), true)
            }
        };
        let mut step = |e: &mut Self, r: KValue, accs: &[KValue]| {
            if groups == 0 {
                let xs = x_at(e, r)?;
                return Ok(e.fold_xs(cs, accs, &xs));
            }
            let block = e.b.insertion_block();
            let from = e.b.module().block(block).ops.len();
            let mut accs = accs.to_vec();
            for g in 0..groups {
                let r4 = e.add_const(r, 4 * i64::from(g));
                accs = e.fold_group(cs, &accs, r4, &mut x_at)?;
            }
            if e.loads_first {
                e.schedule_loads_first(from, &accs);
            }
            Ok(accs)
        };
        let bulk = self.for_(zero, t_full, one, &acc0, |e, t, accs| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            step(e, r, accs)
        })?;
        if !tail {
            return Ok(bulk);
        }
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
        if cs.iter().all(accumulates_in_f32) {
            // init (op) total in f32, rounded once.
            let out = self.fold_all(cs, inits, totals, true);
            return cs.iter().zip(out).map(|(c, v)| self.narrow(v, c)).collect();
        }
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
}

/// The combiners of `s` when every one accumulates in f32
/// ([`accumulates_in_f32`]): register tiles, serial loops and split
/// partials then carry f32 accumulators and round once at the end.
pub(crate) fn wide_combiners(
    m: &crate::tensor::TensorModule,
    s: &Structured,
) -> Option<Vec<Combiner>> {
    crate::codegen::combine::combiners(m, s).filter(|cs| cs.iter().all(accumulates_in_f32))
}
