//! One verdict on a call's sizes, whatever runs it: the checks that a
//! run's dynamic sizes and host-known indices fit the program (the
//! [`HostProgram`](super::host::HostProgram) that [`infer_shapes`] builds:
//! the shared loop of a matmul's operands, a transpose's permuted
//! dimensions, a cast to a static size, slice bounds, a `tensor.extract`
//! index) are evaluated here for the reference evaluator exactly as the
//! device and the CPU runner evaluate them before their first dispatch
//! ([`CompiledFunction::evaluate_host`](super::CompiledFunction::evaluate_host)),
//! so a call is refused by all three or by none, with the same message.
//!
//! A function the tensor compiler cannot analyse (an op it does not
//! support) has no host program: the check passes and the evaluator's own
//! checks apply.

use crate::tensor::eval::Value;
use crate::tensor::module::TensorModule;
use crate::tensor::ops::OpKind;

use super::analysis::FuncInfo;
use super::host::{HostError, SourceRef};
use super::program::prepare_module;
use super::shapes::infer_shapes;

/// Why a call is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CallRefused {
    /// A check that fails whatever the run (static sizes): the compiler's
    /// [`CodegenError::Limit`](super::CodegenError::Limit).
    #[error("{}{message}", if loc.is_known() { format!("{loc}: ") } else { String::new() })]
    Limit {
        /// Where the op is.
        loc: crate::ir::Location,
        /// Which limit, its value and what exceeds it.
        message: String,
    },
    /// A failing check of the run's sizes.
    #[error(transparent)]
    Host(#[from] HostError),
}

/// Checks a call of function `name` of `m` with `args` against the
/// program's size checks; the error is the first failing check's message
/// (the op, its location, the sizes).
pub fn check_call(m: &TensorModule, name: &str, args: &[Value]) -> Result<(), CallRefused> {
    let Ok(prepared) = prepare_module(m) else {
        return Ok(());
    };
    let Some(f) = prepared.func_by_name(name) else {
        return Ok(());
    };
    let Ok(info) = FuncInfo::new(&prepared, f) else {
        return Ok(());
    };
    let shapes = match infer_shapes(&info) {
        Ok(s) => s,
        // A check that fails whatever the run (static sizes): the compiler
        // refuses the program with this message on the other backends.
        Err(super::CodegenError::Limit { loc, message }) => {
            return Err(CallRefused::Limit { loc, message })
        }
        Err(_) => return Ok(()),
    };
    let source_dim = |s: SourceRef, d: usize| -> Option<u64> {
        match s {
            SourceRef::Argument(i) => match args.get(i)? {
                Value::Tensor(t) => t.shape.get(d).map(|&n| n as u64),
                Value::Scalar(_) => None,
            },
            SourceRef::Constant(v) => {
                let op = info.def_op(v)?;
                match &prepared.op(op).kind {
                    OpKind::DynamicConstant(dense) => {
                        prepared.ty(dense.ty).tensor_shape()?.get(d)?.fixed()
                    }
                    _ => None,
                }
            }
        }
    };
    let argument = |i: usize| args.get(i)?.scalar();
    shapes.host.evaluate(&source_dim, &argument)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(src: &str) -> TensorModule {
        crate::tensor::load(src).expect("a valid program")
    }

    #[test]
    fn a_matmul_whose_reduction_sizes_differ_is_refused() {
        let m = load(
            r#"func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"#,
        );
        let t = |r: usize, c: usize| {
            Value::Tensor(std::rc::Rc::new(
                crate::tensor::eval::Tensor::zeros(crate::tensor::types::ElemType::F32, &[r, c])
                    .expect("a small tensor"),
            ))
        };
        assert_eq!(check_call(&m, "mm", &[t(3, 4), t(4, 2), t(3, 2)]), Ok(()));
        let err = check_call(&m, "mm", &[t(3, 4), t(5, 2), t(3, 2)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("'linalg.matmul' op size mismatch"), "{err}");
        assert!(
            err.contains("is 5 at run time, but the program needs 4"),
            "{err}"
        );
    }
}
