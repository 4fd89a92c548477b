//! kiln's GPU tests: one test binary, one module per topic, on the
//! machine's Vulkan device (lavapipe in CI) with the validation layer on.
//! `runtime_env.rs` is a binary of its own: it changes process-wide
//! environment variables that the Vulkan loader reads.
// One test makes a raw Vulkan call on purpose (`runtime_glsl`); it allows
// unsafe code for itself, nothing else may.
#![deny(unsafe_code)]

mod abi_bindings;
mod abi_limits;
mod amber_errors;
mod amber_files;
mod bench_limits;
mod bench_tensor;
mod cpu_differential;
mod cpu_integer_dot;
mod cpu_kernels;
mod descriptor_arrays;
mod deserialize_corpus;
mod filecheck;
mod runner;
mod runner_declared_env;
mod runner_harness;
mod runner_mlir_compare;
mod runtime_cache;
mod runtime_faults;
mod runtime_glsl;
mod runtime_hazards;
mod runtime_interop;
mod runtime_ops;
mod runtime_ops_bounds;
mod runtime_ops_capture;
mod runtime_ops_dtypes;
mod runtime_ops_eager;
mod runtime_ops_lazy;
mod runtime_ops_more;
mod runtime_program_cache;
mod runtime_program_load;
mod runtime_stream;
mod runtime_support;
mod runtime_teardown;
mod runtime_tensor;
mod runtime_transfer;
mod spv_text_kernels;
mod stream_blocks;
mod target_env_query;
mod tensor_arg_reductions;
mod tensor_cpu_differential;
mod tensor_dynamic;
mod tensor_dynamic_matmul;
mod tensor_f16_rounding;
mod tensor_generic_form;
mod tensor_matvec;
mod tensor_programs;
mod tensor_random;
mod tensor_row_groups;
mod tensor_shared_tiles;
mod tensor_split_allocations;
mod tensor_split_buffers;
mod tensor_split_k;
mod tensor_split_rows;
mod tensor_strategies;
mod tensor_texel;
mod tensor_tiles;
mod tensor_vec4;
mod tensor_vec4_tails;
mod tensor_word_stores;
mod texel_buffers;
