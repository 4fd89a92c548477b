//! Verifier rules of the structural ops: functions and their returns,
//! calls, kernel launches, and the `scf` region ops with their terminators.

use super::ops::ts;
use super::Verifier;
use crate::kernel::entity::KOp;
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::{GpuAddressSpace, KType, MemorySpace};

impl Verifier<'_> {
    pub(super) fn check_func(&mut self, op: KOp, d: &KOpData) {
        self.counts(op, Some(0), 0, 1);
        if !matches!(self.attr(op, "sym_name"), Some(KAttr::String(_))) {
            self.error(op, "needs a 'sym_name'");
        }
        let Some(KAttr::Type(KType::Function { inputs, results })) = self.attr(op, "function_type")
        else {
            self.error(op, "needs a 'function_type'");
            return;
        };
        let Some(&region) = d.regions.first() else {
            return;
        };
        let want = if d.kind == KOpKind::GpuFunc {
            KOpKind::GpuReturn
        } else {
            KOpKind::FuncReturn
        };
        if self.m.region(region).blocks.is_empty() {
            if d.kind == KOpKind::GpuFunc {
                self.error(op, "needs a body");
            }
            return;
        }
        let args = self.block_arg_types(region).unwrap_or_default();
        if args.len() < inputs.len() || args[..inputs.len()] != inputs[..] {
            self.error(op, "entry block arguments must match the function type");
        }
        if d.kind == KOpKind::FuncFunc && args.len() != inputs.len() {
            self.error(op, "entry block arguments must match the function type");
        }
        if d.kind == KOpKind::GpuFunc {
            let workgroup = match self.attr(op, "workgroup_attributions") {
                Some(KAttr::Int { value, .. }) => usize::try_from(*value).unwrap_or(usize::MAX),
                _ => 0,
            };
            let extra = args.get(inputs.len()..).unwrap_or(&[]);
            if workgroup > extra.len() {
                self.error(op, "more workgroup attributions declared than present");
            }
            for (i, t) in extra.iter().enumerate() {
                let want_space = if i < workgroup {
                    GpuAddressSpace::Workgroup
                } else {
                    GpuAddressSpace::Private
                };
                // As MLIR: a `#gpu.address_space` must be the matching one;
                // integer and default spaces are left to lowering.
                match t {
                    KType::MemRef {
                        space: MemorySpace::Gpu(s),
                        ..
                    } if *s == want_space => {}
                    KType::MemRef {
                        space: MemorySpace::Default | MemorySpace::Int(_),
                        ..
                    } => {}
                    _ => self.error(
                        op,
                        format!(
                            "{} attribution {} must be a memref in #gpu.address_space<{}>",
                            if i < workgroup {
                                "workgroup"
                            } else {
                                "private"
                            },
                            ts(t),
                            if i < workgroup {
                                "workgroup"
                            } else {
                                "private"
                            }
                        ),
                    ),
                }
            }
            if self.attr(op, "gpu.kernel").is_some() && !results.is_empty() {
                self.error(op, "a kernel must not return values");
            }
        }
        self.terminator(op, region, want);
    }

    pub(super) fn check_call(&mut self, op: KOp, d: &KOpData) {
        self.counts(op, None, d.results.len(), 0);
        let Some(KAttr::SymbolRef(path)) = self.attr(op, "callee") else {
            self.error(op, "needs a 'callee'");
            return;
        };
        // The nearest symbol table: the enclosing gpu.module or the top.
        let mut scope = self.m.parent_op(op);
        while let Some(s) = scope {
            if matches!(
                self.m.op(s).kind,
                KOpKind::GpuModule | KOpKind::BuiltinModule
            ) {
                break;
            }
            scope = self.m.parent_op(s);
        }
        let callee = match (scope, path.as_slice()) {
            (Some(s), [name]) => self.m.lookup_symbol_in(s, name),
            _ => None,
        };
        let Some(callee) = callee.filter(|&c| self.m.op(c).kind == KOpKind::FuncFunc) else {
            self.error(
                op,
                format!("callee '@{}' does not name a func.func", path.join("::@")),
            );
            return;
        };
        if let Some(KAttr::Type(KType::Function { inputs, results })) =
            self.attr(callee, "function_type")
        {
            if self.tys(&d.operands) != *inputs || self.tys(&d.results) != *results {
                self.error(op, "operand or result types do not match the callee's type");
            }
        }
    }

    pub(super) fn check_launch(&mut self, op: KOp, d: &KOpData) {
        self.counts(op, None, 0, 0);
        let top = self.m.top();
        if self.m.attr(top, "gpu.container_module").is_none() {
            self.error(
                op,
                "the module must have the 'gpu.container_module' attribute",
            );
        }
        // Checked sums: the sizes are user-written and may overflow.
        let sum = |s: &[i64]| s.iter().try_fold(0i64, |a, &b| a.checked_add(b));
        let spans = match self.attr(op, "operandSegmentSizes") {
            Some(KAttr::DenseI64(v))
                if v.len() == 13 && sum(v) == Some(d.operands.len() as i64) =>
            {
                // Grid, block and cluster sizes; then where the kernel
                // arguments start.
                sum(&v[1..10]).zip(sum(&v[..11]))
            }
            _ => None,
        };
        let Some((dims, args_start)) = spans else {
            self.error(
                op,
                "'operandSegmentSizes' must have 13 entries summing to the operand count",
            );
            return;
        };
        let (dims, args_start) = (dims as usize, args_start as usize);
        self.all_index(
            op,
            &d.operands[..dims.min(d.operands.len())],
            "grid, block and cluster sizes",
        );
        let args = &d.operands[args_start.min(d.operands.len())..];
        let Some(KAttr::SymbolRef(path)) = self.attr(op, "kernel") else {
            self.error(op, "needs a 'kernel' symbol");
            return;
        };
        let kernel = match path.as_slice() {
            [module, func] => self
                .m
                .lookup_symbol_in(top, module)
                .filter(|&g| self.m.op(g).kind == KOpKind::GpuModule)
                .and_then(|g| self.m.lookup_symbol_in(g, func)),
            _ => None,
        };
        let Some(kernel) = kernel.filter(|&k| self.m.op(k).kind == KOpKind::GpuFunc) else {
            self.error(
                op,
                format!("kernel '@{}' does not name a gpu.func", path.join("::@")),
            );
            return;
        };
        if self.m.attr(kernel, "gpu.kernel").is_none() {
            self.error(op, format!("'@{}' is not a kernel", path.join("::@")));
        }
        if let Some(KAttr::Type(KType::Function { inputs, .. })) =
            self.attr(kernel, "function_type")
        {
            if self.tys(args) != *inputs {
                self.error(op, "argument types do not match the kernel's signature");
            }
        }
    }

    pub(super) fn check_scf_terminator(&mut self, op: KOp, d: &KOpData) {
        self.counts(op, None, 0, 0);
        let parent = self.m.parent_op(op).map(|p| self.m.op(p).kind);
        let ok = match d.kind {
            KOpKind::ScfYield => matches!(
                parent,
                Some(KOpKind::ScfFor | KOpKind::ScfIf | KOpKind::ScfWhile)
            ),
            _ => matches!(parent, Some(KOpKind::ScfWhile)),
        };
        if !ok {
            self.error(op, "is not inside the scf op it terminates");
        }
        if d.kind == KOpKind::ScfCondition
            && d.operands.first().map(|&c| self.ty(c).clone()) != Some(KType::bool())
        {
            self.error(op, "the first operand must be an i1 condition");
        }
    }

    pub(super) fn yielded(&self, t: KOp) -> Vec<KType> {
        self.tys(&self.m.op(t).operands)
    }

    pub(super) fn check_for(&mut self, op: KOp, d: &KOpData) {
        if !self.counts(op, None, d.results.len(), 1) || d.operands.len() < 3 {
            if d.operands.len() < 3 {
                self.error(op, "expects lower bound, upper bound and step");
            }
            return;
        }
        let iv = self.ty(d.operands[0]).clone();
        if !(iv == KType::Index || matches!(iv, KType::Int(_)))
            || self.tys(&d.operands[..3]).iter().any(|t| *t != iv)
        {
            self.error(op, "bounds and step must share one index or integer type");
        }
        let inits = self.tys(&d.operands[3..]);
        let results = self.tys(&d.results);
        if inits != results {
            self.error(
                op,
                "iter_args initial values and results must have the same types",
            );
        }
        let mut want_args = vec![iv];
        want_args.extend(results.iter().cloned());
        if self.block_arg_types(d.regions[0]) != Some(want_args) {
            self.error(
                op,
                "body arguments must be the induction variable and the iter_args",
            );
        }
        if let Some(t) = self.terminator(op, d.regions[0], KOpKind::ScfYield) {
            if self.yielded(t) != results {
                self.error(op, "scf.yield types must match the loop results");
            }
        }
    }

    pub(super) fn check_if(&mut self, op: KOp, d: &KOpData) {
        if !self.counts(op, Some(1), d.results.len(), 2) {
            return;
        }
        if *self.ty(d.operands[0]) != KType::bool() {
            self.error(op, "the condition must be i1");
        }
        let results = self.tys(&d.results);
        if let Some(t) = self.terminator(op, d.regions[0], KOpKind::ScfYield) {
            if self.yielded(t) != results {
                self.error(op, "then-branch scf.yield types must match the results");
            }
        }
        if self.m.region(d.regions[1]).blocks.is_empty() {
            if !results.is_empty() {
                self.error(op, "an scf.if with results needs an else branch");
            }
        } else if let Some(t) = self.terminator(op, d.regions[1], KOpKind::ScfYield) {
            if self.yielded(t) != results {
                self.error(op, "else-branch scf.yield types must match the results");
            }
        }
    }

    pub(super) fn check_while(&mut self, op: KOp, d: &KOpData) {
        if !self.counts(op, None, d.results.len(), 2) {
            return;
        }
        let inits = self.tys(&d.operands);
        let results = self.tys(&d.results);
        if self.block_arg_types(d.regions[0]) != Some(inits.clone()) {
            self.error(op, "'before' region arguments must match the operands");
        }
        if self.block_arg_types(d.regions[1]) != Some(results.clone()) {
            self.error(op, "'after' region arguments must match the results");
        }
        if let Some(t) = self.terminator(op, d.regions[0], KOpKind::ScfCondition) {
            let passed = self.yielded(t);
            if passed.get(1..) != Some(&results[..]) {
                self.error(op, "scf.condition must forward values of the result types");
            }
        }
        if let Some(t) = self.terminator(op, d.regions[1], KOpKind::ScfYield) {
            if self.yielded(t) != inits {
                self.error(op, "'after' scf.yield types must match the operands");
            }
        }
    }
}
