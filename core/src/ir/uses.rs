//! Use lists: which ops use a value, built by one walk and kept current as
//! a pass rewrites uses, so rewriting many values costs one walk instead
//! of one per value.

use std::collections::{HashMap, HashSet};

use super::{Module, Op, Value};

/// The ops under a root that use each value (as an operand or a successor
/// argument), each user listed once per value, in walk order.
#[derive(Debug, Default)]
pub struct UseMap {
    users: HashMap<Value, Vec<Op>>,
}

impl UseMap {
    /// The use lists of every value used by `root` or an op nested in it.
    pub fn build(m: &Module, root: Op) -> Self {
        let mut map = Self::default();
        m.walk(root, &mut |op| map.add_user(m, op));
        map
    }

    /// Records the uses `op` makes (call it once per op, for an op created
    /// after [`UseMap::build`] whose uses matter).
    pub fn add_user(&mut self, m: &Module, op: Op) {
        let d = m.op(op);
        let used = d
            .operands
            .iter()
            .chain(d.successors.iter().flat_map(|s| s.args.iter()));
        for &v in used {
            let list = self.users.entry(v).or_default();
            // This call pushes all of `op`'s entries, so a value `op` uses
            // twice has it last already.
            if list.last() != Some(&op) {
                list.push(op);
            }
        }
    }

    /// The ops that use `value`.
    pub fn users(&self, value: Value) -> &[Op] {
        self.users.get(&value).map_or(&[], Vec::as_slice)
    }

    /// Makes every user of `from` use `to` instead, in `m` and in the map.
    pub fn replace_all_uses(&mut self, m: &mut Module, from: Value, to: Value) {
        let Some(moved) = self.users.remove(&from) else {
            return;
        };
        for &op in &moved {
            let d = m.op_mut(op);
            for v in d.operands.iter_mut() {
                if *v == from {
                    *v = to;
                }
            }
            for s in d.successors.iter_mut() {
                for v in s.args.iter_mut() {
                    if *v == from {
                        *v = to;
                    }
                }
            }
        }
        let list = self.users.entry(to).or_default();
        if list.is_empty() {
            *list = moved;
        } else {
            let listed: HashSet<Op> = list.iter().copied().collect();
            list.extend(moved.into_iter().filter(|op| !listed.contains(op)));
        }
    }

    /// Records that `new`, which uses what `old` used, took `old`'s place.
    pub fn replace_user(&mut self, m: &Module, old: Op, new: Op) {
        let d = m.op(old);
        let used = d
            .operands
            .iter()
            .chain(d.successors.iter().flat_map(|s| s.args.iter()));
        for v in used {
            if let Some(list) = self.users.get_mut(v) {
                for op in list.iter_mut() {
                    if *op == old {
                        *op = new;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"spirv.module Logical GLSL450 {
  spirv.func @f(%a: i32, %b: i32) -> i32 "None" {
    %x = spirv.IAdd %a, %a : i32
    %y = spirv.IMul %x, %b : i32
    %z = spirv.ISub %y, %a : i32
    spirv.ReturnValue %z : i32
  }
}"#;

    /// The function and its two arguments.
    fn parse() -> (Module, Op, Value, Value) {
        let m = crate::text::parse(SRC).expect("parses");
        let func = m.lookup_symbol("f").expect("@f");
        let entry = m.region(m.op(func).regions[0]).blocks[0];
        let args = m.block(entry).args.clone();
        (m, func, args[0], args[1])
    }

    fn names(m: &Module, ops: &[Op]) -> Vec<String> {
        ops.iter()
            .map(|&op| m.op(op).kind.name().into_owned())
            .collect()
    }

    #[test]
    fn lists_each_user_once_in_walk_order() {
        let (m, func, a, b) = parse();
        let uses = UseMap::build(&m, func);
        assert_eq!(names(&m, uses.users(a)), ["IAdd", "ISub"]);
        assert_eq!(names(&m, uses.users(b)), ["IMul"]);
    }

    #[test]
    fn replacing_uses_rewrites_operands_and_moves_the_list() {
        let (mut m, func, a, b) = parse();
        let mut uses = UseMap::build(&m, func);
        uses.replace_all_uses(&mut m, a, b);
        assert!(uses.users(a).is_empty());
        assert_eq!(names(&m, uses.users(b)), ["IMul", "IAdd", "ISub"]);
        // The map agrees with a fresh walk of the rewritten function.
        let fresh = UseMap::build(&m, func);
        let mut got = uses.users(b).to_vec();
        let mut want = fresh.users(b).to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want);
    }
}
