//! kiln-cli's integration tests: one test binary running the `kiln`
//! binary, one module per topic.
#![forbid(unsafe_code)]

mod amber_cli;
mod atomic_output_cli;
mod bad_input;
mod bench_cli;
mod common;
mod compile_cli;
mod coop_cpu_cli;
mod devices_cli;
#[path = "../../../gpu-tests/tests/gpu/filecheck.rs"]
mod filecheck;
mod huge_sizes_cli;
mod layout_cli;
mod llvm_cli;
mod lower_abi_cli;
mod mlir_compare;
mod onnx_cli;
mod onnx_fuzz_cli;
mod oob_sweep_cli;
mod reflect_cli;
mod run_cli;
mod spv_mlir19_cli;
mod tensor_cli;
mod tensor_cpu_cli;
mod tensor_device_cli;
mod translate_cli;
mod tune_cli;
mod tune_matvec;
mod update_vce_cli;
mod user_binaries_cli;
