//! The entry point of the `onnx_import` fuzz target (`fuzz/`), shared with
//! the test that replays its committed corpus and regressions in CI
//! (`onnx/tests/onnx/fuzz_replay.rs`).
//!
//! [`onnx_import`] takes arbitrary bytes through what `kiln compile
//! MODEL.onnx` does without a device — [`decode_model`](crate::decode_model),
//! [`import`](crate::import), the tensor compiler for MLIR's default
//! target env — and, when every argument is small and static, runs the
//! imported program once on the reference evaluator. It returns normally
//! whatever the bytes are: a panic, an abort, a hang or unbounded memory
//! is a bug the fuzzer reports.

use std::path::PathBuf;
use std::rc::Rc;

use kiln_core::codegen::{CodegenTarget, DriverFacts};
use kiln_core::tensor::attr::{Elements, ScalarBits};
use kiln_core::tensor::eval::{self, Tensor};
use kiln_core::tensor::Dim;

use crate::import::{ArgSource, ImportOptions, Imported, FUNC_NAME};

/// Models longer than this are skipped (the real models of the seed
/// corpus, ocr_cls and silero_vad, are smaller).
const MAX_MODEL: usize = 4 << 20;

/// The most host memory one allocation may take while importing (shape
/// folding runs the evaluator) and evaluating: a declared size past this
/// is an error, as it is on a host without the memory.
pub const IMPORT_MEMORY: u64 = 16 << 20;

/// The most elements of all graph inputs together for the program to be
/// run on the evaluator after it compiles.
const EVAL_ELEMENTS: usize = 1 << 12;

/// The most elements of all weights together for the program to be run on
/// the evaluator.
const EVAL_WEIGHTS: usize = 1 << 16;

/// The most nodes a graph may have for its program to be run on the
/// evaluator (one execution stays well under a second).
const EVAL_NODES: usize = 64;

/// Decode, import, compile and (for small static arguments) evaluate the
/// model in `data`. External data is never read: the model's folder is a
/// path under a regular file (the running executable), so every location
/// fails to open.
pub fn onnx_import(data: &[u8]) {
    if data.len() > MAX_MODEL {
        return;
    }
    let Ok(model) = crate::decode_model(data, "fuzz input") else {
        return;
    };
    let Some(base_dir) = unreadable_dir() else {
        return;
    };
    kiln_core::host_memory::limit_this_thread(IMPORT_MEMORY);
    let opts = ImportOptions {
        base_dir: Some(base_dir),
        ..Default::default()
    };
    let Ok(imported) = crate::import(&model, &opts) else {
        return;
    };
    let target = CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative());
    let _ = kiln_core::codegen::compile(&imported.module, &target);
    let nodes = model.graph.as_ref().map_or(0, |g| g.node.len());
    if nodes <= EVAL_NODES {
        if let Some(args) = eval_args(&imported, data) {
            let _ = eval::run(&imported.module, FUNC_NAME, &args);
        }
    }
}

/// A folder no file can be read from: a path under the running executable
/// (a regular file). `None` where the executable's path is unknown.
fn unreadable_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.is_file()
        .then(|| exe.join("kiln-fuzz-no-external-data"))
}

/// The arguments of one evaluation: the model's weights, and each graph
/// input filled with small values drawn from `data`; `None` when an
/// input is dynamic, or the inputs or the weights are too many elements.
fn eval_args(imported: &Imported, data: &[u8]) -> Option<Vec<eval::Value>> {
    let mut rng = kiln_core::fuzz::Rng::new(data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }));
    let mut total = 0usize;
    let mut weights = 0usize;
    let mut args = Vec::with_capacity(imported.args.len());
    for a in &imported.args {
        let t = match &a.source {
            ArgSource::Param(t) => {
                weights = weights.checked_add(t.len())?;
                if weights > EVAL_WEIGHTS {
                    return None;
                }
                t.tensor.clone()
            }
            ArgSource::Input => {
                let shape = a
                    .shape
                    .iter()
                    .map(|d| match d {
                        Dim::Static(n) => usize::try_from(*n).ok(),
                        Dim::Dynamic => None,
                    })
                    .collect::<Option<Vec<usize>>>()?;
                let n = shape
                    .iter()
                    .try_fold(1usize, |p, &d| p.checked_mul(d))
                    .filter(|&n| n <= EVAL_ELEMENTS)?;
                total = total.checked_add(n).filter(|&t| t <= EVAL_ELEMENTS)?;
                let elem = a.dtype.elem();
                let mut data = Elements::zeros(elem, n)?;
                for i in 0..n {
                    // Small values, negative ones included: indices in
                    // and out of range, shapes, counts.
                    let v = rng.below(9) as i64 - 3;
                    data.set(
                        i,
                        if a.dtype.is_float() {
                            ScalarBits::Float(v as f64 * 0.5)
                        } else {
                            ScalarBits::Int(v)
                        },
                    );
                }
                Tensor { elem, shape, data }
            }
        };
        args.push(eval::Value::Tensor(Rc::new(t)));
    }
    Some(args)
}
