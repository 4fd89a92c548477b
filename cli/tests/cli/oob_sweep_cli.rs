//! Issue 31 §1-§2: out-of-range indices and sizes over every op that takes
//! them (`tensor.extract`, `tensor.insert`, slices, a gather-like
//! `linalg.generic` whose body extracts at computed indices, `tensor.pad`,
//! `tensor.concat`) and run-time size mismatches of the contractions and
//! `linalg.transpose`, in `oob_sweep.mlir`: each faulty function gets the
//! same verdict on lavapipe (`kiln run`), the CPU runner (`--cpu`) and the
//! reference evaluator (`--reference`): FAILED with an error naming the
//! op's line and what is wrong; the in-bounds controls pass on all three
//! (the run-time checks refuse nothing valid), and so do the `dead_`
//! functions, whose out-of-bounds op no live op reads (its result unused,
//! or an input of a generic whose region ignores it): MLIR's tensor ops
//! are pure, so every backend drops it (the reference evaluator through
//! its poison, `kiln_core::tensor::eval`), also where the dead op's index
//! is read back by the host as a size elsewhere, or where the poisoned
//! value is passed to a callee that ignores it. A gather read in part (a
//! slice that leaves its bad element out, an `insert_slice` over it) fails
//! on all three: a live op is computed whole. `tm_tensor.scatter` with an
//! index out of range fails at the scatter's line (PyTorch's rule);
//! `iree_linalg_ext.scatter` drops the update (XLA's).

use std::collections::BTreeMap;

use crate::common::{kiln, scratch};

const SWEEP: &str = include_str!("oob_sweep.mlir");

/// The words a function's error must contain, by the function's name
/// prefix (the kind of bad index or size).
const WANT: &[(&str, &str)] = &[
    ("extract_index", "index out of bounds"),
    ("extract_device_index_past", "index out of bounds"),
    ("extract_device_index_through", "index out of bounds"),
    ("insert_index", "index out of bounds"),
    ("insert_device_index", "index out of bounds"),
    ("gather_index", "index out of bounds"),
    ("extract_slice", "size out of bounds"),
    ("insert_slice_offset", "size out of bounds"),
    ("insert_slice_source", "size mismatch"),
    ("pad_negative", "negative"),
    ("concat", "size mismatch"),
    ("matmul", "size mismatch"),
    ("batch_matmul", "size mismatch"),
    ("dot", "size mismatch"),
    ("matvec", "size mismatch"),
    ("transpose", "size mismatch"),
    (
        "tm_tensor_scatter_index",
        "'tm_tensor.scatter' op index out of bounds",
    ),
];

/// Each function's name and the line of its `// BAD` op (none for a
/// control).
fn functions() -> Vec<(String, Option<usize>)> {
    let mut out: Vec<(String, Option<usize>)> = Vec::new();
    for (i, line) in SWEEP.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("func.func @") {
            let name = rest.split('(').next().unwrap_or_default().to_string();
            out.push((name, None));
        } else if line.contains("// BAD") {
            if let Some(last) = out.last_mut() {
                last.1 = Some(i + 1);
            }
        }
    }
    out
}

/// Each function's verdict in a `kiln run` output: `None` for OK, the
/// failure's message otherwise.
fn verdicts(out: &str) -> BTreeMap<String, Option<String>> {
    let mut v = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut message = None;
    for line in out.lines() {
        if let Some(name) = line.strip_prefix("[ RUN      ] module.") {
            current = Some(name.trim().to_string());
            message = None;
        } else if line.contains(" backend: ") && current.is_some() {
            message = Some(line.to_string());
        } else if line.starts_with("[       OK ] module.") {
            if let Some(n) = current.take() {
                v.insert(n, None);
            }
        } else if line.starts_with("[  FAILED  ] module.") {
            if let Some(n) = current.take() {
                v.insert(n, Some(message.take().unwrap_or_default()));
            }
        }
    }
    v
}

#[test]
fn out_of_range_indices_and_sizes_get_one_verdict_on_every_backend() {
    let dir = scratch("oob-sweep");
    let path = dir.join("oob_sweep.mlir");
    std::fs::write(&path, SWEEP).unwrap();
    let path = path.display().to_string();
    let funcs = functions();
    assert!(funcs.len() >= 20, "the sweep is missing its functions");
    let mut failures = Vec::new();
    let mut refused = 0;
    for backend in ["vulkan", "cpu", "reference"] {
        let mut args = vec!["run", "--no-timing", &path];
        match backend {
            "cpu" => args.push("--cpu"),
            "reference" => args.push("--reference"),
            _ => {}
        }
        let (status, out, err) = kiln(&args, b"");
        assert_eq!(status, 1, "{backend}: {out}\n{err}");
        assert!(!err.contains("panicked"), "{backend}: {err}");
        let got = verdicts(&out);
        for (name, bad_line) in &funcs {
            let verdict = got.get(name);
            match (bad_line, verdict) {
                (None, Some(None)) => {}
                (Some(line), Some(Some(msg))) => {
                    let want = WANT
                        .iter()
                        .filter(|(p, _)| name.starts_with(p))
                        .max_by_key(|(p, _)| p.len())
                        .map_or("?", |(_, w)| *w);
                    if msg.contains(&format!(" {line}:")) && msg.contains(want) {
                        refused += 1;
                    } else {
                        failures.push(format!(
                            "{backend} @{name}: wanted line {line} and '{want}' in: {msg}"
                        ));
                    }
                }
                (_, v) => failures.push(format!("{backend} @{name}: verdict {v:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let faulty = funcs.iter().filter(|(_, l)| l.is_some()).count();
    assert_eq!(refused, faulty * 3);
}
