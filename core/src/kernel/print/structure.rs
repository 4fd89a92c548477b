//! Custom assembly of the structural ops: `scf.for`/`if`/`while`,
//! `gpu.module`, `gpu.func` and `func.func`.

use super::attrs::{attr_to_string, dict_to_string, symbol, type_to_string};
use super::ops::{attr, attributes_clause, rest};
use super::Printer;
use crate::kernel::entity::{KOp, KRegion};
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;

impl Printer<'_> {
    pub(super) fn print_for(&mut self, op: KOp, d: &KOpData) -> Option<()> {
        let region = d.regions[0];
        let entry = *self.m.region(region).blocks.first()?;
        let args = self.m.block(entry).args.clone();
        let inits = &d.operands[3..];
        if args.len() != inits.len() + 1 || d.results.len() != inits.len() {
            return None;
        }
        let iv_ty = self.m.value_type(args[0]).clone();
        let (lb, ub, step) = (
            self.v(d.operands[0]),
            self.v(d.operands[1]),
            self.v(d.operands[2]),
        );
        let init_names: Vec<String> = inits.iter().map(|&v| self.v(v)).collect();
        let prefix = self.name_results(op);
        self.w(&prefix);
        let iv = self.name_arg(args[0]);
        self.w(&format!("scf.for {iv} = {lb} to {ub} step {step}"));
        if !inits.is_empty() {
            let items: Vec<String> = args[1..]
                .iter()
                .zip(&init_names)
                .map(|(&a, init)| {
                    let n = self.name_arg(a);
                    format!("{n} = {init}")
                })
                .collect();
            let tys: Vec<String> = d.results.iter().map(|&r| self.ty(r)).collect();
            self.w(&format!(
                " iter_args({}) -> ({})",
                items.join(", "),
                tys.join(", ")
            ));
        }
        if iv_ty != KType::Index {
            self.w(&format!(" : {}", type_to_string(&iv_ty)));
        }
        self.w(" ");
        self.print_region(region, true, inits.is_empty());
        self.w(&rest(d, &[]));
        Some(())
    }

    pub(super) fn print_if(&mut self, op: KOp, d: &KOpData) -> Option<()> {
        let c = self.v(d.operands[0]);
        let prefix = self.name_results(op);
        self.w(&prefix);
        self.w(&format!("scf.if {c}"));
        if !d.results.is_empty() {
            let tys: Vec<String> = d.results.iter().map(|&r| self.ty(r)).collect();
            self.w(&format!(" -> ({})", tys.join(", ")));
        }
        let elide = d.results.is_empty();
        self.w(" ");
        self.print_region(d.regions[0], false, elide);
        if !self.m.region(d.regions[1]).blocks.is_empty() {
            self.w(" else ");
            self.print_region(d.regions[1], false, elide);
        }
        self.w(&rest(d, &[]));
        Some(())
    }

    pub(super) fn print_while(&mut self, op: KOp, d: &KOpData) -> Option<()> {
        let before = *self.m.region(d.regions[0]).blocks.first()?;
        let args = self.m.block(before).args.clone();
        if args.len() != d.operands.len() {
            return None;
        }
        let inits: Vec<String> = d.operands.iter().map(|&v| self.v(v)).collect();
        let in_tys = self.tys(&d.operands);
        let results: Vec<KType> = d
            .results
            .iter()
            .map(|&r| self.m.value_type(r).clone())
            .collect();
        let prefix = self.name_results(op);
        self.w(&prefix);
        let items: Vec<String> = args
            .iter()
            .zip(&inits)
            .map(|(&a, init)| {
                let n = self.name_arg(a);
                format!("{n} = {init}")
            })
            .collect();
        self.w(&format!(
            "scf.while ({}) : ({in_tys}) -> {} ",
            items.join(", "),
            super::results_to_string(&results)
        ));
        self.print_region(d.regions[0], true, false);
        self.w(" do ");
        self.print_after_region(d.regions[1]);
        self.w(&rest(d, &[]));
        Some(())
    }

    /// The `do` region of `scf.while`: its entry label is always printed
    /// (MLIR does), even without arguments.
    pub(super) fn print_after_region(&mut self, region: KRegion) {
        let blocks = self.m.region(region).blocks.clone();
        self.w("{\n");
        self.indent += 1;
        for (i, &block) in blocks.iter().enumerate() {
            let args = self.m.block(block).args.clone();
            self.indent = self.indent.saturating_sub(1);
            self.line_start();
            self.indent += 1;
            let items: Vec<String> = args
                .iter()
                .map(|&a| {
                    let n = self.name_arg(a);
                    format!("{n}: {}", self.ty(a))
                })
                .collect();
            if items.is_empty() {
                self.w(&format!("^bb{i}:\n"));
            } else {
                self.w(&format!("^bb{i}({}):\n", items.join(", ")));
            }
            self.print_block_ops(block, false);
        }
        self.indent = self.indent.saturating_sub(1);
        self.line_start();
        self.w("}");
    }

    pub(super) fn print_gpu_module(&mut self, d: &KOpData) -> Option<()> {
        let KAttr::String(name) = attr(d, "sym_name")? else {
            return None;
        };
        self.w(&format!("gpu.module {}", symbol(name)));
        if let Some(targets) = attr(d, "targets") {
            self.w(&format!(" {}", attr_to_string(targets)));
        }
        self.w(&attributes_clause(d, &["sym_name", "targets"]));
        self.w(" ");
        let region = d.regions[0];
        self.isolated(KOpKind::GpuModule, |p| p.print_region(region, false, false));
        Some(())
    }

    pub(super) fn print_func(&mut self, d: &KOpData) -> Option<()> {
        let KAttr::String(name) = attr(d, "sym_name")? else {
            return None;
        };
        let Some(KAttr::Type(KType::Function { inputs, results })) = attr(d, "function_type")
        else {
            return None;
        };
        // `arg_attrs`/`res_attrs`: one dictionary per argument or result.
        let dicts = |name: &str| -> Vec<Vec<(String, KAttr)>> {
            match attr(d, name) {
                Some(KAttr::Array(items)) => items
                    .iter()
                    .map(|a| match a {
                        KAttr::Dict(e) => e.clone(),
                        _ => Vec::new(),
                    })
                    .collect(),
                _ => Vec::new(),
            }
        };
        let arg_attrs = dicts("arg_attrs");
        let res_attrs = dicts("res_attrs");
        let region = d.regions[0];
        let entry = self.m.region(region).blocks.first().copied();
        let block_args = entry.map(|b| self.m.block(b).args.clone());
        let is_gpu = d.kind == KOpKind::GpuFunc;
        let workgroup = match attr(d, "workgroup_attributions") {
            Some(KAttr::Int { value, .. }) => usize::try_from(*value).ok()?,
            _ => 0,
        };
        if let Some(args) = &block_args {
            if args.len() < inputs.len() + if is_gpu { workgroup } else { 0 } {
                return None;
            }
            if !is_gpu && args.len() != inputs.len() {
                return None;
            }
            for (a, t) in args.iter().zip(inputs.iter()) {
                if self.m.value_type(*a) != t {
                    return None;
                }
            }
        } else if is_gpu {
            return None;
        }
        let kind = d.kind;
        let d = d.clone();
        let inputs = inputs.clone();
        let results = results.clone();
        self.isolated(kind, |p| {
            p.w(if is_gpu { "gpu.func " } else { "func.func " });
            if let Some(KAttr::String(v)) = attr(&d, "sym_visibility") {
                p.w(&format!("{v} "));
            }
            p.w(&symbol(name));
            let mut items = Vec::new();
            for (i, t) in inputs.iter().enumerate() {
                let mut s = match &block_args {
                    Some(args) => {
                        let n = p.name_arg(args[i]);
                        format!("{n}: {}", type_to_string(t))
                    }
                    None => type_to_string(t),
                };
                if let Some(a) = arg_attrs.get(i).filter(|a| !a.is_empty()) {
                    s.push(' ');
                    s.push_str(&dict_to_string(a));
                }
                items.push(s);
            }
            p.w(&format!("({})", items.join(", ")));
            if !results.is_empty() {
                let rs: Vec<String> = results
                    .iter()
                    .enumerate()
                    .map(|(i, t)| match res_attrs.get(i).filter(|a| !a.is_empty()) {
                        Some(a) => format!("{} {}", type_to_string(t), dict_to_string(a)),
                        None => type_to_string(t),
                    })
                    .collect();
                if rs.len() == 1 && res_attrs.iter().all(|a| a.is_empty()) {
                    p.w(&format!(" -> {}", rs[0]));
                } else {
                    p.w(&format!(" -> ({})", rs.join(", ")));
                }
            }
            if let Some(args) = &block_args {
                if is_gpu {
                    let extra = &args[inputs.len()..];
                    let (wg, pv) = extra.split_at(workgroup.min(extra.len()));
                    for (kw, list) in [("workgroup", wg), ("private", pv)] {
                        if list.is_empty() {
                            continue;
                        }
                        let items: Vec<String> = list
                            .iter()
                            .map(|&a| {
                                let n = p.name_arg(a);
                                format!("{n} : {}", p.ty(a))
                            })
                            .collect();
                        p.w(&format!(" {kw}({})", items.join(", ")));
                    }
                }
            }
            if attr(&d, "gpu.kernel").is_some() && is_gpu {
                p.w(" kernel");
            }
            let skip = [
                "sym_name",
                "function_type",
                "sym_visibility",
                "arg_attrs",
                "res_attrs",
                "gpu.kernel",
                "workgroup_attributions",
            ];
            p.w(&attributes_clause(&d, &skip));
            if block_args.is_some() {
                p.w(" ");
                p.print_region(region, true, false);
            }
        });
        Some(())
    }
}
