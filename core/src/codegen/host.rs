//! The host side of a compiled function: scalars the host computes at run
//! time ([`Slot`]s), sizes ([`Size`]: static or a slot), and the checks
//! that a run's dynamic sizes fit the program ([`RuntimeCheck`]).
//!
//! Everything known at compile time is folded: a slot exists only for a
//! value that depends on a run-time size or argument. Slots are listed in
//! evaluation order: each is defined from earlier slots only.

use std::fmt;

use crate::ir::Location;
use crate::tensor::eval::Scalar;
use crate::tensor::ops::OpKind;
use crate::tensor::types::ElemType;
use crate::tensor::TValue;

use super::bufferize::BufferId;

/// A host scalar's handle.
pub type SlotId = usize;

/// A size (or any `index` value): known at compile time or a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Size {
    /// Known at compile time.
    Static(u64),
    /// Computed by the host at run time.
    Slot(SlotId),
}

impl Size {
    /// The static value, if known.
    pub fn fixed(self) -> Option<u64> {
        match self {
            Size::Static(n) => Some(n),
            Size::Slot(_) => None,
        }
    }
}

/// A scalar value of the program on the host.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum HostVal {
    /// Known at compile time.
    Const(Scalar),
    /// Computed at run time.
    Slot(SlotId),
}

/// Integer operations on sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SizeOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `ceil(a / b)`.
    CeilDiv,
    /// `max(a, b)`.
    Max,
    /// `min(a, b)`.
    Min,
}

impl SizeOp {
    /// Applies the op (wrapping; sizes are far from overflow).
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            SizeOp::Add => a.wrapping_add(b),
            SizeOp::Sub => a.wrapping_sub(b),
            SizeOp::Mul => a.wrapping_mul(b),
            SizeOp::CeilDiv => {
                if b == 0 {
                    0
                } else {
                    a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0)
                }
            }
            SizeOp::Max => a.max(b),
            SizeOp::Min => a.min(b),
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            SizeOp::Add => "+",
            SizeOp::Sub => "-",
            SizeOp::Mul => "*",
            SizeOp::CeilDiv => "ceildiv",
            SizeOp::Max => "max",
            SizeOp::Min => "min",
        }
    }
}

/// Where a source's run-time sizes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SourceRef {
    /// Function argument `i`.
    Argument(usize),
    /// The constant (a `flow.tensor.dynamic_constant`) defining this value.
    Constant(TValue),
}

/// How a slot is computed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum SlotDef {
    /// Dimension `dim` of a source, known when its data arrives.
    SourceDim {
        /// The source.
        source: SourceRef,
        /// The dimension.
        dim: usize,
    },
    /// A scalar argument's value.
    Argument(usize),
    /// An `arith`/`math` op of the program on host values.
    Scalar {
        /// The op.
        #[serde(with = "super::archive::forms::host_op")]
        kind: OpKind,
        /// Its operands.
        args: Vec<HostVal>,
        /// The operands' element type (of the first, or the second for
        /// `select`).
        arg_elem: ElemType,
    },
    /// `dims[index]` (a `tensor.dim` with a run-time index).
    SelectDim {
        /// The sizes.
        dims: Vec<Size>,
        /// The index.
        index: HostVal,
    },
    /// Integer arithmetic on sizes.
    Arith {
        /// The operation.
        op: SizeOp,
        /// Left operand.
        a: Size,
        /// Right operand.
        b: Size,
    },
    /// An element of a tensor in memory, read by the host once the
    /// dispatches before it ran (a host sync point): a `tensor.extract`
    /// of tensor data whose value the host needs (a size).
    Read {
        /// The tensor read.
        tensor: TValue,
        /// Its buffer (set once buffers are planned).
        buffer: BufferId,
        /// The tensor's dimensions (row-major).
        dims: Vec<Size>,
        /// The element's indices.
        indices: Vec<HostVal>,
    },
}

impl SlotDef {
    /// The slots this one is computed from (all earlier ones).
    pub fn deps(&self) -> Vec<SlotId> {
        fn size(s: &Size) -> Option<SlotId> {
            match s {
                Size::Slot(i) => Some(*i),
                Size::Static(_) => None,
            }
        }
        fn val(v: &HostVal) -> Option<SlotId> {
            match v {
                HostVal::Slot(i) => Some(*i),
                HostVal::Const(_) => None,
            }
        }
        match self {
            SlotDef::SourceDim { .. } | SlotDef::Argument(_) => Vec::new(),
            SlotDef::Scalar { args, .. } => args.iter().filter_map(val).collect(),
            SlotDef::SelectDim { dims, index } => {
                dims.iter().filter_map(size).chain(val(index)).collect()
            }
            SlotDef::Arith { a, b, .. } => size(a).into_iter().chain(size(b)).collect(),
            SlotDef::Read { dims, indices, .. } => dims
                .iter()
                .filter_map(size)
                .chain(indices.iter().filter_map(val))
                .collect(),
        }
    }
}

/// One host scalar.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Slot {
    /// How it is computed.
    pub def: SlotDef,
    /// Its type.
    pub elem: ElemType,
    /// A short symbolic name for messages and the manifest (`d0`,
    /// `arg0.dim1`, `ceildiv(d0, 64)`).
    pub text: String,
}

/// A comparison the run's sizes must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CheckKind {
    /// `a == b`.
    Equal,
    /// `a < b` (a bound).
    Less,
    /// `a >= 0`.
    NonNegative,
    /// `0 <= a < b` (an index into a dimension of size `b`).
    Index,
    /// `a != 0`: a `cf.assert` on a host value; `what` is its message.
    Assert,
    /// `a > 0`: a dimension that an index known only on the device reads
    /// (every index into an empty dimension is out of bounds, and a kernel
    /// over no element checks none).
    NonEmpty,
}

/// Why a run's sizes do not fit the program, or a host slot cannot be
/// computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HostError {
    /// No size for a source dimension (the slot's text).
    #[error("no size for {0}")]
    NoSize(String),
    /// A scalar argument the call does not give.
    #[error("missing scalar argument {0}")]
    MissingArgument(usize),
    /// A scalar slot whose op has no defined result (the slot's text).
    #[error("{slot}: {error}")]
    Scalar {
        /// The slot's text.
        slot: String,
        /// Why.
        error: super::shapes::ScalarEvalError,
    },
    /// A `tensor.dim` index past the rank.
    #[error("tensor.dim index {0} is out of range")]
    DimIndex(i64),
    /// An element of tensor data read for a size, at an index outside its
    /// tensor.
    #[error("{slot}: index {index} is outside a dimension of size {size}")]
    ReadIndex {
        /// The slot's text.
        slot: String,
        /// The index.
        index: i64,
        /// The dimension's size.
        size: u64,
    },
    /// A slot read from tensor data, asked for before the read.
    #[error("{0} is read from tensor data at run time")]
    NotReadYet(String),
    /// A failing check and the run's values of its two sides.
    #[error("{}", .check.message(*.a, *.b))]
    Check {
        /// The check.
        check: RuntimeCheck,
        /// The left side's value.
        a: i64,
        /// The right side's value.
        b: i64,
    },
}

/// A check that the run's dynamic sizes fit the program.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RuntimeCheck {
    /// The comparison.
    pub kind: CheckKind,
    /// Left side.
    pub a: Size,
    /// Right side (ignored by [`CheckKind::NonNegative`] and
    /// [`CheckKind::NonEmpty`]).
    pub b: Size,
    /// The op it is about.
    pub op: String,
    /// Where the op is.
    pub loc: Location,
    /// What is compared (`dimension 0 of operand 1`), completed with the
    /// values in the message.
    pub what: String,
}

impl RuntimeCheck {
    /// The failure message for values `a` and `b`.
    pub fn message(&self, a: i64, b: i64) -> String {
        let loc = if self.loc.is_known() {
            format!("{}: ", self.loc)
        } else {
            String::new()
        };
        match self.kind {
            CheckKind::Equal => format!(
                "{loc}'{}' op size mismatch: {} is {a} at run time, but the program needs {b}",
                self.op, self.what
            ),
            CheckKind::Less => format!(
                "{loc}'{}' op size out of bounds: {} is {a} at run time, not below {b}",
                self.op, self.what
            ),
            CheckKind::NonNegative => format!(
                "{loc}'{}' op size {} is {a} at run time; a size cannot be negative",
                self.op, self.what
            ),
            CheckKind::Index => format!(
                "{loc}'{}' op index out of bounds: {} is {a} at run time, outside a dimension of size {b}",
                self.op, self.what
            ),
            CheckKind::Assert => format!("{loc}'{}' op assertion failed: {}", self.op, self.what),
            CheckKind::NonEmpty => format!(
                "{loc}'{}' op index out of bounds: {} is into a dimension of size {a} at run time",
                self.op, self.what
            ),
        }
    }
}

/// The host program of a function: its slots and checks, in order.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HostProgram {
    /// The slots, in evaluation order.
    pub slots: Vec<Slot>,
    /// The checks, each after the slots it reads.
    pub checks: Vec<(usize, RuntimeCheck)>,
}

impl HostProgram {
    /// Adds a slot; returns its id.
    pub fn add(&mut self, def: SlotDef, elem: ElemType, text: String) -> SlotId {
        if let Some(i) = self
            .slots
            .iter()
            .position(|s| s.def == def && s.elem == elem)
        {
            return i;
        }
        self.slots.push(Slot { def, elem, text });
        self.slots.len() - 1
    }

    /// `a op b`, folded when both are static.
    pub fn arith(&mut self, op: SizeOp, a: Size, b: Size) -> Size {
        match (a, b, op) {
            (Size::Static(x), Size::Static(y), _) => {
                Size::Static(op.apply(x as i64, y as i64).max(0) as u64)
            }
            (x, Size::Static(1), SizeOp::Mul | SizeOp::CeilDiv) => x,
            (Size::Static(1), y, SizeOp::Mul) => y,
            (x, Size::Static(0), SizeOp::Add | SizeOp::Sub) => x,
            (Size::Static(0), y, SizeOp::Add) => y,
            _ => {
                let text = match op {
                    SizeOp::CeilDiv | SizeOp::Max | SizeOp::Min => {
                        format!("{}({}, {})", op.symbol(), self.text(a), self.text(b))
                    }
                    _ => format!("({} {} {})", self.text(a), op.symbol(), self.text(b)),
                };
                Size::Slot(self.add(SlotDef::Arith { op, a, b }, ElemType::Index, text))
            }
        }
    }

    /// The product of `sizes`.
    pub fn product(&mut self, sizes: &[Size]) -> Size {
        sizes
            .iter()
            .fold(Size::Static(1), |acc, &s| self.arith(SizeOp::Mul, acc, s))
    }

    /// Adds a check (after the current slots); a check between two equal
    /// static sizes is dropped, one that fails statically is still kept
    /// (the compiler reports it as an error).
    pub fn check(&mut self, c: RuntimeCheck) {
        if let (Size::Static(a), Size::Static(b)) = (c.a, c.b) {
            let ok = match c.kind {
                CheckKind::Equal => a == b,
                CheckKind::Less | CheckKind::Index => a < b,
                CheckKind::NonNegative => true,
                CheckKind::Assert | CheckKind::NonEmpty => a != 0,
            };
            if ok {
                return;
            }
        }
        if c.kind == CheckKind::Equal && c.a == c.b {
            return;
        }
        let at = self.slots.len();
        self.checks.push((at, c));
    }

    /// The symbolic text of a size (`64`, `d0`, `(d0 * 4)`).
    pub fn text(&self, s: Size) -> String {
        match s {
            Size::Static(n) => n.to_string(),
            Size::Slot(i) => self.slots[i].text.clone(),
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Static(n) => write!(f, "{n}"),
            Size::Slot(i) => write!(f, "s{i}"),
        }
    }
}

/// A run's host values: one per slot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostValues(pub Vec<Scalar>);

impl HostValues {
    /// The value of size `s` (negative values read as 0).
    pub fn size(&self, s: Size) -> u64 {
        match s {
            Size::Static(n) => n,
            Size::Slot(i) => self.0.get(i).map_or(0, |v| v.int().max(0) as u64),
        }
    }

    /// The value of `v`.
    pub fn value(&self, v: HostVal) -> Scalar {
        match v {
            HostVal::Const(c) => c,
            HostVal::Slot(i) => self.0.get(i).copied().unwrap_or(Scalar::Int(0)),
        }
    }
}
