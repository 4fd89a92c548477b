//! Stage 0: `func.call`s are inlined (the compiler works on one function
//! body at a time). The callee's ops are cloned in place of the call, its
//! arguments replaced by the call's operands and the call's results by
//! what the callee returns; repeated until no call is left (recursion
//! stops with an error after 64 levels).

use std::collections::HashMap;

use crate::tensor::ops::OpKind;
use crate::tensor::{TBlock, TOp, TValue, TensorModule};

use super::error::CodegenError;

/// How deeply calls may nest.
const MAX_DEPTH: usize = 64;

/// Inlines every `func.call` of `m`'s function bodies; returns how many.
pub fn inline_calls(m: &mut TensorModule) -> Result<usize, CodegenError> {
    let mut total = 0;
    for _ in 0..MAX_DEPTH {
        let mut any = false;
        for f in m.funcs().to_vec() {
            let Some(body) = m.func(f).body else { continue };
            let calls: Vec<TOp> = m
                .block(body)
                .ops
                .iter()
                .copied()
                .filter(|&o| matches!(m.op(o).kind, OpKind::Call { .. }))
                .collect();
            for call in calls {
                inline_one(m, body, call)?;
                any = true;
                total += 1;
            }
        }
        if !any {
            return Ok(total);
        }
    }
    Err(CodegenError::Unsupported {
        loc: crate::ir::Location::UNKNOWN,
        op: "func.call".into(),
        message: format!("calls nest deeper than {MAX_DEPTH} levels (recursion?)"),
    })
}

fn inline_one(m: &mut TensorModule, block: TBlock, call: TOp) -> Result<(), CodegenError> {
    let d = m.op(call).clone();
    let OpKind::Call { callee } = &d.kind else {
        return Ok(());
    };
    let f = m
        .func_by_name(callee)
        .ok_or_else(|| CodegenError::unsupported(m, call, format!("no function '@{callee}'")))?;
    let body = m.func(f).body.ok_or_else(|| {
        CodegenError::unsupported(m, call, format!("'@{callee}' has no body to inline"))
    })?;
    let mut map: HashMap<TValue, TValue> = HashMap::new();
    for (&a, &v) in m.block(body).args.clone().iter().zip(&d.operands) {
        map.insert(a, v);
    }
    let start = m
        .block(block)
        .ops
        .iter()
        .position(|&o| o == call)
        .unwrap_or(0);
    let ops = m.block(body).ops.clone();
    for (at, &o) in (start..).zip(&ops) {
        if m.op(o).kind == OpKind::Return {
            let rets: Vec<TValue> = m
                .op(o)
                .operands
                .iter()
                .map(|v| map.get(v).copied().unwrap_or(*v))
                .collect();
            for (&r, &v) in d.results.iter().zip(&rets) {
                m.replace_all_uses(r, v);
            }
            break;
        }
        let c = clone_op(m, o, &mut map);
        m.insert_op(block, at, c);
    }
    m.detach_op(call);
    Ok(())
}

/// A detached copy of `op` (regions included) with operands renamed by
/// `map`; its results are added to `map`.
fn clone_op(m: &mut TensorModule, op: TOp, map: &mut HashMap<TValue, TValue>) -> TOp {
    let d = m.op(op).clone();
    let regions: Vec<TBlock> = d
        .regions
        .iter()
        .map(|&r| {
            let types: Vec<_> = m.block(r).args.iter().map(|&a| m.value_type(a)).collect();
            let nb = m.create_block(&types);
            for (&a, &na) in m
                .block(r)
                .args
                .clone()
                .iter()
                .zip(&m.block(nb).args.clone())
            {
                map.insert(a, na);
            }
            for &inner in &m.block(r).ops.clone() {
                let c = clone_op(m, inner, map);
                m.append_op(nb, c);
            }
            nb
        })
        .collect();
    let operands = d
        .operands
        .iter()
        .map(|v| map.get(v).copied().unwrap_or(*v))
        .collect();
    let types: Vec<_> = d.results.iter().map(|&r| m.value_type(r)).collect();
    let c = m.create_op(d.kind.clone(), operands, &types, regions, d.loc);
    for (&r, &nr) in d.results.iter().zip(&m.op(c).results.clone()) {
        map.insert(r, nr);
    }
    c
}
