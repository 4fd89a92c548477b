//! The two printers of a converted module: MLIR's LLVM dialect ([`mlir`])
//! and LLVM IR ([`llvm_ir`]). Both read the same [`LlvmModule`].
//!
//! [`LlvmModule`]: super::ir::LlvmModule

pub mod llvm_ir;
pub mod mlir;

use super::ir::{Function, LType, LValue, MemFlags};
use crate::ir::FloatKind;

/// Value names of one function: parameters `<param_prefix>N`, every other
/// value numbered in definition order (block arguments before the
/// instructions of their block).
pub(crate) struct Names {
    names: Vec<String>,
}

impl Names {
    pub(crate) fn new(f: &Function, param_prefix: &str, value_prefix: &str) -> Self {
        let mut names = vec![String::new(); f.values.len()];
        for (i, &p) in f.params.iter().enumerate() {
            names[p.0 as usize] = format!("%{param_prefix}{i}");
        }
        let mut n = 0usize;
        let mut next = |names: &mut Vec<String>, v: LValue| {
            names[v.0 as usize] = format!("%{value_prefix}{n}");
            n += 1;
        };
        for b in &f.blocks {
            for &a in &b.args {
                next(&mut names, a);
            }
            for inst in &b.insts {
                if let Some(r) = inst.result {
                    next(&mut names, r);
                }
            }
        }
        Names { names }
    }

    pub(crate) fn value(&self, v: LValue) -> &str {
        &self.names[v.0 as usize]
    }
}

/// An integer constant of `width` bits as a signed decimal (what MLIR and
/// LLVM print for signless integers).
pub(crate) fn int_text(v: i128, width: u32) -> String {
    if width == 0 || width >= 128 {
        return v.to_string();
    }
    let shift = 128 - width;
    ((v << shift) >> shift).to_string()
}

/// The float format of a scalar type.
pub(crate) fn float_kind(t: &LType) -> Option<FloatKind> {
    Some(match t {
        LType::Half => FloatKind::F16,
        LType::BFloat => FloatKind::BF16,
        LType::Float => FloatKind::F32,
        LType::Double => FloatKind::F64,
        _ => return None,
    })
}

/// `volatile ` when the access is volatile, and the ordering's name when
/// it is atomic.
pub(crate) fn access_words(flags: &MemFlags) -> (&'static str, Option<&'static str>) {
    (
        if flags.volatile { "volatile " } else { "" },
        flags.atomic.map(|o| o.name()),
    )
}
