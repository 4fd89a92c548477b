//! Run-time index checks of enqueued work, reported instead of clamped.
//!
//! A kernel that reads or writes at an index computed on the device
//! (`ops::index_select`, `ops::gather`, `ops::scatter`, a program's
//! `tensor.extract` at a data-dependent index) checks it: out of range,
//! it accesses an element in range instead (the access stays in bounds)
//! and stores the number of the failing site in the function's fault word
//! ([`FaultSite`](kiln_core::codegen::program::FaultSite)). Work enqueued
//! without waiting cannot return that failure, so each such call leaves a
//! [`FaultCheck`]:
//!
//! - on its stream, whose next [`Stream::sync`](crate::Stream::sync) reads
//!   the word and reports the failure;
//! - on each tensor the call writes, and on the results of later ops that
//!   read those tensors: reading any of them (`to_vec`, `read`, ..) reads
//!   the word first and fails with the same error.
//!
//! The error ([`Error::Index`]) names the op (or the program's function)
//! and the op of the program that found the index. A check whose word
//! was read as zero is dropped from what later ops inherit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use kiln_core::codegen::CompiledProgram;

use crate::error::{Error, Result};
use crate::inner::lock;
use crate::tensor::{Storage, Tensor};

/// The fault word of one enqueued call of a checking function, and what
/// it was found to hold once read.
pub(crate) struct FaultCheck {
    /// The op (`ops::gather`) or `function @name` of a program.
    what: String,
    program: Arc<CompiledProgram>,
    function: usize,
    word: Tensor,
    /// `Some(None)`: read, no fault; `Some(Some(message))`: the fault.
    state: Mutex<Option<Option<String>>>,
}

impl std::fmt::Debug for FaultCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaultCheck")
            .field("what", &self.what)
            .finish_non_exhaustive()
    }
}

impl FaultCheck {
    /// A check of `word`, the fault word of function `function` of
    /// `program`, called by `what`.
    pub(crate) fn new(
        what: String,
        program: Arc<CompiledProgram>,
        function: usize,
        word: Tensor,
    ) -> Arc<Self> {
        Arc::new(Self {
            what,
            program,
            function,
            word,
            state: Mutex::new(None),
        })
    }

    /// Whether the word was read and held no fault.
    fn passed(&self) -> bool {
        matches!(*lock(&self.state), Some(None))
    }

    /// Reads the word (waiting for the work that writes it) unless it was
    /// read before; the fault it holds as an [`Error::Index`].
    pub(crate) fn result(&self) -> Result<()> {
        let mut state = lock(&self.state);
        if state.is_none() {
            let f = &self.program.functions[self.function];
            let mut read = |_| -> Result<Vec<u8>> {
                let words = self.word.to_vec::<u32>()?;
                Ok(bytemuck::cast_slice(&words).to_vec())
            };
            *state = Some(f.fault(&mut read)?);
        }
        match state.as_ref() {
            Some(Some(message)) => Err(Error::Index {
                what: self.what.clone(),
                reason: message.clone(),
            }),
            _ => Ok(()),
        }
    }
}

/// The checks on one buffer (those of the work that wrote it), and
/// whether there may be any, read without the lock: most buffers have
/// none, and a replay asks every weight it reads.
#[derive(Default)]
pub(crate) struct Faults {
    checks: Mutex<Vec<Arc<FaultCheck>>>,
    /// False only while `checks` is empty (changed under its lock).
    any: AtomicBool,
}

impl Faults {
    /// The checks, locked, unless there are none.
    fn checks(&self) -> Option<MutexGuard<'_, Vec<Arc<FaultCheck>>>> {
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        let checks = lock(&self.checks);
        (!checks.is_empty()).then_some(checks)
    }

    /// Drops the checks that passed.
    fn prune(&self, checks: &mut Vec<Arc<FaultCheck>>) {
        checks.retain(|c| !c.passed());
        if checks.is_empty() {
            self.any.store(false, Ordering::Release);
        }
    }
}

/// The checks a new result inherits from `inputs`: those not known to
/// have passed. Empty (no allocation) when none has any.
pub(crate) fn inherited<'a>(inputs: impl IntoIterator<Item = &'a Storage>) -> Vec<Arc<FaultCheck>> {
    let mut out: Vec<Arc<FaultCheck>> = Vec::new();
    for s in inputs {
        let Some(mut faults) = s.faults.checks() else {
            continue;
        };
        s.faults.prune(&mut faults);
        for c in faults.iter() {
            if !out.iter().any(|o| Arc::ptr_eq(o, c)) {
                out.push(Arc::clone(c));
            }
        }
    }
    out
}

/// Attaches `checks` to `outputs`' storages.
pub(crate) fn attach(outputs: &[Tensor], checks: &[Arc<FaultCheck>]) {
    if checks.is_empty() {
        return;
    }
    for t in outputs {
        let faults = &t.storage.faults;
        let mut list = lock(&faults.checks);
        for c in checks {
            if !list.iter().any(|o| Arc::ptr_eq(o, c)) {
                list.push(Arc::clone(c));
            }
        }
        faults.any.store(true, Ordering::Release);
    }
}

/// The first fault of the checks on `storage` (reading their words).
pub(crate) fn check_storage(storage: &Storage) -> Result<()> {
    let checks: Vec<Arc<FaultCheck>> = match storage.faults.checks() {
        Some(faults) => faults.clone(),
        None => return Ok(()),
    };
    for c in &checks {
        c.result()?;
    }
    let mut faults = lock(&storage.faults.checks);
    storage.faults.prune(&mut faults);
    Ok(())
}
