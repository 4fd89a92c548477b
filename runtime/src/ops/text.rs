//! Writing an op's tensor program as MLIR text: types, affine maps,
//! constants, `linalg.generic`, and the element-type rules every op shares
//! (f16 and bf16 are computed in f32; `ui8` and `ui32` have no tensor
//! element type).

use std::fmt::Write;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// An op's error about its operands.
pub(crate) fn shape_error(op: &'static str, reason: impl Into<String>) -> Error {
    Error::Shape {
        what: op,
        reason: reason.into(),
    }
}

/// What arithmetic an element type takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// f32, f16, bf16 (the last two computed in f32).
    Float,
    /// Signed integers.
    Int,
    /// `i1`.
    Bool,
}

/// The class of `dtype`, or an error naming `op` for the unsigned types
/// (tensor programs' integers are signless and read as signed).
pub(crate) fn class(op: &'static str, dtype: DType) -> Result<Class> {
    Ok(match dtype {
        DType::F32 | DType::F16 | DType::BF16 => Class::Float,
        DType::I8 | DType::I16 | DType::I32 | DType::I64 => Class::Int,
        DType::Bool => Class::Bool,
        DType::U8 | DType::U32 => {
            return Err(shape_error(
                op,
                format!("{dtype} tensors are not supported by ops (use a signed type)"),
            ))
        }
    })
}

/// The class of `x`'s element type, which must be a number (not `bool`),
/// with `axis` one of `x`'s dimensions: the checks of an op along an axis.
pub(crate) fn numeric_along(op: &'static str, x: &Tensor, axis: usize) -> Result<Class> {
    let cls = class(op, x.dtype())?;
    if cls == Class::Bool {
        return Err(shape_error(op, "is not defined on bool tensors"));
    }
    let shape = x.shape();
    if axis >= shape.len() {
        return Err(shape_error(
            op,
            format!("axis {axis} is out of range for shape {shape:?}"),
        ));
    }
    Ok(cls)
}

/// `dtype` must be a float type.
pub(crate) fn need_float(op: &'static str, dtype: DType) -> Result<()> {
    match class(op, dtype)? {
        Class::Float => Ok(()),
        _ => Err(shape_error(
            op,
            format!("takes float tensors (f32, f16, bf16), not {dtype}"),
        )),
    }
}

/// All of `tensors` must have the element type of the first.
pub(crate) fn same_dtype(op: &'static str, tensors: &[&Tensor]) -> Result<DType> {
    let first = tensors
        .first()
        .ok_or_else(|| shape_error(op, "no tensors given"))?
        .dtype();
    for (i, t) in tensors.iter().enumerate() {
        if t.dtype() != first {
            return Err(shape_error(
                op,
                format!(
                    "operand {i} is {}, operand 0 is {first}: convert one with ops::cast",
                    t.dtype()
                ),
            ));
        }
    }
    Ok(first)
}

/// The scalar type arithmetic on `dtype` uses in a region.
pub(crate) fn compute(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 | DType::BF16 => "f32",
        d => d.name(),
    }
}

/// `tensor<2x3xf32>` (`tensor<f32>` for rank 0).
pub(crate) fn tensor_ty(shape: &[usize], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// One dimension of a tensor type in an op's program: a size fixed in the
/// program, or `?` with the index value holding it at run time (a shape
/// class: one program for every size of that dimension).
#[derive(Clone, Debug)]
pub(crate) enum Dim {
    /// A size written in the type.
    Fixed(usize),
    /// `?`, of the size held by this index value.
    Dyn(String),
}

/// Every size of `shape` fixed.
pub(crate) fn fixed(shape: &[usize]) -> Vec<Dim> {
    shape.iter().map(|&n| Dim::Fixed(n)).collect()
}

/// The tensor type of `dims` and `elem` (`?` for a dynamic dimension).
pub(crate) fn dims_ty(dims: &[Dim], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in dims {
        match d {
            Dim::Fixed(n) => {
                let _ = write!(s, "{n}x");
            }
            Dim::Dyn(_) => s.push_str("?x"),
        }
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// A tensor type of `rank` dynamic dimensions.
pub(crate) fn dyn_ty(rank: usize, elem: &str) -> String {
    class_ty(&vec![None; rank], elem)
}

/// A tensor type whose dimensions are fixed (`Some`) or dynamic (`None`).
pub(crate) fn class_ty(dims: &[Option<usize>], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in dims {
        match d {
            Some(n) => {
                let _ = write!(s, "{n}x");
            }
            None => s.push_str("?x"),
        }
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// `affine_map<(d0, d1, d2) -> (d2, d0)>` for `rank` loops and `results`
/// (loop indices).
pub(crate) fn map(rank: usize, results: &[usize]) -> String {
    let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
    let res: Vec<String> = results.iter().map(|&i| format!("d{i}")).collect();
    format!("affine_map<({}) -> ({})>", dims.join(", "), res.join(", "))
}

/// The identity map of `rank` loops.
pub(crate) fn identity(rank: usize) -> String {
    map(rank, &(0..rank).collect::<Vec<_>>())
}

/// An f32 literal, exact (its bits in hex).
pub(crate) fn f32_lit(v: f32) -> String {
    format!("0x{:08X}", v.to_bits())
}

/// `[1, 2, 3]`.
pub(crate) fn list(v: &[usize]) -> String {
    let items: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// One operand of a `linalg.generic`: value, tensor type, element type,
/// indexing map.
pub(crate) struct Operand {
    pub(crate) value: String,
    pub(crate) ty: String,
    pub(crate) elem: String,
    pub(crate) map: String,
}

/// A function being written: `func.func @name(args) -> results`.
pub(crate) struct Func {
    name: &'static str,
    params: Vec<String>,
    body: String,
    next: usize,
}

impl Func {
    /// An empty function `@name`.
    pub(crate) fn new(name: &'static str) -> Self {
        Self {
            name,
            params: Vec::new(),
            body: String::new(),
            next: 0,
        }
    }

    /// A new argument of tensor type `ty`; returns its name.
    pub(crate) fn arg(&mut self, ty: &str) -> String {
        let name = format!("%a{}", self.params.len());
        self.params.push(format!("{name}: {ty}"));
        name
    }

    /// A fresh value name.
    pub(crate) fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    /// Appends one line of the body.
    pub(crate) fn line(&mut self, text: &str) {
        self.body.push_str("  ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// `%v = <rhs>`; returns `%v`.
    pub(crate) fn let_(&mut self, rhs: &str) -> String {
        let v = self.fresh();
        self.line(&format!("{v} = {rhs}"));
        v
    }

    /// A scalar constant (`lit` as MLIR writes it) of type `elem`.
    pub(crate) fn constant(&mut self, lit: &str, elem: &str) -> String {
        self.let_(&format!("arith.constant {lit} : {elem}"))
    }

    /// An f32 constant.
    pub(crate) fn f32(&mut self, v: f32) -> String {
        self.constant(&f32_lit(v), "f32")
    }

    /// `v` (of `dtype`) as its compute type (f16/bf16 widened to f32).
    pub(crate) fn widen(&mut self, v: &str, dtype: DType) -> String {
        match dtype {
            DType::F16 | DType::BF16 => {
                self.let_(&format!("arith.extf {v} : {} to f32", dtype.name()))
            }
            _ => v.to_owned(),
        }
    }

    /// `v` (of `dtype`'s compute type) as `dtype`.
    pub(crate) fn narrow(&mut self, v: &str, dtype: DType) -> String {
        match dtype {
            DType::F16 | DType::BF16 => {
                self.let_(&format!("arith.truncf {v} : f32 to {}", dtype.name()))
            }
            _ => v.to_owned(),
        }
    }

    /// `tensor.empty()` of `shape` and `elem`, filled with constant `lit`
    /// when given.
    pub(crate) fn empty(&mut self, shape: &[usize], elem: &str, lit: Option<&str>) -> String {
        self.empty_dims(&fixed(shape), elem, lit)
    }

    /// The size of dimension `axis` of `value` (of type `ty`) at run time.
    pub(crate) fn dim(&mut self, value: &str, ty: &str, axis: usize) -> Dim {
        let c = self.constant(&axis.to_string(), "index");
        Dim::Dyn(self.let_(&format!("tensor.dim {value}, {c} : {ty}")))
    }

    /// [`empty`](Self::empty) of `dims` (dynamic sizes as operands).
    pub(crate) fn empty_dims(&mut self, dims: &[Dim], elem: &str, lit: Option<&str>) -> String {
        let ty = dims_ty(dims, elem);
        let sizes: Vec<&str> = dims
            .iter()
            .filter_map(|d| match d {
                Dim::Dyn(v) => Some(v.as_str()),
                Dim::Fixed(_) => None,
            })
            .collect();
        let e = self.let_(&format!("tensor.empty({}) : {ty}", sizes.join(", ")));
        match lit {
            None => e,
            Some(lit) => {
                let c = self.constant(lit, elem);
                self.let_(&format!(
                    "linalg.fill ins({c} : {elem}) outs({e} : {ty}) -> {ty}"
                ))
            }
        }
    }

    /// A `linalg.generic` over `iters` (`"parallel"` / `"reduction"`) with
    /// inputs `ins` and one output `out` (its init); `body` writes the
    /// region from the block arguments (inputs then the output) and returns
    /// the value it yields. Returns the result.
    pub(crate) fn generic(
        &mut self,
        ins: &[Operand],
        out: &Operand,
        iters: &[&str],
        body: impl FnOnce(&mut Func, &[String]) -> String,
    ) -> String {
        let maps: Vec<&str> = ins
            .iter()
            .chain(std::iter::once(out))
            .map(|o| o.map.as_str())
            .collect();
        let iters: Vec<String> = iters.iter().map(|i| format!("\"{i}\"")).collect();
        let mut head = format!(
            "linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}}",
            maps.join(", "),
            iters.join(", ")
        );
        if !ins.is_empty() {
            let vals: Vec<&str> = ins.iter().map(|o| o.value.as_str()).collect();
            let tys: Vec<&str> = ins.iter().map(|o| o.ty.as_str()).collect();
            let _ = write!(head, " ins({} : {})", vals.join(", "), tys.join(", "));
        }
        let _ = write!(head, " outs({} : {}) {{", out.value, out.ty);
        let result = self.let_(&head);
        let args: Vec<String> = (0..=ins.len()).map(|_| self.fresh()).collect();
        let block: Vec<String> = ins
            .iter()
            .chain(std::iter::once(out))
            .zip(&args)
            .map(|(o, a)| format!("{a}: {}", o.elem))
            .collect();
        self.line(&format!("^bb0({}):", block.join(", ")));
        let y = body(self, &args);
        self.line(&format!("  linalg.yield {y} : {}", out.elem));
        self.line(&format!("}} -> {}", out.ty));
        result
    }

    /// The function's text, returning `results` (value, type).
    pub(crate) fn finish(self, results: &[(String, String)]) -> String {
        let vals: Vec<&str> = results.iter().map(|r| r.0.as_str()).collect();
        let tys: Vec<&str> = results.iter().map(|r| r.1.as_str()).collect();
        format!(
            "func.func @{}({}) -> ({}) {{\n{}  return {} : {}\n}}\n",
            self.name,
            self.params.join(", "),
            tys.join(", "),
            self.body,
            vals.join(", "),
            tys.join(", ")
        )
    }
}

/// The element-wise copy of `x` (a value of type `dims_ty(dims, from)`)
/// converted by `convert` (region code from the input element to the
/// output's) into a new tensor of `dims` and element `to`.
pub(crate) fn map_elements(
    f: &mut Func,
    x: &str,
    dims: &[Dim],
    from: &str,
    to: &str,
    convert: impl FnOnce(&mut Func, &str) -> String,
) -> String {
    let rank = dims.len();
    let init = f.empty_dims(dims, to, None);
    f.generic(
        &[Operand {
            value: x.to_owned(),
            ty: dims_ty(dims, from),
            elem: from.to_owned(),
            map: identity(rank),
        }],
        &Operand {
            value: init,
            ty: dims_ty(dims, to),
            elem: to.to_owned(),
            map: identity(rank),
        },
        &vec!["parallel"; rank],
        |f, a| convert(f, &a[0]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_maps() {
        assert_eq!(tensor_ty(&[2, 3], "f32"), "tensor<2x3xf32>");
        assert_eq!(tensor_ty(&[], "i8"), "tensor<i8>");
        let dims = [Dim::Dyn("%d".into()), Dim::Fixed(3)];
        assert_eq!(dims_ty(&dims, "f16"), "tensor<?x3xf16>");
        assert_eq!(dyn_ty(2, "i1"), "tensor<?x?xi1>");
        assert_eq!(class_ty(&[Some(4), None], "i8"), "tensor<4x?xi8>");
        assert_eq!(map(3, &[2, 0]), "affine_map<(d0, d1, d2) -> (d2, d0)>");
        assert_eq!(map(2, &[]), "affine_map<(d0, d1) -> ()>");
        assert_eq!(f32_lit(1.0), "0x3F800000");
        assert_eq!(list(&[1, 0]), "[1, 0]");
    }

    #[test]
    fn a_function_parses() {
        let mut f = Func::new("neg");
        let ty = tensor_ty(&[4], "f32");
        let x = f.arg(&ty);
        let y = map_elements(&mut f, &x, &fixed(&[4]), "f32", "f32", |f, v| {
            f.let_(&format!("arith.negf {v} : f32"))
        });
        let text = f.finish(&[(y, ty)]);
        kiln_core::tensor::load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}
