//! The tensor compiler: tensor programs ([`crate::tensor`]) to dispatches of
//! validated SPIR-V kernels, in the spirit of IREE's flow → codegen
//! pipeline. Each stage is a function (and a `kiln opt` flag printing its
//! result):
//!
//! 0. [`inline`]: `func.call`s are inlined.
//! 1. [`elementwise`]: `arith`/`math` on tensors become `linalg.generic`;
//!    named ops keep their identity (`--convert-elementwise-to-linalg`).
//! 2. [`regions`]: dispatch-region formation: one dispatch per root
//!    (reduction, contraction, convolution, pooling, softmax) or
//!    materialized elementwise group, elementwise producers fused into
//!    their consumer, elementwise consumers into a root's epilogue,
//!    reshapes as views (`--form-dispatch-regions`).
//! 3. [`bufferize`]: buffers for what lives in memory, in place where
//!    legal, no copies ([`shapes`] gives every tensor's sizes, dynamic ones
//!    computed by the host at run time) (`--bufferize`).
//! 4. [`strategy`]: a [`Strategy`](strategy::Strategy) per dispatch,
//!    chosen from its shape and the [`CodegenTarget`]
//!    (`kiln compile --explain`).
//! 5. [`kernels`]: tiling and distribution into memref-level kernels
//!    (`--tensor-to-kernels`), then the existing lowering, `lower-abi-attrs`,
//!    `update-vce`, serialization and validation ([`program::compile`]).
//!
//! ```
//! use kiln_core::codegen::{compile, CodegenTarget, DriverFacts};
//! let src = r#"
//! func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
//!   %c = arith.addf %a, %b : tensor<?xf32>
//!   return %c : tensor<?xf32>
//! }"#;
//! let m = kiln_core::tensor::load(src).unwrap();
//! let env = kiln_core::lower::default_env();
//! let program = compile(&m, &CodegenTarget::new(env, DriverFacts::conservative())).unwrap();
//! let f = program.function("add").unwrap();
//! assert_eq!(f.dispatches.len(), 1);
//! assert_eq!(f.dispatches[0].kernels[0].words[0], 0x0723_0203);
//! ```

pub mod analysis;
pub mod archive;
pub mod bufferize;
pub mod call_check;
pub mod combine;
pub mod deferred;
pub mod dequant;
pub mod elementwise;
pub mod error;
pub mod exec;
pub mod executor;
pub mod fused_path;
pub mod guard;
pub mod host;
pub mod host_eval;
pub mod inline;
pub mod kernels;
pub mod lowering;
pub mod partial;
pub mod program;
pub mod regions;
pub mod row_group;
pub mod shapes;
pub mod static_sizes;
pub mod strategy;
pub mod target;

pub use deferred::lower_deferred;
pub use error::{CodegenError, Invariant};
pub use lowering::{DeferredLowering, Lowering};
pub use program::{
    compile, compile_each_function, compile_each_function_with, compile_function,
    compile_function_with, compile_with, explain, plan_function, prepare_module, CompiledDispatch,
    CompiledFunction, CompiledKernel, CompiledProgram, ConstantData, Param, ResultRef,
};
pub use target::{CodegenTarget, DriverFacts, DriverFactsError};
