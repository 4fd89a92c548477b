//! Custom assembly of each kernel op (the mirror of the parser's
//! `parse/ops.rs` and `parse/structure.rs`).

use super::attrs::{attr_to_string, dict_to_string, scalar_literal, symbol, type_to_string};
use super::Printer;
use crate::ir::{Op, Value};
use crate::kernel::forms::{form, Form};
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOp;
use crate::kernel::types::KType;

pub(crate) use crate::kernel::forms::{CMPF_PREDICATES as CMPF, CMPI_PREDICATES as CMPI};

pub(super) fn attr<'a>(d: &'a KOpData, name: &str) -> Option<&'a KAttr> {
    d.attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
}

fn enum_attr<'a>(d: &'a KOpData, name: &str) -> Option<&'a str> {
    match attr(d, name) {
        Some(KAttr::Enum(e)) => Some(e),
        _ => None,
    }
}

fn dense(d: &KOpData, name: &str) -> Option<Vec<i64>> {
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
fn flags(d: &KOpData) -> String {
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
    fn rty(&self, d: &KOpData, i: usize) -> String {
        d.results
            .get(i)
            .map_or_else(String::new, |&r| type_to_string(self.m.value_type(r)))
    }

    fn same_types(&self, vals: &[Value], ty: &KType) -> bool {
        vals.iter().all(|&v| self.m.value_type(v) == ty)
    }

    /// `[a, %x, b]` of a static list with `i64::MIN` holes filled from
    /// `dynamic`.
    fn mixed(&self, stat: &[i64], dynamic: &mut impl Iterator<Item = Value>) -> Option<String> {
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
    pub(super) fn print_custom(&mut self, op: Op) -> bool {
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
    fn custom_text(&mut self, op: Op, d: &KOpData) -> Option<Custom> {
        use KOp::*;
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
        match d.kind {
            ArithConstant if ops.is_empty() && nres == 1 => {
                let v = attr(d, "value")?;
                let text = match v {
                    KAttr::Int { ty, .. } if *ty == KType::bool() => scalar_literal(v),
                    KAttr::Int { .. }
                    | KAttr::Float { .. }
                    | KAttr::DenseInts { .. }
                    | KAttr::DenseFloats { .. } => attr_to_string(v),
                    _ => return None,
                };
                t(format!("{name}{} {text}", rest(d, &["value"])))
            }
            IndexConstant if ops.is_empty() && nres == 1 => {
                let KAttr::Int { value, .. } = attr(d, "value")? else {
                    return None;
                };
                t(format!("{name} {value}{}", rest(d, &["value"])))
            }
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended
                if ops.len() == 2 && nres == 2 =>
            {
                let tail = if d.kind == ArithAddUIExtended {
                    format!("{}, {}", self.rty(d, 0), self.rty(d, 1))
                } else {
                    self.rty(d, 0)
                };
                t(format!("{name} {}{} : {tail}", self.vs(ops), rest(d, &[])))
            }
            ArithCmpI | ArithCmpF if ops.len() == 2 && nres == 1 => {
                let p = enum_attr(d, "predicate")?;
                t(format!(
                    "{name} {p}, {}{}{} : {}",
                    self.vs(ops),
                    flags(d),
                    rest(d, &["predicate", "fastmath"]),
                    self.ty(ops[0])
                ))
            }
            IndexCmp if ops.len() == 2 && nres == 1 => {
                let p = enum_attr(d, "pred")?;
                t(format!(
                    "{name} {p}({}){}",
                    self.vs(ops),
                    rest(d, &["pred"])
                ))
            }
            ArithSelect if ops.len() == 3 && nres == 1 => {
                let cty = self.m.value_type(ops[0]);
                let tys = if *cty == KType::bool() {
                    self.ty(ops[1])
                } else {
                    format!("{}, {}", self.ty(ops[0]), self.ty(ops[1]))
                };
                t(format!("{name} {}{} : {tys}", self.vs(ops), rest(d, &[])))
            }
            GpuLaneId if ops.is_empty() && nres == 1 => t(format!(
                "{name}{}{}",
                upper_bound(d),
                rest(d, &["upper_bound"])
            )),
            GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups if ops.is_empty() && nres == 1 => {
                t(format!(
                    "{name}{}{} : index",
                    upper_bound(d),
                    rest(d, &["upper_bound"])
                ))
            }
            GpuBarrier if ops.is_empty() && nres == 0 => t(format!("{name}{}", rest(d, &[]))),
            GpuShuffle if ops.len() == 3 && nres == 2 => {
                let mode = enum_attr(d, "mode")?;
                t(format!(
                    "{name} {mode} {}{} : {}",
                    self.vs(ops),
                    rest(d, &["mode"]),
                    self.ty(ops[0])
                ))
            }
            GpuSubgroupReduce if ops.len() == 1 && nres == 1 => {
                let o = enum_attr(d, "op")?;
                let uniform = if attr(d, "uniform").is_some() {
                    " uniform"
                } else {
                    ""
                };
                t(format!(
                    "{name} {o} {}{uniform}{} : ({}) -> {}",
                    self.v(ops[0]),
                    rest(d, &["op", "uniform"]),
                    self.ty(ops[0]),
                    self.rty(d, 0)
                ))
            }
            GpuReturn | FuncReturn | ScfYield if nres == 0 => {
                let spelled = if d.kind == FuncReturn && self.func.last() == Some(&FuncFunc) {
                    "return"
                } else {
                    name
                };
                let vals = if ops.is_empty() {
                    String::new()
                } else {
                    format!(" {} : {}", self.vs(ops), self.tys(ops))
                };
                t(format!("{spelled}{}{vals}", rest(d, &[])))
            }
            ScfCondition if !ops.is_empty() && nres == 0 => {
                let vals = if ops.len() == 1 {
                    String::new()
                } else {
                    format!(" {} : {}", self.vs(&ops[1..]), self.tys(&ops[1..]))
                };
                t(format!("{name}({}){}{vals}", self.v(ops[0]), rest(d, &[])))
            }
            FuncCall => {
                let KAttr::SymbolRef(path) = attr(d, "callee")? else {
                    return None;
                };
                let spelled = if self.func.last() == Some(&FuncFunc) {
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
                t(format!(
                    "{spelled} {}({}){} : ({}) -> {}",
                    callee.join("::"),
                    self.vs(ops),
                    rest(d, &["callee"]),
                    self.tys(ops),
                    super::results_to_string(&results)
                ))
            }
            GpuLaunchFunc if nres == 0 => self.launch_text(d).map(Custom::Text),
            MemRefLoad if !ops.is_empty() && nres == 1 => t(format!(
                "{name} {}[{}]{} : {}",
                self.v(ops[0]),
                self.vs(&ops[1..]),
                rest(d, &[]),
                self.ty(ops[0])
            )),
            MemRefStore if ops.len() >= 2 && nres == 0 => t(format!(
                "{name} {}, {}[{}]{} : {}",
                self.v(ops[0]),
                self.v(ops[1]),
                self.vs(&ops[2..]),
                rest(d, &[]),
                self.ty(ops[1])
            )),
            MemRefAlloc | MemRefAlloca if nres == 1 => {
                let seg = dense(d, "operandSegmentSizes").unwrap_or(vec![ops.len() as i64, 0]);
                if seg.len() != 2 || seg[0] + seg[1] != ops.len() as i64 || seg[0] < 0 {
                    return None;
                }
                let n = seg[0] as usize;
                let syms = if seg[1] > 0 {
                    format!("[{}]", self.vs(&ops[n..]))
                } else {
                    String::new()
                };
                t(format!(
                    "{name}({}){syms}{} : {}",
                    self.vs(&ops[..n]),
                    rest(d, &["operandSegmentSizes"]),
                    self.rty(d, 0)
                ))
            }
            MemRefDealloc if ops.len() == 1 && nres == 0 => t(format!(
                "{name} {}{} : {}",
                self.v(ops[0]),
                rest(d, &[]),
                self.ty(ops[0])
            )),
            MemRefDim if ops.len() == 2 && nres == 1 => t(format!(
                "{name}{} {} : {}",
                rest(d, &[]),
                self.vs(ops),
                self.ty(ops[0])
            )),
            MemRefSubView if !ops.is_empty() && nres == 1 => {
                let offs = dense(d, "static_offsets")?;
                let sizes = dense(d, "static_sizes")?;
                let strides = dense(d, "static_strides")?;
                let ndyn = [&offs, &sizes, &strides]
                    .iter()
                    .map(|v| v.iter().filter(|&&x| x == i64::MIN).count())
                    .sum::<usize>();
                if ndyn + 1 != ops.len() {
                    return None;
                }
                let mut dynamic = ops[1..].iter().copied();
                let o = self.mixed(&offs, &mut dynamic)?;
                let s = self.mixed(&sizes, &mut dynamic)?;
                let st = self.mixed(&strides, &mut dynamic)?;
                t(format!(
                    "{name} {}{o} {s} {st}{} : {} to {}",
                    self.v(ops[0]),
                    rest(
                        d,
                        &[
                            "operandSegmentSizes",
                            "static_offsets",
                            "static_sizes",
                            "static_strides"
                        ]
                    ),
                    self.ty(ops[0]),
                    self.rty(d, 0)
                ))
            }
            VectorLoad if !ops.is_empty() && nres == 1 => t(format!(
                "{name} {}[{}]{} : {}, {}",
                self.v(ops[0]),
                self.vs(&ops[1..]),
                rest(d, &[]),
                self.ty(ops[0]),
                self.rty(d, 0)
            )),
            VectorStore if ops.len() >= 2 && nres == 0 => t(format!(
                "{name} {}, {}[{}]{} : {}, {}",
                self.v(ops[0]),
                self.v(ops[1]),
                self.vs(&ops[2..]),
                rest(d, &[]),
                self.ty(ops[1]),
                self.ty(ops[0])
            )),
            VectorExtract if !ops.is_empty() && nres == 1 => {
                let pos = dense(d, "static_position")?;
                let mut dynamic = ops[1..].iter().copied();
                let p = self.mixed(&pos, &mut dynamic)?;
                if dynamic.next().is_some() {
                    return None;
                }
                t(format!(
                    "{name} {}{p}{} : {} from {}",
                    self.v(ops[0]),
                    rest(d, &["static_position"]),
                    self.rty(d, 0),
                    self.ty(ops[0])
                ))
            }
            VectorInsert if ops.len() >= 2 && nres == 1 => {
                let pos = dense(d, "static_position")?;
                let mut dynamic = ops[2..].iter().copied();
                let p = self.mixed(&pos, &mut dynamic)?;
                if dynamic.next().is_some() {
                    return None;
                }
                t(format!(
                    "{name} {}, {}{p}{} : {} into {}",
                    self.v(ops[0]),
                    self.v(ops[1]),
                    rest(d, &["static_position"]),
                    self.ty(ops[0]),
                    self.ty(ops[1])
                ))
            }
            VectorExtractElement if (1..=2).contains(&ops.len()) && nres == 1 => {
                let pos = ops
                    .get(1)
                    .map(|&p| format!("{} : {}", self.v(p), self.ty(p)))
                    .unwrap_or_default();
                t(format!(
                    "{name} {}[{pos}]{} : {}",
                    self.v(ops[0]),
                    rest(d, &[]),
                    self.ty(ops[0])
                ))
            }
            VectorInsertElement if (2..=3).contains(&ops.len()) && nres == 1 => {
                let pos = ops
                    .get(2)
                    .map(|&p| format!("{} : {}", self.v(p), self.ty(p)))
                    .unwrap_or_default();
                t(format!(
                    "{name} {}, {}[{pos}]{} : {}",
                    self.v(ops[0]),
                    self.v(ops[1]),
                    rest(d, &[]),
                    self.ty(ops[1])
                ))
            }
            VectorSplat if ops.len() == 1 && nres == 1 => t(format!(
                "{name} {}{} : {}",
                self.v(ops[0]),
                rest(d, &[]),
                self.rty(d, 0)
            )),
            VectorShuffle if ops.len() == 2 && nres == 1 => {
                let mask = dense(d, "mask")?;
                let m: Vec<String> = mask.iter().map(|x| x.to_string()).collect();
                t(format!(
                    "{name} {} [{}]{} : {}, {}",
                    self.vs(ops),
                    m.join(", "),
                    rest(d, &["mask"]),
                    self.ty(ops[0]),
                    self.ty(ops[1])
                ))
            }
            VectorInterleave if ops.len() == 2 && nres == 1 => t(format!(
                "{name} {}{} : {} -> {}",
                self.vs(ops),
                rest(d, &[]),
                self.ty(ops[0]),
                self.rty(d, 0)
            )),
            VectorDeinterleave if ops.len() == 1 && nres == 2 => t(format!(
                "{name} {}{} : {} -> {}",
                self.v(ops[0]),
                rest(d, &[]),
                self.ty(ops[0]),
                self.rty(d, 0)
            )),
            VectorReduction if (1..=2).contains(&ops.len()) && nres == 1 => {
                let kind = enum_attr(d, "kind")?;
                t(format!(
                    "{name} <{kind}>, {}{}{} : {} into {}",
                    self.vs(ops),
                    flags(d),
                    rest(d, &["kind", "fastmath"]),
                    self.ty(ops[0]),
                    self.rty(d, 0)
                ))
            }
            ScfFor if ops.len() >= 3 && d.regions.len() == 1 => {
                self.print_for(op, d)?;
                Some(Custom::Structured)
            }
            ScfIf if ops.len() == 1 && d.regions.len() == 2 => {
                self.print_if(op, d)?;
                Some(Custom::Structured)
            }
            ScfWhile if d.regions.len() == 2 => {
                self.print_while(op, d)?;
                Some(Custom::Structured)
            }
            GpuModule if d.regions.len() == 1 && nres == 0 => {
                self.print_gpu_module(d)?;
                Some(Custom::Structured)
            }
            GpuFunc | FuncFunc if d.regions.len() == 1 && nres == 0 => {
                self.print_func(d)?;
                Some(Custom::Structured)
            }
            _ => None,
        }
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
        let mut take = |n: i64| -> Vec<Value> { (0..n).filter_map(|_| it.next()).collect() };
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
