//! The compiled program: per function, its host program (run-time sizes
//! and checks), buffers, constants, and dispatches with their strategies
//! and validated kernel binaries — everything an executor needs, and the
//! manifest `kiln compile` writes.

use std::fmt::Write as _;

use crate::ir::{AttrKind, Location, Vce};
use crate::lower::{self, LowerOptions};
use crate::tensor::attr::{ConstAttr, Elements};
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::ElemType;
use crate::tensor::{TFunc, TensorModule};
use crate::validate::ValidationEnv;

use super::analysis::FuncInfo;
use super::bufferize::{bufferize, BufferId, BufferInfo, BufferOrigin, BufferPlan};
use super::elementwise::elementwise_to_generic;
use super::error::CodegenError;
use super::guard::Guard;
use super::host::{HostProgram, HostVal, Size, SlotDef};
use super::kernels::{emit_dispatch, Kernel, PushValue, Repeat};
use super::lowering::{DeferredLowering, Lowering};
use super::regions::{form_dispatch_regions, DispatchRegion, FuncRegions, OpFamily, ValueFate};
use super::shapes::{infer_shapes, Shapes};
use super::strategy::{
    choose, dispatch_shape, plan_dispatch, run_time_variants, Bound, DispatchShape, Strategy,
};
use super::target::CodegenTarget;

/// One kernel, lowered, serialized and validated.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompiledKernel {
    /// Its entry point name.
    pub name: String,
    /// The SPIR-V binary.
    pub words: Vec<u32>,
    /// The Vulkan environment it passed spirv-val for.
    pub validation_env: ValidationEnv,
    /// What it needs from the device (version, capabilities, extensions).
    pub needs: Vce,
    /// The memref-level kernel it was lowered from (MLIR text).
    pub kernel_text: String,
    /// The buffer at each binding (set 0, binding `i`).
    pub bindings: Vec<BufferId>,
    /// The buffers it writes.
    pub writes: Vec<BufferId>,
    /// Its push-constant words.
    pub push: Vec<PushValue>,
    /// Invocations per workgroup.
    pub workgroup_size: [u32; 3],
    /// What it computes, in words (its plan).
    pub plan: String,
    /// The run-time condition under which it runs.
    pub guard: Guard,
    /// Workgroups per dispatch (a function of the run's sizes) when it
    /// runs.
    pub workgroups: Size,
    /// How many times it is dispatched.
    pub repeat: Repeat,
    /// Set on a kernel left unlowered by the compile
    /// ([`Lowering::DeferRunTimeVariants`]): `words` is empty, `needs` and
    /// `validation_env` are those of its dispatch's plain kernel, and
    /// [`lower_deferred`](super::deferred::lower_deferred) lowers it from
    /// `kernel_text` when it is first needed.
    pub deferred: Option<DeferredLowering>,
}

/// One dispatch.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompiledDispatch {
    /// Its name (`<function>_dispatch_<i>`).
    pub name: String,
    /// Its op family.
    pub family: OpFamily,
    /// The op whose results it writes, and where.
    pub op: String,
    /// Where that op is.
    pub loc: Location,
    /// Its points (parallel iteration space).
    pub points: Vec<Size>,
    /// The reduction per point, if any.
    pub reduction: Option<Size>,
    /// Its strategy.
    pub strategy: Strategy,
    /// Its shape's key in a [`Tuning`](super::strategy::Tuning).
    pub tuning_key: String,
    /// The strategies it may take instead ([`candidates`](super::strategy::candidates);
    /// the heuristic's first).
    pub candidates: Vec<super::strategy::Choice>,
    /// Its kernels, in run order.
    pub kernels: Vec<CompiledKernel>,
}

/// A constant's data, uploaded into its buffer once.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConstantData {
    /// Its buffer.
    pub buffer: BufferId,
    /// The value it defines (its dynamic sizes' source).
    pub value: crate::tensor::TValue,
    /// The element type.
    pub elem: ElemType,
    /// The data's shape.
    pub shape: Vec<u64>,
    /// One element (a splat) or all, row-major.
    pub data: Elements,
    /// Whether `data` holds one element for all.
    pub splat: bool,
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ResultRef {
    /// A tensor (or a scalar computed on the device) in a buffer.
    Buffer {
        /// The buffer.
        buffer: BufferId,
        /// The result's shape (a scalar: empty).
        shape: Vec<Size>,
        /// Its element type.
        elem: ElemType,
        /// Whether the result is a scalar.
        scalar: bool,
    },
    /// A scalar the host computes.
    Host {
        /// Its value.
        value: HostVal,
        /// Its type.
        elem: ElemType,
    },
}

/// A function's argument.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Param {
    /// The element type (of the tensor, or the scalar).
    pub elem: ElemType,
    /// The shape (`None` for a scalar; `None` entries are dynamic).
    pub shape: Option<Vec<Option<u64>>>,
}

/// An op a kernel checks at run time: a `tensor.extract` or
/// `tensor.insert` whose index is computed on the device (from tensor data
/// or in a structured op's body), or a `cf.assert` in a structured op's
/// body or on a condition computed from tensor data. Where an index is out of bounds, the kernel reads or writes in
/// bounds instead (the index clamped to 0); where an index is out of
/// bounds or an assert's condition is false, it stores the site's number
/// plus one in the function's fault word; the executor reports it after
/// the call ([`CompiledFunction::fault`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FaultSite {
    /// The op's name.
    pub op: String,
    /// Where the op is.
    pub loc: Location,
    /// What is checked (for a `cf.assert`, its message).
    pub what: String,
}

impl FaultSite {
    /// The error message of this site's fault.
    pub fn message(&self) -> String {
        let loc = if self.loc.is_known() {
            format!("{}: ", self.loc)
        } else {
            String::new()
        };
        if self.op == "cf.assert" {
            return format!(
                "{loc}'cf.assert' op assertion failed: {} (checked on the device)",
                self.what
            );
        }
        format!(
            "{loc}'{}' op index out of bounds: {} is outside its dimension at run time (checked on the device)",
            self.op, self.what
        )
    }
}

/// One compiled function.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompiledFunction {
    /// Its name.
    pub name: String,
    /// Its arguments.
    pub params: Vec<Param>,
    /// The host program: run-time sizes and scalars, and checks.
    pub host: HostProgram,
    /// Its buffers.
    pub buffers: Vec<BufferInfo>,
    /// The constants' data.
    pub constants: Vec<ConstantData>,
    /// The dispatches, in run order.
    pub dispatches: Vec<CompiledDispatch>,
    /// What it returns.
    pub results: Vec<ResultRef>,
    /// The ops whose run-time indices its kernels check, by fault number
    /// minus one (the buffer of origin
    /// [`BufferOrigin::Fault`]
    /// holds the number).
    pub faults: Vec<FaultSite>,
    /// The buffers sized at run time that may be larger than
    /// `maxStorageBufferRange`, with the most bytes they may have: every
    /// dispatch binding one has a `_chunked` variant of its kernels that
    /// binds it in that many bytes' chunks (`strategy/planner/chunks.rs`);
    /// any other buffer sized at run time is limited by the range.
    pub chunk_limits: Vec<(BufferId, u64)>,
}

/// A compiled tensor program.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompiledProgram {
    /// The target it was compiled for.
    pub target: CodegenTarget,
    /// Its functions.
    pub functions: Vec<CompiledFunction>,
}

impl CompiledKernel {
    /// Whether the kernel is the `_chunked` variant of its dispatch
    /// (`strategy/planner/chunks.rs`): it runs only when a buffer sized at
    /// run time is past `maxStorageBufferRange`, which few calls reach, so
    /// the runtime and the CPU runner make it at its first launch rather
    /// than when the program loads (on lavapipe such variants made loading
    /// a fully dynamic matmul ten times slower), and their compiles do not
    /// lower it before then ([`Lowering::DeferRunTimeVariants`]).
    pub fn runs_only_past_the_storage_range(&self) -> bool {
        self.name.ends_with(super::strategy::CHUNKED_SUFFIX)
    }
}

impl CompiledFunction {
    /// The buffer of the constant defining `v`.
    pub fn constant_buffer_of(&self, v: crate::tensor::TValue) -> Option<BufferId> {
        self.constants
            .iter()
            .find(|c| c.value == v)
            .map(|c| c.buffer)
    }
}

impl CompiledProgram {
    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&CompiledFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// What every kernel needs together (the union of their VCE triples).
    pub fn needs(&self) -> Vce {
        let mut out = Vce {
            version: crate::grammar::Version::V1_0,
            capabilities: Vec::new(),
            extensions: Vec::new(),
        };
        for k in self
            .functions
            .iter()
            .flat_map(|f| &f.dispatches)
            .flat_map(|d| &d.kernels)
        {
            out.version = out.version.max(k.needs.version);
            for c in &k.needs.capabilities {
                if !out.capabilities.contains(c) {
                    out.capabilities.push(*c);
                }
            }
            for e in &k.needs.extensions {
                if !out.extensions.contains(e) {
                    out.extensions.push(*e);
                }
            }
        }
        out
    }
}

/// Stages 0 and 1 on a copy of `m`: the module every later stage reads
/// (calls inlined, elementwise ops as `linalg.generic`).
pub fn prepare_module(m: &TensorModule) -> Result<TensorModule, CodegenError> {
    let mut m = m.clone();
    super::inline::inline_calls(&mut m)?;
    elementwise_to_generic(&mut m);
    Ok(m)
}

/// Compiles every function with a body of `m` (verified) for `target`.
pub fn compile(m: &TensorModule, target: &CodegenTarget) -> Result<CompiledProgram, CodegenError> {
    compile_with(m, target, Lowering::All)
}

/// [`compile`], lowering the kernels `lowering` says now (the others are
/// left for [`lower_deferred`](super::deferred::lower_deferred)).
pub fn compile_with(
    m: &TensorModule,
    target: &CodegenTarget,
    lowering: Lowering,
) -> Result<CompiledProgram, CodegenError> {
    let prepared = prepare_module(m)?;
    let mut functions = Vec::new();
    for &f in prepared.funcs() {
        if prepared.func(f).body.is_some() {
            functions.push(compile_function_with(&prepared, f, target, lowering)?);
        }
    }
    Ok(CompiledProgram {
        target: target.clone(),
        functions,
    })
}

/// Every function with a body of `m` (verified) compiled alone for
/// `target`, as an end-to-end test backend runs them one at a time: its
/// name and its one-function program, or why it did not compile (one
/// function's error does not stop the others). `Err` only where the
/// module itself cannot be prepared.
#[allow(clippy::type_complexity, reason = "a list of per-function results")]
pub fn compile_each_function(
    m: &TensorModule,
    target: &CodegenTarget,
) -> Result<Vec<(String, Result<CompiledProgram, CodegenError>)>, CodegenError> {
    compile_each_function_with(m, target, Lowering::All)
}

/// [`compile_each_function`], lowering the kernels `lowering` says now.
#[allow(clippy::type_complexity, reason = "a list of per-function results")]
pub fn compile_each_function_with(
    m: &TensorModule,
    target: &CodegenTarget,
    lowering: Lowering,
) -> Result<Vec<(String, Result<CompiledProgram, CodegenError>)>, CodegenError> {
    let prepared = prepare_module(m)?;
    Ok(prepared
        .funcs()
        .iter()
        .filter(|&&f| prepared.func(f).body.is_some())
        .map(|&f| {
            let program =
                compile_function_with(&prepared, f, target, lowering).map(|cf| CompiledProgram {
                    target: target.clone(),
                    functions: vec![cf],
                });
            (prepared.func(f).name.clone(), program)
        })
        .collect())
}

/// Compiles function `f` of a module [prepared](prepare_module) by stage 1.
pub fn compile_function(
    m: &TensorModule,
    f: TFunc,
    target: &CodegenTarget,
) -> Result<CompiledFunction, CodegenError> {
    compile_function_with(m, f, target, Lowering::All)
}

/// [`compile_function`], lowering the kernels `lowering` says now.
pub fn compile_function_with(
    m: &TensorModule,
    f: TFunc,
    target: &CodegenTarget,
    lowering: Lowering,
) -> Result<CompiledFunction, CodegenError> {
    let mut dispatches = Vec::new();
    let (info, regions, shapes, buffers) =
        emit_function(m, f, target, |d, loc, shape, strategy, kernels| {
            let mut compiled: Vec<CompiledKernel> = Vec::new();
            for k in kernels {
                check_push(&k, target, loc)?;
                let kernel = if lowering.defers(&k.name) {
                    defer_kernel(k, &compiled, target)
                } else {
                    lower_kernel(k, target)?
                };
                compiled.push(kernel);
            }
            dispatches.push(CompiledDispatch {
                name: d.name.clone(),
                family: d.family,
                op: m.op(d.op).kind.name(),
                loc,
                points: shape.points.clone(),
                reduction: shape.reduction,
                strategy,
                tuning_key: super::strategy::tuning_key(
                    shape.family,
                    &shape.points,
                    shape.reduction,
                    &shape.elems,
                ),
                candidates: super::strategy::candidates(target, shape, loc)?,
                kernels: compiled,
            });
            Ok(())
        })?;
    // Constants.
    let mut constants = Vec::new();
    for (id, b) in buffers.buffers.iter().enumerate() {
        let BufferOrigin::Constant(op) = b.origin else {
            continue;
        };
        let dense = match &m.op(op).kind {
            OpKind::Constant(ConstAttr::Dense(d))
            | OpKind::UnfoldableConstant(ConstAttr::Dense(d))
            | OpKind::DynamicConstant(d) => d,
            _ => continue,
        };
        let shape: Vec<u64> = m
            .ty(dense.ty)
            .tensor_shape()
            .unwrap_or(&[])
            .iter()
            .map(|d| d.fixed().unwrap_or(0))
            .collect();
        constants.push(ConstantData {
            buffer: id,
            value: m.op(op).results[0],
            elem: b.elem,
            shape,
            data: dense.data.clone(),
            splat: dense.splat,
        });
    }
    // Results.
    let ret = m.op(info.ret).operands.clone();
    let mut results = Vec::new();
    for v in ret {
        let elem = m.value_kind(v).elem();
        let r = match (regions.fate(v), buffers.buffer(v), shapes.scalar.get(&v)) {
            (_, Some(buffer), _) => ResultRef::Buffer {
                buffer,
                shape: shapes.of(v).to_vec(),
                elem,
                scalar: !m.value_kind(v).is_tensor(),
            },
            (ValueFate::Host, None, Some(&value)) => ResultRef::Host { value, elem },
            _ => {
                return Err(CodegenError::Internal {
                    loc: m.op(info.ret).loc,
                    op: "func.return".into(),
                    invariant: super::error::Invariant::NoBuffer("a returned value"),
                })
            }
        };
        results.push(r);
    }
    let params = m
        .block(info.body)
        .args
        .iter()
        .map(|&a| {
            let k = m.value_kind(a);
            Param {
                elem: k.elem(),
                shape: k
                    .tensor_shape()
                    .map(|s| s.iter().map(|d| d.fixed()).collect()),
            }
        })
        .collect();
    let faults = buffers
        .fault_sites
        .iter()
        .map(|&op| {
            let d = m.op(op);
            FaultSite {
                op: d.kind.name(),
                loc: d.loc,
                what: match &d.kind {
                    OpKind::Assert { message } => message.clone(),
                    _ => "an index computed on the device".into(),
                },
            }
        })
        .collect();
    let range = u64::from(target.env.limits.max_storage_buffer_range);
    let mut chunk_limits: Vec<(BufferId, u64)> = buffers
        .run_time_limits
        .iter()
        .filter(|&(_, &n)| n > range)
        .map(|(&b, &n)| (b, n))
        .collect();
    chunk_limits.sort_unstable();
    Ok(CompiledFunction {
        name: m.func(f).name.clone(),
        params,
        host: shapes.host,
        buffers: buffers.buffers,
        constants,
        dispatches,
        results,
        faults,
        chunk_limits,
    })
}

/// A function analysed, its dispatch regions formed, its buffers planned
/// and every dispatch's strategy chosen and kernels emitted (`each` gets
/// them, one dispatch at a time, in order): what [`compile_function`] lowers
/// and [`plan_function`] prints. Returns the analysis, regions, shapes and
/// buffers the rest of the function's compile reads.
fn emit_function<'a>(
    m: &'a TensorModule,
    f: TFunc,
    target: &CodegenTarget,
    mut each: impl FnMut(
        &DispatchRegion,
        Location,
        &DispatchShape,
        Strategy,
        Vec<Kernel>,
    ) -> Result<(), CodegenError>,
) -> Result<(FuncInfo<'a>, FuncRegions, Shapes, BufferPlan), CodegenError> {
    let info = FuncInfo::new(m, f)?;
    super::static_sizes::check(&info)?;
    let regions = form_dispatch_regions(&info);
    let mut shapes = infer_shapes(&info)?;
    let mut buffers = bufferize(&info, &regions, &shapes);
    add_fault_sites(&info, &shapes, &mut buffers);
    // The host reads an element of tensor data from its buffer.
    for slot in &mut shapes.host.slots {
        if let SlotDef::Read { tensor, buffer, .. } = &mut slot.def {
            *buffer = buffers
                .buffer(*tensor)
                .ok_or_else(|| CodegenError::Internal {
                    loc: m.func(f).loc,
                    op: "tensor.extract".into(),
                    invariant: super::error::Invariant::NoBuffer("a tensor the host reads"),
                })?;
        }
    }
    for d in &regions.dispatches {
        let shape = dispatch_shape(&info, &regions, &mut shapes, d);
        let loc = m.op(d.op).loc;
        let strategy = choose(target, &shape, loc)?;
        let plans = plan_dispatch(
            &info,
            &mut shapes,
            &mut buffers,
            d,
            &strategy,
            &shape,
            &target.env.limits,
        )?;
        let mut kernels = emit_dispatch(
            &info,
            &regions,
            &shapes,
            &buffers,
            d,
            &strategy,
            &shape,
            plans.clone(),
        )?;
        // Buffers sized at run time past the range: a `_chunked` variant.
        let bound: Vec<Bound<'_>> = kernels
            .iter()
            .map(|k| Bound {
                bindings: &k.bindings,
                texel: &k.texel,
            })
            .collect();
        let limits = &target.env.limits;
        let variant = run_time_variants(
            &plans,
            &bound,
            &buffers,
            &mut shapes.host,
            limits,
            strategy.texel_reads,
        );
        // What each buffer sized at run time may have: `N` chunks where
        // the variant binds it (also one the plain kernels read through a
        // texel view), else the range; through a texel view, at most the
        // view's texels (4 elements each).
        let range = u64::from(limits.max_storage_buffer_range);
        let chunk = limits.storage_chunk_bytes();
        for k in &kernels {
            for (i, &b) in k.bindings.iter().enumerate() {
                let info = &buffers.buffers[b];
                if info.shape.iter().all(|s| s.fixed().is_some()) {
                    continue;
                }
                let viewed = k.texel.contains(&(i as u32));
                let most = match &variant {
                    Some(v) if v.buffers.contains(&b) && (!viewed || v.unviewed.contains(&b)) => {
                        u64::from(v.chunks) * chunk
                    }
                    _ if viewed => {
                        let texel = 4 * super::bufferize::element_bytes(info.elem) as u64;
                        strategy
                            .texel_reads
                            .map_or(u64::MAX, |t| t.saturating_mul(texel))
                    }
                    _ => range,
                };
                let at = buffers.run_time_limits.entry(b).or_insert(most);
                *at = (*at).min(most);
            }
        }
        if let Some(v) = variant {
            for (k, g) in kernels.iter_mut().zip(v.plain_guards) {
                k.guard = g;
            }
            kernels.extend(emit_dispatch(
                &info, &regions, &shapes, &buffers, d, &strategy, &shape, v.plans,
            )?);
        }
        each(d, loc, &shape, strategy, kernels)?;
    }
    Ok((info, regions, shapes, buffers))
}

/// An error unless `k`'s push constants fit the target's
/// `maxPushConstantsSize`.
fn check_push(k: &Kernel, target: &CodegenTarget, loc: Location) -> Result<(), CodegenError> {
    let push_bytes = k.push.len() as u32 * 4;
    let limit = target.env.limits.max_push_constants_size;
    if push_bytes > limit {
        return Err(CodegenError::Limit {
            loc,
            message: format!(
                "dispatch {} needs {push_bytes} bytes of push constants (its run-time sizes and scalars), more than maxPushConstantsSize = {limit}",
                k.name
            ),
        });
    }
    Ok(())
}

/// The `--explain` text of function `f` of prepared module `m` compiled
/// for `target` — its plans (dispatches, strategies, kernels) — without
/// lowering the kernels: the same text as [`explain`] of
/// [`compile_function`]'s result where that compiles, for a fraction of the
/// work (no lowering, serialization or validation). A kernel that would not
/// lower for the target's env is not an error here.
pub fn plan_function(
    m: &TensorModule,
    f: TFunc,
    target: &CodegenTarget,
) -> Result<String, CodegenError> {
    let mut dispatches = Vec::new();
    let (_, _, shapes, _) = emit_function(m, f, target, |d, loc, shape, strategy, kernels| {
        for k in &kernels {
            check_push(k, target, loc)?;
        }
        super::strategy::candidates(target, shape, loc)?;
        let kernels = kernels
            .iter()
            .map(|k| KernelLine {
                name: k.name.clone(),
                plan: k.plan.clone(),
                guard: k.guard.clone(),
                workgroups: k.workgroups,
                workgroup_size: k.workgroup_size,
                bindings: k.bindings.len(),
                push: k.push.len(),
                repeat: k.repeat,
                split: k.split.clone(),
            })
            .collect();
        dispatches.push(DispatchLines {
            name: d.name.clone(),
            op: m.op(d.op).kind.name(),
            loc,
            points: shape.points.clone(),
            reduction: shape.reduction,
            strategy,
            kernels,
        });
        Ok(())
    })?;
    Ok(explain_text(&m.func(f).name, &shapes.host, &dispatches))
}

/// The fault sites of a function: every `tensor.extract` / `tensor.insert`
/// with an index the host does not check before the run (computed on the
/// device from tensor data, read back from it, or inside a structured
/// op's body, where the host checks nothing; see
/// [`Shapes::host_checks_index`]), every `cf.assert` inside a structured
/// op's body and every top-level `cf.assert` whose condition is computed
/// from tensor data
/// (checked by a one-invocation dispatch of its own); with any, a fault
/// word buffer.
fn add_fault_sites(info: &FuncInfo<'_>, shapes: &Shapes, buffers: &mut BufferPlan) {
    let m = info.m;
    let mut sites = Vec::new();
    for &op in &info.ops {
        let d = m.op(op);
        if matches!(d.kind, OpKind::Assert { .. })
            && info.class.get(&op) == Some(&super::analysis::OpClass::DeviceScalar)
        {
            sites.push(op);
        }
        if let OpKind::Tensor(t @ (TensorOp::Extract | TensorOp::Insert)) = &d.kind {
            let first = 1 + usize::from(*t == TensorOp::Insert);
            let device = d.operands[first.min(d.operands.len())..]
                .iter()
                .any(|&v| !shapes.host_checks_index(v));
            if device && !info.host_reads.contains(&op) {
                sites.push(op);
            }
        }
        for &r in &d.regions {
            m.walk(r, &mut |inner| match m.op(inner).kind {
                OpKind::Tensor(TensorOp::Extract) if m.op(inner).operands.len() > 1 => {
                    sites.push(inner)
                }
                OpKind::Assert { .. } => sites.push(inner),
                _ => {}
            });
        }
    }
    if !sites.is_empty() {
        buffers.fault = Some(buffers.add(BufferInfo {
            elem: ElemType::Int(32),
            shape: vec![Size::Static(1)],
            origin: BufferOrigin::Fault,
        }));
        buffers.fault_sites = sites;
    }
}

/// Whether `device`'s GLSL.std.450 `Fma` is taken to be fused: on a GPU,
/// discrete or integrated (measured on NVIDIA's H200; assumed for other
/// vendors', whose f32 multiply-add units fuse). Vulkan does not promise
/// it, and llvmpipe's is a multiply then an add (its env has an unknown
/// vendor, so an unknown device type). A GPU's f32 `OpFDiv` may be as
/// loose as Vulkan's 2.5 ulp, so there the quotients are refined (a step
/// that needs the fused `Fma`: on llvmpipe it made exact quotients one
/// ulp off); elsewhere `math.fma` is computed exactly in f64 instead, and
/// division is left to the driver (llvmpipe and the CPU runner divide as
/// LLVM's `fdiv` does, exactly).
fn fuses_fma(device: &crate::target::DeviceInfo) -> bool {
    use crate::target::DeviceType;
    matches!(
        device.device_type,
        DeviceType::DiscreteGpu | DeviceType::IntegratedGpu
    )
}

/// Memref-level kernel `module` (named `name`, its bindings `split` in
/// chunks as `(binding, buffer, descriptors)`) lowered for `target`,
/// serialized and validated: its words, the env they passed spirv-val
/// for, and what they need.
pub(super) fn lower_module(
    module: &crate::kernel::KernelModule,
    name: &str,
    split: &[(u32, BufferId, u32)],
    target: &CodegenTarget,
) -> Result<(Vec<u32>, ValidationEnv, Vce), CodegenError> {
    let err = |source| CodegenError::Lower {
        dispatch: name.to_owned(),
        source: Box::new(source),
    };
    let options = LowerOptions {
        split_bindings: split.iter().map(|&(i, _, n)| (i, n)).collect(),
        refine_division: fuses_fma(&target.env.device),
        exact_fma: !fuses_fma(&target.env.device),
        defined_shifts: true,
        ..LowerOptions::default()
    };
    let compiled = lower::compile_to_binaries(module, Some(&target.env), &options).map_err(err)?;
    let c = compiled
        .into_iter()
        .next()
        .ok_or_else(|| err(lower::LowerError::NoGpuModule))?;
    let needs = match c.module.attr_kind(c.module.top(), "vce_triple") {
        Some(AttrKind::Vce(v)) => v.clone(),
        _ => target.env.vce.clone(),
    };
    Ok((c.words, c.validation_env, needs))
}

/// Kernel `k` left unlowered: its text kept, no words. Its `needs` and
/// `validation_env` are those of the plain kernel it is the variant of
/// (in `lowered`, its dispatch's kernels lowered so far), or the target
/// env's where there is none; [`lower_deferred`](super::lower_deferred) gives the real ones.
fn defer_kernel(k: Kernel, lowered: &[CompiledKernel], target: &CodegenTarget) -> CompiledKernel {
    let plain = k
        .name
        .strip_suffix(super::strategy::CHUNKED_SUFFIX)
        .and_then(|p| lowered.iter().find(|l| l.name == p));
    let (needs, validation_env) = match plain {
        Some(p) => (p.needs.clone(), p.validation_env),
        None => (
            target.env.vce.clone(),
            ValidationEnv::for_vulkan_module(target.env.version()),
        ),
    };
    let split = k.split.clone();
    compiled_kernel(
        k,
        Vec::new(),
        validation_env,
        needs,
        Some(DeferredLowering { split }),
    )
}

fn lower_kernel(
    k: super::kernels::Kernel,
    target: &CodegenTarget,
) -> Result<CompiledKernel, CodegenError> {
    let (words, validation_env, needs) = lower_module(&k.module, &k.name, &k.split, target)?;
    Ok(compiled_kernel(k, words, validation_env, needs, None))
}

/// Kernel `k` as the program keeps it, with its lowering's results.
fn compiled_kernel(
    k: super::kernels::Kernel,
    words: Vec<u32>,
    validation_env: ValidationEnv,
    needs: Vce,
    deferred: Option<DeferredLowering>,
) -> CompiledKernel {
    CompiledKernel {
        kernel_text: crate::kernel::print(&k.module),
        name: k.name,
        words,
        validation_env,
        needs,
        bindings: k.bindings,
        writes: k.writes,
        push: k.push,
        workgroup_size: k.workgroup_size,
        plan: k.plan,
        guard: k.guard,
        workgroups: k.workgroups,
        repeat: k.repeat,
        deferred,
    }
}

/// The `--explain` text of a compiled function: each dispatch, its
/// iteration space, strategy and kernels.
pub fn explain(f: &CompiledFunction) -> String {
    let dispatches: Vec<DispatchLines> = f
        .dispatches
        .iter()
        .map(|d| DispatchLines {
            name: d.name.clone(),
            op: d.op.clone(),
            loc: d.loc,
            points: d.points.clone(),
            reduction: d.reduction,
            strategy: d.strategy.clone(),
            kernels: d
                .kernels
                .iter()
                .map(|k| KernelLine {
                    name: k.name.clone(),
                    plan: k.plan.clone(),
                    guard: k.guard.clone(),
                    workgroups: k.workgroups,
                    workgroup_size: k.workgroup_size,
                    bindings: k.bindings.len(),
                    push: k.push.len(),
                    repeat: k.repeat,
                    split: split_bindings(k),
                })
                .collect(),
        })
        .collect();
    explain_text(&f.name, &f.host, &dispatches)
}

/// What `--explain` prints of a dispatch.
struct DispatchLines {
    name: String,
    op: String,
    loc: Location,
    points: Vec<Size>,
    reduction: Option<Size>,
    strategy: Strategy,
    kernels: Vec<KernelLine>,
}

/// What `--explain` prints of a kernel.
struct KernelLine {
    name: String,
    plan: String,
    guard: Guard,
    workgroups: Size,
    workgroup_size: [u32; 3],
    bindings: usize,
    push: usize,
    repeat: Repeat,
    /// `(binding, buffer, descriptors)` of each buffer bound in chunks.
    split: Vec<(u32, BufferId, u32)>,
}

/// The bindings of kernel `k` that bind a buffer in chunks (an array of
/// descriptors: the buffer is larger than `maxStorageBufferRange`), as
/// `(binding, buffer, descriptors)`.
fn split_bindings(k: &CompiledKernel) -> Vec<(u32, BufferId, u32)> {
    if let Some(d) = &k.deferred {
        return d.split.clone();
    }
    let Ok(iface) = crate::reflect::reflect_binary(&k.words, &k.name) else {
        return Vec::new();
    };
    iface
        .bindings
        .iter()
        .filter(|b| b.count > 1)
        .filter_map(|b| Some((b.binding, *k.bindings.get(b.binding as usize)?, b.count)))
        .collect()
}

/// The `--explain` text of function `name`'s dispatches.
fn explain_text(name: &str, host: &HostProgram, dispatches: &[DispatchLines]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "func @{}: {} dispatch(es)", name, dispatches.len());
    for d in dispatches {
        let pts: Vec<String> = d.points.iter().map(|&s| host.text(s)).collect();
        let _ = writeln!(out, "dispatch @{} ({} at {}):", d.name, d.op, d.loc);
        let _ = writeln!(out, "  points: [{}]", pts.join(", "));
        if let Some(r) = d.reduction {
            let _ = writeln!(out, "  reduction: {} iterations per point", host.text(r));
        }
        let _ = writeln!(out, "{}", d.strategy);
        for k in &d.kernels {
            let repeat = match k.repeat {
                Repeat::Once => String::new(),
                Repeat::Chunks { total, chunk } => {
                    format!(", dispatched ceildiv({}, {chunk}) times", host.text(total))
                }
            };
            let _ = writeln!(
                out,
                "  kernel @{}: {} workgroups of {:?}{repeat}; {} bindings, {} push constants",
                k.name,
                host.text(k.workgroups),
                k.workgroup_size,
                k.bindings,
                k.push
            );
            if !k.guard.is_always() {
                let _ = writeln!(out, "    runs when: {}", k.guard.text(host));
            }
            for (binding, buffer, n) in &k.split {
                let _ = writeln!(
                    out,
                    "    binding {binding} (buffer {buffer}): {n} descriptors, one per chunk \
                     (larger than maxStorageBufferRange)"
                );
            }
            let _ = writeln!(out, "    computes: {}", k.plan);
        }
    }
    out
}
