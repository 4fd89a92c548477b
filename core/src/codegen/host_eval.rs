//! Evaluating a [`HostProgram`] for a run, in phases.
//!
//! [`HostProgram::start`] computes every slot that the run's sizes and
//! scalar arguments give (all of them, for a program without
//! [`SlotDef::Read`] slots) and runs the checks on them. A slot read from
//! tensor data, and every slot computed from one, waits: an executor asks
//! for it with [`HostProgram::demand`] once the dispatches before the read
//! have run (a host sync point), giving the element read back; the checks
//! on those slots run as soon as their values are known, before anything
//! uses them. Checks keep their order: the first one that fails is the
//! error.

use std::collections::BTreeSet;

use crate::tensor::eval::Scalar;
use crate::tensor::types::ElemType;

use super::bufferize::BufferId;
use super::host::{
    CheckKind, HostError, HostProgram, HostValues, Size, SlotDef, SlotId, SourceRef,
};

/// A run's host values as they become known.
#[derive(Clone, Debug, Default)]
pub struct HostRun {
    /// The values (a slot not yet known reads as 0).
    pub vals: HostValues,
    known: Vec<bool>,
    checked: Vec<bool>,
}

impl HostRun {
    /// Whether size `s` is known.
    pub fn is_known(&self, s: Size) -> bool {
        match s {
            Size::Static(_) => true,
            Size::Slot(i) => self.known.get(i).copied().unwrap_or(false),
        }
    }

    /// The slots not known yet.
    pub fn unknown(&self) -> impl Iterator<Item = SlotId> + '_ {
        self.known
            .iter()
            .enumerate()
            .filter(|(_, &k)| !k)
            .map(|(i, _)| i)
    }
}

/// One element a [`SlotDef::Read`] slot reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementRead {
    /// The buffer.
    pub buffer: BufferId,
    /// The element's row-major index in it.
    pub index: u64,
    /// Its type.
    pub elem: ElemType,
}

/// Why [`HostProgram::demand`] failed.
#[derive(Debug)]
pub enum DemandError<E> {
    /// A check failed, or a slot could not be computed.
    Host(HostError),
    /// Reading an element back failed.
    Read(E),
}

impl HostProgram {
    /// For each slot, whether it is read from tensor data or computed
    /// from such a slot.
    pub fn read_dependent(&self) -> Vec<bool> {
        let mut out: Vec<bool> = Vec::with_capacity(self.slots.len());
        for slot in &self.slots {
            let dep =
                matches!(slot.def, SlotDef::Read { .. }) || slot.def.deps().iter().any(|&d| out[d]);
            out.push(dep);
        }
        out
    }

    /// Whether size `s` is read from tensor data or computed from it.
    pub fn depends_on_read(&self, s: Size) -> bool {
        let Size::Slot(i) = s else {
            return false;
        };
        let mut stack = vec![i];
        let mut seen = vec![false; self.slots.len()];
        while let Some(j) = stack.pop() {
            if std::mem::replace(&mut seen[j], true) {
                continue;
            }
            if matches!(self.slots[j].def, SlotDef::Read { .. }) {
                return true;
            }
            stack.extend(self.slots[j].def.deps());
        }
        false
    }

    /// Evaluates every slot for a run that no read of tensor data feeds,
    /// then every check on known slots: `source_dim` gives the run's size
    /// of a source's dimension, `argument` a scalar argument. The error is
    /// the first failing check's message (or why a slot cannot be
    /// computed).
    pub fn start(
        &self,
        source_dim: &dyn Fn(SourceRef, usize) -> Option<u64>,
        argument: &dyn Fn(usize) -> Option<Scalar>,
    ) -> Result<HostRun, HostError> {
        let n = self.slots.len();
        let mut run = HostRun {
            vals: HostValues(vec![Scalar::Int(0); n]),
            known: vec![false; n],
            checked: vec![false; self.checks.len()],
        };
        let pending = self.read_dependent();
        for (i, &wait) in pending.iter().enumerate() {
            if wait {
                continue;
            }
            run.vals.0[i] = self.eval_slot(i, &run.vals, source_dim, argument)?;
            run.known[i] = true;
        }
        self.run_checks(&mut run)?;
        Ok(run)
    }

    /// [`start`](Self::start)'s values: every slot for a program without
    /// reads of tensor data; the slots that depend on one read as 0 and
    /// their checks are not run.
    pub fn evaluate(
        &self,
        source_dim: &dyn Fn(SourceRef, usize) -> Option<u64>,
        argument: &dyn Fn(usize) -> Option<Scalar>,
    ) -> Result<HostValues, HostError> {
        self.start(source_dim, argument).map(|r| r.vals)
    }

    /// Computes the slots of `want` not known yet, and those they are
    /// computed from, in order, reading each element of tensor data with
    /// `read` (after the checks on its indices); then runs the checks that
    /// became decidable.
    pub fn demand<E>(
        &self,
        run: &mut HostRun,
        want: impl IntoIterator<Item = SlotId>,
        read: &mut dyn FnMut(ElementRead) -> Result<Scalar, E>,
    ) -> Result<(), DemandError<E>> {
        let mut need = BTreeSet::new();
        let mut stack: Vec<SlotId> = want.into_iter().collect();
        while let Some(s) = stack.pop() {
            if run.known.get(s).copied().unwrap_or(true) || !need.insert(s) {
                continue;
            }
            stack.extend(self.slots[s].def.deps());
        }
        for s in need {
            let slot = &self.slots[s];
            let v = match &slot.def {
                SlotDef::Read {
                    buffer,
                    dims,
                    indices,
                    ..
                } => {
                    self.run_checks(run).map_err(DemandError::Host)?;
                    let mut at = 0u64;
                    for (&d, &i) in dims.iter().zip(indices) {
                        let n = run.vals.size(d);
                        let i = run.vals.value(i).int();
                        if i < 0 || i as u64 >= n {
                            return Err(DemandError::Host(HostError::ReadIndex {
                                slot: slot.text.clone(),
                                index: i,
                                size: n,
                            }));
                        }
                        at = at.saturating_mul(n).saturating_add(i as u64);
                    }
                    read(ElementRead {
                        buffer: *buffer,
                        index: at,
                        elem: slot.elem,
                    })
                    .map_err(DemandError::Read)?
                }
                _ => self
                    .eval_slot(s, &run.vals, &|_, _| None, &|_| None)
                    .map_err(DemandError::Host)?,
            };
            run.vals.0[s] = v;
            run.known[s] = true;
        }
        // Every other slot the values known now give (no read): the checks
        // on them (a slice's last index from a size and an offset read
        // back) run before any kernel uses those values.
        for s in 0..self.slots.len() {
            let def = &self.slots[s].def;
            if run.known[s]
                || matches!(def, SlotDef::Read { .. })
                || !def.deps().iter().all(|&d| run.known[d])
            {
                continue;
            }
            run.vals.0[s] = self
                .eval_slot(s, &run.vals, &|_, _| None, &|_| None)
                .map_err(DemandError::Host)?;
            run.known[s] = true;
        }
        self.run_checks(run).map_err(DemandError::Host)
    }

    /// The slots of every check not run yet that `readable` lets the host
    /// compute now: a check runs as soon as its operands can be known,
    /// not only once a kernel needs them (a check mixing a value read
    /// already with one not yet read would otherwise wait for the second,
    /// after kernels that use the first). `readable(b)` says whether
    /// buffer `b` holds its final data (no kernel still to run writes it).
    pub fn decidable_checks(
        &self,
        run: &HostRun,
        readable: &dyn Fn(BufferId) -> bool,
    ) -> Vec<SlotId> {
        let mut out = Vec::new();
        for (k, (_, c)) in self.checks.iter().enumerate() {
            if run.checked[k] || (run.is_known(c.a) && run.is_known(c.b)) {
                continue;
            }
            let roots: Vec<SlotId> = [c.a, c.b]
                .into_iter()
                .filter_map(|s| match s {
                    Size::Slot(i) if !run.is_known(s) => Some(i),
                    _ => None,
                })
                .collect();
            let mut stack = roots.clone();
            let mut seen = BTreeSet::new();
            let mut ok = true;
            while let Some(s) = stack.pop() {
                if run.known[s] || !seen.insert(s) {
                    continue;
                }
                if let SlotDef::Read { buffer, .. } = self.slots[s].def {
                    if !readable(buffer) {
                        ok = false;
                        break;
                    }
                }
                stack.extend(self.slots[s].def.deps());
            }
            if ok {
                out.extend(roots);
            }
        }
        out
    }

    /// Runs, in order, the checks not run yet whose sizes are known.
    fn run_checks(&self, run: &mut HostRun) -> Result<(), HostError> {
        for (k, (_, c)) in self.checks.iter().enumerate() {
            if run.checked[k] || !run.is_known(c.a) || !run.is_known(c.b) {
                continue;
            }
            run.checked[k] = true;
            let raw = |s: Size| match s {
                Size::Static(n) => n as i64,
                Size::Slot(i) => run.vals.0[i].int(),
            };
            let (a, b) = (raw(c.a), raw(c.b));
            let ok = match c.kind {
                CheckKind::Equal => a == b,
                CheckKind::Less => a < b,
                CheckKind::NonNegative => a >= 0,
                CheckKind::Index => a >= 0 && a < b,
                CheckKind::Assert => a != 0,
                CheckKind::NonEmpty => a > 0,
            };
            if !ok {
                return Err(HostError::Check {
                    check: c.clone(),
                    a,
                    b,
                });
            }
        }
        Ok(())
    }

    /// The value of slot `i` from the earlier slots' `vals` (a read of
    /// tensor data is [`demand`](Self::demand)'s).
    fn eval_slot(
        &self,
        i: SlotId,
        vals: &HostValues,
        source_dim: &dyn Fn(SourceRef, usize) -> Option<u64>,
        argument: &dyn Fn(usize) -> Option<Scalar>,
    ) -> Result<Scalar, HostError> {
        let slot = &self.slots[i];
        Ok(match &slot.def {
            SlotDef::SourceDim { source, dim } => Scalar::Int(
                source_dim(*source, *dim).ok_or_else(|| HostError::NoSize(slot.text.clone()))?
                    as i64,
            ),
            SlotDef::Argument(i) => argument(*i).ok_or(HostError::MissingArgument(*i))?,
            SlotDef::Scalar {
                kind,
                args,
                arg_elem,
            } => {
                let xs: Vec<Scalar> = args.iter().map(|&a| vals.value(a)).collect();
                super::shapes::eval_scalar(kind, &xs, *arg_elem, slot.elem).map_err(|error| {
                    HostError::Scalar {
                        slot: slot.text.clone(),
                        error,
                    }
                })?
            }
            SlotDef::SelectDim { dims, index } => {
                let i = vals.value(*index).int();
                let d = usize::try_from(i)
                    .ok()
                    .and_then(|i| dims.get(i))
                    .ok_or(HostError::DimIndex(i))?;
                Scalar::Int(vals.size(*d) as i64)
            }
            SlotDef::Arith { op, a, b } => {
                Scalar::Int(op.apply(vals.size(*a) as i64, vals.size(*b) as i64))
            }
            SlotDef::Read { .. } => return Err(HostError::NotReadYet(slot.text.clone())),
        })
    }
}
