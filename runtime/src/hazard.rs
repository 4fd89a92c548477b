//! Ordering every access of a buffer after the earlier accesses that
//! conflict with it.
//!
//! Work reaches the device in submission order (one timeline for all
//! streams), and within one batch the batch's barriers order conflicting
//! commands. What remains is the order *between* batches: an access recorded
//! into stream S's batch must not be submitted before a conflicting access
//! (read-after-write, write-after-read, write-after-write on overlapping
//! bytes) recorded earlier into another stream's batch still unsubmitted.
//! Each buffer ([`Storage`](crate::tensor::Storage)) therefore keeps the
//! byte ranges its queued work reads and writes, each with the [`Ticket`]
//! of the batch it is in:
//!
//! - **Device access** ([`Hazards::foreign`], then [`Hazards::note`]):
//!   before a command is recorded, every other stream's unsubmitted batch
//!   with a conflicting access to the same bytes is submitted, so that it
//!   precedes on the timeline; the command's own accesses are then noted.
//!   Invariant: two unsubmitted batches of different streams never hold
//!   conflicting accesses of one buffer.
//! - **Host read** ([`Hazards::writes`]): every batch that writes the bytes
//!   read is submitted (its own stream's too), and the read waits for the
//!   last of them.
//! - **Host read, then device write**: a read whose bytes the host copies
//!   later (a pending [`ReadFuture`](crate::ReadFuture) of unified memory)
//!   is registered as a [`HostRead`]; a device write to its bytes recorded
//!   before the host copied them first takes a snapshot of them for it (a
//!   wait for the work the read waits for, never for the write).
//!
//! - **Repeated access** ([`Hazards::holds`]): an access already held,
//!   covering the same bytes with the same or a stronger kind, by the
//!   stream's own unsubmitted batch has nothing to order and nothing to
//!   note: by the invariant above no other unsubmitted batch holds a
//!   conflicting access (one noted later would have submitted this batch
//!   first, one noted earlier was submitted when this one was noted), and
//!   a host read registered since would have submitted this batch (a host
//!   read submits the batches that write its bytes); a write to a buffer
//!   with host reads registered still takes the full path. The weights a
//!   replayed graph reads on every replay take this path from the second
//!   replay of a batch on.
//!
//! Accesses leave the list once nothing can conflict with them any more:
//! reads once their batch is submitted (every later batch comes after it
//! on the timeline), writes once their batch completed (a host read then
//! need not wait for them). A read whose batch failed to submit leaves at
//! once; a write that failed stays, failing the host reads of its bytes,
//! until a later write covers them.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Weak};

use crate::error::Result;
use crate::inner::{lock, DeviceInner};
use crate::stream::{ticket_value, StreamInner, Ticket};

/// Bytes `start .. end` of one buffer, read or written by queued work.
struct Access {
    ticket: Arc<Ticket>,
    start: u64,
    end: u64,
    write: bool,
}

impl Access {
    fn overlaps(&self, start: u64, end: u64) -> bool {
        self.start < end && start < self.end
    }
}

/// A host read of bytes `start .. end` of a buffer in host-visible memory
/// that the host copies once timeline value `value` completed (see the
/// module docs).
pub(crate) struct HostRead {
    start: u64,
    end: u64,
    value: u64,
    /// The bytes, copied before a device write changed them; held while
    /// the reader copies straight from the buffer.
    snapshot: Mutex<Option<Vec<u8>>>,
}

impl HostRead {
    /// Copies `out.len()` bytes at byte `offset` of the buffer (within the
    /// read's range) into `out`: from the snapshot if a write came first,
    /// else from the buffer once the read's value completed.
    pub(crate) fn read(
        &self,
        device: &DeviceInner,
        slice: &crate::pieces::Pieces,
        offset: u64,
        out: &mut [u8],
    ) -> Result<()> {
        let snapshot = lock(&self.snapshot);
        if let Some(bytes) = snapshot.as_ref() {
            let at = (offset - self.start) as usize;
            out.copy_from_slice(&bytes[at..at + out.len()]);
            return Ok(());
        }
        device.wait(self.value)?;
        slice.read(offset, out).map_err(|e| device.vk(e))
    }

    /// Calls `f` on `len` bytes at byte `offset` of the buffer (within the
    /// read's range): the snapshot's if a write came first, else the
    /// buffer's own once the read's value completed (a later device write
    /// waits: its snapshot needs the lock `f` runs under).
    pub(crate) fn read_with<R>(
        &self,
        device: &DeviceInner,
        slice: &crate::pieces::Pieces,
        offset: u64,
        len: usize,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Result<R> {
        let snapshot = lock(&self.snapshot);
        if let Some(bytes) = snapshot.as_ref() {
            let at = (offset - self.start) as usize;
            return Ok(f(&bytes[at..at + len]));
        }
        device.wait(self.value)?;
        slice.read_with(offset, len, f).map_err(|e| device.vk(e))
    }

    /// Takes the snapshot (unless taken): waits for the read's value and
    /// copies its bytes out of the buffer.
    fn take_snapshot(&self, device: &DeviceInner, slice: &crate::pieces::Pieces) -> Result<()> {
        let mut snapshot = lock(&self.snapshot);
        if snapshot.is_some() {
            return Ok(());
        }
        device.wait(self.value)?;
        let mut bytes = vec![0u8; (self.end - self.start) as usize];
        slice
            .read(self.start, &mut bytes)
            .map_err(|e| device.vk(e))?;
        *snapshot = Some(bytes);
        Ok(())
    }
}

/// The queued accesses of one buffer and its pending host reads.
#[derive(Default)]
pub(crate) struct Hazards {
    accesses: Vec<Access>,
    host_reads: Vec<Weak<HostRead>>,
}

impl Hazards {
    /// Drops what nothing can conflict with any more (see the module docs).
    fn prune(&mut self, completed: u64) {
        self.accesses.retain(|a| {
            if a.ticket.failed.load(Ordering::Acquire) {
                // A write that never ran keeps failing the host reads of
                // its bytes (see `ticket_value`) until a later write
                // covers them.
                return a.write;
            }
            let value = a.ticket.value.load(Ordering::Acquire);
            value == 0 || (a.write && value > completed)
        });
        self.host_reads.retain(|r| r.strong_count() > 0);
    }

    /// The unsubmitted batches of streams other than `stream` with an
    /// access to bytes `start .. end` that conflicts with one of kind
    /// `write`, and (for a write) the pending host reads of those bytes.
    fn foreign(
        &mut self,
        completed: u64,
        stream: &Weak<StreamInner>,
        start: u64,
        end: u64,
        write: bool,
    ) -> (Vec<Arc<Ticket>>, Vec<Arc<HostRead>>) {
        self.prune(completed);
        let mut tickets: Vec<Arc<Ticket>> = Vec::new();
        for a in &self.accesses {
            if (a.write || write)
                && a.overlaps(start, end)
                && a.ticket.value.load(Ordering::Acquire) == 0
                && !a.ticket.failed.load(Ordering::Acquire)
                && !a.ticket.stream.ptr_eq(stream)
                && !tickets.iter().any(|t| Arc::ptr_eq(t, &a.ticket))
            {
                tickets.push(Arc::clone(&a.ticket));
            }
        }
        let reads = if write {
            self.host_reads
                .iter()
                .filter_map(Weak::upgrade)
                .filter(|r| r.start < end && start < r.end)
                .collect()
        } else {
            Vec::new()
        };
        (tickets, reads)
    }

    /// Whether the unsubmitted batch of `ticket` holds an access of bytes
    /// `start .. end` of kind `write` or stronger (see the module docs:
    /// such an access has nothing to order or note).
    fn holds(&self, ticket: &Arc<Ticket>, start: u64, end: u64, write: bool) -> bool {
        ticket.value.load(Ordering::Acquire) == 0
            && !ticket.failed.load(Ordering::Acquire)
            // A write with host reads registered takes the full path
            // (their snapshots), even if they registered after the batch
            // was submitted by another thread's read and a new one began.
            && (!write || self.host_reads.is_empty())
            && self.accesses.iter().any(|a| {
                Arc::ptr_eq(&a.ticket, ticket)
                    && a.start <= start
                    && end <= a.end
                    && a.write >= write
            })
    }

    /// Notes an access of bytes `start .. end` by the batch of `ticket`.
    fn note(&mut self, ticket: &Arc<Ticket>, start: u64, end: u64, write: bool) {
        if start >= end {
            return;
        }
        if write {
            self.accesses.retain(|a| {
                !(a.ticket.failed.load(Ordering::Acquire) && start <= a.start && a.end <= end)
            });
        }
        let covered = self.accesses.iter_mut().find(|a| {
            Arc::ptr_eq(&a.ticket, ticket) && a.start <= start && end <= a.end && a.write >= write
        });
        if covered.is_none() {
            self.accesses.push(Access {
                ticket: Arc::clone(ticket),
                start,
                end,
                write,
            });
        }
    }

    /// The batches that write bytes `start .. end` and may not have
    /// completed.
    fn writes(&mut self, completed: u64, start: u64, end: u64) -> Vec<Arc<Ticket>> {
        self.prune(completed);
        let mut tickets: Vec<Arc<Ticket>> = Vec::new();
        for a in &self.accesses {
            if a.write
                && a.overlaps(start, end)
                && !tickets.iter().any(|t| Arc::ptr_eq(t, &a.ticket))
            {
                tickets.push(Arc::clone(&a.ticket));
            }
        }
        tickets
    }
}

/// One access a command makes: bytes `start .. end` of `storage`.
pub(crate) struct Use<'a> {
    pub(crate) storage: &'a crate::tensor::Storage,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) write: bool,
}

impl<'a> Use<'a> {
    /// A read of `len` bytes at `start`.
    pub(crate) fn read(storage: &'a crate::tensor::Storage, start: u64, len: u64) -> Self {
        Self {
            storage,
            start,
            end: start + len,
            write: false,
        }
    }

    /// A write of `len` bytes at `start`.
    pub(crate) fn write(storage: &'a crate::tensor::Storage, start: u64, len: u64) -> Self {
        Self {
            storage,
            start,
            end: start + len,
            write: true,
        }
    }
}

/// The uses (by index, the first 128) that the batch of a ticket already
/// holds (see [`Hazards::holds`]): [`order`] skipped them, and [`note`]
/// skips them if the command is recorded into that batch.
#[derive(Clone, Copy, Default)]
pub(crate) struct Held(u128);

impl Held {
    /// Whether no use is held.
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn has(self, k: usize) -> bool {
        k < 128 && self.0 & (1 << k) != 0
    }
}

/// Orders a command of `stream` with `uses` after the conflicting work of
/// other streams: submits their batches, snapshots the pending host reads
/// it would overwrite. `current` is the ticket of the stream's batch the
/// command is to be recorded into: the uses that batch already holds need
/// no ordering while it is unsubmitted (returned; the caller orders them
/// again, with `current` `None`, if the batch was submitted meanwhile).
pub(crate) fn order(
    stream: &Weak<StreamInner>,
    current: Option<&Arc<Ticket>>,
    uses: &[Use<'_>],
) -> Result<Held> {
    let mut held = Held::default();
    for (k, u) in uses.iter().enumerate() {
        if u.start >= u.end {
            continue;
        }
        let storage = u.storage;
        // Pending op calls touching the buffer are enqueued first.
        crate::pending::settle(&storage.pending)?;
        let (tickets, reads) = {
            let mut hazards = lock(&storage.hazards);
            if k < 128 && current.is_some_and(|c| hazards.holds(c, u.start, u.end, u.write)) {
                held.0 |= 1 << k;
                continue;
            }
            let completed = storage.device.timeline.known_completed();
            hazards.foreign(completed, stream, u.start, u.end, u.write)
        };
        for t in tickets {
            submit(&t, &storage.device)?;
        }
        for r in reads {
            r.take_snapshot(&storage.device, &storage.slice)?;
        }
    }
    Ok(held)
}

/// Notes `uses` as made by the batch of `ticket`, but for those `held` by
/// it.
pub(crate) fn note(ticket: &Arc<Ticket>, uses: &[Use<'_>], held: Held) {
    for (k, u) in uses.iter().enumerate() {
        if !held.has(k) {
            lock(&u.storage.hazards).note(ticket, u.start, u.end, u.write);
        }
    }
}

/// The timeline value after which bytes `start .. end` of `storage` hold
/// every write queued to them (0: none pending), submitting the batches
/// that write them.
pub(crate) fn written(storage: &crate::tensor::Storage, start: u64, end: u64) -> Result<u64> {
    let completed = storage.device.timeline.known_completed();
    let tickets = lock(&storage.hazards).writes(completed, start, end);
    let mut value = 0;
    for t in tickets {
        value = value.max(submit(&t, &storage.device)?);
    }
    Ok(value)
}

/// Whether queued work, or an op call pending on a lazy stream, may still
/// write bytes `start .. end` of `storage` (submits nothing, waits for
/// nothing).
pub(crate) fn writes_pending(storage: &crate::tensor::Storage, start: u64, end: u64) -> bool {
    if storage.pending.any() {
        return true;
    }
    let completed = storage.device.timeline.known_completed();
    !lock(&storage.hazards)
        .writes(completed, start, end)
        .is_empty()
}

/// Registers a host read of bytes `start .. end` of `storage` that copies
/// them once `value` completed.
pub(crate) fn host_read(
    storage: &crate::tensor::Storage,
    start: u64,
    end: u64,
    value: u64,
) -> Arc<HostRead> {
    let read = Arc::new(HostRead {
        start,
        end,
        value,
        snapshot: Mutex::new(None),
    });
    lock(&storage.hazards)
        .host_reads
        .push(Arc::downgrade(&read));
    read
}

/// Submits the batch of `ticket` if it was not yet; its timeline value.
fn submit(ticket: &Arc<Ticket>, device: &DeviceInner) -> Result<u64> {
    let value = ticket_value(ticket, device)?;
    if value != 0 {
        return Ok(value);
    }
    match ticket.stream.upgrade() {
        Some(stream) => stream.flush_ticket(ticket),
        // A dropped stream submitted its batch on drop.
        None => ticket_value(ticket, device),
    }
}
