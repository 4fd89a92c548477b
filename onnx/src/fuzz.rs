//! The entry point of the `onnx_import` fuzz target (`fuzz/`), shared with
//! the test that replays its committed corpus and regressions in CI
//! (`onnx/tests/onnx/fuzz_replay.rs`).
//!
//! [`onnx_import`] takes arbitrary bytes through what `kiln compile
//! MODEL.onnx` does without a device — [`decode_model`](crate::decode_model),
//! [`import()`](crate::import()) (for half the inputs with symbolic input
//! dimensions fixed to 1), the tensor compiler for MLIR's default target
//! env (programs of at most 4,096 ops) — and, when every argument
//! is small and static, runs the imported program once on the reference
//! evaluator. It returns normally
//! whatever the bytes are: a panic, an abort, a hang or unbounded memory
//! is a bug the fuzzer reports.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use kiln_core::codegen::{CodegenTarget, DriverFacts};
use kiln_core::tensor::attr::{Elements, ScalarBits};
use kiln_core::tensor::eval::{self, Tensor};
use kiln_core::tensor::Dim;

use crate::import::{ArgSource, ImportOptions, Imported, FUNC_NAME};
use crate::proto::{tensor_shape_proto::dimension, type_proto, ModelProto};

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

/// The most ops an imported program may have to be compiled (an LSTM
/// unrolled over 91 steps, 10,036 ops, takes 13 s to compile in a debug
/// build: the compiler's speed, not a hang).
const COMPILE_OPS: usize = 4096;

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
    let hash = hash(data);
    let opts = ImportOptions {
        base_dir: Some(base_dir),
        // Half the inputs: symbolic dimensions fixed to 1, as `--input
        // NAME=SHAPE` does (most real models have a symbolic batch).
        input_shapes: if hash & 1 == 0 {
            symbolic_as_one(&model)
        } else {
            HashMap::new()
        },
        ..Default::default()
    };
    let Ok(imported) = crate::import(&model, &opts) else {
        return;
    };
    if imported.module.num_ops() > COMPILE_OPS {
        return;
    }
    let target = CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative());
    let _ = kiln_core::codegen::compile(&imported.module, &target);
    let nodes = model.graph.as_ref().map_or(0, |g| g.node.len());
    if nodes <= EVAL_NODES {
        if let Some(args) = eval_args(&imported, hash) {
            let _ = eval::run(&imported.module, FUNC_NAME, &args);
        }
    }
}

/// FNV-1a of `data`: the input's own choices (which inputs get shapes,
/// the values they are run on).
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The graph inputs with a symbolic or unknown dimension, each such
/// dimension 1.
fn symbolic_as_one(model: &ModelProto) -> HashMap<String, Vec<u64>> {
    let mut out = HashMap::new();
    for vi in model.graph.iter().flat_map(|g| &g.input) {
        let Some(type_proto::Value::TensorType(t)) =
            vi.r#type.as_ref().and_then(|t| t.value.as_ref())
        else {
            continue;
        };
        let Some(s) = &t.shape else { continue };
        let dims: Vec<Option<u64>> = s
            .dim
            .iter()
            .map(|d| match d.value {
                Some(dimension::Value::DimValue(v)) => u64::try_from(v).ok(),
                _ => None,
            })
            .collect();
        if dims.iter().any(Option::is_none) {
            let name = vi.name.clone().unwrap_or_default();
            out.insert(name, dims.iter().map(|d| d.unwrap_or(1)).collect());
        }
    }
    out
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
fn eval_args(imported: &Imported, hash: u64) -> Option<Vec<eval::Value>> {
    let mut rng = kiln_core::fuzz::Rng::new(hash);
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
