//! Long work (importing and compiling a model) that Ctrl-C interrupts.
//!
//! Python runs signal handlers on the main thread between bytecodes, so a
//! compile that ran on the calling thread without the GIL would hold
//! Ctrl-C back until it ended. [`interruptible`] runs the work on a thread
//! of its own and waits for it without the GIL in short slices, checking
//! for signals between them: a `KeyboardInterrupt` returns at once, and the
//! work, which cannot be stopped half-way, finishes in the background and
//! its result is dropped.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::Error;

/// How often the wait looks for signals.
const SLICE: Duration = Duration::from_millis(50);

/// `work`'s result, computed on a thread of its own; a pending signal's
/// exception (Ctrl-C's `KeyboardInterrupt`) if one arrives first. `what`
/// names the work in the error if its thread dies.
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("kiln-compile".into())
        .spawn(move || {
            // The receiver may be gone (interrupted): nothing to tell.
            let _ = tx.send(work());
        })
        .map_err(|e| Error::new_err(format!("{what}: no thread to run on: {e}")))?;
    let mut rx = rx;
    loop {
        // The receiver moves in and out (it is `Send`, not `Sync`).
        let (got, back) = py.detach(move || (rx.recv_timeout(SLICE), rx));
        rx = back;
        match got {
            Ok(v) => return Ok(v),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Error::new_err(format!(
                    "{what}: the work's thread panicked"
                )))
            }
        }
    }
}

/// For the tests: sleeps `seconds` on a worker thread, waited for as a
/// compile is (Ctrl-C interrupts it).
#[pyfunction]
pub fn _interruptible_sleep(py: Python<'_>, seconds: f64) -> PyResult<()> {
    let d = Duration::from_secs_f64(seconds.max(0.0));
    interruptible(py, "sleep", move || std::thread::sleep(d))
}
