//! Lowering of memref-level kernels ([`crate::kernel`]) to the spv IR,
//! honouring a [`TargetEnv`] (MLIR's `convert-gpu-to-spirv` with the
//! `arith`, `math`, `memref`, `scf`, `vector` and `index` patterns, then
//! `spirv-lower-abi-attrs` and `spirv-update-vce`).
//!
//! # Entry points
//!
//! * [`convert_to_spirv`]: the kernel module is verified
//!   ([`crate::kernel::verify()`]), then every `gpu.module` becomes one
//!   `spv.module @__spv__<name>` ([`Module`]), with `lower-abi-attrs` and
//!   `update-vce` run and the result verified. Host `func.func` ops (outside
//!   `gpu.module`s) are ignored: the runner executes them.
//! * [`compile_to_binaries`]: the same, then serialized and validated (in
//!   process, with the Vulkan environment of the module's SPIR-V version).
//!
//! ```
//! use kiln_core::lower::{compile_to_binaries, LowerOptions};
//!
//! let src = r#"module attributes {gpu.container_module} {
//!   gpu.module @kernels {
//!     gpu.func @double(%a: memref<64xf32>) kernel attributes {
//!         spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
//!       %i = gpu.thread_id x
//!       %x = memref.load %a[%i] : memref<64xf32>
//!       %y = arith.addf %x, %x : f32
//!       memref.store %y, %a[%i] : memref<64xf32>
//!       gpu.return
//!     }
//!   }
//! }"#;
//! let kernels = kiln_core::kernel::parse(src).unwrap();
//! // No env given and none in the file: MLIR's default (SPIR-V 1.0, Shader,
//! // SPV_KHR_storage_buffer_storage_class).
//! let compiled = compile_to_binaries(&kernels, None, &LowerOptions::default()).unwrap();
//! assert_eq!(compiled[0].name, "kernels");
//! assert_eq!(compiled[0].module.symbol_name(compiled[0].module.top()), Some("__spv__kernels"));
//! assert_eq!(compiled[0].words[0], 0x0723_0203);
//! ```
//!
//! # What a lowered kernel looks like
//!
//! * `gpu.func @k(...) kernel` becomes `spv.func @k` with one argument per
//!   kernel argument carrying `spirv.interface_var_abi = (0, i)` (memrefs:
//!   pointers to `!spv.struct<(!spv.array<N x T, stride=S> [0])>` in
//!   `StorageBuffer`, runtime arrays for dynamic shapes; scalars with the
//!   `StorageBuffer` storage class, as MLIR does) and the
//!   `spirv.entry_point_abi` of the kernel; `lower-abi-attrs` then turns
//!   them into `@k_arg_i` global variables, an entry point and `LocalSize`.
//! * Other functions of the `gpu.module` (`func.func`, non-kernel
//!   `gpu.func`) become plain `spv.func`s; `func.call` becomes
//!   `spv.FunctionCall`.
//! * GPU ids read builtin variables (`@__builtin__LocalInvocationId__`, ...)
//!   created once per module; workgroup memory (attributions and
//!   `memref.alloc` in workgroup space) becomes `@__workgroup_mem__N`.
//! * `scf.if`/`scf.for`/`scf.while` become `spv.mlir.selection` /
//!   `spv.mlir.loop` with block arguments; their results go through
//!   function variables as in MLIR 19.
//!
//! # Legality
//!
//! The [`types::TypeConverter`] picks, per type, the best representation
//! the target env allows (native 8/16/64-bit types, or 8/16-bit integers
//! emulated in 32-bit words, or an error naming the missing capability).
//! Ops with several lowerings (`gpu.subgroup_reduce`) pick the best one
//! whose output the env allows. Every spv op a kernel op produces is
//! checked against the env's
//! [`ConversionTarget`](crate::target::ConversionTarget); an illegal one is a
//! [`LowerError::Illegal`] naming the kernel op, the unmet requirement and
//! what the env offers.

//! # Limits
//!
//! Not lowered (each an error naming the op): `memref.subview` / layouts
//! with dynamic offsets or strides, dynamic inner dimensions,
//! dynamically sized `memref.alloc`, memrefs of vectors of narrow integers
//! or bools, clustered subgroup reductions, `bf16`, and kernels without a
//! workgroup size (unless [`LowerOptions`] supplies one). `f16` needs
//! `Float16` (and 16-bit storage for buffers); `f64`/`i64` need
//! `Float64`/`Int64`: there is no emulation of those.

mod arith;
mod context;
mod error;
mod func;
mod gpu;
mod helpers;
mod index;
mod libm;
mod math;
mod memref;
mod module;
mod scf;
mod spirv;
pub mod types;
mod vector;

use std::collections::HashMap;

pub use error::{LowerError, TypeError};
pub(crate) use helpers::texel::is_texel_memref;
pub use types::{IndexBits, MemRefRepr, TypeConverter};

use crate::ir::Module;
use crate::kernel::{KAttr, KBlock, KOp, KOpKind, KernelModule};

use crate::target::TargetEnv;
use crate::validate::ValidationEnv;
use context::Lowerer;

/// Options of [`convert_to_spirv`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// The width `index` lowers to (32 by default; 64 needs `Int64`).
    pub index_bits: IndexBits,
    /// Use this workgroup size for kernels without a
    /// `spirv.entry_point_abi` workgroup size (or `known_block_size`);
    /// without it such a kernel is an error, as in MLIR.
    pub default_workgroup_size: Option<[u32; 3]>,
    /// Workgroup sizes by kernel symbol name (without the `gpu.module`;
    /// `gpu.launch_func`'s block size, as a runner knows it), used when the
    /// kernel itself gives none.
    pub workgroup_sizes: HashMap<String, [u32; 3]>,
    /// Storage-buffer bindings (set 0) bound as an array of this many
    /// descriptors, one per chunk of
    /// [`storage_chunk_bytes`](crate::target::ResourceLimits::storage_chunk_bytes):
    /// the tensor compiler's buffers larger than `maxStorageBufferRange`.
    /// A statically shaped memref argument larger than the range is split
    /// without being listed.
    pub split_bindings: HashMap<u32, u32>,
    /// Refine each f32 `arith.divf` quotient to the correctly rounded one
    /// (a residual by `fma`, then one correction step): for drivers whose
    /// `OpFDiv` is only as exact as Vulkan requires (2.5 ulp; NVIDIA's
    /// gave 25.499998 for ONNX's 25.5 tie, which then rounded to 25). The
    /// tensor compiler asks for it on discrete and integrated GPUs: the
    /// step needs a fused `Fma`, which Vulkan does not promise.
    pub refine_division: bool,
    /// Compute each f32 `math.fma` / `vector.fma` rounded once, in f64
    /// (see `lower/libm/fma.rs`), and each f64 one from unevaluated sums
    /// of doubles (`lower/libm/fma64.rs`), for drivers whose `Fma` is a
    /// multiply then an add (llvmpipe's). The f32 path needs `Float64`;
    /// without it the driver's `Fma` stands. The tensor compiler asks for
    /// it wherever it does not refine division.
    pub exact_fma: bool,
    /// Give `arith.shli` / `shrsi` / `shrui` by the bit width or more
    /// (poison in MLIR) numpy's result: 0, or the sign fill for `shrsi`,
    /// as the reference evaluator does. The tensor compiler asks for it.
    pub defined_shifts: bool,
}

/// One lowered `gpu.module`.
#[derive(Clone, Debug)]
pub struct LoweredModule {
    /// The `gpu.module`'s name.
    pub name: String,
    /// The `spv.module @__spv__<name>`.
    pub module: Module,
    /// The target env it was lowered for.
    pub env: TargetEnv,
}

/// A lowered, serialized and validated `gpu.module`.
#[derive(Clone, Debug)]
pub struct CompiledModule {
    /// The `gpu.module`'s name.
    pub name: String,
    /// The spv module.
    pub module: Module,
    /// Its SPIR-V binary.
    pub words: Vec<u32>,
    /// The validation environment it passed.
    pub validation_env: ValidationEnv,
}

/// The target env that applies to `gpu_module`: `explicit` when given, else
/// the `spirv.target_env` of the `gpu.module` or of the top module, else
/// [`default_env`] (MLIR's `lookupTargetEnvOrDefault`).
pub fn target_env_for(
    kernels: &KernelModule,
    gpu_module: KOp,
    explicit: Option<&TargetEnv>,
) -> TargetEnv {
    if let Some(env) = explicit {
        return env.clone();
    }
    for op in [gpu_module, kernels.top()] {
        for name in ["spirv.target_env", "spv.target_env"] {
            if let Some(KAttr::TargetEnv(env)) = kernels.attr(op, name) {
                return (**env).clone();
            }
        }
    }
    default_env()
}

/// MLIR's default target env (`spirv::getDefaultTargetEnv`): SPIR-V 1.0
/// with `Shader` and `SPV_KHR_storage_buffer_storage_class`, default
/// limits. (kiln's [`TargetEnv::default`] leaves the extension out, and
/// kernels need storage buffers.)
pub fn default_env() -> TargetEnv {
    let mut env = TargetEnv::default();
    let ext = crate::grammar::Extension::SpvKhrStorageBufferStorageClass;
    if !env.vce.extensions.contains(&ext) {
        env.vce.extensions.push(ext);
    }
    env
}

/// Lowers every `gpu.module` of `kernels` (see the module docs). `env` is
/// the target env; `None` looks it up on the modules ([`target_env_for`]).
/// The result is in source order, `(gpu.module name, spv module)`.
pub fn convert_to_spirv(
    kernels: &KernelModule,
    env: Option<&TargetEnv>,
    options: &LowerOptions,
) -> Result<Vec<LoweredModule>, LowerError> {
    crate::kernel::verify(kernels).map_err(|source| LowerError::Kernel {
        source: Box::new(source),
    })?;
    let mut out = Vec::new();
    for &op in kernels.body_ops(kernels.top()) {
        if kernels.op(op).kind != KOpKind::GpuModule {
            continue;
        }
        let name = kernels.symbol_name(op).unwrap_or("").to_owned();
        let env = target_env_for(kernels, op, env);
        let module = module::lower_gpu_module(kernels, op, &env, options)?;
        out.push(LoweredModule { name, module, env });
    }
    if out.is_empty() {
        return Err(LowerError::NoGpuModule);
    }
    Ok(out)
}

/// Lowers one `gpu.module` op of `kernels` for `env`.
pub fn convert_gpu_module(
    kernels: &KernelModule,
    gpu_module: KOp,
    env: &TargetEnv,
    options: &LowerOptions,
) -> Result<Module, LowerError> {
    module::lower_gpu_module(kernels, gpu_module, env, options)
}

/// [`convert_to_spirv`], then serializes each module and validates it with
/// SPIRV-Tools for the Vulkan environment of its SPIR-V version.
pub fn compile_to_binaries(
    kernels: &KernelModule,
    env: Option<&TargetEnv>,
    options: &LowerOptions,
) -> Result<Vec<CompiledModule>, LowerError> {
    convert_to_spirv(kernels, env, options)?
        .into_iter()
        .map(compile_lowered)
        .collect()
}

/// Serializes and validates one lowered module.
pub fn compile_lowered(lowered: LoweredModule) -> Result<CompiledModule, LowerError> {
    let LoweredModule { name, module, env } = lowered;
    let words = crate::binary::serialize(&module).map_err(|source| LowerError::Serialize {
        module: name.clone(),
        source: Box::new(source),
    })?;
    let version = match module.attr_kind(module.top(), "vce_triple") {
        Some(crate::ir::AttrKind::Vce(vce)) => vce.version,
        _ => env.version(),
    };
    let validation_env = ValidationEnv::for_vulkan_module(version);
    crate::validate::validate(&words, validation_env).map_err(|source| LowerError::Validate {
        module: name.clone(),
        source: Box::new(source),
    })?;
    Ok(CompiledModule {
        name,
        module,
        words,
        validation_env,
    })
}

// ---- dispatch -------------------------------------------------------------
//
// The one place that knows every dialect file: the context and the dialect
// files call back only through `lower_block` (for nested regions).

impl Lowerer<'_> {
    /// Lowers the ops of kernel block `block` at the insertion point, all
    /// but a trailing terminator, which is returned.
    pub(crate) fn lower_block(&mut self, kb: KBlock) -> Result<Option<KOp>, LowerError> {
        let ops = &self.kernels.block(kb).ops;
        let mut term = None;
        for &op in ops {
            let kind = self.kernels.op(op).kind;
            if kind.is_terminator() {
                term = Some(op);
                break;
            }
            self.lower_op(op)?;
        }
        Ok(term)
    }

    /// Lowers one kernel op with its dialect's patterns, then checks that
    /// every spv op it produced is legal in the target env.
    fn lower_op(&mut self, op: KOp) -> Result<(), LowerError> {
        let saved = self.current_op;
        self.current_op = op;
        let first = self.module.op_count();
        let kind = self.kernels.op(op).kind;
        match kind.dialect() {
            "arith" => arith::lower(self, kind),
            "math" => math::lower(self, kind),
            "memref" => memref::lower(self, kind),
            "scf" => scf::lower(self, kind),
            "gpu" => gpu::lower(self, kind),
            "vector" => vector::lower(self, kind),
            // An index op lowers like its arith twin, on the index type.
            "index" => match index::arith_twin(kind) {
                Some(twin) => arith::lower(self, twin),
                None => index::lower(self, kind),
            },
            "spirv" => spirv::lower(self),
            "func" => func::lower(self, kind),
            _ => Err(self.unsupported("op cannot appear in a kernel body")),
        }?;
        // Structured ops checked what their regions produced op by op.
        if !matches!(kind, KOpKind::ScfFor | KOpKind::ScfIf | KOpKind::ScfWhile) {
            self.check_legal(first)?;
        }
        self.current_op = saved;
        Ok(())
    }
}
