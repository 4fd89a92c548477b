//! The draws issue 31's last note asked for, each decided from the
//! generator's second stream (`Gen::extra`) so that a program that draws
//! none of them is the one the generator wrote before they existed:
//!
//! - run-time indices, offsets, sizes and pad amounts passed as scalar
//!   `index` arguments of `@main` (not read from an index tensor);
//! - `extract_slice` / `insert_slice` strides of 3, and strides given at
//!   run time (a stride that carries a slice past its dim is out of
//!   bounds like an offset);
//! - negative `tensor.pad` amounts, at run time or static: every engine
//!   must refuse them naming the pad (kiln's rule; MLIR gives them no
//!   meaning);
//! - out-of-bounds ops whose result feeds 1 to 3 later ops, the last of
//!   which is returned: ops that read all of it (no engine may drop the
//!   faulting op as dead), or a `linalg.generic` whose region may ignore
//!   it ([`DEAD_FEED`]: then every engine must drop it, MLIR's reading of
//!   a pure op no live op needs);
//! - `math.ctpop` / `ctlz` / `cttz` in regions, and (not with
//!   `KILN_DIFF_WIDE_SHIFTS=0`) shifts by amounts of 0 to twice the width.

use std::fmt::Write;

use kiln_core::tensor::eval::{Scalar, Value};

use super::super::num::Num;
use super::indexing::Amount;
use super::{uses, Gen, Sc};

/// The draw of a fault fed into a generic, whose region may ignore it:
/// the fault may be dead, and every engine must then return values.
pub(crate) const DEAD_FEED: &str = "fault fed into a generic (maybe dead)";

/// Mixed into the seed for the second stream.
pub(super) const SALT: u64 = 0x6b69_6c6e_3331;

impl Gen {
    /// Notes that the program holds a draw of kind `what`.
    fn note(&mut self, what: &'static str) {
        if !self.drawn.contains(&what) {
            self.drawn.push(what);
        }
    }

    /// With chance 1/4, a new `index` argument holding `v`.
    pub(super) fn scalar_index_arg(&mut self, v: i64) -> Option<String> {
        if !self.extra.chance(1, 4) {
            return None;
        }
        self.note("index argument");
        let name = format!("%arg{}", self.params.len());
        self.params.push(format!("{name}: index"));
        self.inputs.push(Value::Scalar(Scalar::Int(v)));
        Some(name)
    }

    /// A slice stride along a dim of size `d`: sometimes 3 where the
    /// main stream drew `stride`.
    pub(super) fn wider_stride(&mut self, d: usize, stride: usize) -> usize {
        if d > 3 && self.extra.chance(1, 6) {
            self.note("stride 3");
            3
        } else {
            stride
        }
    }

    /// A window's strides as written in a slice op, each given at run
    /// time with chance 1/4.
    pub(super) fn strides(&mut self, w: &[(usize, usize, usize)]) -> String {
        let mut st = Vec::new();
        for &(_, _, s) in w {
            let runtime = self.extra.chance(1, 4);
            if runtime {
                self.note("run-time stride");
            }
            st.push(self.amount(s, runtime).text());
        }
        st.join(", ")
    }

    /// With chance 1/5 (and no fault yet), makes one pad amount of a
    /// source of `src` dims (`?` where `source_dynamic`) negative (at run time three times in four):
    /// the pad is then out of bounds. `shape` and `dynamic` become the
    /// result's.
    pub(super) fn negative_pad(
        &mut self,
        (src, source_dynamic): (&[usize], &[bool]),
        amounts: &[(usize, usize)],
        [lo, hi]: [&mut Vec<Amount>; 2],
        shape: &mut [usize],
        dynamic: &mut [bool],
    ) -> bool {
        if self.fault.is_some() || !self.extra.chance(1, 5) {
            return false;
        }
        let k = self.extra.below(src.len());
        let low = self.extra.chance(1, 2);
        let (l, h) = amounts[k];
        let (old, other) = if low { (l, h) } else { (h, l) };
        // At least -1; at most what leaves the result's dim empty.
        let room = src[k] + other;
        let neg = -1 - self.extra.below(room.max(1)) as i64;
        // A static one only where the result's dim stays non-negative (its
        // type, which MLIR infers from static amounts, must be written).
        let amount = if room == 0 || self.extra.chance(3, 4) {
            self.note("negative pad (run time)");
            dynamic[k] = true;
            Amount::Runtime(self.runtime_index(neg))
        } else {
            let other_runtime = !(if low { &hi[k] } else { &lo[k] }).is_static();
            dynamic[k] = source_dynamic[k] || other_runtime;
            self.note("negative pad (static)");
            Amount::Static(neg)
        };
        shape[k] = (shape[k] as i64 - old as i64 + neg).max(0) as usize;
        if low {
            lo[k] = amount;
        } else {
            hi[k] = amount;
        }
        true
    }

    /// After a fault: with chance 1/2 its result feeds 1 to 3 later ops
    /// (`Gen::feed`, which `Gen::any` prefers).
    pub(super) fn maybe_feed(&mut self) {
        if self.extra.chance(1, 2) {
            self.note("fault feeding later ops");
            let last = self.vals.len() - 1;
            self.feed = Some((last, 1 + self.extra.below(3)));
        }
    }

    /// Draws the ops a fault feeds, then makes the program's last op one
    /// that depends on it.
    pub(super) fn feed_fault(&mut self) {
        let mut tries = 0;
        while let Some((v, left)) = self.feed {
            if left == 0 || tries >= 50 {
                break;
            }
            tries += 1;
            let start = self.body.len();
            // Ops that read every element of their (preferred) operand,
            // or a generic, whose region may ignore an input (the fault
            // is then dead on every engine; FINDINGS.md, seed 10919).
            let done = match self.extra.below(6) {
                0 => self.elementwise_tensor(v),
                1 => self.transpose(),
                2 => self.reduce(),
                3 => self.broadcast(),
                4 => self.collapse(),
                _ => {
                    let done = self.generic_elementwise();
                    if done {
                        self.note(DEAD_FEED);
                    }
                    done
                }
            };
            if !done {
                continue;
            }
            let name = self.vals[v].name.clone();
            if uses(&self.body[start..], &name) > 0 {
                self.feed = Some((self.vals.len() - 1, left - 1));
            }
        }
        if let Some((v, _)) = self.feed.take() {
            if self.vals.len() - 1 != v {
                self.elementwise_tensor(v);
            }
        }
    }

    /// With chance 1/12, a bit count of `x` (or, with
    /// `KILN_DIFF_WIDE_SHIFTS`, a shift of `x` by `y` mod twice the
    /// width), its line written as `name`.
    pub(super) fn extra_int_op(
        &mut self,
        x: &Sc,
        y: &Sc,
        name: &str,
        text: &mut String,
    ) -> Option<Sc> {
        if !self.extra.chance(1, 12) {
            return None;
        }
        let ty = x.ty;
        let tn = ty.name();
        if self.wide_shifts && self.extra.chance(1, 2) {
            let m = self.constant(text, ty, (2 * ty.width() - 1) as f64);
            let s = self.fresh("r");
            let _ = writeln!(text, "    {s} = arith.andi {}, {m} : {tn}", y.name);
            self.note("shift by 0 to 2 widths");
            let op = self.extra.pick(&["shli", "shrsi", "shrui"]);
            let _ = writeln!(text, "    {name} = arith.{op} {}, {s} : {tn}", x.name);
        } else {
            self.note("bit count");
            let op = self.extra.pick(&["ctpop", "ctlz", "cttz"]);
            let _ = writeln!(text, "    {name} = math.{op} {} : {tn}", x.name);
        }
        Some(Sc {
            name: String::new(),
            ty,
            num: Num::exact(ty.limit(), 0),
        })
    }
}
