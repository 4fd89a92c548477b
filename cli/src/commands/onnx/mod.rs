//! ONNX models on the command line: `kiln run MODEL.onnx` ([`run`]) and
//! `kiln onnx-test DIR...` ([`test`](mod@test)), both importing through
//! [`kiln_onnx`] and running the program on the device, the CPU runner
//! (`--cpu`) or the reference evaluator (`--reference`) ([`exec`]).

pub mod exec;
pub mod import;
pub mod inputs;
pub mod run;
pub mod test;

/// Whether `path` names an ONNX model (by its extension).
pub fn is_onnx_path(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("onnx"))
}
