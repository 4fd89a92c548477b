//! The printer: a tensor program in MLIR 19's syntax (what `mlir-opt-19`
//! accepts, and for the IREE ops IREE's syntax).
//!
//! Values are numbered per function: `%argN` for block arguments (the
//! function's, then those of regions in order), `%N` for op results in
//! program order (`%N:2` for an op with two results, used as `%N#1`).
//! Affine maps print inline. Dense attributes with more than 100
//! elements print in MLIR's hexadecimal form, as `mlir-opt` does.
//! Named linalg ops print without their (synthesized) body;
//! `linalg.map`/`linalg.reduce` use the short form `{ arith.addf }` when
//! their body is one payload op MLIR's short form would rebuild.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::attr::{ConstAttr, DenseElements, Elements, Mixed, ScalarBits};
use super::entity::{TBlock, TOp, TType, TValue};
use super::module::TensorModule;
use super::ops::{CheckOp, LinalgKind, OpKind, TensorOp};
use super::types::{ElemType, TypeKind};
use crate::text::float::format_float;

/// Prints a whole module.
pub fn print(m: &TensorModule) -> String {
    let mut p = Printer {
        m,
        out: String::new(),
        names: HashMap::new(),
        next_arg: 0,
        next_result: 0,
    };
    let wrapped = m.name.is_some() || !m.attributes.is_empty();
    let mut indent = 0;
    if wrapped {
        p.out.push_str("module");
        if let Some(n) = &m.name {
            let _ = write!(p.out, " @{n}");
        }
        if !m.attributes.is_empty() {
            let _ = write!(p.out, " attributes {}", attr_dict(&m.attributes));
        }
        p.out.push_str(" {\n");
        indent = 1;
    }
    for (i, &f) in m.funcs().iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
        }
        p.func(f, indent);
    }
    if wrapped {
        p.out.push_str("}\n");
    }
    p.out
}

/// Prints a type (`tensor<4x?xf32>`).
pub fn type_to_string(m: &TensorModule, t: TType) -> String {
    m.types.text(t)
}

/// Prints a dense attribute with its type (`dense<[1, 2]> : tensor<2xi32>`).
pub fn dense_to_string(m: &TensorModule, d: &DenseElements) -> String {
    format!("{} : {}", dense_body(m, d), m.types.text(d.ty))
}

/// `{name = value, unit, ...}` from attributes kept as written; names that
/// are not bare identifiers are quoted.
fn attr_dict(attrs: &[(String, String)]) -> String {
    let items: Vec<String> = attrs
        .iter()
        .map(|(k, v)| {
            let bare = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c));
            let name = if bare { k.clone() } else { format!("{k:?}") };
            if v.is_empty() {
                name
            } else {
                format!("{name} = {v}")
            }
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// ` {attrs}` after an argument's or result's type, or nothing.
fn attrs_suffix(attrs: Option<&Vec<(String, String)>>) -> String {
    match attrs {
        Some(a) if !a.is_empty() => format!(" {}", attr_dict(a)),
        _ => String::new(),
    }
}

/// A scalar element as MLIR prints it in attributes.
pub fn scalar_to_string(elem: ElemType, v: ScalarBits) -> String {
    match (v, elem.float_kind()) {
        (ScalarBits::Float(f), Some(kind)) => format_float(kind, f.to_bits()).0,
        (ScalarBits::Int(i), _) if elem == ElemType::I1 => {
            if i & 1 != 0 {
                "true".into()
            } else {
                "false".into()
            }
        }
        (ScalarBits::Int(i), _) => i.to_string(),
        (ScalarBits::Float(f), None) => (f as i64).to_string(),
    }
}

/// `dense<...>` without the type.
fn dense_body(m: &TensorModule, d: &DenseElements) -> String {
    let kind = m.ty(d.ty);
    let elem = kind.elem();
    let shape: Vec<u64> = match kind {
        TypeKind::Tensor { shape, .. } => shape.iter().map(|d| d.fixed().unwrap_or(0)).collect(),
        TypeKind::Vector { shape, .. } => shape.clone(),
        TypeKind::Scalar(_) => vec![],
    };
    if d.data.is_empty() {
        return "dense<>".into();
    }
    if d.splat {
        return format!("dense<{}>", scalar_to_string(elem, d.data.get(0)));
    }
    let n = d.data.len();
    if n > 100 {
        return format!("dense<\"0x{}\">", hex_bytes(&d.data));
    }
    let mut s = String::from("dense<");
    nested(&mut s, &d.data, elem, &shape, 0, &mut 0);
    s.push('>');
    s
}

fn nested(
    s: &mut String,
    data: &Elements,
    elem: ElemType,
    shape: &[u64],
    depth: usize,
    next: &mut usize,
) {
    if depth == shape.len() {
        s.push_str(&scalar_to_string(elem, data.get(*next)));
        *next += 1;
        return;
    }
    s.push('[');
    for i in 0..shape[depth] {
        if i > 0 {
            s.push_str(", ");
        }
        nested(s, data, elem, shape, depth + 1, next);
    }
    s.push(']');
}

/// MLIR's raw hex form: little-endian element bytes (`i1` bit-packed).
fn hex_bytes(data: &Elements) -> String {
    let mut bytes = Vec::new();
    if let Elements::I1(v) = data {
        bytes = vec![0u8; v.len().div_ceil(8)];
        for (i, &b) in v.iter().enumerate() {
            if b {
                bytes[i / 8] |= 1 << (i % 8);
            }
        }
    } else {
        for i in 0..data.len() {
            bytes.extend(data.element_bytes(i));
        }
    }
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

struct Printer<'m> {
    m: &'m TensorModule,
    out: String,
    names: HashMap<TValue, String>,
    next_arg: usize,
    next_result: usize,
}

impl Printer<'_> {
    fn ty(&self, t: TType) -> String {
        self.m.types.text(t)
    }

    fn vty(&self, v: TValue) -> String {
        self.ty(self.m.value_type(v))
    }

    fn name(&self, v: TValue) -> String {
        self.names
            .get(&v)
            .cloned()
            .unwrap_or_else(|| format!("%<{v:?}>"))
    }

    fn names(&self, vs: &[TValue]) -> String {
        vs.iter()
            .map(|&v| self.name(v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn types(&self, vs: &[TValue]) -> String {
        vs.iter()
            .map(|&v| self.vty(v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn pad(&mut self, indent: usize) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
    }

    fn name_args(&mut self, block: TBlock) {
        for &a in &self.m.block(block).args {
            self.names.insert(a, format!("%arg{}", self.next_arg));
            self.next_arg += 1;
        }
    }

    fn func(&mut self, f: crate::tensor::entity::TFunc, indent: usize) {
        let data = self.m.func(f);
        self.names.clear();
        self.next_arg = 0;
        self.next_result = 0;
        self.pad(indent);
        self.out.push_str("func.func ");
        if let Some(v) = &data.visibility {
            let _ = write!(self.out, "{v} ");
        }
        let _ = write!(self.out, "@{}(", data.name);
        match data.body {
            Some(body) => {
                self.name_args(body);
                let args: Vec<String> = self
                    .m
                    .block(body)
                    .args
                    .iter()
                    .enumerate()
                    .map(|(i, &a)| {
                        format!(
                            "{}: {}{}",
                            self.name(a),
                            self.vty(a),
                            attrs_suffix(data.arg_attrs.get(i))
                        )
                    })
                    .collect();
                self.out.push_str(&args.join(", "));
            }
            None => {
                let args: Vec<String> = data
                    .inputs
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| format!("{}{}", self.ty(t), attrs_suffix(data.arg_attrs.get(i))))
                    .collect();
                self.out.push_str(&args.join(", "));
            }
        }
        self.out.push(')');
        match data.results.len() {
            0 => {}
            1 if data.result_attrs.is_empty() => {
                let _ = write!(self.out, " -> {}", self.ty(data.results[0]));
            }
            _ => {
                let r: Vec<String> = data
                    .results
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| {
                        format!("{}{}", self.ty(t), attrs_suffix(data.result_attrs.get(i)))
                    })
                    .collect();
                let _ = write!(self.out, " -> ({})", r.join(", "));
            }
        }
        if !data.attributes.is_empty() {
            let _ = write!(self.out, " attributes {}", attr_dict(&data.attributes));
        }
        if let Some(body) = data.body {
            self.out.push_str(" {\n");
            self.block_ops(body, indent + 1);
            self.pad(indent);
            self.out.push_str("}\n");
        } else {
            self.out.push('\n');
        }
    }

    fn block_ops(&mut self, block: TBlock, indent: usize) {
        for &op in &self.m.block(block).ops.clone() {
            self.op(op, indent);
        }
    }

    /// A region body: `{\n^bb0(args):\n ops }` (with the header when the
    /// block has arguments).
    fn region(&mut self, block: TBlock, indent: usize, header: bool) {
        self.out.push_str("{\n");
        self.name_args(block);
        let args = &self.m.block(block).args;
        if header && !args.is_empty() {
            self.pad(indent);
            let a: Vec<String> = args
                .iter()
                .map(|&a| format!("{}: {}", self.name(a), self.vty(a)))
                .collect();
            let _ = writeln!(self.out, "^bb0({}):", a.join(", "));
        }
        self.block_ops(block, indent + 1);
        self.pad(indent);
        self.out.push('}');
    }

    fn op(&mut self, op: TOp, indent: usize) {
        let data = self.m.op(op);
        self.pad(indent);
        let results = data.results.clone();
        match results.len() {
            0 => {}
            1 => {
                let n = format!("%{}", self.next_result);
                self.next_result += 1;
                self.names.insert(results[0], n.clone());
                let _ = write!(self.out, "{n} = ");
            }
            k => {
                let n = format!("%{}", self.next_result);
                self.next_result += 1;
                for (i, &r) in results.iter().enumerate() {
                    self.names.insert(r, format!("{n}#{i}"));
                }
                let _ = write!(self.out, "{n}:{k} = ");
            }
        }
        let text = self.op_text(op, indent);
        self.out.push_str(&text);
        self.out.push('\n');
    }

    fn op_text(&mut self, op: TOp, indent: usize) -> String {
        let data = self.m.op(op).clone();
        let ops = &data.operands;
        let res_ty = |p: &Self| data.results.first().map(|&r| p.vty(r)).unwrap_or_default();
        match &data.kind {
            OpKind::Return if ops.is_empty() => "return".into(),
            OpKind::Return => format!("return {} : {}", self.names(ops), self.types(ops)),
            OpKind::Call { callee } => {
                let results = match data.results.len() {
                    1 => self.vty(data.results[0]),
                    _ => format!("({})", self.types(&data.results)),
                };
                format!(
                    "call @{callee}({}) : ({}) -> {results}",
                    self.names(ops),
                    self.types(ops)
                )
            }
            OpKind::Constant(c) => format!("arith.constant {}", self.const_attr(c, true)),
            OpKind::UnfoldableConstant(c) => {
                format!("util.unfoldable_constant {}", self.const_attr(c, false))
            }
            OpKind::DynamicConstant(d) => format!(
                "flow.tensor.dynamic_constant {} -> {}",
                dense_to_string(self.m, d),
                res_ty(self)
            ),
            OpKind::OptimizationBarrier => format!(
                "util.optimization_barrier {} : {}",
                self.names(ops),
                self.types(ops)
            ),
            OpKind::Arith {
                op,
                fastmath,
                overflow,
            } => {
                use super::ops::Signature;
                let mut s = op.name();
                match op {
                    super::ops::ArithOp::CmpI(p) => {
                        let _ = write!(s, " {},", p.name());
                    }
                    super::ops::ArithOp::CmpF(p) => {
                        let _ = write!(s, " {},", p.name());
                    }
                    _ => {}
                }
                let _ = write!(s, " {}", self.names(ops));
                if !overflow.is_none() {
                    let _ = write!(s, " overflow<{}>", overflow.text());
                }
                if !fastmath.is_none() {
                    let _ = write!(s, " fastmath<{}>", fastmath.text());
                }
                match op.signature() {
                    Signature::Same(_) | Signature::Compare => {
                        let _ = write!(s, " : {}", self.vty(ops[0]));
                    }
                    Signature::Select => {
                        let c = self.m.value_type(ops[0]);
                        if self.m.ty(c).is_tensor() {
                            let _ = write!(s, " : {}, {}", self.ty(c), self.vty(ops[1]));
                        } else {
                            let _ = write!(s, " : {}", self.vty(ops[1]));
                        }
                    }
                    Signature::Cast => {
                        let _ = write!(s, " : {} to {}", self.vty(ops[0]), res_ty(self));
                    }
                    Signature::FloatInt => {
                        let _ = write!(s, " : {}, {}", self.vty(ops[0]), self.vty(ops[1]));
                    }
                }
                s
            }
            OpKind::Math { op, fastmath } => {
                let mut s = format!("{} {}", op.name(), self.names(ops));
                if !fastmath.is_none() {
                    let _ = write!(s, " fastmath<{}>", fastmath.text());
                }
                let _ = write!(s, " : {}", self.vty(ops[0]));
                if op.signature() == super::ops::Signature::FloatInt {
                    let _ = write!(s, ", {}", self.vty(ops[1]));
                }
                s
            }
            OpKind::LinalgYield | OpKind::TensorYield => {
                let name = data.kind.name();
                if ops.is_empty() {
                    name
                } else {
                    format!("{name} {} : {}", self.names(ops), self.types(ops))
                }
            }
            OpKind::LinalgIndex { dim } => format!("linalg.index {dim} : index"),
            OpKind::Linalg(l) => self.linalg(op, l, indent),
            OpKind::Tensor(t) => self.tensor_op(&data, t, indent),
            OpKind::Check(c) => self.check(ops, c),
            OpKind::Assert { message } => format!(
                "cf.assert {}, {}",
                self.names(ops),
                crate::kernel::print::quote(message)
            ),
        }
    }

    fn const_attr(&self, c: &ConstAttr, bare_bool: bool) -> String {
        match c {
            ConstAttr::Int { value, ty } if *self.m.ty(*ty) == TypeKind::Scalar(ElemType::I1) => {
                let b = if value & 1 != 0 { "true" } else { "false" };
                if bare_bool {
                    b.into()
                } else {
                    format!("{b} : i1")
                }
            }
            ConstAttr::Int { value, ty } => format!("{value} : {}", self.ty(*ty)),
            ConstAttr::Float { value, ty } => {
                let kind = self
                    .m
                    .ty(*ty)
                    .elem()
                    .float_kind()
                    .unwrap_or(crate::ir::FloatKind::F64);
                format!(
                    "{} : {}",
                    format_float(kind, value.to_bits()).0,
                    self.ty(*ty)
                )
            }
            ConstAttr::Dense(d) => dense_to_string(self.m, d),
        }
    }

    fn check(&self, ops: &[TValue], c: &CheckOp) -> String {
        let tol = |atol: &Option<f32>, rtol: &Option<f32>| {
            let mut s = String::new();
            let f = |v: f32| format_float(crate::ir::FloatKind::F32, f64::from(v).to_bits()).0;
            if let Some(a) = atol {
                let _ = write!(s, ", atol {}", f(*a));
            }
            if let Some(r) = rtol {
                let _ = write!(s, ", rtol {}", f(*r));
            }
            s
        };
        let ty = self.vty(ops[0]);
        let args = match c {
            CheckOp::ExpectTrue | CheckOp::ExpectFalse => self.name(ops[0]),
            CheckOp::ExpectEq => self.names(ops),
            CheckOp::ExpectAlmostEq { atol, rtol } => {
                format!("{}{}", self.names(ops), tol(atol, rtol))
            }
            CheckOp::ExpectEqConst(v) => {
                format!("{}, {}", self.name(ops[0]), dense_to_string(self.m, v))
            }
            CheckOp::ExpectAlmostEqConst { value, atol, rtol } => format!(
                "{}, {}{}",
                self.name(ops[0]),
                dense_to_string(self.m, value),
                tol(atol, rtol)
            ),
        };
        format!("{}({args}) : {ty}", c.name())
    }

    fn ins_outs(&self, ins: &[TValue], outs: &[TValue]) -> String {
        let mut s = String::new();
        if !ins.is_empty() {
            let _ = write!(s, " ins({} : {})", self.names(ins), self.types(ins));
        }
        let _ = write!(s, " outs({} : {})", self.names(outs), self.types(outs));
        s
    }

    fn arrow_results(&self, op: TOp) -> String {
        let results = &self.m.op(op).results;
        match results.len() {
            0 => String::new(),
            1 => format!(" -> {}", self.vty(results[0])),
            _ => format!(" -> ({})", self.types(results)),
        }
    }

    fn linalg(&mut self, op: TOp, l: &super::ops::LinalgOp, indent: usize) -> String {
        let data = self.m.op(op).clone();
        let (ins, outs) = data
            .operands
            .split_at(l.num_inputs.min(data.operands.len()));
        let io = self.ins_outs(ins, outs);
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        match &l.kind {
            LinalgKind::Generic {
                indexing_maps,
                iterator_types,
            } => {
                let maps: Vec<String> = indexing_maps.iter().map(|m| m.to_text()).collect();
                let iters: Vec<String> = iterator_types
                    .iter()
                    .map(|i| format!("\"{}\"", i.name()))
                    .collect();
                let mut s = format!(
                    "linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}}{io} ",
                    maps.join(", "),
                    iters.join(", ")
                );
                if let Some(&body) = data.regions.first() {
                    self.with_output(&mut s, |p| p.region(body, indent, true));
                }
                s.push_str(&self.arrow_results(op));
                s
            }
            LinalgKind::Map | LinalgKind::Reduce { .. } => {
                let reduce = matches!(l.kind, LinalgKind::Reduce { .. });
                let dims = match &l.kind {
                    LinalgKind::Reduce { dimensions } => {
                        format!(" dimensions = [{}]", list(dimensions))
                    }
                    _ => String::new(),
                };
                let body = data.regions.first().copied();
                if let Some(payload) = body.and_then(|b| self.short_form(b, ins.len(), reduce)) {
                    return format!("{} {{ {payload} }}{io}{dims}", l.kind.name());
                }
                let mut s = format!("{}{io}{dims}\n", l.kind.name());
                if let Some(body) = body {
                    self.with_output(&mut s, |p| {
                        p.pad(indent + 1);
                        p.name_args(body);
                        // linalg.map's init has no argument in MLIR's text.
                        let all = &p.m.block(body).args;
                        let shown = if reduce {
                            all.len()
                        } else {
                            ins.len().min(all.len())
                        };
                        let args: Vec<String> = all[..shown]
                            .iter()
                            .map(|&a| format!("{}: {}", p.name(a), p.vty(a)))
                            .collect();
                        let _ = writeln!(p.out, "({}) {{", args.join(", "));
                        p.block_ops(body, indent + 2);
                        p.pad(indent + 1);
                        p.out.push('}');
                    });
                }
                s
            }
            LinalgKind::Transpose { permutation } => {
                format!("linalg.transpose{io} permutation = [{}]", list(permutation))
            }
            LinalgKind::Broadcast { dimensions } => {
                format!("linalg.broadcast{io} dimensions = [{}]", list(dimensions))
            }
            LinalgKind::Softmax { dimension } => {
                format!(
                    "linalg.softmax dimension({dimension}){io}{}",
                    self.arrow_results(op)
                )
            }
            LinalgKind::Conv(c, attrs) => {
                let mut a = Vec::new();
                if let Some(d) = &attrs.dilations {
                    a.push(format!("dilations = {}", dense_to_string(self.m, d)));
                }
                if let Some(d) = &attrs.strides {
                    a.push(format!("strides = {}", dense_to_string(self.m, d)));
                }
                let a = if a.is_empty() {
                    String::new()
                } else {
                    format!(" {{{}}}", a.join(", "))
                };
                format!("{}{a}{io}{}", c.name(), self.arrow_results(op))
            }
            other => format!("{}{io}{}", other.name(), self.arrow_results(op)),
        }
    }

    /// Runs `f` with the output buffer redirected, appending what it
    /// printed to `s`.
    fn with_output(&mut self, s: &mut String, f: impl FnOnce(&mut Self)) {
        let prefix = std::mem::take(&mut self.out);
        f(self);
        let text = std::mem::replace(&mut self.out, prefix);
        s.push_str(&text);
    }

    /// The payload name when `body` is what MLIR's short form builds.
    fn short_form(&self, body: TBlock, num_inputs: usize, reduce: bool) -> Option<String> {
        let b = self.m.block(body);
        let [payload, yield_] = b.ops.as_slice() else {
            return None;
        };
        let p = self.m.op(*payload);
        let y = self.m.op(*yield_);
        let flags_none = match &p.kind {
            OpKind::Arith {
                op,
                fastmath,
                overflow,
            } => {
                fastmath.is_none()
                    && overflow.is_none()
                    && !matches!(
                        op,
                        super::ops::ArithOp::CmpI(_) | super::ops::ArithOp::CmpF(_)
                    )
            }
            OpKind::Math { fastmath, .. } => fastmath.is_none(),
            _ => false,
        };
        if !flags_none
            || y.kind != OpKind::LinalgYield
            || y.operands != p.results
            || p.results.len() != 1
        {
            return None;
        }
        let expected: Vec<TValue> = if reduce {
            let (&init, rest) = b.args.split_last()?;
            std::iter::once(init).chain(rest.iter().copied()).collect()
        } else {
            b.args.get(..num_inputs)?.to_vec()
        };
        if p.operands != expected {
            return None;
        }
        // The rebuilt body's result type is the first operand's.
        if self.m.value_type(p.results[0]) != self.m.value_type(p.operands[0]) {
            return None;
        }
        Some(p.kind.name())
    }

    fn mixed(&self, list: &[Mixed], dynamic: &mut std::slice::Iter<'_, TValue>) -> String {
        let items: Vec<String> = list
            .iter()
            .map(|m| match m {
                Mixed::Static(v) => v.to_string(),
                Mixed::Dynamic => dynamic
                    .next()
                    .map(|&v| self.name(v))
                    .unwrap_or_else(|| "?".into()),
            })
            .collect();
        format!("[{}]", items.join(", "))
    }

    fn tensor_op(&mut self, data: &super::module::OpData, t: &TensorOp, indent: usize) -> String {
        let ops = &data.operands;
        let res = data
            .results
            .first()
            .map(|&r| self.vty(r))
            .unwrap_or_default();
        let reassoc = |r: &[Vec<u64>]| {
            let groups: Vec<String> = r
                .iter()
                .map(|g| {
                    format!(
                        "[{}]",
                        g.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            format!("[{}]", groups.join(", "))
        };
        match t {
            TensorOp::Empty => format!("tensor.empty({}) : {res}", self.names(ops)),
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            } => {
                let mut it = ops[1..].iter();
                let (o, s, st) = (
                    self.mixed(offsets, &mut it),
                    self.mixed(sizes, &mut it),
                    self.mixed(strides, &mut it),
                );
                format!(
                    "tensor.extract_slice {}{o} {s} {st} : {} to {res}",
                    self.name(ops[0]),
                    self.vty(ops[0])
                )
            }
            TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => {
                let mut it = ops[2..].iter();
                let (o, s, st) = (
                    self.mixed(offsets, &mut it),
                    self.mixed(sizes, &mut it),
                    self.mixed(strides, &mut it),
                );
                format!(
                    "tensor.insert_slice {} into {}{o} {s} {st} : {} into {res}",
                    self.name(ops[0]),
                    self.name(ops[1]),
                    self.vty(ops[0])
                )
            }
            TensorOp::CollapseShape { reassociation } => format!(
                "tensor.collapse_shape {} {} : {} into {res}",
                self.name(ops[0]),
                reassoc(reassociation),
                self.vty(ops[0])
            ),
            TensorOp::ExpandShape {
                reassociation,
                output_shape,
            } => {
                let mut it = ops[1..].iter();
                let shape = self.mixed(output_shape, &mut it);
                format!(
                    "tensor.expand_shape {} {} output_shape {shape} : {} into {res}",
                    self.name(ops[0]),
                    reassoc(reassociation),
                    self.vty(ops[0])
                )
            }
            TensorOp::Pad { low, high, nofold } => {
                let mut it = ops[1..].iter();
                let (l, h) = (self.mixed(low, &mut it), self.mixed(high, &mut it));
                let mut s = format!(
                    "tensor.pad {}{} low{l} high{h} ",
                    self.name(ops[0]),
                    if *nofold { " nofold" } else { "" }
                );
                if let Some(&body) = data.regions.first() {
                    self.with_output(&mut s, |p| p.region(body, indent, true));
                }
                let _ = write!(s, " : {} to {res}", self.vty(ops[0]));
                s
            }
            TensorOp::Cast => format!(
                "tensor.cast {} : {} to {res}",
                self.name(ops[0]),
                self.vty(ops[0])
            ),
            TensorOp::Dim => format!(
                "tensor.dim {}, {} : {}",
                self.name(ops[0]),
                self.name(ops[1]),
                self.vty(ops[0])
            ),
            TensorOp::Extract => format!(
                "tensor.extract {}[{}] : {}",
                self.name(ops[0]),
                self.names(&ops[1..]),
                self.vty(ops[0])
            ),
            TensorOp::Insert => format!(
                "tensor.insert {} into {}[{}] : {res}",
                self.name(ops[0]),
                self.name(ops[1]),
                self.names(&ops[2..])
            ),
            TensorOp::Concat { dim } => format!(
                "tensor.concat dim({dim}) {} : ({}) -> {res}",
                self.names(ops),
                self.types(ops)
            ),
            TensorOp::Splat if ops.len() > 1 => format!(
                "tensor.splat {}[{}] : {res}",
                self.name(ops[0]),
                self.names(&ops[1..])
            ),
            TensorOp::Splat => format!("tensor.splat {} : {res}", self.name(ops[0])),
            TensorOp::FromElements => format!("tensor.from_elements {} : {res}", self.names(ops)),
        }
    }
}
