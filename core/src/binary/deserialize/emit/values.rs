//! Instructions: decoding each binary block's instructions in binary
//! order into its chain (step 2 of [`super`]), values of ids with
//! constants and module-level values materialized where they are used,
//! and function variables placed by [`crate::binary::deserialize::timeline`].

use super::{constant_op_holds, core, FnEmitter, Local, Sink};
use crate::binary::deserialize::error::{At, DeserializeError};
use crate::binary::deserialize::reader::Inst;
use crate::binary::deserialize::timeline::Uses;
use crate::binary::deserialize::{invalid, Def, Result};
use crate::grammar::{Decoration, Opcode, StorageClass};
use crate::ir::{Block, Location, Op, OpKind, OpSpec, Type, TypeKind, Value};
use rspirv::spirv::Op as SpvOp;

impl FnEmitter<'_> {
    /// The value of `id` for a use; constants and module-level values are
    /// materialized at `sink`.
    pub(in crate::binary::deserialize) fn use_value(
        &mut self,
        id: u32,
        at: At,
        sink: Sink,
    ) -> Result<Value> {
        let mut id = id;
        let mut hops = 0usize;
        loop {
            match self.locals.get(&id) {
                Some(Local::Value(v)) => return Ok(*v),
                Some(Local::Alias(next)) => {
                    hops += 1;
                    if hops > self.locals.len() {
                        return Err(DeserializeError::Invalid {
                            at,
                            reason: format!("%{id} is defined by a cycle of OpPhis"),
                        });
                    }
                    id = *next;
                }
                Some(Local::Dropped(def)) => {
                    return Err(DeserializeError::Unsupported {
                        at,
                        what: format!(
                            "%{id} is the result of a non-semantic instruction (word {})",
                            def.offset
                        ),
                    })
                }
                None => break,
            }
        }
        let cache_key = match sink {
            Sink::Content(_, block) => Some((block, id)),
            Sink::Prologue => Some((self.entry_block, id)),
            Sink::Before(_) => None,
        };
        if let Some(v) = cache_key.and_then(|k| self.cache.get(&k)) {
            return Ok(*v);
        }
        if cache_key.is_some() {
            if let Some(v) = self.top.get(&id) {
                return Ok(*v);
            }
        }
        let at_top = match sink {
            Sink::Prologue => true,
            Sink::Content(b, block) => b == 0 && block == self.entry_block && self.top_block,
            Sink::Before(_) => false,
        };
        let spec = match self.d.defs.get(&id).cloned() {
            Some(Def::Constant { ty, value }) if !constant_op_holds(&self.d.m.types, ty) => {
                let v = self.composite_constant(ty, value, sink, at)?;
                if let Some(k) = cache_key {
                    self.cache.insert(k, v);
                }
                if at_top {
                    self.top.insert(id, v);
                }
                self.materialized.insert(id);
                return Ok(v);
            }
            Some(Def::Constant { ty, value }) => OpSpec::new(OpKind::Constant)
                .attr("value", value)
                .results([ty]),
            Some(Def::Undef(ty)) => OpSpec::new(core(SpvOp::Undef)).results([ty]),
            Some(Def::Global { name, ty }) => {
                let a = self.d.m.attrs.symbol(name);
                OpSpec::new(OpKind::AddressOf)
                    .attr("variable", a)
                    .results([ty])
            }
            Some(Def::Spec { name, ty }) => {
                let a = self.d.m.attrs.symbol(name);
                OpSpec::new(OpKind::ReferenceOf)
                    .attr("spec_const", a)
                    .results([ty])
            }
            Some(_) => {
                return Err(DeserializeError::WrongId {
                    at,
                    id,
                    expected: "a value",
                })
            }
            None if self.defined_later.contains(&id) => {
                return Err(DeserializeError::Invalid {
                    at,
                    reason: format!(
                        "%{id} is used before its definition (blocks out of dominance order)"
                    ),
                })
            }
            None => return Err(DeserializeError::Undefined { at, id }),
        };
        let op = self.d.m.create_op(spec);
        let v = self.result(op);
        self.sink_op(sink, op);
        if let Some(k) = cache_key {
            self.cache.insert(k, v);
        }
        if at_top {
            self.top.insert(id, v);
        }
        self.materialized.insert(id);
        Ok(v)
    }

    /// A constant of a type `spv.Constant` cannot hold (a struct, a
    /// matrix, an array of those): `spv.CompositeConstruct` of its parts,
    /// built at `sink`.
    pub(super) fn composite_constant(
        &mut self,
        ty: Type,
        value: crate::ir::Attr,
        sink: Sink,
        at: At,
    ) -> Result<Value> {
        let parts: Vec<Type> = match self.d.m.types.kind(ty) {
            TypeKind::Struct(st) => st.members.iter().map(|m| m.ty).collect(),
            TypeKind::Matrix { columns, column } => vec![*column; *columns as usize],
            TypeKind::Array { len, element, .. } => vec![*element; *len as usize],
            _ => Vec::new(),
        };
        let items: Vec<crate::ir::Attr> = self
            .d
            .m
            .attrs
            .as_array(value)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        if parts.is_empty() || items.len() != parts.len() {
            return Err(DeserializeError::Unsupported {
                at,
                what: "a constant of this type".into(),
            });
        }
        let mut operands = Vec::with_capacity(parts.len());
        for (t, a) in parts.into_iter().zip(items) {
            let v = if constant_op_holds(&self.d.m.types, t) {
                let op = self
                    .d
                    .m
                    .create_op(OpSpec::new(OpKind::Constant).attr("value", a).results([t]));
                self.sink_op(sink, op);
                self.result(op)
            } else {
                self.composite_constant(t, a, sink, at)?
            };
            operands.push(v);
        }
        let op = self.d.m.create_op(
            OpSpec::new(core(SpvOp::CompositeConstruct))
                .operands(operands)
                .results([ty]),
        );
        self.sink_op(sink, op);
        Ok(self.result(op))
    }

    /// Puts a materialized op at `sink`.
    pub(super) fn sink_op(&mut self, sink: Sink, op: Op) {
        match sink {
            Sink::Content(b, _) => self.buffers[b].push(op),
            Sink::Prologue => self.prologue.push(op),
            Sink::Before(anchor) => self.pre.entry(anchor).or_default().push(op),
        }
    }

    /// Defines function id `id` as `v`.
    pub(super) fn define_local(&mut self, id: u32, v: Local, at: At) -> Result<()> {
        if self.d.defs.contains_key(&id) || self.locals.contains_key(&id) {
            return Err(DeserializeError::Redefined { at, id });
        }
        self.locals.insert(id, v);
        Ok(())
    }

    pub(super) fn decode_blocks(&mut self) -> Result<()> {
        self.top_block = self.home.first() == Some(&Some(self.entry_block))
            && matches!(
                self.layout.get(&self.entry_block).and_then(|l| l.first()),
                Some(super::Item::Content(0))
            );
        let mut timeline = self.timeline();
        for b in 0..self.cfg.blocks.len() {
            let Some(block) = self.home[b] else {
                if self.plan.member[b].is_some() {
                    return Err(self.unstructurable(b, "internal: block not placed".into()));
                }
                continue;
            };
            self.check_block_decorations(b)?;
            let label = self.cfg.label(b);
            let key = timeline.key_of_label(label);
            timeline.reach(self, b, block, key, &Uses::default())?;
            let phi_keys: Vec<u32> = self.cfg.blocks[b]
                .phis
                .iter()
                .filter_map(|p| p.result)
                .collect();
            for k in phi_keys {
                timeline.reach(self, b, block, k, &Uses::default())?;
            }
            let body = std::mem::take(&mut self.cfg.blocks[b].body);
            for (inst, loc) in &body {
                if inst.desc.op == Opcode::Variable {
                    continue;
                }
                let used = Uses::of(inst);
                let key = inst.result.unwrap_or(0);
                timeline.reach(self, b, block, key, &used)?;
                self.decode_body_instruction(b, block, inst, *loc)?;
            }
            self.cfg.blocks[b].body = body;
            let mut labels: Vec<u32> = Vec::new();
            if let Some(m) = &self.cfg.blocks[b].merge {
                labels.extend([m.id(0), m.id(1)].into_iter().flatten());
            }
            if let Some((t, _)) = &self.cfg.blocks[b].term {
                labels.extend(crate::binary::deserialize::cfg::successor_labels(t));
            }
            let mut key = labels
                .into_iter()
                .map(|l| timeline.key_of_label(l))
                .filter(|&k| k != 0)
                .min()
                .unwrap_or(0);
            // The serializer writes the next block right after this
            // terminator: what it numbered before that block's label (or,
            // named already, its first phi) came before the terminator.
            if let Some(next) = (b + 1..self.cfg.blocks.len()).find(|&n| self.home[n].is_some()) {
                let first_phi = self.cfg.blocks[next].phis.iter().find_map(|p| p.result);
                let start = timeline.start_key(self.cfg.label(next), first_phi);
                if start != 0 && (key == 0 || start < key) {
                    key = start;
                }
            }
            let used = self.cfg.blocks[b]
                .term
                .as_ref()
                .map(|(t, _)| Uses::of(t))
                .unwrap_or_default();
            timeline.reach(self, b, block, key, &used)?;
            if self.ends_block[b] {
                let term_block = self.term_home[b].unwrap_or(block);
                self.decode_terminator(b, term_block)?;
            }
        }
        timeline.finish(self)
    }

    /// Decorations of labels and phis: `RelaxedPrecision` on a phi is a
    /// hint a block argument cannot carry and is dropped; others are errors.
    pub(super) fn check_block_decorations(&mut self, b: usize) -> Result<()> {
        let label = self.cfg.label(b);
        if let Some(d) = self.d.decorations.take(label).first() {
            return Err(DeserializeError::Unsupported {
                at: d.at,
                what: format!("decoration {} on a block label", d.decoration),
            });
        }
        let ids: Vec<u32> = self.cfg.blocks[b]
            .phis
            .iter()
            .filter_map(|p| p.result)
            .collect();
        for id in ids {
            for d in self.d.decorations.take(id) {
                if d.decoration != Decoration::RelaxedPrecision {
                    return Err(DeserializeError::Unsupported {
                        at: d.at,
                        what: format!("decoration {} on an OpPhi (a block argument)", d.decoration),
                    });
                }
            }
            if !self.locals.contains_key(&id) {
                return Err(self.unstructurable(b, "internal: phi not bound".into()));
            }
        }
        Ok(())
    }

    pub(super) fn decode_body_instruction(
        &mut self,
        b: usize,
        block: Block,
        inst: &Inst,
        loc: Location,
    ) -> Result<()> {
        let Some((spec, result)) = self.decode_op(inst, loc, Sink::Content(b, block))? else {
            if let Some(id) = inst.result {
                self.define_local(id, Local::Dropped(inst.at), inst.at)?;
            }
            return Ok(());
        };
        // A bitcast between two types the IR reads as one (`int` and
        // `uint` of a module that mixes them) is the identity.
        if spec.kind == core(SpvOp::Bitcast)
            && spec.operands.len() == 1
            && spec.result_types.first() == Some(&self.d.m.value_type(spec.operands[0]))
        {
            if let Some(id) = result {
                self.define_local(id, Local::Value(spec.operands[0]), inst.at)?;
            }
            return Ok(());
        }
        let op = self.d.m.create_op(spec);
        let origin = (self.cfg.blocks[b].at, self.cfg.label(b));
        self.d.op_origin.insert(op, origin);
        self.buffers[b].push(op);
        if let Some(id) = result {
            match self.d.m.op(op).result() {
                Some(v) => self.define_local(id, Local::Value(v), inst.at)?,
                None => self.define_local(id, Local::Dropped(inst.at), inst.at)?,
            }
        }
        Ok(())
    }

    /// A function variable: at the end of binary block `b`'s ops in IR
    /// block `block` (the function's entry block), or at the start of the
    /// function.
    pub(in crate::binary::deserialize) fn decode_variable(
        &mut self,
        inst: &Inst,
        loc: Location,
        place: Option<(usize, Block)>,
    ) -> Result<()> {
        if inst.word(0) != Some(StorageClass::Function as u32) {
            return Err(invalid(
                inst,
                "a variable inside a function must be in the Function storage class",
            ));
        }
        let sink = match place {
            Some((b, block)) => Sink::Content(b, block),
            None => Sink::Prologue,
        };
        let Some((spec, result)) = self.decode_op(inst, loc, sink)? else {
            return Err(invalid(inst, "a variable cannot be dropped"));
        };
        let op = self.d.m.create_op(spec);
        match place {
            Some((b, _)) => self.buffers[b].push(op),
            None => self.prologue.push(op),
        }
        if let (Some(id), Some(v)) = (result, self.d.m.op(op).result()) {
            self.define_local(id, Local::Value(v), inst.at)?;
        }
        Ok(())
    }
}
