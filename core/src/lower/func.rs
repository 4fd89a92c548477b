//! `func` ops inside kernel bodies -> spv: `func.call` becomes
//! `spv.FunctionCall` (MLIR's `CallOpPattern`). Functions themselves are
//! lowered with their `gpu.module` ([`super::module`]).

use crate::grammar::Opcode;
use crate::ir::OpSpec;
use crate::kernel::{KAttr, KOpKind};

use super::context::Lowerer;
use super::error::LowerError;

/// Lowers the current `func` op.
pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::FuncCall => call(l),
        _ => Err(l.unsupported("op cannot appear in a kernel body")),
    }
}

/// `func.call @f(args)` -> `spv.FunctionCall @f(args)`.
fn call(l: &mut Lowerer) -> Result<(), LowerError> {
    let callee = match l.kernel_attr("callee") {
        Some(KAttr::SymbolRef(path)) if !path.is_empty() => path[path.len() - 1].clone(),
        _ => return Err(l.malformed("missing callee")),
    };
    let args = l.operands()?;
    let n = l.kernels.op(l.current_op).results.len();
    if n > 1 {
        return Err(l.unsupported("calls with several results"));
    }
    let mut spec = OpSpec::new(Opcode::FunctionCall.into()).operands(args);
    let a = l.module.attrs.symbol(callee);
    spec = spec.attr("callee", a);
    if n == 1 {
        let t = l.result_type(0)?;
        spec = spec.results(vec![t]);
    }
    let op = l.emit(spec);
    if n == 1 {
        let v = l.module.op(op).results[0];
        l.set_result(0, v)?;
    }
    Ok(())
}
