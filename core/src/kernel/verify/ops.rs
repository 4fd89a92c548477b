//! Per-op rules of the kernel verifier for the computational ops: operand
//! and result counts and types, and attributes. The families of `form` are
//! checked by family ([`Verifier::check_rules`]), every other op by its own
//! checker ([`Verifier::check_special`] lists them all); `memref` and
//! `vector` checkers are in `memref.rs` and `vector.rs`, structural ops,
//! symbols and `scf` regions in `structure.rs`.
//!
//! Match arms first check counts (reporting a mismatch) and only then look
//! at types; writing those reporting checks as match guards would hide
//! the error reporting in the pattern, so `collapsible_match` is allowed.
#![allow(clippy::collapsible_match)]

use super::Verifier;
use crate::kernel::entity::{KOp, KRegion, KValue};
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::parse::ops::{
    bool_like, family_ops, form, Form, CMPF_PREDICATES, CMPI_PREDICATES, REDUCE_OPS, SHUFFLE_MODES,
};
use crate::kernel::print::type_to_string;
use crate::kernel::types::KType;

/// Integer, index, or a vector of integers.
pub(super) fn int_like(t: &KType) -> bool {
    matches!(t.scalar(), KType::Int(_) | KType::Index)
}

/// A float or a vector of floats.
pub(super) fn float_like(t: &KType) -> bool {
    matches!(t.scalar(), KType::Float(_))
}

fn same_shape(a: &KType, b: &KType) -> bool {
    match (a, b) {
        (KType::Vector { shape: x, .. }, KType::Vector { shape: y, .. }) => x == y,
        (KType::Vector { .. }, _) | (_, KType::Vector { .. }) => false,
        _ => true,
    }
}

pub(super) fn bit_width(t: &KType) -> Option<u64> {
    match t {
        KType::Int(w) => Some(*w as u64),
        KType::Float(f) => Some(f.bits() as u64),
        KType::Vector { shape, elem } => Some(shape.iter().product::<u64>() * bit_width(elem)?),
        _ => None,
    }
}

pub(super) fn ts(t: &KType) -> String {
    type_to_string(t)
}

pub(super) fn rank(t: &KType) -> Option<usize> {
    match t {
        KType::MemRef { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

impl Verifier<'_> {
    pub(super) fn ty(&self, v: KValue) -> &KType {
        self.m.value_type(v)
    }

    pub(super) fn tys(&self, vs: &[KValue]) -> Vec<KType> {
        vs.iter().map(|&v| self.ty(v).clone()).collect()
    }

    /// Checks counts; reports and returns `false` on a mismatch.
    pub(super) fn counts(
        &mut self,
        op: KOp,
        operands: Option<usize>,
        results: usize,
        regions: usize,
    ) -> bool {
        let d = self.m.op(op);
        let (no, nr, ng) = (d.operands.len(), d.results.len(), d.regions.len());
        let mut ok = true;
        if let Some(n) = operands {
            if no != n {
                self.error(op, format!("expects {n} operands, has {no}"));
                ok = false;
            }
        }
        if nr != results {
            self.error(op, format!("expects {results} results, has {nr}"));
            ok = false;
        }
        if ng != regions {
            self.error(op, format!("expects {regions} regions, has {ng}"));
            ok = false;
        }
        ok
    }

    pub(super) fn enum_in(&mut self, op: KOp, name: &str, allowed: &[&str]) {
        match self.attr(op, name) {
            Some(KAttr::Enum(e)) if allowed.contains(&e.as_str()) => {}
            Some(KAttr::Enum(e)) => {
                let e = e.clone();
                self.error(op, format!("has invalid '{name}' value '{e}'"))
            }
            _ => self.error(op, format!("needs the '{name}' attribute")),
        }
    }

    pub(super) fn all_index(&mut self, op: KOp, vals: &[KValue], what: &str) {
        if vals.iter().any(|&v| *self.ty(v) != KType::Index) {
            self.error(op, format!("{what} must be of type index"));
        }
    }

    /// The terminator of the single block of `region`, checking there is
    /// exactly one block ending in `want`.
    pub(super) fn terminator(&mut self, op: KOp, region: KRegion, want: KOpKind) -> Option<KOp> {
        let blocks = &self.m.region(region).blocks;
        if blocks.len() != 1 {
            let n = blocks.len();
            self.error(op, format!("expects a region with one block, found {n}"));
            return None;
        }
        let last = self.m.block(blocks[0]).ops.last().copied();
        match last {
            Some(t) if self.m.op(t).kind == want => Some(t),
            _ => {
                self.error(op, format!("region must end with '{}'", want.name()));
                None
            }
        }
    }

    pub(super) fn block_arg_types(&self, region: KRegion) -> Option<Vec<KType>> {
        let b = *self.m.region(region).blocks.first()?;
        Some(self.tys(&self.m.block(b).args))
    }

    /// Every op-specific rule.
    pub(super) fn check_rules(&mut self, op: KOp) {
        let d = self.m.op(op).clone();
        let kind = d.kind;
        let ops = &d.operands;
        match form(kind) {
            Form::Binary => {
                if self.counts(op, Some(2), 1, 0) {
                    let t = self.ty(d.results[0]).clone();
                    if self.tys(ops).iter().any(|o| *o != t) {
                        self.error(op, "operands and result must have the same type");
                    }
                    let float_op = kind.name().ends_with('f')
                        || matches!(
                            kind,
                            KOpKind::MathPowF | KOpKind::MathAtan2 | KOpKind::MathCopySign
                        )
                        || matches!(kind, KOpKind::ArithMaximumF | KOpKind::ArithMinimumF);
                    if float_op && !float_like(&t) {
                        self.error(op, format!("expects float operands, got {}", ts(&t)));
                    } else if !float_op && !int_like(&t) {
                        self.error(op, format!("expects integer operands, got {}", ts(&t)));
                    }
                }
                return;
            }
            Form::Unary | Form::Ternary => {
                let n = if form(kind) == Form::Unary { 1 } else { 3 };
                if self.counts(op, Some(n), 1, 0) {
                    let t = self.ty(d.results[0]).clone();
                    if self.tys(ops).iter().any(|o| *o != t) {
                        self.error(op, "operands and result must have the same type");
                    }
                    let int_op = matches!(
                        kind,
                        KOpKind::MathAbsI
                            | KOpKind::MathCtlz
                            | KOpKind::MathCttz
                            | KOpKind::MathCtpop
                    );
                    if int_op && !int_like(&t) {
                        self.error(op, format!("expects integer operands, got {}", ts(&t)));
                    } else if !int_op && !float_like(&t) {
                        self.error(op, format!("expects float operands, got {}", ts(&t)));
                    }
                }
                return;
            }
            Form::Cast => {
                if self.counts(op, Some(1), 1, 0) {
                    let from = self.ty(ops[0]).clone();
                    let to = self.ty(d.results[0]).clone();
                    self.check_cast(op, kind, &from, &to);
                }
                return;
            }
            Form::IndexBinary => {
                if self.counts(op, Some(2), 1, 0) {
                    let all: Vec<KValue> = ops.iter().chain(&d.results).copied().collect();
                    self.all_index(op, &all, "operands and result");
                }
                return;
            }
            Form::Dim => {
                if self.counts(op, Some(0), 1, 0) {
                    self.all_index(op, &d.results, "the result");
                    self.enum_in(op, "dimension", &["x", "y", "z"]);
                }
                return;
            }
            Form::Special => {}
        }
        self.check_special(op, &d);
    }

    fn check_cast(&mut self, op: KOp, kind: KOpKind, from: &KType, to: &KType) {
        use KOpKind::*;
        let (fs, tsc) = (from.scalar(), to.scalar());
        let bad = |v: &mut Self, why: &str| {
            v.error(op, format!("cannot cast {} to {}: {why}", ts(from), ts(to)))
        };
        if !matches!(kind, MemRefCast | VectorBroadcast | VectorBitcast) && !same_shape(from, to) {
            return bad(self, "shapes differ");
        }
        let width = |t: &KType| bit_width(t).unwrap_or(0);
        match kind {
            ArithExtSI | ArithExtUI | ArithTruncI => match (fs, tsc) {
                (KType::Int(a), KType::Int(b)) => {
                    let ok = if kind == ArithTruncI { b < a } else { b > a };
                    if !ok {
                        bad(self, "the width must change in the op's direction")
                    }
                }
                _ => bad(self, "expects integers"),
            },
            ArithExtF | ArithTruncF => match (fs, tsc) {
                (KType::Float(a), KType::Float(b)) => {
                    let ok = if kind == ArithTruncF {
                        b.bits() < a.bits()
                    } else {
                        b.bits() > a.bits()
                    };
                    if !ok {
                        bad(self, "the width must change in the op's direction")
                    }
                }
                _ => bad(self, "expects floats"),
            },
            ArithSIToFP | ArithUIToFP => {
                if !matches!((fs, tsc), (KType::Int(_), KType::Float(_))) {
                    bad(self, "expects integer to float")
                }
            }
            ArithFPToSI | ArithFPToUI => {
                if !matches!((fs, tsc), (KType::Float(_), KType::Int(_))) {
                    bad(self, "expects float to integer")
                }
            }
            ArithIndexCast | ArithIndexCastUI | IndexCastS | IndexCastU => match (fs, tsc) {
                (KType::Index, KType::Int(_)) | (KType::Int(_), KType::Index) => {}
                (KType::Index, KType::Index) if !matches!(kind, IndexCastS | IndexCastU) => {}
                _ => bad(self, "expects index to integer or integer to index"),
            },
            ArithBitcast | VectorBitcast => {
                if width(from) != width(to) || width(from) == 0 {
                    bad(self, "bit widths differ")
                }
                if kind == VectorBitcast
                    && !(matches!(from, KType::Vector { .. }) && matches!(to, KType::Vector { .. }))
                {
                    bad(self, "expects vectors")
                }
            }
            MemRefCast => match (from.memref_elem(), to.memref_elem()) {
                (Some(a), Some(b)) if a == b => {}
                _ => bad(self, "expects memrefs of one element type"),
            },
            VectorBroadcast => match to {
                KType::Vector { elem, .. } if from == &**elem || from == to => {}
                _ => bad(self, "expects a scalar to a vector of it"),
            },
            _ => {}
        }
    }

    /// The rules of each op of [`Form::Special`]: one checker per op (or per
    /// family of ops checked alike). Every op is listed, so that a new op
    /// fails to compile until it is given its rules here.
    fn check_special(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        match d.kind {
            BuiltinModule => {
                self.counts(op, Some(0), 0, 1);
            }
            GpuModule => self.check_gpu_module(op),
            GpuFunc | FuncFunc => self.check_func(op, d),
            GpuReturn | FuncReturn => self.check_return(op, d),
            FuncCall => self.check_call(op, d),
            GpuLaunchFunc => self.check_launch(op, d),
            SpirvOp => self.check_spirv_op(op, d),
            ArithConstant => self.check_constant(op, d),
            IndexConstant => self.check_index_constant(op, d),
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                self.check_extended(op, d)
            }
            ArithCmpI | ArithCmpF | IndexCmp => self.check_cmp(op, d),
            ArithSelect => self.check_select(op, d),
            GpuLaneId | GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups => {
                self.check_subgroup_query(op, d)
            }
            GpuBarrier => {
                self.counts(op, Some(0), 0, 0);
            }
            GpuShuffle => self.check_shuffle(op, d),
            GpuSubgroupReduce => self.check_subgroup_reduce(op, d),
            GpuSubgroupMmaLoadMatrix | GpuSubgroupMmaStoreMatrix => self.check_mma_access(op, d),
            GpuSubgroupMmaCompute => self.check_mma_compute(op, d),
            GpuSubgroupMmaConstantMatrix => self.check_mma_constant(op, d),
            ScfYield | ScfCondition => self.check_scf_terminator(op, d),
            ScfFor => self.check_for(op, d),
            ScfIf => self.check_if(op, d),
            ScfWhile => self.check_while(op, d),
            MemRefLoad | MemRefStore | VectorLoad | VectorStore => self.check_access(op, d),
            MemRefAlloc | MemRefAlloca => self.check_alloc(op, d),
            MemRefDealloc => self.check_dealloc(op, d),
            MemRefDim => self.check_memref_dim(op, d),
            MemRefSubView => self.check_subview(op, d),
            VectorExtract | VectorInsert => self.check_extract_insert(op, d),
            VectorExtractElement | VectorInsertElement => self.check_vector_element(op, d),
            VectorSplat => self.check_splat(op, d),
            VectorShuffle => self.check_shuffle_mask(op, d),
            VectorInterleave => self.check_interleave(op, d),
            VectorDeinterleave => self.check_deinterleave(op, d),
            VectorReduction => self.check_reduction(op, d),
            // Checked by `check_rules` through their family.
            family_ops!() => {}
        }
    }

    /// `gpu.module`: one region and a `sym_name`.
    fn check_gpu_module(&mut self, op: KOp) {
        self.counts(op, Some(0), 0, 1);
        if !matches!(self.attr(op, "sym_name"), Some(KAttr::String(_))) {
            self.error(op, "needs a 'sym_name'");
        }
    }

    /// `gpu.return` / `func.return`: the terminator of its function, with its
    /// result types.
    fn check_return(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        let ops = &d.operands;
        self.counts(op, None, 0, 0);
        let want = if d.kind == GpuReturn {
            GpuFunc
        } else {
            FuncFunc
        };
        let parent = self.m.parent_op(op);
        match parent.map(|p| (p, self.m.op(p).kind)) {
            Some((p, k)) if k == want => {
                if let Some(KAttr::Type(KType::Function { results, .. })) =
                    self.attr(p, "function_type")
                {
                    if *results != self.tys(ops) {
                        self.error(op, "operand types must match the function's result types");
                    }
                }
            }
            _ => self.error(op, format!("must be the terminator of a '{}'", want.name())),
        }
    }

    /// A SPIR-V dialect op: its text, inside a `gpu.func`.
    fn check_spirv_op(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        self.counts(op, None, d.results.len(), 0);
        if !matches!(self.attr(op, "op"), Some(KAttr::String(_))) {
            self.error(op, "needs its SPIR-V text in the 'op' attribute");
        }
        let mut parent = self.m.parent_op(op);
        while let Some(p) = parent {
            if matches!(self.m.op(p).kind, GpuFunc | FuncFunc) {
                break;
            }
            parent = self.m.parent_op(p);
        }
        if parent.map(|p| self.m.op(p).kind) != Some(GpuFunc) {
            self.error(
                op,
                "SPIR-V dialect ops are accepted only inside a 'gpu.func'",
            );
        }
    }

    /// `arith.constant`: a typed value of the result type.
    fn check_constant(&mut self, op: KOp, d: &KOpData) {
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(0), 1, 0) {
            let ty = match self.attr(op, "value") {
                Some(
                    KAttr::Int { ty, .. }
                    | KAttr::Float { ty, .. }
                    | KAttr::DenseInts { ty, .. }
                    | KAttr::DenseFloats { ty, .. },
                ) => Some(ty.clone()),
                _ => None,
            };
            match ty {
                Some(t) if t == res_tys[0] => {}
                Some(t) => self.error(
                    op,
                    format!(
                        "value of type {} for a result of type {}",
                        ts(&t),
                        ts(&res_tys[0])
                    ),
                ),
                None => self.error(op, "needs a typed 'value' attribute"),
            }
        }
    }

    /// `index.constant`: an integer value, an index result.
    fn check_index_constant(&mut self, op: KOp, d: &KOpData) {
        if self.counts(op, Some(0), 1, 0) {
            self.all_index(op, &d.results, "the result");
            if !matches!(self.attr(op, "value"), Some(KAttr::Int { .. })) {
                self.error(op, "needs an integer 'value'");
            }
        }
    }

    /// `arith.addui_extended` / `mului_extended` / `mulsi_extended`.
    fn check_extended(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(2), 2, 0) {
            let t = self.ty(ops[0]).clone();
            let second = if d.kind == ArithAddUIExtended {
                bool_like(&t)
            } else {
                t.clone()
            };
            if *self.ty(ops[1]) != t || res_tys[0] != t || res_tys[1] != second || !int_like(&t) {
                self.error(
                    op,
                    format!(
                        "expects integer operands of one type T and results (T, {})",
                        if d.kind == ArithAddUIExtended {
                            "i1 of T's shape"
                        } else {
                            "T"
                        }
                    ),
                );
            }
        }
    }

    /// `arith.cmpi` / `arith.cmpf` / `index.cmp`: operands of one type, `i1` of
    /// their shape, a valid predicate.
    fn check_cmp(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(2), 1, 0) {
            let t = self.ty(ops[0]).clone();
            if *self.ty(ops[1]) != t {
                self.error(op, "operands must have the same type");
            }
            if res_tys[0] != bool_like(&t) {
                self.error(op, format!("result must be {}", ts(&bool_like(&t))));
            }
            match d.kind {
                ArithCmpI => {
                    if !int_like(&t) {
                        self.error(op, "expects integer or index operands");
                    }
                    self.enum_in(op, "predicate", &CMPI_PREDICATES);
                }
                ArithCmpF => {
                    if !float_like(&t) {
                        self.error(op, "expects float operands");
                    }
                    self.enum_in(op, "predicate", &CMPF_PREDICATES);
                }
                _ => {
                    self.all_index(op, ops, "operands");
                    self.enum_in(op, "pred", &CMPI_PREDICATES);
                }
            }
        }
    }

    /// `arith.select`: one type for both choices and the result; an `i1`
    /// condition (or `i1` of the choices' shape).
    fn check_select(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(3), 1, 0) {
            let c = self.ty(ops[0]).clone();
            let t = self.ty(ops[1]).clone();
            if *self.ty(ops[2]) != t || res_tys[0] != t {
                self.error(op, "both choices and the result must have one type");
            }
            if c != KType::bool() && c != bool_like(&t) {
                self.error(op, "the condition must be i1 or i1 of the choices' shape");
            }
        }
    }

    /// `gpu.lane_id` / `subgroup_id` / `subgroup_size` / `num_subgroups`: an
    /// index result.
    fn check_subgroup_query(&mut self, op: KOp, d: &KOpData) {
        if self.counts(op, Some(0), 1, 0) {
            self.all_index(op, &d.results, "the result");
        }
    }

    /// `gpu.shuffle`: `i32` offset and width, results of the value's type and
    /// `i1`, a valid mode.
    fn check_shuffle(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(3), 2, 0) {
            let t = self.ty(ops[0]).clone();
            if *self.ty(ops[1]) != KType::i32() || *self.ty(ops[2]) != KType::i32() {
                self.error(op, "offset and width must be i32");
            }
            if res_tys[0] != t || res_tys[1] != KType::bool() {
                self.error(op, "results must be the value's type and i1");
            }
            self.enum_in(op, "mode", &SHUFFLE_MODES);
        }
    }

    /// `gpu.subgroup_reduce`: the operand's type, a reduction that applies
    /// to it.
    fn check_subgroup_reduce(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(1), 1, 0) {
            let t = self.ty(ops[0]).clone();
            if res_tys[0] != t {
                self.error(op, "result must have the operand's type");
            }
            self.enum_in(op, "op", &REDUCE_OPS);
            if let Some(KAttr::Enum(o)) = self.attr(op, "op") {
                let float_op = o.ends_with('f');
                let bitwise = matches!(o.as_str(), "and" | "or" | "xor");
                if (float_op && !float_like(&t)) || ((bitwise || o.ends_with('i')) && !int_like(&t))
                {
                    let o = o.clone();
                    self.error(op, format!("reduction '{o}' does not apply to {}", ts(&t)));
                }
            }
        }
    }
}
