//! Custom assembly of each kernel op (the mirror of the parser's
//! `parse/ops.rs` and `parse/structure.rs`): the families of `form`, then
//! one printer per op of `Form::Special` (`memref` and `vector` in their
//! own files).

use super::attrs::{attr_to_string, dict_to_string, scalar_literal, symbol, type_to_string};
use super::Printer;
use crate::kernel::entity::{KOp, KValue};
use crate::kernel::forms::{family_ops, form, Form};
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;

pub(crate) use crate::kernel::forms::{CMPF_PREDICATES as CMPF, CMPI_PREDICATES as CMPI};

/// `Some(())` when the op's operands, results and regions fit its custom
/// form (else it prints in the generic form).
pub(super) fn fits(ok: bool) -> Option<()> {
    ok.then_some(())
}

pub(super) fn attr<'a>(d: &'a KOpData, name: &str) -> Option<&'a KAttr> {
    d.attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
}

pub(super) fn enum_attr<'a>(d: &'a KOpData, name: &str) -> Option<&'a str> {
    match attr(d, name) {
        Some(KAttr::Enum(e)) => Some(e),
        _ => None,
    }
}

pub(super) fn dense(d: &KOpData, name: &str) -> Option<Vec<i64>> {
    match attr(d, name) {
        Some(KAttr::DenseI64(v)) => Some(v.clone()),
        _ => None,
    }
}

/// `{...}` of the attributes not in `skip`, or `None` when there are none.
fn dict_except(d: &KOpData, skip: &[&str]) -> Option<String> {
    let r: Vec<(String, KAttr)> = d
        .attrs
        .iter()
        .filter(|(n, _)| !skip.contains(&n.as_str()))
        .cloned()
        .collect();
    (!r.is_empty()).then(|| dict_to_string(&r))
}

/// ` {rest}` of the attributes not in `skip`, or nothing.
pub(super) fn rest(d: &KOpData, skip: &[&str]) -> String {
    dict_except(d, skip).map_or_else(String::new, |r| format!(" {r}"))
}

/// ` attributes {rest}` of the attributes not in `skip`, or nothing (the
/// attribute clause of `module`, `gpu.module` and functions).
pub(super) fn attributes_clause(d: &KOpData, skip: &[&str]) -> String {
    dict_except(d, skip).map_or_else(String::new, |r| format!(" attributes {r}"))
}

/// ` fastmath<...>` / ` overflow<...>`.
pub(super) fn flags(d: &KOpData) -> String {
    let mut s = String::new();
    if let Some(f) = enum_attr(d, "overflowFlags") {
        s.push_str(&format!(" overflow<{f}>"));
    }
    if let Some(f) = enum_attr(d, "fastmath") {
        s.push_str(&format!(" fastmath<{f}>"));
    }
    s
}

const FLAG_ATTRS: [&str; 2] = ["fastmath", "overflowFlags"];

impl Printer<'_> {
    pub(super) fn rty(&self, d: &KOpData, i: usize) -> String {
        d.results
            .get(i)
            .map_or_else(String::new, |&r| type_to_string(self.m.value_type(r)))
    }

    pub(super) fn same_types(&self, vals: &[KValue], ty: &KType) -> bool {
        vals.iter().all(|&v| self.m.value_type(v) == ty)
    }

    /// `[a, %x, b]` of a static list with `i64::MIN` holes filled from
    /// `dynamic`.
    pub(super) fn mixed(
        &self,
        stat: &[i64],
        dynamic: &mut impl Iterator<Item = KValue>,
    ) -> Option<String> {
        let mut items = Vec::new();
        for &s in stat {
            if s == i64::MIN {
                items.push(self.v(dynamic.next()?));
            } else {
                items.push(s.to_string());
            }
        }
        Some(format!("[{}]", items.join(", ")))
    }

    /// Prints `op` in custom syntax; `false` when it does not fit (then the
    /// caller prints the generic form and nothing was written).
    pub(super) fn print_custom(&mut self, op: KOp) -> bool {
        let d = self.m.op(op).clone();
        let Some(body) = self.custom_text(op, &d) else {
            return false;
        };
        match body {
            Custom::Text(t) => {
                let prefix = self.name_results(op);
                self.w(&prefix);
                self.w(&t);
            }
            Custom::Structured => {}
        }
        true
    }

    /// The custom text after the result names (for ops without regions), or
    /// `Structured` when the op printed itself (regions need result names
    /// assigned after the body), or `None` when the op does not fit.
    fn custom_text(&mut self, op: KOp, d: &KOpData) -> Option<Custom> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        let t = |s: String| Some(Custom::Text(s));
        match form(d.kind) {
            f if f.same_type_arity() == Some(ops.len()) && nres == 1 => {
                let ty = self.m.value_type(d.results[0]).clone();
                if !self.same_types(ops, &ty) {
                    return None;
                }
                return t(format!(
                    "{name} {}{}{} : {}",
                    self.vs(ops),
                    flags(d),
                    rest(d, &FLAG_ATTRS),
                    type_to_string(&ty)
                ));
            }
            Form::Cast if ops.len() == 1 && nres == 1 => {
                return t(format!(
                    "{name} {}{}{} : {} to {}",
                    self.v(ops[0]),
                    flags(d),
                    rest(d, &FLAG_ATTRS),
                    self.ty(ops[0]),
                    self.rty(d, 0)
                ));
            }
            Form::IndexBinary if ops.len() == 2 && nres == 1 => {
                if !self.same_types(ops, &KType::Index) {
                    return None;
                }
                return t(format!("{name} {}{}", self.vs(ops), rest(d, &[])));
            }
            Form::Dim if ops.is_empty() && nres == 1 => {
                let dim = enum_attr(d, "dimension")?;
                return t(format!(
                    "{name} {dim}{}{}",
                    upper_bound(d),
                    rest(d, &["dimension", "upper_bound"])
                ));
            }
            Form::Special => {}
            _ => return None,
        }
        self.special_text(op, d)
    }

    /// The custom text of an op of [`Form::Special`]: one printer per op
    /// (or per family of ops spelled alike). Every op is listed, so that a
    /// new op fails to compile until it is given a syntax here.
    fn special_text(&mut self, op: KOp, d: &KOpData) -> Option<Custom> {
        use KOpKind::*;
        let ops = &d.operands;
        let nres = d.results.len();
        match d.kind {
            ArithConstant => self.constant_text(d).map(Custom::Text),
            IndexConstant => self.index_constant_text(d).map(Custom::Text),
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                self.extended_text(d).map(Custom::Text)
            }
            ArithCmpI | ArithCmpF => self.cmp_text(d).map(Custom::Text),
            IndexCmp => self.index_cmp_text(d).map(Custom::Text),
            ArithSelect => self.select_text(d).map(Custom::Text),
            GpuLaneId => self.lane_id_text(d).map(Custom::Text),
            GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups => {
                self.subgroup_query_text(d).map(Custom::Text)
            }
            GpuBarrier => self.barrier_text(d).map(Custom::Text),
            GpuShuffle => self.shuffle_text(d).map(Custom::Text),
            GpuSubgroupReduce => self.subgroup_reduce_text(d).map(Custom::Text),
            GpuSubgroupMmaLoadMatrix => self.mma_load_text(d).map(Custom::Text),
            GpuSubgroupMmaStoreMatrix => self.mma_store_text(d).map(Custom::Text),
            GpuSubgroupMmaCompute => self.mma_compute_text(d).map(Custom::Text),
            GpuSubgroupMmaConstantMatrix => self.mma_constant_text(d).map(Custom::Text),
            GpuReturn | FuncReturn | ScfYield => self.return_text(d).map(Custom::Text),
            ScfCondition => self.condition_text(d).map(Custom::Text),
            FuncCall => self.call_text(d).map(Custom::Text),
            GpuLaunchFunc => {
                fits(nres == 0)?;
                self.launch_text(d).map(Custom::Text)
            }
            MemRefLoad => self.memref_load_text(d).map(Custom::Text),
            MemRefStore => self.memref_store_text(d).map(Custom::Text),
            MemRefAlloc | MemRefAlloca => self.alloc_text(d).map(Custom::Text),
            MemRefDealloc => self.dealloc_text(d).map(Custom::Text),
            MemRefDim => self.memref_dim_text(d).map(Custom::Text),
            MemRefSubView => self.subview_text(d).map(Custom::Text),
            VectorLoad => self.vector_load_text(d).map(Custom::Text),
            VectorStore => self.vector_store_text(d).map(Custom::Text),
            VectorExtract => self.vector_extract_text(d).map(Custom::Text),
            VectorInsert => self.vector_insert_text(d).map(Custom::Text),
            VectorExtractElement => self.extract_element_text(d).map(Custom::Text),
            VectorInsertElement => self.insert_element_text(d).map(Custom::Text),
            VectorSplat => self.splat_text(d).map(Custom::Text),
            VectorShuffle => self.vector_shuffle_text(d).map(Custom::Text),
            VectorInterleave => self.interleave_text(d).map(Custom::Text),
            VectorDeinterleave => self.deinterleave_text(d).map(Custom::Text),
            VectorReduction => self.reduction_text(d).map(Custom::Text),
            ScfFor => {
                fits(ops.len() >= 3 && d.regions.len() == 1)?;
                self.print_for(op, d)?;
                Some(Custom::Structured)
            }
            ScfIf => {
                fits(ops.len() == 1 && d.regions.len() == 2)?;
                self.print_if(op, d)?;
                Some(Custom::Structured)
            }
            ScfWhile => {
                fits(d.regions.len() == 2)?;
                self.print_while(op, d)?;
                Some(Custom::Structured)
            }
            GpuModule => {
                fits(d.regions.len() == 1 && nres == 0)?;
                self.print_gpu_module(d)?;
                Some(Custom::Structured)
            }
            GpuFunc | FuncFunc => {
                fits(d.regions.len() == 1 && nres == 0)?;
                self.print_func(d)?;
                Some(Custom::Structured)
            }
            // Generic form: the top module (printed by `print_top`), SPIR-V
            // ops, and the families of `form` (printed by `custom_text`).
            BuiltinModule | SpirvOp | family_ops!() => None,
        }
    }

    // ---- arith, index, gpu, terminators and calls ----------------------

    /// `arith.constant VALUE`.
    fn constant_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.is_empty() && nres == 1)?;
        let v = attr(d, "value")?;
        let text = match v {
            KAttr::Int { ty, .. } if *ty == KType::bool() => scalar_literal(v),
            KAttr::Int { .. }
            | KAttr::Float { .. }
            | KAttr::DenseInts { .. }
            | KAttr::DenseFloats { .. } => attr_to_string(v),
            _ => return None,
        };
        Some(format!("{name}{} {text}", rest(d, &["value"])))
    }

    /// `index.constant N`.
    fn index_constant_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.is_empty() && nres == 1)?;
        let KAttr::Int { value, .. } = attr(d, "value")? else {
            return None;
        };
        Some(format!("{name} {value}{}", rest(d, &["value"])))
    }

    /// `arith.addui_extended` / `mului_extended` / `mulsi_extended`.
    fn extended_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 2)?;
        let tail = if d.kind == KOpKind::ArithAddUIExtended {
            format!("{}, {}", self.rty(d, 0), self.rty(d, 1))
        } else {
            self.rty(d, 0)
        };
        Some(format!("{name} {}{} : {tail}", self.vs(ops), rest(d, &[])))
    }

    /// `arith.cmpi` / `arith.cmpf`.
    fn cmp_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 1)?;
        let p = enum_attr(d, "predicate")?;
        Some(format!(
            "{name} {p}, {}{}{} : {}",
            self.vs(ops),
            flags(d),
            rest(d, &["predicate", "fastmath"]),
            self.ty(ops[0])
        ))
    }

    /// `index.cmp PRED(%a, %b)`.
    fn index_cmp_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 1)?;
        let p = enum_attr(d, "pred")?;
        Some(format!(
            "{name} {p}({}){}",
            self.vs(ops),
            rest(d, &["pred"])
        ))
    }

    /// `arith.select`.
    fn select_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 3 && nres == 1)?;
        let cty = self.m.value_type(ops[0]);
        let tys = if *cty == KType::bool() {
            self.ty(ops[1])
        } else {
            format!("{}, {}", self.ty(ops[0]), self.ty(ops[1]))
        };
        Some(format!("{name} {}{} : {tys}", self.vs(ops), rest(d, &[])))
    }

    /// `gpu.lane_id [upper_bound N]`.
    fn lane_id_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.is_empty() && nres == 1)?;
        Some(format!(
            "{name}{}{}",
            upper_bound(d),
            rest(d, &["upper_bound"])
        ))
    }

    /// `gpu.subgroup_id` / `subgroup_size` / `num_subgroups`.
    fn subgroup_query_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.is_empty() && nres == 1)?;
        Some(format!(
            "{name}{}{} : index",
            upper_bound(d),
            rest(d, &["upper_bound"])
        ))
    }

    /// `gpu.barrier`.
    fn barrier_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.is_empty() && nres == 0)?;
        Some(format!("{name}{}", rest(d, &[])))
    }

    /// `gpu.shuffle MODE %v, %offset, %width : T`.
    fn shuffle_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 3 && nres == 2)?;
        let mode = enum_attr(d, "mode")?;
        Some(format!(
            "{name} {mode} {}{} : {}",
            self.vs(ops),
            rest(d, &["mode"]),
            self.ty(ops[0])
        ))
    }

    /// `gpu.subgroup_reduce OP %v [uniform] : (T) -> T`.
    fn subgroup_reduce_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 1 && nres == 1)?;
        let o = enum_attr(d, "op")?;
        let uniform = if attr(d, "uniform").is_some() {
            " uniform"
        } else {
            ""
        };
        Some(format!(
            "{name} {o} {}{uniform}{} : ({}) -> {}",
            self.v(ops[0]),
            rest(d, &["op", "uniform"]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }

    /// `gpu.return` / `return` / `scf.yield`.
    fn return_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(nres == 0)?;
        let spelled =
            if d.kind == KOpKind::FuncReturn && self.func.last() == Some(&KOpKind::FuncFunc) {
                "return"
            } else {
                name
            };
        let vals = if ops.is_empty() {
            String::new()
        } else {
            format!(" {} : {}", self.vs(ops), self.tys(ops))
        };
        Some(format!("{spelled}{}{vals}", rest(d, &[])))
    }

    /// `scf.condition(%c) ...`.
    fn condition_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(!ops.is_empty() && nres == 0)?;
        let vals = if ops.len() == 1 {
            String::new()
        } else {
            format!(" {} : {}", self.vs(&ops[1..]), self.tys(&ops[1..]))
        };
        Some(format!("{name}({}){}{vals}", self.v(ops[0]), rest(d, &[])))
    }

    /// `call @f(...) : (...) -> ...`.
    fn call_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let KAttr::SymbolRef(path) = attr(d, "callee")? else {
            return None;
        };
        let spelled = if self.func.last() == Some(&KOpKind::FuncFunc) {
            "call"
        } else {
            name
        };
        let callee: Vec<String> = path.iter().map(|s| symbol(s)).collect();
        let results: Vec<KType> = d
            .results
            .iter()
            .map(|&r| self.m.value_type(r).clone())
            .collect();
        Some(format!(
            "{spelled} {}({}){} : ({}) -> {}",
            callee.join("::"),
            self.vs(ops),
            rest(d, &["callee"]),
            self.tys(ops),
            super::results_to_string(&results)
        ))
    }

    fn launch_text(&self, d: &KOpData) -> Option<String> {
        let KAttr::SymbolRef(path) = attr(d, "kernel")? else {
            return None;
        };
        let ops = &d.operands;
        let seg = dense(d, "operandSegmentSizes").unwrap_or_else(|| {
            vec![
                0,
                1,
                1,
                1,
                1,
                1,
                1,
                0,
                0,
                0,
                0,
                ops.len().saturating_sub(6) as i64,
                0,
            ]
        });
        if seg.len() != 13
            || seg.iter().any(|&s| s < 0)
            || seg.iter().sum::<i64>() != ops.len() as i64
            || seg[0] != 0
            || seg[12] != 0
            || seg[1..7].iter().any(|&s| s != 1)
        {
            return None;
        }
        let mut it = ops.iter().copied();
        let mut take = |n: i64| -> Vec<KValue> { (0..n).filter_map(|_| it.next()).collect() };
        let grid = take(3);
        let block = take(3);
        let clusters = take(seg[7] + seg[8] + seg[9]);
        let smem = take(seg[10]);
        let args = take(seg[11]);
        let mut s = format!(
            "gpu.launch_func {}",
            path.iter()
                .map(|p| symbol(p))
                .collect::<Vec<_>>()
                .join("::")
        );
        if !clusters.is_empty() {
            if clusters.len() != 3 {
                return None;
            }
            s.push_str(&format!(" clusters in ({})", self.vs(&clusters)));
        }
        s.push_str(&format!(" blocks in ({})", self.vs(&grid)));
        s.push_str(&format!(" threads in ({})", self.vs(&block)));
        if let Some(&m) = smem.first() {
            s.push_str(&format!(" dynamic_shared_memory_size {}", self.v(m)));
        }
        if !args.is_empty() {
            let items: Vec<String> = args
                .iter()
                .map(|&a| format!("{} : {}", self.v(a), self.ty(a)))
                .collect();
            s.push_str(&format!(" args({})", items.join(", ")));
        }
        s.push_str(&rest(d, &["kernel", "operandSegmentSizes"]));
        Some(s)
    }
}

fn upper_bound(d: &KOpData) -> String {
    match attr(d, "upper_bound") {
        Some(KAttr::Int { value, .. }) => format!(" upper_bound {value}"),
        _ => String::new(),
    }
}

/// What [`Printer::custom_text`] produced.
enum Custom {
    /// The text after the result names.
    Text(String),
    /// The op printed itself.
    Structured,
}
