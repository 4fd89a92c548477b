//! LLVM IR text of an [`LlvmModule`] (what `llvm-as-19` and `llc-19`
//! read).
//!
//! Block arguments become `phi` nodes (one entry per predecessor edge; a
//! block without predecessors has its arguments replaced by `poison`),
//! constants and global addresses are written inline at their uses,
//! intrinsics are called by their mangled names (`@llvm.sqrt.f32`,
//! `@llvm.ctpop.v4i32`) and declared at the end, and `nontemporal` /
//! branch weights become metadata. Values are named `%vN`, parameters
//! `%argN`, blocks `bbN`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use super::super::ir::{
    ConstValue, Function, GepIndex, Global, GlobalInit, Inst, InstKind, Intrinsic, LBlock, LType,
    LValue, Linkage, LlvmModule,
};
use super::{access_words, float_kind, int_text, Names};
use crate::ir::FloatKind;
use crate::text::float::from_f64_bits;

/// Prints `m` as LLVM IR.
pub fn print(m: &LlvmModule) -> String {
    let mut p = Printer::default();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; ModuleID = '{}'",
        m.name.as_deref().unwrap_or("kiln")
    );
    let _ = writeln!(
        out,
        "source_filename = \"{}\"\n",
        m.name.as_deref().unwrap_or("kiln")
    );
    for (globals, functions) in m.section_items() {
        for g in globals {
            global(&mut out, g);
        }
        if !globals.is_empty() {
            out.push('\n');
        }
        for f in functions {
            p.function(&mut out, f);
            out.push('\n');
        }
    }
    for (name, (ret, params, flag)) in &p.intrinsics {
        let mut ps: Vec<String> = params.iter().map(ToString::to_string).collect();
        if *flag {
            ps.push("i1 immarg".into());
        }
        let _ = writeln!(out, "declare {ret} @{name}({})", ps.join(", "));
    }
    if !p.metadata.is_empty() {
        out.push('\n');
        for (i, md) in p.metadata.iter().enumerate() {
            let _ = writeln!(out, "!{i} = {md}");
        }
    }
    out
}

#[derive(Default)]
struct Printer {
    /// Mangled name → (result type, parameter types, trailing `i1` flag).
    intrinsics: BTreeMap<String, (LType, Vec<LType>, bool)>,
    metadata: Vec<String>,
    nontemporal: Option<usize>,
}

pub(super) fn mangle(t: &LType) -> String {
    match t {
        LType::Int(w) => format!("i{w}"),
        LType::Half => "f16".into(),
        LType::BFloat => "bf16".into(),
        LType::Float => "f32".into(),
        LType::Double => "f64".into(),
        LType::Vector(n, e) => format!("v{n}{}", mangle(e)),
        LType::Ptr(a) => format!("p{a}"),
        other => other.to_string(),
    }
}

/// A scalar constant's text.
fn scalar(v: &ConstValue, t: &LType) -> String {
    let bits = match v {
        ConstValue::Float(b) => *b,
        ConstValue::Int(i) if float_kind(t).is_some() => (*i as f64).to_bits(),
        ConstValue::Int(i) => {
            return match t {
                LType::Int(1) => {
                    if i & 1 == 1 {
                        "true".into()
                    } else {
                        "false".into()
                    }
                }
                LType::Int(w) => int_text(*i, *w),
                _ => i.to_string(),
            }
        }
        ConstValue::Lanes(_) => return "zeroinitializer".into(),
    };
    match float_kind(t) {
        Some(FloatKind::F16) => format!("0xH{:04X}", from_f64_bits(FloatKind::F16, bits)),
        Some(FloatKind::BF16) => format!("0xR{:04X}", from_f64_bits(FloatKind::BF16, bits)),
        Some(FloatKind::F32) => {
            let f = f64::from_bits(bits) as f32;
            format!("0x{:016X}", f64::from(f).to_bits())
        }
        _ => format!("0x{bits:016X}"),
    }
}

/// A constant's text (without its type).
fn constant(v: &ConstValue, t: &LType) -> String {
    match (v, t) {
        (ConstValue::Lanes(lanes), LType::Vector(_, e)) => {
            let items: Vec<String> = lanes
                .iter()
                .map(|l| format!("{e} {}", scalar(l, e)))
                .collect();
            format!("<{}>", items.join(", "))
        }
        _ => scalar(v, t),
    }
}

/// `(atomic , volatile , " ordering")` words of a load or store.
fn access(flags: &super::super::ir::MemFlags) -> (&'static str, &'static str, String) {
    let (vol, order) = access_words(flags);
    match order {
        Some(o) => ("atomic ", vol, format!(" {o}")),
        None => ("", vol, String::new()),
    }
}

fn zero(t: &LType) -> String {
    match t {
        LType::Ptr(_) => "null".into(),
        LType::Int(_) | LType::Half | LType::BFloat | LType::Float | LType::Double => {
            scalar(&ConstValue::Int(0), t)
        }
        _ => "zeroinitializer".into(),
    }
}

fn init_text(init: &GlobalInit, t: &LType) -> String {
    match init {
        GlobalInit::Value(v) => constant(v, t),
        GlobalInit::Zero => zero(t),
        GlobalInit::Undef => "undef".into(),
        GlobalInit::Aggregate(items) => {
            let parts: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let mt = t.member(i as u64).cloned().unwrap_or(LType::I32);
                    format!("{mt} {}", init_text(item, &mt))
                })
                .collect();
            match t {
                LType::Struct { packed: true, .. } => format!("<{{ {} }}>", parts.join(", ")),
                LType::Struct { .. } => format!("{{ {} }}", parts.join(", ")),
                LType::Vector(..) => format!("<{}>", parts.join(", ")),
                _ => format!("[{}]", parts.join(", ")),
            }
        }
    }
}

fn global(out: &mut String, g: &Global) {
    let link = match (g.linkage, &g.init) {
        (Linkage::Private, _) => "private ",
        (Linkage::Internal, _) => "internal ",
        (Linkage::External, None) => "external ",
        (Linkage::External, Some(_)) => "",
    };
    let space = if g.addr_space == 0 {
        String::new()
    } else {
        format!("addrspace({}) ", g.addr_space)
    };
    let kind = if g.constant { "constant" } else { "global" };
    let init = match (&g.init, g.linkage) {
        (Some(i), _) => format!(" {}", init_text(i, &g.ty)),
        (None, Linkage::External) => String::new(),
        (None, _) => " undef".into(),
    };
    let _ = writeln!(
        out,
        "{} = {link}{space}{kind} {}{init}",
        GlobalName(&g.name),
        g.ty
    );
}

impl Printer {
    fn function(&mut self, out: &mut String, f: &Function) {
        let link = match f.linkage {
            Linkage::External => "",
            Linkage::Private => "private ",
            Linkage::Internal => "internal ",
        };
        if f.is_declaration() {
            let params: Vec<String> = f.param_types().iter().map(ToString::to_string).collect();
            let _ = writeln!(
                out,
                "declare {} {}({})",
                f.ret,
                GlobalName(&f.name),
                params.join(", ")
            );
            return;
        }
        let names = Names::new(f, "arg", "v");
        // Inline texts of constants; predecessors of blocks.
        let mut inline: HashMap<LValue, String> = HashMap::new();
        let mut preds: Vec<Vec<(LBlock, Vec<LValue>)>> = vec![Vec::new(); f.blocks.len()];
        for (bi, b) in f.blocks.iter().enumerate() {
            for inst in &b.insts {
                if let Some(r) = inst.result {
                    let t = f.ty(r);
                    let text = match &inst.kind {
                        InstKind::Constant(c) => Some(constant(c, t)),
                        InstKind::Undef => Some("undef".into()),
                        InstKind::Poison => Some("poison".into()),
                        InstKind::Zero => Some(zero(t)),
                        InstKind::AddressOf(g) => Some(GlobalName(g).to_string()),
                        _ => None,
                    };
                    if let Some(text) = text {
                        inline.insert(r, text);
                    }
                }
                for (target, args) in &inst.successors {
                    preds[target.0 as usize].push((LBlock(bi as u32), args.clone()));
                }
            }
        }
        for (bi, b) in f.blocks.iter().enumerate() {
            if preds[bi].is_empty() {
                for &a in &b.args {
                    inline.insert(a, "poison".into());
                }
            }
        }
        let val = |v: LValue| -> String {
            inline
                .get(&v)
                .cloned()
                .unwrap_or_else(|| names.value(v).to_owned())
        };
        let params: Vec<String> = f
            .params
            .iter()
            .map(|&p| format!("{} {}", f.ty(p), names.value(p)))
            .collect();
        let mut attrs = String::new();
        for a in &f.passthrough {
            attrs.push(' ');
            attrs.push_str(a);
        }
        if let Some(m) = f.memory {
            attrs.push_str(&format!(" memory({m})"));
        }
        let _ = writeln!(
            out,
            "define {link}{} {}({}){attrs} {{",
            f.ret,
            GlobalName(&f.name),
            params.join(", ")
        );
        for (bi, b) in f.blocks.iter().enumerate() {
            let _ = writeln!(out, "bb{bi}:");
            if !preds[bi].is_empty() {
                for (ai, &a) in b.args.iter().enumerate() {
                    let incoming: Vec<String> = preds[bi]
                        .iter()
                        .map(|(p, args)| format!("[ {}, %bb{} ]", val(args[ai]), p.0))
                        .collect();
                    let _ = writeln!(
                        out,
                        "  {} = phi {} {}",
                        names.value(a),
                        f.ty(a),
                        incoming.join(", ")
                    );
                }
            }
            for inst in &b.insts {
                if inst.kind.is_inline() {
                    continue;
                }
                let text = self.instruction(f, &names, &val, inst);
                let _ = writeln!(out, "  {text}");
            }
        }
        out.push_str("}\n");
    }

    fn instruction(
        &mut self,
        f: &Function,
        names: &Names,
        val: &dyn Fn(LValue) -> String,
        inst: &Inst,
    ) -> String {
        let v = |i: usize| val(inst.operands[i]);
        let t = |i: usize| f.ty(inst.operands[i]).to_string();
        let tv = |i: usize| format!("{} {}", t(i), v(i));
        let rty = inst.result.map(|r| f.ty(r).clone()).unwrap_or(LType::Void);
        let lhs = inst
            .result
            .map(|r| format!("{} = ", names.value(r)))
            .unwrap_or_default();
        let body = match &inst.kind {
            InstKind::Constant(_)
            | InstKind::Undef
            | InstKind::Poison
            | InstKind::Zero
            | InstKind::AddressOf(_) => String::new(),
            InstKind::Binary(op) => format!("{} {}, {}", op.name(), tv(0), v(1)),
            InstKind::FNeg => format!("fneg {}", tv(0)),
            InstKind::ICmp(p) => format!("icmp {} {}, {}", p.name(), tv(0), v(1)),
            InstKind::FCmp(p) => format!("fcmp {} {}, {}", p.name(), tv(0), v(1)),
            InstKind::Cast(c) => format!("{} {} to {rty}", c.name(), tv(0)),
            InstKind::Select => format!("select {}, {}, {}", tv(0), tv(1), tv(2)),
            InstKind::ExtractElement => format!("extractelement {}, {}", tv(0), tv(1)),
            InstKind::InsertElement => format!("insertelement {}, {}, {}", tv(0), tv(1), tv(2)),
            InstKind::ShuffleVector(mask) => {
                let m: Vec<String> = mask
                    .iter()
                    .map(|&i| {
                        if i < 0 {
                            "i32 poison".into()
                        } else {
                            format!("i32 {i}")
                        }
                    })
                    .collect();
                format!(
                    "shufflevector {}, {}, <{} x i32> <{}>",
                    tv(0),
                    tv(1),
                    mask.len(),
                    m.join(", ")
                )
            }
            InstKind::ExtractValue(path) => {
                let p: Vec<String> = path.iter().map(u32::to_string).collect();
                format!("extractvalue {}, {}", tv(0), p.join(", "))
            }
            InstKind::InsertValue(path) => {
                let p: Vec<String> = path.iter().map(u32::to_string).collect();
                format!("insertvalue {}, {}, {}", tv(0), tv(1), p.join(", "))
            }
            InstKind::Alloca { elem, align } => {
                let a = align.map(|a| format!(", align {a}")).unwrap_or_default();
                format!("alloca {elem}, {}{a}", tv(0))
            }
            InstKind::Load(flags) => {
                let (atomic, vol, order) = access(flags);
                let mut s = format!("load {atomic}{vol}{rty}, {}{order}", tv(0));
                self.mem_suffix(&mut s, flags.align, flags.nontemporal);
                s
            }
            InstKind::Store(flags) => {
                let (atomic, vol, order) = access(flags);
                let mut s = format!("store {atomic}{vol}{}, {}{order}", tv(0), tv(1));
                self.mem_suffix(&mut s, flags.align, flags.nontemporal);
                s
            }
            InstKind::Gep { elem, indices } => {
                let idx: Vec<String> = indices
                    .iter()
                    .map(|i| match i {
                        GepIndex::Const(c) => format!("i32 {c}"),
                        GepIndex::Operand(o) => tv(*o),
                    })
                    .collect();
                let mut s = format!("getelementptr {elem}, {}", tv(0));
                for i in idx {
                    s.push_str(", ");
                    s.push_str(&i);
                }
                s
            }
            InstKind::Call { callee } => {
                let args: Vec<String> = (0..inst.operands.len()).map(tv).collect();
                format!("call {rty} {}({})", GlobalName(callee), args.join(", "))
            }
            InstKind::Intrinsic(intr) => {
                let params = inst.operands.iter().map(|&o| f.ty(o).clone()).collect();
                self.intrinsic(intr, &rty, params, inst, &tv)
            }
            InstKind::AtomicRmw { op, ordering } => {
                format!(
                    "atomicrmw {} {}, {} {}",
                    op.name(),
                    tv(0),
                    tv(1),
                    ordering.name()
                )
            }
            InstKind::CmpXchg { success, failure } => format!(
                "cmpxchg {}, {}, {} {} {}",
                tv(0),
                tv(1),
                tv(2),
                success.name(),
                failure.name()
            ),
            InstKind::Fence(o) => format!("fence {}", o.name()),
            InstKind::Freeze => format!("freeze {}", tv(0)),
            InstKind::Br => format!("br label %bb{}", inst.successors[0].0 .0),
            InstKind::CondBr { weights } => {
                let mut s = format!(
                    "br {}, label %bb{}, label %bb{}",
                    tv(0),
                    inst.successors[0].0 .0,
                    inst.successors[1].0 .0
                );
                if let Some((a, b)) = weights {
                    self.metadata
                        .push(format!("!{{!\"branch_weights\", i32 {a}, i32 {b}}}"));
                    let _ = write!(s, ", !prof !{}", self.metadata.len() - 1);
                }
                s
            }
            InstKind::Switch(cases) => {
                let width = f.ty(inst.operands[0]).bits();
                let mut s = format!("switch {}, label %bb{} [", tv(0), inst.successors[0].0 .0);
                for (c, (b, _)) in cases.iter().zip(&inst.successors[1..]) {
                    let _ = write!(s, " {} {}, label %bb{}", t(0), int_text(*c, width), b.0);
                }
                s.push_str(" ]");
                s
            }
            InstKind::Ret => match inst.operands.first() {
                Some(_) => format!("ret {}", tv(0)),
                None => "ret void".into(),
            },
            InstKind::Unreachable => "unreachable".into(),
        };
        format!("{lhs}{body}")
    }

    fn mem_suffix(&mut self, s: &mut String, align: Option<u64>, nontemporal: bool) {
        if let Some(a) = align {
            let _ = write!(s, ", align {a}");
        }
        if nontemporal {
            let id = *self.nontemporal.get_or_insert_with(|| {
                self.metadata.push("!{i32 1}".into());
                self.metadata.len() - 1
            });
            let _ = write!(s, ", !nontemporal !{id}");
        }
    }

    fn intrinsic(
        &mut self,
        intr: &Intrinsic,
        rty: &LType,
        params: Vec<LType>,
        inst: &Inst,
        tv: &dyn Fn(usize) -> String,
    ) -> String {
        let mut name = format!("llvm.{}", intr.name);
        for o in &intr.overloads {
            name.push('.');
            name.push_str(&mangle(o));
        }
        let mut args: Vec<String> = (0..inst.operands.len()).map(tv).collect();
        if let Some(flag) = intr.flag {
            args.push(format!("i1 {flag}"));
        }
        self.intrinsics
            .entry(name.clone())
            .or_insert_with(|| (rty.clone(), params, intr.flag.is_some()));
        format!("call {rty} @{name}({})", args.join(", "))
    }
}

/// A global's name as LLVM IR spells it: `@name` when it is an LLVM
/// identifier (`[-a-zA-Z$._][-a-zA-Z$._0-9]*`), else `@"..."` with `"`,
/// `\` and bytes outside printable ASCII as `\XX` (names that other
/// producers give functions, like glslang's `classify(u1;`).
struct GlobalName<'a>(&'a str);

impl std::fmt::Display for GlobalName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ident = |c: u8| c.is_ascii_alphanumeric() || b"-$._".contains(&c);
        let bytes = self.0.as_bytes();
        if !bytes.is_empty() && !bytes[0].is_ascii_digit() && bytes.iter().all(|&c| ident(c)) {
            return write!(f, "@{}", self.0);
        }
        f.write_str("@\"")?;
        for &c in bytes {
            if c == b'"' || c == b'\\' || !(0x20..0x7f).contains(&c) {
                write!(f, "\\{c:02X}")?;
            } else {
                write!(f, "{}", c as char)?;
            }
        }
        f.write_str("\"")
    }
}
