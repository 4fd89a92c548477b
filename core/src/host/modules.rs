//! What every launcher needs to know about a runner program's kernels:
//! the `gpu.module` a launch names, the target env the program writes for
//! it and the workgroup sizes its launches give.

use std::collections::HashMap;

use crate::kernel::{KAttr, KOp, KOpKind, KernelModule};
use crate::target::TargetEnv;

/// The `gpu.module @name` of the top module.
pub fn find_gpu_module(m: &KernelModule, name: &str) -> Option<KOp> {
    m.body_ops(m.top())
        .iter()
        .copied()
        .find(|&op| m.op(op).kind == KOpKind::GpuModule && m.symbol_name(op) == Some(name))
}

/// The `spirv.target_env` (or `spv.target_env`) written on `gpu_module`,
/// else on the top module.
pub fn explicit_target_env(m: &KernelModule, gpu_module: KOp) -> Option<TargetEnv> {
    for op in [gpu_module, m.top()] {
        for name in ["spirv.target_env", "spv.target_env"] {
            if let Some(KAttr::TargetEnv(env)) = m.attr(op, name) {
                return Some((**env).clone());
            }
        }
    }
    None
}

/// Kernel name → `threads in (...)` of its launches, where those are
/// constants (for kernels that give no workgroup size of their own); the
/// first launch of a kernel wins.
pub fn launch_block_sizes(m: &KernelModule) -> HashMap<String, [u32; 3]> {
    let mut out = HashMap::new();
    m.walk(m.top(), &mut |op| {
        let d = m.op(op);
        if d.kind != KOpKind::GpuLaunchFunc || d.operands.len() < 6 {
            return;
        }
        let Some(KAttr::SymbolRef(path)) = m.attr(op, "kernel") else {
            return;
        };
        let Some(kernel) = path.last() else { return };
        let mut block = [0u32; 3];
        for (slot, &v) in block.iter_mut().zip(&d.operands[3..6]) {
            let Some(def) = m.defining_op(v) else { return };
            match (m.op(def).kind, m.attr(def, "value")) {
                (KOpKind::ArithConstant, Some(KAttr::Int { value, .. })) => {
                    match u32::try_from(*value) {
                        Ok(x) => *slot = x,
                        Err(_) => return,
                    }
                }
                _ => return,
            }
        }
        out.entry(kernel.clone()).or_insert(block);
    });
    out
}
