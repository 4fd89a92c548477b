//! Custom assembly of the `memref` ops (the printers
//! `Printer::special_text` dispatches to).

use super::ops::{dense, fits, rest};
use super::Printer;
use crate::kernel::module::KOpData;

impl Printer<'_> {
    /// `memref.load %m[...] : memref<...>`.
    pub(super) fn memref_load_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(!ops.is_empty() && nres == 1)?;
        Some(format!(
            "{name} {}[{}]{} : {}",
            self.v(ops[0]),
            self.vs(&ops[1..]),
            rest(d, &[]),
            self.ty(ops[0])
        ))
    }

    /// `memref.store %v, %m[...] : memref<...>`.
    pub(super) fn memref_store_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() >= 2 && nres == 0)?;
        Some(format!(
            "{name} {}, {}[{}]{} : {}",
            self.v(ops[0]),
            self.v(ops[1]),
            self.vs(&ops[2..]),
            rest(d, &[]),
            self.ty(ops[1])
        ))
    }

    /// `memref.alloc` / `alloca`.
    pub(super) fn alloc_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(nres == 1)?;
        let seg = dense(d, "operandSegmentSizes").unwrap_or(vec![ops.len() as i64, 0]);
        if seg.len() != 2 || seg[0] + seg[1] != ops.len() as i64 || seg[0] < 0 {
            return None;
        }
        let n = seg[0] as usize;
        let syms = if seg[1] > 0 {
            format!("[{}]", self.vs(&ops[n..]))
        } else {
            String::new()
        };
        Some(format!(
            "{name}({}){syms}{} : {}",
            self.vs(&ops[..n]),
            rest(d, &["operandSegmentSizes"]),
            self.rty(d, 0)
        ))
    }

    /// `memref.dealloc %m : memref<...>`.
    pub(super) fn dealloc_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 1 && nres == 0)?;
        Some(format!(
            "{name} {}{} : {}",
            self.v(ops[0]),
            rest(d, &[]),
            self.ty(ops[0])
        ))
    }

    /// `memref.dim %m, %i : memref<...>`.
    pub(super) fn memref_dim_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 1)?;
        Some(format!(
            "{name}{} {} : {}",
            rest(d, &[]),
            self.vs(ops),
            self.ty(ops[0])
        ))
    }

    /// `memref.subview %m[...] [...] [...] : ... to ...`.
    pub(super) fn subview_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(!ops.is_empty() && nres == 1)?;
        let offs = dense(d, "static_offsets")?;
        let sizes = dense(d, "static_sizes")?;
        let strides = dense(d, "static_strides")?;
        let ndyn = [&offs, &sizes, &strides]
            .iter()
            .map(|v| v.iter().filter(|&&x| x == i64::MIN).count())
            .sum::<usize>();
        if ndyn + 1 != ops.len() {
            return None;
        }
        let mut dynamic = ops[1..].iter().copied();
        let o = self.mixed(&offs, &mut dynamic)?;
        let s = self.mixed(&sizes, &mut dynamic)?;
        let st = self.mixed(&strides, &mut dynamic)?;
        Some(format!(
            "{name} {}{o} {s} {st}{} : {} to {}",
            self.v(ops[0]),
            rest(
                d,
                &[
                    "operandSegmentSizes",
                    "static_offsets",
                    "static_sizes",
                    "static_strides"
                ]
            ),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }
}
