//! `Det` (opset 11): the determinant of each trailing `[n, n]` matrix, by
//! cofactor expansion along the first row in one element-wise generic over
//! the batch (n up to 4: 24 products).

use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::TValue;

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

/// Largest matrix the expansion handles.
const MAX_N: u64 = 4;

/// The determinant of the matrix whose element `(r, c)` is `m[r][c]`,
/// restricted to `rows` and `cols`.
fn minor(
    bb: &mut BodyBuilder<'_>,
    dt: DataType,
    m: &[Vec<TValue>],
    rows: &[usize],
    cols: &[usize],
) -> TValue {
    if rows.len() == 1 {
        return m[rows[0]][cols[0]];
    }
    let mut acc = None;
    for (k, &col) in cols.iter().enumerate() {
        let rest: Vec<usize> = cols.iter().copied().filter(|&c| c != col).collect();
        let sub = minor(bb, dt, m, &rows[1..], &rest);
        let t = arith(bb, dt, Bin::Mul, m[rows[0]][col], sub);
        acc = Some(match acc {
            None => t,
            Some(a) if k % 2 == 1 => arith(bb, dt, Bin::Sub, a, t),
            Some(a) => arith(bb, dt, Bin::Add, a, t),
        });
    }
    acc.expect("a non-empty row")
}

/// `Det(X)`: `X` of `[*, n, n]`, the result of `[*]`.
pub fn det(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let s = x
        .static_shape()
        .filter(|s| s.len() >= 2 && s[s.len() - 1] == s[s.len() - 2])
        .ok_or_else(|| n.err("X must be [*, n, n] of static shape"))?;
    if !dt.is_float() {
        return Err(n.err(format!("Det of {} is not supported", dt.name())));
    }
    let size = s[s.len() - 1];
    if size == 0 || size > MAX_N {
        return Err(n.err(format!(
            "matrices of {size} x {size} are not supported (1 to {MAX_N})"
        )));
    }
    let batch = s[..s.len() - 2].to_vec();
    let xv = c.ssa(x);
    let elem = dt.elem();
    let size = size as usize;
    let y = indexed_generic(c, &batch, dt, &[], |bb, li, _| {
        let m: Vec<Vec<TValue>> = (0..size)
            .map(|r| {
                (0..size)
                    .map(|col| {
                        let mut at = li.to_vec();
                        at.push(index_const(bb, r as i64));
                        at.push(index_const(bb, col as i64));
                        extract(bb, xv, &at, elem)
                    })
                    .collect()
            })
            .collect();
        let all: Vec<usize> = (0..size).collect();
        minor(bb, dt, &m, &all, &all)
    });
    Ok(vec![y])
}
