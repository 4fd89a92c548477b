//! Run-time index checks in kernels: the indices of a `tensor.extract` or
//! `tensor.insert` that only the device knows (computed from tensor data,
//! or in a structured op's body) are compared with their dimensions; an
//! index out of bounds is replaced by 0, so the access itself stays in
//! the buffer, and the kernel stores the op's fault number (its
//! [`FaultSite`](super::super::program::FaultSite) plus one) in the
//! function's fault word, which the executor reads after the call and
//! reports as an error naming the op and its line. Indices the host knows
//! are checked on the host before any dispatch
//! ([`shapes`](super::super::shapes)); constant indices into static
//! dimensions at compile time. A kernel with no such index carries no
//! check.
//!
//! A `cf.assert` inside a structured op's body is a fault site too: the
//! kernel records it where the condition is false, and the executor
//! reports the assert's message.

use crate::kernel::{KType, KValue};
use crate::tensor::{TOp, TValue};

use super::super::error::{CodegenError, Invariant};
use super::emitter::Emitter;

impl Emitter<'_, '_, '_> {
    /// `idx` (indices into tensor `t` by op `op`) with every one the
    /// caller does not mark `host_checked` checked at run time: each out
    /// of bounds becomes 0 and sets the fault word. Indices known to be
    /// in bounds at compile time pass as they are.
    pub fn checked_indices(
        &mut self,
        op: TOp,
        t: TValue,
        idx: &[KValue],
        host_checked: &[bool],
    ) -> Result<Vec<KValue>, CodegenError> {
        let shapes = self.c.shapes;
        let dims = shapes.of(t).to_vec();
        let site = self.c.buffers.fault_sites.iter().position(|&o| o == op);
        let (Some(site), Some(fault)) = (site, self.c.buffers.fault) else {
            return Ok(idx.to_vec());
        };
        let mut out = Vec::with_capacity(idx.len());
        let mut any_bad: Option<KValue> = None;
        for (k, &i) in idx.iter().enumerate() {
            let Some(&dim) = dims.get(k) else {
                out.push(i);
                continue;
            };
            let known = match (self.const_of(i), dim.fixed()) {
                (Some(c), Some(n)) => c >= 0 && (c as u64) < n,
                _ => false,
            };
            if known || host_checked.get(k).copied().unwrap_or(false) {
                out.push(i);
                continue;
            }
            let n = self.size(dim);
            // Unsigned: a negative index is a huge one.
            let bad = self.b.cmpi("uge", i, n);
            let zero = self.index(0);
            out.push(self.b.select(bad, zero, i));
            any_bad = Some(match any_bad {
                None => bad,
                Some(a) => self.b.binary(crate::kernel::KOpKind::ArithOrI, a, bad),
            });
        }
        if let Some(bad) = any_bad {
            self.record_fault(site, fault, bad)?;
        }
        Ok(out)
    }

    /// A `cf.assert` (op `op`) in a structured op's body: where `cond` is
    /// false, the kernel records the op's fault site.
    pub fn checked_assert(&mut self, op: TOp, cond: KValue) -> Result<(), CodegenError> {
        let site = self.c.buffers.fault_sites.iter().position(|&o| o == op);
        let (Some(site), Some(fault)) = (site, self.c.buffers.fault) else {
            return Err(self.internal(op, Invariant::NoFaultSite));
        };
        if self.const_of(cond).is_some_and(|c| c & 1 != 0) {
            return Ok(());
        }
        let t = self.b.const_int(1, KType::bool());
        let bad = self.b.binary(crate::kernel::KOpKind::ArithXOrI, cond, t);
        self.record_fault(site, fault, bad)
    }

    /// Stores fault site `site`'s number plus one in the fault word where
    /// `bad` holds.
    fn record_fault(
        &mut self,
        site: usize,
        fault: super::super::bufferize::BufferId,
        bad: KValue,
    ) -> Result<(), CodegenError> {
        let code = i128::from(site as u32) + 1;
        self.if_then(bad, |e| {
            let mem = e.buffer(fault);
            e.mark_written(fault);
            let word = e.b.const_int(code, KType::i32());
            let at = e.index(0);
            e.b.store(word, mem, &[at]);
            Ok(())
        })
    }
}
