//! Branches: the terminators of binary blocks (step 3 of [`super`]) —
//! block arguments for branches within a region, phi variables and exit
//! codes for branches out of it, `spv.Switch` with edge blocks.

use super::{core, FnEmitter, Pending, Sink, Slot, Target};
use crate::binary::deserialize::cfg::Kind;
use crate::binary::deserialize::error::At;
use crate::binary::deserialize::reader::{Inst, Val};
use crate::binary::deserialize::structurize::Owner;
use crate::binary::deserialize::{invalid, Result};
use crate::grammar::Opcode;
use crate::ir::{Block, Op, OpKind, OpSpec, Value};
use rspirv::spirv::Op as SpvOp;

impl FnEmitter<'_> {
    /// Stores of the phi values of `t` coming from `b`, at the end of `b`.
    pub(super) fn store_phis(&mut self, b: usize, block: Block, t: usize) -> Result<()> {
        let incoming = self.incoming(t, b)?;
        for (i, (id, at)) in incoming.into_iter().enumerate() {
            let var = self.phi_var(t, i)?;
            let v = self.use_value(id, at, Sink::Content(b, block));
            let v = match v {
                Ok(v) => v,
                // Defined later (a back edge's value): resolve at the end.
                Err(_) if self.defined_later.contains(&id) => {
                    let store = self.d.m.create_op(
                        OpSpec::new(core(SpvOp::Store)).operands([var, self.placeholder]),
                    );
                    self.buffers[b].push(store);
                    self.pend_stored_value(store, id, at);
                    continue;
                }
                Err(e) => return Err(e),
            };
            self.store(b, var, v);
        }
        Ok(())
    }

    /// `Store %ptr, %value` at the end of binary block `b`'s ops.
    fn store(&mut self, b: usize, ptr: Value, value: Value) {
        let store = self
            .d
            .m
            .create_op(OpSpec::new(core(SpvOp::Store)).operands([ptr, value]));
        self.buffers[b].push(store);
    }

    /// The value `store` (a `spv.Store` with a placeholder value) stores:
    /// `id`, resolved at the end.
    fn pend_stored_value(&mut self, store: Op, id: u32, at: At) {
        self.pending.push(Pending {
            op: store,
            slot: Slot::Operand(1),
            id,
            at,
            anchor: store,
            in_block: None,
        });
    }

    /// A successor of `b`'s terminator for an edge to `t` of kind `target`:
    /// block arguments are pending phi values.
    pub(super) fn successor(
        &mut self,
        owner: Owner,
        b: usize,
        t: usize,
        target: Target,
    ) -> Result<(Block, Vec<(u32, At)>)> {
        let x = owner.unwrap_or(0);
        match target {
            Target::Direct(block) => Ok((block, self.incoming(t, b)?)),
            Target::Merge | Target::Exit => {
                let merge = self.cons[x]
                    .merge
                    .ok_or_else(|| self.unstructurable(b, "internal: no merge block".into()))?;
                Ok((merge, Vec::new()))
            }
            Target::Absorbed => Err(self.unstructurable(b, "internal: absorbed edge".into())),
        }
    }

    pub(super) fn decode_terminator(&mut self, b: usize, block: Block) -> Result<()> {
        let owner = self.plan.member[b].unwrap_or(None);
        let Some((term, loc)) = self.cfg.blocks[b].term.clone() else {
            return Err(self.unstructurable(b, "internal: no terminator".into()));
        };
        let term_op = term.desc.op;
        let succs = self.cfg.succs[b].clone();
        if !matches!(
            term_op,
            Opcode::Branch | Opcode::BranchConditional | Opcode::Switch
        ) {
            let Some((spec, _)) = self.decode_op(&term, loc, Sink::Content(b, block))? else {
                return Err(invalid(&term, "a terminator cannot be dropped"));
            };
            let op = self.d.m.create_op(spec);
            self.terms.insert(block, op);
            return Ok(());
        }
        let mut targets = Vec::with_capacity(succs.len());
        for &t in &succs {
            targets.push(self.target(owner, t, Some(b))?);
        }
        // Stores for edges that leave the region: phi values, exit codes.
        let mut stored: Vec<usize> = Vec::new();
        for (&t, target) in succs.iter().zip(&targets) {
            if matches!(target, Target::Merge | Target::Exit)
                && !self.cfg.blocks[t].phis.is_empty()
                && !stored.contains(&t)
                && term_op != Opcode::Switch
            {
                self.store_phis(b, block, t)?;
                stored.push(t);
            }
        }
        let mut spec = match term_op {
            Opcode::Branch => {
                if let (Some(&t), Some(Target::Exit)) = (succs.first(), targets.first()) {
                    let code = self.code(t);
                    let c = self.content_constant(b, code);
                    self.store_code(b, c)?;
                }
                OpSpec::new(core(SpvOp::Branch))
            }
            Opcode::BranchConditional => {
                let cond_id = term.id(0).unwrap_or(0);
                let cond = self.use_value(cond_id, term.at, Sink::Content(b, block))?;
                let mut spec = OpSpec::new(core(SpvOp::BranchConditional)).operands([cond]);
                if let (Some(t), Some(f)) = (term.word(3), term.word(4)) {
                    let i32t = self.d.m.types.int(32);
                    let weights = vec![
                        self.d.m.attrs.int(i128::from(t), i32t),
                        self.d.m.attrs.int(i128::from(f), i32t),
                    ];
                    let a = self.d.m.attrs.array(weights);
                    spec = spec.attr("branch_weights", a);
                }
                // Exit codes through a select, so the branch still targets
                // the merge block.
                let codes: Vec<Option<u32>> = succs
                    .iter()
                    .zip(&targets)
                    .map(|(&t, target)| match target {
                        Target::Exit => Some(self.code(t)),
                        _ => None,
                    })
                    .collect();
                if codes.iter().any(Option::is_some) {
                    let value = match (codes[0], codes[1]) {
                        (Some(a), Some(c)) if a == c => self.content_constant(b, a),
                        (a, c) => {
                            let a = self.content_constant(b, a.unwrap_or(0));
                            let c = self.content_constant(b, c.unwrap_or(0));
                            let i32t = self.d.m.types.int(32);
                            let sel = self.d.m.create_op(
                                OpSpec::new(core(SpvOp::Select))
                                    .operands([cond, a, c])
                                    .results([i32t]),
                            );
                            self.buffers[b].push(sel);
                            self.result(sel)
                        }
                    };
                    self.store_code(b, value)?;
                }
                spec
            }
            _ => self.switch_spec(owner, b, block, &term, &succs, &targets)?,
        };
        // Successors with pending arguments.
        let mut pend: Vec<(usize, Vec<(u32, At)>)> = Vec::new();
        if term_op != Opcode::Switch {
            for (s, (&t, target)) in succs.iter().zip(&targets).enumerate() {
                if let Target::Absorbed = target {
                    return Err(
                        self.unstructurable(b, "internal: absorbed branch ends a block".into())
                    );
                }
                let (succ, args) = self.successor(owner, b, t, *target)?;
                spec = spec.successor(succ, vec![self.placeholder; args.len()]);
                pend.push((s, args));
            }
        } else {
            pend = self.switch_pending.drain(..).collect();
        }
        let op = self.d.m.create_op(spec.loc(loc));
        for (s, args) in pend {
            for (i, (id, at)) in args.into_iter().enumerate() {
                self.pending.push(Pending {
                    op,
                    slot: Slot::SuccArg(s, i),
                    id,
                    at,
                    anchor: op,
                    in_block: Some(block),
                });
            }
        }
        self.terms.insert(block, op);
        Ok(())
    }

    /// An `i32` constant at the end of binary block `b`'s ops.
    pub(super) fn content_constant(&mut self, b: usize, value: u32) -> Value {
        let i32t = self.d.m.types.int(32);
        let a = self.d.m.attrs.int(i128::from(value), i32t);
        let op = self.d.m.create_op(
            OpSpec::new(OpKind::Constant)
                .attr("value", a)
                .results([i32t]),
        );
        self.buffers[b].push(op);
        self.result(op)
    }

    /// `Store %flag, code` at the end of binary block `b`'s ops.
    pub(super) fn store_code(&mut self, b: usize, value: Value) -> Result<()> {
        let flag = self.flag()?;
        self.store(b, flag, value);
        Ok(())
    }

    /// `spv.Switch`: the `literals` attribute and the successors; exits
    /// go through edge blocks that store the code (the switch is a
    /// selection header, which may target any block).
    pub(super) fn switch_spec(
        &mut self,
        owner: Owner,
        b: usize,
        block: Block,
        term: &Inst,
        succs: &[usize],
        targets: &[Target],
    ) -> Result<OpSpec> {
        let sel_id = term.id(0).unwrap_or(0);
        let sel = self.use_value(sel_id, term.at, Sink::Content(b, block))?;
        let sel_ty = self.d.m.value_type(sel);
        let width = self.d.m.types.bit_width(sel_ty).unwrap_or(32);
        let mut literals = Vec::new();
        for o in term.operands.iter().skip(2) {
            let bits = match o.val {
                Val::Word(w) => u64::from(w),
                Val::Wide(w) => w,
                _ => continue,
            };
            let value = if width >= 64 {
                i128::from(bits as i64)
            } else {
                let shift = 64 - width;
                i128::from(((bits << shift) as i64) >> shift)
            };
            literals.push(self.d.m.attrs.int(value, sel_ty));
        }
        let list = self.d.m.attrs.array(literals);
        let mut spec = OpSpec::new(core(SpvOp::Switch))
            .operands([sel])
            .attr("literals", list);
        let x = owner.unwrap_or(0);
        self.switch_pending.clear();
        for (s, (&t, target)) in succs.iter().zip(targets).enumerate() {
            match target {
                Target::Direct(dest) => {
                    let args = self.incoming(t, b)?;
                    spec = spec.successor(*dest, vec![self.placeholder; args.len()]);
                    self.switch_pending.push((s, args));
                }
                Target::Merge | Target::Exit => {
                    let merge = self.cons[x]
                        .merge
                        .ok_or_else(|| self.unstructurable(b, "internal: no merge block".into()))?;
                    let needs_block =
                        matches!(target, Target::Exit) || !self.cfg.blocks[t].phis.is_empty();
                    if !needs_block {
                        spec = spec.successor(merge, Vec::new());
                        continue;
                    }
                    // An edge block holding the stores.
                    let edge = self.new_block(&[]);
                    self.insert_block(owner, edge);
                    let incoming = self.incoming(t, b)?;
                    for (i, (id, at)) in incoming.into_iter().enumerate() {
                        let var = self.phi_var(t, i)?;
                        let store = self.push_op(
                            edge,
                            OpSpec::new(core(SpvOp::Store)).operands([var, self.placeholder]),
                        );
                        self.pend_stored_value(store, id, at);
                    }
                    if matches!(target, Target::Exit) {
                        let code = self.code(t);
                        let flag = self.flag()?;
                        let c = self.i32_constant(edge, i128::from(code));
                        self.push_op(edge, OpSpec::new(core(SpvOp::Store)).operands([flag, c]));
                    }
                    let br = self
                        .d
                        .m
                        .create_op(OpSpec::new(core(SpvOp::Branch)).successor(merge, Vec::new()));
                    self.terms.insert(edge, br);
                    spec = spec.successor(edge, Vec::new());
                }
                Target::Absorbed => {
                    return Err(self.unstructurable(b, "internal: absorbed switch edge".into()))
                }
            }
        }
        Ok(spec)
    }

    /// Adds `block` to the region of `owner`, before its continue and merge
    /// blocks (which stay last).
    pub(super) fn insert_block(&mut self, owner: Owner, block: Block) {
        let slot = self.region_slot(owner);
        let region = match owner {
            Some(x) => self.cons[x].region,
            None => self.d.m.op(self.func).regions.first().copied(),
        };
        let tail = match owner.map(|x| self.cfg.constructs[x].kind) {
            Some(Kind::Loop) => 2,
            Some(Kind::Selection) => 1,
            None => 0,
        };
        let list = &mut self.region_blocks[slot];
        let at = list.len().saturating_sub(tail);
        list.insert(at, block);
        if let Some(r) = region {
            self.d.m.block_mut(block).parent = Some(r);
            let blocks = &mut self.d.m.region_mut(r).blocks;
            let at = blocks.len().saturating_sub(tail);
            blocks.insert(at, block);
        }
    }
}
