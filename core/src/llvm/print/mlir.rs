//! MLIR 19's LLVM dialect text of an [`LlvmModule`] (what `mlir-opt-19`
//! parses and `mlir-translate-19 --mlir-to-llvmir` translates).
//!
//! Values are numbered per function in definition order (`%argN` for
//! parameters, `%N` for the rest), blocks `^bbN`; types print as MLIR
//! does (`i32`, `f32`, `vector<4xf32>`, `!llvm.ptr`, `!llvm.array<4 x
//! f32>`, `!llvm.struct<packed (i8, i32)>`, with the `!llvm.` prefix
//! dropped inside other LLVM types).

use std::fmt::Write;

use super::super::ir::{
    ConstValue, Function, GepIndex, Global, GlobalInit, Inst, InstKind, LType, LValue, Linkage,
    LlvmModule, MemFlags,
};
use super::{access_words, float_kind, int_text, Names};
use crate::ir::FloatKind;
use crate::text::float::format_float;

/// Prints `m` as MLIR's LLVM dialect.
pub fn print(m: &LlvmModule) -> String {
    let mut out = String::new();
    match &m.name {
        Some(name) => {
            let _ = writeln!(out, "module {} {{", symbol(name));
        }
        None => out.push_str("module {\n"),
    }
    for (globals, functions) in m.section_items() {
        for g in globals {
            global(&mut out, g);
        }
        for f in functions {
            function(&mut out, f);
        }
    }
    out.push_str("}\n");
    out
}

/// An LLVM type as MLIR prints it at the top level.
pub fn ty(t: &LType) -> String {
    match t {
        LType::Array(..) | LType::Struct { .. } | LType::Ptr(_) | LType::Void => {
            format!("!llvm.{}", nested(t))
        }
        _ => nested(t),
    }
}

/// An LLVM type inside another LLVM type (no `!llvm.` prefix).
fn nested(t: &LType) -> String {
    match t {
        LType::Void => "void".into(),
        LType::Int(w) => format!("i{w}"),
        LType::Half => "f16".into(),
        LType::BFloat => "bf16".into(),
        LType::Float => "f32".into(),
        LType::Double => "f64".into(),
        LType::Vector(n, e) => format!("vector<{n}x{}>", nested(e)),
        LType::Array(n, e) => format!("array<{n} x {}>", nested(e)),
        LType::Struct { packed, fields } => {
            let inner: Vec<String> = fields.iter().map(nested).collect();
            format!(
                "struct<{}({})>",
                if *packed { "packed " } else { "" },
                inner.join(", ")
            )
        }
        LType::Ptr(0) => "ptr".into(),
        LType::Ptr(n) => format!("ptr<{n}>"),
    }
}

/// One scalar of a constant, as an attribute value without its type.
fn scalar(v: &ConstValue, t: &LType) -> String {
    match (v, t) {
        (ConstValue::Int(i), LType::Int(1)) => {
            if i & 1 == 1 {
                "true".into()
            } else {
                "false".into()
            }
        }
        (ConstValue::Int(i), LType::Int(w)) => int_text(*i, *w),
        (ConstValue::Float(bits), t) => {
            format_float(float_kind(t).unwrap_or(FloatKind::F32), *bits).0
        }
        (ConstValue::Int(i), t) if float_kind(t).is_some() => {
            format_float(
                float_kind(t).unwrap_or(FloatKind::F32),
                (*i as f64).to_bits(),
            )
            .0
        }
        (ConstValue::Int(i), _) => i.to_string(),
        (ConstValue::Lanes(_), _) => "0".into(),
    }
}

/// The attribute of `llvm.mlir.constant(...)` / a global's value.
fn const_attr(v: &ConstValue, t: &LType) -> String {
    match (v, t) {
        (ConstValue::Lanes(lanes), LType::Vector(_, e)) => {
            let items: Vec<String> = lanes.iter().map(|l| scalar(l, e)).collect();
            let body = if items.windows(2).all(|w| w[0] == w[1]) && !items.is_empty() {
                items[0].clone()
            } else {
                format!("[{}]", items.join(", "))
            };
            format!("dense<{body}> : {}", ty(t))
        }
        (_, LType::Int(1)) => scalar(v, t),
        _ => format!("{} : {}", scalar(v, t), ty(t)),
    }
}

fn linkage(l: Linkage) -> &'static str {
    match l {
        Linkage::External => "external ",
        Linkage::Private => "private ",
        Linkage::Internal => "internal ",
    }
}

fn global(out: &mut String, g: &Global) {
    let constant = if g.constant { "constant " } else { "" };
    let head = format!(
        "  llvm.mlir.global {}{constant}{}",
        linkage(g.linkage),
        symbol(&g.name)
    );
    let attrs = match g.location {
        Some(l) => format!(
            "{{addr_space = {} : i32, location = {l} : i32}}",
            g.addr_space
        ),
        None => format!("{{addr_space = {} : i32}}", g.addr_space),
    };
    match &g.init {
        Some(GlobalInit::Value(v)) => {
            let _ = writeln!(
                out,
                "{head}({}) {attrs} : {}",
                const_attr(v, &g.ty),
                ty(&g.ty)
            );
        }
        None => {
            let _ = writeln!(out, "{head}() {attrs} : {}", ty(&g.ty));
        }
        Some(init) => {
            // A region computing the value, as MLIR writes aggregates.
            let _ = writeln!(out, "{head}() {attrs} : {} {{", ty(&g.ty));
            let mut n = 0usize;
            let mut fresh = || {
                n += 1;
                n - 1
            };
            let root = fresh();
            match init {
                GlobalInit::Zero => {
                    let _ = writeln!(out, "    %{root} = llvm.mlir.zero : {}", ty(&g.ty));
                }
                GlobalInit::Undef => {
                    let _ = writeln!(out, "    %{root} = llvm.mlir.undef : {}", ty(&g.ty));
                }
                _ => {
                    let _ = writeln!(out, "    %{root} = llvm.mlir.undef : {}", ty(&g.ty));
                    let mut acc = root;
                    let mut leaves = Vec::new();
                    collect_leaves(init, &g.ty, &mut Vec::new(), &mut leaves);
                    for (path, v, lt) in leaves {
                        let c = fresh();
                        match v {
                            Some(v) => {
                                let _ = writeln!(
                                    out,
                                    "    %{c} = llvm.mlir.constant({}) : {}",
                                    const_attr(&v, &lt),
                                    ty(&lt)
                                );
                            }
                            None => {
                                let _ = writeln!(out, "    %{c} = llvm.mlir.zero : {}", ty(&lt));
                            }
                        }
                        let next = fresh();
                        let idx: Vec<String> = path.iter().map(u32::to_string).collect();
                        let _ = writeln!(
                            out,
                            "    %{next} = llvm.insertvalue %{c}, %{acc}[{}] : {}",
                            idx.join(", "),
                            ty(&g.ty)
                        );
                        acc = next;
                    }
                    let _ = writeln!(out, "    llvm.return %{acc} : {}", ty(&g.ty));
                    out.push_str("  }\n");
                    return;
                }
            }
            let _ = writeln!(out, "    llvm.return %{root} : {}", ty(&g.ty));
            out.push_str("  }\n");
        }
    }
}

/// The scalar leaves of an aggregate initializer with their paths (`None`:
/// a zero-initialized member).
type Leaf = (Vec<u32>, Option<ConstValue>, LType);

fn collect_leaves(init: &GlobalInit, t: &LType, path: &mut Vec<u32>, out: &mut Vec<Leaf>) {
    match init {
        GlobalInit::Aggregate(items) => {
            for (i, item) in items.iter().enumerate() {
                let mt = t.member(i as u64).cloned().unwrap_or(LType::I32);
                path.push(i as u32);
                collect_leaves(item, &mt, path, out);
                path.pop();
            }
        }
        GlobalInit::Value(v) => out.push((path.clone(), Some(v.clone()), t.clone())),
        GlobalInit::Zero => out.push((path.clone(), None, t.clone())),
        GlobalInit::Undef => {}
    }
}

fn function(out: &mut String, f: &Function) {
    let link = match f.linkage {
        Linkage::External => "",
        l => linkage(l),
    };
    let ret = if f.ret == LType::Void {
        String::new()
    } else {
        format!(" -> {}", ty(&f.ret))
    };
    let mut entries = Vec::new();
    if let Some(m) = f.memory {
        entries.push(format!(
            "memory = #llvm.memory_effects<other = {m}, argMem = {m}, inaccessibleMem = {m}>"
        ));
    }
    if !f.passthrough.is_empty() {
        let items: Vec<String> = f.passthrough.iter().map(|a| format!("\"{a}\"")).collect();
        entries.push(format!("passthrough = [{}]", items.join(", ")));
    }
    let attrs = if entries.is_empty() {
        String::new()
    } else {
        format!(" attributes {{{}}}", entries.join(", "))
    };
    if f.is_declaration() {
        let params: Vec<String> = f.param_types().iter().map(ty).collect();
        let _ = writeln!(
            out,
            "  llvm.func {link}{}({}){ret}{attrs}",
            symbol(&f.name),
            params.join(", ")
        );
        return;
    }
    let names = Names::new(f, "arg", "");
    let params: Vec<String> = f
        .params
        .iter()
        .map(|&p| format!("{}: {}", names.value(p), ty(f.ty(p))))
        .collect();
    let _ = writeln!(
        out,
        "  llvm.func {link}{}({}){ret}{attrs} {{",
        symbol(&f.name),
        params.join(", ")
    );
    for (bi, b) in f.blocks.iter().enumerate() {
        if bi > 0 {
            let args: Vec<String> = b
                .args
                .iter()
                .map(|&a| format!("{}: {}", names.value(a), ty(f.ty(a))))
                .collect();
            if args.is_empty() {
                let _ = writeln!(out, "  ^bb{bi}:");
            } else {
                let _ = writeln!(out, "  ^bb{bi}({}):", args.join(", "));
            }
        }
        for inst in &b.insts {
            out.push_str("    ");
            out.push_str(&instruction(f, &names, inst));
            out.push('\n');
        }
    }
    out.push_str("  }\n");
}

fn mem_attrs(flags: &MemFlags) -> String {
    let mut parts = Vec::new();
    if let Some(a) = flags.align {
        parts.push(format!("alignment = {a} : i64"));
    }
    if flags.nontemporal {
        parts.push("nontemporal".into());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", parts.join(", "))
    }
}

fn successor(
    names: &Names,
    f: &Function,
    (b, args): &(super::super::ir::LBlock, Vec<LValue>),
) -> String {
    if args.is_empty() {
        return format!("^bb{}", b.0);
    }
    let vals: Vec<String> = args.iter().map(|&a| names.value(a).to_owned()).collect();
    let tys: Vec<String> = args.iter().map(|&a| ty(f.ty(a))).collect();
    format!("^bb{}({} : {})", b.0, vals.join(", "), tys.join(", "))
}

fn instruction(f: &Function, names: &Names, inst: &Inst) -> String {
    let v = |i: usize| names.value(inst.operands[i]).to_owned();
    let t = |i: usize| ty(f.ty(inst.operands[i]));
    let all = || -> String {
        inst.operands
            .iter()
            .map(|&o| names.value(o).to_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all_types = || -> String {
        inst.operands
            .iter()
            .map(|&o| ty(f.ty(o)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rty = inst.result.map(|r| ty(f.ty(r))).unwrap_or_default();
    let lhs = inst
        .result
        .map(|r| format!("{} = ", names.value(r)))
        .unwrap_or_default();
    let body = match &inst.kind {
        InstKind::Constant(c) => {
            let rt = inst.result.map(|r| f.ty(r).clone()).unwrap_or(LType::I32);
            format!("llvm.mlir.constant({}) : {rty}", const_attr(c, &rt))
        }
        InstKind::Undef => format!("llvm.mlir.undef : {rty}"),
        InstKind::Poison => format!("llvm.mlir.poison : {rty}"),
        InstKind::Zero => format!("llvm.mlir.zero : {rty}"),
        InstKind::AddressOf(g) => format!("llvm.mlir.addressof {} : !llvm.ptr", symbol(g)),
        InstKind::Binary(op) => format!("llvm.{} {}, {} : {rty}", op.name(), v(0), v(1)),
        InstKind::FNeg => format!("llvm.fneg {} : {rty}", v(0)),
        InstKind::ICmp(p) => format!("llvm.icmp \"{}\" {}, {} : {}", p.name(), v(0), v(1), t(0)),
        InstKind::FCmp(p) => format!("llvm.fcmp \"{}\" {}, {} : {}", p.name(), v(0), v(1), t(0)),
        InstKind::Cast(c) => format!("llvm.{} {} : {} to {rty}", c.name(), v(0), t(0)),
        InstKind::Select => format!("llvm.select {}, {}, {} : {}, {rty}", v(0), v(1), v(2), t(0)),
        InstKind::ExtractElement => {
            format!(
                "llvm.extractelement {}[{} : {}] : {}",
                v(0),
                v(1),
                t(1),
                t(0)
            )
        }
        InstKind::InsertElement => format!(
            "llvm.insertelement {}, {}[{} : {}] : {}",
            v(1),
            v(0),
            v(2),
            t(2),
            t(0)
        ),
        InstKind::ShuffleVector(mask) => {
            let m: Vec<String> = mask.iter().map(i32::to_string).collect();
            format!(
                "llvm.shufflevector {}, {} [{}] : {}",
                v(0),
                v(1),
                m.join(", "),
                t(0)
            )
        }
        InstKind::ExtractValue(path) => {
            let p: Vec<String> = path.iter().map(u32::to_string).collect();
            format!("llvm.extractvalue {}[{}] : {}", v(0), p.join(", "), t(0))
        }
        InstKind::InsertValue(path) => {
            let p: Vec<String> = path.iter().map(u32::to_string).collect();
            format!(
                "llvm.insertvalue {}, {}[{}] : {}",
                v(1),
                v(0),
                p.join(", "),
                t(0)
            )
        }
        InstKind::Alloca { elem, align } => {
            let a = align
                .map(|a| format!(" {{alignment = {a} : i64}}"))
                .unwrap_or_default();
            format!(
                "llvm.alloca {} x {}{a} : ({}) -> !llvm.ptr",
                v(0),
                ty(elem),
                t(0)
            )
        }
        InstKind::Load(flags) => {
            let (vol, order) = access_words(flags);
            let atomic = order.map(|o| format!(" atomic {o}")).unwrap_or_default();
            format!(
                "llvm.load {vol}{}{atomic}{} : !llvm.ptr -> {rty}",
                v(0),
                mem_attrs(flags)
            )
        }
        InstKind::Store(flags) => {
            let (vol, order) = access_words(flags);
            let atomic = order.map(|o| format!(" atomic {o}")).unwrap_or_default();
            format!(
                "llvm.store {vol}{}, {}{atomic}{} : {}, !llvm.ptr",
                v(0),
                v(1),
                mem_attrs(flags),
                t(0)
            )
        }
        InstKind::Gep { elem, indices } => {
            let idx: Vec<String> = indices
                .iter()
                .map(|i| match i {
                    GepIndex::Const(c) => c.to_string(),
                    GepIndex::Operand(o) => v(*o),
                })
                .collect();
            let dyn_types: Vec<String> = (0..inst.operands.len()).map(t).collect();
            format!(
                "llvm.getelementptr {}[{}] : ({}) -> !llvm.ptr, {}",
                v(0),
                idx[..].join(", "),
                dyn_types.join(", "),
                ty(elem)
            )
        }
        InstKind::Call { callee } => {
            let ret = if inst.result.is_some() {
                rty.clone()
            } else {
                "()".into()
            };
            format!(
                "llvm.call {}({}) : ({}) -> {ret}",
                symbol(callee),
                all(),
                all_types()
            )
        }
        InstKind::Intrinsic(intr) => match (intr.flag, intr.name) {
            (Some(flag), name) => {
                let key = if name == "abs" {
                    "is_int_min_poison"
                } else {
                    "is_zero_poison"
                };
                format!(
                    "\"llvm.intr.{name}\"({}) <{{{key} = {flag}}}> : ({}) -> {rty}",
                    all(),
                    all_types()
                )
            }
            // MLIR 19's LLVM dialect has no op for llvm.frexp: the generic
            // intrinsic call, with the overloads mangled as LLVM does.
            (None, "frexp") => {
                let mut full = String::from("llvm.frexp");
                for o in &intr.overloads {
                    full.push('.');
                    full.push_str(&super::llvm_ir::mangle(o));
                }
                format!(
                    "llvm.call_intrinsic \"{full}\"({}) : ({}) -> {rty}",
                    all(),
                    all_types()
                )
            }
            (None, name) => format!("llvm.intr.{name}({}) : ({}) -> {rty}", all(), all_types()),
        },
        InstKind::AtomicRmw { op, ordering } => format!(
            "llvm.atomicrmw {} {}, {} {} : !llvm.ptr, {}",
            op.mlir_name(),
            v(0),
            v(1),
            ordering.name(),
            t(1)
        ),
        InstKind::CmpXchg { success, failure } => format!(
            "llvm.cmpxchg {}, {}, {} {} {} : !llvm.ptr, {}",
            v(0),
            v(1),
            v(2),
            success.name(),
            failure.name(),
            t(1)
        ),
        InstKind::Fence(o) => format!("llvm.fence {}", o.name()),
        InstKind::Freeze => format!("llvm.freeze {} : {rty}", v(0)),
        InstKind::Br => format!("llvm.br {}", successor(names, f, &inst.successors[0])),
        InstKind::CondBr { weights } => {
            let w = weights
                .map(|(a, b)| format!(" weights([{a}, {b}])"))
                .unwrap_or_default();
            format!(
                "llvm.cond_br {}{w}, {}, {}",
                v(0),
                successor(names, f, &inst.successors[0]),
                successor(names, f, &inst.successors[1])
            )
        }
        InstKind::Switch(cases) => {
            let mut s = format!(
                "llvm.switch {} : {}, {} [",
                v(0),
                t(0),
                successor(names, f, &inst.successors[0])
            );
            let width = f.ty(inst.operands[0]).bits();
            let items: Vec<String> = cases
                .iter()
                .zip(&inst.successors[1..])
                .map(|(c, succ)| {
                    format!(
                        "\n      {}: {}",
                        int_text(*c, width),
                        successor(names, f, succ)
                    )
                })
                .collect();
            s.push_str(&items.join(","));
            s.push_str("\n    ]");
            s
        }
        InstKind::Ret => match inst.operands.first() {
            Some(_) => format!("llvm.return {} : {}", v(0), t(0)),
            None => "llvm.return".into(),
        },
        InstKind::Unreachable => "llvm.unreachable".into(),
    };
    format!("{lhs}{body}")
}

/// `@name`, quoted when it is not a bare identifier.
fn symbol(name: &str) -> String {
    let mut out = String::new();
    crate::text::write_symbol(&mut out, name);
    out
}
