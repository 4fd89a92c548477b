//! The loop budget in plans: the run-time condition that one
//! invocation's loops exceed it (the guard of a fallback kernel), and the
//! host's run-time check that they do not (where no kernel would take
//! the excess).

use super::super::super::guard::Cond;
use super::super::super::host::{CheckKind, RuntimeCheck, Size};
use super::super::super::shapes::Shapes;
use super::Facts;

/// The run-time condition that `loops` exceed the loop budget.
pub(super) fn over_budget(f: &Facts<'_, '_>, loops: Size) -> Cond {
    Cond::Above {
        size: loops,
        limit: f.budget,
    }
}

/// A run-time check that one invocation's `loops` (of `what`) fit the
/// loop budget.
pub(super) fn check_budget(f: &Facts<'_, '_>, shapes: &mut Shapes, loops: Size, what: &str) {
    shapes.host.check(RuntimeCheck {
        kind: CheckKind::Less,
        a: loops,
        b: Size::Static(f.budget + 1),
        op: f.d.name.clone(),
        loc: f.loc,
        what: format!("the loop iterations of one invocation ({what})"),
    });
}
