//! Element-wise ops: binary arithmetic and comparisons with numpy
//! broadcasting, `where`, and unary math and activations (GELU, SiLU,
//! sigmoid, ReLU, ...). One `linalg.generic` each; f16 and bf16 are
//! computed in f32 and rounded once.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::broadcast::Plan;
use super::cache;
use super::text::{class, dims_ty, identity, shape_error, Class, Func, Operand};

/// A binary element-wise op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    /// `a + b` (integers wrap).
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b` (integers: rounded toward zero; dividing by zero is
    /// undefined).
    Div,
    /// The larger (floats: NaN if either is).
    Max,
    /// The smaller.
    Min,
    /// `a` to the power `b` (floats only).
    Pow,
}

impl Binary {
    pub(crate) fn what(self) -> &'static str {
        match self {
            Self::Add => "ops::add",
            Self::Sub => "ops::sub",
            Self::Mul => "ops::mul",
            Self::Div => "ops::div",
            Self::Max => "ops::maximum",
            Self::Min => "ops::minimum",
            Self::Pow => "ops::pow",
        }
    }

    /// The region op for `class`.
    fn op(self, class: Class) -> Option<&'static str> {
        Some(match (self, class) {
            (Self::Add, Class::Float) => "arith.addf",
            (Self::Sub, Class::Float) => "arith.subf",
            (Self::Mul, Class::Float) => "arith.mulf",
            (Self::Div, Class::Float) => "arith.divf",
            (Self::Max, Class::Float) => "arith.maximumf",
            (Self::Min, Class::Float) => "arith.minimumf",
            (Self::Pow, Class::Float) => "math.powf",
            (Self::Add, Class::Int) => "arith.addi",
            (Self::Sub, Class::Int) => "arith.subi",
            (Self::Mul, Class::Int) => "arith.muli",
            (Self::Div, Class::Int) => "arith.divsi",
            (Self::Max, Class::Int) => "arith.maxsi",
            (Self::Min, Class::Int) => "arith.minsi",
            (Self::Max, Class::Bool) => "arith.ori",
            (Self::Min | Self::Mul, Class::Bool) => "arith.andi",
            _ => return None,
        })
    }
}

/// A comparison, giving a `bool` tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    /// `a == b` (floats: false where either is NaN).
    Eq,
    /// `a != b` (floats: true where either is NaN).
    Ne,
    /// `a < b`.
    Lt,
    /// `a <= b`.
    Le,
    /// `a > b`.
    Gt,
    /// `a >= b`.
    Ge,
}

impl Compare {
    fn predicate(self, class: Class) -> &'static str {
        match (self, class) {
            (Self::Eq, Class::Float) => "oeq",
            (Self::Ne, Class::Float) => "une",
            (Self::Lt, Class::Float) => "olt",
            (Self::Le, Class::Float) => "ole",
            (Self::Gt, Class::Float) => "ogt",
            (Self::Ge, Class::Float) => "oge",
            (Self::Eq, _) => "eq",
            (Self::Ne, _) => "ne",
            (Self::Lt, Class::Bool) => "ult",
            (Self::Le, Class::Bool) => "ule",
            (Self::Gt, Class::Bool) => "ugt",
            (Self::Ge, Class::Bool) => "uge",
            (Self::Lt, _) => "slt",
            (Self::Le, _) => "sle",
            (Self::Gt, _) => "sgt",
            (Self::Ge, _) => "sge",
        }
    }
}

/// A unary element-wise op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unary {
    /// `-x`.
    Neg,
    /// `|x|`.
    Abs,
    /// `max(x, 0)`.
    Relu,
    /// `e^x`.
    Exp,
    /// The natural logarithm.
    Log,
    /// The square root.
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// The hyperbolic tangent.
    Tanh,
    /// The error function.
    Erf,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// GELU, exact: `x/2 * (1 + erf(x / sqrt 2))`.
    Gelu,
    /// GELU, tanh approximation: `x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`.
    GeluTanh,
    /// SiLU (swish): `x * sigmoid(x)`.
    Silu,
    /// The sine.
    Sin,
    /// The cosine.
    Cos,
    /// The largest integer not above `x` (floats).
    Floor,
    /// The smallest integer not below `x` (floats).
    Ceil,
    /// `x` rounded to the nearest integer, ties to even (PyTorch's
    /// `round`; floats).
    Round,
    /// `x` rounded toward zero (floats).
    Trunc,
    /// `ln(1 + x)` (floats).
    Log1p,
    /// `e^x - 1` (floats).
    Expm1,
    /// The base-2 logarithm (floats).
    Log2,
    /// The base-10 logarithm (floats).
    Log10,
    /// `2^x` (floats).
    Exp2,
    /// The tangent (floats).
    Tan,
    /// The arc tangent (floats).
    Atan,
    /// The arc sine (floats; the device's GLSL.std.450 `Asin`, whose
    /// error Vulkan bounds by that of `atan2`, 4096 ULP: 2.8e-4 relative
    /// seen on lavapipe).
    Asin,
    /// The arc cosine (floats; the device's precision, as [`Unary::Asin`]).
    Acos,
    /// The hyperbolic sine (floats).
    Sinh,
    /// The hyperbolic cosine (floats).
    Cosh,
    /// The inverse hyperbolic sine (floats).
    Asinh,
    /// The inverse hyperbolic cosine (floats).
    Acosh,
    /// The inverse hyperbolic tangent (floats).
    Atanh,
    /// `1 / x` (floats).
    Reciprocal,
    /// `x * x` (integers wrap).
    Square,
    /// -1, 0 or 1 by the sign of `x` (floats: signed zeros and NaN kept).
    Sign,
}

impl Unary {
    pub(crate) fn what(self) -> &'static str {
        match self {
            Self::Neg => "ops::neg",
            Self::Abs => "ops::abs",
            Self::Relu => "ops::relu",
            Self::Exp => "ops::exp",
            Self::Log => "ops::log",
            Self::Sqrt => "ops::sqrt",
            Self::Rsqrt => "ops::rsqrt",
            Self::Tanh => "ops::tanh",
            Self::Erf => "ops::erf",
            Self::Sigmoid => "ops::sigmoid",
            Self::Gelu => "ops::gelu",
            Self::GeluTanh => "ops::gelu_tanh",
            Self::Silu => "ops::silu",
            Self::Sin => "ops::sin",
            Self::Cos => "ops::cos",
            Self::Floor => "ops::floor",
            Self::Ceil => "ops::ceil",
            Self::Round => "ops::round",
            Self::Trunc => "ops::trunc",
            Self::Log1p => "ops::log1p",
            Self::Expm1 => "ops::expm1",
            Self::Log2 => "ops::log2",
            Self::Log10 => "ops::log10",
            Self::Exp2 => "ops::exp2",
            Self::Tan => "ops::tan",
            Self::Atan => "ops::atan",
            Self::Asin => "ops::asin",
            Self::Acos => "ops::acos",
            Self::Sinh => "ops::sinh",
            Self::Cosh => "ops::cosh",
            Self::Asinh => "ops::asinh",
            Self::Acosh => "ops::acosh",
            Self::Atanh => "ops::atanh",
            Self::Reciprocal => "ops::reciprocal",
            Self::Square => "ops::square",
            Self::Sign => "ops::sign",
        }
    }

    /// Writes `op(x)` for element type `class` (`elem` its compute type);
    /// `None` if the op takes no such elements.
    fn emit(self, f: &mut Func, x: &str, class: Class, elem: &str) -> Option<String> {
        let math = |f: &mut Func, name: &str, v: &str| f.let_(&format!("math.{name} {v} : f32"));
        let arith = |f: &mut Func, name: &str, a: &str, b: &str| {
            f.let_(&format!("arith.{name} {a}, {b} : f32"))
        };
        Some(match (self, class) {
            (Self::Neg, Class::Float) => f.let_(&format!("arith.negf {x} : f32")),
            (Self::Neg, Class::Int) => {
                let zero = f.constant("0", elem);
                f.let_(&format!("arith.subi {zero}, {x} : {elem}"))
            }
            (Self::Abs, Class::Float) => math(f, "absf", x),
            (Self::Abs, Class::Int) => f.let_(&format!("math.absi {x} : {elem}")),
            (Self::Relu, Class::Float) => {
                let zero = f.f32(0.0);
                arith(f, "maximumf", x, &zero)
            }
            (Self::Relu, Class::Int) => {
                let zero = f.constant("0", elem);
                f.let_(&format!("arith.maxsi {x}, {zero} : {elem}"))
            }
            (Self::Square, Class::Int) => f.let_(&format!("arith.muli {x}, {x} : {elem}")),
            (Self::Sign, Class::Int) => {
                // (x > 0) - (x < 0).
                let zero = f.constant("0", elem);
                let gt = f.let_(&format!("arith.cmpi sgt, {x}, {zero} : {elem}"));
                let lt = f.let_(&format!("arith.cmpi slt, {x}, {zero} : {elem}"));
                let g = f.let_(&format!("arith.extui {gt} : i1 to {elem}"));
                let l = f.let_(&format!("arith.extui {lt} : i1 to {elem}"));
                f.let_(&format!("arith.subi {g}, {l} : {elem}"))
            }
            (_, Class::Float) => return self.emit_float(f, x),
            _ => return None,
        })
    }

    /// Whether the op takes elements of `class`.
    fn takes(self, class: Class) -> bool {
        match class {
            Class::Float => true,
            Class::Int => matches!(
                self,
                Self::Neg | Self::Abs | Self::Relu | Self::Square | Self::Sign
            ),
            Class::Bool => false,
        }
    }

    /// The float-only ops, in f32 (`None` for those `emit` writes).
    fn emit_float(self, f: &mut Func, x: &str) -> Option<String> {
        let math = |f: &mut Func, name: &str, v: &str| f.let_(&format!("math.{name} {v} : f32"));
        let arith = |f: &mut Func, name: &str, a: &str, b: &str| {
            f.let_(&format!("arith.{name} {a}, {b} : f32"))
        };
        // 1 / (1 + e^-v), and v * that.
        let sigmoid = |f: &mut Func, v: &str| {
            let one = f.f32(1.0);
            let n = f.let_(&format!("arith.negf {v} : f32"));
            let e = math(f, "exp", &n);
            let d = arith(f, "addf", &one, &e);
            arith(f, "divf", &one, &d)
        };
        Some(match self {
            Self::Exp => math(f, "exp", x),
            Self::Log => math(f, "log", x),
            Self::Sqrt => math(f, "sqrt", x),
            Self::Rsqrt => math(f, "rsqrt", x),
            Self::Tanh => math(f, "tanh", x),
            Self::Erf => math(f, "erf", x),
            Self::Sin => math(f, "sin", x),
            Self::Cos => math(f, "cos", x),
            Self::Floor => math(f, "floor", x),
            Self::Ceil => math(f, "ceil", x),
            Self::Round => math(f, "roundeven", x),
            Self::Trunc => math(f, "trunc", x),
            Self::Log1p => math(f, "log1p", x),
            Self::Expm1 => math(f, "expm1", x),
            Self::Log2 => math(f, "log2", x),
            Self::Log10 => math(f, "log10", x),
            Self::Exp2 => math(f, "exp2", x),
            Self::Tan => math(f, "tan", x),
            Self::Atan => math(f, "atan", x),
            Self::Asin => math(f, "asin", x),
            Self::Acos => math(f, "acos", x),
            Self::Sinh => math(f, "sinh", x),
            Self::Cosh => math(f, "cosh", x),
            Self::Asinh => math(f, "asinh", x),
            Self::Acosh => math(f, "acosh", x),
            Self::Atanh => math(f, "atanh", x),
            Self::Reciprocal => {
                let one = f.f32(1.0);
                arith(f, "divf", &one, x)
            }
            Self::Square => arith(f, "mulf", x, x),
            Self::Sign => {
                // 1 or -1 where x is not zero or NaN; x itself there.
                let zero = f.f32(0.0);
                let one = f.f32(1.0);
                let s = f.let_(&format!("math.copysign {one}, {x} : f32"));
                let nz = f.let_(&format!("arith.cmpf one, {x}, {zero} : f32"));
                f.let_(&format!("arith.select {nz}, {s}, {x} : f32"))
            }
            Self::Sigmoid => sigmoid(f, x),
            Self::Silu => {
                let s = sigmoid(f, x);
                arith(f, "mulf", x, &s)
            }
            Self::Gelu => {
                let half = f.f32(0.5);
                let one = f.f32(1.0);
                let r = f.f32(std::f32::consts::FRAC_1_SQRT_2);
                let s = arith(f, "mulf", x, &r);
                let e = math(f, "erf", &s);
                let p = arith(f, "addf", &one, &e);
                let h = arith(f, "mulf", x, &half);
                arith(f, "mulf", &h, &p)
            }
            Self::GeluTanh => {
                let half = f.f32(0.5);
                let one = f.f32(1.0);
                let k = f.f32(0.797_884_6); // sqrt(2 / pi)
                let c = f.f32(0.044_715);
                let x2 = arith(f, "mulf", x, x);
                let x3 = arith(f, "mulf", &x2, x);
                let cx3 = arith(f, "mulf", &c, &x3);
                let inner = arith(f, "addf", x, &cx3);
                let scaled = arith(f, "mulf", &k, &inner);
                let t = math(f, "tanh", &scaled);
                let p = arith(f, "addf", &one, &t);
                let h = arith(f, "mulf", x, &half);
                arith(f, "mulf", &h, &p)
            }
            Self::Neg | Self::Abs | Self::Relu => return None,
        })
    }
}

/// The function name of op `what` (`ops::add` -> `add`).
pub(crate) fn fname(what: &'static str) -> &'static str {
    what.strip_prefix("ops::").unwrap_or(what)
}

/// Runs one `linalg.generic` over `tensors` broadcast together, whose
/// region `body` maps their elements (block arguments) to one of
/// `out_dtype`. Every size is dynamic in the program: one program per
/// rank, broadcast pattern and element types.
pub(crate) fn broadcast_generic(
    stream: &Stream,
    what: &'static str,
    params: &[u64],
    tensors: &[&Tensor],
    out_dtype: DType,
    body: impl FnOnce(&mut Func, &[String]) -> String,
) -> Result<Tensor> {
    let plan = Plan::new(what, tensors)?;
    if plan.shape.contains(&0) {
        return Tensor::empty(&tensors[0].device(), out_dtype, &plan.shape);
    }
    let views: Vec<&Tensor> = plan.views.iter().collect();
    // The program depends on `what`, `params` (the body's parameters), the
    // views' element types and ranks, the result's rank and which result
    // dimension each view dimension is (views drop broadcast dimensions);
    // the output's element type follows from them.
    let mut key = params.to_vec();
    key.push(plan.shape.len() as u64);
    for dims in &plan.dims {
        key.push(dims.len() as u64);
        key.extend(dims.iter().map(|&d| d as u64));
    }
    let text = || broadcast_text(what, &plan, out_dtype, body);
    single(cache::run_keyed(stream, what, &key, &views, text)?)
}

/// The program of [`broadcast_generic`].
fn broadcast_text(
    what: &'static str,
    plan: &Plan,
    out_dtype: DType,
    body: impl FnOnce(&mut Func, &[String]) -> String,
) -> Result<String> {
    let tensors = &plan.views;
    let mut f = Func::new(fname(what));
    let args: Vec<String> = (0..tensors.len()).map(|i| f.arg(&plan.ty(i))).collect();
    let rank = plan.shape.len();
    let mut dims = Vec::with_capacity(rank);
    for d in 0..rank {
        let (i, j) = plan
            .source(d)
            .ok_or_else(|| shape_error(what, format!("no operand gives dimension {d}")))?;
        dims.push(f.dim(&args[i], &plan.ty(i), j));
    }
    let ins: Vec<Operand> = args
        .into_iter()
        .enumerate()
        .map(|(i, v)| plan.operand(i, v))
        .collect();
    let out_elem = out_dtype.name();
    let init = f.empty_dims(&dims, out_elem, None);
    let out_ty = dims_ty(&dims, out_elem);
    let out = Operand {
        value: init,
        ty: out_ty.clone(),
        elem: out_elem.to_owned(),
        map: identity(rank),
    };
    let y = f.generic(&ins, &out, &vec!["parallel"; rank], body);
    Ok(f.finish(&[(y, out_ty)]))
}

/// The one result of an op.
pub(crate) fn single(mut results: Vec<Tensor>) -> Result<Tensor> {
    match results.pop() {
        Some(t) if results.is_empty() => Ok(t),
        _ => Err(shape_error(
            "ops",
            "an op program did not return one result",
        )),
    }
}

/// `op(a, b)` element by element, `a` and `b` broadcast together (numpy's
/// rules); both of one element type, which the result has.
pub fn binary(stream: &Stream, op: Binary, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = op.what();
    let dtype = super::text::same_dtype(what, &[a, b])?;
    let cls = class(what, dtype)?;
    let name = op
        .op(cls)
        .ok_or_else(|| shape_error(what, format!("is not defined on {dtype} tensors")))?;
    let elem = super::text::compute(dtype);
    broadcast_generic(stream, what, &[op as u64], &[a, b], dtype, |f, args| {
        let x = f.widen(&args[0], dtype);
        let y = f.widen(&args[1], dtype);
        let r = f.let_(&format!("{name} {x}, {y} : {elem}"));
        f.narrow(&r, dtype)
    })
}

/// `a + b` with broadcasting.
pub fn add(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Add, a, b)
}

/// `a - b` with broadcasting.
pub fn sub(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Sub, a, b)
}

/// `a * b` with broadcasting.
pub fn mul(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Mul, a, b)
}

/// `a / b` with broadcasting.
pub fn div(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Div, a, b)
}

/// The element-wise maximum with broadcasting.
pub fn maximum(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Max, a, b)
}

/// The element-wise minimum with broadcasting.
pub fn minimum(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Min, a, b)
}

/// `a` to the power `b` with broadcasting (floats).
pub fn pow(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(stream, Binary::Pow, a, b)
}

/// `a <cmp> b` element by element with broadcasting: a `bool` tensor.
pub fn compare(stream: &Stream, cmp: Compare, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = "ops::compare";
    let dtype = super::text::same_dtype(what, &[a, b])?;
    let cls = class(what, dtype)?;
    let pred = cmp.predicate(cls);
    // Bools are ordered as 0 / 1 in i32 (the codegen has no ordered
    // comparison of i1).
    let ordered_bool = cls == Class::Bool && !matches!(cmp, Compare::Eq | Compare::Ne);
    let elem = if ordered_bool {
        "i32"
    } else {
        super::text::compute(dtype)
    };
    let op = if cls == Class::Float { "cmpf" } else { "cmpi" };
    broadcast_generic(
        stream,
        what,
        &[cmp as u64],
        &[a, b],
        DType::Bool,
        |f, args| {
            let (x, y) = if ordered_bool {
                (
                    f.let_(&format!("arith.extui {} : i1 to i32", args[0])),
                    f.let_(&format!("arith.extui {} : i1 to i32", args[1])),
                )
            } else {
                (f.widen(&args[0], dtype), f.widen(&args[1], dtype))
            };
            f.let_(&format!("arith.{op} {pred}, {x}, {y} : {elem}"))
        },
    )
}

/// `cond ? a : b` element by element, the three broadcast together;
/// `cond` is `bool`, `a` and `b` of one element type.
pub fn where_(stream: &Stream, cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = "ops::where";
    if cond.dtype() != DType::Bool {
        return Err(shape_error(
            what,
            format!("the condition must be bool, not {}", cond.dtype()),
        ));
    }
    let dtype = super::text::same_dtype(what, &[a, b])?;
    class(what, dtype)?;
    let elem = dtype.name();
    broadcast_generic(stream, what, &[], &[cond, a, b], dtype, |f, args| {
        f.let_(&format!(
            "arith.select {}, {}, {} : {elem}",
            args[0], args[1], args[2]
        ))
    })
}

/// `op(x)` element by element.
pub fn unary(stream: &Stream, op: Unary, x: &Tensor) -> Result<Tensor> {
    let what = op.what();
    let dtype = x.dtype();
    let cls = class(what, dtype)?;
    let elem = super::text::compute(dtype);
    if !op.takes(cls) {
        return Err(shape_error(
            what,
            format!("is not defined on {dtype} tensors"),
        ));
    }
    broadcast_generic(stream, what, &[op as u64], &[x], dtype, |f, args| {
        let v = f.widen(&args[0], dtype);
        let r = op.emit(f, &v, cls, elem).unwrap_or(v);
        f.narrow(&r, dtype)
    })
}

macro_rules! unary_fns {
    ($($name:ident => $op:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
        pub fn $name(stream: &Stream, x: &Tensor) -> Result<Tensor> {
            unary(stream, Unary::$op, x)
        }
    )*};
}

unary_fns! {
    neg => Neg, "`-x` element by element.";
    abs => Abs, "`|x|` element by element.";
    relu => Relu, "`max(x, 0)` element by element.";
    exp => Exp, "`e^x` element by element (floats).";
    log => Log, "The natural logarithm element by element (floats).";
    sqrt => Sqrt, "The square root element by element (floats).";
    rsqrt => Rsqrt, "`1 / sqrt(x)` element by element (floats).";
    tanh => Tanh, "The hyperbolic tangent element by element (floats).";
    erf => Erf, "The error function element by element (floats).";
    sigmoid => Sigmoid, "`1 / (1 + e^-x)` element by element (floats).";
    gelu => Gelu, "GELU, exact (erf) form, element by element (floats).";
    gelu_tanh => GeluTanh, "GELU, tanh approximation, element by element (floats).";
    silu => Silu, "SiLU (swish), `x * sigmoid(x)`, element by element (floats).";
    sin => Sin, "The sine element by element (floats).";
    cos => Cos, "The cosine element by element (floats).";
    floor => Floor, "The floor element by element (floats).";
    ceil => Ceil, "The ceiling element by element (floats).";
    round => Round, "Rounding to the nearest integer, ties to even, element by element (floats).";
    trunc => Trunc, "Rounding toward zero element by element (floats).";
    log1p => Log1p, "`ln(1 + x)` element by element (floats).";
    expm1 => Expm1, "`e^x - 1` element by element (floats).";
    log2 => Log2, "The base-2 logarithm element by element (floats).";
    log10 => Log10, "The base-10 logarithm element by element (floats).";
    exp2 => Exp2, "`2^x` element by element (floats).";
    tan => Tan, "The tangent element by element (floats).";
    atan => Atan, "The arc tangent element by element (floats).";
    asin => Asin, "The arc sine element by element (floats).";
    acos => Acos, "The arc cosine element by element (floats).";
    sinh => Sinh, "The hyperbolic sine element by element (floats).";
    cosh => Cosh, "The hyperbolic cosine element by element (floats).";
    asinh => Asinh, "The inverse hyperbolic sine element by element (floats).";
    acosh => Acosh, "The inverse hyperbolic cosine element by element (floats).";
    atanh => Atanh, "The inverse hyperbolic tangent element by element (floats).";
    reciprocal => Reciprocal, "`1 / x` element by element (floats).";
    square => Square, "`x * x` element by element (integers wrap).";
    sign => Sign, "The sign (-1, 0, 1) element by element (floats keep signed zeros and NaN).";
}

/// A logical op on `bool` tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Logical {
    /// `a && b`.
    And,
    /// `a || b`.
    Or,
    /// `a != b`.
    Xor,
}

/// `a <op> b` element by element on `bool` tensors with broadcasting.
pub fn logical(stream: &Stream, op: Logical, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = "ops::logical";
    for (i, t) in [a, b].into_iter().enumerate() {
        if t.dtype() != DType::Bool {
            return Err(shape_error(
                what,
                format!(
                    "operand {i} is {}: logical ops take bool tensors (compare first)",
                    t.dtype()
                ),
            ));
        }
    }
    let name = match op {
        Logical::And => "arith.andi",
        Logical::Or => "arith.ori",
        Logical::Xor => "arith.xori",
    };
    broadcast_generic(
        stream,
        what,
        &[op as u64],
        &[a, b],
        DType::Bool,
        |f, args| f.let_(&format!("{name} {}, {} : i1", args[0], args[1])),
    )
}

/// `a && b` on `bool` tensors with broadcasting.
pub fn logical_and(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    logical(stream, Logical::And, a, b)
}

/// `a || b` on `bool` tensors with broadcasting.
pub fn logical_or(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    logical(stream, Logical::Or, a, b)
}

/// `a != b` (exclusive or) on `bool` tensors with broadcasting.
pub fn logical_xor(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    logical(stream, Logical::Xor, a, b)
}

/// `!x` on a `bool` tensor.
pub fn logical_not(stream: &Stream, x: &Tensor) -> Result<Tensor> {
    let what = "ops::logical_not";
    if x.dtype() != DType::Bool {
        return Err(shape_error(
            what,
            format!("operand 0 is {}: logical ops take bool tensors", x.dtype()),
        ));
    }
    broadcast_generic(stream, what, &[], &[x], DType::Bool, |f, args| {
        let t = f.constant("true", "i1");
        f.let_(&format!("arith.xori {}, {t} : i1", args[0]))
    })
}

/// `x` limited to `[lo, hi]` element by element (`min(max(x, lo), hi)`;
/// floats: NaN stays NaN); a bound of `None` is no bound. The bounds are
/// converted to `x`'s element type (integers: rounded toward zero and
/// saturated). Each pair of bounds is its own program.
pub fn clamp(stream: &Stream, x: &Tensor, lo: Option<f64>, hi: Option<f64>) -> Result<Tensor> {
    let what = "ops::clamp";
    let dtype = x.dtype();
    let cls = class(what, dtype)?;
    if cls == Class::Bool {
        return Err(shape_error(what, "is not defined on bool tensors"));
    }
    if let (Some(l), Some(h)) = (lo, hi) {
        if l > h || l.is_nan() || h.is_nan() {
            return Err(shape_error(
                what,
                format!("the bounds [{l}, {h}] are not an interval"),
            ));
        }
    }
    let elem = super::text::compute(dtype);
    // A bound as a literal of the compute type.
    let lit = |v: f64| -> String {
        match cls {
            Class::Float => super::text::f32_lit(v as f32),
            _ => int_literal(dtype, v),
        }
    };
    let (lo_lit, hi_lit) = (lo.map(lit), hi.map(lit));
    let bits = |v: Option<f64>| v.map_or(u64::MAX, f64::to_bits);
    let params = [
        bits(lo),
        bits(hi),
        u64::from(lo.is_some()),
        u64::from(hi.is_some()),
    ];
    let (max, min) = match cls {
        Class::Float => ("arith.maximumf", "arith.minimumf"),
        _ => ("arith.maxsi", "arith.minsi"),
    };
    broadcast_generic(stream, what, &params, &[x], dtype, |f, args| {
        let mut v = f.widen(&args[0], dtype);
        if let Some(l) = &lo_lit {
            let c = f.constant(l, elem);
            v = f.let_(&format!("{max} {v}, {c} : {elem}"));
        }
        if let Some(h) = &hi_lit {
            let c = f.constant(h, elem);
            v = f.let_(&format!("{min} {v}, {c} : {elem}"));
        }
        f.narrow(&v, dtype)
    })
}

/// `v` as an integer literal of `dtype`, rounded toward zero and saturated.
pub(crate) fn int_literal(dtype: DType, v: f64) -> String {
    let (lo, hi) = match dtype {
        DType::I8 => (i8::MIN as f64, i8::MAX as f64),
        DType::I16 => (i16::MIN as f64, i16::MAX as f64),
        DType::I32 => (i32::MIN as f64, i32::MAX as f64),
        _ => (i64::MIN as f64, i64::MAX as f64),
    };
    // `as` saturates (and maps NaN to 0, refused above).
    (v.clamp(lo, hi) as i64).to_string()
}
