//! Composite ops: `CompositeExtract` / `CompositeInsert` (a vector →
//! `extractelement` / `insertelement`; a struct or array →
//! `extractvalue` / `insertvalue`; a path that goes through both is split
//! where it reaches a vector), and beyond the seed `CompositeConstruct`
//! (lane by lane or member by member; vectors may be built from smaller
//! vectors), `VectorExtractDynamic`, `VectorInsertDynamic` and
//! `VectorShuffle` (`shufflevector`; the undefined component `0xFFFFFFFF`
//! becomes an undefined lane).

use super::super::error::ConvertError;
use super::super::ir::{InstKind, LType, LValue};
use super::Fx;
use crate::ir::Op;

impl Fx<'_, '_> {
    /// Handles the op if it is one of this family.
    pub(crate) fn composite(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        match name {
            "CompositeExtract" => {
                let agg = self.arg(op, 0)?;
                let path = self.path(op)?;
                let v = self.extract_path(agg, &path);
                self.set(op, v);
            }
            "CompositeInsert" => {
                let obj = self.arg(op, 0)?;
                let agg = self.arg(op, 1)?;
                let path = self.path(op)?;
                let v = self.insert_path(agg, obj, &path);
                self.set(op, v);
            }
            "CompositeConstruct" => {
                let parts = self.args(op)?;
                let ty = self.res_ty(op)?;
                let mut acc = self.b.undef(ty.clone());
                if let LType::Vector(n, _) = ty {
                    let mut lane = 0u32;
                    for p in parts {
                        let pty = self.b.ty(p).clone();
                        if let LType::Vector(k, _) = pty {
                            for j in 0..k {
                                let ij = self.b.i32(i64::from(j));
                                let x = self.b.extract_element(p, ij);
                                let il = self.b.i32(i64::from(lane));
                                acc = self.b.insert_element(acc, x, il);
                                lane += 1;
                            }
                        } else {
                            let il = self.b.i32(i64::from(lane));
                            acc = self.b.insert_element(acc, p, il);
                            lane += 1;
                        }
                    }
                    if lane != n {
                        return Err(self.malformed(op, "constituents do not fill the vector"));
                    }
                } else {
                    for (i, p) in parts.into_iter().enumerate() {
                        acc = self.b.insert_value(acc, p, vec![i as u32]);
                    }
                }
                self.set(op, acc);
            }
            "VectorExtractDynamic" => {
                let v = self.arg(op, 0)?;
                let i = self.arg(op, 1)?;
                let r = self.b.extract_element(v, i);
                self.set(op, r);
            }
            "VectorInsertDynamic" => {
                let v = self.arg(op, 0)?;
                let x = self.arg(op, 1)?;
                let i = self.arg(op, 2)?;
                let r = self.b.insert_element(v, x, i);
                self.set(op, r);
            }
            "VectorShuffle" => {
                let a = self.arg(op, 0)?;
                let b = self.arg(op, 1)?;
                let (na, nb) = (self.b.ty(a).lanes(), self.b.ty(b).lanes());
                let mask: Vec<i32> = self
                    .ints_attr(op, "components")
                    .ok_or_else(|| self.malformed(op, "has no components"))?
                    .into_iter()
                    .map(|c| if c == 0xFFFF_FFFF { -1 } else { c as i32 })
                    .collect();
                let ty = self.res_ty(op)?;
                // shufflevector needs operands of one type.
                let (a, b, mask) = if na == nb {
                    (a, b, mask)
                } else {
                    self.same_width(a, b, mask)
                };
                let r = self.b.inst(InstKind::ShuffleVector(mask), vec![a, b], ty);
                self.set(op, r);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn path(&self, op: Op) -> Result<Vec<u32>, ConvertError> {
        Ok(self
            .ints_attr(op, "indices")
            .ok_or_else(|| self.malformed(op, "has no indices"))?
            .into_iter()
            .map(|i| i as u32)
            .collect())
    }

    /// `agg[path]`, through aggregates then at most one vector lane.
    fn extract_path(&mut self, agg: LValue, path: &[u32]) -> LValue {
        let ty = self.b.ty(agg).clone();
        let split = vector_split(&ty, path);
        let mut v = agg;
        if split > 0 {
            let t = walk(&ty, &path[..split]);
            v = self.b.extract_value(agg, path[..split].to_vec(), t);
        }
        if split < path.len() {
            let i = self.b.i32(i64::from(path[split]));
            v = self.b.extract_element(v, i);
        }
        v
    }

    /// `agg` with `x` at `path`.
    fn insert_path(&mut self, agg: LValue, x: LValue, path: &[u32]) -> LValue {
        let ty = self.b.ty(agg).clone();
        let split = vector_split(&ty, path);
        if split == path.len() {
            return self.b.insert_value(agg, x, path.to_vec());
        }
        let i = self.b.i32(i64::from(path[split]));
        if split == 0 {
            return self.b.insert_element(agg, x, i);
        }
        let vty = walk(&ty, &path[..split]);
        let vec = self.b.extract_value(agg, path[..split].to_vec(), vty);
        let vec = self.b.insert_element(vec, x, i);
        self.b.insert_value(agg, vec, path[..split].to_vec())
    }

    /// Widens the shorter vector of a shuffle with undefined lanes and
    /// renumbers the mask's references to the second operand.
    fn same_width(&mut self, a: LValue, b: LValue, mask: Vec<i32>) -> (LValue, LValue, Vec<i32>) {
        let (na, nb) = (self.b.ty(a).lanes(), self.b.ty(b).lanes());
        let n = na.max(nb);
        let widen = |fx: &mut Self, v: LValue, k: u32| -> LValue {
            if k == n {
                return v;
            }
            let elem = fx.b.ty(v).scalar().clone();
            let m: Vec<i32> = (0..n as i32)
                .map(|i| if (i as u32) < k { i } else { -1 })
                .collect();
            fx.b.inst(
                InstKind::ShuffleVector(m),
                vec![v, v],
                LType::vector(n, elem),
            )
        };
        let a2 = widen(self, a, na);
        let b2 = widen(self, b, nb);
        let mask = mask
            .into_iter()
            .map(|c| {
                if c < 0 {
                    -1
                } else if (c as u32) < na {
                    c
                } else {
                    c - na as i32 + n as i32
                }
            })
            .collect();
        (a2, b2, mask)
    }
}

/// How many leading indices of `path` go through arrays and structs before
/// a vector is reached.
fn vector_split(ty: &LType, path: &[u32]) -> usize {
    let mut t = ty;
    for (i, &idx) in path.iter().enumerate() {
        match t {
            LType::Vector(..) => return i,
            _ => match t.member(u64::from(idx)) {
                Some(m) => t = m,
                None => return path.len(),
            },
        }
    }
    path.len()
}

/// The type reached by `path` inside `ty`.
fn walk(ty: &LType, path: &[u32]) -> LType {
    let mut t = ty;
    for &i in path {
        match t.member(u64::from(i)) {
            Some(m) => t = m,
            None => break,
        }
    }
    t.clone()
}
