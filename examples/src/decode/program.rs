//! The decoder's tensor programs as MLIR text (MLIR 19 syntax), written
//! for a [`Config`], a weight [`Format`] and the [`Forms`] wanted:
//!
//! - `@qkv`: RMSNorm, the q/k/v projections and RoPE of one layer over
//!   `R` rows (dynamic): `x [R, dim]`, the gain, the three weights, the
//!   rows' `cos`/`sin [R, head_dim/2]` → `q [R, heads, hd]`,
//!   `k, v [R, kv_heads, hd]`.
//! - `@attn`: the rest of the layer: `x`, `q`, the keys and values
//!   `[T, kv_heads, hd]` (T dynamic: the cache's filled prefix, the `R`
//!   rows last), the output projection, the MLP's gain and weights → the
//!   layer's output `[R, dim]`. Causal: query `i` (position `T - R + i`)
//!   attends keys `0..=T - R + i`; so one form serves a prompt's prefill
//!   (`T = R`), a decode step (`R = 1`) and a prompt in chunks.
//! - `@qkv_decode` / `@attn_decode` ([`Forms::MatvecDecode`],
//!   [`Forms::DecodeOnly`]): the same for
//!   one row, whose projections are `linalg.matvec`s (kiln's matvec
//!   kernel, which reads the weights' stored bytes once) where the dynamic
//!   forms' are `linalg.matmul_transpose_b`s.
//! - `@head`: the final RMSNorm and the output projection of one row →
//!   logits `[1, vocab]`.
//!
//! A weight is one f16 tensor `[n, k]`, or (Q4_0) its codes `[n, k/2] i8`
//! and scales `[n, k/32] f16` dequantized by a `linalg.generic` that kiln
//! fuses into the contraction's loads.

use std::fmt::Write;

use super::{Config, Format, EPS, Q4_BLOCK};

/// A dimension of a tensor type: static, or dynamic with the SSA value
/// that holds it.
#[derive(Clone, Copy)]
enum Dim {
    S(usize),
    D(&'static str),
}

/// The text of `tensor<...xf32>` (or another element type).
fn ty(shape: &[Dim], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        match d {
            Dim::S(n) => write!(s, "{n}x").unwrap(),
            Dim::D(_) => s.push_str("?x"),
        }
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// The dynamic sizes of `shape`, for `tensor.empty(...)`.
fn dyn_args(shape: &[Dim]) -> String {
    shape
        .iter()
        .filter_map(|d| match d {
            Dim::D(v) => Some(*v),
            Dim::S(_) => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sizes as `output_shape`/`extract_slice` operands.
fn sizes(shape: &[Dim]) -> String {
    shape
        .iter()
        .map(|d| match d {
            Dim::S(n) => n.to_string(),
            Dim::D(v) => (*v).to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A function body being written: its text and a counter for fresh names.
struct Body {
    text: String,
    next: usize,
    format: Format,
    /// Whether rows are one (decode: projections are matvecs).
    one_row: bool,
}

impl Body {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn line(&mut self, s: &str) {
        self.text.push_str("  ");
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// `tensor.empty` of `shape`.
    fn empty(&mut self, shape: &[Dim]) -> String {
        let v = self.fresh();
        self.line(&format!(
            "{v} = tensor.empty({}) : {}",
            dyn_args(shape),
            ty(shape, "f32")
        ));
        v
    }

    /// A zero-filled f32 tensor of `shape`.
    fn zeros(&mut self, shape: &[Dim]) -> String {
        let e = self.empty(shape);
        let v = self.fresh();
        let t = ty(shape, "f32");
        self.line(&format!(
            "{v} = linalg.fill ins(%zero : f32) outs({e} : {t}) -> {t}"
        ));
        v
    }

    /// RMSNorm of `x` (`[rows, d]`) with gain `g`.
    fn rms_norm(&mut self, x: &str, g: &str, rows: Dim, d: usize) -> String {
        let acc = self.zeros(&[rows]);
        let (tx, tr, tg) = (
            ty(&[rows, Dim::S(d)], "f32"),
            ty(&[rows], "f32"),
            ty(&[Dim::S(d)], "f32"),
        );
        let ss = self.fresh();
        self.line(&format!(
            "{ss} = linalg.generic {{indexing_maps = [#id2, #row], iterator_types = [\"parallel\", \"reduction\"]}} ins({x} : {tx}) outs({acc} : {tr}) {{"
        ));
        self.line("^bb0(%a: f32, %acc: f32):");
        self.line("  %sq = arith.mulf %a, %a : f32");
        self.line("  %s = arith.addf %acc, %sq : f32");
        self.line("  linalg.yield %s : f32");
        self.line(&format!("}} -> {tr}"));
        let e = self.empty(&[rows, Dim::S(d)]);
        let y = self.fresh();
        self.line(&format!(
            "{y} = linalg.generic {{indexing_maps = [#id2, #row, #col, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins({x}, {ss}, {g} : {tx}, {tr}, {tg}) outs({e} : {tx}) {{"
        ));
        self.line("^bb0(%a: f32, %s: f32, %gg: f32, %o: f32):");
        self.line(&format!("  %n = arith.constant {d}.0 : f32"));
        self.line(&format!("  %eps = arith.constant {EPS:.9e} : f32"));
        self.line("  %m = arith.divf %s, %n : f32");
        self.line("  %me = arith.addf %m, %eps : f32");
        self.line("  %r = math.rsqrt %me : f32");
        self.line("  %xr = arith.mulf %a, %r : f32");
        self.line("  %y = arith.mulf %xr, %gg : f32");
        self.line("  linalg.yield %y : f32");
        self.line(&format!("}} -> {tx}"));
        y
    }

    /// The weight operand of a contraction: the f16 argument, or the
    /// dequantizing generic over the Q4_0 codes and scales.
    fn weight(&mut self, w: &WeightArg, n: usize, k: usize) -> (String, String) {
        match self.format {
            Format::F16 => (w.0.clone(), ty(&[Dim::S(n), Dim::S(k)], "f16")),
            Format::Q4_0 => {
                let tw = ty(&[Dim::S(n), Dim::S(k)], "f32");
                let e = self.empty(&[Dim::S(n), Dim::S(k)]);
                let v = self.fresh();
                let (codes, scales) = (&w.0, &w.1);
                let tc = ty(&[Dim::S(n), Dim::S(k / 2)], "i8");
                let ts = ty(&[Dim::S(n), Dim::S(k / Q4_BLOCK)], "f16");
                self.line(&format!(
                    "{v} = linalg.generic {{indexing_maps = [#q4codes, #q4scales, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins({codes}, {scales} : {tc}, {ts}) outs({e} : {tw}) {{"
                ));
                for l in [
                    "^bb0(%p: i8, %d: f16, %o: f32):",
                    "  %kk = linalg.index 1 : index",
                    "  %c32 = arith.constant 32 : index",
                    "  %c16 = arith.constant 16 : index",
                    "  %c4 = arith.constant 4 : index",
                    "  %in = arith.remui %kk, %c32 : index",
                    "  %hi = arith.divui %in, %c16 : index",
                    "  %sh = arith.muli %hi, %c4 : index",
                    "  %shi = arith.index_cast %sh : index to i8",
                    "  %sv = arith.shrui %p, %shi : i8",
                    "  %m = arith.constant 15 : i8",
                    "  %c = arith.andi %sv, %m : i8",
                    "  %ci = arith.extui %c : i8 to i32",
                    "  %c8 = arith.constant 8 : i32",
                    "  %s = arith.subi %ci, %c8 : i32",
                    "  %sf = arith.sitofp %s : i32 to f32",
                    "  %df = arith.extf %d : f16 to f32",
                    "  %w = arith.mulf %sf, %df : f32",
                    "  linalg.yield %w : f32",
                ] {
                    self.line(l);
                }
                self.line(&format!("}} -> {tw}"));
                (v, tw)
            }
        }
    }

    /// `x W^T` for `x [rows, k]` and `W [n, k]`: `[rows, n]`.
    fn proj(&mut self, x: &str, w: &WeightArg, rows: Dim, n: usize, k: usize) -> String {
        let (wv, tw) = self.weight(w, n, k);
        let tx = ty(&[rows, Dim::S(k)], "f32");
        let to = ty(&[rows, Dim::S(n)], "f32");
        if self.one_row {
            let (tk, tn) = (ty(&[Dim::S(k)], "f32"), ty(&[Dim::S(n)], "f32"));
            let xv = self.fresh();
            self.line(&format!(
                "{xv} = tensor.collapse_shape {x} [[0, 1]] : {tx} into {tk}"
            ));
            let acc = self.zeros(&[Dim::S(n)]);
            let mv = self.fresh();
            self.line(&format!(
                "{mv} = linalg.matvec ins({wv}, {xv} : {tw}, {tk}) outs({acc} : {tn}) -> {tn}"
            ));
            let y = self.fresh();
            self.line(&format!(
                "{y} = tensor.expand_shape {mv} [[0, 1]] output_shape [1, {n}] : {tn} into {to}"
            ));
            y
        } else {
            let acc = self.zeros(&[rows, Dim::S(n)]);
            let y = self.fresh();
            self.line(&format!(
                "{y} = linalg.matmul_transpose_b ins({x}, {wv} : {tx}, {tw}) outs({acc} : {to}) -> {to}"
            ));
            y
        }
    }

    /// An element-wise generic over `[rows, n]` of `ins` (each `[rows, n]`)
    /// whose body (block arguments `%a`, `%b`, ...) is `body`, yielding `%y`.
    fn map2(&mut self, ins: &[&str], rows: Dim, n: usize, body: &[&str]) -> String {
        let t = ty(&[rows, Dim::S(n)], "f32");
        let e = self.empty(&[rows, Dim::S(n)]);
        let y = self.fresh();
        let maps = vec!["#id2"; ins.len() + 1].join(", ");
        let iters = "\"parallel\", \"parallel\"";
        let types = vec![t.as_str(); ins.len()].join(", ");
        self.line(&format!(
            "{y} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} ins({} : {types}) outs({e} : {t}) {{",
            ins.join(", ")
        ));
        let names = ["%a", "%b", "%c"];
        let args: Vec<String> = names[..ins.len()]
            .iter()
            .map(|a| format!("{a}: f32"))
            .collect();
        self.line(&format!("^bb0({}, %o: f32):", args.join(", ")));
        for l in body {
            self.line(&format!("  {l}"));
        }
        self.line("  linalg.yield %y : f32");
        self.line(&format!("}} -> {t}"));
        y
    }

    /// RoPE of `x` (`[rows, nh · hd]`) at the rows' `cos`/`sin`
    /// (`[rows, hd/2]`): `[rows, nh, hd]`, the rotate-half form (element
    /// `i < hd/2` pairs with `i + hd/2`).
    fn rope(&mut self, x: &str, rows: Dim, nh: usize, hd: usize) -> String {
        let half = hd / 2;
        let (s2, s3) = (Dim::S(2), Dim::S(half));
        let t2 = ty(&[rows, Dim::S(nh * hd)], "f32");
        let sh4 = [rows, Dim::S(nh), s2, s3];
        let t4 = ty(&sh4, "f32");
        let x4 = self.fresh();
        self.line(&format!(
            "{x4} = tensor.expand_shape {x} [[0], [1, 2, 3]] output_shape [{}] : {t2} into {t4}",
            sizes(&sh4)
        ));
        let sh3 = [rows, Dim::S(nh), s3];
        let t3 = ty(&sh3, "f32");
        let t1 = ty(&[rows, Dim::S(nh), Dim::S(1), s3], "f32");
        let mut halves = Vec::new();
        for p in 0..2 {
            // Not rank-reducing: which unit dimension a rank-reducing
            // slice drops is ambiguous when the rows are one.
            let h = self.fresh();
            self.line(&format!(
                "{h} = tensor.extract_slice {x4}[0, 0, {p}, 0] [{}, {nh}, 1, {half}] [1, 1, 1, 1] : {t4} to {t1}",
                sizes(&[rows])
            ));
            let h3 = self.fresh();
            self.line(&format!(
                "{h3} = tensor.collapse_shape {h} [[0], [1], [2, 3]] : {t1} into {t3}"
            ));
            halves.push(h3);
        }
        let tcs = ty(&[rows, s3], "f32");
        let e = self.empty(&sh4);
        let y = self.fresh();
        self.line(&format!(
            "{y} = linalg.generic {{indexing_maps = [#rope_x, #rope_x, #rope_cs, #rope_cs, #id4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({}, {}, %cos, %sin : {t3}, {t3}, {tcs}, {tcs}) outs({e} : {t4}) {{",
            halves[0], halves[1]
        ));
        for l in [
            "^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):",
            "  %p = linalg.index 2 : index",
            "  %p0 = arith.constant 0 : index",
            "  %first = arith.cmpi eq, %p, %p0 : index",
            "  %ac = arith.mulf %a, %c : f32",
            "  %bs = arith.mulf %b, %s : f32",
            "  %lo = arith.subf %ac, %bs : f32",
            "  %bc = arith.mulf %b, %c : f32",
            "  %as = arith.mulf %a, %s : f32",
            "  %hi = arith.addf %bc, %as : f32",
            "  %y = arith.select %first, %lo, %hi : f32",
            "  linalg.yield %y : f32",
        ] {
            self.line(l);
        }
        self.line(&format!("}} -> {t4}"));
        let out = self.fresh();
        let to = ty(&[rows, Dim::S(nh), Dim::S(hd)], "f32");
        self.line(&format!(
            "{out} = tensor.collapse_shape {y} [[0], [1], [2, 3]] : {t4} into {to}"
        ));
        out
    }
}

/// A weight's argument names: the f16 tensor, or Q4_0's codes and scales.
struct WeightArg(String, String);

impl WeightArg {
    fn new(name: &str) -> WeightArg {
        WeightArg(format!("%{name}"), format!("%{name}_s"))
    }

    /// The function parameters it takes.
    fn params(&self, format: Format, n: usize, k: usize) -> String {
        match format {
            Format::F16 => format!("{}: {}", self.0, ty(&[Dim::S(n), Dim::S(k)], "f16")),
            Format::Q4_0 => format!(
                "{}: {}, {}: {}",
                self.0,
                ty(&[Dim::S(n), Dim::S(k / 2)], "i8"),
                self.1,
                ty(&[Dim::S(n), Dim::S(k / Q4_BLOCK)], "f16")
            ),
        }
    }
}

/// Which functions a program has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forms {
    /// `@qkv`, `@attn` and `@head`: every step through the dynamic forms
    /// (half the kernels to compile).
    Dynamic,
    /// Those and `@qkv_decode`, `@attn_decode`: decode steps through
    /// matvecs.
    MatvecDecode,
    /// `@qkv_decode`, `@attn_decode` and `@head` alone: a prompt is fed one
    /// token at a time (a third of the kernels to compile: what CI runs).
    DecodeOnly,
}

/// The program's text for `config`, `format` and `forms`.
pub fn text(config: &Config, format: Format, forms: Forms) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "// A Llama-style decoder, {} weights, {forms:?} forms\n\
         // (written by kiln-examples' decode/program.rs for {config:?}).\n",
        format.name()
    )
    .unwrap();
    for m in [
        "#id2 = affine_map<(d0, d1) -> (d0, d1)>",
        "#row = affine_map<(d0, d1) -> (d0)>",
        "#col = affine_map<(d0, d1) -> (d1)>",
        "#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>",
        "#rope_x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
        "#rope_cs = affine_map<(d0, d1, d2, d3) -> (d0, d3)>",
        "#q4codes = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 16 + d1 mod 16)>",
        "#q4scales = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>",
        "#sc_q = affine_map<(a, g, i, j, d) -> (i, a, g, d)>",
        "#sc_k = affine_map<(a, g, i, j, d) -> (j, a, d)>",
        "#sc_o = affine_map<(a, g, i, j, d) -> (a, g, i, j)>",
        "#pv_p = affine_map<(i, a, g, d, j) -> (a, g, i, j)>",
        "#pv_v = affine_map<(i, a, g, d, j) -> (j, a, d)>",
        "#pv_o = affine_map<(i, a, g, d, j) -> (i, a, g, d)>",
    ] {
        writeln!(out, "{m}").unwrap();
    }
    let kinds: &[(&str, bool)] = match forms {
        Forms::Dynamic => &[("", false)],
        Forms::MatvecDecode => &[("", false), ("_decode", true)],
        Forms::DecodeOnly => &[("_decode", true)],
    };
    for &(suffix, one_row) in kinds {
        out.push('\n');
        out.push_str(&qkv(config, format, suffix, one_row));
        out.push('\n');
        out.push_str(&attn(config, format, suffix, one_row));
    }
    out.push('\n');
    out.push_str(&head(config, format));
    out
}

/// The rows dimension and the lines that define it.
fn rows_of(one_row: bool, x: &str, t: &str) -> (Dim, String) {
    if one_row {
        (Dim::S(1), String::new())
    } else {
        (
            Dim::D("%rows"),
            format!("  %rows = tensor.dim {x}, %c0 : {t}\n"),
        )
    }
}

fn body(format: Format, one_row: bool) -> Body {
    Body {
        text: String::new(),
        next: 0,
        format,
        one_row,
    }
}

const PRELUDE: &str = "  %c0 = arith.constant 0 : index\n  %zero = arith.constant 0.0 : f32\n";

fn qkv(c: &Config, format: Format, suffix: &str, one_row: bool) -> String {
    let (d, hd) = (c.dim, c.head_dim());
    let rows_ty = if one_row { Dim::S(1) } else { Dim::D("%rows") };
    let tx = ty(&[rows_ty, Dim::S(d)], "f32");
    let tcs = ty(&[rows_ty, Dim::S(hd / 2)], "f32");
    let (wq, wk, wv) = (
        WeightArg::new("wq"),
        WeightArg::new("wk"),
        WeightArg::new("wv"),
    );
    let (nq, nkv) = (c.heads * hd, c.kv_heads * hd);
    let tq = ty(&[rows_ty, Dim::S(c.heads), Dim::S(hd)], "f32");
    let tkv = ty(&[rows_ty, Dim::S(c.kv_heads), Dim::S(hd)], "f32");
    let mut s = format!(
        "func.func @qkv{suffix}(%x: {tx}, %g: tensor<{d}xf32>, {}, {}, {}, %cos: {tcs}, %sin: {tcs}) -> ({tq}, {tkv}, {tkv}) {{\n{PRELUDE}",
        wq.params(format, nq, d),
        wk.params(format, nkv, d),
        wv.params(format, nkv, d),
    );
    let (rows, def) = rows_of(one_row, "%x", &tx);
    s.push_str(&def);
    let mut b = body(format, one_row);
    let y = b.rms_norm("%x", "%g", rows, d);
    let q = b.proj(&y, &wq, rows, nq, d);
    let q = b.rope(&q, rows, c.heads, hd);
    let k = b.proj(&y, &wk, rows, nkv, d);
    let k = b.rope(&k, rows, c.kv_heads, hd);
    let v = b.proj(&y, &wv, rows, nkv, d);
    let v3 = b.fresh();
    let sh = [rows, Dim::S(c.kv_heads), Dim::S(hd)];
    b.line(&format!(
        "{v3} = tensor.expand_shape {v} [[0], [1, 2]] output_shape [{}] : {} into {tkv}",
        sizes(&sh),
        ty(&[rows, Dim::S(nkv)], "f32")
    ));
    b.line(&format!("return {q}, {k}, {v3} : {tq}, {tkv}, {tkv}"));
    s.push_str(&b.text);
    s.push_str("}\n");
    s
}

fn attn(c: &Config, format: Format, suffix: &str, one_row: bool) -> String {
    let (d, hd, f) = (c.dim, c.head_dim(), c.hidden);
    let (kvh, g) = (c.kv_heads, c.heads / c.kv_heads);
    let rows_ty = if one_row { Dim::S(1) } else { Dim::D("%rows") };
    let tx = ty(&[rows_ty, Dim::S(d)], "f32");
    let tq = ty(&[rows_ty, Dim::S(c.heads), Dim::S(hd)], "f32");
    let tkv = ty(&[Dim::D("%t"), Dim::S(kvh), Dim::S(hd)], "f32");
    let (wo, wg, wu, wd) = (
        WeightArg::new("wo"),
        WeightArg::new("wgate"),
        WeightArg::new("wup"),
        WeightArg::new("wdown"),
    );
    let mut s = format!(
        "func.func @attn{suffix}(%x: {tx}, %q: {tq}, %k: {tkv}, %v: {tkv}, {}, %g: tensor<{d}xf32>, {}, {}, {}) -> {tx} {{\n{PRELUDE}",
        wo.params(format, d, d),
        wg.params(format, f, d),
        wu.params(format, f, d),
        wd.params(format, d, f),
    );
    let (rows, def) = rows_of(one_row, "%x", &tx);
    s.push_str(&def);
    s.push_str(&format!("  %t = tensor.dim %k, %c0 : {tkv}\n"));
    if !one_row {
        s.push_str("  %past = arith.subi %t, %rows : index\n");
    }
    let t = Dim::D("%t");
    let mut b = body(format, one_row);
    // Scores [kvh, g, rows, t] = q·k / sqrt(hd), queries grouped per key head.
    let sh5 = [rows, Dim::S(kvh), Dim::S(g), Dim::S(hd)];
    let t5 = ty(&sh5, "f32");
    let q5 = b.fresh();
    b.line(&format!(
        "{q5} = tensor.expand_shape %q [[0], [1, 2], [3]] output_shape [{}] : {tq} into {t5}",
        sizes(&sh5)
    ));
    let shs = [Dim::S(kvh), Dim::S(g), rows, t];
    let ts = ty(&shs, "f32");
    let acc = b.zeros(&shs);
    let sc = b.fresh();
    b.line(&format!(
        "{sc} = linalg.generic {{indexing_maps = [#sc_q, #sc_k, #sc_o], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins({q5}, %k : {t5}, {tkv}) outs({acc} : {ts}) {{"
    ));
    b.line("^bb0(%a: f32, %b: f32, %acc: f32):");
    b.line("  %m = arith.mulf %a, %b : f32");
    b.line("  %s = arith.addf %acc, %m : f32");
    b.line("  linalg.yield %s : f32");
    b.line(&format!("}} -> {ts}"));
    let e = b.empty(&shs);
    let scaled = b.fresh();
    b.line(&format!(
        "{scaled} = linalg.generic {{indexing_maps = [#id4, #id4], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({sc} : {ts}) outs({e} : {ts}) {{"
    ));
    b.line("^bb0(%a: f32, %o: f32):");
    b.line(&format!(
        "  %scale = arith.constant {:.9e} : f32",
        1.0 / (hd as f32).sqrt()
    ));
    b.line("  %y0 = arith.mulf %a, %scale : f32");
    if one_row {
        b.line("  linalg.yield %y0 : f32");
    } else {
        // Causal: key j after query i's position (T - R + i) is masked out.
        b.line("  %i = linalg.index 2 : index");
        b.line("  %j = linalg.index 3 : index");
        b.line("  %pos = arith.addi %i, %past : index");
        b.line("  %later = arith.cmpi ugt, %j, %pos : index");
        b.line("  %ninf = arith.constant 0xFF800000 : f32");
        b.line("  %y = arith.select %later, %ninf, %y0 : f32");
        b.line("  linalg.yield %y : f32");
    }
    b.line(&format!("}} -> {ts}"));
    let e = b.empty(&shs);
    let p = b.fresh();
    b.line(&format!(
        "{p} = linalg.softmax dimension(3) ins({scaled} : {ts}) outs({e} : {ts}) -> {ts}"
    ));
    let acc = b.zeros(&sh5);
    let o = b.fresh();
    b.line(&format!(
        "{o} = linalg.generic {{indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]}} ins({p}, %v : {ts}, {tkv}) outs({acc} : {t5}) {{"
    ));
    b.line("^bb0(%a: f32, %b: f32, %acc: f32):");
    b.line("  %m = arith.mulf %a, %b : f32");
    b.line("  %s = arith.addf %acc, %m : f32");
    b.line("  linalg.yield %s : f32");
    b.line(&format!("}} -> {t5}"));
    let oc = b.fresh();
    let tr = ty(&[rows, Dim::S(d)], "f32");
    b.line(&format!(
        "{oc} = tensor.collapse_shape {o} [[0], [1, 2, 3]] : {t5} into {tr}"
    ));
    let ao = b.proj(&oc, &wo, rows, d, d);
    let h = b.map2(&["%x", &ao], rows, d, &["%y = arith.addf %a, %b : f32"]);
    let y = b.rms_norm(&h, "%g", rows, d);
    let gate = b.proj(&y, &wg, rows, f, d);
    let up = b.proj(&y, &wu, rows, f, d);
    let act = b.map2(
        &[&gate, &up],
        rows,
        f,
        &[
            "%one = arith.constant 1.0 : f32",
            "%na = arith.negf %a : f32",
            "%e = math.exp %na : f32",
            "%den = arith.addf %one, %e : f32",
            "%silu = arith.divf %a, %den : f32",
            "%y = arith.mulf %silu, %b : f32",
        ],
    );
    let down = b.proj(&act, &wd, rows, d, f);
    let out = b.map2(&[&h, &down], rows, d, &["%y = arith.addf %a, %b : f32"]);
    b.line(&format!("return {out} : {tx}"));
    s.push_str(&b.text);
    s.push_str("}\n");
    s
}

fn head(c: &Config, format: Format) -> String {
    let d = c.dim;
    let tx = ty(&[Dim::S(1), Dim::S(d)], "f32");
    let tl = ty(&[Dim::S(1), Dim::S(c.vocab)], "f32");
    let w = WeightArg::new("wout");
    let mut s = format!(
        "func.func @head(%x: {tx}, %g: tensor<{d}xf32>, {}) -> {tl} {{\n{PRELUDE}",
        w.params(format, c.vocab, d)
    );
    let mut b = body(format, true);
    let y = b.rms_norm("%x", "%g", Dim::S(1), d);
    let l = b.proj(&y, &w, Dim::S(1), c.vocab, d);
    b.line(&format!("return {l} : {tl}"));
    s.push_str(&b.text);
    s.push_str("}\n");
    s
}
