//! The ONNX importer (`kiln_onnx::fuzz::onnx_import`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_onnx::fuzz::onnx_import(data));
