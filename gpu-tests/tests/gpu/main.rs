//! kiln's GPU tests: one test binary, one module per topic, on the
//! machine's Vulkan device (lavapipe in CI) with the validation layer on.
//! `runtime_env.rs` is a binary of its own: it changes process-wide
//! environment variables that the Vulkan loader reads.

mod abi_bindings;
mod abi_limits;
mod cpu_differential;
mod cpu_kernels;
mod filecheck;
mod runner;
mod runner_harness;
mod runner_mlir_compare;
mod runtime_glsl;
mod spv_text_kernels;
mod target_env_query;
