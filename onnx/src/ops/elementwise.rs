//! Elementwise ops with numpy broadcasting: arithmetic, comparisons,
//! logic, activations, `Where`, `Cast`.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::scalar::{arith, cmp, convert, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

fn binary(c: &mut Ctx<'_>, n: &Node<'_>, op: Bin) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let v = c
        .elementwise(&[a, b], dt, |bb, x| arith(bb, dt, op, x[0], x[1]))
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Add`.
pub fn add(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    binary(c, n, Bin::Add)
}
/// `Sub`.
pub fn sub(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    binary(c, n, Bin::Sub)
}
/// `Mul`.
pub fn mul(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    binary(c, n, Bin::Mul)
}
/// `Div` (integers truncate toward zero, as onnxruntime does).
pub fn div(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    binary(c, n, Bin::Div)
}

fn variadic(c: &mut Ctx<'_>, n: &Node<'_>, op: Bin, mean: bool) -> OpResult {
    let ins: Vec<&crate::value::Value> = (0..n.inputs.len())
        .map(|i| n.input(i))
        .collect::<Result<_, _>>()?;
    let dt = ins[0].dtype;
    let count = ins.len() as f64;
    let v = c
        .elementwise(&ins, dt, |bb, x| {
            let mut acc = x[0];
            for &y in &x[1..] {
                acc = arith(bb, dt, op, acc, y);
            }
            if mean {
                let k = cst(bb, dt, count);
                acc = arith(bb, dt, Bin::Div, acc, k);
            }
            acc
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Max` (variadic).
pub fn max(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    variadic(c, n, Bin::Max, false)
}
/// `Min` (variadic).
pub fn min(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    variadic(c, n, Bin::Min, false)
}
/// `Sum` (variadic).
pub fn sum(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    variadic(c, n, Bin::Add, false)
}
/// `Mean` (variadic).
pub fn mean(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    variadic(c, n, Bin::Add, true)
}

/// `base ^ e` for integers of `dt` by squaring over every bit of `e`
/// (wrapping like numpy's integer power); a negative `e` gives
/// `1 / base^|e|` truncated: 1 for base 1, ±1 for base -1, else 0.
fn int_pow(bb: &mut BodyBuilder<'_>, dt: DataType, base: TValue, e: TValue) -> TValue {
    let ty = dt.elem();
    let one = cst(bb, dt, 1.0);
    let zero = cst(bb, dt, 0.0);
    let mut acc = one;
    let mut sq = base;
    for bit in 0..ty.bits() {
        // Bit `bit` as a signed value of the width (the top bit negative).
        let w = 64 - ty.bits();
        let k = (((1u64 << bit) as i64) << w) >> w;
        let k = bb.constant(ScalarBits::Int(k), ty);
        let m = bb.arith(ArithOp::AndI, vec![e, k], ty);
        let set = cmp(bb, dt, Cmp::Ne, m, zero);
        let next = arith(bb, dt, Bin::Mul, acc, sq);
        acc = select(bb, set, next, acc);
        sq = arith(bb, dt, Bin::Mul, sq, sq);
    }
    if dt.is_unsigned() {
        return acc;
    }
    let neg = cmp(bb, dt, Cmp::Lt, e, zero);
    let is_one = cmp(bb, dt, Cmp::Eq, base, one);
    let m1 = cst(bb, dt, -1.0);
    let is_m1 = cmp(bb, dt, Cmp::Eq, base, m1);
    // (-1)^e: the parity of e.
    let odd = bb.arith(ArithOp::AndI, vec![e, one], ty);
    let odd = cmp(bb, dt, Cmp::Ne, odd, zero);
    let pm = select(bb, odd, m1, one);
    let r = select(bb, is_m1, pm, zero);
    let r = select(bb, is_one, one, r);
    select(bb, neg, r, acc)
}

fn bb_abs(bb: &mut BodyBuilder<'_>, x: TValue) -> TValue {
    math(bb, MathOp::AbsF, x)
}

/// `Pow`: float bases (the exponent converted to the base's type);
/// integer bases with integer exponents exactly (`int_pow`), with
/// float exponents through f32 `pow` truncated toward zero, an integral
/// exponent taking the exact integer path.
pub fn pow(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let (dt, et) = (a.dtype, b.dtype);
    if dt == DataType::Bool || et == DataType::Bool {
        return Err(n.err("Pow of bool is not supported"));
    }
    if !dt.is_float() {
        let v = c
            .elementwise(&[a, b], dt, |bb, x| {
                if !et.is_float() {
                    let e = convert(bb, et, dt, x[1]);
                    return int_pow(bb, dt, x[0], e);
                }
                let f = DataType::Float;
                let ef = convert(bb, et, f, x[1]);
                let fl = math(bb, MathOp::Floor, ef);
                let integral = cmp(bb, f, Cmp::Eq, fl, ef);
                let lim = cst(bb, f, 2147483647.0);
                let mag = bb_abs(bb, ef);
                let small = cmp(bb, f, Cmp::Lt, mag, lim);
                let exact = bb.arith(ArithOp::AndI, vec![integral, small], ElemType::I1);
                let ei = convert(bb, f, DataType::Int32, fl);
                let ei = convert(bb, DataType::Int32, dt, ei);
                let ip = int_pow(bb, dt, x[0], ei);
                let bf = convert(bb, dt, f, x[0]);
                let p = bb.math(MathOp::PowF, vec![bf, ef]);
                let fp = convert(bb, f, dt, p);
                select(bb, exact, ip, fp)
            })
            .map_err(|e| n.err(e))?;
        return Ok(vec![v]);
    }
    let v = c
        .elementwise(&[a, b], dt, |bb, x| {
            let e = convert(bb, et, dt, x[1]);
            bb.math(MathOp::PowF, vec![x[0], e])
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

fn compare(c: &mut Ctx<'_>, n: &Node<'_>, k: Cmp) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let v = c
        .elementwise(&[a, b], DataType::Bool, |bb, x| cmp(bb, dt, k, x[0], x[1]))
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Equal`.
pub fn equal(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    compare(c, n, Cmp::Eq)
}
/// `Less`.
pub fn less(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    compare(c, n, Cmp::Lt)
}
/// `LessOrEqual`.
pub fn less_or_equal(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    compare(c, n, Cmp::Le)
}
/// `Greater`.
pub fn greater(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    compare(c, n, Cmp::Gt)
}
/// `GreaterOrEqual`.
pub fn greater_or_equal(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    compare(c, n, Cmp::Ge)
}

fn logic(c: &mut Ctx<'_>, n: &Node<'_>, op: ArithOp) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    if dt.is_float() {
        return Err(n.err(format!("{} of {} is not defined", n.op(), dt.name())));
    }
    let v = c
        .elementwise(&[a, b], dt, |bb, x| {
            bb.arith(op, vec![x[0], x[1]], dt.elem())
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `And` / `BitwiseAnd`.
pub fn and(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    logic(c, n, ArithOp::AndI)
}
/// `Or` / `BitwiseOr`.
pub fn or(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    logic(c, n, ArithOp::OrI)
}
/// `Xor` / `BitwiseXor`.
pub fn xor(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    logic(c, n, ArithOp::XOrI)
}

/// `Where(cond, x, y)`.
pub fn where_(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (k, a, b) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let v = c
        .elementwise(&[k, a, b], a.dtype, |bb, x| select(bb, x[0], x[1], x[2]))
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Cast(to)`.
pub fn cast(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let to = DataType::from_code(n.int("to", 0) as i32, &format!("Cast node {}", n.name()))?;
    cast_to(c, n, a, to)
}

/// `CastLike(x, like)`.
pub fn cast_like(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let to = n.input(1)?.dtype;
    cast_to(c, n, a, to)
}

/// Cast's conversion with its `saturate` and `round_mode` attributes.
fn cast_to(c: &mut Ctx<'_>, n: &Node<'_>, a: &crate::value::Value, to: DataType) -> OpResult {
    let from = a.dtype;
    if from == to {
        return Ok(vec![a.clone()]);
    }
    let saturate = n.int("saturate", 1) != 0;
    let round_up = match n.string("round_mode", "up").as_str() {
        "up" => true,
        "down" => false,
        m if to == DataType::Float8e8m0 => {
            return Err(n.err(format!("round_mode {m:?} is not supported (up, down)")))
        }
        _ => true,
    };
    let v = c
        .elementwise(&[a], to, |bb, x| {
            super::scalar::convert_with(bb, from, to, x[0], saturate, round_up)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// A unary float op from `f(body, x, node) -> y`.
fn unary_float(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    f: impl FnOnce(&mut BodyBuilder<'_>, DataType, TValue) -> TValue,
) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("{} of {} is not supported", n.op(), dt.name())));
    }
    let v = c
        .elementwise(&[a], dt, |bb, x| f(bb, dt, x[0]))
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

macro_rules! unary_math {
    ($($name:ident => $op:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
        pub fn $name(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
            unary_float(c, n, |bb, _, x| math(bb, MathOp::$op, x))
        }
    )*};
}

unary_math! {
    sqrt => Sqrt, "`Sqrt`.";
    exp => Exp, "`Exp`.";
    log => Log, "`Log`.";
    tanh => Tanh, "`Tanh`.";
    erf => Erf, "`Erf`.";
    floor => Floor, "`Floor`.";
    ceil => Ceil, "`Ceil`.";
    round => RoundEven, "`Round` (half to even).";
    sin => Sin, "`Sin`.";
    cos => Cos, "`Cos`.";
    tan => Tan, "`Tan`.";
    asin => Asin, "`Asin`.";
    acos => Acos, "`Acos`.";
    atan => Atan, "`Atan`.";
    sinh => Sinh, "`Sinh`.";
    cosh => Cosh, "`Cosh`.";
    asinh => Asinh, "`Asinh`.";
    acosh => Acosh, "`Acosh`.";
    atanh => Atanh, "`Atanh`.";
}

/// `Abs`.
pub fn abs(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            if dt.is_float() {
                math(bb, MathOp::AbsF, x[0])
            } else if dt.is_unsigned() {
                x[0]
            } else {
                math(bb, MathOp::AbsI, x[0])
            }
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Neg`.
pub fn neg(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            if dt.is_float() {
                bb.arith(ArithOp::NegF, vec![x[0]], dt.elem())
            } else {
                let z = cst(bb, dt, 0.0);
                arith(bb, dt, Bin::Sub, z, x[0])
            }
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Sign`.
pub fn sign(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            let z = cst(bb, dt, 0.0);
            let one = cst(bb, dt, 1.0);
            let m1 = cst(bb, dt, -1.0);
            let gt = cmp(bb, dt, Cmp::Gt, x[0], z);
            let lt = cmp(bb, dt, Cmp::Lt, x[0], z);
            let t = select(bb, lt, m1, z);
            select(bb, gt, one, t)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Reciprocal`.
pub fn reciprocal(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, |bb, dt, x| {
        let one = cst(bb, dt, 1.0);
        arith(bb, dt, Bin::Div, one, x)
    })
}

/// `Relu`.
pub fn relu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            let z = cst(bb, dt, 0.0);
            arith(bb, dt, Bin::Max, x[0], z)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

pub(crate) fn sigmoid_of(bb: &mut BodyBuilder<'_>, dt: DataType, x: TValue) -> TValue {
    let one = cst(bb, dt, 1.0);
    let nx = bb.arith(ArithOp::NegF, vec![x], dt.elem());
    let e = math(bb, MathOp::Exp, nx);
    let d = arith(bb, dt, Bin::Add, one, e);
    arith(bb, dt, Bin::Div, one, d)
}

/// `Sigmoid`.
pub fn sigmoid(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, sigmoid_of)
}

/// `LeakyRelu(alpha)`.
pub fn leaky_relu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 0.01));
    unary_float(c, n, |bb, dt, x| {
        let z = cst(bb, dt, 0.0);
        let a = cst(bb, dt, alpha);
        let ax = arith(bb, dt, Bin::Mul, a, x);
        let neg = cmp(bb, dt, Cmp::Lt, x, z);
        select(bb, neg, ax, x)
    })
}

/// `Elu(alpha)`.
pub fn elu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 1.0));
    unary_float(c, n, |bb, dt, x| {
        let z = cst(bb, dt, 0.0);
        let a = cst(bb, dt, alpha);
        let em1 = math(bb, MathOp::ExpM1, x);
        let y = arith(bb, dt, Bin::Mul, a, em1);
        let neg = cmp(bb, dt, Cmp::Lt, x, z);
        select(bb, neg, y, x)
    })
}

/// `Selu(alpha, gamma)`.
pub fn selu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 1.673_263_2));
    let gamma = f64::from(n.float("gamma", 1.050_701));
    unary_float(c, n, |bb, dt, x| {
        let z = cst(bb, dt, 0.0);
        let a = cst(bb, dt, alpha);
        let g = cst(bb, dt, gamma);
        let e = math(bb, MathOp::Exp, x);
        let ae = arith(bb, dt, Bin::Mul, a, e);
        let neg = arith(bb, dt, Bin::Sub, ae, a);
        let le = cmp(bb, dt, Cmp::Le, x, z);
        let y = select(bb, le, neg, x);
        arith(bb, dt, Bin::Mul, g, y)
    })
}

/// `HardSigmoid(alpha, beta)`.
pub fn hard_sigmoid(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 0.2));
    let beta = f64::from(n.float("beta", 0.5));
    unary_float(c, n, |bb, dt, x| hard_sigmoid_of(bb, dt, x, alpha, beta))
}

fn hard_sigmoid_of(
    bb: &mut BodyBuilder<'_>,
    dt: DataType,
    x: TValue,
    alpha: f64,
    beta: f64,
) -> TValue {
    let a = cst(bb, dt, alpha);
    let b = cst(bb, dt, beta);
    let z = cst(bb, dt, 0.0);
    let one = cst(bb, dt, 1.0);
    let ax = arith(bb, dt, Bin::Mul, a, x);
    let y = arith(bb, dt, Bin::Add, ax, b);
    let y = arith(bb, dt, Bin::Max, y, z);
    arith(bb, dt, Bin::Min, y, one)
}

/// `HardSwish`.
pub fn hard_swish(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, |bb, dt, x| {
        let h = hard_sigmoid_of(bb, dt, x, 1.0 / 6.0, 0.5);
        arith(bb, dt, Bin::Mul, x, h)
    })
}

/// `Softplus`: `log(exp(x) + 1)`.
pub fn softplus(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, |bb, _, x| {
        let e = math(bb, MathOp::Exp, x);
        math(bb, MathOp::Log1p, e)
    })
}

/// `Softsign`: `x / (1 + |x|)`.
pub fn softsign(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, |bb, dt, x| {
        let one = cst(bb, dt, 1.0);
        let a = math(bb, MathOp::AbsF, x);
        let d = arith(bb, dt, Bin::Add, one, a);
        arith(bb, dt, Bin::Div, x, d)
    })
}

/// `Gelu(approximate)`.
pub fn gelu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let tanh = n.string("approximate", "none") == "tanh";
    unary_float(c, n, |bb, dt, x| {
        let half = cst(bb, dt, 0.5);
        let one = cst(bb, dt, 1.0);
        let inner = if tanh {
            let k = cst(bb, dt, (2.0 / std::f64::consts::PI).sqrt());
            let c3 = cst(bb, dt, 0.044715);
            let x2 = arith(bb, dt, Bin::Mul, x, x);
            let x3 = arith(bb, dt, Bin::Mul, x2, x);
            let t = arith(bb, dt, Bin::Mul, c3, x3);
            let t = arith(bb, dt, Bin::Add, x, t);
            let t = arith(bb, dt, Bin::Mul, k, t);
            math(bb, MathOp::Tanh, t)
        } else {
            let r = cst(bb, dt, std::f64::consts::FRAC_1_SQRT_2);
            let t = arith(bb, dt, Bin::Mul, x, r);
            math(bb, MathOp::Erf, t)
        };
        let s = arith(bb, dt, Bin::Add, one, inner);
        let hx = arith(bb, dt, Bin::Mul, half, x);
        arith(bb, dt, Bin::Mul, hx, s)
    })
}

/// `Mish`: `x * tanh(softplus(x))`.
pub fn mish(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    unary_float(c, n, |bb, dt, x| {
        let e = math(bb, MathOp::Exp, x);
        let sp = math(bb, MathOp::Log1p, e);
        let t = math(bb, MathOp::Tanh, sp);
        arith(bb, dt, Bin::Mul, x, t)
    })
}

/// `ThresholdedRelu(alpha)`.
pub fn thresholded_relu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 1.0));
    unary_float(c, n, |bb, dt, x| {
        let a = cst(bb, dt, alpha);
        let z = cst(bb, dt, 0.0);
        let gt = cmp(bb, dt, Cmp::Gt, x, a);
        select(bb, gt, x, z)
    })
}

/// `Celu(alpha)`: `max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`.
pub fn celu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let alpha = f64::from(n.float("alpha", 1.0));
    unary_float(c, n, |bb, dt, x| {
        let a = cst(bb, dt, alpha);
        let z = cst(bb, dt, 0.0);
        let xa = arith(bb, dt, Bin::Div, x, a);
        let em1 = math(bb, MathOp::ExpM1, xa);
        let neg = arith(bb, dt, Bin::Mul, a, em1);
        let neg = arith(bb, dt, Bin::Min, z, neg);
        let pos = arith(bb, dt, Bin::Max, z, x);
        arith(bb, dt, Bin::Add, pos, neg)
    })
}

/// `PRelu(x, slope)`.
pub fn prelu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, s) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let v = c
        .elementwise(&[a, s], dt, |bb, x| {
            let z = cst(bb, dt, 0.0);
            let neg = cmp(bb, dt, Cmp::Lt, x[0], z);
            let y = arith(bb, dt, Bin::Mul, x[0], x[1]);
            select(bb, neg, y, x[0])
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Not`.
pub fn not(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            let t = bb.constant(kiln_core::tensor::ScalarBits::Int(-1), dt.elem());
            bb.arith(ArithOp::XOrI, vec![x[0], t], dt.elem())
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `IsNaN`.
pub fn is_nan(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], DataType::Bool, |bb, x| {
            bb.arith(
                ArithOp::CmpF(kiln_core::tensor::attr::CmpFPred::Uno),
                vec![x[0], x[0]],
                ElemType::I1,
            )
        })
        .map_err(|e| n.err(e))?;
    let _ = dt;
    Ok(vec![v])
}

/// `IsInf(detect_negative, detect_positive)`.
pub fn is_inf(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let (neg, pos) = (
        n.int("detect_negative", 1) != 0,
        n.int("detect_positive", 1) != 0,
    );
    let v = c
        .elementwise(&[a], DataType::Bool, |bb, x| {
            let pinf = cst(bb, dt, f64::INFINITY);
            let ninf = cst(bb, dt, f64::NEG_INFINITY);
            let p = cmp(bb, dt, Cmp::Eq, x[0], pinf);
            let q = cmp(bb, dt, Cmp::Eq, x[0], ninf);
            let f = bb.constant(kiln_core::tensor::ScalarBits::Int(0), ElemType::I1);
            let p = if pos { p } else { f };
            let q = if neg { q } else { f };
            bb.arith(ArithOp::OrI, vec![p, q], ElemType::I1)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Clip(x, min?, max?)` (opset 11+) or `Clip(min, max)` attributes (< 11).
pub fn clip(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let (lo, hi): (Option<f64>, Option<f64>) = if n.opset < 11 {
        (
            Some(f64::from(n.float("min", f32::MIN))),
            Some(f64::from(n.float("max", f32::MAX))),
        )
    } else {
        let get = |i: usize| -> Result<Option<f64>, crate::error::OnnxError> {
            match n.opt_input(i) {
                Some(_) => Ok(Some(n.known(i)?.float(0))),
                None => Ok(None),
            }
        };
        (get(1)?, get(2)?)
    };
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            let mut y = x[0];
            if let Some(l) = lo {
                let l = cst(bb, dt, l);
                y = arith(bb, dt, Bin::Max, y, l);
            }
            if let Some(h) = hi {
                let h = cst(bb, dt, h);
                y = arith(bb, dt, Bin::Min, y, h);
            }
            y
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Identity`, `Dropout` (inference: the input, and an all-true mask).
pub fn identity(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?.clone();
    if n.op() == "Dropout" && n.opset >= 12 && n.opt_input(2).is_some() && n.known(2)?.int(0) != 0 {
        return Err(n.err("training_mode=true is not supported (inference only)"));
    }
    let mut out = vec![a.clone()];
    if n.op() == "Dropout" && n.wants_output(1) {
        let shape = a
            .static_shape()
            .ok_or_else(|| n.err("the mask of a dynamic shape is not supported"))?;
        let m = c.full(
            &shape,
            DataType::Bool,
            kiln_core::tensor::ScalarBits::Int(1),
        );
        out.push(c.tensor(m, DataType::Bool, a.shape.clone()));
    }
    Ok(out)
}
