//! SPIR-V dialect ops written inside a kernel ([`KOpKind::SpirvOp`]): the kept
//! text is parsed into the spv module with `%_k` bound to operand `k`'s
//! lowered value, so the op comes out as written (legality and update-vce
//! then treat it like any produced op).
//!
//! [`KOpKind::SpirvOp`]: crate::kernel::KOpKind::SpirvOp

use super::context::Lowerer;
use super::error::LowerError;
use crate::kernel::KAttr;
use crate::text::{print_type, Prefix};

/// Lowers the current [`crate::kernel::KOpKind::SpirvOp`].
pub(super) fn lower(l: &mut Lowerer<'_>) -> Result<(), LowerError> {
    let text = match l.kernel_attr("op") {
        Some(KAttr::String(t)) => t.clone(),
        _ => return Err(l.malformed("has no SPIR-V text ('op' attribute)")),
    };
    let bindings: Vec<(String, crate::ir::Value)> = l
        .operands()?
        .into_iter()
        .enumerate()
        .map(|(k, v)| (format!("_{k}"), v))
        .collect();
    let results = l.kernels.op(l.current_op).results.len();
    let op = crate::text::parse_op_into(&mut l.module, &text, &bindings, results).map_err(|e| {
        l.unsupported(format!(
            "`{text}` does not parse with the lowered operand types: {}",
            e.message
        ))
    })?;
    let block = l.block;
    l.module.append_op(block, op);
    let results = l.module.op(op).results.clone();
    for (i, r) in results.into_iter().enumerate() {
        let want = l.result_type(i)?;
        let have = l.module.value_type(r);
        if have != want {
            return Err(l.unsupported(format!(
                "result {i} of `{text}` is {} but the kernel's result type converts to {}",
                print_type(&l.module.types, have, Prefix::Spirv),
                print_type(&l.module.types, want, Prefix::Spirv)
            )));
        }
        l.set_result(i, r)?;
    }
    Ok(())
}
