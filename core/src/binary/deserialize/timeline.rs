//! Where constants and function variables are placed: in id order, so a
//! module kiln wrote reads back into one that serializes to the same
//! words.
//!
//! The serializer hands out ids in the order it emits things: a
//! `spv.Constant` gets its id (and its place in the types section) where
//! the op is, a `spv.Variable` its id where the op is (the instruction is
//! then hoisted to the function's first block). A binary's ids are thus a
//! record of where those ops were. While a function's blocks are decoded
//! in binary order, each instruction has a *key*, the first id the
//! serializer allocated for it (its result id, or a block label it names
//! first; 0 when it allocates none); before an instruction, every
//! constant of the module whose id is at least the function's first id
//! and below the key is materialized (once; uses elsewhere materialize
//! their own copies, which the serializer unifies), and so is every
//! variable of the function, placed in the entry block when the
//! instruction is there and at the start of the function otherwise. A
//! variable is also placed before its first use, and so is a constant,
//! together with every constant numbered before it: an instruction that
//! allocates no id (a store) may be the first to use a constant the
//! serializer numbered after others not yet placed. A constituent the
//! serializer emitted right before its composite (numbered with it, not
//! on the timeline of its own) has its id once that composite is written:
//! its first use places the composite, and what is numbered before it.
//! A terminator's key also covers the next block: the serializer writes
//! it right after, numbering its label (if not named yet) or its first
//! phi first, so what it numbered before that was in this block.
//! For binaries from other producers, whose constants usually come before
//! any function, this changes nothing but where variables sit.

use super::emit::FnEmitter;
use super::reader::{Inst, Val};
use super::{Def, FxHashSet, Result};
use crate::grammar::{Opcode, OperandKind};
use crate::ir::{Block, Location};

/// The ids an instruction uses, as the timeline sees them.
#[derive(Default)]
pub(super) struct Uses {
    /// Ids of operands that become SSA operands.
    values: Vec<u32>,
    /// Ids of `IdScope` / `IdMemorySemantics` operands, which become
    /// attributes: the serializer makes their constants when it writes
    /// the instruction (after its result id).
    id_constants: Vec<u32>,
}

impl Uses {
    /// The ids `inst` uses.
    pub fn of(inst: &Inst) -> Uses {
        let mut uses = Uses::default();
        for o in &inst.operands {
            if let Val::Id(id) = o.val {
                match o.kind {
                    OperandKind::IdScope | OperandKind::IdMemorySemantics => {
                        uses.id_constants.push(id)
                    }
                    _ => uses.values.push(id),
                }
            }
        }
        uses
    }
}

/// The constants and variables of one function still to be placed.
pub(super) struct Timeline {
    /// Sorted ids of the module's constants at or after the function's
    /// first id.
    constants: Vec<u32>,
    next_constant: usize,
    /// The function's variables, sorted by id.
    variables: Vec<(u32, Inst, Location)>,
    next_variable: usize,
    /// Labels named so far.
    labels: FxHashSet<u32>,
    /// The labels the serializer allocates together with a construct's
    /// header label: its merge block (and a loop's continue target).
    with_header: crate::binary::serialize::tables::FxHashMap<u32, Vec<u32>>,
    /// The last binary block (and its IR block) anything was placed in.
    last: Option<(usize, Block)>,
    /// Where the next function body starts (its entry label; the module's
    /// bound for the last one).
    last_id: u32,
}

impl FnEmitter<'_> {
    /// The timeline of the function being emitted.
    pub(super) fn timeline(&mut self) -> Timeline {
        let mut first = u32::MAX;
        let entry = self.cfg.blocks.first().map_or(0, |b| b.label);
        let last_id = self
            .d
            .next_body_label
            .get(&entry)
            .copied()
            .unwrap_or(u32::MAX);
        let mut variables = Vec::new();
        // The ids the function's instructions use: a constituent numbered
        // after a composite holding it that none of them uses gets no copy
        // of its own (the serializer emits it with the composite). Other
        // unused constants keep their place: kiln's serializer gave them
        // their ids there.
        let mut used: FxHashSet<u32> = FxHashSet::default();
        for block in &self.cfg.blocks {
            let insts = block
                .phis
                .iter()
                .chain(block.body.iter().map(|(i, _)| i))
                .chain(block.term.as_ref().map(|(t, _)| t));
            for inst in insts {
                used.extend(inst.ids_from(0));
            }
        }
        for block in &self.cfg.blocks {
            first = first.min(block.label);
            for p in &block.phis {
                first = first.min(p.result.unwrap_or(u32::MAX));
            }
            for (inst, loc) in &block.body {
                if let Some(r) = inst.result {
                    first = first.min(r);
                    if inst.desc.op == Opcode::Variable {
                        variables.push((r, inst.clone(), *loc));
                    }
                }
            }
        }
        first = first.min(self.first_param_id);
        variables.sort_by_key(|v| v.0);
        let tail: Vec<u32> = {
            let all = self.d.constant_ids();
            let start = all.partition_point(|&c| c < first);
            all[start..].to_vec()
        };
        let mut with_header = crate::binary::serialize::tables::FxHashMap::default();
        for k in &self.cfg.constructs {
            let mut labels = vec![self.cfg.label(k.merge)];
            if k.kind == super::cfg::Kind::Loop {
                labels.push(self.cfg.label(k.cont));
            }
            with_header.insert(self.cfg.label(k.header), labels);
        }
        Timeline {
            constants: tail
                .into_iter()
                .filter(|c| used.contains(c) || !self.d.is_late_constituent(*c))
                .collect(),
            next_constant: 0,
            variables,
            next_variable: 0,
            labels: FxHashSet::default(),
            with_header,
            last: None,
            last_id,
        }
    }
}

impl Timeline {
    /// The key of a label named by an instruction: the label if it is
    /// named for the first time, else none (0). A construct header's label
    /// comes with its merge block's (and continue target's) label: the
    /// serializer allocates them together, at the construct op.
    pub fn key_of_label(&mut self, label: u32) -> u32 {
        if !self.labels.insert(label) {
            return 0;
        }
        let mut key = label;
        if let Some(more) = self.with_header.get(&label) {
            for &l in more {
                if self.labels.insert(l) {
                    key = key.min(l);
                }
            }
        }
        key
    }

    /// The first id the serializer allocates when it starts writing the
    /// block labelled `label` whose first phi is `first_phi`: the label
    /// (with its construct's, see [`Timeline::key_of_label`]) if not named
    /// yet, else that phi; 0 for none. Names nothing.
    pub fn start_key(&self, label: u32, first_phi: Option<u32>) -> u32 {
        if self.labels.contains(&label) {
            return first_phi.unwrap_or(0);
        }
        let mut key = label;
        if let Some(more) = self.with_header.get(&label) {
            for &l in more {
                if !self.labels.contains(&l) {
                    key = key.min(l);
                }
            }
        }
        key
    }

    /// Places what comes before an instruction of binary block `b` (in IR
    /// block `block`) with key `key` that uses the ids `used`.
    pub fn reach(
        &mut self,
        e: &mut FnEmitter<'_>,
        b: usize,
        block: Block,
        key: u32,
        used: &Uses,
    ) -> Result<()> {
        self.last = Some((b, block));
        let mut limit = key;
        let pending_constant = |c: &u32| {
            self.constants[self.next_constant..]
                .binary_search(c)
                .is_ok()
        };
        for &u in &used.values {
            if self.variables[self.next_variable..]
                .iter()
                .any(|v| v.0 == u)
                || pending_constant(&u)
            {
                limit = limit.max(u.saturating_add(1));
                continue;
            }
            // A constituent the serializer emitted with a composite (not on
            // the timeline itself) got its id there: that composite (or the
            // one it was emitted with in turn) came before this
            // instruction, with everything numbered before it. Each step
            // goes to a larger id, so this ends.
            let mut part = u;
            while let Some(&c) = e.d.emitted_with.get(&part) {
                if pending_constant(&c) {
                    limit = limit.max(c.saturating_add(1));
                    break;
                }
                part = c;
            }
        }
        // Constants the serializer made for this instruction's scope and
        // semantics attributes: what it numbered before them came before
        // the instruction, but they themselves are no ops. It makes the
        // new ones in operand order, one after the other (types aside),
        // after everything else: of the pending ones, those are the top
        // run numbered in that order; one below the run came before.
        let mut met: Vec<u32> = Vec::new();
        for &c in &used.id_constants {
            if pending_constant(&c) && !met.contains(&c) {
                met.push(c);
            }
        }
        if !met.is_empty() {
            let mut ids = met.clone();
            ids.sort_unstable();
            let at = |c: u32| met.iter().position(|&m| m == c);
            let mut from = ids.len() - 1;
            while from > 0 {
                let (lo, hi) = (ids[from - 1], ids[from]);
                let adjacent = hi - lo <= 64
                    && (lo + 1..hi).all(|i| matches!(e.d.defs.get(&i), Some(Def::Type(_))));
                if !(adjacent && at(lo) < at(hi)) {
                    break;
                }
                from -= 1;
            }
            limit = limit.max(ids[from]);
        }
        loop {
            let c = self.constants.get(self.next_constant).copied();
            let v = self.variables.get(self.next_variable).map(|v| v.0);
            let take_constant = match (c, v) {
                (Some(c), Some(v)) => c < v,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => return Ok(()),
            };
            if take_constant {
                let c = c.unwrap_or(u32::MAX);
                if c >= limit {
                    // Variables come after it.
                    if v.is_some_and(|v| v < limit) {
                        self.place_next_variable(e, b, block)?;
                        continue;
                    }
                    return Ok(());
                }
                self.next_constant += 1;
                // A constant already materialized earlier (in binary order)
                // already has its id where the serializer meets it first:
                // another copy here would be dead.
                if matches!(e.d.defs.get(&c), Some(Def::Constant { .. }))
                    && !e.materialized.contains(&c)
                {
                    let at = e.cfg.blocks[b].at;
                    e.use_value(c, at, super::emit::Sink::Content(b, block))?;
                }
            } else {
                if v.unwrap_or(u32::MAX) >= limit {
                    return Ok(());
                }
                self.place_next_variable(e, b, block)?;
            }
        }
    }

    fn place_next_variable(&mut self, e: &mut FnEmitter<'_>, b: usize, block: Block) -> Result<()> {
        let (_, inst, loc) = self.variables[self.next_variable].clone();
        self.next_variable += 1;
        let place = (block == e.entry_block).then_some((b, block));
        e.decode_variable(&inst, loc, place)
    }

    /// Places what no instruction reached: the variables and the
    /// constants numbered after every instruction but before the next
    /// function body's first label (dead ones the serializer met last),
    /// in id order, as an instruction keyed by that label would, in the
    /// last block (variables in the entry block when that is it, else at
    /// the start of the function). A variable numbered after that label
    /// (not kiln's output) goes to the start of the function first: its
    /// initializer must not be a constant placed further down.
    pub fn finish(mut self, e: &mut FnEmitter<'_>) -> Result<()> {
        while self.variables.last().is_some_and(|v| v.0 >= self.last_id)
            && self.next_variable < self.variables.len()
        {
            let Some((_, inst, loc)) = self.variables.pop() else {
                break;
            };
            e.decode_variable(&inst, loc, None)?;
        }
        if let Some((b, block)) = self.last {
            let last_id = self.last_id;
            self.reach(e, b, block, last_id, &Uses::default())?;
        }
        while self.next_variable < self.variables.len() {
            let (_, inst, loc) = self.variables[self.next_variable].clone();
            self.next_variable += 1;
            e.decode_variable(&inst, loc, None)?;
        }
        Ok(())
    }
}
