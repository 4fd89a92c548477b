//! The kernel verifier: checks a [`KernelModule`] against the rules MLIR's
//! op verifiers enforce for the ops of the kernel table, collecting every
//! violation with the op's location and name.
//!
//! Invariants checked:
//!
//! * **Nesting.** The top op is `builtin.module`; `gpu.module` sits directly
//!   in it; `gpu.func` sits directly in a `gpu.module`; `func.func` sits in
//!   the top module or a `gpu.module`; every other op sits inside a
//!   function body. A module holding `gpu.launch_func` has the
//!   `gpu.container_module` attribute.
//! * **Regions and terminators.** Region counts per op; single-block
//!   regions; function bodies end in `gpu.return`/`func.return`, `scf.for`
//!   and `scf.if` bodies and the `do` region of `scf.while` in `scf.yield`,
//!   its `before` region in `scf.condition`; terminators appear only last.
//! * **SSA.** Every operand is defined before its use in the same block or
//!   an enclosing one (dominance in structured regions), never across a
//!   function or module boundary.
//! * **Operand and result counts and types per op**, e.g. arith binary ops
//!   take and give one type; `arith.cmpi`/`cmpf` give `i1` of the operands'
//!   shape; casts widen or narrow as their name says; `memref.load`/`store`
//!   index count equals the rank and the value is the element type;
//!   `scf.for` bounds share one type, its `iter_args`, results and yielded
//!   values agree; `scf.if` yields its result types from both branches;
//!   `scf.while` operands, region arguments, `scf.condition` and `scf.yield`
//!   agree; `gpu.return`/`func.return` match the function's result types;
//!   `func.call` resolves to a `func.func` of matching type;
//!   `gpu.launch_func` resolves `@module::@kernel` to a `gpu.func kernel`,
//!   its grid and block sizes are `index` and its argument types match;
//!   enum attributes (`predicate`, `dimension`, ...) are present and valid.
//! * **Kernels.** `gpu.func kernel` returns nothing; its workgroup and
//!   private attributions are memrefs, and one with a `#gpu.address_space`
//!   has the matching one (integer spaces pass, as in MLIR).

mod memref;
mod mma;
mod ops;
mod structure;
mod vector;

use std::collections::HashSet;
use std::fmt;

use super::module::{KAttr, KernelModule};
use super::ops::KOpKind;
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KValue};

/// One verifier finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelVerifyError {
    /// Where the op was parsed from (unknown for built ops).
    pub loc: Location,
    /// The op's MLIR name.
    pub op: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for KernelVerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: '{}' {}", self.loc, self.op, self.message)
    }
}

/// Every finding of one verifier run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct KernelVerifyErrors(pub Vec<KernelVerifyError>);

impl fmt::Display for KernelVerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        f.write_str(&lines.join("\n"))
    }
}

/// Verifies `m`; `Err` lists every violation, in op order.
pub fn verify(m: &KernelModule) -> Result<(), KernelVerifyErrors> {
    let mut v = Verifier {
        m,
        errors: Vec::new(),
        visible: vec![HashSet::new()],
    };
    v.check_top();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(KernelVerifyErrors(v.errors))
    }
}

pub(crate) struct Verifier<'m> {
    pub(crate) m: &'m KernelModule,
    errors: Vec<KernelVerifyError>,
    /// Values visible at the current point, one set per open region
    /// (a function body starts a fresh stack).
    visible: Vec<HashSet<KValue>>,
}

impl<'m> Verifier<'m> {
    pub(crate) fn error(&mut self, op: KOp, message: impl Into<String>) {
        let d = self.m.op(op);
        self.errors.push(KernelVerifyError {
            loc: d.loc,
            op: d.kind.name(),
            message: message.into(),
        });
    }

    fn check_top(&mut self) {
        let top = self.m.top();
        if self.m.op(top).kind != KOpKind::BuiltinModule {
            self.error(top, "the top op must be 'builtin.module'");
            return;
        }
        self.check_regions(top);
    }

    /// Checks `op`'s nesting, SSA uses, its own rules, then its regions.
    fn check_op(&mut self, op: KOp) {
        let d = self.m.op(op);
        let parent = self.m.parent_op(op).map(|p| self.m.op(p).kind);
        match (d.kind, parent) {
            (KOpKind::GpuModule, Some(KOpKind::BuiltinModule)) => {}
            (KOpKind::GpuModule, _) => self.error(op, "must be directly inside 'builtin.module'"),
            (KOpKind::GpuFunc, Some(KOpKind::GpuModule)) => {}
            (KOpKind::GpuFunc, _) => self.error(op, "must be directly inside a 'gpu.module'"),
            (KOpKind::FuncFunc, Some(KOpKind::BuiltinModule | KOpKind::GpuModule)) => {}
            (KOpKind::FuncFunc, _) => {
                self.error(op, "must be inside 'builtin.module' or a 'gpu.module'")
            }
            (_, Some(KOpKind::BuiltinModule | KOpKind::GpuModule)) => {
                self.error(op, "must be inside a function body")
            }
            _ => {}
        }
        for (i, &operand) in d.operands.iter().enumerate() {
            if !self.visible.iter().any(|s| s.contains(&operand)) {
                self.error(
                    op,
                    format!("operand #{i} does not dominate this use (defined later, in a nested region, or outside the function)"),
                );
            }
        }
        self.check_rules(op);
        self.check_regions(op);
    }

    /// Checks the blocks of every region of `op`.
    fn check_regions(&mut self, op: KOp) {
        let kind = self.m.op(op).kind;
        let isolated = matches!(
            kind,
            KOpKind::BuiltinModule | KOpKind::GpuModule | KOpKind::GpuFunc | KOpKind::FuncFunc
        );
        let saved = if isolated {
            Some(std::mem::take(&mut self.visible))
        } else {
            None
        };
        for &region in &self.m.op(op).regions.clone() {
            for &block in &self.m.region(region).blocks.clone() {
                self.check_block(block, kind);
            }
        }
        if let Some(saved) = saved {
            self.visible = saved;
        }
    }

    fn check_block(&mut self, block: KBlock, owner: KOpKind) {
        let data = self.m.block(block);
        self.visible.push(data.args.iter().copied().collect());
        let ops = data.ops.clone();
        let structural = matches!(owner, KOpKind::BuiltinModule | KOpKind::GpuModule);
        for (i, &op) in ops.iter().enumerate() {
            let kind = self.m.op(op).kind;
            if kind.is_terminator() && i + 1 != ops.len() {
                self.error(op, "a terminator must be the last op of its block");
            }
            if structural && kind.is_terminator() {
                self.error(op, "must be inside a function body");
            }
            self.check_op(op);
            let results = self.m.op(op).results.clone();
            if let Some(top) = self.visible.last_mut() {
                top.extend(results);
            }
        }
        self.visible.pop();
    }

    /// The attribute `name` of `op`.
    pub(crate) fn attr(&self, op: KOp, name: &str) -> Option<&'m KAttr> {
        self.m.attr(op, name)
    }
}

/// Whether `text` is a memref-level kernel file rather than spv IR: it
/// holds a `gpu.module` or `func.func` and no `spirv.module`/`spv.module`.
pub fn is_kernel_text(text: &str) -> bool {
    (text.contains("gpu.module") || text.contains("func.func"))
        && !text.contains("spirv.module")
        && !text.contains("spv.module")
}
