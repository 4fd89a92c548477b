//! Values used outside the region that defines them.
//!
//! In SPIR-V a value defined inside a construct may be used after it (its
//! definition still dominates the use). In the region form it may not: a
//! region hides what it defines (MLIR 19 rejects such modules). After the
//! function is laid out, every use whose definition is not in the user's
//! region or an enclosing one is rewritten:
//!
//! * a value that may live in a `Function` variable gets one (at the start
//!   of the function), a store right after its definition and a load right
//!   before each such use (before the loop op for a use by a loop's entry
//!   block, which holds only its branch);
//! * a pointer, image or sampler (which may not) is recomputed before the
//!   use when its definition is an access chain, `OpCopyObject` or a load
//!   of an image or sampler, whose own operands are then checked the same
//!   way; anything else is an error naming the block that defines it.
//!
//! Regions are numbered once by an iterative walk (enter / leave numbers),
//! so "is an enclosing region" is two comparisons.

use super::emit::storable;
use super::error::DeserializeError;
use super::{Deserializer, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::StorageClass;
use crate::ir::{Block, Op, OpKind, OpSpec, Region, Value, ValueDef};
use rspirv::spirv::Op as SpvOp;

/// Where a use is.
#[derive(Clone, Copy, Debug)]
enum UseSlot {
    Operand(usize),
    SuccArg(usize, usize),
}

/// Rewrites the escaping uses in function `func`.
pub(super) fn fix_escaping_values(d: &mut Deserializer, func: Op) -> Result<()> {
    let Some(&root) = d.m.op(func).regions.first() else {
        return Ok(());
    };
    let (numbers, users) = number_regions(d, root);
    let region_of_block = |d: &Deserializer, b: Block| d.m.block(b).parent;
    let encloses = |outer: Option<Region>, inner: Option<Region>| -> bool {
        match (
            outer.and_then(|r| numbers.get(&r)),
            inner.and_then(|r| numbers.get(&r)),
        ) {
            (Some(&(a0, a1)), Some(&(b0, b1))) => a0 <= b0 && b1 <= a1,
            _ => true,
        }
    };
    let def_region = |d: &Deserializer, v: Value| -> Option<Region> {
        match d.m.value(v).def {
            ValueDef::Result(op, _) => d.m.op(op).parent.and_then(|b| region_of_block(d, b)),
            ValueDef::BlockArg(b, _) => region_of_block(d, b),
        }
    };
    // (user, slot, value, the user's region)
    let mut work: Vec<(Op, UseSlot, Value, Option<Region>)> = Vec::new();
    for &user in &users {
        let data = d.m.op(user);
        let region = data.parent.and_then(|b| region_of_block(d, b));
        for (i, &v) in data.operands.iter().enumerate() {
            if !encloses(def_region(d, v), region) {
                work.push((user, UseSlot::Operand(i), v, region));
            }
        }
        for (s, succ) in data.successors.iter().enumerate() {
            for (i, &v) in succ.args.iter().enumerate() {
                if !encloses(def_region(d, v), region) {
                    work.push((user, UseSlot::SuccArg(s, i), v, region));
                }
            }
        }
    }
    if work.is_empty() {
        return Ok(());
    }
    let entry = d.m.region(root).blocks.first().copied();
    let mut vars: FxHashMap<Value, Value> = FxHashMap::default();
    let mut guard = 0usize;
    while let Some((user, slot, v, region)) = work.pop() {
        guard += 1;
        if guard > 1 << 24 {
            break;
        }
        let anchor = anchor_for(d, user);
        let ty = d.m.value_type(v);
        let cheap = match d.m.value(v).def {
            ValueDef::Result(def, _) => {
                matches!(
                    d.m.op(def).kind,
                    OpKind::Constant | OpKind::AddressOf | OpKind::ReferenceOf
                ) || d.m.op(def).kind == OpKind::Core(SpvOp::Undef as u16)
            }
            ValueDef::BlockArg(..) => false,
        };
        let replacement = if storable(&d.m.types, ty) && !cheap {
            let var = match vars.get(&v) {
                Some(&var) => var,
                None => {
                    let var = demote(d, v, entry)?;
                    vars.insert(v, var);
                    var
                }
            };
            let load = d.m.create_op(
                OpSpec::new(OpKind::Core(SpvOp::Load as u16))
                    .operands([var])
                    .results([ty]),
            );
            d.m.insert_op_before(anchor, load);
            d.m.op(load).results[0]
        } else {
            let clone = rematerialize(d, v)?;
            d.m.insert_op_before(anchor, clone);
            let operands = d.m.op(clone).operands.clone();
            for (i, &o) in operands.iter().enumerate() {
                if !encloses(def_region(d, o), region) {
                    work.push((clone, UseSlot::Operand(i), o, region));
                }
            }
            d.m.op(clone).results[0]
        };
        let data = d.m.op_mut(user);
        match slot {
            UseSlot::Operand(i) => data.operands[i] = replacement,
            UseSlot::SuccArg(s, i) => data.successors[s].args[i] = replacement,
        }
    }
    Ok(())
}

/// Enter / leave numbers of every region under `root`, and every op in them.
fn number_regions(d: &Deserializer, root: Region) -> (FxHashMap<Region, (u32, u32)>, Vec<Op>) {
    let mut numbers: FxHashMap<Region, (u32, u32)> = FxHashMap::default();
    let mut users = Vec::new();
    let mut counter = 0u32;
    // (region, block index, op index)
    let mut stack: Vec<(Region, usize, usize)> = vec![(root, 0, 0)];
    numbers.insert(root, (counter, u32::MAX));
    counter += 1;
    while let Some(top) = stack.last_mut() {
        let (region, bi, oi) = *top;
        let blocks = &d.m.region(region).blocks;
        let Some(&block) = blocks.get(bi) else {
            if let Some(n) = numbers.get_mut(&region) {
                n.1 = counter;
            }
            counter += 1;
            stack.pop();
            continue;
        };
        let ops = &d.m.block(block).ops;
        let Some(&op) = ops.get(oi) else {
            top.1 += 1;
            top.2 = 0;
            continue;
        };
        top.2 += 1;
        users.push(op);
        for &r in d.m.op(op).regions.iter().rev() {
            numbers.insert(r, (counter, u32::MAX));
            counter += 1;
            stack.push((r, 0, 0));
        }
    }
    (numbers, users)
}

/// Where ops serving a use by `user` go: before it, or before the loop op
/// when `user` is the branch of a loop's entry block.
fn anchor_for(d: &Deserializer, user: Op) -> Op {
    let Some(block) = d.m.op(user).parent else {
        return user;
    };
    let Some(owner) = d.m.block_parent_op(block) else {
        return user;
    };
    let is_loop_entry = d.m.op(owner).kind == OpKind::Loop
        && d.m
            .block(block)
            .parent
            .and_then(|r| d.m.region(r).blocks.first().copied())
            == Some(block);
    if is_loop_entry {
        owner
    } else {
        user
    }
}

/// A function variable holding `v`: declared at the start of the
/// function, stored right after `v` is defined.
fn demote(d: &mut Deserializer, v: Value, entry: Option<Block>) -> Result<Value> {
    let ty = d.m.value_type(v);
    let ptr = d.m.types.pointer(ty, StorageClass::Function);
    let sc = d.m.attrs.enumerant(
        crate::grammar::OperandKind::StorageClass,
        StorageClass::Function as u32,
    );
    let var_op = d.m.create_op(
        OpSpec::new(OpKind::Core(SpvOp::Variable as u16))
            .attr("storage_class", sc)
            .results([ptr]),
    );
    match entry.and_then(|b| d.m.block(b).ops.first().copied()) {
        Some(first) => d.m.insert_op_before(first, var_op),
        None => {
            if let Some(b) = entry {
                d.m.append_op(b, var_op);
            }
        }
    }
    let var = d.m.op(var_op).results[0];
    let store =
        d.m.create_op(OpSpec::new(OpKind::Core(SpvOp::Store as u16)).operands([var, v]));
    let anchor = match d.m.value(v).def {
        ValueDef::Result(op, _) => {
            let block = d.m.op(op).parent;
            block.and_then(|b| {
                let ops = &d.m.block(b).ops;
                let i = ops.iter().position(|&o| o == op)?;
                ops.get(i + 1).copied()
            })
        }
        ValueDef::BlockArg(b, _) => d.m.block(b).ops.first().copied(),
    };
    match anchor {
        Some(a) => d.m.insert_op_before(a, store),
        None => {
            return Err(escape_error(
                d,
                v,
                "its definition has no place for a store after it",
            ))
        }
    }
    Ok(var)
}

/// A copy of the op defining the pointer (image, sampler) `v`.
fn rematerialize(d: &mut Deserializer, v: Value) -> Result<Op> {
    let ValueDef::Result(def, _) = d.m.value(v).def else {
        return Err(escape_error(
            d,
            v,
            "it is an OpPhi of a pointer, image or sampler type, which cannot be kept in a variable",
        ));
    };
    let data = d.m.op(def).clone();
    let ok = match &data.kind {
        OpKind::Core(op) => [
            SpvOp::AccessChain,
            SpvOp::InBoundsAccessChain,
            SpvOp::PtrAccessChain,
            SpvOp::InBoundsPtrAccessChain,
            SpvOp::CopyObject,
            SpvOp::Load,
            SpvOp::SampledImage,
            SpvOp::Image,
        ]
        .iter()
        .any(|&o| o as u16 == *op),
        OpKind::AddressOf | OpKind::ReferenceOf | OpKind::Constant => true,
        _ => false,
    };
    if !ok {
        return Err(escape_error(
            d,
            v,
            "it is a pointer, image or sampler that the region form cannot carry out of the construct",
        ));
    }
    let types: Vec<_> = data.results.iter().map(|&r| d.m.value_type(r)).collect();
    let spec = OpSpec {
        kind: data.kind.clone(),
        operands: data.operands.clone(),
        result_types: types,
        attrs: data.attrs.clone(),
        successors: Vec::new(),
        regions: 0,
        loc: data.loc,
    };
    Ok(d.m.create_op(spec))
}

fn escape_error(d: &Deserializer, v: Value, why: &str) -> DeserializeError {
    let (at, block) = d.origin_of_value(v).unwrap_or((
        super::error::At {
            offset: 0,
            opcode: 0,
        },
        0,
    ));
    DeserializeError::Unstructurable {
        at,
        block,
        reason: format!("a value it defines is used after the construct that holds it, and {why}"),
    }
}
