//! Facts about one function that every stage reads: its top-level ops in
//! order, the uses of each top-level value (including captures inside op
//! regions), and the class of each op ([`OpClass`]).
//!
//! The compiler works on top-level ops only: a function body is a straight
//! list of ops (the tensor IR has no control flow); op regions (structured
//! bodies, `tensor.pad`'s padding) are scalar code that kernels inline.

use std::collections::{HashMap, HashSet};

use crate::tensor::attr::{ConstAttr, IteratorType};
use crate::tensor::ops::{LinalgKind, OpKind, TensorOp};
use crate::tensor::structured::{structured, Structured};
use crate::tensor::{TBlock, TFunc, TOp, TValue, TensorModule, TypeKind, ValueDef};

use super::error::CodegenError;

/// How a value is used by a top-level op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseKind {
    /// Operand `i` of the op.
    Operand(usize),
    /// Read inside one of the op's regions.
    Captured,
    /// Result `i` of the function.
    Returned(usize),
}

/// One use of a top-level value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// The top-level op (the `func.return` for returned values).
    pub user: TOp,
    /// How.
    pub kind: UseKind,
}

/// What an op is to the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// A scalar computed on the host (constants, `tensor.dim`, scalar
    /// arithmetic on those).
    HostScalar,
    /// A scalar that depends on tensor data (`tensor.extract`, arithmetic
    /// on such scalars): computed inside the kernels that read it. A
    /// `cf.assert` on such a scalar is of this class too: a dispatch of
    /// its own checks it.
    DeviceScalar,
    /// Data from outside the kernels: dense constants, dynamic constants.
    Source,
    /// The same elements in the same row-major order (`tensor.cast`,
    /// `collapse_shape`, `expand_shape`, `util.optimization_barrier`): a
    /// view of its operand's buffer when materialized.
    Alias,
    /// Data movement or a constant pattern, cheap to recompute at any
    /// coordinate (fill, copy, transpose, broadcast, slices, pad, concat,
    /// splat, empty).
    Free,
    /// An all-parallel structured op that computes (elementwise).
    Compute,
    /// An op with reduction loops, or softmax: the root of a dispatch.
    Root,
    /// `func.return`.
    Return,
}

/// The analysis of one function.
pub struct FuncInfo<'m> {
    /// The module.
    pub m: &'m TensorModule,
    /// The function.
    pub func: TFunc,
    /// Its body.
    pub body: TBlock,
    /// Its top-level ops in order, `func.return` excluded.
    pub ops: Vec<TOp>,
    /// The `func.return`.
    pub ret: TOp,
    /// Position of each top-level op.
    pub position: HashMap<TOp, usize>,
    /// Uses of each top-level value.
    pub uses: HashMap<TValue, Vec<Use>>,
    /// The class of each top-level op.
    pub class: HashMap<TOp, OpClass>,
    /// The structured view of each structured top-level op.
    pub structured: HashMap<TOp, Structured>,
    /// The `tensor.extract`s of tensor data whose value the host needs (a
    /// size, directly or through scalar arithmetic): host scalars read
    /// back from memory once the dispatches before them ran (a host sync
    /// point; [`SlotDef::Read`](super::host::SlotDef::Read)).
    pub host_reads: HashSet<TOp>,
}

impl<'m> FuncInfo<'m> {
    /// Analyses function `func` of `m` (verified, after
    /// [`elementwise_to_generic`](super::elementwise::elementwise_to_generic)).
    pub fn new(m: &'m TensorModule, func: TFunc) -> Result<FuncInfo<'m>, CodegenError> {
        let fd = m.func(func);
        let body = fd.body.ok_or_else(|| CodegenError::Unsupported {
            loc: fd.loc,
            op: "func.func".into(),
            message: format!("'@{}' is a declaration without a body", fd.name),
        })?;
        let all = &m.block(body).ops;
        let ret = *all.last().ok_or_else(|| CodegenError::Unsupported {
            loc: fd.loc,
            op: "func.func".into(),
            message: "empty body".into(),
        })?;
        let ops: Vec<TOp> = all[..all.len() - 1].to_vec();
        let mut info = FuncInfo {
            m,
            func,
            body,
            position: ops.iter().enumerate().map(|(i, &o)| (o, i)).collect(),
            ops,
            ret,
            uses: HashMap::new(),
            class: HashMap::new(),
            structured: HashMap::new(),
            host_reads: HashSet::new(),
        };
        info.collect_uses();
        info.host_reads = info.find_host_reads();
        for i in 0..info.ops.len() {
            let op = info.ops[i];
            if let Some(mut s) = structured(m, op) {
                s.iterator_types = effective_iterators(&s);
                info.structured.insert(op, s);
            }
            let c = info.classify(op)?;
            info.class.insert(op, c);
        }
        info.class.insert(ret, OpClass::Return);
        Ok(info)
    }

    fn add_use(&mut self, v: TValue, u: Use) {
        self.uses.entry(v).or_default().push(u);
    }

    fn collect_uses(&mut self) {
        let m = self.m;
        for &op in m.block(self.body).ops.iter() {
            let d = m.op(op);
            let is_ret = d.kind == OpKind::Return;
            for (i, &v) in d.operands.iter().enumerate() {
                let kind = if is_ret {
                    UseKind::Returned(i)
                } else {
                    UseKind::Operand(i)
                };
                self.add_use(v, Use { user: op, kind });
            }
            // Values of this body read inside the op's regions.
            let mut captured = Vec::new();
            for &r in &d.regions {
                m.walk(r, &mut |inner| {
                    for &v in &m.op(inner).operands {
                        if self.is_top_level(v) && !captured.contains(&v) {
                            captured.push(v);
                        }
                    }
                });
            }
            for v in captured {
                self.add_use(
                    v,
                    Use {
                        user: op,
                        kind: UseKind::Captured,
                    },
                );
            }
        }
    }

    /// Whether `v` is defined at the function's top level (an argument or
    /// a result of a top-level op).
    pub fn is_top_level(&self, v: TValue) -> bool {
        match self.m.value(v).def {
            ValueDef::BlockArg { block, .. } => block == self.body,
            ValueDef::Result { op, .. } => self.m.op(op).parent == Some(self.body),
        }
    }

    /// The top-level op defining `v` (`None` for arguments).
    pub fn def_op(&self, v: TValue) -> Option<TOp> {
        match self.m.value(v).def {
            ValueDef::Result { op, .. } if self.m.op(op).parent == Some(self.body) => Some(op),
            _ => None,
        }
    }

    /// The result index of `v` in its defining op.
    pub fn result_index(&self, v: TValue) -> usize {
        match self.m.value(v).def {
            ValueDef::Result { index, .. } => index as usize,
            ValueDef::BlockArg { index, .. } => index as usize,
        }
    }

    /// Whether `v` is a tensor.
    pub fn is_tensor(&self, v: TValue) -> bool {
        self.m.value_kind(v).is_tensor()
    }

    /// The uses of `v`.
    pub fn uses_of(&self, v: TValue) -> &[Use] {
        self.uses.get(&v).map_or(&[], Vec::as_slice)
    }

    /// The class of the op defining `v`; arguments are sources (tensors) or
    /// host scalars.
    pub fn value_class(&self, v: TValue) -> OpClass {
        match self.def_op(v) {
            Some(op) => self.class[&op],
            None if self.is_tensor(v) => OpClass::Source,
            None => OpClass::HostScalar,
        }
    }

    /// The `tensor.extract`s (of data that is not a small constant) whose
    /// value the host needs: walking back from the sizes of tensor ops
    /// (`tensor.empty` and `splat` sizes, slice offsets, sizes and
    /// strides, pad amounts, `expand_shape`'s output sizes, `tensor.dim`'s
    /// index) through the scalar ops that compute them.
    fn find_host_reads(&self) -> HashSet<TOp> {
        let m = self.m;
        let mut needed: HashSet<TValue> = HashSet::new();
        let mut reads = HashSet::new();
        for &op in self.ops.iter().rev() {
            let d = m.op(op);
            let sizes: &[TValue] = match &d.kind {
                OpKind::Tensor(t) => t
                    .first_size_operand()
                    .map_or(&[], |k| &d.operands[k.min(d.operands.len())..]),
                _ => &[],
            };
            needed.extend(sizes.iter().copied().filter(|&v| !self.is_tensor(v)));
            if !d.results.iter().any(|r| needed.contains(r)) {
                continue;
            }
            match &d.kind {
                OpKind::Arith { .. } | OpKind::Math { .. } | OpKind::OptimizationBarrier => {
                    needed.extend(d.operands.iter().copied().filter(|&v| !self.is_tensor(v)));
                }
                OpKind::Tensor(TensorOp::Extract)
                    if crate::tensor::eval::host_constant::constant_extract(m, op).is_none() =>
                {
                    reads.insert(op);
                    needed.extend(d.operands[1..].iter().copied());
                }
                _ => {}
            }
        }
        reads
    }

    fn scalar_operands_class(&self, op: TOp) -> OpClass {
        let device = self
            .m
            .op(op)
            .operands
            .iter()
            .any(|&v| !self.is_tensor(v) && self.value_class(v) == OpClass::DeviceScalar);
        if device {
            OpClass::DeviceScalar
        } else {
            OpClass::HostScalar
        }
    }

    fn classify(&self, op: TOp) -> Result<OpClass, CodegenError> {
        let m = self.m;
        let d = m.op(op);
        let tensor_result = d.results.iter().any(|&r| self.is_tensor(r));
        Ok(match &d.kind {
            OpKind::Constant(c) | OpKind::UnfoldableConstant(c) => match c {
                ConstAttr::Dense(dense) if dense.splat && matches!(d.kind, OpKind::Constant(_)) => {
                    OpClass::Free
                }
                ConstAttr::Dense(_) => OpClass::Source,
                _ => OpClass::HostScalar,
            },
            OpKind::DynamicConstant(_) => OpClass::Source,
            OpKind::OptimizationBarrier => {
                if tensor_result {
                    OpClass::Alias
                } else {
                    self.scalar_operands_class(op)
                }
            }
            OpKind::Arith { .. } | OpKind::Math { .. } => {
                if tensor_result {
                    return Err(CodegenError::unsupported(
                        m,
                        op,
                        "on tensors must be converted to linalg.generic first",
                    ));
                }
                self.scalar_operands_class(op)
            }
            OpKind::Linalg(l) => match &l.kind {
                LinalgKind::Softmax { .. } => OpClass::Root,
                _ => {
                    let s = self.structured.get(&op).ok_or_else(|| {
                        CodegenError::unsupported(m, op, "has operands of unexpected ranks")
                    })?;
                    if s.iterator_types.contains(&IteratorType::Reduction) {
                        OpClass::Root
                    } else if is_data_movement(m, s) {
                        OpClass::Free
                    } else {
                        OpClass::Compute
                    }
                }
            },
            OpKind::Tensor(t) => match t {
                TensorOp::Dim => OpClass::HostScalar,
                // An element of a small constant tensor: read on the host.
                TensorOp::Extract
                    if crate::tensor::eval::host_constant::constant_extract(m, op).is_some() =>
                {
                    OpClass::HostScalar
                }
                // Read back by the host (a size computed from tensor data).
                TensorOp::Extract if self.host_reads.contains(&op) => OpClass::HostScalar,
                TensorOp::Extract => OpClass::DeviceScalar,
                TensorOp::Cast | TensorOp::CollapseShape { .. } | TensorOp::ExpandShape { .. } => {
                    OpClass::Alias
                }
                _ => OpClass::Free,
            },
            OpKind::Call { .. } => {
                return Err(CodegenError::unsupported(
                    m,
                    op,
                    "is not supported by the GPU compiler (inline the callee)",
                ))
            }
            OpKind::Check(_) => {
                return Err(CodegenError::unsupported(
                    m,
                    op,
                    "is checked by the e2e runner, not compiled",
                ))
            }
            // A condition the host knows is a host check; one computed
            // from tensor data is checked by a one-invocation kernel of
            // its own (a fault site, see `program::FaultSite`).
            OpKind::Assert { .. } => self.scalar_operands_class(op),
            OpKind::Return => OpClass::Return,
            OpKind::LinalgYield | OpKind::LinalgIndex { .. } | OpKind::TensorYield => {
                return Err(CodegenError::unsupported(m, op, "at function level"))
            }
        })
    }
}

/// The iterator types a structured op's loops behave as, whatever they
/// are labelled: a loop is parallel when every output map uses it as a
/// bare dim (distinct iterations write distinct elements), otherwise it
/// accumulates, in loop order, like a reduction. (MLIR does not check the
/// labels; the reference evaluator runs every loop in order, which is what
/// these types preserve.)
pub fn effective_iterators(s: &Structured) -> Vec<IteratorType> {
    let n_in = s.inputs.len();
    (0..s.num_loops())
        .map(|l| {
            let in_every_output = s.indexing_maps[n_in..]
                .iter()
                .all(|map| map.results.iter().any(|e| e.as_dim() == Some(l as u32)));
            if in_every_output {
                IteratorType::Parallel
            } else {
                IteratorType::Reduction
            }
        })
        .collect()
}

/// Whether a structured op only moves data: its body yields block
/// arguments (possibly through a cast-free `linalg.fill`-like forward).
fn is_data_movement(m: &TensorModule, s: &Structured) -> bool {
    match s.kind {
        LinalgKind::Fill
        | LinalgKind::Copy
        | LinalgKind::Transpose { .. }
        | LinalgKind::Broadcast { .. } => return true,
        _ => {}
    }
    let block = m.block(s.body);
    if block.ops.len() != 1 {
        return false;
    }
    let yield_op = m.op(block.ops[0]);
    yield_op.operands.iter().all(|v| block.args.contains(v))
}

/// Whether `ty` is a tensor type.
pub fn is_tensor_type(ty: &TypeKind) -> bool {
    ty.is_tensor()
}
