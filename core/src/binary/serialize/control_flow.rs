//! Functions and control flow: `spv.func` bodies, structured selections and
//! loops flattened into blocks with merge instructions, and block arguments
//! turned into `OpPhi`.
//!
//! Blocks of a region are emitted in depth-first preorder of the branch
//! graph from the region's entry (MLIR's "pretty block order"), so every
//! block follows the blocks that dominate it; blocks that cannot be reached
//! are dropped.
//!
//! * `spv.mlir.selection`: the current block branches to the region's header
//!   block; `OpSelectionMerge %merge control` is emitted right before the
//!   header's terminator; then the other blocks except the merge block;
//!   then the merge block's label starts a new block that holds the ops
//!   following the selection.
//! * `spv.mlir.loop`: the entry block's ops go into the current block, whose
//!   branch enters the header block; `OpLoopMerge %merge %continue control`
//!   precedes the header's terminator (or, when the header itself holds a
//!   nested construct, comes first and is followed by a branch to a fresh
//!   block, since `OpLoopMerge` must stay in the back edge's target); then
//!   the body blocks, the continue block (second to last) and blocks only
//!   it reaches; then, as for selections, the merge label.
//! * `spv.mlir.merge`: `OpBranch` to the enclosing construct's merge label.
//! * Block arguments: one `OpPhi` per argument at the start of the block.
//!   Its (value, parent) pairs come from every branch that targets the
//!   block, where the parent is the label of the SPIR-V block the branch is
//!   emitted in. After a nested construct that is the construct's merge
//!   label rather than the source-level block, which is why the pairs are
//!   collected while emitting and the phis completed at the end of the
//!   function.
//! * Every `spv.Variable` of the function, wherever it is, is hoisted to the
//!   start of the entry block, as SPIR-V requires.

use std::collections::HashSet;

use rspirv::dr::{self, Instruction, Operand};
use rspirv::spirv;

use super::tables::FxHashMap;
use super::{inst, OpProblem, Result, Serializer, MAX_CONSTRUCT_DEPTH};
use crate::grammar::OperandKind;
use crate::ir::{AttrKind, Block, Op, OpKind, Value};

/// Per-function emission state.
#[derive(Default)]
pub(super) struct FnState {
    /// Finished blocks.
    blocks: Vec<dr::Block>,
    /// The block being filled.
    current: dr::Block,
    /// Label of the block being filled.
    current_label: u32,
    /// Hoisted `OpVariable`s.
    vars: Vec<Instruction>,
    /// Phis whose operands are filled in at the end.
    phis: Vec<PendingPhi>,
    /// For each block with arguments: (parent label, values passed).
    incoming: FxHashMap<Block, Vec<(u32, Vec<Value>)>>,
    /// Values used before their definition, with their first user.
    pub(super) pending: FxHashMap<Value, Op>,
    /// Function-local values given an id; forgotten at the end of the
    /// function so that a use from another function is caught.
    pub(super) locals: Vec<Value>,
    /// Constructs (selections, loops) being emitted around the current op.
    depth: usize,
}

/// An `OpPhi` awaiting its operands.
struct PendingPhi {
    block_index: usize,
    inst_index: usize,
    block: Block,
    arg: usize,
}

/// The merge instruction a header block must carry.
#[derive(Clone)]
enum MergeInst {
    Selection {
        merge: u32,
        control: u32,
    },
    Loop {
        merge: u32,
        cont: u32,
        control: u32,
        /// Literal parameters of the control bits (`DependencyLength 4`).
        params: Vec<Operand>,
    },
}

impl Serializer<'_> {
    /// The label id of `block`.
    pub(super) fn block_id(&mut self, block: Block) -> u32 {
        if let Some(id) = self.block_ids.get(block) {
            return id;
        }
        let id = self.next_id();
        self.block_ids.insert(block, id);
        id
    }

    /// Appends `i` to the block being filled.
    fn emit(&mut self, i: Instruction) {
        self.func.current.instructions.push(i);
    }

    /// Starts a new block labelled `label`.
    fn start_block(&mut self, label: u32) {
        let done = std::mem::take(&mut self.func.current);
        if done.label.is_some() {
            self.func.blocks.push(done);
        }
        self.func.current.label = Some(inst(spirv::Op::Label, None, Some(label), vec![]));
        self.func.current_label = label;
    }

    /// Records that the block being filled passes `args` to `target`.
    pub(super) fn record_incoming(&mut self, op: Op, target: Block, args: &[Value]) -> Result<()> {
        let expected = self.m.block(target).args.len();
        if expected != args.len() {
            return Err(self.err(
                op,
                OpProblem::BlockArgs {
                    expected,
                    found: args.len(),
                },
            ));
        }
        if expected == 0 {
            return Ok(());
        }
        let label = self.func.current_label;
        let list = self.func.incoming.entry(target).or_default();
        match list.iter().find(|(l, _)| *l == label) {
            Some((_, prev)) if prev.as_slice() != args => Err(self.err(
                op,
                OpProblem::Structure(
                    "two edges from one block pass different values to the same block".into(),
                ),
            )),
            Some(_) => Ok(()),
            None => {
                list.push((label, args.to_vec()));
                Ok(())
            }
        }
    }

    // ---- functions ----------------------------------------------------------

    /// `spv.func` -> `OpFunction`, parameters, blocks, `OpFunctionEnd`.
    pub(super) fn process_func(&mut self, op: Op) -> Result<()> {
        let name = self
            .m
            .symbol_name(op)
            .ok_or_else(|| self.err(op, OpProblem::MissingAttr("sym_name".into())))?
            .to_string();
        let fn_id = self
            .symbol_ids
            .get(&name)
            .copied()
            .ok_or_else(|| self.err(op, OpProblem::UnknownSymbol(name.clone())))?;
        let fty_attr = self.required_attr(op, "function_type")?;
        let fty = self
            .m
            .attrs
            .as_type(fty_attr)
            .ok_or_else(|| self.bad_attr(op, "function_type", "a function type"))?;
        let crate::ir::TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone()
        else {
            return Err(self.bad_attr(op, "function_type", "a function type"));
        };
        let ret_id = match results.as_slice() {
            [] => self.prepare_void_type(),
            [r] => self.prepare_type(op, *r)?,
            _ => {
                return Err(self.err(
                    op,
                    OpProblem::Unsupported("functions with more than one result".into()),
                ))
            }
        };
        let fty_id = self.prepare_function_type(op, &inputs, &results)?;
        let control = self
            .enum_attr(op, "function_control", OperandKind::FunctionControl)?
            .unwrap_or(0);
        self.emit_name(fn_id, &name);

        self.func = FnState::default();
        let region = self.m.op(op).regions.first().copied();
        let blocks: Vec<Block> = region
            .map(|r| self.m.region(r).blocks.clone())
            .unwrap_or_default();

        let mut parameters = Vec::with_capacity(inputs.len());
        let entry_args: Vec<Value> = blocks
            .first()
            .map(|&b| self.m.block(b).args.clone())
            .unwrap_or_default();
        if !blocks.is_empty() && entry_args.len() != inputs.len() {
            return Err(self.err(
                op,
                OpProblem::Structure(format!(
                    "function type has {} inputs but the entry block {} arguments",
                    inputs.len(),
                    entry_args.len()
                )),
            ));
        }
        for (i, &ty) in inputs.iter().enumerate() {
            let ty_id = self.prepare_type(op, ty)?;
            let id = match entry_args.get(i) {
                Some(&arg) => self.define_value(arg),
                None => self.next_id(),
            };
            parameters.push(inst(
                spirv::Op::FunctionParameter,
                Some(ty_id),
                Some(id),
                vec![],
            ));
            self.process_param_decorations(op, i, id)?;
        }

        if let Some(&entry) = blocks.first() {
            let label = self.block_id(entry);
            self.start_block(label);
            self.process_block_ops(entry, None)?;
            let mut visited: HashSet<Block> = HashSet::from([entry]);
            for b in self.pretty_order(entry, &mut visited) {
                self.process_block(b, None)?;
            }
        }
        let body = self.finish_function(op)?;

        self.functions.push(dr::Function {
            def: Some(inst(
                spirv::Op::Function,
                Some(ret_id),
                Some(fn_id),
                vec![Operand::LiteralBit32(control), Operand::IdRef(fty_id)],
            )),
            end: Some(inst(spirv::Op::FunctionEnd, None, None, vec![])),
            parameters,
            blocks: body,
        });
        self.process_decorations(op, fn_id, &|n| {
            matches!(
                n,
                "sym_name"
                    | "function_type"
                    | "function_control"
                    | "arg_attrs"
                    | "res_attrs"
                    | "sym_visibility"
                    | "linkage_attributes"
                    | "workgroup_attributions"
            )
        })
    }

    /// `spirv.decoration = #spv.decoration<X>` entries of `arg_attrs[index]`.
    fn process_param_decorations(&mut self, op: Op, index: usize, id: u32) -> Result<()> {
        let Some(arg_attrs) = self.m.attr(op, "arg_attrs") else {
            return Ok(());
        };
        let Some(dicts) = self.m.attrs.as_array(arg_attrs) else {
            return Err(self.bad_attr(op, "arg_attrs", "an array of dictionaries"));
        };
        let Some(&dict) = dicts.get(index) else {
            return Ok(());
        };
        let AttrKind::Dict(entries) = self.m.attrs.kind(dict).clone() else {
            return Err(self.bad_attr(op, "arg_attrs", "an array of dictionaries"));
        };
        for (key, value) in entries {
            if key != "spirv.decoration" && key != "spv.decoration" {
                continue;
            }
            let name = match self.m.attrs.kind(value) {
                AttrKind::Dialect { name, body } if name == "decoration" => body.trim().to_string(),
                AttrKind::Enum {
                    kind: OperandKind::Decoration,
                    value,
                } => crate::grammar::Decoration::from_u32(*value)
                    .map(|d| d.name().to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let Some(decoration) = crate::grammar::Decoration::from_name(&name) else {
                return Err(self.err(
                    op,
                    OpProblem::Decoration {
                        name: key,
                        reason: format!("'{name}' on parameter {index} is not a decoration"),
                    },
                ));
            };
            if !decoration.desc().parameters.is_empty() {
                return Err(self.err(
                    op,
                    OpProblem::Decoration {
                        name: key,
                        reason: format!("{name} on a parameter needs operands"),
                    },
                ));
            }
            self.emit_decorate(id, decoration, Vec::new());
        }
        Ok(())
    }

    /// Completes the phis, checks that every used value was defined, and
    /// puts the hoisted variables at the start of the entry block.
    fn finish_function(&mut self, op: Op) -> Result<Vec<dr::Block>> {
        let done = std::mem::take(&mut self.func.current);
        if done.label.is_some() {
            self.func.blocks.push(done);
        }
        let phis = std::mem::take(&mut self.func.phis);
        for phi in phis {
            let incoming = self
                .func
                .incoming
                .get(&phi.block)
                .cloned()
                .unwrap_or_default();
            if incoming.is_empty() {
                return Err(self.err(
                    op,
                    OpProblem::Structure(
                        "a block with arguments has no branch passing them".into(),
                    ),
                ));
            }
            let mut operands = Vec::with_capacity(incoming.len() * 2);
            for (label, values) in incoming {
                operands.push(Operand::IdRef(self.prepare_value(op, values[phi.arg])?));
                operands.push(Operand::IdRef(label));
            }
            self.func.blocks[phi.block_index].instructions[phi.inst_index].operands = operands;
        }
        if let Some((_, &user)) = self.func.pending.iter().min_by_key(|(v, _)| **v) {
            return Err(self.err(user, OpProblem::UndefinedValue));
        }
        for v in std::mem::take(&mut self.func.locals) {
            self.value_ids.remove(v);
        }
        let mut blocks = std::mem::take(&mut self.func.blocks);
        let vars = std::mem::take(&mut self.func.vars);
        if let Some(first) = blocks.first_mut() {
            first.instructions.splice(0..0, vars);
        }
        Ok(blocks)
    }

    // ---- blocks ---------------------------------------------------------------

    /// The blocks reachable from `from` in depth-first preorder, skipping
    /// (and marking) those in `visited`.
    fn pretty_order(&self, from: Block, visited: &mut HashSet<Block>) -> Vec<Block> {
        let mut order = Vec::new();
        let mut stack: Vec<(Block, usize)> = vec![(from, 0)];
        while let Some((block, next)) = stack.pop() {
            let succs = self.successors(block);
            if let Some(&s) = succs.get(next) {
                stack.push((block, next + 1));
                if visited.insert(s) {
                    order.push(s);
                    stack.push((s, 0));
                }
            }
        }
        order
    }

    /// Successor blocks of `block`'s terminator, in order.
    fn successors(&self, block: Block) -> Vec<Block> {
        self.m
            .block(block)
            .ops
            .last()
            .map(|&t| self.m.op(t).successors.iter().map(|s| s.block).collect())
            .unwrap_or_default()
    }

    /// Emits `block`: its label, phis, ops, and `merge` before the
    /// terminator when it is a construct header.
    fn process_block(&mut self, block: Block, merge: Option<MergeInst>) -> Result<()> {
        let label = self.block_id(block);
        self.start_block(label);
        let m = self.m;
        let args = &m.block(block).args;
        let owner = m.block_parent_op(block).unwrap_or(m.top());
        for (i, &arg) in args.iter().enumerate() {
            let ty = self.prepare_value_type(owner, arg)?;
            let id = self.define_value(arg);
            self.func.phis.push(PendingPhi {
                block_index: self.func.blocks.len(),
                inst_index: self.func.current.instructions.len(),
                block,
                arg: i,
            });
            self.emit(inst(spirv::Op::Phi, Some(ty), Some(id), vec![]));
        }
        self.process_block_ops(block, merge)
    }

    /// The ops of `block` into the current block(s).
    fn process_block_ops(&mut self, block: Block, mut merge: Option<MergeInst>) -> Result<()> {
        let m = self.m;
        let ops = &m.block(block).ops;
        let Some((&terminator, body)) = ops.split_last() else {
            return Err(self.structure_err_for_block(block, "block has no terminator"));
        };
        if !m.op(terminator).kind.is_terminator() {
            return Err(self.err(
                terminator,
                OpProblem::Structure("the last op of a block must be a terminator".into()),
            ));
        }
        // A loop header holding a nested construct: the merge instruction
        // must stay in the header, so emit it now and continue in a new block.
        if let Some(loop_merge @ MergeInst::Loop { .. }) = &merge {
            let nested = body
                .iter()
                .any(|&o| matches!(m.op(o).kind, OpKind::Selection | OpKind::Loop));
            if nested {
                self.emit_merge(loop_merge.clone());
                let next = self.next_id();
                self.emit(inst(
                    spirv::Op::Branch,
                    None,
                    None,
                    vec![Operand::IdRef(next)],
                ));
                self.start_block(next);
                merge = None;
            }
        }
        for &op in body {
            let data = m.op(op);
            if !data.successors.is_empty() || data.kind == OpKind::Merge {
                return Err(self.err(
                    op,
                    OpProblem::Structure("terminator in the middle of a block".into()),
                ));
            }
            self.process_function_op(op)?;
        }
        if let Some(header_merge) = merge {
            self.emit_merge(header_merge);
        }
        self.process_function_op(terminator)
    }

    fn emit_merge(&mut self, merge: MergeInst) {
        let i = match merge {
            MergeInst::Selection { merge, control } => inst(
                spirv::Op::SelectionMerge,
                None,
                None,
                vec![Operand::IdRef(merge), Operand::LiteralBit32(control)],
            ),
            MergeInst::Loop {
                merge,
                cont,
                control,
                params,
            } => {
                let mut operands = vec![
                    Operand::IdRef(merge),
                    Operand::IdRef(cont),
                    Operand::LiteralBit32(control),
                ];
                operands.extend(params);
                inst(spirv::Op::LoopMerge, None, None, operands)
            }
        };
        self.emit(i);
    }

    fn structure_err_for_block(&self, block: Block, what: &str) -> super::SerializeError {
        let owner = self.m.block_parent_op(block).unwrap_or(self.m.top());
        self.err(owner, OpProblem::Structure(what.to_string()))
    }

    /// One op inside a function.
    fn process_function_op(&mut self, op: Op) -> Result<()> {
        let m = self.m;
        match m.op(op).kind {
            OpKind::Constant => {
                self.prepare_constant(op)?;
            }
            OpKind::AddressOf | OpKind::ReferenceOf => {
                if let Some(v) = self.m.op(op).result() {
                    self.prepare_value(op, v)?;
                }
            }
            OpKind::Selection => self.process_selection(op)?,
            OpKind::Loop => self.process_loop(op)?,
            OpKind::Merge => {
                if !self.m.op(op).operands.is_empty() {
                    return Err(self.err(
                        op,
                        OpProblem::Unsupported("values yielded by spv.mlir.merge".into()),
                    ));
                }
                let construct = self
                    .m
                    .parent_op(op)
                    .filter(|&p| matches!(self.m.op(p).kind, OpKind::Selection | OpKind::Loop));
                let Some(construct) = construct else {
                    return Err(self.err(
                        op,
                        OpProblem::Structure(
                            "spv.mlir.merge outside a selection or loop region".into(),
                        ),
                    ));
                };
                let merge = self.construct_blocks(construct)?.merge;
                let label = self.block_id(merge);
                self.emit(inst(
                    spirv::Op::Branch,
                    None,
                    None,
                    vec![Operand::IdRef(label)],
                ));
            }
            OpKind::Core(opcode) => {
                let i = self.prepare_core_op(op, opcode)?;
                self.check_word_count(op, &i)?;
                if opcode == spirv::Op::Variable as u16 {
                    self.func.vars.push(i);
                } else {
                    self.emit(i);
                }
            }
            OpKind::Glsl(number) => {
                let i = self.prepare_glsl_op(op, number)?;
                self.check_word_count(op, &i)?;
                self.emit(i);
            }
            _ => {
                return Err(self.err(
                    op,
                    OpProblem::Structure("op is not allowed inside a function".into()),
                ))
            }
        }
        Ok(())
    }

    // ---- structured control flow ------------------------------------------

    /// The blocks of a selection or loop region, checked.
    fn construct_blocks(&self, op: Op) -> Result<ConstructBlocks> {
        let is_loop = self.m.op(op).kind == OpKind::Loop;
        let Some(&region) = self.m.op(op).regions.first() else {
            return Err(self.err(op, OpProblem::Structure("construct without region".into())));
        };
        let blocks = &self.m.region(region).blocks;
        let min = if is_loop { 3 } else { 2 };
        if blocks.len() < min {
            return Err(self.err(
                op,
                OpProblem::Structure(format!(
                    "the region needs at least {min} blocks, has {}",
                    blocks.len()
                )),
            ));
        }
        let merge = blocks[blocks.len() - 1];
        let merge_data = self.m.block(merge);
        let only_merge = merge_data.ops.len() == 1
            && self.m.op(merge_data.ops[0]).kind == OpKind::Merge
            && merge_data.args.is_empty();
        if !only_merge {
            return Err(self.err(
                op,
                OpProblem::Structure(
                    "the last block of the region must hold only spv.mlir.merge".into(),
                ),
            ));
        }
        Ok(ConstructBlocks {
            entry: blocks[0],
            header: if is_loop { blocks[1] } else { blocks[0] },
            cont: blocks[blocks.len() - 2],
            merge,
        })
    }

    /// Enters construct `op`: an error past [`MAX_CONSTRUCT_DEPTH`] (the
    /// serializer recurses once per level; a bound keeps the stack small).
    fn enter_construct(&mut self, op: Op) -> Result<()> {
        if self.func.depth >= MAX_CONSTRUCT_DEPTH {
            return Err(self.err(op, OpProblem::TooDeep(MAX_CONSTRUCT_DEPTH)));
        }
        self.func.depth += 1;
        Ok(())
    }

    /// `spv.mlir.selection`.
    fn process_selection(&mut self, op: Op) -> Result<()> {
        self.enter_construct(op)?;
        self.selection(op)?;
        self.func.depth -= 1;
        Ok(())
    }

    fn selection(&mut self, op: Op) -> Result<()> {
        let c = self.construct_blocks(op)?;
        let control = self
            .enum_attr(op, "selection_control", OperandKind::SelectionControl)?
            .unwrap_or(0);
        let header = self.block_id(c.header);
        let merge = self.block_id(c.merge);
        self.emit(inst(
            spirv::Op::Branch,
            None,
            None,
            vec![Operand::IdRef(header)],
        ));
        self.process_block(c.header, Some(MergeInst::Selection { merge, control }))?;
        let mut visited: HashSet<Block> = HashSet::from([c.header, c.merge]);
        for b in self.pretty_order(c.header, &mut visited) {
            self.process_block(b, None)?;
        }
        self.start_block(merge);
        Ok(())
    }

    /// `spv.mlir.loop`.
    fn process_loop(&mut self, op: Op) -> Result<()> {
        self.enter_construct(op)?;
        self.loop_(op)?;
        self.func.depth -= 1;
        Ok(())
    }

    fn loop_(&mut self, op: Op) -> Result<()> {
        let c = self.construct_blocks(op)?;
        let control = self
            .enum_attr(op, "loop_control", OperandKind::LoopControl)?
            .unwrap_or(0);
        if !self.m.block(c.entry).args.is_empty() {
            return Err(self.err(
                op,
                OpProblem::Structure("the loop's entry block must not have arguments".into()),
            ));
        }
        // The entry block's ops run in the block the loop is in; its branch
        // enters the header.
        let m = self.m;
        let entry_ops = &m.block(c.entry).ops;
        let enters_header = entry_ops.last().is_some_and(|&t| {
            let t = m.op(t);
            t.kind == OpKind::Core(spirv::Op::Branch as u16)
                && t.successors.first().is_some_and(|s| s.block == c.header)
        });
        if !enters_header {
            return Err(self.err(
                op,
                OpProblem::Structure(
                    "the loop's entry block must end in a branch to the header (second) block"
                        .into(),
                ),
            ));
        }
        let params = self.prepare_enum_params(
            op,
            "loop_control",
            OperandKind::LoopControl,
            control,
            &[],
            &mut 0,
        )?;
        let merge = self.block_id(c.merge);
        let cont = self.block_id(c.cont);
        self.process_block_ops(c.entry, None)?;
        let header_merge = MergeInst::Loop {
            merge,
            cont,
            control,
            params,
        };
        self.process_block(c.header, Some(header_merge))?;
        let mut visited: HashSet<Block> = HashSet::from([c.entry, c.header, c.cont, c.merge]);
        for b in self.pretty_order(c.header, &mut visited) {
            self.process_block(b, None)?;
        }
        if c.cont != c.header {
            self.process_block(c.cont, None)?;
            for b in self.pretty_order(c.cont, &mut visited) {
                self.process_block(b, None)?;
            }
        }
        self.start_block(merge);
        Ok(())
    }
}

/// The roles of a construct region's blocks.
struct ConstructBlocks {
    /// First block (a loop's entry; a selection's header).
    entry: Block,
    /// The header (second block of a loop).
    header: Block,
    /// The continue block of a loop (second to last).
    cont: Block,
    /// The merge block (last).
    merge: Block,
}
