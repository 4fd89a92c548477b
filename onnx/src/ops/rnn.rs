//! `RNN`, `GRU` and `LSTM` unrolled over their static sequence: per time
//! step and direction, two matmuls (input and hidden weights) and
//! elementwise gates, ONNX's equations with the default activations
//! (`Tanh`; `Sigmoid, Tanh`; `Sigmoid, Tanh, Tanh`); forward, reverse
//! and bidirectional; `layout` 0 and 1.

use kiln_core::tensor::ops::MathOp;
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::TValue;

use super::elementwise::sigmoid_of;
use super::scalar::{arith, cst, math, Bin};
use super::{attention::sub, matmul, shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Rnn,
    Gru,
    Lstm,
}

impl Cell {
    fn gates(self) -> u64 {
        match self {
            Cell::Rnn => 1,
            Cell::Gru => 3,
            Cell::Lstm => 4,
        }
    }

    fn default_activations(self) -> &'static [&'static str] {
        match self {
            Cell::Rnn => &["Tanh"],
            Cell::Gru => &["Sigmoid", "Tanh"],
            Cell::Lstm => &["Sigmoid", "Tanh", "Tanh"],
        }
    }
}

/// The building blocks, naming the node in errors.
struct B<'a, 'n> {
    n: &'a Node<'n>,
    dt: DataType,
}

fn ints(v: &[i64]) -> Value {
    Value::constant(HostTensor::from_ints(DataType::Int64, &[v.len()], v))
}

impl B<'_, '_> {
    fn slice(
        &self,
        c: &mut Ctx<'_>,
        v: &Value,
        axis: i64,
        lo: u64,
        hi: u64,
    ) -> Result<Value, OnnxError> {
        sub(
            c,
            self.n,
            shape::slice,
            "Slice",
            vec![
                v.clone(),
                ints(&[lo as i64]),
                ints(&[hi as i64]),
                ints(&[axis]),
            ],
            &[],
        )
    }

    fn reshape(&self, c: &mut Ctx<'_>, v: &Value, s: &[u64]) -> Result<Value, OnnxError> {
        c.reshape(v, s).map_err(|e| self.n.err(e))
    }

    fn transpose(&self, c: &mut Ctx<'_>, v: &Value, p: &[usize]) -> Result<Value, OnnxError> {
        c.transpose(v, p).map_err(|e| self.n.err(e))
    }

    fn matmul(&self, c: &mut Ctx<'_>, a: &Value, b: &Value) -> Result<Value, OnnxError> {
        matmul::matmul_values(c, self.n, a, b)
    }

    fn concat(&self, c: &mut Ctx<'_>, vs: Vec<Value>, axis: i64) -> Result<Value, OnnxError> {
        if vs.len() == 1 {
            return Ok(vs.into_iter().next().expect("one"));
        }
        sub(
            c,
            self.n,
            shape::concat,
            "Concat",
            vs,
            &[("axis", vec![axis])],
        )
    }

    fn ew(
        &self,
        c: &mut Ctx<'_>,
        ins: &[&Value],
        f: impl FnOnce(&mut BodyBuilder<'_>, DataType, &[TValue]) -> TValue,
    ) -> Result<Value, OnnxError> {
        let dt = self.dt;
        c.elementwise(ins, dt, |bb, x| f(bb, dt, x))
            .map_err(|e| self.n.err(e))
    }

    /// `act(sum of ins)`.
    fn gate(&self, c: &mut Ctx<'_>, ins: &[&Value], sigmoid: bool) -> Result<Value, OnnxError> {
        self.ew(c, ins, |bb, dt, x| {
            let mut s = x[0];
            for &y in &x[1..] {
                s = arith(bb, dt, Bin::Add, s, y);
            }
            if sigmoid {
                sigmoid_of(bb, dt, s)
            } else {
                math(bb, MathOp::Tanh, s)
            }
        })
    }
}

fn recurrent(c: &mut Ctx<'_>, n: &Node<'_>, cell: Cell) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("{} of {}", n.op(), dt.name())));
    }
    let b = B { n, dt };
    if let Some(acts) = n
        .proto
        .attribute
        .iter()
        .find(|a| a.name.as_deref() == Some("activations"))
    {
        let names: Vec<String> = acts
            .strings
            .iter()
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect();
        let want = cell.default_activations();
        let dirs_n = names.len() / want.len().max(1);
        let expected: Vec<&str> = (0..dirs_n.max(1))
            .flat_map(|_| want.iter().copied())
            .collect();
        if names
            .iter()
            .map(String::as_str)
            .ne(expected.iter().copied())
        {
            return Err(n.err(format!(
                "activations {names:?} are not supported (only {want:?})"
            )));
        }
    }
    if n.has("clip") {
        return Err(n.err("the clip attribute is not supported"));
    }
    if n.int("input_forget", 0) != 0 {
        return Err(n.err("input_forget is not supported"));
    }
    let h = n.int("hidden_size", 0);
    if h <= 0 {
        return Err(n.err("hidden_size is required"));
    }
    let h = h as u64;
    let g = cell.gates();
    let direction = n.string("direction", "forward");
    let dirs: Vec<bool> = match direction.as_str() {
        "forward" => vec![false],
        "reverse" => vec![true],
        "bidirectional" => vec![false, true],
        d => {
            return Err(n.err(format!(
                "direction {d:?} is not forward, reverse or bidirectional"
            )))
        }
    };
    let layout = n.int("layout", 0);
    let xs = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    if xs.len() != 3 {
        return Err(n.err("X must be 3-D"));
    }
    // X as [seq, batch, input].
    let xsb = if layout == 1 {
        b.transpose(c, x, &[1, 0, 2])?
    } else {
        x.clone()
    };
    let (seq, batch, inp) = if layout == 1 {
        (xs[1], xs[0], xs[2])
    } else {
        (xs[0], xs[1], xs[2])
    };
    if let Some(lens) = n.opt_input(4) {
        let l = n.known(4)?.ints();
        if lens.dtype.is_float() || l.iter().any(|&v| v != seq as i64) {
            return Err(n.err(format!(
                "sequence_lens {l:?} shorter than the sequence ({seq}) are not supported"
            )));
        }
    }
    let (w, r) = (n.input(1)?, n.input(2)?);
    let nd = dirs.len() as u64;
    if w.static_shape() != Some(vec![nd, g * h, inp])
        || r.static_shape() != Some(vec![nd, g * h, h])
    {
        return Err(n.err(format!(
            "W and R must be [{nd}, {}, {inp}] and [{nd}, {}, {h}]",
            g * h,
            g * h
        )));
    }
    let lbr = n.int("linear_before_reset", 0) != 0;
    let (mut ys, mut hs, mut cs) = (Vec::new(), Vec::new(), Vec::new());
    for (d, &rev) in dirs.iter().enumerate() {
        let d = d as u64;
        let wd = b.slice(c, w, 0, d, d + 1)?;
        let wd = b.reshape(c, &wd, &[g * h, inp])?;
        let wt = b.transpose(c, &wd, &[1, 0])?; // [inp, g h]
        let rd = b.slice(c, r, 0, d, d + 1)?;
        let rd = b.reshape(c, &rd, &[g * h, h])?;
        let rt = b.transpose(c, &rd, &[1, 0])?; // [h, g h]
                                                // Per gate: the input and hidden weight columns, the two biases.
        let mut wcols = Vec::new();
        let mut rcols = Vec::new();
        let mut wb = Vec::new();
        let mut rb = Vec::new();
        let bias = match n.opt_input(3) {
            Some(bv) => {
                let bd = b.slice(c, bv, 0, d, d + 1)?;
                Some(b.reshape(c, &bd, &[2 * g * h])?)
            }
            None => None,
        };
        for k in 0..g {
            wcols.push(b.slice(c, &wt, 1, k * h, (k + 1) * h)?);
            rcols.push(b.slice(c, &rt, 1, k * h, (k + 1) * h)?);
            if let Some(bd) = &bias {
                wb.push(Some(b.slice(c, bd, 0, k * h, (k + 1) * h)?));
                rb.push(Some(b.slice(c, bd, 0, (g + k) * h, (g + k + 1) * h)?));
            } else {
                wb.push(None);
                rb.push(None);
            }
        }
        let peep = match n.opt_input(7) {
            Some(p) if cell == Cell::Lstm => {
                let pd = b.slice(c, p, 0, d, d + 1)?;
                let pd = b.reshape(c, &pd, &[3 * h])?;
                Some([
                    b.slice(c, &pd, 0, 0, h)?,
                    b.slice(c, &pd, 0, h, 2 * h)?,
                    b.slice(c, &pd, 0, 2 * h, 3 * h)?,
                ])
            }
            _ => None,
        };
        let init = |c: &mut Ctx<'_>, i: usize| -> Result<Value, OnnxError> {
            match n.opt_input(i) {
                Some(v) => {
                    let v = if layout == 1 {
                        b.transpose(c, v, &[1, 0, 2])?
                    } else {
                        v.clone()
                    };
                    let s = b.slice(c, &v, 0, d, d + 1)?;
                    b.reshape(c, &s, &[batch, h])
                }
                None => Ok(Value::constant(HostTensor::from_floats(
                    dt,
                    &[batch as usize, h as usize],
                    &vec![0.0; (batch * h) as usize],
                ))),
            }
        };
        let mut hh = init(c, 5)?;
        let mut cc = if cell == Cell::Lstm {
            Some(init(c, 6)?)
        } else {
            None
        };
        let mut outs: Vec<Option<Value>> = vec![None; seq as usize];
        let steps: Vec<u64> = if rev {
            (0..seq).rev().collect()
        } else {
            (0..seq).collect()
        };
        for t in steps {
            let xt = b.slice(c, &xsb, 0, t, t + 1)?;
            let xt = b.reshape(c, &xt, &[batch, inp])?;
            let mut terms = Vec::new();
            for k in 0..g as usize {
                let xw = b.matmul(c, &xt, &wcols[k])?;
                let mut v = vec![xw];
                for bv in [&wb[k], &rb[k]].into_iter().flatten() {
                    v.push(bv.clone());
                }
                terms.push(v);
            }
            let hr = |c: &mut Ctx<'_>, k: usize, hv: &Value| b.matmul(c, hv, &rcols[k]);
            match cell {
                Cell::Rnn => {
                    let hr0 = hr(c, 0, &hh)?;
                    let mut ins: Vec<&Value> = terms[0].iter().collect();
                    ins.push(&hr0);
                    hh = b.gate(c, &ins, false)?;
                }
                Cell::Gru => {
                    // Gates z, r, h in that order.
                    let hz = hr(c, 0, &hh)?;
                    let mut ins: Vec<&Value> = terms[0].iter().collect();
                    ins.push(&hz);
                    let z = b.gate(c, &ins, true)?;
                    let hrr = hr(c, 1, &hh)?;
                    let mut ins: Vec<&Value> = terms[1].iter().collect();
                    ins.push(&hrr);
                    let rg = b.gate(c, &ins, true)?;
                    let cand = if lbr {
                        // r * (H Rh + Rbh), Rbh added before the product.
                        let mut hv = hr(c, 2, &hh)?;
                        if let Some(rbh) = &rb[2] {
                            hv = b.ew(c, &[&hv, rbh], |bb, dt, x| {
                                arith(bb, dt, Bin::Add, x[0], x[1])
                            })?;
                        }
                        let gated = b.ew(c, &[&rg, &hv], |bb, dt, x| {
                            arith(bb, dt, Bin::Mul, x[0], x[1])
                        })?;
                        let xw = &terms[2][0];
                        let mut ins: Vec<&Value> = vec![xw, &gated];
                        if let Some(wbh) = &wb[2] {
                            ins.push(wbh);
                        }
                        b.gate(c, &ins, false)?
                    } else {
                        let rh = b.ew(c, &[&rg, &hh], |bb, dt, x| {
                            arith(bb, dt, Bin::Mul, x[0], x[1])
                        })?;
                        let hv = hr(c, 2, &rh)?;
                        let mut ins: Vec<&Value> = terms[2].iter().collect();
                        ins.push(&hv);
                        b.gate(c, &ins, false)?
                    };
                    hh = b.ew(c, &[&z, &cand, &hh], |bb, dt, x| {
                        let one = cst(bb, dt, 1.0);
                        let omz = arith(bb, dt, Bin::Sub, one, x[0]);
                        let a = arith(bb, dt, Bin::Mul, omz, x[1]);
                        let p = arith(bb, dt, Bin::Mul, x[0], x[2]);
                        arith(bb, dt, Bin::Add, a, p)
                    })?;
                }
                Cell::Lstm => {
                    // Gates i, o, f, c in that order; peepholes i, o, f.
                    let cprev = cc.clone().expect("an LSTM cell state");
                    let mut pre = Vec::new();
                    for (k, term) in terms.iter().enumerate() {
                        let hk = hr(c, k, &hh)?;
                        let mut v = term.clone();
                        v.push(hk);
                        pre.push(v);
                    }
                    let with_peep = |c: &mut Ctx<'_>,
                                     k: usize,
                                     pi: usize,
                                     cv: &Value|
                     -> Result<Value, OnnxError> {
                        let mut ins: Vec<Value> = pre[k].clone();
                        if let Some(p) = &peep {
                            ins.push(b.ew(c, &[&p[pi], cv], |bb, dt, x| {
                                arith(bb, dt, Bin::Mul, x[0], x[1])
                            })?);
                        }
                        let refs: Vec<&Value> = ins.iter().collect();
                        b.gate(c, &refs, true)
                    };
                    let ig = with_peep(c, 0, 0, &cprev)?;
                    let fg = with_peep(c, 2, 2, &cprev)?;
                    let refs: Vec<&Value> = pre[3].iter().collect();
                    let cand = b.gate(c, &refs, false)?;
                    let cnew = b.ew(c, &[&fg, &cprev, &ig, &cand], |bb, dt, x| {
                        let a = arith(bb, dt, Bin::Mul, x[0], x[1]);
                        let p = arith(bb, dt, Bin::Mul, x[2], x[3]);
                        arith(bb, dt, Bin::Add, a, p)
                    })?;
                    let og = with_peep(c, 1, 1, &cnew)?;
                    hh = b.ew(c, &[&og, &cnew], |bb, dt, x| {
                        let t = math(bb, MathOp::Tanh, x[1]);
                        arith(bb, dt, Bin::Mul, x[0], t)
                    })?;
                    cc = Some(cnew);
                }
            }
            outs[t as usize] = Some(b.reshape(c, &hh, &[1, 1, batch, h])?);
        }
        // Y only when asked for: an unused concatenation of the steps
        // would be dead code in the program.
        if n.wants_output(0) {
            let yd: Vec<Value> = outs.into_iter().flatten().collect();
            ys.push(b.concat(c, yd, 0)?);
        }
        hs.push(b.reshape(c, &hh, &[1, batch, h])?);
        if let Some(cv) = &cc {
            cs.push(b.reshape(c, cv, &[1, batch, h])?);
        }
    }
    let mut yh = b.concat(c, hs, 0)?; // [dirs, batch, h]
                                      // [seq, dirs, batch, h]; when Y is not asked for, Y_h stands in for
                                      // the unnamed output (the importer never reads it).
    let mut y = if ys.is_empty() {
        yh.clone()
    } else {
        b.concat(c, ys, 1)?
    };
    let mut yc = if cs.is_empty() {
        None
    } else {
        Some(b.concat(c, cs, 0)?)
    };
    if layout == 1 {
        if n.wants_output(0) {
            y = b.transpose(c, &y, &[2, 0, 1, 3])?;
        }
        yh = b.transpose(c, &yh, &[1, 0, 2])?;
        if let Some(v) = &yc {
            yc = Some(b.transpose(c, v, &[1, 0, 2])?);
        }
    }
    let mut out = vec![y, yh];
    if let Some(v) = yc {
        out.push(v);
    }
    Ok(out)
}

/// `RNN` (Tanh).
pub fn rnn(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    recurrent(c, n, Cell::Rnn)
}

/// `GRU` (Sigmoid, Tanh; `linear_before_reset`).
pub fn gru(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    recurrent(c, n, Cell::Gru)
}

/// `LSTM` (Sigmoid, Tanh, Tanh; peepholes).
pub fn lstm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    recurrent(c, n, Cell::Lstm)
}
