//! The runner of IREE's end-to-end test format, over a [`Backend`].
//!
//! An e2e file holds `func.func @name()` test functions without arguments
//! or results: they make inputs with `util.unfoldable_constant`,
//! `arith.constant` or `flow.tensor.dynamic_constant`, compute, and check
//! the results with `check.expect_*`. The runner does what
//! `iree-check-module` does: each public function is a test (names
//! starting with `__` or holding `$` are skipped; a public function with
//! arguments or results is an error, as there); `--function NAME` selects
//! one. Output is googletest's, as iree-check-module prints it:
//!
//! ```text
//! [==========] Running 2 tests from 1 test suite.
//! [----------] Global test environment set-up.
//! [----------] 2 tests from module
//! [ RUN      ] module.add
//! [       OK ] module.add (0 ms)
//! [ RUN      ] module.bad
//! file.mlir:5:3: Failure
//! Expected near equality of these values. Contents does not match to tolerance parameters atol=0.0001, rtol=0. The first failure occurs at index 0 as the lhs value 1 differs from the rhs value 0.999 by -1.000e-03.
//!   lhs:
//!     5xf32=1 2 3 4 5
//!   rhs:
//!     5xf32=0.999 2 3 4 5
//! [  FAILED  ] module.bad, where GetParam() = 1 (0 ms)
//! ...
//! ```
//!
//! (the suite is the module's name, `module` when unnamed; the failure is
//! located at the check op instead of IREE's C++ source line; without
//! timing the `(N ms)` parts are left out, as with `--gtest_print_time=0`).
//!
//! ## The compute/check split and the [`Backend`] trait
//!
//! The runner rewrites each test function so that it has no check ops and
//! returns, instead, every value a check reads (in the order the checks
//! first use them). A backend only computes: it is handed that compute
//! module once ([`Backend::prepare`], where a GPU backend compiles its
//! dispatches and uploads constants), then asked to run each test function
//! ([`Backend::run`]) and return its results on the host as
//! [`Value`]s. The runner then evaluates the
//! checks on the host. [`ReferenceBackend`] (the CPU reference evaluator)
//! is the first implementation.

pub mod check;
pub mod format;

use std::fmt::Write as _;
use std::time::Instant;

use super::entity::{TFunc, TValue};
use super::eval::{self, Tensor, Value};
use super::module::TensorModule;
use super::ops::{CheckOp, OpKind, DEFAULT_ATOL, DEFAULT_RTOL};
use crate::ir::Location;

/// A backend's failure to compile or run (one line of text; the runner
/// reports it as the test's failure).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BackendError(pub String);

impl BackendError {
    /// `e` and its causes on one line, `outer: inner: innermost`, a cause
    /// left out when the text before already holds it (an error whose
    /// message includes its source's): what a backend reports, so a
    /// validator's or a driver's own words reach the user.
    pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
        let mut text = e.to_string();
        let mut cause = e.source();
        while let Some(c) = cause {
            let message = c.to_string();
            if !text.contains(&message) {
                text.push_str(": ");
                text.push_str(&message);
            }
            cause = c.source();
        }
        text
    }
}

/// What computes the test functions of an e2e file.
///
/// A backend sees the *compute module*: the e2e module with every `check`
/// op removed and each test function returning the values its checks read
/// (see the module documentation). It must give the results the reference
/// semantics give ([`crate::tensor::eval`]), in the result order of the
/// function, on the host: tensors as [`Tensor`]s of the result's element
/// type and run-time shape, scalars (the `i32` of `check.expect_true`) as
/// [`eval::Scalar`]s.
pub trait Backend {
    /// A short name for messages (`reference`, `vulkan`).
    fn name(&self) -> &str;

    /// Called once with the compute module before any [`Backend::run`]:
    /// compile, allocate and upload constants here.
    fn prepare(&mut self, module: &TensorModule) -> Result<(), BackendError>;

    /// Runs test function `func` (no arguments) of the module given to
    /// [`Backend::prepare`] and returns its results.
    fn run(&mut self, module: &TensorModule, func: &str) -> Result<Vec<Value>, BackendError>;
}

/// The CPU reference evaluator as a backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceBackend;

impl Backend for ReferenceBackend {
    fn name(&self) -> &str {
        "reference"
    }

    fn prepare(&mut self, _module: &TensorModule) -> Result<(), BackendError> {
        Ok(())
    }

    fn run(&mut self, module: &TensorModule, func: &str) -> Result<Vec<Value>, BackendError> {
        eval::run(module, func, &[]).map_err(|e| BackendError(e.to_string()))
    }
}

/// Why an e2e file cannot be run at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum E2eError {
    /// A public function has arguments or results.
    #[error("{loc}: expected function with no inputs or outputs, but export '{name}' has signature '{signature}'")]
    Signature {
        /// Where the function is.
        loc: Location,
        /// Its name.
        name: String,
        /// Its type.
        signature: String,
    },
    /// A check op inside a region, where the runner cannot split it out.
    #[error("{0}: check ops must be at the top level of a test function")]
    NestedCheck(Location),
    /// `--function` names no test.
    #[error("no test function '@{name}' (tests: {tests})")]
    NoSuchFunction {
        /// The requested name.
        name: String,
        /// The tests of the file.
        tests: String,
    },
    /// The backend failed to prepare the module.
    #[error("{backend} backend: {error}")]
    Prepare {
        /// The backend's name.
        backend: String,
        /// Its error.
        error: BackendError,
    },
}

/// Options of [`run`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Run only this test function.
    pub function: Option<String>,
    /// Print `(N ms)` after each test, as googletest does by default.
    pub timing: bool,
    /// The file name for failure locations (`FILE:LINE:COL: Failure`).
    pub source_name: Option<String>,
}

/// One check of a test, as the runner evaluates it.
#[derive(Clone, Debug)]
struct PlannedCheck {
    check: CheckOp,
    loc: Location,
    /// Indices of the checked values among the function's new results.
    results: Vec<usize>,
}

/// The result of running an e2e file.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// What iree-check-module would print.
    pub output: String,
    /// The tests that passed.
    pub passed: Vec<String>,
    /// The tests that failed.
    pub failed: Vec<String>,
}

impl RunReport {
    /// Whether every test passed.
    pub fn success(&self) -> bool {
        self.failed.is_empty()
    }
}

/// Whether `m` is in the e2e format: it has a public function without
/// arguments or results, or uses IREE's e2e ops.
pub fn is_e2e(m: &TensorModule) -> bool {
    m.funcs().iter().any(|&f| {
        let d = m.func(f);
        let uses_e2e_ops = d.body.is_some_and(|b| {
            m.block(b).ops.iter().any(|&op| {
                matches!(
                    m.op(op).kind,
                    OpKind::Check(_) | OpKind::UnfoldableConstant(_) | OpKind::DynamicConstant(_)
                )
            })
        });
        uses_e2e_ops
            || (is_public(m, f) && d.inputs.is_empty() && d.results.is_empty() && d.body.is_some())
    })
}

fn is_public(m: &TensorModule, f: TFunc) -> bool {
    let d = m.func(f);
    d.body.is_some() && d.visibility.as_deref().is_none_or(|v| v == "public")
}

/// The test functions of `m` (public functions, in text order, skipping
/// `__`-prefixed and `$` names), with their export ordinals.
fn tests(m: &TensorModule) -> Result<Vec<(TFunc, usize)>, E2eError> {
    let mut out = Vec::new();
    for (ordinal, &f) in m.funcs().iter().filter(|&&f| is_public(m, f)).enumerate() {
        let d = m.func(f);
        if d.name.starts_with("__") || d.name.contains('$') {
            continue;
        }
        if !d.inputs.is_empty() || !d.results.is_empty() {
            let list = |ts: &[super::entity::TType]| {
                ts.iter()
                    .map(|&t| m.types.text(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(E2eError::Signature {
                loc: d.loc,
                name: d.name.clone(),
                signature: format!("({}) -> ({})", list(&d.inputs), list(&d.results)),
            });
        }
        out.push((f, ordinal));
    }
    Ok(out)
}

/// The compute module (checks removed, checked values returned) and each
/// test's checks.
fn split_checks(
    m: &TensorModule,
    tests: &[(TFunc, usize)],
) -> Result<(TensorModule, Vec<Vec<PlannedCheck>>), E2eError> {
    let mut c = m.clone();
    let mut plans = Vec::new();
    for &(f, _) in tests {
        let Some(body) = c.func(f).body else {
            plans.push(Vec::new());
            continue;
        };
        let ops = c.block(body).ops.clone();
        for &op in &ops {
            let mut nested = false;
            for &r in &c.op(op).regions {
                c.walk(r, &mut |o| {
                    nested |= matches!(c.op(o).kind, OpKind::Check(_))
                });
            }
            if nested {
                return Err(E2eError::NestedCheck(c.op(op).loc));
            }
        }
        let mut returned: Vec<TValue> = Vec::new();
        let mut plan = Vec::new();
        for &op in &ops {
            let OpKind::Check(check) = c.op(op).kind.clone() else {
                continue;
            };
            let mut results = Vec::new();
            for &v in &c.op(op).operands {
                let i = match returned.iter().position(|&r| r == v) {
                    Some(i) => i,
                    None => {
                        returned.push(v);
                        returned.len() - 1
                    }
                };
                results.push(i);
            }
            plan.push(PlannedCheck {
                check,
                loc: c.op(op).loc,
                results,
            });
            c.detach_op(op);
        }
        if let Some(&ret) = c.block(body).ops.last() {
            if c.op(ret).kind == OpKind::Return {
                c.op_mut(ret).operands = returned.clone();
            }
        }
        let types = returned.iter().map(|&v| c.value_type(v)).collect();
        c.func_mut(f).results = types;
        plans.push(plan);
    }
    Ok((c, plans))
}

/// The compute module of e2e module `m`: every test function without its
/// check ops, returning the values they read (what a [`Backend`] is given;
/// what `kiln compile` compiles).
pub fn compute_module(m: &TensorModule) -> Result<TensorModule, E2eError> {
    let all = tests(m)?;
    Ok(split_checks(m, &all)?.0)
}

/// Runs the tests of e2e module `m` on `backend`; the report holds the
/// output and which tests passed.
pub fn run(
    m: &TensorModule,
    backend: &mut dyn Backend,
    opts: &RunOptions,
) -> Result<RunReport, E2eError> {
    let all = tests(m)?;
    let selected: Vec<(TFunc, usize)> = match &opts.function {
        None => all.clone(),
        Some(name) => {
            let found: Vec<_> = all
                .iter()
                .copied()
                .filter(|&(f, _)| m.func(f).name == *name)
                .collect();
            if found.is_empty() {
                return Err(E2eError::NoSuchFunction {
                    name: name.clone(),
                    tests: all
                        .iter()
                        .map(|&(f, _)| m.func(f).name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
            found
        }
    };
    let (compute, plans) = split_checks(m, &selected)?;
    backend
        .prepare(&compute)
        .map_err(|error| E2eError::Prepare {
            backend: backend.name().to_string(),
            error,
        })?;
    let suite = m.name.clone().unwrap_or_else(|| "module".to_string());
    let mut report = RunReport::default();
    let out = &mut report.output;
    let n = selected.len();
    let tests_word = |n: usize| if n == 1 { "test" } else { "tests" };
    let _ = writeln!(
        out,
        "[==========] Running {n} {} from 1 test suite.",
        tests_word(n)
    );
    let _ = writeln!(out, "[----------] Global test environment set-up.");
    let _ = writeln!(out, "[----------] {n} {} from {suite}", tests_word(n));
    let time = |ms: u128| {
        if opts.timing {
            format!(" ({ms} ms)")
        } else {
            String::new()
        }
    };
    let started = Instant::now();
    let mut failed_params = Vec::new();
    for (&(f, ordinal), plan) in selected.iter().zip(&plans) {
        let name = &m.func(f).name;
        let full = format!("{suite}.{name}");
        let _ = writeln!(out, "[ RUN      ] {full}");
        let t0 = Instant::now();
        let mut failures = Vec::new();
        match backend.run(&compute, name) {
            Err(e) => failures.push((m.func(f).loc, format!("{} backend: {e}", backend.name()))),
            Ok(values) => {
                for pc in plan {
                    if let Some(msg) = evaluate(&compute, pc, &values) {
                        failures.push((pc.loc, msg));
                    }
                }
            }
        }
        let ms = t0.elapsed().as_millis();
        for (loc, msg) in &failures {
            let place = match &opts.source_name {
                Some(file) => format!("{file}:{loc}"),
                None => loc.to_string(),
            };
            let _ = writeln!(out, "{place}: Failure\n{msg}");
        }
        if failures.is_empty() {
            let _ = writeln!(out, "[       OK ] {full}{}", time(ms));
            report.passed.push(full);
        } else {
            let _ = writeln!(
                out,
                "[  FAILED  ] {full}, where GetParam() = {ordinal}{}",
                time(ms)
            );
            failed_params.push(format!("{full}, where GetParam() = {ordinal}"));
            report.failed.push(full);
        }
    }
    let total = started.elapsed().as_millis();
    let total_text = if opts.timing {
        format!(" ({total} ms total)")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "[----------] {n} {} from {suite}{total_text}\n",
        tests_word(n)
    );
    let _ = writeln!(out, "[----------] Global test environment tear-down");
    let _ = writeln!(
        out,
        "[==========] {n} {} from 1 test suite ran.{total_text}",
        tests_word(n)
    );
    let p = report.passed.len();
    let _ = writeln!(out, "[  PASSED  ] {p} {}.", tests_word(p));
    let k = report.failed.len();
    if k > 0 {
        let _ = writeln!(out, "[  FAILED  ] {k} {}, listed below:", tests_word(k));
        for line in &failed_params {
            let _ = writeln!(out, "[  FAILED  ] {line}");
        }
        let _ = writeln!(
            out,
            "\n {k} FAILED {}",
            if k == 1 { "TEST" } else { "TESTS" }
        );
    }
    Ok(report)
}

/// Runs one check on the computed values; the failure message, if any.
fn evaluate(m: &TensorModule, pc: &PlannedCheck, values: &[Value]) -> Option<String> {
    let get = |k: usize| values.get(pc.results.get(k).copied()?);
    let tensor = |k: usize| -> Result<Tensor, String> {
        match get(k) {
            Some(Value::Tensor(t)) => Ok((**t).clone()),
            Some(Value::Scalar(_)) => {
                Err("expected a tensor, the backend returned a scalar".into())
            }
            None => Err("the backend returned too few results".into()),
        }
    };
    let expected = |d: &super::attr::DenseElements| {
        let shape: Vec<usize> = m
            .ty(d.ty)
            .tensor_shape()
            .unwrap_or(&[])
            .iter()
            .map(|x| x.fixed().unwrap_or(0) as usize)
            .collect();
        Tensor::from_dense(m, d, &shape).map_err(|e| e.to_string())
    };
    let r = match &pc.check {
        CheckOp::ExpectTrue | CheckOp::ExpectFalse => match get(0) {
            Some(Value::Scalar(s)) => Ok(check::truth(s.int(), pc.check == CheckOp::ExpectTrue)),
            _ => Err("expected an integer result".to_string()),
        },
        CheckOp::ExpectEq => tensor(0).and_then(|a| Ok(check::equal(&a, &tensor(1)?))),
        CheckOp::ExpectEqConst(d) => tensor(0).and_then(|a| Ok(check::equal(&a, &expected(d)?))),
        CheckOp::ExpectAlmostEq { atol, rtol } => tensor(0).and_then(|a| {
            Ok(check::almost_equal(
                &a,
                &tensor(1)?,
                atol.unwrap_or(DEFAULT_ATOL),
                rtol.unwrap_or(DEFAULT_RTOL),
            ))
        }),
        CheckOp::ExpectAlmostEqConst { value, atol, rtol } => tensor(0).and_then(|a| {
            Ok(check::almost_equal(
                &a,
                &expected(value)?,
                atol.unwrap_or(DEFAULT_ATOL),
                rtol.unwrap_or(DEFAULT_RTOL),
            ))
        }),
    };
    r.unwrap_or_else(Some)
}
