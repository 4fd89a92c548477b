//! [`FuncBuilder`]: builds tensor programs without text.
//!
//! ```
//! use kiln_core::tensor::builder::FuncBuilder;
//! use kiln_core::tensor::ops::{ArithOp, ContractionKind, LinalgKind};
//! use kiln_core::tensor::{print, verify, ElemType, TensorModule};
//!
//! let mut m = TensorModule::new();
//! let a = m.types.static_tensor(&[4, 8], ElemType::F32);
//! let b = m.types.static_tensor(&[8, 2], ElemType::F32);
//! let c = m.types.static_tensor(&[4, 2], ElemType::F32);
//! let mut f = FuncBuilder::new(&mut m, "mm", &[a, b], &[c]);
//! let (x, y) = (f.arg(0), f.arg(1));
//! let zero = f.constant_float(0.0, ElemType::F32);
//! let init = f.empty(&[4, 2], ElemType::F32);
//! let acc = f.fill(zero, init);
//! let mm = f.linalg(LinalgKind::Contraction(ContractionKind::Matmul), &[x, y], &[acc]).unwrap();
//! let relu = f.map(&[mm[0]], acc, |body, args| {
//!     let z = body.constant(kiln_core::tensor::ScalarBits::Float(0.0), ElemType::F32);
//!     vec![body.arith(ArithOp::MaximumF, vec![args[0], z], ElemType::F32)]
//! });
//! f.ret(&[relu]);
//! f.finish();
//! verify(&m).unwrap();
//! assert!(print(&m).contains("linalg.matmul ins("));
//! ```
//!
//! Named linalg ops get their structured body (see
//! [`structured`](mod@super::structured)); result types of `arith`/`math` ops
//! follow from the operands. The builder does not verify: call
//! [`verify`](super::verify()) on the module.

use super::affine::AffineMap;
use super::attr::{ConstAttr, DenseElements, IteratorType};
use super::entity::{TBlock, TFunc, TOp, TType, TValue};
use super::module::TensorModule;
use super::ops::{ArithOp, LinalgKind, LinalgOp, MathOp, OpKind, Signature, TensorOp};
use super::structured::{build_named_body, operand_elem, BodyBuilder};
use super::types::{Dim, ElemType, TypeKind};
use crate::ir::Location;

/// Appends ops to a function's body.
pub struct FuncBuilder<'m> {
    m: &'m mut TensorModule,
    func: TFunc,
    block: TBlock,
}

impl<'m> FuncBuilder<'m> {
    /// A new function `name(inputs) -> results` with an empty body.
    pub fn new(m: &'m mut TensorModule, name: &str, inputs: &[TType], results: &[TType]) -> Self {
        let func = m.add_func(
            name,
            inputs.to_vec(),
            results.to_vec(),
            true,
            Location::UNKNOWN,
        );
        let block = m.func(func).body.expect("add_func with a body");
        FuncBuilder { m, func, block }
    }

    /// The module being built.
    pub fn module(&mut self) -> &mut TensorModule {
        self.m
    }

    /// Argument `i` of the function.
    pub fn arg(&self, i: usize) -> TValue {
        self.m.block(self.block).args[i]
    }

    /// Appends an op and returns it.
    pub fn op(
        &mut self,
        kind: OpKind,
        operands: Vec<TValue>,
        results: &[TType],
        regions: Vec<TBlock>,
    ) -> TOp {
        let op = self
            .m
            .create_op(kind, operands, results, regions, Location::UNKNOWN);
        self.m.append_op(self.block, op);
        op
    }

    fn one(&mut self, kind: OpKind, operands: Vec<TValue>, result: TType) -> TValue {
        let op = self.op(kind, operands, &[result], vec![]);
        self.m.op(op).results[0]
    }

    /// `arith.constant`.
    pub fn constant(&mut self, value: ConstAttr) -> TValue {
        let ty = value.ty();
        self.one(OpKind::Constant(value), vec![], ty)
    }

    /// A float scalar constant.
    pub fn constant_float(&mut self, value: f64, elem: ElemType) -> TValue {
        let ty = self.m.types.scalar(elem);
        self.constant(ConstAttr::Float { value, ty })
    }

    /// An integer (or `index`, or `i1`) scalar constant.
    pub fn constant_int(&mut self, value: i64, elem: ElemType) -> TValue {
        let ty = self.m.types.scalar(elem);
        self.constant(ConstAttr::Int { value, ty })
    }

    /// A dense tensor constant.
    pub fn constant_dense(&mut self, value: DenseElements) -> TValue {
        self.constant(ConstAttr::Dense(value))
    }

    /// An `arith` op; the result type follows from the operands (an `i1`
    /// of the operands' shape for comparisons). Casts use [`Self::cast`].
    pub fn arith(&mut self, op: ArithOp, operands: &[TValue]) -> TValue {
        let first = self.m.value_type(operands[0]);
        let result = match op.signature() {
            Signature::Same(_) | Signature::Cast | Signature::FloatInt => first,
            Signature::Select => self.m.value_type(operands[1]),
            Signature::Compare => self.with_elem(first, ElemType::I1),
        };
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.one(kind, operands.to_vec(), result)
    }

    /// A cast (`arith.extf`, `arith.sitofp`, ...) of `v` to element type `to`.
    pub fn cast(&mut self, op: ArithOp, v: TValue, to: ElemType) -> TValue {
        let ty = self.m.value_type(v);
        let result = self.with_elem(ty, to);
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.one(kind, vec![v], result)
    }

    /// A `math` op (result of the operands' type).
    pub fn math(&mut self, op: MathOp, operands: &[TValue]) -> TValue {
        let ty = self.m.value_type(operands[0]);
        let kind = OpKind::Math {
            op,
            fastmath: Default::default(),
        };
        self.one(kind, operands.to_vec(), ty)
    }

    fn with_elem(&mut self, ty: TType, elem: ElemType) -> TType {
        let kind = match self.m.ty(ty).clone() {
            TypeKind::Tensor { shape, .. } => TypeKind::Tensor { shape, elem },
            TypeKind::Vector { shape, .. } => TypeKind::Vector { shape, elem },
            TypeKind::Scalar(_) => TypeKind::Scalar(elem),
        };
        self.m.types.intern(kind)
    }

    /// `tensor.empty() : tensor<shape x elem>` (static shape).
    pub fn empty(&mut self, shape: &[u64], elem: ElemType) -> TValue {
        let ty = self.m.types.static_tensor(shape, elem);
        self.one(OpKind::Tensor(TensorOp::Empty), vec![], ty)
    }

    /// `tensor.empty(%sizes) : tensor<...>` with dynamic dims taken from
    /// `dynamic_sizes` (index values) in order.
    pub fn empty_dynamic(
        &mut self,
        shape: &[Dim],
        elem: ElemType,
        dynamic_sizes: &[TValue],
    ) -> TValue {
        let ty = self.m.types.tensor(shape, elem);
        self.one(OpKind::Tensor(TensorOp::Empty), dynamic_sizes.to_vec(), ty)
    }

    /// `tensor.dim %t, %i`.
    pub fn dim(&mut self, t: TValue, index: TValue) -> TValue {
        let ty = self.m.types.scalar(ElemType::Index);
        self.one(OpKind::Tensor(TensorOp::Dim), vec![t, index], ty)
    }

    /// Any `tensor` op with one result of type `result`.
    pub fn tensor_op(&mut self, op: TensorOp, operands: &[TValue], result: TType) -> TValue {
        self.one(OpKind::Tensor(op), operands.to_vec(), result)
    }

    /// `linalg.fill ins(%value) outs(%init)`.
    pub fn fill(&mut self, value: TValue, init: TValue) -> TValue {
        self.linalg(LinalgKind::Fill, &[value], &[init])
            .map(|r| r[0])
            .expect("fill has a synthesized body")
    }

    /// A named linalg op (everything but generic, map, reduce and
    /// softmax, which have their own methods), with its structured body;
    /// returns its results (one per output).
    pub fn linalg(
        &mut self,
        kind: LinalgKind,
        ins: &[TValue],
        outs: &[TValue],
    ) -> Result<Vec<TValue>, super::structured::StructuredError> {
        let in_elems: Vec<ElemType> = ins.iter().map(|&v| operand_elem(self.m, v)).collect();
        let out_elems: Vec<ElemType> = outs.iter().map(|&v| operand_elem(self.m, v)).collect();
        let body = build_named_body(self.m, &kind, &in_elems, &out_elems)?;
        Ok(self.structured(kind, ins, outs, Some(body)))
    }

    fn structured(
        &mut self,
        kind: LinalgKind,
        ins: &[TValue],
        outs: &[TValue],
        body: Option<TBlock>,
    ) -> Vec<TValue> {
        let results: Vec<TType> = outs.iter().map(|&v| self.m.value_type(v)).collect();
        let operands = ins.iter().chain(outs).copied().collect();
        let op = self.op(
            OpKind::Linalg(LinalgOp {
                kind,
                num_inputs: ins.len(),
            }),
            operands,
            &results,
            body.into_iter().collect(),
        );
        self.m.op(op).results.clone()
    }

    /// A body block for `ins`/`outs` (one argument per operand), filled by
    /// `f`, which returns the values to yield.
    fn body(
        &mut self,
        ins: &[TValue],
        outs: &[TValue],
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> Vec<TValue>,
    ) -> TBlock {
        let types: Vec<TType> = ins
            .iter()
            .chain(outs)
            .map(|&v| {
                let e = operand_elem(self.m, v);
                self.m.types.scalar(e)
            })
            .collect();
        let block = self.m.create_block(&types);
        let args = self.m.block(block).args.clone();
        let mut b = BodyBuilder::new(self.m, block);
        let yields = f(&mut b, &args);
        b.yield_(yields);
        block
    }

    /// `linalg.generic` with a body built by `f` (given one scalar argument
    /// per input then per output; it returns one value per output).
    pub fn generic(
        &mut self,
        indexing_maps: Vec<AffineMap>,
        iterator_types: Vec<IteratorType>,
        ins: &[TValue],
        outs: &[TValue],
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> Vec<TValue>,
    ) -> Vec<TValue> {
        let body = self.body(ins, outs, f);
        self.structured(
            LinalgKind::Generic {
                indexing_maps,
                iterator_types,
            },
            ins,
            outs,
            Some(body),
        )
    }

    /// `linalg.map`: `f` gets the input scalars and the output's.
    pub fn map(
        &mut self,
        ins: &[TValue],
        out: TValue,
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> Vec<TValue>,
    ) -> TValue {
        let body = self.body(ins, &[out], f);
        self.structured(LinalgKind::Map, ins, &[out], Some(body))[0]
    }

    /// `linalg.reduce ... dimensions = [...]`: `f` gets the input scalars
    /// then the accumulators.
    pub fn reduce(
        &mut self,
        ins: &[TValue],
        outs: &[TValue],
        dimensions: &[u64],
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> Vec<TValue>,
    ) -> Vec<TValue> {
        let body = self.body(ins, outs, f);
        let kind = LinalgKind::Reduce {
            dimensions: dimensions.to_vec(),
        };
        self.structured(kind, ins, outs, Some(body))
    }

    /// `linalg.softmax dimension(d)`.
    pub fn softmax(&mut self, input: TValue, out: TValue, dimension: u64) -> TValue {
        self.structured(LinalgKind::Softmax { dimension }, &[input], &[out], None)[0]
    }

    /// `func.call @callee(args)` with results of `results` types.
    pub fn call(&mut self, callee: &str, args: &[TValue], results: &[TType]) -> Vec<TValue> {
        let op = self.op(
            OpKind::Call {
                callee: callee.to_string(),
            },
            args.to_vec(),
            results,
            vec![],
        );
        self.m.op(op).results.clone()
    }

    /// `func.return values`.
    pub fn ret(&mut self, values: &[TValue]) {
        self.op(OpKind::Return, values.to_vec(), &[], vec![]);
    }

    /// The built function.
    pub fn finish(self) -> TFunc {
        self.func
    }
}
