//! The two printers of a converted module: MLIR's LLVM dialect ([`mlir`])
//! and LLVM IR ([`llvm_ir`]). Both read the same [`LlvmModule`].
//!
//! [`LlvmModule`]: super::ir::LlvmModule

pub mod llvm_ir;
pub mod mlir;

use super::ir::{Function, LValue};

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
