//! The tensor-level IR: programs of `linalg`, `tensor`, `arith` and `math`
//! ops on tensors, in MLIR 19's syntax, plus the ops of IREE's end-to-end
//! test files (`util.unfoldable_constant`, `util.optimization_barrier`,
//! `flow.tensor.dynamic_constant`, `check.*`).
//!
//! This is the top of kiln's flow (see DESIGN.md): a compiler lowers these
//! programs to memref-level kernels; the [reference evaluator](eval) runs
//! them on the CPU and is the oracle every GPU result is compared with.
//!
//! * [`entity`]: typed handles ([`TOp`], [`TValue`], [`TBlock`], [`TFunc`],
//!   [`TType`]).
//! * [`types`]: element types, tensor types, the [`TypeStore`].
//! * [`affine`]: affine maps and expressions.
//! * [`attr`]: constants ([`DenseElements`], [`ConstAttr`]), iterator
//!   types, predicates, flags, mixed static/dynamic lists.
//! * [`ops`]: [`OpKind`] and its families; [`module`]: [`TensorModule`].
//! * [`structured`](mod@structured): the structured-op interface every linalg op answers.
//! * [`parse()`] / [`print()`]: the text form; [`verify()`]: the verifier.
//! * [`builder`]: [`FuncBuilder`](builder::FuncBuilder), to build programs
//!   without text.
//! * [`eval`]: the CPU reference evaluator; [`e2e`]: the runner of IREE's
//!   end-to-end test format over a [`Backend`](e2e::Backend).

pub mod affine;
pub mod attr;
pub mod builder;
pub mod e2e;
pub mod entity;
pub mod error;
pub mod eval;
pub mod module;
pub mod ops;
mod parse;
pub mod print;
pub mod structured;
pub mod types;
pub mod verify;

pub use affine::{AffineExpr, AffineMap};
pub use attr::{ConstAttr, DenseElements, Elements, IteratorType, Mixed, ScalarBits};
pub use entity::{TBlock, TFunc, TOp, TType, TValue};
pub use error::{TensorError, TensorParseError, TensorVerifyError, TensorVerifyErrors};
pub use module::{BlockData, BlockParent, FuncData, OpData, TensorModule, ValueData, ValueDef};
pub use ops::{LinalgKind, LinalgOp, OpKind, TensorOp};
pub use parse::parse;
pub use print::print;
pub use structured::{structured, Structured};
pub use types::{Dim, ElemType, TypeKind, TypeStore};
pub use verify::verify;

/// Parses and verifies a tensor program.
pub fn load(src: &str) -> Result<TensorModule, TensorError> {
    let m = parse(src)?;
    verify(&m).map_err(|errs| {
        let first = errs
            .0
            .first()
            .cloned()
            .unwrap_or_else(|| TensorVerifyError {
                loc: crate::ir::Location::UNKNOWN,
                op: String::new(),
                message: "invalid program".into(),
            });
        TensorError::Verify(first, errs)
    })?;
    Ok(m)
}

/// Whether `text` looks like a tensor program rather than a memref-level
/// kernel file or an spv module: no `gpu.module`, `gpu.container_module`
/// or `spirv.module`, and some tensor-level op or type (`tensor<`,
/// `linalg.`, `check.`, `util.`, `flow.`). Comments are ignored.
pub fn is_tensor_text(text: &str) -> bool {
    use crate::text::lexer::{Lexer, TokKind};
    let mut lx = Lexer::new(text);
    let mut tensorish = false;
    let mut prev_tensor_kw = false;
    loop {
        let Ok(tok) = lx.next_token() else {
            // Unlexable text: decide on what was seen so far.
            return tensorish;
        };
        match tok.kind {
            TokKind::Eof => return tensorish,
            TokKind::Ident(s) => {
                if matches!(
                    s,
                    "gpu.module"
                        | "gpu.container_module"
                        | "spirv.module"
                        | "spv.module"
                        | "gpu.func"
                ) {
                    return false;
                }
                if ["linalg.", "tensor.", "check.", "util.", "flow."]
                    .iter()
                    .any(|p| s.starts_with(p))
                {
                    tensorish = true;
                }
                prev_tensor_kw = s == "tensor";
                continue;
            }
            TokKind::Hash(s) if s.starts_with("gpu.") || s.starts_with("spirv.") => {}
            TokKind::Punct("<") if prev_tensor_kw => tensorish = true,
            _ => {}
        }
        prev_tensor_kw = false;
    }
}
