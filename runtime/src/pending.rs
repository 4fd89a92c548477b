//! Buffers that op calls of a lazy stream read or write but whose work is
//! not yet enqueued (see `ops::lazy`), and settling them before anything
//! else touches them.
//!
//! Each [`Storage`](crate::tensor::Storage) carries [`Marks`]: the lazy
//! queues whose pending op calls read or write it, each with the
//! generation of the queue's list it was noted in. Every command recorded
//! on a stream (`hazard::order`, for each buffer it uses) and every host
//! read (`Tensor::read` and its relatives) first calls [`settle`], which
//! materialises those queues: their pending calls are enqueued (as one
//! compiled graph) before the command that touches the buffer, so a
//! command sees what the calls would have written had they run eagerly,
//! and a write to a buffer that a pending call reads cannot come before
//! that read. A flag read without the lock keeps the check free for the
//! buffers of eager work (almost all).
//!
//! A thread that is materialising a queue records its own commands (the
//! graph's replay, the copies into the results) without settling: the
//! buffers those commands touch are marked by that queue only (a pending
//! call's operand that was pending on another queue was settled when the
//! call was made), and other threads wait on the queue's lock for it.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use crate::error::Result;

/// `m` locked, through a poisoned lock (as `inner::lock`; this module
/// stays below the device's objects).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A queue of pending op calls that can be materialised (enqueued) now.
pub(crate) trait Materialise: Send + Sync {
    /// Enqueues every call pending on the queue (blocking while another
    /// thread does).
    fn materialise(&self) -> Result<()>;
}

/// The lazy queues whose pending calls touch a buffer.
#[derive(Default)]
pub(crate) struct Marks {
    /// False only while `queues` is empty (changed under its lock).
    any: AtomicBool,
    /// Each queue, with the generation of its list the mark belongs to.
    queues: Mutex<Vec<(Weak<dyn Materialise>, u64)>>,
}

impl Marks {
    /// Whether a queue may hold pending calls touching the buffer.
    pub(crate) fn any(&self) -> bool {
        self.any.load(Ordering::Acquire)
    }

    /// Notes that generation `generation` of `queue` touches the buffer.
    pub(crate) fn mark(&self, queue: &Arc<dyn Materialise>, generation: u64) {
        let mut queues = lock(&self.queues);
        let weak = Arc::downgrade(queue);
        if !queues
            .iter()
            .any(|(q, g)| *g == generation && Weak::ptr_eq(q, &weak))
        {
            queues.push((weak, generation));
        }
        self.any.store(true, Ordering::Release);
    }

    /// Removes the marks of `queue`'s generations up to `generation` (they
    /// were materialised).
    pub(crate) fn clear(&self, queue: &Arc<dyn Materialise>, generation: u64) {
        let mut queues = lock(&self.queues);
        let weak = Arc::downgrade(queue);
        queues
            .retain(|(q, g)| !(Weak::ptr_eq(q, &weak) && *g <= generation) && q.strong_count() > 0);
        if queues.is_empty() {
            self.any.store(false, Ordering::Release);
        }
    }

    /// Whether the buffer is marked by a queue other than `queue`.
    pub(crate) fn by_other(&self, queue: &Arc<dyn Materialise>) -> bool {
        if !self.any() {
            return false;
        }
        let weak = Arc::downgrade(queue);
        lock(&self.queues)
            .iter()
            .any(|(q, _)| !Weak::ptr_eq(q, &weak) && q.strong_count() > 0)
    }
}

thread_local! {
    /// Set while this thread materialises a queue (see the module docs).
    static MATERIALISING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with this thread marked as materialising (nothing it records
/// settles marks).
pub(crate) fn materialising<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            MATERIALISING.with(|m| m.set(self.0));
        }
    }
    let _reset = Reset(MATERIALISING.with(|m| m.replace(true)));
    f()
}

/// Materialises every queue whose pending calls touch the buffer of
/// `marks`, unless this thread is materialising one (see the module docs).
pub(crate) fn settle(marks: &Marks) -> Result<()> {
    if !marks.any() || MATERIALISING.with(Cell::get) {
        return Ok(());
    }
    let queues: Vec<Arc<dyn Materialise>> = lock(&marks.queues)
        .iter()
        .filter_map(|(q, _)| q.upgrade())
        .collect();
    for q in queues {
        q.materialise()?;
    }
    Ok(())
}
