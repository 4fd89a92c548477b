//! `scf` -> `spv.mlir.selection` / `spv.mlir.loop` (MLIR's `SCFToSPIRV`).
//!
//! * `scf.if`: a selection whose header branches to the then / else blocks;
//!   results go through function variables stored in each branch and
//!   loaded after the construct (MLIR 19's scheme).
//! * `scf.for`: a loop `entry -> header(iv, iter_args) -> body -> merge`;
//!   the header compares `iv < ub` (signed), the body ends by branching
//!   back with `iv + step` and the yielded values. The header stores its
//!   arguments into the result variables, so a loop that runs zero times
//!   yields its initial values.
//! * `scf.while`: the `before` region runs in the loop header, whose
//!   `scf.condition` stores the forwarded values and branches to the body
//!   (the `after` region, whose arguments are those values) or the merge.

use crate::grammar::Opcode;
use crate::ir::{OpKind, Type, Value};
use crate::kernel::{KOp, KOpKind};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::signed_compare;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::ScfIf => lower_if(l),
        KOpKind::ScfFor => lower_for(l),
        KOpKind::ScfWhile => lower_while(l),
        _ => Err(l.malformed("unexpected scf terminator")),
    }
}

/// Result types of the current op, converted.
fn result_types(l: &mut Lowerer) -> Result<Vec<Type>, LowerError> {
    let n = l.kernels.op(l.current_op).results.len();
    (0..n).map(|i| l.result_type(i)).collect()
}

/// Function variables for the current op's results.
fn result_vars(l: &mut Lowerer, types: &[Type]) -> Vec<Value> {
    types.iter().map(|&t| l.variable(t)).collect()
}

/// Loads the result variables and maps the current op's results to them.
fn load_results(l: &mut Lowerer, vars: &[Value]) -> Result<(), LowerError> {
    for (i, &var) in vars.iter().enumerate() {
        let v = l.load(var);
        l.set_result(i, v)?;
    }
    Ok(())
}

/// Lowered operands of kernel terminator `term`.
fn term_operands(l: &Lowerer, term: KOp) -> Result<Vec<Value>, LowerError> {
    l.kernels
        .op(term)
        .operands
        .iter()
        .map(|&v| l.lowered(v))
        .collect()
}

fn expect_term(l: &Lowerer, term: Option<KOp>, want: KOpKind) -> Result<KOp, LowerError> {
    match term {
        Some(t) if l.kernels.op(t).kind == want => Ok(t),
        _ => Err(l.malformed(format!("region must end with {}", want.name()))),
    }
}

/// Lowers kernel region `region` of the current op into spv block
/// `block`, storing the terminator's operands to `vars`.
fn lower_branch(
    l: &mut Lowerer,
    region: usize,
    block: crate::ir::Block,
    vars: &[Value],
) -> Result<(), LowerError> {
    let op = l.current_op;
    let kr = l.kernels.op(op).regions[region];
    let kb = l.kernels.region(kr).blocks[0];
    l.block = block;
    let term = l.lower_block(kb)?;
    l.current_op = op;
    let term = expect_term(l, term, KOpKind::ScfYield)?;
    let vals = term_operands(l, term)?;
    if vals.len() != vars.len() {
        return Err(l.malformed("scf.yield operand count differs from the results"));
    }
    for (&var, &v) in vars.iter().zip(&vals) {
        l.store(var, v);
    }
    Ok(())
}

fn lower_if(l: &mut Lowerer) -> Result<(), LowerError> {
    let op = l.current_op;
    let cond = l.operand(0)?;
    let types = result_types(l)?;
    let vars = result_vars(l, &types);
    let regions = &l.kernels.op(op).regions;
    let has_else = regions.len() > 1 && !l.kernels.region(regions[1]).blocks.is_empty();
    let outer = l.block;
    let n_blocks = if has_else { 4 } else { 3 };
    let (_, blocks) = l.structured(OpKind::Selection, &vec![vec![]; n_blocks]);
    let header = blocks[0];
    let then_b = blocks[1];
    let merge = blocks[n_blocks - 1];
    let else_b = if has_else { blocks[2] } else { merge };
    l.block = header;
    l.conditional_branch(cond, then_b, else_b);
    lower_branch(l, 0, then_b, &vars)?;
    l.branch(merge, vec![]);
    if has_else {
        lower_branch(l, 1, else_b, &vars)?;
        l.branch(merge, vec![]);
    } else if !vars.is_empty() {
        return Err(l.malformed("scf.if with results needs an else region"));
    }
    l.block = merge;
    l.merge();
    l.block = outer;
    load_results(l, &vars)
}

fn lower_for(l: &mut Lowerer) -> Result<(), LowerError> {
    let op = l.current_op;
    let operands = l.operands()?;
    if operands.len() < 3 {
        return Err(l.malformed("scf.for needs lower bound, upper bound and step"));
    }
    let (lb, ub, step) = (operands[0], operands[1], operands[2]);
    let inits = operands[3..].to_vec();
    let types = result_types(l)?;
    if types.len() != inits.len() {
        return Err(l.malformed("scf.for results differ from its iter_args"));
    }
    let vars = result_vars(l, &types);
    let it = l.module.value_type(lb);
    let bt = l.bool_type();
    let mut header_args = vec![it];
    header_args.extend(&types);
    let outer = l.block;
    let (_, blocks) = l.structured(OpKind::Loop, &[vec![], header_args, vec![], vec![]]);
    let (entry, header, body, merge) = (blocks[0], blocks[1], blocks[2], blocks[3]);
    l.block = entry;
    let mut init_args = vec![lb];
    init_args.extend(&inits);
    l.branch(header, init_args);

    l.block = header;
    let hargs = l.module.block(header).args.clone();
    for (&var, &a) in vars.iter().zip(&hargs[1..]) {
        l.store(var, a);
    }
    let c = signed_compare(l, Opcode::SLessThan, hargs[0], ub, bt);
    l.conditional_branch(c, body, merge);

    let kr = l.kernels.op(op).regions[0];
    let kb = l.kernels.region(kr).blocks[0];
    let kargs = l.kernels.block(kb).args.clone();
    if kargs.len() != hargs.len() {
        return Err(l.malformed("scf.for body arguments differ from its iter_args"));
    }
    for (&ka, &ha) in kargs.iter().zip(&hargs) {
        l.set_lowered(ka, ha);
    }
    l.block = body;
    let term = l.lower_block(kb)?;
    l.current_op = op;
    let term = expect_term(l, term, KOpKind::ScfYield)?;
    let yields = term_operands(l, term)?;
    if yields.len() != types.len() {
        return Err(l.malformed("scf.yield operand count differs from the iter_args"));
    }
    let next = l.core_op(Opcode::IAdd, vec![hargs[0], step], it);
    let mut back = vec![next];
    back.extend(yields);
    l.branch(header, back);

    l.block = merge;
    l.merge();
    l.block = outer;
    load_results(l, &vars)
}

fn lower_while(l: &mut Lowerer) -> Result<(), LowerError> {
    let op = l.current_op;
    let inits = l.operands()?;
    let types = result_types(l)?;
    let vars = result_vars(l, &types);
    let regions = l.kernels.op(op).regions.clone();
    if regions.len() != 2 {
        return Err(l.malformed("scf.while needs a before and an after region"));
    }
    let before = l.kernels.region(regions[0]).blocks[0];
    let after = l.kernels.region(regions[1]).blocks[0];
    let bargs_k = l.kernels.block(before).args.clone();
    let mut btypes = Vec::new();
    for &a in &bargs_k {
        let kt = l.kernel_type(a);
        btypes.push(l.convert_type(kt)?);
    }
    let outer = l.block;
    let (_, blocks) = l.structured(OpKind::Loop, &[vec![], btypes, vec![], vec![]]);
    let (entry, header, body, merge) = (blocks[0], blocks[1], blocks[2], blocks[3]);
    l.block = entry;
    l.branch(header, inits);

    l.block = header;
    let hargs = l.module.block(header).args.clone();
    for (&ka, &ha) in bargs_k.iter().zip(&hargs) {
        l.set_lowered(ka, ha);
    }
    let term = l.lower_block(before)?;
    l.current_op = op;
    let term = expect_term(l, term, KOpKind::ScfCondition)?;
    let vals = term_operands(l, term)?;
    let Some((&cond, forwarded)) = vals.split_first() else {
        return Err(l.malformed("scf.condition needs a condition"));
    };
    if forwarded.len() != vars.len() {
        return Err(
            l.malformed("scf.condition forwards a different number of values than the results")
        );
    }
    for (&var, &v) in vars.iter().zip(forwarded) {
        l.store(var, v);
    }
    l.conditional_branch(cond, body, merge);

    let aargs = l.kernels.block(after).args.clone();
    if aargs.len() != forwarded.len() {
        return Err(
            l.malformed("scf.while after-region arguments differ from the forwarded values")
        );
    }
    for (&ka, &v) in aargs.iter().zip(forwarded) {
        l.set_lowered(ka, v);
    }
    l.block = body;
    let term = l.lower_block(after)?;
    l.current_op = op;
    let term = expect_term(l, term, KOpKind::ScfYield)?;
    let yields = term_operands(l, term)?;
    l.branch(header, yields);

    l.block = merge;
    l.merge();
    l.block = outer;
    load_results(l, &vars)
}
