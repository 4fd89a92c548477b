//! Stage 3: bufferization. Every tensor that lives in memory gets a
//! buffer: sources (arguments, constants) their own, each value a dispatch
//! stores a fresh one — or, in place, the buffer of the `outs` operand it
//! overwrites when nothing else reads that operand — and views
//! ([`ValueFate::Alias`]) the buffer of what they view. No copies are
//! made: a reshape of contiguous data is the same buffer, and a value the
//! function returns is read back from wherever it lives.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};

use super::analysis::{FuncInfo, UseKind};
use super::host::Size;
use super::regions::{FuncRegions, ValueFate};
use super::shapes::Shapes;

/// Bytes per element of `elem` in a buffer.
pub fn element_bytes(elem: ElemType) -> usize {
    match elem {
        ElemType::Int(1) | ElemType::Int(8) => 1,
        ElemType::Int(16) | ElemType::F16 | ElemType::BF16 => 2,
        ElemType::Int(64) | ElemType::F64 | ElemType::Index => 8,
        _ => 4,
    }
}

/// A buffer's handle.
pub type BufferId = usize;

/// Where a buffer's contents come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BufferOrigin {
    /// Function argument `i`.
    Argument(usize),
    /// A constant (dense, unfoldable or dynamic) defined by this op.
    Constant(TOp),
    /// Written by dispatch `i`.
    Dispatch(usize),
    /// Scratch space of dispatch `i` (partial results between its
    /// kernels).
    Scratch(usize),
    /// The function's fault word (one `i32`, zero before the call): a
    /// kernel that finds a run-time index out of bounds stores the number
    /// of the fault site plus one (see
    /// [`FaultSite`](super::program::FaultSite)).
    Fault,
}

/// One buffer.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BufferInfo {
    /// Its element type.
    pub elem: ElemType,
    /// Its shape (elements: the product).
    pub shape: Vec<Size>,
    /// Where its contents come from.
    pub origin: BufferOrigin,
}

/// The buffers of a function.
#[derive(Clone, Debug, Default)]
pub struct BufferPlan {
    /// The buffers.
    pub buffers: Vec<BufferInfo>,
    /// The buffer of each value in memory.
    pub of_value: HashMap<TValue, BufferId>,
    /// `(stored value, outs value)` pairs written in place.
    pub in_place: Vec<(TValue, TValue)>,
    /// The fault word's buffer, where the function has fault sites.
    pub fault: Option<BufferId>,
    /// The ops whose run-time indices kernels check (fault site `i` is
    /// `fault_sites[i]`).
    pub fault_sites: Vec<TOp>,
    /// The most bytes each buffer sized at run time that a kernel binds
    /// as a storage buffer may have: the least over the dispatches that
    /// bind it, `N` chunks for one with a `_chunked` variant, the
    /// `maxStorageBufferRange` for one without
    /// (`strategy/planner/chunks.rs`).
    pub run_time_limits: HashMap<BufferId, u64>,
}

impl BufferPlan {
    /// The buffer of `v`, if it lives in memory.
    pub fn buffer(&self, v: TValue) -> Option<BufferId> {
        self.of_value.get(&v).copied()
    }

    /// Adds a buffer.
    pub fn add(&mut self, info: BufferInfo) -> BufferId {
        self.buffers.push(info);
        self.buffers.len() - 1
    }
}

/// Assigns buffers to the values of a function that live in memory.
pub fn bufferize(info: &FuncInfo<'_>, regions: &FuncRegions, shapes: &Shapes) -> BufferPlan {
    let m = info.m;
    let mut plan = BufferPlan::default();
    let elem = |v: TValue| m.value_kind(v).elem();
    for (i, &a) in m.block(info.body).args.iter().enumerate() {
        if info.is_tensor(a) {
            let b = plan.add(BufferInfo {
                elem: elem(a),
                shape: shapes.of(a).to_vec(),
                origin: BufferOrigin::Argument(i),
            });
            plan.of_value.insert(a, b);
        }
    }
    for &op in &info.ops {
        for &r in &m.op(op).results {
            match regions.fate(r) {
                ValueFate::Source => {
                    let b = plan.add(BufferInfo {
                        elem: elem(r),
                        shape: shapes.of(r).to_vec(),
                        origin: BufferOrigin::Constant(op),
                    });
                    plan.of_value.insert(r, b);
                }
                ValueFate::Alias(src) => {
                    if let Some(b) = plan.buffer(src) {
                        plan.of_value.insert(r, b);
                    }
                }
                ValueFate::Stored(d) => {
                    let reuse = in_place_operand(info, regions, op, r)
                        .and_then(|init| plan.buffer(init).map(|b| (init, b)));
                    let b = match reuse {
                        Some((init, b)) => {
                            plan.in_place.push((r, init));
                            b
                        }
                        None => plan.add(BufferInfo {
                            elem: elem(r),
                            shape: shapes.of(r).to_vec(),
                            origin: BufferOrigin::Dispatch(d),
                        }),
                    };
                    plan.of_value.insert(r, b);
                }
                _ => {}
            }
        }
    }
    plan
}

/// The `outs` operand whose buffer stored result `r` of `op` may reuse:
/// the operand is stored by an earlier dispatch (not a source, not a
/// view), this op is its only use, and it has `r`'s type.
fn in_place_operand(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    op: TOp,
    r: TValue,
) -> Option<TValue> {
    let s = info.structured.get(&op)?;
    let j = info.result_index(r);
    let init = *s.outputs.get(j)?;
    if !matches!(regions.fate(init), ValueFate::Stored(_)) {
        return None;
    }
    let m = info.m;
    if m.value_type(init) != m.value_type(r) {
        return None;
    }
    // Its only use: this op's outs operand (and it is no other operand).
    let uses = info.uses_of(init);
    let only_here = uses.len() == 1
        && uses[0].user == op
        && matches!(uses[0].kind, UseKind::Operand(i) if i == s.inputs.len() + j);
    // Nothing else aliases its buffer.
    let aliased = regions.fates.values().any(|f| *f == ValueFate::Alias(init));
    (only_here && !aliased).then_some(init)
}

/// Prints the buffer plan (`kiln opt --bufferize`).
pub fn print_buffers(
    info: &FuncInfo<'_>,
    shapes: &Shapes,
    plan: &BufferPlan,
    name: &str,
) -> String {
    let m = info.m;
    let mut out = String::new();
    let _ = writeln!(out, "// func @{name}: {} buffers", plan.buffers.len());
    for (i, b) in plan.buffers.iter().enumerate() {
        let dims: Vec<String> = b.shape.iter().map(|&s| shapes.host.text(s)).collect();
        let origin = match b.origin {
            BufferOrigin::Argument(a) => format!("argument {a}"),
            BufferOrigin::Constant(op) => {
                format!("{} at {}", m.op(op).kind.name(), m.op(op).loc)
            }
            BufferOrigin::Dispatch(d) => format!("written by dispatch {d}"),
            BufferOrigin::Scratch(d) => format!("scratch of dispatch {d}"),
            BufferOrigin::Fault => "the fault word".to_string(),
        };
        let mut values: Vec<(usize, String)> = plan
            .of_value
            .iter()
            .filter(|(_, &bb)| bb == i)
            .map(|(&v, _)| {
                let pos = info
                    .def_op(v)
                    .and_then(|o| info.position.get(&o).copied())
                    .unwrap_or(0);
                let what = match info.def_op(v) {
                    Some(op) => format!("{} at {}", m.op(op).kind.name(), m.op(op).loc),
                    None => "argument".to_string(),
                };
                (pos, what)
            })
            .collect();
        values.sort();
        let _ = writeln!(
            out,
            "buffer {i}: {}x{} ({origin}) holds {}",
            dims.join("x"),
            b.elem,
            values
                .into_iter()
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for (r, init) in &plan.in_place {
        let desc = |v: TValue| match info.def_op(v) {
            Some(op) => format!("{} at {}", m.op(op).kind.name(), m.op(op).loc),
            None => "argument".into(),
        };
        let _ = writeln!(out, "in place: {} overwrites {}", desc(*r), desc(*init));
    }
    out
}
