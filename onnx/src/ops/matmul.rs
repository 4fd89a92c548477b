//! `MatMul` (numpy semantics) on `linalg.matmul`/`batch_matmul`, and
//! `Gemm` on `linalg.matmul` with the transposes as
//! `matmul_transpose_a/b` and `alpha`/`beta`/`C` as an epilogue.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ContractionKind, LinalgKind};
use kiln_core::tensor::{Dim, TValue};

use super::scalar::{arith, cst, Bin};
use super::OpResult;
use crate::ctx::{BResult, BuildError, Ctx};
use crate::dtype::DataType;
use crate::node::Node;
use crate::value::Value;

pub(crate) fn contraction(
    c: &mut Ctx<'_>,
    kind: ContractionKind,
    a: TValue,
    b: TValue,
    out: &[u64],
    dt: DataType,
) -> BResult<TValue> {
    let zero = if dt.is_float() {
        ScalarBits::Float(0.0)
    } else {
        ScalarBits::Int(0)
    };
    let acc = c.full(out, dt, zero);
    c.b.linalg(LinalgKind::Contraction(kind), &[a, b], &[acc])
        .map(|r| r[0])
        .map_err(|error| BuildError::Linalg {
            op: kind.name(),
            error,
        })
}

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

/// `MatMul`.
pub fn matmul(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    Ok(vec![matmul_values(c, n, a, b)?])
}

/// `a @ b` with numpy's `matmul` semantics (for `n`'s errors).
pub fn matmul_values(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    a: &Value,
    b: &Value,
) -> Result<Value, crate::error::OnnxError> {
    let dt = a.dtype;
    let sa = a
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let sb = b
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    if sa.is_empty() || sb.is_empty() {
        return Err(n.err("MatMul of a scalar"));
    }
    // 1-D operands become matrices, their unit dim dropped at the end.
    let a2 = if sa.len() == 1 {
        vec![1, sa[0]]
    } else {
        sa.clone()
    };
    let b2 = if sb.len() == 1 {
        vec![sb[0], 1]
    } else {
        sb.clone()
    };
    let av = c.reshape(a, &a2).map_err(|e| n.err(e))?;
    let bv = c.reshape(b, &b2).map_err(|e| n.err(e))?;
    let (m, k) = (a2[a2.len() - 2], a2[a2.len() - 1]);
    let (k2, nn) = (b2[b2.len() - 2], b2[b2.len() - 1]);
    if k != k2 {
        return Err(n.err(format!("inner dimensions differ: {sa:?} x {sb:?}")));
    }
    let ba: Vec<Dim> = dims(&a2[..a2.len() - 2]);
    let bb: Vec<Dim> = dims(&b2[..b2.len() - 2]);
    let batch = Ctx::broadcast_shape(&[&ba, &bb]).map_err(|e| n.err(e))?;
    let batch: Vec<u64> = batch.iter().map(|d| d.fixed().unwrap_or(1)).collect();
    let p: u64 = batch.iter().product();
    let mut full_out = batch.clone();
    full_out.extend([m, nn]);
    let result = if bb.is_empty() {
        // (..., M, K) x (K, N): one matmul over the rows of all batches.
        let rows = p * m;
        let af = c.reshape(&av, &[rows, k]).map_err(|e| n.err(e))?;
        let (x, y) = (c.ssa(&af), c.ssa(&bv));
        let r =
            contraction(c, ContractionKind::Matmul, x, y, &[rows, nn], dt).map_err(|e| n.err(e))?;
        Value::computed(r, dt, dims(&[rows, nn]))
    } else {
        let mut ea = batch.clone();
        ea.extend([m, k]);
        let mut eb = batch.clone();
        eb.extend([k, nn]);
        let ax = broadcast_to(c, &av, &ea).map_err(|e| n.err(e))?;
        let bx = broadcast_to(c, &bv, &eb).map_err(|e| n.err(e))?;
        let a3 = c.reshape(&ax, &[p, m, k]).map_err(|e| n.err(e))?;
        let b3 = c.reshape(&bx, &[p, k, nn]).map_err(|e| n.err(e))?;
        let (x, y) = (c.ssa(&a3), c.ssa(&b3));
        let r = contraction(c, ContractionKind::BatchMatmul, x, y, &[p, m, nn], dt)
            .map_err(|e| n.err(e))?;
        Value::computed(r, dt, dims(&[p, m, nn]))
    };
    let mut out: Vec<u64> = batch;
    if sa.len() != 1 {
        out.push(m);
    }
    if sb.len() != 1 {
        out.push(nn);
    }
    c.reshape(&result, &out).map_err(|e| n.err(e))
}

/// `v` broadcast to the static `shape` (a copy when it differs).
fn broadcast_to(c: &mut Ctx<'_>, v: &Value, shape: &[u64]) -> BResult<Value> {
    if v.static_shape().as_deref() == Some(shape) {
        return Ok(v.clone());
    }
    let t = c.full(shape, DataType::Bool, ScalarBits::Int(0));
    let tv = Value::computed(t, DataType::Bool, dims(shape));
    c.elementwise(&[v, &tv], v.dtype, |_, x| x[0])
}

/// `Gemm(alpha, beta, transA, transB)`: `alpha * A' B' + beta * C`.
pub fn gemm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let sa = a
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let sb = b
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    if sa.len() != 2 || sb.len() != 2 {
        return Err(n.err("Gemm takes matrices"));
    }
    let (ta, tb) = (n.int("transA", 0) != 0, n.int("transB", 0) != 0);
    let (m, k) = if ta { (sa[1], sa[0]) } else { (sa[0], sa[1]) };
    let (k2, nn) = if tb { (sb[1], sb[0]) } else { (sb[0], sb[1]) };
    if k != k2 {
        return Err(n.err(format!("inner dimensions differ: {sa:?} x {sb:?}")));
    }
    let kind = match (ta, tb) {
        (false, false) => ContractionKind::Matmul,
        (true, false) => ContractionKind::MatmulTransposeA,
        (false, true) => ContractionKind::MatmulTransposeB,
        (true, true) => ContractionKind::Matmul,
    };
    let (mut x, mut y) = (a.clone(), b.clone());
    if ta && tb {
        x = c.transpose(a, &[1, 0]).map_err(|e| n.err(e))?;
        y = c.transpose(b, &[1, 0]).map_err(|e| n.err(e))?;
    }
    let (xs, ys) = (c.ssa(&x), c.ssa(&y));
    let r = contraction(c, kind, xs, ys, &[m, nn], dt).map_err(|e| n.err(e))?;
    let mut out = Value::computed(r, dt, dims(&[m, nn]));
    let alpha = f64::from(n.float("alpha", 1.0));
    let beta = f64::from(n.float("beta", 1.0));
    if alpha != 1.0 {
        out = c
            .elementwise(&[&out], dt, |bb, v| {
                let al = cst(bb, dt, alpha);
                arith(bb, dt, Bin::Mul, v[0], al)
            })
            .map_err(|e| n.err(e))?;
    }
    if let Some(cv) = n.opt_input(2) {
        if beta != 0.0 {
            out = c
                .elementwise(&[&out, cv], dt, |bb, v| {
                    let t = if beta == 1.0 {
                        v[1]
                    } else {
                        let be = cst(bb, dt, beta);
                        arith(bb, dt, Bin::Mul, v[1], be)
                    };
                    arith(bb, dt, Bin::Add, v[0], t)
                })
                .map_err(|e| n.err(e))?;
        }
    }
    Ok(vec![out])
}
