//! A builder for memref-level kernels, for front ends that create kernels
//! without going through text.
//!
//! [`KernelBuilder`] appends ops at an insertion block and infers result
//! types from operands the way the parser does (`addf` gives its operands'
//! type, `cmpi` gives `i1` of their shape, `load` gives the element type).
//! Structured ops take closures that fill their regions and return the
//! values to yield. The builder never panics and does not check types:
//! run [`verify`](super::verify()) on the finished module.
//!
//! ```
//! use kiln_core::kernel::builder::{FuncOptions, KernelBuilder};
//! use kiln_core::kernel::{KType, MemorySpace};
//!
//! let mut m = kiln_core::kernel::KernelModule::new();
//! let mut b = KernelBuilder::new(&mut m);
//! b.container_module();
//! let gm = b.gpu_module("kernels");
//! let buf = KType::memref(&[8], KType::f32(), MemorySpace::Default);
//! let (_, args) = b.gpu_func(gm, "double", &[buf], FuncOptions::kernel([8, 1, 1]));
//! let i = b.thread_id("x");
//! let v = b.load(args[0], &[i]);
//! let d = b.addf(v, v);
//! b.store(d, args[0], &[i]);
//! b.gpu_return(&[]);
//! assert!(kiln_core::kernel::verify(&m).is_ok());
//! ```

use super::module::{KAttr, KernelModule};
use super::ops::KOpKind;
use super::parse::ops::bool_like;
use super::types::{GpuAddressSpace, KType, MemorySpace};
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KValue};
use kiln_abi::EntryPointAbi;

/// A branch body of [`KernelBuilder::if_`]: fills the block, returns the
/// values to yield.
pub type Branch<'a, 'm> = Box<dyn FnOnce(&mut KernelBuilder<'m>) -> Vec<KValue> + 'a>;

/// Options of [`KernelBuilder::gpu_func`].
#[derive(Clone, Debug, Default)]
pub struct FuncOptions {
    /// Mark it `kernel`.
    pub kernel: bool,
    /// Its `spirv.entry_point_abi`.
    pub entry_point_abi: Option<EntryPointAbi>,
    /// Workgroup attributions (`memref` types; the memory space is set to
    /// `#gpu.address_space<workgroup>`).
    pub workgroup: Vec<KType>,
    /// Private attributions (memory space set to `private`).
    pub private: Vec<KType>,
    /// Result types (non-kernel functions only).
    pub results: Vec<KType>,
}

impl FuncOptions {
    /// A kernel with `workgroup_size`.
    pub fn kernel(workgroup_size: [u32; 3]) -> Self {
        Self {
            kernel: true,
            entry_point_abi: Some(EntryPointAbi::with_workgroup_size(workgroup_size)),
            ..Self::default()
        }
    }
}

/// Appends kernel ops to a [`KernelModule`].
pub struct KernelBuilder<'m> {
    m: &'m mut KernelModule,
    block: KBlock,
    loc: Location,
}

fn with_space(ty: &KType, space: GpuAddressSpace) -> KType {
    match ty {
        KType::MemRef {
            shape,
            elem,
            layout,
            ..
        } => KType::MemRef {
            shape: shape.clone(),
            elem: elem.clone(),
            layout: layout.clone(),
            space: MemorySpace::Gpu(space),
        },
        other => other.clone(),
    }
}

macro_rules! binary_helpers {
    ($($(#[$doc:meta])* $name:ident => $kind:ident,)*) => {
        $(
            $(#[$doc])*
            #[doc = concat!("Appends `", stringify!($kind), "` (result: `a`'s type).")]
            pub fn $name(&mut self, a: KValue, b: KValue) -> KValue {
                self.binary(KOpKind::$kind, a, b)
            }
        )*
    };
}

macro_rules! unary_helpers {
    ($($name:ident => $kind:ident,)*) => {
        $(
            #[doc = concat!("Appends `", stringify!($kind), "` (result: `x`'s type).")]
            pub fn $name(&mut self, x: KValue) -> KValue {
                self.unary(KOpKind::$kind, x)
            }
        )*
    };
}

impl<'m> KernelBuilder<'m> {
    /// A builder appending to `m`'s top-level module body.
    pub fn new(m: &'m mut KernelModule) -> Self {
        let block = m.body();
        Self {
            m,
            block,
            loc: Location::UNKNOWN,
        }
    }

    /// The module.
    pub fn module(&mut self) -> &mut KernelModule {
        self.m
    }

    /// The current insertion block.
    pub fn insertion_block(&self) -> KBlock {
        self.block
    }

    /// Moves the insertion point to the end of `block`.
    pub fn set_insertion(&mut self, block: KBlock) {
        self.block = block;
    }

    /// Sets the location given to the next ops.
    pub fn set_location(&mut self, loc: Location) {
        self.loc = loc;
    }

    /// The type of `v`.
    pub fn type_of(&self, v: KValue) -> KType {
        self.m.value_type(v).clone()
    }

    /// Appends an op of `kind` and returns it.
    pub fn op(
        &mut self,
        kind: KOpKind,
        operands: &[KValue],
        results: &[KType],
        attrs: Vec<(String, KAttr)>,
    ) -> KOp {
        let op = self
            .m
            .create_op(kind, operands, results, attrs, 0, self.loc);
        self.m.append_op(self.block, op);
        op
    }

    fn one(
        &mut self,
        kind: KOpKind,
        operands: &[KValue],
        result: KType,
        attrs: Vec<(String, KAttr)>,
    ) -> KValue {
        let op = self.op(kind, operands, &[result], attrs);
        self.m.op(op).results[0]
    }

    // ---- structure -------------------------------------------------------

    /// Sets `gpu.container_module` on the top module (needed by
    /// `gpu.launch_func`).
    pub fn container_module(&mut self) {
        let top = self.m.top();
        self.m.set_attr(top, "gpu.container_module", KAttr::Unit);
    }

    /// Appends `gpu.module @name` to the top module.
    pub fn gpu_module(&mut self, name: &str) -> KOp {
        let body = self.m.body();
        let op = self.m.create_op(
            KOpKind::GpuModule,
            &[],
            &[],
            vec![("sym_name".into(), KAttr::String(name.into()))],
            1,
            self.loc,
        );
        self.m.append_op(body, op);
        let region = self.m.op(op).regions[0];
        self.m.append_block(region, &[]);
        op
    }

    /// Appends `gpu.func @name` to `gpu_module`, moves the insertion point
    /// into its body and returns it with its arguments (inputs, then the
    /// workgroup, then the private attributions).
    pub fn gpu_func(
        &mut self,
        gpu_module: KOp,
        name: &str,
        inputs: &[KType],
        opts: FuncOptions,
    ) -> (KOp, Vec<KValue>) {
        let mut attrs = vec![
            ("sym_name".to_owned(), KAttr::String(name.into())),
            (
                "function_type".to_owned(),
                KAttr::Type(KType::Function {
                    inputs: inputs.to_vec(),
                    results: opts.results.clone(),
                }),
            ),
        ];
        if opts.kernel {
            attrs.push(("gpu.kernel".into(), KAttr::Unit));
        }
        attrs.push((
            "workgroup_attributions".into(),
            KAttr::Int {
                value: opts.workgroup.len() as i128,
                ty: KType::Int(64),
            },
        ));
        if let Some(abi) = opts.entry_point_abi {
            attrs.push((EntryPointAbi::ATTR_NAME.into(), KAttr::EntryPointAbi(abi)));
        }
        let op = self
            .m
            .create_op(KOpKind::GpuFunc, &[], &[], attrs, 1, self.loc);
        let parent = self
            .m
            .op(gpu_module)
            .regions
            .first()
            .and_then(|&r| self.m.region(r).blocks.first().copied())
            .unwrap_or(self.m.body());
        self.m.append_op(parent, op);
        let mut arg_types = inputs.to_vec();
        arg_types.extend(
            opts.workgroup
                .iter()
                .map(|t| with_space(t, GpuAddressSpace::Workgroup)),
        );
        arg_types.extend(
            opts.private
                .iter()
                .map(|t| with_space(t, GpuAddressSpace::Private)),
        );
        let region = self.m.op(op).regions[0];
        let block = self.m.append_block(region, &arg_types);
        self.block = block;
        (op, self.m.block(block).args.clone())
    }

    /// Appends `func.func @name` with a body to the top module and moves
    /// the insertion point into it.
    pub fn func(&mut self, name: &str, inputs: &[KType], results: &[KType]) -> (KOp, Vec<KValue>) {
        let op = self.func_op(name, inputs, results, None);
        let region = self.m.op(op).regions[0];
        let block = self.m.append_block(region, inputs);
        self.block = block;
        (op, self.m.block(block).args.clone())
    }

    /// Appends the declaration `func.func private @name(inputs) -> results`
    /// (runtime functions such as `@fillResource1DFloat`).
    pub fn func_decl(&mut self, name: &str, inputs: &[KType], results: &[KType]) -> KOp {
        self.func_op(name, inputs, results, Some("private"))
    }

    fn func_op(
        &mut self,
        name: &str,
        inputs: &[KType],
        results: &[KType],
        vis: Option<&str>,
    ) -> KOp {
        let mut attrs = vec![
            ("sym_name".to_owned(), KAttr::String(name.into())),
            (
                "function_type".to_owned(),
                KAttr::Type(KType::Function {
                    inputs: inputs.to_vec(),
                    results: results.to_vec(),
                }),
            ),
        ];
        if let Some(v) = vis {
            attrs.push(("sym_visibility".into(), KAttr::String(v.into())));
        }
        let op = self
            .m
            .create_op(KOpKind::FuncFunc, &[], &[], attrs, 1, self.loc);
        let body = self.m.body();
        self.m.append_op(body, op);
        op
    }

    /// `gpu.return values`.
    pub fn gpu_return(&mut self, values: &[KValue]) {
        self.op(KOpKind::GpuReturn, values, &[], Vec::new());
    }

    /// `func.return values`.
    pub fn func_return(&mut self, values: &[KValue]) {
        self.op(KOpKind::FuncReturn, values, &[], Vec::new());
    }

    /// `func.call @callee(args) : (...) -> results`.
    pub fn call(&mut self, callee: &str, args: &[KValue], results: &[KType]) -> Vec<KValue> {
        let op = self.op(
            KOpKind::FuncCall,
            args,
            results,
            vec![("callee".into(), KAttr::SymbolRef(vec![callee.into()]))],
        );
        self.m.op(op).results.clone()
    }

    /// `gpu.launch_func @module::@kernel blocks in grid threads in block
    /// args(args)`.
    pub fn launch_func(
        &mut self,
        module: &str,
        kernel: &str,
        grid: [KValue; 3],
        block: [KValue; 3],
        args: &[KValue],
    ) -> KOp {
        let mut operands = grid.to_vec();
        operands.extend(block);
        operands.extend(args);
        self.op(
            KOpKind::GpuLaunchFunc,
            &operands,
            &[],
            vec![
                (
                    "kernel".into(),
                    KAttr::SymbolRef(vec![module.into(), kernel.into()]),
                ),
                (
                    "operandSegmentSizes".into(),
                    KAttr::DenseI64(vec![0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, args.len() as i64, 0]),
                ),
            ],
        )
    }

    // ---- constants and arithmetic ------------------------------------------

    /// `arith.constant value : ty` for an integer (or `index`, or `i1`) type.
    pub fn const_int(&mut self, value: i128, ty: KType) -> KValue {
        let value = super::parse::fit_int(value, &ty);
        self.one(
            KOpKind::ArithConstant,
            &[],
            ty.clone(),
            vec![("value".into(), KAttr::Int { value, ty })],
        )
    }

    /// `arith.constant value : index`.
    pub fn const_index(&mut self, value: i64) -> KValue {
        self.const_int(value as i128, KType::Index)
    }

    /// `arith.constant value : ty` for a float type (rounded to it).
    pub fn const_float(&mut self, value: f64, ty: KType) -> KValue {
        let value = match &ty {
            KType::Float(f) => crate::text::float::round_to(f.kind(), value),
            _ => value,
        };
        self.one(
            KOpKind::ArithConstant,
            &[],
            ty.clone(),
            vec![("value".into(), KAttr::Float { value, ty })],
        )
    }

    /// `arith.constant dense<values> : ty` for a float vector.
    pub fn const_float_vector(&mut self, values: &[f64], ty: KType) -> KValue {
        self.one(
            KOpKind::ArithConstant,
            &[],
            ty.clone(),
            vec![(
                "value".into(),
                KAttr::DenseFloats {
                    values: values.to_vec(),
                    ty,
                },
            )],
        )
    }

    /// An op taking two operands of one type and giving that type.
    pub fn binary(&mut self, kind: KOpKind, a: KValue, b: KValue) -> KValue {
        let ty = self.type_of(a);
        self.one(kind, &[a, b], ty, Vec::new())
    }

    /// An op taking one operand and giving its type (`math.*`, `negf`).
    pub fn unary(&mut self, kind: KOpKind, x: KValue) -> KValue {
        let ty = self.type_of(x);
        self.one(kind, &[x], ty, Vec::new())
    }

    /// A cast (`arith.extsi`, `arith.sitofp`, `arith.index_cast`,
    /// `memref.cast`, `vector.broadcast`, ...) of `x` to `to`.
    pub fn cast(&mut self, kind: KOpKind, x: KValue, to: KType) -> KValue {
        self.one(kind, &[x], to, Vec::new())
    }

    /// Sets `fastmath<flags>` on the op defining `v` (`"fast"`,
    /// `"nnan,ninf"`).
    pub fn fastmath(&mut self, v: KValue, flags: &str) {
        if let Some(op) = self.m.defining_op(v) {
            self.m.set_attr(op, "fastmath", KAttr::Enum(flags.into()));
        }
    }

    binary_helpers! {
        addi => ArithAddI,
        subi => ArithSubI,
        muli => ArithMulI,
        divsi => ArithDivSI,
        divui => ArithDivUI,
        remsi => ArithRemSI,
        remui => ArithRemUI,
        andi => ArithAndI,
        ori => ArithOrI,
        xori => ArithXOrI,
        shli => ArithShLI,
        shrsi => ArithShRSI,
        shrui => ArithShRUI,
        maxsi => ArithMaxSI,
        minsi => ArithMinSI,
        maxui => ArithMaxUI,
        minui => ArithMinUI,
        addf => ArithAddF,
        subf => ArithSubF,
        mulf => ArithMulF,
        divf => ArithDivF,
        remf => ArithRemF,
        maximumf => ArithMaximumF,
        minimumf => ArithMinimumF,
        maxnumf => ArithMaxNumF,
        minnumf => ArithMinNumF,
        powf => MathPowF,
        atan2 => MathAtan2,
        copysign => MathCopySign,
    }

    unary_helpers! {
        negf => ArithNegF,
        exp => MathExp,
        exp2 => MathExp2,
        log => MathLog,
        log2 => MathLog2,
        sqrt => MathSqrt,
        rsqrt => MathRsqrt,
        tanh => MathTanh,
        sin => MathSin,
        cos => MathCos,
        absf => MathAbsF,
        absi => MathAbsI,
        floor => MathFloor,
        ceil => MathCeil,
        round => MathRound,
    }

    /// `math.fma a, b, c`.
    pub fn fma(&mut self, a: KValue, b: KValue, c: KValue) -> KValue {
        let ty = self.type_of(a);
        self.one(KOpKind::MathFma, &[a, b, c], ty, Vec::new())
    }

    fn cmp(&mut self, kind: KOpKind, attr: &str, pred: &str, a: KValue, b: KValue) -> KValue {
        let ty = bool_like(&self.type_of(a));
        self.one(
            kind,
            &[a, b],
            ty,
            vec![(attr.into(), KAttr::Enum(pred.into()))],
        )
    }

    /// `arith.cmpi pred, a, b` (`pred`: `eq`, `slt`, `ult`, ...).
    pub fn cmpi(&mut self, pred: &str, a: KValue, b: KValue) -> KValue {
        self.cmp(KOpKind::ArithCmpI, "predicate", pred, a, b)
    }

    /// `arith.cmpf pred, a, b` (`pred`: `olt`, `oeq`, `une`, ...).
    pub fn cmpf(&mut self, pred: &str, a: KValue, b: KValue) -> KValue {
        self.cmp(KOpKind::ArithCmpF, "predicate", pred, a, b)
    }

    /// `arith.select cond, a, b`.
    pub fn select(&mut self, cond: KValue, a: KValue, b: KValue) -> KValue {
        let ty = self.type_of(a);
        self.one(KOpKind::ArithSelect, &[cond, a, b], ty, Vec::new())
    }

    /// `arith.index_cast x : index to ty` (or back when `x` is an integer).
    pub fn index_cast(&mut self, x: KValue, to: KType) -> KValue {
        self.cast(KOpKind::ArithIndexCast, x, to)
    }

    // ---- gpu -------------------------------------------------------------

    fn dim(&mut self, kind: KOpKind, dim: &str) -> KValue {
        self.one(
            kind,
            &[],
            KType::Index,
            vec![("dimension".into(), KAttr::Enum(dim.into()))],
        )
    }

    /// `gpu.thread_id dim` (`"x"`, `"y"`, `"z"`).
    pub fn thread_id(&mut self, dim: &str) -> KValue {
        self.dim(KOpKind::GpuThreadId, dim)
    }

    /// `gpu.block_id dim`.
    pub fn block_id(&mut self, dim: &str) -> KValue {
        self.dim(KOpKind::GpuBlockId, dim)
    }

    /// `gpu.block_dim dim`.
    pub fn block_dim(&mut self, dim: &str) -> KValue {
        self.dim(KOpKind::GpuBlockDim, dim)
    }

    /// `gpu.global_id dim`.
    pub fn global_id(&mut self, dim: &str) -> KValue {
        self.dim(KOpKind::GpuGlobalId, dim)
    }

    /// `gpu.barrier`.
    pub fn barrier(&mut self) {
        self.op(KOpKind::GpuBarrier, &[], &[], Vec::new());
    }

    /// `gpu.subgroup_reduce op x` (`op`: `add`, `maxnumf`, ...).
    pub fn subgroup_reduce(&mut self, op: &str, x: KValue, uniform: bool) -> KValue {
        let ty = self.type_of(x);
        let mut attrs = vec![("op".to_owned(), KAttr::Enum(op.into()))];
        if uniform {
            attrs.push(("uniform".into(), KAttr::Unit));
        }
        self.one(KOpKind::GpuSubgroupReduce, &[x], ty, attrs)
    }

    /// `gpu.shuffle mode x, offset, width` -> (value, valid).
    pub fn shuffle(
        &mut self,
        mode: &str,
        x: KValue,
        offset: KValue,
        width: KValue,
    ) -> (KValue, KValue) {
        let ty = self.type_of(x);
        let op = self.op(
            KOpKind::GpuShuffle,
            &[x, offset, width],
            &[ty, KType::bool()],
            vec![("mode".into(), KAttr::Enum(mode.into()))],
        );
        let r = &self.m.op(op).results;
        (r[0], r[1])
    }

    // ---- memory ----------------------------------------------------------

    /// `memref.load mem[indices]`.
    pub fn load(&mut self, mem: KValue, indices: &[KValue]) -> KValue {
        let elem = self
            .type_of(mem)
            .memref_elem()
            .cloned()
            .unwrap_or(KType::f32());
        let mut operands = vec![mem];
        operands.extend(indices);
        self.one(KOpKind::MemRefLoad, &operands, elem, Vec::new())
    }

    /// `memref.store value, mem[indices]`.
    pub fn store(&mut self, value: KValue, mem: KValue, indices: &[KValue]) {
        let mut operands = vec![value, mem];
        operands.extend(indices);
        self.op(KOpKind::MemRefStore, &operands, &[], Vec::new());
    }

    /// `memref.alloc() : ty` (static shape).
    pub fn alloc(&mut self, ty: KType) -> KValue {
        self.one(
            KOpKind::MemRefAlloc,
            &[],
            ty,
            vec![("operandSegmentSizes".into(), KAttr::DenseI64(vec![0, 0]))],
        )
    }

    /// `memref.alloca() : ty` (static shape).
    pub fn alloca(&mut self, ty: KType) -> KValue {
        self.one(
            KOpKind::MemRefAlloca,
            &[],
            ty,
            vec![("operandSegmentSizes".into(), KAttr::DenseI64(vec![0, 0]))],
        )
    }

    /// `vector.load mem[indices] : ..., ty`.
    pub fn vector_load(&mut self, ty: KType, mem: KValue, indices: &[KValue]) -> KValue {
        let mut operands = vec![mem];
        operands.extend(indices);
        self.one(KOpKind::VectorLoad, &operands, ty, Vec::new())
    }

    /// `vector.store value, mem[indices]`.
    pub fn vector_store(&mut self, value: KValue, mem: KValue, indices: &[KValue]) {
        let mut operands = vec![value, mem];
        operands.extend(indices);
        self.op(KOpKind::VectorStore, &operands, &[], Vec::new());
    }

    /// `vector.extract v[pos]` (static position).
    pub fn extract(&mut self, v: KValue, pos: i64) -> KValue {
        let elem = self.type_of(v).scalar().clone();
        self.one(
            KOpKind::VectorExtract,
            &[v],
            elem,
            vec![("static_position".into(), KAttr::DenseI64(vec![pos]))],
        )
    }

    /// `vector.reduction <kind>, v`.
    pub fn reduction(&mut self, kind: &str, v: KValue) -> KValue {
        let elem = self.type_of(v).scalar().clone();
        self.one(
            KOpKind::VectorReduction,
            &[v],
            elem,
            vec![("kind".into(), KAttr::Enum(kind.into()))],
        )
    }

    /// `vector.insert x, v[pos]` (static position).
    pub fn insert(&mut self, x: KValue, v: KValue, pos: i64) -> KValue {
        let ty = self.type_of(v);
        self.one(
            KOpKind::VectorInsert,
            &[x, v],
            ty,
            vec![("static_position".into(), KAttr::DenseI64(vec![pos]))],
        )
    }

    /// `vector.splat x : ty`.
    pub fn splat(&mut self, x: KValue, ty: KType) -> KValue {
        self.one(KOpKind::VectorSplat, &[x], ty, Vec::new())
    }

    /// `vector.broadcast x : T to ty`.
    pub fn broadcast(&mut self, x: KValue, ty: KType) -> KValue {
        self.cast(KOpKind::VectorBroadcast, x, ty)
    }

    /// `vector.shuffle a, b [mask]`.
    pub fn vector_shuffle(&mut self, a: KValue, b: KValue, mask: &[i64]) -> KValue {
        let elem = self.type_of(a).scalar().clone();
        self.one(
            KOpKind::VectorShuffle,
            &[a, b],
            KType::vector(mask.len() as u64, elem),
            vec![("mask".into(), KAttr::DenseI64(mask.to_vec()))],
        )
    }

    /// `arith.constant dense<values> : ty` for an integer vector.
    pub fn const_int_vector(&mut self, values: &[i128], ty: KType) -> KValue {
        let elem = ty.scalar().clone();
        let values = values
            .iter()
            .map(|&v| super::parse::fit_int(v, &elem))
            .collect();
        self.one(
            KOpKind::ArithConstant,
            &[],
            ty.clone(),
            vec![("value".into(), KAttr::DenseInts { values, ty })],
        )
    }

    /// `arith.addui_extended a, b` -> (sum, carry).
    pub fn addui_extended(&mut self, a: KValue, b: KValue) -> (KValue, KValue) {
        let ty = self.type_of(a);
        let op = self.op(
            KOpKind::ArithAddUIExtended,
            &[a, b],
            &[ty.clone(), bool_like(&ty)],
            Vec::new(),
        );
        let r = &self.m.op(op).results;
        (r[0], r[1])
    }

    /// `arith.mului_extended a, b` (or `mulsi_extended` when `signed`) ->
    /// (low, high).
    pub fn mul_extended(&mut self, a: KValue, b: KValue, signed: bool) -> (KValue, KValue) {
        let ty = self.type_of(a);
        let kind = if signed {
            KOpKind::ArithMulSIExtended
        } else {
            KOpKind::ArithMulUIExtended
        };
        let op = self.op(kind, &[a, b], &[ty.clone(), ty], Vec::new());
        let r = &self.m.op(op).results;
        (r[0], r[1])
    }

    /// `gpu.grid_dim dim`.
    pub fn grid_dim(&mut self, dim: &str) -> KValue {
        self.dim(KOpKind::GpuGridDim, dim)
    }

    /// `gpu.lane_id`.
    pub fn lane_id(&mut self) -> KValue {
        self.one(KOpKind::GpuLaneId, &[], KType::Index, Vec::new())
    }

    /// `gpu.subgroup_size : index`.
    pub fn subgroup_size(&mut self) -> KValue {
        self.one(KOpKind::GpuSubgroupSize, &[], KType::Index, Vec::new())
    }

    /// `memref.cast m : T to ty`.
    pub fn memref_cast(&mut self, m: KValue, ty: KType) -> KValue {
        self.cast(KOpKind::MemRefCast, m, ty)
    }

    /// `memref.dim m, index`.
    pub fn dim_of(&mut self, m: KValue, index: KValue) -> KValue {
        self.one(KOpKind::MemRefDim, &[m, index], KType::Index, Vec::new())
    }

    /// `memref.subview m[offsets] [sizes] [strides] : T to result` with
    /// static entries.
    pub fn subview(
        &mut self,
        m: KValue,
        offsets: &[i64],
        sizes: &[i64],
        strides: &[i64],
        result: KType,
    ) -> KValue {
        self.one(
            KOpKind::MemRefSubView,
            &[m],
            result,
            vec![
                (
                    "operandSegmentSizes".into(),
                    KAttr::DenseI64(vec![1, 0, 0, 0]),
                ),
                ("static_offsets".into(), KAttr::DenseI64(offsets.to_vec())),
                ("static_sizes".into(), KAttr::DenseI64(sizes.to_vec())),
                ("static_strides".into(), KAttr::DenseI64(strides.to_vec())),
            ],
        )
    }

    // ---- structured control flow -------------------------------------------

    /// Fills a fresh block of `op`'s region `index` with `args` by running
    /// `body`, then appends `terminator` with the values it returns.
    fn fill(
        &mut self,
        op: KOp,
        index: usize,
        args: &[KType],
        terminator: KOpKind,
        body: impl FnOnce(&mut Self, &[KValue]) -> Vec<KValue>,
    ) {
        let Some(&region) = self.m.op(op).regions.get(index) else {
            return;
        };
        let block = self.m.append_block(region, args);
        let saved = self.block;
        self.block = block;
        let values = self.m.block(block).args.clone();
        let yielded = body(self, &values);
        self.op(terminator, &yielded, &[], Vec::new());
        self.block = saved;
    }

    /// `scf.for %iv = lb to ub step step iter_args(inits)`; `body` gets the
    /// induction variable and the iteration values and returns the values
    /// to yield. Returns the loop results.
    pub fn for_(
        &mut self,
        lb: KValue,
        ub: KValue,
        step: KValue,
        inits: &[KValue],
        body: impl FnOnce(&mut Self, KValue, &[KValue]) -> Vec<KValue>,
    ) -> Vec<KValue> {
        let iv_ty = self.type_of(lb);
        let tys: Vec<KType> = inits.iter().map(|&v| self.type_of(v)).collect();
        let mut operands = vec![lb, ub, step];
        operands.extend(inits);
        let op = self
            .m
            .create_op(KOpKind::ScfFor, &operands, &tys, Vec::new(), 1, self.loc);
        self.m.append_op(self.block, op);
        let mut args = vec![iv_ty];
        args.extend(tys);
        self.fill(op, 0, &args, KOpKind::ScfYield, |b, vals| {
            body(b, vals[0], &vals[1..])
        });
        self.m.op(op).results.clone()
    }

    /// `scf.if cond -> (results)`; each branch returns the values it
    /// yields. Without `else_` the else region stays empty (only valid
    /// without results).
    pub fn if_(
        &mut self,
        cond: KValue,
        results: &[KType],
        then: impl FnOnce(&mut Self) -> Vec<KValue>,
        else_: Option<Branch<'_, 'm>>,
    ) -> Vec<KValue> {
        let op = self
            .m
            .create_op(KOpKind::ScfIf, &[cond], results, Vec::new(), 2, self.loc);
        self.m.append_op(self.block, op);
        self.fill(op, 0, &[], KOpKind::ScfYield, |b, _| then(b));
        if let Some(e) = else_ {
            self.fill(op, 1, &[], KOpKind::ScfYield, |b, _| e(b));
        }
        self.m.op(op).results.clone()
    }

    /// `scf.if cond -> (results) { then } else { else_ }`; each branch
    /// returns the values it yields.
    pub fn if_else(
        &mut self,
        cond: KValue,
        results: &[KType],
        then: impl FnOnce(&mut Self) -> Vec<KValue>,
        else_: impl FnOnce(&mut Self) -> Vec<KValue>,
    ) -> Vec<KValue> {
        let op = self
            .m
            .create_op(KOpKind::ScfIf, &[cond], results, Vec::new(), 2, self.loc);
        self.m.append_op(self.block, op);
        self.fill(op, 0, &[], KOpKind::ScfYield, |b, _| then(b));
        self.fill(op, 1, &[], KOpKind::ScfYield, |b, _| else_(b));
        self.m.op(op).results.clone()
    }

    /// `scf.while (inits) : (...) -> (results)`: `before` gets the loop
    /// values and returns the condition and the values passed on; `after`
    /// gets those and returns the next loop values.
    pub fn while_(
        &mut self,
        inits: &[KValue],
        results: &[KType],
        before: impl FnOnce(&mut Self, &[KValue]) -> (KValue, Vec<KValue>),
        after: impl FnOnce(&mut Self, &[KValue]) -> Vec<KValue>,
    ) -> Vec<KValue> {
        let tys: Vec<KType> = inits.iter().map(|&v| self.type_of(v)).collect();
        let op = self
            .m
            .create_op(KOpKind::ScfWhile, inits, results, Vec::new(), 2, self.loc);
        self.m.append_op(self.block, op);
        self.fill(op, 0, &tys, KOpKind::ScfCondition, |b, vals| {
            let (c, rest) = before(b, vals);
            let mut out = vec![c];
            out.extend(rest);
            out
        });
        self.fill(op, 1, results, KOpKind::ScfYield, after);
        self.m.op(op).results.clone()
    }
}
