//! The interpreter of host code: `func.func @main` op by op.

use std::collections::HashMap;
use std::io::Write;

use super::buffer::{ElemType, HostBuffer};
use super::error::HostError;
use super::eval::{eval, EvalError};
use super::launch::{LaunchRequest, Launcher};
use super::print::format_memref;
use super::value::HostValue;
use crate::ir::Location;
use crate::kernel::{KAttr, KOpKind, KType, KernelModule};
use crate::kernel::{KBlock, KOp, KValue};

/// Runs `func.func @main` of `module`, launching kernels through
/// `launcher` and writing what the runner-utils calls print to `out`.
pub fn run_main(
    module: &KernelModule,
    launcher: &mut dyn Launcher,
    out: &mut dyn Write,
) -> Result<(), HostError> {
    let main = find_func(module, "main").ok_or(HostError::NoMain)?;
    let mut it = Interp {
        m: module,
        launcher,
        out,
        buffers: Vec::new(),
        vals: HashMap::new(),
    };
    it.call_func(main, Vec::new())?;
    it.out.flush()?;
    Ok(())
}

/// [`run_main`] collecting the printed text.
pub fn run_main_to_string(
    module: &KernelModule,
    launcher: &mut dyn Launcher,
) -> Result<String, HostError> {
    let mut out = Vec::new();
    run_main(module, launcher, &mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The `func.func @name` with a body directly in the top module.
fn find_func(m: &KernelModule, name: &str) -> Option<KOp> {
    let op = m.lookup_symbol_in(m.top(), name)?;
    let data = m.op(op);
    (data.kind == KOpKind::FuncFunc
        && data
            .regions
            .first()
            .is_some_and(|&r| !m.region(r).blocks.is_empty()))
    .then_some(op)
}

/// How a block ended.
enum Flow {
    /// `scf.yield`.
    Yield(Vec<HostValue>),
    /// `scf.condition`.
    Condition(bool, Vec<HostValue>),
    /// `func.return`.
    Return(Vec<HostValue>),
    /// The block had no terminator.
    End,
}

struct Interp<'a> {
    m: &'a KernelModule,
    launcher: &'a mut dyn Launcher,
    out: &'a mut dyn Write,
    buffers: Vec<HostBuffer>,
    vals: HashMap<KValue, HostValue>,
}

/// The failure builder for `op`.
fn bad(m: &KernelModule, op: KOp, message: impl Into<String>) -> HostError {
    let d = m.op(op);
    HostError::BadOp {
        op: d.kind.name().to_owned(),
        loc: d.loc,
        message: message.into(),
    }
}

impl Interp<'_> {
    fn loc(&self, op: KOp) -> Location {
        self.m.op(op).loc
    }

    fn name(&self, op: KOp) -> &'static str {
        self.m.op(op).kind.name()
    }

    fn get(&self, op: KOp, v: KValue) -> Result<HostValue, HostError> {
        self.vals
            .get(&v)
            .cloned()
            .ok_or_else(|| bad(self.m, op, "uses a value that was not computed on the host"))
    }

    fn operand(&self, op: KOp, i: usize) -> Result<HostValue, HostError> {
        let v = *self
            .m
            .op(op)
            .operands
            .get(i)
            .ok_or_else(|| bad(self.m, op, format!("missing operand #{i}")))?;
        self.get(op, v)
    }

    fn index_operand(&self, op: KOp, i: usize) -> Result<i64, HostError> {
        self.operand(op, i)?
            .as_signed()
            .ok_or_else(|| bad(self.m, op, format!("operand #{i} is not an integer")))
    }

    fn buffer_operand(&self, op: KOp, i: usize) -> Result<usize, HostError> {
        self.operand(op, i)?
            .as_memref()
            .ok_or_else(|| bad(self.m, op, format!("operand #{i} is not a memref")))
    }

    fn set_results(&mut self, op: KOp, values: Vec<HostValue>) -> Result<(), HostError> {
        let results = &self.m.op(op).results;
        if results.len() != values.len() {
            return Err(bad(
                self.m,
                op,
                format!(
                    "produces {} values for {} results",
                    values.len(),
                    results.len()
                ),
            ));
        }
        for (&r, v) in results.iter().zip(values) {
            self.vals.insert(r, v);
        }
        Ok(())
    }

    fn call_func(&mut self, func: KOp, args: Vec<HostValue>) -> Result<Vec<HostValue>, HostError> {
        let entry = self.m.entry_block(func, 0);
        match self.run_block(entry, args)? {
            Flow::Return(v) => Ok(v),
            Flow::End => Ok(Vec::new()),
            _ => Err(bad(self.m, func, "body does not end with func.return")),
        }
    }

    fn run_block(&mut self, block: KBlock, args: Vec<HostValue>) -> Result<Flow, HostError> {
        let data = self.m.block(block);
        if data.args.len() != args.len() {
            let owner = self.m.block_parent_op(block).unwrap_or(self.m.top());
            return Err(bad(
                self.m,
                owner,
                format!(
                    "block takes {} arguments, got {}",
                    data.args.len(),
                    args.len()
                ),
            ));
        }
        for (&a, v) in data.args.iter().zip(args) {
            self.vals.insert(a, v);
        }
        for &op in &data.ops {
            if let Some(flow) = self.exec(op)? {
                return Ok(flow);
            }
        }
        Ok(Flow::End)
    }

    fn operands(&self, op: KOp) -> Result<Vec<HostValue>, HostError> {
        self.m
            .op(op)
            .operands
            .iter()
            .map(|&v| self.get(op, v))
            .collect()
    }

    /// Runs one op; `Some` for terminators.
    fn exec(&mut self, op: KOp) -> Result<Option<Flow>, HostError> {
        use KOpKind::*;
        let kind = self.m.op(op).kind;
        match kind {
            ScfYield => return Ok(Some(Flow::Yield(self.operands(op)?))),
            FuncReturn => return Ok(Some(Flow::Return(self.operands(op)?))),
            ScfCondition => {
                let mut vals = self.operands(op)?;
                if vals.is_empty() {
                    return Err(bad(self.m, op, "needs a condition"));
                }
                let c = vals.remove(0).as_unsigned() == Some(1);
                return Ok(Some(Flow::Condition(c, vals)));
            }
            ArithConstant => {
                let v = self.constant(op)?;
                self.set_results(op, vec![v])?;
            }
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                let vals = self.extended(op, kind)?;
                self.set_results(op, vals)?;
            }
            _ if kind.name().starts_with("arith.") => {
                let args = self.operands(op)?;
                let pred = match self.m.attr(op, "predicate") {
                    Some(KAttr::Enum(s) | KAttr::String(s)) => Some(s.as_str()),
                    _ => None,
                };
                let result = self
                    .m
                    .op(op)
                    .results
                    .first()
                    .map(|&r| self.m.value_type(r).clone())
                    .ok_or_else(|| bad(self.m, op, "has no result"))?;
                let v = eval(kind, &args, pred, &result).map_err(|e| match e {
                    EvalError::DivByZero => HostError::DivisionByZero {
                        op: self.name(op),
                        loc: self.loc(op),
                    },
                    EvalError::Unsupported => HostError::UnsupportedOp {
                        op: self.name(op),
                        loc: self.loc(op),
                    },
                    EvalError::Mismatch => bad(self.m, op, "operands of unexpected kinds"),
                })?;
                self.set_results(op, vec![v])?;
            }
            MemRefAlloc | MemRefAlloca => self.alloc(op)?,
            MemRefCast => {
                let b = self.buffer_operand(op, 0)?;
                self.set_results(op, vec![HostValue::MemRef(b)])?;
            }
            MemRefDealloc => {}
            MemRefDim => {
                let b = self.buffer_operand(op, 0)?;
                let d = self.index_operand(op, 1)?;
                let size = usize::try_from(d)
                    .ok()
                    .and_then(|d| self.buffers[b].shape().get(d).copied())
                    .ok_or_else(|| bad(self.m, op, format!("dimension {d} out of range")))?;
                self.set_results(op, vec![HostValue::index(size as i64)])?;
            }
            MemRefLoad => {
                let b = self.buffer_operand(op, 0)?;
                let at = self.position(op, b, 1)?;
                let v = self.buffers[b].get(at).ok_or_else(|| self.oob(op, b, 1))?;
                self.set_results(op, vec![v])?;
            }
            MemRefStore => {
                let v = self.operand(op, 0)?;
                let b = self.buffer_operand(op, 1)?;
                let at = self.position(op, b, 2)?;
                if !self.buffers[b].set(at, &v) {
                    return Err(bad(
                        self.m,
                        op,
                        "stored value does not match the element type",
                    ));
                }
            }
            VectorLoad => {
                let b = self.buffer_operand(op, 0)?;
                let at = self.position(op, b, 1)?;
                let r = self.m.op(op).results[0];
                let n = vector_len(self.m.value_type(r))
                    .ok_or_else(|| bad(self.m, op, "result is not a vector"))?;
                let lanes = (0..n)
                    .map(|i| {
                        self.buffers[b]
                            .get(at + i)
                            .ok_or_else(|| self.oob(op, b, 1))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                self.set_results(op, vec![HostValue::Vector(lanes)])?;
            }
            VectorStore => {
                let v = self.operand(op, 0)?;
                let b = self.buffer_operand(op, 1)?;
                let at = self.position(op, b, 2)?;
                let HostValue::Vector(lanes) = v else {
                    return Err(bad(self.m, op, "stored value is not a vector"));
                };
                for (i, lane) in lanes.iter().enumerate() {
                    if !self.buffers[b].set(at + i, lane) {
                        return Err(self.oob(op, b, 2));
                    }
                }
            }
            ScfFor => self.scf_for(op)?,
            ScfIf => self.scf_if(op)?,
            ScfWhile => self.scf_while(op)?,
            FuncCall => self.call(op)?,
            GpuLaunchFunc => self.launch(op)?,
            _ => {
                return Err(HostError::UnsupportedOp {
                    op: self.name(op),
                    loc: self.loc(op),
                })
            }
        }
        Ok(None)
    }

    fn oob(&self, op: KOp, b: usize, first: usize) -> HostError {
        let index = self.m.op(op).operands[first.min(self.m.op(op).operands.len())..]
            .iter()
            .filter_map(|&v| self.vals.get(&v).and_then(HostValue::as_signed))
            .collect();
        HostError::OutOfBounds {
            op: self.name(op),
            loc: self.loc(op),
            index,
            shape: self.buffers[b].shape().to_vec(),
        }
    }

    /// The linear position named by the index operands from `first` on.
    fn position(&self, op: KOp, b: usize, first: usize) -> Result<usize, HostError> {
        let n = self.m.op(op).operands.len();
        let index = (first..n)
            .map(|i| self.index_operand(op, i))
            .collect::<Result<Vec<_>, _>>()?;
        self.buffers[b]
            .linear(&index)
            .ok_or_else(|| self.oob(op, b, first))
    }

    fn constant(&self, op: KOp) -> Result<HostValue, HostError> {
        let r = self.m.op(op).results[0];
        let ty = self.m.value_type(r).clone();
        let attr = self
            .m
            .attr(op, "value")
            .ok_or_else(|| bad(self.m, op, "has no `value`"))?;
        let scalar = |a: &KAttr, ty: &KType| -> Option<HostValue> {
            match (a, ty) {
                (KAttr::Bool(b), KType::Int(1)) => Some(HostValue::int(1, u64::from(*b))),
                (KAttr::Int { value, .. }, KType::Int(bits)) => {
                    Some(HostValue::int(*bits, *value as u64))
                }
                (KAttr::Int { value, .. }, KType::Index) => Some(HostValue::index(*value as i64)),
                (KAttr::Float { value, .. }, KType::Float(f)) => Some(HostValue::float(*f, *value)),
                _ => None,
            }
        };
        // A dense vector constant: one value per lane, or one splat value.
        fn lanes<T: Copy>(
            values: &[T],
            n: usize,
            lane: impl Fn(T) -> Option<HostValue>,
        ) -> Option<HostValue> {
            (0..n)
                .map(|i| match values {
                    [splat] => lane(*splat),
                    _ => lane(*values.get(i)?),
                })
                .collect::<Option<Vec<_>>>()
                .map(HostValue::Vector)
        }
        let v = match (attr, &ty) {
            (KAttr::DenseInts { values, .. }, KType::Vector { elem, .. }) => {
                lanes(values, vector_len(&ty).unwrap_or(0), |value| {
                    scalar(
                        &KAttr::Int {
                            value,
                            ty: (**elem).clone(),
                        },
                        elem,
                    )
                })
            }
            (KAttr::DenseFloats { values, .. }, KType::Vector { elem, .. }) => {
                lanes(values, vector_len(&ty).unwrap_or(0), |value| {
                    scalar(
                        &KAttr::Float {
                            value,
                            ty: (**elem).clone(),
                        },
                        elem,
                    )
                })
            }
            (a, t) => scalar(a, t),
        };
        v.ok_or_else(|| HostError::UnsupportedType {
            op: self.name(op),
            loc: self.loc(op),
            ty: format!("{ty:?}"),
        })
    }

    fn extended(&self, op: KOp, kind: KOpKind) -> Result<Vec<HostValue>, HostError> {
        let a = self.operand(op, 0)?;
        let b = self.operand(op, 1)?;
        let (HostValue::Int { bits, raw: x }, HostValue::Int { raw: y, .. }) = (&a, &b) else {
            return Err(bad(self.m, op, "needs scalar integer operands"));
        };
        let bits = *bits;
        Ok(match kind {
            KOpKind::ArithAddUIExtended => {
                let s = u128::from(*x) + u128::from(*y);
                vec![
                    HostValue::int(bits, s as u64),
                    HostValue::int(1, u64::from((s >> bits) != 0)),
                ]
            }
            KOpKind::ArithMulUIExtended => {
                let p = u128::from(*x) * u128::from(*y);
                vec![
                    HostValue::int(bits, p as u64),
                    HostValue::int(bits, (p >> bits) as u64),
                ]
            }
            _ => {
                let p =
                    i128::from(a.as_signed().unwrap_or(0)) * i128::from(b.as_signed().unwrap_or(0));
                vec![
                    HostValue::int(bits, p as u64),
                    HostValue::int(bits, (p >> bits) as u64),
                ]
            }
        })
    }

    fn alloc(&mut self, op: KOp) -> Result<(), HostError> {
        let r = self.m.op(op).results[0];
        let ty = self.m.value_type(r).clone();
        let KType::MemRef { shape, elem, .. } = &ty else {
            return Err(bad(self.m, op, "result is not a ranked memref"));
        };
        let elem_ty = ElemType::from_ktype(elem).ok_or_else(|| HostError::UnsupportedType {
            op: self.name(op),
            loc: self.loc(op),
            ty: format!("{elem:?}"),
        })?;
        let mut dynamic = 0;
        let mut dims = Vec::with_capacity(shape.len());
        for d in shape {
            match d {
                Some(d) => dims.push(*d),
                None => {
                    let v = self.index_operand(op, dynamic)?;
                    dynamic += 1;
                    dims.push(
                        u64::try_from(v)
                            .map_err(|_| bad(self.m, op, format!("negative size {v}")))?,
                    );
                }
            }
        }
        let buf = HostBuffer::zeroed(elem_ty, &dims)
            .map_err(|e| bad(self.m, op, format!("shape {dims:?} is too large: {e}")))?;
        self.buffers.push(buf);
        let id = self.buffers.len() - 1;
        self.set_results(op, vec![HostValue::MemRef(id)])
    }

    fn scf_for(&mut self, op: KOp) -> Result<(), HostError> {
        let lb = self.index_operand(op, 0)?;
        let ub = self.index_operand(op, 1)?;
        let step = self.index_operand(op, 2)?;
        if step <= 0 {
            return Err(bad(self.m, op, format!("step {step} is not positive")));
        }
        let iv_bits = match self.m.value_type(self.m.op(op).operands[0]) {
            KType::Int(b) => *b,
            _ => 64,
        };
        let mut carried: Vec<HostValue> = self.operands(op)?.split_off(3);
        let body = self.m.entry_block(op, 0);
        let mut i = lb;
        while i < ub {
            let mut args = vec![HostValue::int(iv_bits, i as u64)];
            args.extend(carried.iter().cloned());
            carried = match self.run_block(body, args)? {
                Flow::Yield(v) => v,
                Flow::End => Vec::new(),
                _ => return Err(bad(self.m, op, "body must end with scf.yield")),
            };
            i = match i.checked_add(step) {
                Some(n) => n,
                None => break,
            };
        }
        self.set_results(op, carried)
    }

    fn scf_if(&mut self, op: KOp) -> Result<(), HostError> {
        let c = self.operand(op, 0)?.as_unsigned() == Some(1);
        let region = self.m.op(op).regions[if c { 0 } else { 1 }];
        let Some(&block) = self.m.region(region).blocks.first() else {
            return self.set_results(op, Vec::new());
        };
        let v = match self.run_block(block, Vec::new())? {
            Flow::Yield(v) => v,
            Flow::End => Vec::new(),
            _ => return Err(bad(self.m, op, "regions must end with scf.yield")),
        };
        self.set_results(op, v)
    }

    fn scf_while(&mut self, op: KOp) -> Result<(), HostError> {
        let before = self.m.entry_block(op, 0);
        let after = self.m.entry_block(op, 1);
        let mut args = self.operands(op)?;
        loop {
            match self.run_block(before, args)? {
                Flow::Condition(true, v) => {
                    args = match self.run_block(after, v)? {
                        Flow::Yield(v) => v,
                        _ => return Err(bad(self.m, op, "`do` region must end with scf.yield")),
                    };
                }
                Flow::Condition(false, v) => return self.set_results(op, v),
                _ => {
                    return Err(bad(
                        self.m,
                        op,
                        "`before` region must end with scf.condition",
                    ))
                }
            }
        }
    }

    fn call(&mut self, op: KOp) -> Result<(), HostError> {
        let callee = match self.m.attr(op, "callee") {
            Some(KAttr::SymbolRef(path)) if path.len() == 1 => path[0].clone(),
            _ => return Err(bad(self.m, op, "has no flat `callee` symbol")),
        };
        if let Some(spec) = callee.strip_prefix("fillResource") {
            return self.fill(op, &callee, spec);
        }
        // The fills of MLIR's spirv-cpu-runner test wrappers
        // (`mlir_test_spirv_cpu_runner_c_wrappers`).
        let test_fill = match callee.as_str() {
            "fillI32Buffer" => Some((1, ElemType::I32)),
            "fillF32Buffer1D" => Some((1, ElemType::F32)),
            "fillF32Buffer2D" => Some((2, ElemType::F32)),
            "fillF32Buffer3D" => Some((3, ElemType::F32)),
            _ => None,
        };
        if let Some((rank, elem)) = test_fill {
            return self.fill_buffer(op, &callee, rank, elem);
        }
        if let Some(suffix) = callee.strip_prefix("printMemref") {
            return self.print(op, &callee, suffix);
        }
        let Some(func) = find_func(self.m, &callee) else {
            return Err(HostError::UnknownCallee {
                callee,
                loc: self.loc(op),
            });
        };
        let args = self.operands(op)?;
        let results = self.call_func(func, args)?;
        self.set_results(op, results)
    }

    /// `fillResource{1,2,3}D{Float,Int,Int8}(memref, value)`.
    fn fill(&mut self, op: KOp, callee: &str, spec: &str) -> Result<(), HostError> {
        let unknown = || HostError::UnknownCallee {
            callee: callee.to_owned(),
            loc: self.loc(op),
        };
        let (rank, kind) = spec.split_once('D').ok_or_else(unknown)?;
        let rank: usize = match rank {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            _ => return Err(unknown()),
        };
        let elem = match kind {
            "Float" => ElemType::F32,
            "Int" => ElemType::I32,
            "Int8" => ElemType::I8,
            _ => return Err(unknown()),
        };
        self.fill_buffer(op, callee, rank, elem)
    }

    /// Fills a rank-`rank` memref of `elem` with the call's second operand.
    fn fill_buffer(
        &mut self,
        op: KOp,
        callee: &str,
        rank: usize,
        elem: ElemType,
    ) -> Result<(), HostError> {
        let loc = self.loc(op);
        let callee_err = |message: String| HostError::BadOp {
            op: format!("call @{callee}"),
            loc,
            message,
        };
        let b = self.buffer_operand(op, 0)?;
        let v = self.operand(op, 1)?;
        let buf = &self.buffers[b];
        if buf.shape().len() != rank || buf.elem() != elem {
            return Err(callee_err(format!(
                "expects a rank-{rank} memref of {elem:?}, got rank {} of {:?}",
                buf.shape().len(),
                buf.elem()
            )));
        }
        let buf = &mut self.buffers[b];
        for at in 0..buf.len() {
            if !buf.set(at, &v) {
                return Err(callee_err(
                    "the fill value does not match the element type".into(),
                ));
            }
        }
        Ok(())
    }

    /// `printMemref{F32,F64,I8,I16,I32,I64,Ind}(memref<*xT>)`.
    fn print(&mut self, op: KOp, callee: &str, suffix: &str) -> Result<(), HostError> {
        let elem = match suffix {
            "F32" => ElemType::F32,
            "F64" => ElemType::F64,
            "I8" => ElemType::I8,
            "I16" => ElemType::I16,
            "I32" => ElemType::I32,
            "I64" => ElemType::I64,
            "Ind" => ElemType::Index,
            _ => {
                return Err(HostError::UnknownCallee {
                    callee: callee.to_owned(),
                    loc: self.loc(op),
                })
            }
        };
        let b = self.buffer_operand(op, 0)?;
        let buf = &self.buffers[b];
        if buf.elem() != elem {
            return Err(HostError::BadOp {
                op: format!("call @{callee}"),
                loc: self.loc(op),
                message: format!("expects a memref of {elem:?}, got {:?}", buf.elem()),
            });
        }
        let text = format_memref(buf, buf.bytes().as_ptr() as usize);
        self.out.write_all(text.as_bytes())?;
        Ok(())
    }

    fn launch(&mut self, op: KOp) -> Result<(), HostError> {
        let (module, kernel) = match self.m.attr(op, "kernel") {
            Some(KAttr::SymbolRef(p)) if p.len() == 2 => (p[0].clone(), p[1].clone()),
            _ => return Err(bad(self.m, op, "needs a `kernel` symbol @module::@kernel")),
        };
        let n = self.m.op(op).operands.len();
        let segs: Vec<usize> = match self.m.attr(op, "operandSegmentSizes") {
            Some(KAttr::DenseI64(s)) if s.len() == 13 => {
                s.iter().map(|&x| x.max(0) as usize).collect()
            }
            _ if n >= 6 => vec![0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, n - 6, 0],
            _ => return Err(bad(self.m, op, "needs grid and block sizes")),
        };
        if segs.iter().try_fold(0usize, |a, &c| a.checked_add(c)) != Some(n) {
            return Err(bad(
                self.m,
                op,
                "operandSegmentSizes does not match the operands",
            ));
        }
        if segs[0] != 0 || segs[12] != 0 {
            return Err(bad(self.m, op, "async launches are not supported"));
        }
        if segs[7..10].iter().any(|&c| c != 0) {
            return Err(bad(self.m, op, "cluster sizes are not supported"));
        }
        if segs[10] != 0 {
            return Err(bad(
                self.m,
                op,
                "dynamic shared memory is not supported by the Vulkan runner",
            ));
        }
        let dim = |i: usize| -> Result<u32, HostError> {
            let v = self.index_operand(op, i)?;
            u32::try_from(v)
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| bad(self.m, op, format!("launch size {v} is not in 1..=2^32-1")))
        };
        let grid = [dim(0)?, dim(1)?, dim(2)?];
        let block = [dim(3)?, dim(4)?, dim(5)?];
        let first_arg: usize = segs[..11].iter().sum();
        let mut ids = Vec::new();
        for i in first_arg..first_arg + segs[11] {
            let id = self.operand(op, i)?.as_memref().ok_or_else(|| {
                bad(
                    self.m,
                    op,
                    format!(
                        "argument #{} is not a memref (the Vulkan runner passes memrefs only)",
                        i - first_arg
                    ),
                )
            })?;
            if ids.contains(&id) {
                return Err(bad(
                    self.m,
                    op,
                    format!(
                        "argument #{} is a buffer already passed to this launch",
                        i - first_arg
                    ),
                ));
            }
            ids.push(id);
        }
        let mut taken: Vec<HostBuffer> = ids
            .iter()
            .map(|&id| std::mem::replace(&mut self.buffers[id], placeholder()))
            .collect();
        let request = LaunchRequest {
            module: &module,
            kernel: &kernel,
            grid,
            block,
        };
        let result = {
            let mut refs: Vec<&mut HostBuffer> = taken.iter_mut().collect();
            self.launcher.launch(&request, &mut refs)
        };
        for (&id, buf) in ids.iter().zip(taken.drain(..)) {
            self.buffers[id] = buf;
        }
        let timing = result.map_err(|source| HostError::Launch {
            module: module.clone(),
            kernel: kernel.clone(),
            loc: self.loc(op),
            source,
        })?;
        if let Some(timing) = timing {
            self.out.write_all(timing.runner_text().as_bytes())?;
        }
        Ok(())
    }
}

/// An empty stand-in while a buffer is lent to the launcher.
fn placeholder() -> HostBuffer {
    HostBuffer::empty()
}

/// The number of lanes of a vector type.
fn vector_len(ty: &KType) -> Option<usize> {
    match ty {
        KType::Vector { shape, .. } => shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(usize::try_from(d).ok()?)),
        _ => None,
    }
}
