//! `com.microsoft.MatMulNBits`: `Y = A @ dequant(B)^T + bias`, with `B`
//! block-quantized along K to 4 or 8 bits and kept in its stored bytes.
//!
//! `B` (uint8, `[N, k_blocks, blob_size]`, `blob_size = block_size * bits
//! / 8`) holds row `n`'s element `k` in byte `k * bits / 8` of the row;
//! 4-bit codes put element `2i` in the low nibble of a byte and `2i + 1`
//! in the high one. `scales` (`T1`, `N * k_blocks` elements) give one
//! scale per block; `zero_points` are either packed like `B` (uint8,
//! `ceil(k_blocks * bits / 8)` bytes per row) or one `T1` per block, and
//! default to `2^(bits - 1)`. Element `k` of row `n` is `(code -
//! zero_point) * scale` of block `k / block_size`.
//!
//! The dequantization is one `linalg.generic` over `(n, k)` that reads
//! the packed bytes through `k floordiv 2` (4-bit) or `k` (8-bit) and picks
//! the nibble with `linalg.index`; `linalg.matmul_transpose_b` reads it,
//! and the tensor compiler fuses it into the matmul's loads
//! (`kiln_core::codegen::dequant`), so no f32 weight tensor exists.
//! `g_idx` (a permuted block order) is refused.

use kiln_core::tensor::affine::{AffineExpr, AffineMap};
use kiln_core::tensor::attr::{IteratorType, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, ContractionKind};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{Dim, ElemType, TValue};

use super::gather::{index_const, loop_index};
use super::scalar::{arith, convert, Bin};
use super::OpResult;
use crate::ctx::{BuildError, Ctx};
use crate::dtype::DataType;
use crate::node::Node;
use crate::value::Value;

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

/// `(n, k) -> (n, k floordiv div)`.
fn blocked(div: u64) -> AffineMap {
    let k = if div == 1 {
        AffineExpr::Dim(1)
    } else {
        AffineExpr::floor_div(AffineExpr::Dim(1), AffineExpr::Const(div as i64))
    };
    AffineMap::new(2, 0, vec![AffineExpr::Dim(0), k])
}

/// The `bits`-bit code of element `pos` in `byte` (an i8 holding
/// unsigned codes, `8 / bits` per byte, the first in the low bits), as
/// an i32.
fn code(bb: &mut BodyBuilder<'_>, byte: TValue, pos: TValue, bits: u64) -> TValue {
    let i8t = ElemType::I8;
    let v = if bits == 8 {
        byte
    } else {
        let per = index_const(bb, (8 / bits) as i64);
        let slot = bb.arith(ArithOp::RemUI, vec![pos, per], ElemType::Index);
        let w = index_const(bb, bits as i64);
        let sh = bb.arith(ArithOp::MulI, vec![slot, w], ElemType::Index);
        let sh = bb.arith(ArithOp::IndexCast, vec![sh], i8t);
        let v = bb.arith(ArithOp::ShRUI, vec![byte, sh], i8t);
        let mask = bb.constant(ScalarBits::Int((1 << bits) - 1), i8t);
        bb.arith(ArithOp::AndI, vec![v, mask], i8t)
    };
    convert(bb, DataType::Uint8, DataType::Int32, v)
}

/// `MatMulNBits(A, B, scales, zero_points?, g_idx?, bias?)` (attributes
/// `K`, `N`, `bits`, `block_size`; `accuracy_level` only lets the
/// runtime compute in lower precision and is ignored).
pub fn matmul_nbits(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let b = n.input(1)?;
    let scales = n.input(2)?;
    let zp = n.opt_input(3);
    if n.opt_input(4).is_some() {
        return Err(n.err("g_idx (a permuted block order) is not supported"));
    }
    let bias = n.opt_input(5);
    let (k, nn) = (n.int("K", 0), n.int("N", 0));
    let bits = n.int("bits", 4);
    let bs = n.int("block_size", 0);
    if bits != 4 && bits != 8 {
        return Err(n.err(format!("bits = {bits} is not supported (4 or 8)")));
    }
    if k <= 0 || nn <= 0 || bs < 16 || bs & (bs - 1) != 0 {
        return Err(n.err(format!(
            "K = {k}, N = {nn}, block_size = {bs}: K and N must be positive and block_size a power of two >= 16"
        )));
    }
    let (k, nn, bits, bs) = (k as u64, nn as u64, bits as u64, bs as u64);
    let dt = a.dtype;
    if !matches!(dt, DataType::Float | DataType::Float16) || scales.dtype != dt {
        return Err(n.err(format!(
            "A and scales must be both FLOAT or both FLOAT16 (A is {}, scales {})",
            dt.name(),
            scales.dtype.name()
        )));
    }
    if b.dtype != DataType::Uint8 {
        return Err(n.err(format!("B must be UINT8, not {}", b.dtype.name())));
    }
    let sa = a
        .static_shape()
        .ok_or_else(|| n.err("a dynamic shape of A is not supported"))?;
    if sa.last() != Some(&k) {
        return Err(n.err(format!("A of shape {sa:?} does not end in K = {k}")));
    }
    let blocks = k.div_ceil(bs);
    let blob = bs * bits / 8;
    let sb = b.static_shape().unwrap_or_default();
    if sb != [nn, blocks, blob] {
        return Err(n.err(format!(
            "B of shape {sb:?} is not [N, k_blocks, blob_size] = [{nn}, {blocks}, {blob}]"
        )));
    }
    let count = |v: &Value| v.static_shape().map(|s| s.iter().product::<u64>());
    if count(scales) != Some(nn * blocks) {
        return Err(n.err(format!(
            "scales of shape {:?} do not hold N * k_blocks = {} values",
            scales.shape,
            nn * blocks
        )));
    }
    let zp_bytes = (blocks * bits).div_ceil(8);
    let zp_packed = zp.is_some_and(|z| z.dtype == DataType::Uint8);
    if let Some(z) = zp {
        let want = if zp_packed {
            nn * zp_bytes
        } else {
            nn * blocks
        };
        if (!zp_packed && z.dtype != dt) || count(z) != Some(want) {
            return Err(n.err(format!(
                "zero_points of type {} and shape {:?}: expected UINT8 of {} or {} of {} values",
                z.dtype.name(),
                z.shape,
                nn * zp_bytes,
                dt.name(),
                nn * blocks
            )));
        }
    }
    let err = |e: BuildError| n.err(e);
    let bv = c.reshape(b, &[nn, blocks * blob]).map_err(err)?;
    let sv = c.reshape(scales, &[nn, blocks]).map_err(err)?;
    let mut ins = vec![c.ssa(&bv), c.ssa(&sv)];
    let per_byte = 8 / bits;
    let mut maps = vec![blocked(per_byte), blocked(bs)];
    if let Some(z) = zp {
        let zshape = if zp_packed {
            [nn, zp_bytes]
        } else {
            [nn, blocks]
        };
        let zv = c.reshape(z, &zshape).map_err(err)?;
        ins.push(c.ssa(&zv));
        maps.push(blocked(if zp_packed { bs * per_byte } else { bs }));
    }
    maps.push(AffineMap::identity(2));
    // The weights and the sums are f32 whatever A's type (onnxruntime
    // accumulates FLOAT16 products in f32 and rounds the result once).
    let init = c.empty_static(&[nn, k], ElemType::F32);
    let f = DataType::Float;
    let w = c.b.generic(
        maps,
        vec![IteratorType::Parallel; 2],
        &ins,
        &[init],
        |bb, args| {
            let kk = loop_index(bb, 1);
            let q = code(bb, args[0], kk, bits);
            let z = match zp {
                None => bb.constant(ScalarBits::Int(1 << (bits - 1)), ElemType::I32),
                Some(_) if zp_packed => {
                    let bsz = index_const(bb, bs as i64);
                    let blk = bb.arith(ArithOp::DivUI, vec![kk, bsz], ElemType::Index);
                    code(bb, args[2], blk, bits)
                }
                Some(_) => args[2],
            };
            let d = if zp.is_some() && !zp_packed {
                let qf = convert(bb, DataType::Int32, f, q);
                let zf = convert(bb, dt, f, z);
                arith(bb, f, Bin::Sub, qf, zf)
            } else {
                let d = arith(bb, DataType::Int32, Bin::Sub, q, z);
                convert(bb, DataType::Int32, f, d)
            };
            let s = convert(bb, dt, f, args[1]);
            vec![arith(bb, f, Bin::Mul, d, s)]
        },
    )[0];
    let rows: u64 = sa[..sa.len() - 1].iter().product();
    let a2 = c.reshape(a, &[rows, k]).map_err(err)?;
    let x = c.ssa(&a2);
    let r = super::matmul::contraction(c, ContractionKind::MatmulTransposeB, x, w, &[rows, nn], f)
        .map_err(err)?;
    let mut y = Value::computed(r, f, dims(&[rows, nn]));
    if let Some(bias) = bias {
        if count(bias) != Some(nn) || bias.dtype != dt {
            return Err(n.err(format!("bias must hold N = {nn} values of A's type")));
        }
        let bv = c.reshape(bias, &[nn]).map_err(err)?;
        y = c
            .elementwise(&[&y, &bv], f, |bb, v| {
                let b = convert(bb, dt, f, v[1]);
                arith(bb, f, Bin::Add, v[0], b)
            })
            .map_err(err)?;
    }
    if dt != f {
        y = c
            .elementwise(&[&y], dt, |bb, v| convert(bb, f, dt, v[0]))
            .map_err(err)?;
    }
    let mut out = sa[..sa.len() - 1].to_vec();
    out.push(nn);
    Ok(vec![c.reshape(&y, &out).map_err(err)?])
}
