//! kiln-core's integration tests: one test binary, one module per topic
//! (each links SPIRV-Tools once instead of once per file).
#![forbid(unsafe_code)]

mod availability;
mod binary_mutation;
mod block_layout;
mod codegen_archive;
mod codegen_coop_matrix;
mod codegen_gpu_env;
mod codegen_matvec;
mod codegen_texel;
pub mod common;
mod coop_matrix;
mod crate_docs;
mod deserialize_corpus;
mod deserialize_errors;
mod deserialize_golden;
mod deserialize_large;
mod fuzz_replay;
mod golden;
mod golden_binary;
mod grammar_tables;
mod kernel_text;
mod layout;
mod llvm_lit;
mod lower_arith;
mod lower_errors;
mod lower_func;
mod lower_gpu;
mod lower_math;
mod lower_memref;
mod lower_mlir;
mod lower_mma;
mod lower_scf;
mod lower_texel;
mod lower_util;
mod lower_vector;
mod pipeline;
mod serialize;
mod target_env;
mod tensor_builder;
mod tensor_eval;
mod tensor_text;
mod tensor_verify;
mod text_errors;
mod text_roundtrip;
mod update_vce;
mod verify;
