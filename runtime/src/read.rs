//! Asynchronous readback: [`ReadFuture`] and the device's waiter thread.
//!
//! [`Tensor::read`](crate::Tensor::read) enqueues what the read needs (a
//! copy into a readback staging buffer where the device has no unified
//! memory), submits it, and returns a future for the timeline value that
//! completes it. Polled before that value completed, the future registers
//! its waker with the device's **waiter thread**, which blocks in
//! `vkWaitSemaphores` for the lowest value anyone awaits (never spinning)
//! and wakes the futures whose values completed. The thread starts on the
//! first pending read and exits when the device goes. Any executor works;
//! `pollster::block_on` is the simplest.
//!
//! A device loss wakes every pending future, which then returns
//! [`Error::DeviceLost`].

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context as TaskContext, Poll, Waker};
use std::thread::JoinHandle;

use kiln_vulkan::{Slice, Timeline};

use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::hazard::HostRead;
use crate::inner::{lock, DeviceInner};
use crate::layout::Layout;
use crate::tensor::Storage;

#[derive(Default)]
struct WaiterState {
    waiting: Vec<(u64, Waker)>,
    shutdown: bool,
    running: bool,
}

struct WaiterShared {
    state: Mutex<WaiterState>,
    cv: Condvar,
    timeline: Arc<Timeline>,
}

/// The thread that waits on the timeline for pending futures.
pub(crate) struct Waiter {
    shared: Arc<WaiterShared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Waiter {
    pub(crate) fn new(timeline: Arc<Timeline>) -> Self {
        Self {
            shared: Arc::new(WaiterShared {
                state: Mutex::new(WaiterState::default()),
                cv: Condvar::new(),
                timeline,
            }),
            thread: Mutex::new(None),
        }
    }

    /// Wakes `waker` once `value` completed (or the device is lost).
    fn register(&self, value: u64, waker: Waker) {
        let mut state = lock(&self.shared.state);
        state.waiting.push((value, waker));
        if !state.running && !state.shutdown {
            state.running = true;
            let shared = Arc::clone(&self.shared);
            let spawned = std::thread::Builder::new()
                .name("kiln-waiter".to_owned())
                .spawn(move || run(&shared));
            match spawned {
                Ok(handle) => *lock(&self.thread) = Some(handle),
                Err(_) => {
                    // No thread: wake everyone now; their next poll waits
                    // in place (still a blocking wait, never a spin).
                    state.running = false;
                    for (_, w) in state.waiting.drain(..) {
                        w.wake();
                    }
                    return;
                }
            }
        }
        self.shared.cv.notify_one();
    }

    /// Whether the thread could not be started (futures then wait in poll).
    fn unavailable(&self) -> bool {
        let state = lock(&self.shared.state);
        !state.running && lock(&self.thread).is_none()
    }

    pub(crate) fn shutdown(&self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.cv.notify_all();
        if let Some(handle) = lock(&self.thread).take() {
            let _ = handle.join();
        }
    }
}

fn run(shared: &WaiterShared) {
    loop {
        let target = {
            let mut state = lock(&shared.state);
            while state.waiting.is_empty() && !state.shutdown {
                state = shared
                    .cv
                    .wait(state)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if state.waiting.is_empty() {
                state.running = false;
                return;
            }
            state.waiting.iter().map(|(v, _)| *v).min().unwrap_or(0)
        };
        let ok = shared.timeline.wait(target, None).is_ok();
        let done = shared.timeline.known_completed();
        let mut state = lock(&shared.state);
        let waiting = std::mem::take(&mut state.waiting);
        for (value, waker) in waiting {
            if !ok || value <= done {
                waker.wake();
            } else {
                state.waiting.push((value, waker));
            }
        }
        if !ok {
            // The device is lost: the futures see it when polled.
            state.running = false;
            return;
        }
    }
}

/// One chunk of a staged read: bytes `start ..` of the view's span, in
/// `slice`, once timeline value `value` completed.
pub(crate) struct StagedChunk {
    pub(crate) start: u64,
    pub(crate) value: u64,
    pub(crate) slice: Slice,
}

/// Where a read's bytes are.
pub(crate) enum ReadSource {
    /// The tensor's own (unified) memory, once the work the read waits
    /// for completed (or a snapshot taken before a later write; see
    /// `hazard`).
    Direct {
        storage: Arc<Storage>,
        read: Arc<HostRead>,
    },
    /// Readback staging slices holding the view's span, chunk by chunk
    /// (ascending `start` and `value`; see `transfer`).
    Staged(Vec<StagedChunk>),
}

impl ReadSource {
    /// Copies `out.len()` bytes at byte `offset` of the source (of the
    /// buffer for [`Direct`](Self::Direct), of the staged span for
    /// [`Staged`](Self::Staged)) into `out`. Blocks until the work that
    /// produces them completed — for a staged source chunk by chunk, so the
    /// host copies one chunk out while the device still copies the next.
    pub(crate) fn read(&self, device: &DeviceInner, offset: u64, out: &mut [u8]) -> Result<()> {
        if out.is_empty() {
            return Ok(());
        }
        match self {
            Self::Direct { storage, read } => read.read(device, &storage.slice, offset, out),
            Self::Staged(chunks) => {
                let end = offset + out.len() as u64;
                for c in chunks {
                    let c_end = c.start + c.slice.size();
                    if c_end <= offset || c.start >= end {
                        continue;
                    }
                    device.wait(c.value)?;
                    let (from, to) = (offset.max(c.start), end.min(c_end));
                    let dst = &mut out[(from - offset) as usize..(to - offset) as usize];
                    c.slice
                        .read(from - c.start, dst)
                        .map_err(|e| device.vk(e))?;
                }
                Ok(())
            }
        }
    }
}

impl ReadSource {
    /// Calls `f` on `len` bytes at byte `offset` of the source (see
    /// [`read`](Self::read)), in place for a direct source, else after a
    /// copy out of the staging chunks.
    pub(crate) fn read_with<R>(
        &self,
        device: &DeviceInner,
        offset: u64,
        len: usize,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Result<R> {
        match self {
            Self::Direct { storage, read } if len > 0 => {
                read.read_with(device, &storage.slice, offset, len, f)
            }
            _ => {
                let mut bytes = vec![0u8; len];
                self.read(device, offset, &mut bytes)?;
                Ok(f(&bytes))
            }
        }
    }
}

/// The future of [`Tensor::read`](crate::Tensor::read): the tensor's
/// elements in row-major order once the work that produces them completed.
pub struct ReadFuture<T: Element> {
    pub(crate) device: Arc<DeviceInner>,
    pub(crate) value: u64,
    /// `None` once the result was handed out (or for an early error).
    pub(crate) source: Option<ReadSource>,
    /// The view, relative to the source's first byte for a staged read.
    pub(crate) layout: Layout,
    pub(crate) early: Option<Error>,
    pub(crate) _t: PhantomData<fn() -> T>,
}

impl<T: Element> std::fmt::Debug for ReadFuture<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadFuture")
            .field("value", &self.value)
            .field("shape", &self.layout.shape)
            .finish_non_exhaustive()
    }
}

impl<T: Element> ReadFuture<T> {
    fn finish(&mut self) -> Result<Vec<T>> {
        self.device.retire()?;
        let source = self.source.take().ok_or_else(|| Error::Shape {
            what: "read",
            reason: "the future was polled after it completed".to_owned(),
        })?;
        gather(&self.device, &source, &self.layout)
    }
}

/// The elements of `layout` (row-major) from `source` (waiting for the
/// work that produces them, chunk by chunk).
pub(crate) fn gather<T: Element>(
    device: &DeviceInner,
    source: &ReadSource,
    layout: &Layout,
) -> Result<Vec<T>> {
    let size = T::DTYPE.size();
    let span = layout.span();
    // A staged source holds exactly the span; the tensor's own memory
    // holds the whole buffer.
    let base = match source {
        ReadSource::Direct { .. } => (span.start * size) as u64,
        ReadSource::Staged(_) => 0,
    };
    if layout.is_contiguous() {
        // One copy, straight into the result.
        return T::read_with(layout.numel(), &mut |out: &mut [u8]| {
            source.read(device, base, out)
        });
    }
    let mut bytes = vec![0u8; (span.end - span.start) * size];
    source.read(device, base, &mut bytes)?;
    let mut out = Vec::with_capacity(layout.numel() * size);
    for (start, len) in layout.runs() {
        let at = (start - span.start) * size;
        out.extend_from_slice(&bytes[at..at + len * size]);
    }
    Ok(T::from_bytes(&out))
}

impl<T: Element> Future for ReadFuture<T> {
    type Output = Result<Vec<T>>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if let Some(e) = this.early.take() {
            return Poll::Ready(Err(e));
        }
        if let Err(e) = this.device.alive() {
            return Poll::Ready(Err(e));
        }
        match this.device.timeline.is_complete(this.value) {
            Err(e) => return Poll::Ready(Err(this.device.vk(e))),
            Ok(true) => return Poll::Ready(this.finish()),
            Ok(false) => {}
        }
        this.device.waiter.register(this.value, cx.waker().clone());
        if this.device.waiter.unavailable() {
            // No waiter thread: block here (a driver wait, not a spin).
            return Poll::Ready(this.device.wait(this.value).and_then(|()| this.finish()));
        }
        // The value may have completed between the check and registering.
        match this.device.timeline.is_complete(this.value) {
            Ok(true) => Poll::Ready(this.finish()),
            _ => Poll::Pending,
        }
    }
}
