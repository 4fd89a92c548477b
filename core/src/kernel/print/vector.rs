//! Custom assembly of the `vector` ops (the printers
//! `Printer::special_text` dispatches to).

use super::ops::{dense, enum_attr, fits, flags, rest};
use super::Printer;
use crate::kernel::module::KOpData;

impl Printer<'_> {
    /// `vector.load %m[...] : memref<...>, vector<...>`.
    pub(super) fn vector_load_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(!ops.is_empty() && nres == 1)?;
        Some(format!(
            "{name} {}[{}]{} : {}, {}",
            self.v(ops[0]),
            self.vs(&ops[1..]),
            rest(d, &[]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }

    /// `vector.store %v, %m[...] : memref<...>, vector<...>`.
    pub(super) fn vector_store_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() >= 2 && nres == 0)?;
        Some(format!(
            "{name} {}, {}[{}]{} : {}, {}",
            self.v(ops[0]),
            self.v(ops[1]),
            self.vs(&ops[2..]),
            rest(d, &[]),
            self.ty(ops[1]),
            self.ty(ops[0])
        ))
    }

    /// `vector.extract %v[...] : T from vector<...>`.
    pub(super) fn vector_extract_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(!ops.is_empty() && nres == 1)?;
        let pos = dense(d, "static_position")?;
        let mut dynamic = ops[1..].iter().copied();
        let p = self.mixed(&pos, &mut dynamic)?;
        if dynamic.next().is_some() {
            return None;
        }
        Some(format!(
            "{name} {}{p}{} : {} from {}",
            self.v(ops[0]),
            rest(d, &["static_position"]),
            self.rty(d, 0),
            self.ty(ops[0])
        ))
    }

    /// `vector.insert %s, %v[...] : T into vector<...>`.
    pub(super) fn vector_insert_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() >= 2 && nres == 1)?;
        let pos = dense(d, "static_position")?;
        let mut dynamic = ops[2..].iter().copied();
        let p = self.mixed(&pos, &mut dynamic)?;
        if dynamic.next().is_some() {
            return None;
        }
        Some(format!(
            "{name} {}, {}{p}{} : {} into {}",
            self.v(ops[0]),
            self.v(ops[1]),
            rest(d, &["static_position"]),
            self.ty(ops[0]),
            self.ty(ops[1])
        ))
    }

    /// `vector.extractelement %v[%i : T] : vector<...>`.
    pub(super) fn extract_element_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits((1..=2).contains(&ops.len()) && nres == 1)?;
        let pos = ops
            .get(1)
            .map(|&p| format!("{} : {}", self.v(p), self.ty(p)))
            .unwrap_or_default();
        Some(format!(
            "{name} {}[{pos}]{} : {}",
            self.v(ops[0]),
            rest(d, &[]),
            self.ty(ops[0])
        ))
    }

    /// `vector.insertelement %s, %v[%i : T] : vector<...>`.
    pub(super) fn insert_element_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits((2..=3).contains(&ops.len()) && nres == 1)?;
        let pos = ops
            .get(2)
            .map(|&p| format!("{} : {}", self.v(p), self.ty(p)))
            .unwrap_or_default();
        Some(format!(
            "{name} {}, {}[{pos}]{} : {}",
            self.v(ops[0]),
            self.v(ops[1]),
            rest(d, &[]),
            self.ty(ops[1])
        ))
    }

    /// `vector.splat %s : vector<...>`.
    pub(super) fn splat_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 1 && nres == 1)?;
        Some(format!(
            "{name} {}{} : {}",
            self.v(ops[0]),
            rest(d, &[]),
            self.rty(d, 0)
        ))
    }

    /// `vector.shuffle %a, %b [mask] : ..., ...`.
    pub(super) fn vector_shuffle_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 1)?;
        let mask = dense(d, "mask")?;
        let m: Vec<String> = mask.iter().map(|x| x.to_string()).collect();
        Some(format!(
            "{name} {} [{}]{} : {}, {}",
            self.vs(ops),
            m.join(", "),
            rest(d, &["mask"]),
            self.ty(ops[0]),
            self.ty(ops[1])
        ))
    }

    /// `vector.interleave %a, %b : ... -> ...`.
    pub(super) fn interleave_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 2 && nres == 1)?;
        Some(format!(
            "{name} {}{} : {} -> {}",
            self.vs(ops),
            rest(d, &[]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }

    /// `vector.deinterleave %a : ... -> ...`.
    pub(super) fn deinterleave_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits(ops.len() == 1 && nres == 2)?;
        Some(format!(
            "{name} {}{} : {} -> {}",
            self.v(ops[0]),
            rest(d, &[]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }

    /// `vector.reduction <KIND>, %v [, %acc] : ... into T`.
    pub(super) fn reduction_text(&self, d: &KOpData) -> Option<String> {
        let name = d.kind.name();
        let ops = &d.operands;
        let nres = d.results.len();
        fits((1..=2).contains(&ops.len()) && nres == 1)?;
        let kind = enum_attr(d, "kind")?;
        Some(format!(
            "{name} <{kind}>, {}{}{} : {} into {}",
            self.vs(ops),
            flags(d),
            rest(d, &["kind", "fastmath"]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }
}
