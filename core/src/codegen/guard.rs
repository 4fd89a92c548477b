//! Run-time guards: the conditions on a run's sizes under which a kernel of
//! a dispatch runs. A dispatch whose best kernel depends on sizes known
//! only at run time (a run of one row, columns that are not a multiple of
//! 4, a reduction longer than the loop budget) compiles one kernel per
//! case, each with a [`Guard`]; the guards of one dispatch's alternatives
//! are exclusive and cover every run, so exactly one of them launches.
//!
//! A guard is data: `kiln compile --explain` prints it, the archive keeps
//! it, and every executor evaluates it the same way
//! ([`CompiledKernel::launches`](super::program::CompiledKernel)).

use super::host::{HostProgram, HostValues, Size};

/// One condition on a host size (sizes read below 0 as 0, as
/// [`HostValues::size`] does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Cond {
    /// `size > limit`.
    Above {
        /// The size.
        size: Size,
        /// The bound it exceeds.
        limit: u64,
    },
    /// `size <= limit`.
    AtMost {
        /// The size.
        size: Size,
        /// The bound it stays within.
        limit: u64,
    },
    /// `size % k == 0`.
    MultipleOf {
        /// The size.
        size: Size,
        /// The divisor (not 0).
        k: u64,
    },
    /// `size % k != 0`.
    NotMultipleOf {
        /// The size.
        size: Size,
        /// The divisor (not 0).
        k: u64,
    },
}

impl std::ops::Not for Cond {
    type Output = Cond;

    /// The opposite condition.
    fn not(self) -> Cond {
        match self {
            Cond::Above { size, limit } => Cond::AtMost { size, limit },
            Cond::AtMost { size, limit } => Cond::Above { size, limit },
            Cond::MultipleOf { size, k } => Cond::NotMultipleOf { size, k },
            Cond::NotMultipleOf { size, k } => Cond::MultipleOf { size, k },
        }
    }
}

impl Cond {
    /// The size the condition is on.
    pub fn size(self) -> Size {
        match self {
            Cond::Above { size, .. }
            | Cond::AtMost { size, .. }
            | Cond::MultipleOf { size, .. }
            | Cond::NotMultipleOf { size, .. } => size,
        }
    }

    /// Whether it holds for host values `vals`.
    pub fn holds(self, vals: &HostValues) -> bool {
        let v = vals.size(self.size());
        match self {
            Cond::Above { limit, .. } => v > limit,
            Cond::AtMost { limit, .. } => v <= limit,
            Cond::MultipleOf { k, .. } => k != 0 && v % k == 0,
            Cond::NotMultipleOf { k, .. } => k == 0 || v % k != 0,
        }
    }

    /// Its text, with the sizes of `host` by name (`arg0.dim1 <= 65279`).
    pub fn text(self, host: &HostProgram) -> String {
        let s = host.text(self.size());
        match self {
            Cond::Above { limit, .. } => format!("{s} > {limit}"),
            Cond::AtMost { limit, .. } => format!("{s} <= {limit}"),
            Cond::MultipleOf { k, .. } => format!("{s} % {k} == 0"),
            Cond::NotMultipleOf { k, .. } => format!("{s} % {k} != 0"),
        }
    }
}

/// The conditions, all of which must hold for a kernel to run; none: it
/// always runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Guard(pub Vec<Cond>);

impl Guard {
    /// A kernel that always runs.
    pub fn always() -> Guard {
        Guard(Vec::new())
    }

    /// This guard and `c`.
    pub fn and(&self, c: Cond) -> Guard {
        let mut conds = self.0.clone();
        conds.push(c);
        Guard(conds)
    }

    /// Whether every condition holds for host values `vals`.
    pub fn holds(&self, vals: &HostValues) -> bool {
        self.0.iter().all(|c| c.holds(vals))
    }

    /// Whether it has no condition.
    pub fn is_always(&self) -> bool {
        self.0.is_empty()
    }

    /// Its text (`arg0.dim0 > 1 and arg1.dim1 % 4 == 0`; `always` for
    /// none).
    pub fn text(&self, host: &HostProgram) -> String {
        if self.0.is_empty() {
            return "always".into();
        }
        self.0
            .iter()
            .map(|c| c.text(host))
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::eval::Scalar;

    #[test]
    fn conditions_read_sizes_as_the_host_does() {
        // Slot 0 = 5, slot 1 = -3 (read as 0).
        let vals = HostValues(vec![Scalar::Int(5), Scalar::Int(-3)]);
        let five = Size::Slot(0);
        let neg = Size::Slot(1);
        assert!(Cond::Above {
            size: five,
            limit: 4
        }
        .holds(&vals));
        assert!(!Cond::Above {
            size: five,
            limit: 5
        }
        .holds(&vals));
        assert!(Cond::AtMost {
            size: five,
            limit: 5
        }
        .holds(&vals));
        assert!(Cond::AtMost {
            size: neg,
            limit: 0
        }
        .holds(&vals));
        assert!(Cond::NotMultipleOf { size: five, k: 4 }.holds(&vals));
        assert!(Cond::MultipleOf { size: neg, k: 4 }.holds(&vals));
        for c in [
            Cond::Above {
                size: five,
                limit: 1,
            },
            Cond::MultipleOf { size: five, k: 5 },
        ] {
            assert_ne!(c.holds(&vals), (!c).holds(&vals));
        }
        let g = Guard::always().and(Cond::Above {
            size: five,
            limit: 1,
        });
        assert!(g.holds(&vals));
        assert!(!g.and(Cond::MultipleOf { size: five, k: 4 }).holds(&vals));
        assert!(Guard::always().holds(&vals));
    }
}
