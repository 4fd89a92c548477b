//! Per-op rules of the kernel verifier for the computational ops: operand
//! and result counts and types, and attributes (structural ops, symbols and
//! `scf` regions are in `structure.rs`).
//!
//! Match arms first check counts (reporting a mismatch) and only then look
//! at types; writing those reporting checks as match guards would hide
//! the error reporting in the pattern, so `collapsible_match` is allowed.
#![allow(clippy::collapsible_match)]

use super::Verifier;
use crate::kernel::entity::{KOp, KRegion, KValue};
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::parse::ops::{
    bool_like, form, Form, CMPF_PREDICATES, CMPI_PREDICATES, REDUCE_OPS, SHUFFLE_MODES,
    VECTOR_KINDS,
};
use crate::kernel::print::type_to_string;
use crate::kernel::types::KType;

/// Integer, index, or a vector of integers.
fn int_like(t: &KType) -> bool {
    matches!(t.scalar(), KType::Int(_) | KType::Index)
}

/// A float or a vector of floats.
fn float_like(t: &KType) -> bool {
    matches!(t.scalar(), KType::Float(_))
}

fn same_shape(a: &KType, b: &KType) -> bool {
    match (a, b) {
        (KType::Vector { shape: x, .. }, KType::Vector { shape: y, .. }) => x == y,
        (KType::Vector { .. }, _) | (_, KType::Vector { .. }) => false,
        _ => true,
    }
}

fn bit_width(t: &KType) -> Option<u64> {
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

fn rank(t: &KType) -> Option<usize> {
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

    fn check_special(&mut self, op: KOp, d: &crate::kernel::module::KOpData) {
        use KOpKind::*;
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        match d.kind {
            BuiltinModule => {
                self.counts(op, Some(0), 0, 1);
            }
            GpuModule => {
                self.counts(op, Some(0), 0, 1);
                if !matches!(self.attr(op, "sym_name"), Some(KAttr::String(_))) {
                    self.error(op, "needs a 'sym_name'");
                }
            }
            GpuFunc | FuncFunc => self.check_func(op, d),
            GpuReturn | FuncReturn => {
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
                                self.error(
                                    op,
                                    "operand types must match the function's result types",
                                );
                            }
                        }
                    }
                    _ => self.error(op, format!("must be the terminator of a '{}'", want.name())),
                }
            }
            FuncCall => self.check_call(op, d),
            GpuLaunchFunc => self.check_launch(op, d),
            SpirvOp => {
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
            ArithConstant => {
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
            IndexConstant => {
                if self.counts(op, Some(0), 1, 0) {
                    self.all_index(op, &d.results, "the result");
                    if !matches!(self.attr(op, "value"), Some(KAttr::Int { .. })) {
                        self.error(op, "needs an integer 'value'");
                    }
                }
            }
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                if self.counts(op, Some(2), 2, 0) {
                    let t = self.ty(ops[0]).clone();
                    let second = if d.kind == ArithAddUIExtended {
                        bool_like(&t)
                    } else {
                        t.clone()
                    };
                    if *self.ty(ops[1]) != t
                        || res_tys[0] != t
                        || res_tys[1] != second
                        || !int_like(&t)
                    {
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
            ArithCmpI | ArithCmpF | IndexCmp => {
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
            ArithSelect => {
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
            GpuLaneId | GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups => {
                if self.counts(op, Some(0), 1, 0) {
                    self.all_index(op, &d.results, "the result");
                }
            }
            GpuBarrier => {
                self.counts(op, Some(0), 0, 0);
            }
            GpuShuffle => {
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
            GpuSubgroupReduce => {
                if self.counts(op, Some(1), 1, 0) {
                    let t = self.ty(ops[0]).clone();
                    if res_tys[0] != t {
                        self.error(op, "result must have the operand's type");
                    }
                    self.enum_in(op, "op", &REDUCE_OPS);
                    if let Some(KAttr::Enum(o)) = self.attr(op, "op") {
                        let float_op = o.ends_with('f');
                        let bitwise = matches!(o.as_str(), "and" | "or" | "xor");
                        if (float_op && !float_like(&t))
                            || ((bitwise || o.ends_with('i')) && !int_like(&t))
                        {
                            let o = o.clone();
                            self.error(op, format!("reduction '{o}' does not apply to {}", ts(&t)));
                        }
                    }
                }
            }
            ScfYield | ScfCondition => self.check_scf_terminator(op, d),
            ScfFor => self.check_for(op, d),
            ScfIf => self.check_if(op, d),
            ScfWhile => self.check_while(op, d),
            MemRefLoad | MemRefStore | VectorLoad | VectorStore => self.check_access(op, d),
            MemRefAlloc | MemRefAlloca => {
                if self.counts(op, None, 1, 0) {
                    match &res_tys[0] {
                        KType::MemRef { shape, .. } => {
                            let dynamic = shape.iter().filter(|s| s.is_none()).count();
                            let seg = match self.attr(op, "operandSegmentSizes") {
                                Some(KAttr::DenseI64(v)) if v.len() == 2 => v[0] as usize,
                                _ => ops.len(),
                            };
                            if seg != dynamic {
                                self.error(
                                    op,
                                    format!(
                                        "the type has {dynamic} dynamic sizes but {seg} are given"
                                    ),
                                );
                            }
                            self.all_index(op, ops, "sizes");
                        }
                        _ => self.error(op, "result must be a ranked memref"),
                    }
                }
            }
            MemRefDealloc => {
                if self.counts(op, Some(1), 0, 0) && self.ty(ops[0]).memref_elem().is_none() {
                    self.error(op, "expects a memref");
                }
            }
            MemRefDim => {
                if self.counts(op, Some(2), 1, 0) {
                    if self.ty(ops[0]).memref_elem().is_none() {
                        self.error(op, "expects a memref");
                    }
                    self.all_index(op, &[ops[1], d.results[0]], "index and result");
                }
            }
            MemRefSubView => {
                if self.counts(op, None, 1, 0) && !ops.is_empty() {
                    let src = self.ty(ops[0]).clone();
                    let r = rank(&src);
                    for name in ["static_offsets", "static_sizes", "static_strides"] {
                        match self.attr(op, name) {
                            Some(KAttr::DenseI64(v)) if Some(v.len()) == r => {}
                            _ => self.error(
                                op,
                                format!("'{name}' must have one entry per source dimension"),
                            ),
                        }
                    }
                    match (&src, &res_tys[0]) {
                        (KType::MemRef { elem: a, .. }, KType::MemRef { elem: b, .. })
                            if a == b => {}
                        _ => {
                            self.error(op, "source and result must be memrefs of one element type")
                        }
                    }
                    self.all_index(op, &ops[1..], "dynamic offsets, sizes and strides");
                }
            }
            VectorExtract | VectorInsert => self.check_extract_insert(op, d),
            VectorExtractElement | VectorInsertElement => {
                let insert = d.kind == VectorInsertElement;
                if self.counts(op, None, 1, 0) {
                    let vpos = usize::from(insert);
                    let Some(&vec) = ops.get(vpos) else {
                        self.error(op, "missing the vector operand");
                        return;
                    };
                    let vt = self.ty(vec).clone();
                    let elem = vt.scalar().clone();
                    let want = if insert { vt.clone() } else { elem.clone() };
                    if res_tys[0] != want {
                        self.error(op, format!("result must be {}", ts(&want)));
                    }
                    if insert && *self.ty(ops[0]) != elem {
                        self.error(op, "the inserted value must be the element type");
                    }
                    if let Some(&p) = ops.get(vpos + 1) {
                        if !int_like(self.ty(p)) {
                            self.error(op, "the position must be an integer or index");
                        }
                    }
                }
            }
            VectorSplat => {
                if self.counts(op, Some(1), 1, 0) && res_tys[0].scalar() != self.ty(ops[0]) {
                    self.error(op, "result must be a vector of the operand's type");
                }
            }
            VectorShuffle => {
                if self.counts(op, Some(2), 1, 0) {
                    let a = self.ty(ops[0]).clone();
                    let b = self.ty(ops[1]).clone();
                    let total = bit_width(&a).unwrap_or(0) / bit_width(a.scalar()).unwrap_or(1)
                        + bit_width(&b).unwrap_or(0) / bit_width(b.scalar()).unwrap_or(1);
                    match self.attr(op, "mask") {
                        Some(KAttr::DenseI64(mask)) => {
                            if mask.iter().any(|&i| i < 0 || i as u64 >= total) {
                                self.error(op, format!("mask indices must be below {total}"));
                            }
                            if res_tys[0] != KType::vector(mask.len() as u64, a.scalar().clone()) {
                                self.error(op, "result must have one element per mask entry");
                            }
                        }
                        _ => self.error(op, "needs a 'mask'"),
                    }
                    if a.scalar() != b.scalar() {
                        self.error(op, "operands must have one element type");
                    }
                }
            }
            VectorInterleave => {
                if self.counts(op, Some(2), 1, 0) {
                    let a = self.ty(ops[0]).clone();
                    if *self.ty(ops[1]) != a
                        || bit_width(&res_tys[0]) != bit_width(&a).map(|w| 2 * w)
                    {
                        self.error(
                            op,
                            "expects two vectors of one type and a result twice as long",
                        );
                    }
                }
            }
            VectorDeinterleave => {
                if self.counts(op, Some(1), 2, 0) {
                    let a = self.ty(ops[0]).clone();
                    if res_tys[0] != res_tys[1]
                        || bit_width(&res_tys[0]).map(|w| 2 * w) != bit_width(&a)
                    {
                        self.error(op, "expects two results half as long as the operand");
                    }
                }
            }
            VectorReduction => {
                if self.counts(op, None, 1, 0) && !ops.is_empty() {
                    let v = self.ty(ops[0]).clone();
                    if res_tys[0] != *v.scalar() || !matches!(v, KType::Vector { .. }) {
                        self.error(op, "result must be the vector's element type");
                    }
                    if let Some(&acc) = ops.get(1) {
                        if *self.ty(acc) != res_tys[0] {
                            self.error(op, "the accumulator must have the result type");
                        }
                    }
                    self.enum_in(op, "kind", &VECTOR_KINDS);
                }
            }
            _ => {}
        }
    }

    fn check_access(&mut self, op: KOp, d: &crate::kernel::module::KOpData) {
        use KOpKind::*;
        let store = matches!(d.kind, MemRefStore | VectorStore);
        let want_results = usize::from(!store);
        if !self.counts(op, None, want_results, 0) {
            return;
        }
        let mpos = usize::from(store);
        let Some(&mem) = d.operands.get(mpos) else {
            self.error(op, "missing the memref operand");
            return;
        };
        let mt = self.ty(mem).clone();
        let Some(r) = rank(&mt) else {
            self.error(op, format!("expects a ranked memref, got {}", ts(&mt)));
            return;
        };
        let idx = &d.operands[mpos + 1..];
        if idx.len() != r {
            self.error(
                op,
                format!("expects {r} indices for {}, got {}", ts(&mt), idx.len()),
            );
        }
        self.all_index(op, idx, "indices");
        let elem = mt.memref_elem().cloned().unwrap_or(KType::i32());
        let value = if store {
            self.ty(d.operands[0]).clone()
        } else {
            self.ty(d.results[0]).clone()
        };
        match d.kind {
            MemRefLoad | MemRefStore => {
                if value != elem {
                    self.error(
                        op,
                        format!(
                            "value type {} is not the element type {}",
                            ts(&value),
                            ts(&elem)
                        ),
                    );
                }
            }
            _ => {
                if !matches!(value, KType::Vector { .. }) || value.scalar() != elem.scalar() {
                    self.error(op, format!("expects a vector of {}", ts(&elem)));
                }
            }
        }
    }

    fn check_extract_insert(&mut self, op: KOp, d: &crate::kernel::module::KOpData) {
        let insert = d.kind == KOpKind::VectorInsert;
        if !self.counts(op, None, 1, 0) {
            return;
        }
        let vpos = usize::from(insert);
        let Some(&vec) = d.operands.get(vpos) else {
            self.error(op, "missing the vector operand");
            return;
        };
        let vt = self.ty(vec).clone();
        let KType::Vector { shape, elem } = &vt else {
            self.error(op, "expects a vector");
            return;
        };
        let Some(KAttr::DenseI64(pos)) = self.attr(op, "static_position") else {
            self.error(op, "needs 'static_position'");
            return;
        };
        let dynamic = pos.iter().filter(|&&p| p == i64::MIN).count();
        if d.operands.len() != vpos + 1 + dynamic {
            self.error(op, "dynamic positions and operands disagree");
        }
        if pos.len() > shape.len() {
            self.error(op, "more positions than vector dimensions");
            return;
        }
        for (p, &n) in pos.iter().zip(shape) {
            if *p != i64::MIN && (*p < 0 || *p as u64 >= n) {
                self.error(op, format!("position {p} is out of bounds for {}", ts(&vt)));
            }
        }
        let part = if pos.len() == shape.len() {
            (**elem).clone()
        } else {
            KType::Vector {
                shape: shape[pos.len()..].to_vec(),
                elem: elem.clone(),
            }
        };
        let result = self.ty(d.results[0]).clone();
        if insert {
            if *self.ty(d.operands[0]) != part || result != vt {
                self.error(
                    op,
                    format!("expects to insert a {} into {}", ts(&part), ts(&vt)),
                );
            }
        } else if result != part {
            self.error(op, format!("result must be {}", ts(&part)));
        }
    }
}
