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
    fn what(self) -> &'static str {
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
}

impl Unary {
    fn what(self) -> &'static str {
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
            (_, Class::Float) => return self.emit_float(f, x),
            _ => return None,
        })
    }

    /// Whether the op takes elements of `class`.
    fn takes(self, class: Class) -> bool {
        match class {
            Class::Float => true,
            Class::Int => matches!(self, Self::Neg | Self::Abs | Self::Relu),
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
}
