//! Building one [`Function`]: values, blocks and instructions appended at
//! an insertion block.

use super::ir::{
    BinOp, BlockData, CastOp, ConstValue, FPred, Function, GepIndex, IPred, Inst, InstKind,
    Intrinsic, LBlock, LType, LValue, Linkage, MemFlags,
};

/// Appends instructions to a function under construction.
#[derive(Debug)]
pub struct FnBuilder {
    /// The function so far.
    pub func: Function,
    cur: LBlock,
}

impl FnBuilder {
    /// A function with the given parameters and an empty entry block.
    pub fn new(name: impl Into<String>, params: &[LType], ret: LType) -> Self {
        let mut func = Function {
            name: name.into(),
            params: Vec::new(),
            ret,
            values: Vec::new(),
            blocks: vec![BlockData::default()],
            linkage: Linkage::External,
            passthrough: Vec::new(),
            memory: None,
        };
        for t in params {
            let v = LValue(func.values.len() as u32);
            func.values.push(t.clone());
            func.params.push(v);
        }
        FnBuilder {
            func,
            cur: LBlock(0),
        }
    }

    /// The finished function.
    pub fn finish(self) -> Function {
        self.func
    }

    /// A fresh value of type `ty`.
    pub fn value(&mut self, ty: LType) -> LValue {
        let v = LValue(self.func.values.len() as u32);
        self.func.values.push(ty);
        v
    }

    /// The type of `v`.
    pub fn ty(&self, v: LValue) -> &LType {
        self.func.ty(v)
    }

    /// The `i`-th parameter.
    pub fn param(&self, i: usize) -> LValue {
        self.func.params[i]
    }

    /// A new block with arguments of the given types (not the insertion point).
    pub fn block(&mut self, arg_types: &[LType]) -> (LBlock, Vec<LValue>) {
        let b = LBlock(self.func.blocks.len() as u32);
        let args: Vec<LValue> = arg_types.iter().map(|t| self.value(t.clone())).collect();
        self.func.blocks.push(BlockData {
            args: args.clone(),
            insts: Vec::new(),
        });
        (b, args)
    }

    /// Makes `b` the insertion block.
    pub fn set_block(&mut self, b: LBlock) {
        self.cur = b;
    }

    /// The insertion block.
    pub fn current(&self) -> LBlock {
        self.cur
    }

    /// Appends an instruction with a result of type `ty`.
    pub fn inst(&mut self, kind: InstKind, operands: Vec<LValue>, ty: LType) -> LValue {
        let r = self.value(ty);
        self.append(Inst {
            kind,
            operands,
            result: Some(r),
            successors: Vec::new(),
        });
        r
    }

    /// Appends an instruction without result.
    pub fn effect(&mut self, kind: InstKind, operands: Vec<LValue>) {
        self.append(Inst {
            kind,
            operands,
            result: None,
            successors: Vec::new(),
        });
    }

    /// Appends a terminator with successors.
    pub fn terminate(
        &mut self,
        kind: InstKind,
        operands: Vec<LValue>,
        successors: Vec<(LBlock, Vec<LValue>)>,
    ) {
        self.append(Inst {
            kind,
            operands,
            result: None,
            successors,
        });
    }

    fn append(&mut self, inst: Inst) {
        self.func.blocks[self.cur.0 as usize].insts.push(inst);
    }

    // ---- shorthands ------------------------------------------------------

    /// A scalar integer constant (or a splat when `ty` is a vector).
    pub fn const_int(&mut self, ty: LType, v: i128) -> LValue {
        let value = match &ty {
            LType::Vector(n, _) => ConstValue::Lanes(vec![ConstValue::Int(v); *n as usize]),
            _ => ConstValue::Int(v),
        };
        self.inst(InstKind::Constant(value), Vec::new(), ty)
    }

    /// A float constant of `ty` (a splat for vectors).
    pub fn const_float(&mut self, ty: LType, v: f64) -> LValue {
        let value = match &ty {
            LType::Vector(n, _) => {
                ConstValue::Lanes(vec![ConstValue::Float(v.to_bits()); *n as usize])
            }
            _ => ConstValue::Float(v.to_bits()),
        };
        self.inst(InstKind::Constant(value), Vec::new(), ty)
    }

    /// An `i32` constant.
    pub fn i32(&mut self, v: i64) -> LValue {
        self.const_int(LType::I32, i128::from(v))
    }

    /// An `i64` constant.
    pub fn i64(&mut self, v: i64) -> LValue {
        self.const_int(LType::I64, i128::from(v))
    }

    /// `undef` of `ty`.
    pub fn undef(&mut self, ty: LType) -> LValue {
        self.inst(InstKind::Undef, Vec::new(), ty)
    }

    /// `zeroinitializer` / `null` of `ty`.
    pub fn zero(&mut self, ty: LType) -> LValue {
        self.inst(InstKind::Zero, Vec::new(), ty)
    }

    /// `a op b`, typed like `a`.
    pub fn bin(&mut self, op: BinOp, a: LValue, b: LValue) -> LValue {
        let ty = self.ty(a).clone();
        self.inst(InstKind::Binary(op), vec![a, b], ty)
    }

    /// `icmp pred a, b`.
    pub fn icmp(&mut self, pred: IPred, a: LValue, b: LValue) -> LValue {
        let ty = self.ty(a).with_scalar(LType::BOOL);
        self.inst(InstKind::ICmp(pred), vec![a, b], ty)
    }

    /// `fcmp pred a, b`.
    pub fn fcmp(&mut self, pred: FPred, a: LValue, b: LValue) -> LValue {
        let ty = self.ty(a).with_scalar(LType::BOOL);
        self.inst(InstKind::FCmp(pred), vec![a, b], ty)
    }

    /// `op x to ty`.
    pub fn cast(&mut self, op: CastOp, x: LValue, ty: LType) -> LValue {
        self.inst(InstKind::Cast(op), vec![x], ty)
    }

    /// `select c, a, b`.
    pub fn select(&mut self, c: LValue, a: LValue, b: LValue) -> LValue {
        let ty = self.ty(a).clone();
        self.inst(InstKind::Select, vec![c, a, b], ty)
    }

    /// An intrinsic call giving `ty`.
    pub fn intrinsic(
        &mut self,
        name: &'static str,
        overloads: Vec<LType>,
        args: Vec<LValue>,
        ty: LType,
    ) -> LValue {
        self.inst(
            InstKind::Intrinsic(Intrinsic {
                name,
                overloads,
                flag: None,
            }),
            args,
            ty,
        )
    }

    /// An intrinsic overloaded on its result type only (`llvm.sqrt.f32`).
    pub fn unary_intrinsic(&mut self, name: &'static str, args: Vec<LValue>) -> LValue {
        let ty = self.ty(args[0]).clone();
        self.intrinsic(name, vec![ty.clone()], args, ty)
    }

    /// `extractvalue agg[path]`.
    pub fn extract_value(&mut self, agg: LValue, path: Vec<u32>, ty: LType) -> LValue {
        self.inst(InstKind::ExtractValue(path), vec![agg], ty)
    }

    /// `insertvalue agg, x, path`.
    pub fn insert_value(&mut self, agg: LValue, x: LValue, path: Vec<u32>) -> LValue {
        let ty = self.ty(agg).clone();
        self.inst(InstKind::InsertValue(path), vec![agg, x], ty)
    }

    /// `extractelement v, i`.
    pub fn extract_element(&mut self, v: LValue, i: LValue) -> LValue {
        let ty = self.ty(v).scalar().clone();
        self.inst(InstKind::ExtractElement, vec![v, i], ty)
    }

    /// `insertelement v, x, i`.
    pub fn insert_element(&mut self, v: LValue, x: LValue, i: LValue) -> LValue {
        let ty = self.ty(v).clone();
        self.inst(InstKind::InsertElement, vec![v, x, i], ty)
    }

    /// A vector of `ty` with `x` in every lane.
    pub fn splat(&mut self, x: LValue, ty: &LType) -> LValue {
        let mut v = self.undef(ty.clone());
        for lane in 0..ty.lanes() {
            let i = self.i32(i64::from(lane));
            v = self.insert_element(v, x, i);
        }
        v
    }

    /// An `alloca` of one `elem` at the start of the entry block, so a
    /// loop does not grow the stack.
    pub fn entry_alloca(&mut self, elem: LType) -> LValue {
        let one = self.value(LType::I32);
        let p = self.value(LType::PTR);
        let entry = &mut self.func.blocks[0].insts;
        entry.insert(
            0,
            Inst {
                kind: InstKind::Alloca { elem, align: None },
                operands: vec![one],
                result: Some(p),
                successors: Vec::new(),
            },
        );
        entry.insert(
            0,
            Inst {
                kind: InstKind::Constant(ConstValue::Int(1)),
                operands: Vec::new(),
                result: Some(one),
                successors: Vec::new(),
            },
        );
        p
    }

    /// `load ty, p`.
    pub fn load(&mut self, p: LValue, ty: LType, flags: MemFlags) -> LValue {
        self.inst(InstKind::Load(flags), vec![p], ty)
    }

    /// `store x, p`.
    pub fn store(&mut self, x: LValue, p: LValue, flags: MemFlags) {
        self.effect(InstKind::Store(flags), vec![x, p]);
    }

    /// `getelementptr i8, base, offset` (a byte offset, `i64`).
    pub fn byte_gep(&mut self, base: LValue, offset: LValue) -> LValue {
        self.inst(
            InstKind::Gep {
                elem: LType::Int(8),
                indices: vec![GepIndex::Operand(1)],
            },
            vec![base, offset],
            LType::PTR,
        )
    }

    /// `getelementptr i8, base, CONST`.
    pub fn byte_gep_const(&mut self, base: LValue, offset: u64) -> LValue {
        if offset == 0 {
            return base;
        }
        let off = self.i64(offset as i64);
        self.byte_gep(base, off)
    }

    /// A call of `callee` (result type `ret`; `Void` gives no result).
    pub fn call(&mut self, callee: &str, args: Vec<LValue>, ret: LType) -> Option<LValue> {
        let kind = InstKind::Call {
            callee: callee.to_owned(),
        };
        if ret == LType::Void {
            self.effect(kind, args);
            None
        } else {
            Some(self.inst(kind, args, ret))
        }
    }

    /// `br target(args)`.
    pub fn br(&mut self, target: LBlock, args: Vec<LValue>) {
        self.terminate(InstKind::Br, Vec::new(), vec![(target, args)]);
    }

    /// `br c, t(targs), f(fargs)`.
    pub fn cond_br(
        &mut self,
        c: LValue,
        t: (LBlock, Vec<LValue>),
        f: (LBlock, Vec<LValue>),
        weights: Option<(u32, u32)>,
    ) {
        self.terminate(InstKind::CondBr { weights }, vec![c], vec![t, f]);
    }
}
