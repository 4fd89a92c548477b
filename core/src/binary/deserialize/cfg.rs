//! The control-flow graph of one function, as read: blocks in binary
//! order, their successors and predecessors, what is reachable from the
//! entry, which edges go back to a block on the depth-first path (the back
//! edges of loops), and the constructs the merge instructions declare.
//!
//! Everything here is iterative and linear in the function's size.

use super::error::{At, DeserializeError};
use super::reader::{Inst, Val};
use super::{FxHashSet, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::Opcode;
use crate::ir::Location;

/// One block of the binary: `OpLabel`, phis, body, merge instruction,
/// terminator.
#[derive(Debug)]
pub(super) struct SBlock {
    /// The label id.
    pub label: u32,
    /// The `OpLabel`.
    pub at: At,
    /// `OpPhi`s, in order.
    pub phis: Vec<Inst>,
    /// The other instructions with their locations.
    pub body: Vec<(Inst, Location)>,
    /// `OpSelectionMerge` / `OpLoopMerge`.
    pub merge: Option<Inst>,
    /// The terminator with its location.
    pub term: Option<(Inst, Location)>,
}

/// Whether a construct is a selection or a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `OpSelectionMerge`.
    Selection,
    /// `OpLoopMerge`.
    Loop,
}

/// A construct declared by a merge instruction.
#[derive(Clone, Debug)]
pub(super) struct Construct {
    /// Selection or loop.
    pub kind: Kind,
    /// The header block.
    pub header: usize,
    /// The merge block.
    pub merge: usize,
    /// The continue target (loops).
    pub cont: usize,
    /// Selection or loop control bits.
    pub control: u32,
    /// Literal parameters of the loop control bits.
    pub params: Vec<u32>,
}

/// The graph.
pub(super) struct Cfg {
    /// Blocks in binary order; the first is the entry.
    pub blocks: Vec<SBlock>,
    /// The block of each label.
    pub index: FxHashMap<u32, usize>,
    /// Successors of each block's terminator, in operand order (a target
    /// named twice appears twice).
    pub succs: Vec<Vec<usize>>,
    /// Distinct predecessors of each block.
    pub preds: Vec<Vec<usize>>,
    /// Whether each block is reachable from the entry.
    pub reachable: Vec<bool>,
    /// Edges `(from, to)` whose target is on the depth-first path.
    pub back_edges: FxHashSet<(usize, usize)>,
    /// The constructs, in header order.
    pub constructs: Vec<Construct>,
    /// The construct each block heads.
    pub header_of: Vec<Option<usize>>,
}

impl Cfg {
    /// Builds the graph of `blocks`.
    pub fn new(blocks: Vec<SBlock>) -> Result<Cfg> {
        let n = blocks.len();
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        for (i, b) in blocks.iter().enumerate() {
            if index.insert(b.label, i).is_some() {
                return Err(DeserializeError::Redefined {
                    at: b.at,
                    id: b.label,
                });
            }
        }
        let block_of = |inst: &Inst, id: u32| -> Result<usize> {
            index.get(&id).copied().ok_or(DeserializeError::WrongId {
                at: inst.at,
                id,
                expected: "a block of this function",
            })
        };
        let mut succs = Vec::with_capacity(n);
        for b in &blocks {
            let mut out = Vec::new();
            if let Some((term, _)) = &b.term {
                for id in successor_labels(term) {
                    out.push(block_of(term, id)?);
                }
            }
            succs.push(out);
        }
        let mut preds = vec![Vec::new(); n];
        for (i, s) in succs.iter().enumerate() {
            for &t in s {
                if preds[t].last() != Some(&i) {
                    preds[t].push(i);
                }
            }
        }
        let mut constructs = Vec::new();
        let mut header_of = vec![None; n];
        for (i, b) in blocks.iter().enumerate() {
            let Some(merge) = &b.merge else { continue };
            let term = b.term.as_ref().map(|(t, _)| t.desc.op);
            let kind = if merge.desc.op == Opcode::LoopMerge {
                Kind::Loop
            } else {
                Kind::Selection
            };
            let ok = match kind {
                Kind::Selection => matches!(term, Some(Opcode::BranchConditional | Opcode::Switch)),
                Kind::Loop => matches!(term, Some(Opcode::Branch | Opcode::BranchConditional)),
            };
            if !ok {
                return Err(DeserializeError::Unstructurable {
                    at: b.at,
                    block: b.label,
                    reason: format!(
                        "{} must be followed by {}, found Op{}",
                        merge.at.opname(),
                        if kind == Kind::Loop {
                            "OpBranch or OpBranchConditional"
                        } else {
                            "OpBranchConditional or OpSwitch"
                        },
                        term.map_or("", Opcode::name)
                    ),
                });
            }
            let merge_block = block_of(merge, merge.id(0).unwrap_or(0))?;
            let (cont, control, params) = match kind {
                Kind::Loop => {
                    let cont = block_of(merge, merge.id(1).unwrap_or(0))?;
                    let params = merge.operands[3..]
                        .iter()
                        .filter_map(|o| match o.val {
                            Val::Word(w) => Some(w),
                            _ => None,
                        })
                        .collect();
                    (cont, merge.word(2).unwrap_or(0), params)
                }
                Kind::Selection => (i, merge.word(1).unwrap_or(0), Vec::new()),
            };
            if merge_block == i {
                return Err(DeserializeError::Unstructurable {
                    at: b.at,
                    block: b.label,
                    reason: "the header is its own merge block".into(),
                });
            }
            header_of[i] = Some(constructs.len());
            constructs.push(Construct {
                kind,
                header: i,
                merge: merge_block,
                cont,
                control,
                params,
            });
        }
        let (reachable, back_edges) = depth_first(n, &succs);
        Ok(Cfg {
            blocks,
            index,
            succs,
            preds,
            reachable,
            back_edges,
            constructs,
            header_of,
        })
    }

    /// Whether `p` is the one predecessor entering `b` (not a back edge),
    /// counting the other predecessors only when they are reachable: `p`
    /// itself may be unreachable yet placed, e.g. the merge block of an
    /// endless loop continuing after it, which the serializer writes with
    /// an `OpBranch` to the header of the construct that follows.
    pub fn sole_entering_pred(&self, b: usize, p: usize) -> bool {
        self.preds[b]
            .iter()
            .copied()
            .filter(|&q| (q == p || self.reachable[q]) && !self.back_edges.contains(&(q, b)))
            .eq(std::iter::once(p))
    }

    /// The label of block `b`.
    pub fn label(&self, b: usize) -> u32 {
        self.blocks[b].label
    }
}

/// The labels a terminator branches to, in operand order.
pub(super) fn successor_labels(term: &Inst) -> Vec<u32> {
    match term.desc.op {
        Opcode::Branch => term.id(0).into_iter().collect(),
        Opcode::BranchConditional => [term.id(1), term.id(2)].into_iter().flatten().collect(),
        Opcode::Switch => term.ids_from(1).collect(),
        _ => Vec::new(),
    }
}

/// Reachability from block 0 and the edges that go back to a block on the
/// depth-first path, by an iterative depth-first search.
fn depth_first(n: usize, succs: &[Vec<usize>]) -> (Vec<bool>, FxHashSet<(usize, usize)>) {
    let mut reachable = vec![false; n];
    let mut on_path = vec![false; n];
    let mut back = FxHashSet::default();
    if n == 0 {
        return (reachable, back);
    }
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    reachable[0] = true;
    on_path[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&t) = succs[b].get(*next) {
            *next += 1;
            if on_path[t] {
                back.insert((b, t));
            } else if !reachable[t] {
                reachable[t] = true;
                on_path[t] = true;
                stack.push((t, 0));
            }
        } else {
            on_path[b] = false;
            stack.pop();
        }
    }
    (reachable, back)
}
