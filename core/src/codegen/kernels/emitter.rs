//! The kernel emitter: a [`KernelBuilder`] positioned in one `gpu.func`,
//! the function's arguments made on first use (a buffer binding or a
//! push-constant word each), scoped memo tables (a value computed in an
//! `scf` region is only reused inside it), and index arithmetic that folds
//! constants.

use std::collections::HashMap;

use kiln_abi::{InterfaceVarAbi, StorageClass as AbiStorageClass};

use crate::grammar::StorageClass;
use crate::ir::Location;
use crate::kernel::builder::{FuncOptions, KernelBuilder};
use crate::kernel::{KAttr, KOpKind, KType, MemorySpace};
use crate::kernel::{KBlock, KOp as KOpRef, KValue};
use crate::tensor::eval::Scalar;
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::bufferize::{BufferId, BufferPlan};
use super::super::error::{CodegenError, Invariant};
use super::super::host::{Size, SlotId};
use super::super::regions::FuncRegions;
use super::super::shapes::Shapes;
use super::super::strategy::Strategy;
use super::PushValue;

/// What the emitter reads.
pub(crate) struct Ctx<'a, 'm> {
    pub info: &'a FuncInfo<'m>,
    pub regions: &'a FuncRegions,
    pub shapes: &'a Shapes,
    pub buffers: &'a BufferPlan,
    pub strategy: &'a Strategy,
}

/// A memo key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// Element of a tensor at coordinates.
    Elem(TValue, Vec<KValue>),
    /// A top-level scalar.
    Scalar(TValue),
    /// A size.
    Size(Size),
    /// An index constant.
    Index(i64),
    /// The `vector<4>` of a tensor at a vector group (by its base), by
    /// the coordinates before the last.
    Vector(TValue, KValue, Vec<KValue>),
    /// Index arithmetic `a <op> b`: coordinates recomputed for each point
    /// of a tile (a convolution's `ow + kw`) are the same value, so the
    /// element memo finds their loads.
    Arith(IndexOp, KValue, KValue),
    /// A 16-byte group (or, of a byte buffer, a 32-bit word) of a buffer
    /// read by wide reads (`wide.rs`), by its index.
    Wide(BufferId, KValue),
    /// A 16-byte group of a byte buffer read by wide reads, by its index.
    WideGroup(BufferId, KValue),
}

/// The index operations the emitter folds and reuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IndexOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

enum Arg {
    Buffer(BufferId),
    Push(PushValue),
}

/// Emits one kernel.
pub(crate) struct Emitter<'a, 'm, 'k> {
    pub c: Ctx<'a, 'm>,
    pub b: KernelBuilder<'k>,
    func: KOpRef,
    entry: KBlock,
    args: Vec<Arg>,
    buffer_args: HashMap<BufferId, KValue>,
    push_args: HashMap<PushValue, KValue>,
    written: Vec<BufferId>,
    scopes: Vec<HashMap<Key, Vec<KValue>>>,
    consts: HashMap<KValue, i64>,
    /// Index values made as `base + offset` (constant offset), so that a
    /// sum of offsets folds: `(x + 1) + 2` is `x + 3`, the same value as
    /// `(x + 2) + 1` (a convolution tile's row `r` at window tap `k` reads
    /// the pixel that row `r + 1` reads at tap `k - 1`, one load).
    offsets: HashMap<KValue, (KValue, i64)>,
    /// Index values known to be multiples of a constant (products by a
    /// constant, sums of such): what [`wide_reads`](Self::wide_reads)
    /// folds coordinates with.
    multiples: HashMap<KValue, i64>,
    /// Root results computed before the point loop (cooperative
    /// reductions), by root op.
    pub prepared_roots: HashMap<TOp, Vec<KValue>>,
    /// Where the op being emitted came from.
    pub loc: Location,
    /// The groups of 4 consecutive coordinates being emitted (`Vector4`
    /// plans, register tiles' columns and unrolled reductions).
    pub vector_groups: Vec<super::vector::VectorGroup>,
    /// Dynamic sizes the code being emitted knows to be multiples of 4
    /// (the kernel checked them at run time, [`Emitter::with_fours`]): a
    /// `Vector4` space's last dimension on its vector path, a row's
    /// length, a tile's reduction or columns. Tensors whose last
    /// dimension is one of them move as vectors in vector groups.
    pub runtime_fours: Vec<Size>,
    buffer_vec4_args: HashMap<BufferId, KValue>,
    buffer_word_args: HashMap<BufferId, KValue>,
    buffer_vec4_i32_args: HashMap<BufferId, KValue>,
    /// Whether element loads read their 16-byte group and pick the
    /// element out of it (a matvec's fused dequantization, `wide.rs`).
    pub wide_reads: bool,
    /// Whether a step of [`coop_loop`](Self::coop_loop) over vector
    /// groups issues its loads before its arithmetic (`schedule.rs`).
    pub loads_first: bool,
    /// Narrow integers computed from bytes of wide reads, by the 32-bit
    /// word each lives in (`narrow.rs`).
    pub(super) in_word: HashMap<KValue, super::narrow::InWord>,
    /// Values in memory that this kernel writes and so computes where it
    /// reads them (a row group's per-row outputs).
    pub computed_here: Vec<TValue>,
    /// How many values are being computed from their producers, one
    /// inside the other (bounded by [`MAX_COMPUTE_DEPTH`]).
    pub compute_depth: usize,
    /// Where the dispatch's points are not its op's parallel loops in
    /// order, the loop of each
    /// ([`DispatchShape::point_dims`](super::super::strategy::DispatchShape::point_dims));
    /// the loops left out are at 0.
    pub point_dims: Vec<usize>,
}

/// The deepest nesting of values computed from their producers that one
/// kernel may need: dispatch-region formation keeps fused chains within
/// [`crate::codegen::regions::MAX_FUSED_CHAIN`] ops, so this is a guard
/// against stack overflow, reported as an error, never reached by the
/// regions kiln forms.
pub(crate) const MAX_COMPUTE_DEPTH: usize = 2 * crate::codegen::regions::MAX_FUSED_CHAIN;

impl<'a, 'm, 'k> Emitter<'a, 'm, 'k> {
    /// An emitter of kernel `name` with `workgroup_size` into `km`.
    pub fn new(
        km: &'k mut crate::kernel::KernelModule,
        c: Ctx<'a, 'm>,
        name: &str,
        workgroup_size: [u32; 3],
    ) -> Self {
        let mut b = KernelBuilder::new(km);
        let gm = b.gpu_module(name);
        let (func, _) = b.gpu_func(gm, name, &[], FuncOptions::kernel(workgroup_size));
        let entry = b.insertion_block();
        Emitter {
            c,
            b,
            func,
            entry,
            args: Vec::new(),
            buffer_args: HashMap::new(),
            push_args: HashMap::new(),
            written: Vec::new(),
            scopes: vec![HashMap::new()],
            consts: HashMap::new(),
            offsets: HashMap::new(),
            multiples: HashMap::new(),
            prepared_roots: HashMap::new(),
            loc: Location::UNKNOWN,
            vector_groups: Vec::new(),
            runtime_fours: Vec::new(),
            buffer_vec4_args: HashMap::new(),
            buffer_word_args: HashMap::new(),
            buffer_vec4_i32_args: HashMap::new(),
            wide_reads: false,
            loads_first: false,
            in_word: HashMap::new(),
            computed_here: Vec::new(),
            compute_depth: 0,
            point_dims: Vec::new(),
        }
    }

    /// The error for op `op`.
    pub fn unsupported(&self, op: TOp, msg: impl Into<String>) -> CodegenError {
        CodegenError::unsupported(self.c.info.m, op, msg)
    }

    /// A broken invariant at `op`.
    pub fn internal(&self, op: TOp, invariant: Invariant) -> CodegenError {
        CodegenError::internal(self.c.info.m, op, invariant)
    }

    // ---- arguments --------------------------------------------------------

    /// The memref argument of buffer `id` (`memref<?xT>`).
    pub fn buffer(&mut self, id: BufferId) -> KValue {
        if let Some(&v) = self.buffer_args.get(&id) {
            return v;
        }
        let elem = self.c.buffers.buffers[id].elem;
        let mem = self.memory_type(elem);
        let ty = KType::MemRef {
            shape: vec![None],
            elem: Box::new(mem),
            layout: Default::default(),
            space: MemorySpace::Default,
        };
        let v = self.b.module().add_block_arg(self.entry, ty);
        self.args.push(Arg::Buffer(id));
        self.buffer_args.insert(id, v);
        v
    }

    /// A second argument for buffer `id`, as `memref<?xvector<4xT>>` (the
    /// same buffer bound again), for 128-bit loads and stores of 32-bit
    /// elements.
    pub fn buffer_vec4(&mut self, id: BufferId) -> KValue {
        if let Some(&v) = self.buffer_vec4_args.get(&id) {
            return v;
        }
        let elem = self.c.buffers.buffers[id].elem;
        let mem = self.memory_type(elem);
        let ty = KType::MemRef {
            shape: vec![None],
            elem: Box::new(KType::vector(4, mem)),
            layout: Default::default(),
            space: MemorySpace::Default,
        };
        let v = self.b.module().add_block_arg(self.entry, ty);
        self.args.push(Arg::Buffer(id));
        self.buffer_vec4_args.insert(id, v);
        v
    }

    /// A third argument for buffer `id`, as 64-bit words: `memref<?x
    /// vector<2xi64>>` for 32-bit elements, `memref<?xvector<1xi64>>`
    /// (an `i64` array) for natively stored f16 — one vec4 group per
    /// element, at the same index as in [`buffer_vec4`](Self::buffer_vec4)
    /// ([`Strategy::word_stores`](super::super::strategy::Strategy::word_stores)).
    pub fn buffer_words(&mut self, id: BufferId, words: u64) -> KValue {
        if let Some(&v) = self.buffer_word_args.get(&id) {
            return v;
        }
        let ty = KType::MemRef {
            shape: vec![None],
            elem: Box::new(KType::vector(words, KType::Int(64))),
            layout: Default::default(),
            space: MemorySpace::Default,
        };
        let v = self.b.module().add_block_arg(self.entry, ty);
        self.args.push(Arg::Buffer(id));
        self.buffer_word_args.insert(id, v);
        v
    }

    /// A further argument for buffer `id`, as `memref<?xvector<4xi32>>`
    /// (16-byte groups of a byte buffer, read as 32-bit words).
    pub fn buffer_vec4_i32(&mut self, id: BufferId) -> KValue {
        if let Some(&v) = self.buffer_vec4_i32_args.get(&id) {
            return v;
        }
        let ty = KType::MemRef {
            shape: vec![None],
            elem: Box::new(KType::vector(4, KType::i32())),
            layout: Default::default(),
            space: MemorySpace::Default,
        };
        let v = self.b.module().add_block_arg(self.entry, ty);
        self.args.push(Arg::Buffer(id));
        self.buffer_vec4_i32_args.insert(id, v);
        v
    }

    /// Notes that the kernel writes buffer `id`.
    pub fn mark_written(&mut self, id: BufferId) {
        if !self.written.contains(&id) {
            self.written.push(id);
        }
    }

    /// The `i32` push-constant argument for `p`.
    pub fn push(&mut self, p: PushValue) -> KValue {
        if let Some(&v) = self.push_args.get(&p) {
            return v;
        }
        let v = self.b.module().add_block_arg(self.entry, KType::i32());
        self.args.push(Arg::Push(p));
        self.push_args.insert(p, v);
        v
    }

    /// Finishes the function's signature and ABI attributes; returns the
    /// bindings (buffers in binding order), written buffers, push words,
    /// the bindings of the plan's `chunked` buffers (`(buffer, chunks)`;
    /// those of `unviewed` are not read through texel views)
    /// bound as storage buffers, as `(binding, buffer, chunks)`, and the
    /// bindings read through uniform texel views (not storage buffers).
    #[allow(
        clippy::type_complexity,
        reason = "the kernel's interface, part by part"
    )]
    pub fn finish(
        mut self,
        chunked: &[(BufferId, u32)],
        unviewed: &[BufferId],
    ) -> (
        Vec<BufferId>,
        Vec<BufferId>,
        Vec<PushValue>,
        Vec<(u32, BufferId, u32)>,
        Vec<u32>,
    ) {
        self.bind_texel_reads(unviewed);
        self.b.set_insertion(self.entry);
        self.b.gpu_return(&[]);
        let km = self.b.module();
        let inputs: Vec<KType> = km
            .block(self.entry)
            .args
            .iter()
            .map(|&a| km.value_type(a).clone())
            .collect();
        km.set_attr(
            self.func,
            "function_type",
            KAttr::Type(KType::Function {
                inputs: inputs.clone(),
                results: Vec::new(),
            }),
        );
        let mut bindings = Vec::new();
        let mut push = Vec::new();
        let mut dicts = Vec::new();
        let mut split = Vec::new();
        let mut texel = Vec::new();
        for (a, ty) in self.args.iter().zip(&inputs) {
            let abi = match a {
                Arg::Buffer(id) => {
                    bindings.push(*id);
                    let binding = (bindings.len() - 1) as u32;
                    let chunks = chunked.iter().find(|(b, _)| b == id);
                    if crate::lower::is_texel_memref(ty) {
                        texel.push(binding);
                    } else if let Some(&(_, n)) = chunks {
                        split.push((binding, *id, n));
                    }
                    InterfaceVarAbi::new(0, binding)
                }
                Arg::Push(p) => {
                    push.push(*p);
                    InterfaceVarAbi {
                        descriptor_set: 0,
                        binding: (push.len() - 1) as u32,
                        storage_class: Some(AbiStorageClass::PushConstant),
                    }
                }
            };
            dicts.push(KAttr::Dict(vec![(
                InterfaceVarAbi::ATTR_NAME.to_string(),
                KAttr::InterfaceVarAbi(abi),
            )]));
        }
        if !dicts.is_empty() {
            km.set_attr(self.func, "arg_attrs", KAttr::Array(dicts));
        }
        (bindings, self.written, push, split, texel)
    }

    /// Rebinds the vec4 arguments of buffers the kernel only reads as
    /// uniform texel buffers (`memref<?xvector<4xT>,
    /// #spirv.storage_class<UniformConstant>>`, RGBA32 views of the same
    /// buffer, RGBA16F for f16 stored natively) where the strategy says the
    /// driver fetches texels faster: 32-bit elements or native f16, a
    /// static size of at least one texel within the view
    /// limit ([`Strategy::texel_reads`](super::super::strategy::Strategy::texel_reads)).
    /// A buffer sized at run time of `unviewed` (one a `_chunked` variant
    /// binds in chunks where its plain kernels read it through a view)
    /// stays a storage buffer.
    fn bind_texel_reads(&mut self, unviewed: &[BufferId]) {
        let Some(max_texels) = self.c.strategy.texel_reads else {
            return;
        };
        let buffers = self.c.buffers;
        let mut args: Vec<(BufferId, KValue)> = self
            .buffer_vec4_args
            .iter()
            .map(|(&id, &v)| (id, v))
            .collect();
        args.sort_unstable();
        // 16-byte views of byte buffers (`wide.rs`): whole groups only.
        let mut words: Vec<(BufferId, KValue)> = self
            .buffer_vec4_i32_args
            .iter()
            .map(|(&id, &v)| (id, v))
            .collect();
        words.sort_unstable();
        for (id, v) in words {
            let info = &buffers.buffers[id];
            let bytes = info
                .shape
                .iter()
                .try_fold(u64::from(info.elem.bits() / 8), |acc, s| {
                    acc.checked_mul(s.fixed()?)
                });
            let fits = bytes.is_some_and(|n| n >= 16 && n % 16 == 0 && n / 16 <= max_texels);
            if !self.written.contains(&id) && fits {
                self.rebind_as_texels(v);
            }
        }
        for (id, v) in args {
            let info = &buffers.buffers[id];
            let elems = info
                .shape
                .iter()
                .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?));
            // A length that is not a multiple of 4 (a 1-D space's tail is
            // emitted point by point) binds its whole texels; a dynamic
            // one where any storage-buffer range fits a view.
            let dynamic = info.shape.iter().any(|s| s.fixed().is_none());
            if dynamic && unviewed.contains(&id) {
                continue;
            }
            let fits = match elems {
                Some(n) => n >= 4 && n / 4 <= max_texels,
                None => dynamic && self.c.strategy.dynamic_texels,
            };
            // f16 stored natively is fetched through an RGBA16F view.
            let native_f16 = info.elem == ElemType::F16
                && self.c.strategy.repr(info.elem) == super::super::strategy::TypeRepr::F16Storage;
            if self.written.contains(&id)
                || !(matches!(info.elem, ElemType::F32 | ElemType::Int(32)) || native_f16)
                || !fits
            {
                continue;
            }
            self.rebind_as_texels(v);
        }
    }

    /// Retypes buffer argument `v` as a uniform texel buffer.
    fn rebind_as_texels(&mut self, v: KValue) {
        let km = self.b.module();
        if let KType::MemRef {
            shape,
            elem,
            layout,
            ..
        } = km.value_type(v).clone()
        {
            let texel = KType::MemRef {
                shape,
                elem,
                layout,
                space: MemorySpace::StorageClass(StorageClass::UniformConstant),
            };
            km.set_value_type(v, texel);
        }
    }

    // ---- memo scopes and regions -------------------------------------------

    /// A memoized value.
    pub fn memo(&self, k: &Key) -> Option<Vec<KValue>> {
        self.scopes.iter().rev().find_map(|s| s.get(k).cloned())
    }

    /// Memoizes a value in the innermost scope.
    pub fn remember(&mut self, k: Key, v: Vec<KValue>) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(k, v);
        }
    }

    /// Runs `f` with the insertion point in the block of a fresh region
    /// of `op` (with `args`), then appends `terminator` with what `f`
    /// returns.
    fn fill_region(
        &mut self,
        op: KOpRef,
        region: usize,
        args: &[KType],
        terminator: KOpKind,
        f: impl FnOnce(&mut Self, &[KValue]) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<(), CodegenError> {
        let r = self.b.module().op(op).regions[region];
        let block = self.b.module().append_block(r, args);
        let vals = self.b.module().block(block).args.clone();
        let saved = self.b.insertion_block();
        self.b.set_insertion(block);
        self.scopes.push(HashMap::new());
        let out = f(self, &vals);
        self.scopes.pop();
        let out = out?;
        self.b.op(terminator, &out, &[], Vec::new());
        self.b.set_insertion(saved);
        Ok(())
    }

    /// Whether `size` is a multiple of 4 statically, or one of the
    /// [`runtime_fours`](Self::runtime_fours) (a 1-D space of static
    /// length too, whose groups the kernel checked whole).
    pub fn known_fours(&self, size: Size) -> bool {
        matches!(size, Size::Static(n) if n % 4 == 0)
            || self
                .runtime_fours
                .iter()
                .any(|&s| self.c.shapes.same_size(size, s))
    }

    /// Runs `f` knowing `size` (where given) to be a multiple of 4 at run
    /// time (see [`runtime_fours`](Self::runtime_fours)).
    pub fn with_fours<T>(&mut self, size: Option<Size>, f: impl FnOnce(&mut Self) -> T) -> T {
        let pushed = size.is_some();
        self.runtime_fours.extend(size);
        let out = f(self);
        if pushed {
            self.runtime_fours.pop();
        }
        out
    }

    /// `scf.if cond -> results { then } else { else_ }`.
    pub fn if_else(
        &mut self,
        cond: KValue,
        results: &[KType],
        then: impl FnOnce(&mut Self) -> Result<Vec<KValue>, CodegenError>,
        else_: impl FnOnce(&mut Self) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let op =
            self.b
                .module()
                .create_op(KOpKind::ScfIf, &[cond], results, Vec::new(), 2, self.loc);
        let at = self.b.insertion_block();
        self.b.module().append_op(at, op);
        self.fill_region(op, 0, &[], KOpKind::ScfYield, |e, _| then(e))?;
        self.fill_region(op, 1, &[], KOpKind::ScfYield, |e, _| else_(e))?;
        Ok(self.b.module().op(op).results.clone())
    }

    /// `scf.if cond { then }` without results.
    pub fn if_then(
        &mut self,
        cond: KValue,
        then: impl FnOnce(&mut Self) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let op = self
            .b
            .module()
            .create_op(KOpKind::ScfIf, &[cond], &[], Vec::new(), 2, self.loc);
        let at = self.b.insertion_block();
        self.b.module().append_op(at, op);
        self.fill_region(op, 0, &[], KOpKind::ScfYield, |e, _| {
            then(e)?;
            Ok(Vec::new())
        })
    }

    /// `scf.for %i = lb to ub step step iter_args(inits)`.
    pub fn for_(
        &mut self,
        lb: KValue,
        ub: KValue,
        step: KValue,
        inits: &[KValue],
        body: impl FnOnce(&mut Self, KValue, &[KValue]) -> Result<Vec<KValue>, CodegenError>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let tys: Vec<KType> = inits.iter().map(|&v| self.b.type_of(v)).collect();
        let mut operands = vec![lb, ub, step];
        operands.extend(inits);
        let op =
            self.b
                .module()
                .create_op(KOpKind::ScfFor, &operands, &tys, Vec::new(), 1, self.loc);
        let at = self.b.insertion_block();
        self.b.module().append_op(at, op);
        let mut args = vec![KType::Index];
        args.extend(tys);
        self.fill_region(op, 0, &args, KOpKind::ScfYield, |e, vals| {
            body(e, vals[0], &vals[1..])
        })?;
        Ok(self.b.module().op(op).results.clone())
    }

    // ---- index arithmetic ------------------------------------------------

    /// An `index` constant.
    pub fn index(&mut self, n: i64) -> KValue {
        let k = Key::Index(n);
        if let Some(v) = self.memo(&k) {
            return v[0];
        }
        let v = self.b.const_index(n);
        self.consts.insert(v, n);
        // Constants are valid everywhere below their definition only:
        // memoize in the current scope.
        self.remember(k, vec![v]);
        v
    }

    /// The constant value of an index, if known.
    pub fn const_of(&self, v: KValue) -> Option<i64> {
        self.consts.get(&v).copied()
    }

    /// `a + b` on indices.
    pub fn add(&mut self, a: KValue, b: KValue) -> KValue {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x + y),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            (Some(c), None) => self.add_const(b, c),
            (None, Some(c)) => self.add_const(a, c),
            _ => {
                // Under wide reads, constant offsets stay outside the sum
                // (`(x + 1) + y` is `(x + y) + 1`), so elements of one
                // 16-byte group share their group's index.
                let ((xa, ca, ma), (xb, cb, mb)) = (self.split_index(a), self.split_index(b));
                if self.wide_reads && (ca != 0 || cb != 0) {
                    let sum = self.add(xa, xb);
                    return self.add_const(sum, ca + cb);
                }
                let v = self.reuse(IndexOp::Add, a, b, |b, x, y| b.addi(x, y));
                if ca == 0 && cb == 0 {
                    self.note_multiple(v, gcd(ma, mb));
                }
                v
            }
        }
    }

    /// Index `x` as `base + offset` (a non-negative constant offset, 0 if
    /// none) and the constant `base` is known to be a multiple of (1 if
    /// none).
    pub(super) fn split_index(&self, x: KValue) -> (KValue, i64, i64) {
        let (base, c) = match self.offsets.get(&x) {
            Some(&(base, c)) if c >= 0 => (base, c),
            _ => (x, 0),
        };
        (base, c, self.multiples.get(&base).copied().unwrap_or(1))
    }

    /// Notes that index `x` is a multiple of `m`.
    pub(super) fn note_multiple(&mut self, x: KValue, m: i64) {
        if m > 1 {
            self.multiples.insert(x, m);
        }
    }

    /// `x + c`, folded into `base + (c0 + c)` where `x` is `base + c0`.
    pub(super) fn add_const(&mut self, x: KValue, c: i64) -> KValue {
        let (base, total) = match self.offsets.get(&x) {
            Some(&(base, c0)) if c0.checked_add(c).is_some() => (base, c0 + c),
            _ => (x, c),
        };
        if total == 0 {
            return base;
        }
        let k = self.index(total);
        let v = self.reuse(IndexOp::Add, base, k, |b, x, y| b.addi(x, y));
        self.offsets.insert(v, (base, total));
        v
    }

    /// `a <op> b`, built by `build` unless this scope or an enclosing one
    /// already has it.
    fn reuse(
        &mut self,
        op: IndexOp,
        a: KValue,
        b: KValue,
        build: impl FnOnce(&mut KernelBuilder<'k>, KValue, KValue) -> KValue,
    ) -> KValue {
        let k = Key::Arith(op, a, b);
        if let Some(v) = self.memo(&k) {
            return v[0];
        }
        let v = build(&mut self.b, a, b);
        self.remember(k, vec![v]);
        v
    }

    /// `a - b` on indices.
    pub fn sub(&mut self, a: KValue, b: KValue) -> KValue {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x - y),
            (_, Some(0)) => a,
            _ => self.reuse(IndexOp::Sub, a, b, |b, x, y| b.subi(x, y)),
        }
    }

    /// `a * b` on indices.
    pub fn mul(&mut self, a: KValue, b: KValue) -> KValue {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) => self.index(x * y),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            (Some(0), _) | (_, Some(0)) => self.index(0),
            (Some(k), None) | (None, Some(k)) if k > 0 => {
                let x = if self.const_of(a).is_some() { b } else { a };
                let (base, c, m) = self.split_index(x);
                // Under wide reads, `(x + c) * k` is `x * k + c * k`.
                if self.wide_reads && c != 0 {
                    let kv = self.index(k);
                    let p = self.mul(base, kv);
                    return self.add_const(p, c * k);
                }
                let v = self.reuse(IndexOp::Mul, a, b, |b, x, y| b.muli(x, y));
                if c == 0 {
                    self.note_multiple(v, m.saturating_mul(k).min(1 << 40));
                }
                v
            }
            _ => self.reuse(IndexOp::Mul, a, b, |b, x, y| b.muli(x, y)),
        }
    }

    /// `a / b` (unsigned) on indices.
    pub fn div(&mut self, a: KValue, b: KValue) -> KValue {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) if y != 0 => self.index(x / y),
            (_, Some(1)) => a,
            _ => self.reuse(IndexOp::Div, a, b, |b, x, y| b.divui(x, y)),
        }
    }

    /// `a % b` (unsigned) on indices.
    /// Whether index `n` is a multiple of `k` (an `i1`).
    pub fn multiple_of(&mut self, n: KValue, k: i64) -> KValue {
        let kv = self.index(k);
        let r = self.rem(n, kv);
        let zero = self.index(0);
        self.b.cmpi("eq", r, zero)
    }

    pub fn rem(&mut self, a: KValue, b: KValue) -> KValue {
        match (self.const_of(a), self.const_of(b)) {
            (Some(x), Some(y)) if y != 0 => self.index(x % y),
            (_, Some(1)) => self.index(0),
            _ => self.reuse(IndexOp::Rem, a, b, |b, x, y| b.remui(x, y)),
        }
    }

    /// `a < b` (unsigned) on indices.
    pub fn lt(&mut self, a: KValue, b: KValue) -> KValue {
        self.b.cmpi("ult", a, b)
    }

    /// The size `s` as an `index`.
    pub fn size(&mut self, s: Size) -> KValue {
        match s {
            Size::Static(n) => self.index(n as i64),
            Size::Slot(slot) => {
                let k = Key::Size(s);
                if let Some(v) = self.memo(&k) {
                    return v[0];
                }
                let w = self.push(PushValue::Slot(slot));
                let v = self.b.index_cast(w, KType::Index);
                self.remember(k, vec![v]);
                v
            }
        }
    }

    /// The sizes `sizes` as indices.
    pub fn sizes(&mut self, sizes: &[Size]) -> Vec<KValue> {
        sizes.iter().map(|&s| self.size(s)).collect()
    }

    /// The product of `sizes`.
    pub fn product(&mut self, sizes: &[KValue]) -> KValue {
        let mut acc = self.index(1);
        for &s in sizes {
            acc = self.mul(acc, s);
        }
        acc
    }

    /// Row-major linear index of `coords` in a tensor of `sizes`.
    pub fn linearize(&mut self, coords: &[KValue], sizes: &[KValue]) -> KValue {
        let mut idx = self.index(0);
        for (i, &c) in coords.iter().enumerate() {
            if i > 0 {
                idx = self.mul(idx, sizes[i]);
            }
            idx = self.add(idx, c);
        }
        idx
    }

    /// The coordinates of row-major linear index `p` in a tensor of
    /// `sizes` (the first coordinate is not reduced modulo its size).
    pub fn delinearize(&mut self, p: KValue, sizes: &[KValue]) -> Vec<KValue> {
        let n = sizes.len();
        let mut out = vec![p; n];
        let mut rest = p;
        for i in (0..n).rev() {
            if i == 0 {
                out[0] = rest;
            } else {
                out[i] = self.rem(rest, sizes[i]);
                rest = self.div(rest, sizes[i]);
            }
        }
        out
    }

    /// A host scalar slot of type `elem` in its compute type.
    pub fn slot_value(&mut self, slot: SlotId, elem: ElemType) -> Result<KValue, CodegenError> {
        let w = self.push(PushValue::Slot(slot));
        Ok(match elem {
            ElemType::Index => self.b.index_cast(w, KType::Index),
            ElemType::Int(32) => w,
            ElemType::Int(w_) if w_ < 32 => self.b.cast(KOpKind::ArithTruncI, w, KType::Int(w_)),
            ElemType::F32 | ElemType::F16 | ElemType::BF16 => {
                self.b.cast(KOpKind::ArithBitcast, w, KType::f32())
            }
            // Two words: the low one, then the high one.
            ElemType::Int(64) => {
                let hi = self.push(PushValue::SlotHigh(slot));
                if self.is_pair(elem) {
                    self.pair(w, hi)
                } else {
                    let lo = self.b.cast(KOpKind::ArithExtUI, w, KType::Int(64));
                    let hi = self.b.cast(KOpKind::ArithExtUI, hi, KType::Int(64));
                    let k32 = self.b.const_int(32, KType::Int(64));
                    let hi = self.b.binary(KOpKind::ArithShLI, hi, k32);
                    self.b.binary(KOpKind::ArithOrI, hi, lo)
                }
            }
            other => {
                return Err(CodegenError::Unsupported {
                    loc: self.loc,
                    op: "kernel".into(),
                    message: format!(
                        "a run-time {other} scalar cannot be passed to a kernel (push constants are 32-bit)"
                    ),
                })
            }
        })
    }

    /// A constant of `elem`'s compute type.
    pub fn konst(&mut self, value: Scalar, elem: ElemType) -> KValue {
        if self.is_pair(elem) {
            return self.pair_const(value.int());
        }
        let ty = self.compute_type(elem);
        match (value, &ty) {
            (Scalar::Float(f), KType::Float(_)) => self.b.const_float(f, ty),
            (Scalar::Int(i), KType::Float(_)) => self.b.const_float(i as f64, ty),
            (Scalar::Float(f), _) => self.b.const_int(f as i128, ty),
            (Scalar::Int(i), KType::Index) => self.index(i),
            (Scalar::Int(i), _) => self.b.const_int(i128::from(i), ty),
        }
    }
}

/// The greatest common divisor of two positive factors.
fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
