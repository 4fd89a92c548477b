//! Region bodies compiled to a register program: the scalar body of a
//! structured op (run once per point of its iteration space) and the
//! padding region of `tensor.pad`.
//!
//! Block arguments occupy the first registers; values defined outside the
//! region (constants, scalars, tensors read with `tensor.extract`) are
//! captured when the body is compiled; constants inside it are evaluated
//! once.

use std::rc::Rc;

use super::scalar;
use super::value::{Scalar, Tensor, Value};
use super::EvalError;
use crate::tensor::entity::{TBlock, TOp, TValue};
use crate::tensor::module::TensorModule;
use crate::tensor::ops::{ArithOp, MathOp, OpKind, TensorOp};
use crate::tensor::types::ElemType;

/// One step of a body program.
#[derive(Clone, Debug)]
enum Step {
    Arith {
        op: ArithOp,
        args: [usize; 3],
        arg_elem: ElemType,
        res_elem: ElemType,
        dst: usize,
        at: TOp,
    },
    Math {
        op: MathOp,
        args: [usize; 3],
        elem: ElemType,
        dst: usize,
        at: TOp,
    },
    Index {
        dim: usize,
        dst: usize,
    },
    Extract {
        tensor: usize,
        args: Vec<usize>,
        dst: usize,
        at: TOp,
    },
    /// `cf.assert`: the call fails with the message where the condition
    /// is false.
    Assert {
        cond: usize,
        message: String,
        at: TOp,
    },
}

/// A compiled body.
#[derive(Clone, Debug)]
pub(crate) struct Body {
    steps: Vec<Step>,
    /// Initial register contents (captures and constants filled in).
    init: Vec<Scalar>,
    /// Registers the terminator yields.
    pub(crate) yields: Vec<usize>,
    /// Tensors read by `tensor.extract`.
    tensors: Vec<Rc<Tensor>>,
    /// The number of block arguments (registers `0..num_args`).
    pub(crate) num_args: usize,
    /// The register of each value of the block.
    slots: std::collections::HashMap<TValue, usize>,
}

/// The registers of a running body.
pub(crate) struct Regs(pub(crate) Vec<Scalar>);

impl Body {
    /// Compiles `block`; `lookup` gives the values of captured SSA values.
    pub(crate) fn compile(
        m: &TensorModule,
        block: TBlock,
        lookup: &dyn Fn(TValue) -> Option<Value>,
    ) -> Result<Body, EvalError> {
        let data = m.block(block);
        let mut slot: std::collections::HashMap<TValue, usize> = std::collections::HashMap::new();
        let mut init = Vec::new();
        for (i, &a) in data.args.iter().enumerate() {
            slot.insert(a, i);
            init.push(Scalar::Int(0));
        }
        let mut body = Body {
            steps: Vec::new(),
            init,
            yields: Vec::new(),
            tensors: Vec::new(),
            num_args: data.args.len(),
            slots: std::collections::HashMap::new(),
        };
        let mut tensor_slot: std::collections::HashMap<TValue, usize> =
            std::collections::HashMap::new();
        for &op in &data.ops {
            let od = m.op(op);
            // Operand registers (capturing outer scalars).
            let mut regs = Vec::new();
            for &v in &od.operands {
                if let Some(&r) = slot.get(&v) {
                    regs.push(r);
                    continue;
                }
                match lookup(v) {
                    Some(Value::Scalar(s)) => {
                        let r = body.init.len();
                        body.init.push(s);
                        slot.insert(v, r);
                        regs.push(r);
                    }
                    Some(Value::Tensor(t)) => {
                        let idx = *tensor_slot.entry(v).or_insert_with(|| {
                            body.tensors.push(t.clone());
                            body.tensors.len() - 1
                        });
                        regs.push(usize::MAX - idx);
                    }
                    None => {
                        return Err(EvalError::at(
                            m,
                            op,
                            "uses a value that has not been computed",
                        ))
                    }
                }
            }
            let dst = body.init.len();
            let res_elem = od.results.first().map(|&r| m.value_kind(r).elem());
            let arg_elem = od.operands.first().map(|&v| m.value_kind(v).elem());
            let three = |regs: &[usize]| {
                let mut a = [0usize; 3];
                for (i, &r) in regs.iter().take(3).enumerate() {
                    a[i] = r;
                }
                a
            };
            match &od.kind {
                OpKind::Constant(c) => {
                    let v = super::constant_scalar(c).ok_or_else(|| {
                        EvalError::at(m, op, "tensor constants are not supported inside a region")
                    })?;
                    body.init.push(v);
                }
                OpKind::Arith { op: a, .. } => {
                    // Select's first operand is the condition; the values
                    // give the type.
                    let ae = if *a == ArithOp::Select {
                        od.operands.get(1).map(|&v| m.value_kind(v).elem())
                    } else {
                        arg_elem
                    };
                    body.init.push(Scalar::Int(0));
                    body.steps.push(Step::Arith {
                        op: *a,
                        args: three(&regs),
                        arg_elem: ae.unwrap_or(ElemType::I1),
                        res_elem: res_elem.unwrap_or(ElemType::I1),
                        dst,
                        at: op,
                    });
                }
                OpKind::Math { op: a, .. } => {
                    body.init.push(Scalar::Int(0));
                    body.steps.push(Step::Math {
                        op: *a,
                        args: three(&regs),
                        elem: res_elem.unwrap_or(ElemType::F32),
                        dst,
                        at: op,
                    });
                }
                OpKind::LinalgIndex { dim } => {
                    body.init.push(Scalar::Int(0));
                    body.steps.push(Step::Index {
                        dim: *dim as usize,
                        dst,
                    });
                }
                OpKind::Tensor(TensorOp::Extract) => {
                    let Some(&t) = regs.first().filter(|&&r| r > usize::MAX / 2) else {
                        return Err(EvalError::at(
                            m,
                            op,
                            "expects a tensor defined outside the region",
                        ));
                    };
                    body.init.push(Scalar::Int(0));
                    body.steps.push(Step::Extract {
                        tensor: usize::MAX - t,
                        args: regs[1..].to_vec(),
                        dst,
                        at: op,
                    });
                }
                OpKind::Assert { message } => {
                    let Some(&cond) = regs.first().filter(|&&r| r < usize::MAX / 2) else {
                        return Err(EvalError::at(m, op, "expects a scalar condition"));
                    };
                    body.steps.push(Step::Assert {
                        cond,
                        message: message.clone(),
                        at: op,
                    });
                    continue;
                }
                OpKind::LinalgYield | OpKind::TensorYield => {
                    body.yields = regs;
                    continue;
                }
                other => {
                    return Err(EvalError::at(
                        m,
                        op,
                        format!("'{}' is not supported inside a region", other.name()),
                    ))
                }
            }
            if let Some(&r) = od.results.first() {
                slot.insert(r, dst);
            }
        }
        if body.yields.iter().any(|&r| r > usize::MAX / 2) {
            return Err(EvalError::new("a region yields a tensor"));
        }
        body.slots = slot;
        Ok(body)
    }

    /// The register holding `v` (a block argument or an op's result).
    pub(crate) fn reg_of(&self, v: TValue) -> Option<usize> {
        self.slots.get(&v).copied()
    }

    /// Fresh registers.
    pub(crate) fn regs(&self) -> Regs {
        Regs(self.init.clone())
    }

    /// Runs the steps at loop position `point` (for `linalg.index`).
    pub(crate) fn run(
        &self,
        m: &TensorModule,
        regs: &mut Regs,
        point: &[usize],
    ) -> Result<(), EvalError> {
        let r = &mut regs.0;
        for step in &self.steps {
            match step {
                Step::Arith {
                    op,
                    args,
                    arg_elem,
                    res_elem,
                    dst,
                    at,
                } => {
                    let n = match op.signature() {
                        crate::tensor::ops::Signature::Same(n) => n,
                        crate::tensor::ops::Signature::Compare => 2,
                        crate::tensor::ops::Signature::Select => 3,
                        crate::tensor::ops::Signature::Cast => 1,
                        crate::tensor::ops::Signature::FloatInt => 2,
                    };
                    let a = [r[args[0]], r[args[1.min(n - 1)]], r[args[2.min(n - 1)]]];
                    r[*dst] = scalar::arith(*op, &a[..n], *arg_elem, *res_elem)
                        .map_err(|e| EvalError::at(m, *at, e))?;
                }
                Step::Math {
                    op,
                    args,
                    elem,
                    dst,
                    at,
                } => {
                    let a = [r[args[0]], r[args[1]], r[args[2]]];
                    r[*dst] = scalar::math(*op, &a, *elem).map_err(|e| EvalError::at(m, *at, e))?;
                }
                Step::Index { dim, dst } => {
                    r[*dst] = Scalar::Int(point.get(*dim).copied().unwrap_or(0) as i64);
                }
                Step::Extract {
                    tensor,
                    args,
                    dst,
                    at,
                } => {
                    let t = &self.tensors[*tensor];
                    let mut off = 0usize;
                    let strides = t.strides();
                    for (k, &a) in args.iter().enumerate() {
                        let i = r[a].int();
                        if i < 0 || i as usize >= t.shape[k] {
                            return Err(EvalError::at(
                                m,
                                *at,
                                format!(
                                    "index out of bounds: index {k} is {i}, outside a dimension of size {}",
                                    t.shape[k]
                                ),
                            ));
                        }
                        off += i as usize * strides[k];
                    }
                    r[*dst] = t.get(off);
                }
                Step::Assert { cond, message, at } => {
                    if r[*cond].int() & 1 == 0 {
                        return Err(EvalError::at(
                            m,
                            *at,
                            format!("assertion failed: {message}"),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
