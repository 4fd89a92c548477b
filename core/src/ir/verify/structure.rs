//! The shape of the tree: handles and links (S1, S2), the `spv.module` op
//! and its body (M1-M5), functions and their blocks (F1-F4), and the walk
//! that applies the per-op checks to every op inside a function, including
//! isolation and dominance of operands (D1, D2).

use super::dominance::Invisible;
use super::Verifier;
use crate::grammar::OperandKind;
use crate::ir::attr::AttrKind;
use crate::ir::entity::{Op, Region, Type, Value};
use crate::ir::op::OpKind;

/// What the ops inside a function need to know about it.
#[derive(Clone, Copy)]
pub(crate) struct FuncCtx<'m> {
    /// The `spv.func` op.
    pub(crate) func: Op,
    /// Its result types, when its `function_type` is valid.
    pub(crate) results: Option<&'m [Type]>,
}

/// The module-level op kinds, for messages.
const MODULE_LEVEL_OPS: &str = "spirv.func, spirv.GlobalVariable, spirv.SpecConstant, \
     spirv.SpecConstantComposite, spirv.EntryPoint or spirv.ExecutionMode";

impl<'m> Verifier<'m> {
    /// M1, M2: the top op. Returns whether its body can be walked.
    pub(super) fn check_module_op(&mut self) -> bool {
        let m = self.m;
        let top = m.top();
        let data = m.op(top);
        if data.kind != OpKind::Module {
            self.error(top, "is the top op of the module; expected a spirv.module");
            return false;
        }
        self.no_operands_results_successors(top);
        self.enum_attr(top, "addressing_model", OperandKind::AddressingModel, true);
        self.enum_attr(top, "memory_model", OperandKind::MemoryModel, true);
        if let Some(a) = m.attr(top, "vce_triple") {
            if !matches!(m.attrs.kind(a), AttrKind::Vce(_)) {
                let found = super::attrs::describe(m.attrs.kind(a));
                self.error(
                    top,
                    format!("attribute 'vce_triple' must be a #spirv.vce triple, found {found}"),
                );
            }
        }
        if data.regions.len() != 1 {
            self.error(
                top,
                format!("expected exactly one region, found {}", data.regions.len()),
            );
            return false;
        }
        let blocks = &m.region(data.regions[0]).blocks;
        if blocks.len() != 1 {
            self.error(
                top,
                format!(
                    "expected its region to hold exactly one block, found {}",
                    blocks.len()
                ),
            );
            if blocks.is_empty() {
                return false;
            }
        }
        if !m.block(blocks[0]).args.is_empty() {
            self.error(top, "expected its block to have no arguments");
        }
        true
    }

    /// S1: records each placed op's position in its block and checks the
    /// parent links of ops, blocks and regions and the type handles of
    /// results and block arguments. Returns `false` when an op is placed
    /// twice (the tree is then not a tree) or a type handle is invalid; the
    /// module is then not walked any further.
    pub(super) fn index_positions(&mut self) -> bool {
        let m = self.m;
        let mut seen = vec![false; m.op_count()];
        let mut stack = vec![m.top()];
        seen[m.top().index()] = true;
        let mut sound = true;
        while let Some(op) = stack.pop() {
            for &region in &m.op(op).regions {
                if m.region(region).parent != Some(op) {
                    self.error(op, "owns a region whose parent link points elsewhere");
                }
                for &block in &m.region(region).blocks {
                    if m.block(block)
                        .args
                        .iter()
                        .any(|&a| m.value_type(a).index() >= m.types.len())
                    {
                        self.error(op, format!(
                            "owns block {} with an argument whose type handle is not interned in the module",
                            self.block_label(block)
                        ));
                        sound = false;
                    }
                    if m.block(block).parent != Some(region) {
                        self.error(
                            op,
                            format!(
                                "owns block {} whose parent link points to another region",
                                self.block_label(block)
                            ),
                        );
                    }
                    for (i, &inner) in m.block(block).ops.iter().enumerate() {
                        if seen[inner.index()] {
                            self.error(inner, "is placed in more than one block");
                            sound = false;
                            continue;
                        }
                        seen[inner.index()] = true;
                        self.op_pos[inner.index()] = i as u32;
                        if m.op(inner)
                            .results
                            .iter()
                            .any(|&r| m.value_type(r).index() >= m.types.len())
                        {
                            self.error(
                                inner,
                                "has a result whose type handle is not interned in the module",
                            );
                            sound = false;
                        }
                        if m.op(inner).parent != Some(block) {
                            self.error(
                                inner,
                                "has a parent link that does not point to the block holding it",
                            );
                        }
                        stack.push(inner);
                    }
                }
            }
        }
        sound
    }

    /// Reports operands, results and successors on an op that takes none.
    pub(crate) fn no_operands_results_successors(&mut self, op: Op) {
        let data = self.m.op(op);
        if !data.operands.is_empty() {
            self.error(
                op,
                format!("expected no operands, found {}", data.operands.len()),
            );
        }
        if !data.results.is_empty() {
            self.error(
                op,
                format!("expected no results, found {}", data.results.len()),
            );
        }
        if !data.successors.is_empty() {
            self.error(
                op,
                format!("expected no successors, found {}", data.successors.len()),
            );
        }
    }

    fn expect_regions(&mut self, op: Op, n: usize) -> bool {
        let found = self.m.op(op).regions.len();
        if found != n {
            self.error(op, format!("expected {n} region(s), found {found}"));
            return false;
        }
        true
    }

    /// M3-M5: one op of the module body.
    pub(super) fn check_module_level_op(&mut self, op: Op) {
        let m = self.m;
        let kind = &m.op(op).kind;
        match kind {
            OpKind::Foreign(_) => {
                self.error(
                    op,
                    "is not a SPIR-V dialect op; spirv.module may only contain spv ops",
                );
                return;
            }
            OpKind::Func
            | OpKind::GlobalVariable
            | OpKind::SpecConstant
            | OpKind::SpecConstantComposite
            | OpKind::EntryPoint
            | OpKind::ExecutionMode => {}
            _ => {
                self.error(
                    op,
                    format!("cannot appear directly in spirv.module; expected {MODULE_LEVEL_OPS}"),
                );
                return;
            }
        }
        self.no_operands_results_successors(op);
        match kind {
            OpKind::Func => {
                if self.expect_regions(op, 1) {
                    self.check_func(op);
                }
            }
            OpKind::GlobalVariable => {
                self.expect_regions(op, 0);
                self.check_global_variable(op);
            }
            OpKind::SpecConstant => {
                self.expect_regions(op, 0);
                self.check_spec_constant(op);
            }
            OpKind::SpecConstantComposite => {
                self.expect_regions(op, 0);
                self.check_spec_constant_composite(op);
            }
            OpKind::EntryPoint => {
                self.expect_regions(op, 0);
                self.check_entry_point(op);
            }
            OpKind::ExecutionMode => {
                self.expect_regions(op, 0);
                self.check_execution_mode(op);
            }
            _ => unreachable!("filtered above"),
        }
    }

    /// F1, F2, then every op of the body.
    fn check_func(&mut self, func: Op) {
        let m = self.m;
        // F1: the signature.
        let mut results = None;
        let mut inputs: Option<&'m [Type]> = None;
        if let Some(t) = self.type_attr(func, "function_type") {
            match m.types.kind(t) {
                crate::ir::TypeKind::Function {
                    inputs: ins,
                    results: res,
                } => {
                    if res.len() > 1 {
                        self.error(
                            func,
                            format!(
                                "has {} results in its function type {}; a SPIR-V function has at most one",
                                res.len(),
                                self.ty(t)
                            ),
                        );
                    } else {
                        results = Some(res.as_slice());
                    }
                    inputs = Some(ins.as_slice());
                }
                _ => {
                    self.error(
                        func,
                        format!(
                            "attribute 'function_type' must be a function type, found {}",
                            self.ty(t)
                        ),
                    );
                }
            }
        }
        self.enum_attr(
            func,
            "function_control",
            OperandKind::FunctionControl,
            false,
        );
        if let (Some(a), Some(ins)) = (m.attr(func, "arg_attrs"), inputs) {
            match m.attrs.kind(a) {
                AttrKind::Array(items) => {
                    if items.len() != ins.len() {
                        self.error(
                            func,
                            format!(
                                "attribute 'arg_attrs' has {} entries, expected one per parameter ({})",
                                items.len(),
                                ins.len()
                            ),
                        );
                    } else if items
                        .iter()
                        .any(|&i| !matches!(m.attrs.kind(i), AttrKind::Dict(_)))
                    {
                        self.error(func, "attribute 'arg_attrs' must hold only dictionaries");
                    }
                }
                other => {
                    let found = super::attrs::describe(other);
                    self.error(
                        func,
                        format!(
                            "attribute 'arg_attrs' must be an array of dictionaries, found {found}"
                        ),
                    );
                }
            }
        }
        // F2: a declaration has no blocks; a definition's entry block takes
        // the parameters.
        let region = m.op(func).regions[0];
        let Some(&entry) = m.region(region).blocks.first() else {
            return;
        };
        if let Some(ins) = inputs {
            let args = &m.block(entry).args;
            if args.len() != ins.len() {
                self.block_error(
                    func,
                    entry,
                    format!(
                        "entry block has {} argument(s), expected {} to match the function type",
                        args.len(),
                        ins.len()
                    ),
                );
            } else {
                for (i, (&arg, &want)) in args.iter().zip(ins).enumerate() {
                    let have = m.value_type(arg);
                    if have != want {
                        self.block_error(
                            func,
                            entry,
                            format!(
                                "entry block argument #{i} has type {}, expected {} from the function type",
                                self.ty(have),
                                self.ty(want)
                            ),
                        );
                    }
                }
            }
        }
        let ctx = FuncCtx { func, results };
        self.check_region(region, ctx);
    }

    /// F4 for every block of `region`, then each op in it.
    pub(crate) fn check_region(&mut self, region: Region, ctx: FuncCtx<'m>) {
        let m = self.m;
        let owner = m.region(region).parent.unwrap_or(ctx.func);
        for &block in &m.region(region).blocks {
            let ops = &m.block(block).ops;
            if ops.is_empty() {
                self.block_error(
                    owner,
                    block,
                    format!(
                        "has an empty block {}; every block must end in a terminator",
                        self.block_label(block)
                    ),
                );
                continue;
            }
            for (i, &op) in ops.iter().enumerate() {
                let kind = &m.op(op).kind;
                let last = i + 1 == ops.len();
                if !matches!(kind, OpKind::Foreign(_)) {
                    if kind.is_terminator() && !last {
                        self.error(
                            op,
                            format!(
                                "is a terminator but is followed by {} more op(s) in block {}; a terminator must be the last op of its block",
                                ops.len() - i - 1,
                                self.block_label(block)
                            ),
                        );
                    } else if last && !kind.is_terminator() {
                        self.error(
                            op,
                            format!(
                                "is the last op of block {} but not a terminator; expected the block to end in a terminator (spirv.Branch, spirv.BranchConditional, spirv.Return, spirv.ReturnValue, spirv.mlir.merge, ...)",
                                self.block_label(block)
                            ),
                        );
                    }
                }
                self.check_nested_op(op, ctx);
            }
        }
    }

    /// All checks of one op inside a function, then its regions.
    fn check_nested_op(&mut self, op: Op, ctx: FuncCtx<'m>) {
        let m = self.m;
        let data = m.op(op);
        match &data.kind {
            OpKind::Foreign(_) => {
                self.error(
                    op,
                    "is not a SPIR-V dialect op; spirv.module may only contain spv ops",
                );
                return;
            }
            OpKind::Func => {
                self.error(
                    op,
                    "is nested in another function; functions cannot be nested",
                );
                return;
            }
            OpKind::Module => {
                self.error(op, "is nested in a function; spirv.module cannot be nested");
                return;
            }
            OpKind::GlobalVariable
            | OpKind::SpecConstant
            | OpKind::SpecConstantComposite
            | OpKind::EntryPoint
            | OpKind::ExecutionMode => {
                self.error(
                    op,
                    "is a module-level op and cannot appear inside a function; expected it directly in spirv.module",
                );
                return;
            }
            _ => {}
        }
        // S2.
        if data.results.len() > 1 {
            self.error(
                op,
                format!(
                    "has {} results; SPIR-V ops produce at most one",
                    data.results.len()
                ),
            );
        }
        // S1, D1, D2: operands and successor arguments.
        let mut handles_ok = true;
        for (i, &v) in data.operands.iter().enumerate() {
            handles_ok &= self.check_use(op, v, ctx, || format!("operand #{i}"));
        }
        for (s, succ) in data.successors.iter().enumerate() {
            if succ.block.index() >= m.block_count() {
                self.error(op, format!("successor #{s} is an invalid block handle"));
                handles_ok = false;
                continue;
            }
            for (j, &v) in succ.args.iter().enumerate() {
                handles_ok &=
                    self.check_use(op, v, ctx, || format!("argument #{j} of successor #{s}"));
            }
        }
        if !handles_ok {
            return;
        }
        let regions_ok = match data.kind {
            OpKind::Selection | OpKind::Loop => self.expect_regions(op, 1),
            _ => self.expect_regions(op, 0),
        };
        if !data.successors.is_empty() {
            if matches!(data.kind, OpKind::Core(_) | OpKind::Glsl(_)) {
                // Counts are checked against the grammar (O2).
                self.check_successors(op);
            } else {
                self.error(
                    op,
                    format!("expected no successors, found {}", data.successors.len()),
                );
            }
        }
        match &data.kind {
            OpKind::Selection | OpKind::Loop if regions_ok => self.check_construct(op),
            OpKind::Merge => self.check_merge(op),
            OpKind::AddressOf => self.check_address_of(op),
            OpKind::ReferenceOf => self.check_reference_of(op),
            OpKind::Constant => self.check_constant(op),
            OpKind::Core(_) => self.check_core(op, ctx),
            OpKind::Glsl(_) => self.check_glsl(op),
            _ => {}
        }
        for &region in &data.regions {
            self.check_region(region, ctx);
        }
    }

    /// S1, D1, D2 for one used value; returns whether the handle is valid.
    fn check_use(
        &mut self,
        user: Op,
        v: Value,
        ctx: FuncCtx<'m>,
        what: impl Fn() -> String,
    ) -> bool {
        if v.index() >= self.m.value_count() {
            self.error(user, format!("{} is an invalid value handle", what()));
            return false;
        }
        match self.visibility(v, user, ctx.func) {
            Ok(()) => {}
            Err(Invisible::Detached) => self.error(
                user,
                format!(
                    "{} is defined by an op that is not placed in any block",
                    what()
                ),
            ),
            Err(Invisible::OutsideFunction) => self.error(
                user,
                format!(
                    "{} is defined outside the enclosing spirv.func; functions are isolated from above (use spirv.mlir.addressof, spirv.mlir.referenceof or a local spirv.Constant)",
                    what()
                ),
            ),
            Err(Invisible::NotDominating) => self.error(
                user,
                format!(
                    "{} does not dominate this use; expected a value defined earlier in this block, in an enclosing block, or in a dominating block of the same region",
                    what()
                ),
            ),
        }
        true
    }
}
