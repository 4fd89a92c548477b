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
    let text = match l.kattr("op") {
        Some(KAttr::String(t)) => t.clone(),
        _ => return Err(l.malformed("has no SPIR-V text ('op' attribute)")),
    };
    let bindings: Vec<(String, crate::ir::Value)> = l
        .opnds()?
        .into_iter()
        .enumerate()
        .map(|(k, v)| (format!("_{k}"), v))
        .collect();
    let results = l.km.op(l.cur).results.len();
    let op = crate::text::parse_op_into(&mut l.m, &text, &bindings, results).map_err(|e| {
        l.unsupported(format!(
            "`{text}` does not parse with the lowered operand types: {}",
            e.message
        ))
    })?;
    let block = l.block;
    l.m.append_op(block, op);
    let results = l.m.op(op).results.clone();
    for (i, r) in results.into_iter().enumerate() {
        let want = l.res_type(i)?;
        let have = l.m.value_type(r);
        if have != want {
            return Err(l.unsupported(format!(
                "result {i} of `{text}` is {} but the kernel's result type converts to {}",
                print_type(&l.m.types, have, Prefix::Spirv),
                print_type(&l.m.types, want, Prefix::Spirv)
            )));
        }
        l.set_res(i, r)?;
    }
    Ok(())
}
