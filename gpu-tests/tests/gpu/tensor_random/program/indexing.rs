//! Draws with indices and sizes only known at run time (issue 31 §1):
//! `tensor.extract` / `tensor.insert` at run-time indices, `extract_slice`
//! / `insert_slice` with run-time offsets and sizes, gather-like
//! `linalg.generic`s (a `tensor.extract` in the body at an index computed
//! from tensor data, as ONNX `Gather` imports), `tensor.pad` with run-time
//! amounts and `tensor.concat` of dynamic operands.
//!
//! A run-time index is element k of one index argument (`tensor<?xi32>`
//! or `tensor<?xi64>`), read by `tensor.extract` and `arith.index_cast`
//! as importers write it. One draw in [`OOB_IN`] puts one index, offset or
//! size out of bounds (or two concatenated dims apart); the program then
//! ends with that op as a result ([`Gen::fault`]) and every engine must
//! stop with a run-time error naming it, never return values.

use std::rc::Rc;

use kiln_core::tensor::eval::{Scalar, Tensor, Value};

use super::super::num::{Num, Ty};
use super::{tensor_ty, DimSrc, Gen, MAX_ELEMS};

/// One draw in this many is out of bounds.
const OOB_IN: usize = 6;

/// How a slice dim's offset, size, stride or pad amount is given.
pub(super) enum Amount {
    Static(i64),
    Runtime(String),
}

impl Amount {
    pub(super) fn text(&self) -> String {
        match self {
            Amount::Static(k) => k.to_string(),
            Amount::Runtime(n) => n.clone(),
        }
    }

    pub(super) fn is_static(&self) -> bool {
        matches!(self, Amount::Static(_))
    }
}

impl Gen {
    /// Ends a draw: where it went out of bounds (`oob`), the program's
    /// result is that op's, which every engine must refuse naming `op`.
    fn ends_if(&mut self, oob: bool, op: &'static str) -> bool {
        if oob {
            self.fault = Some(op);
            self.maybe_feed();
        }
        true
    }

    /// One draw of this module; false when it did not fit.
    pub(super) fn indexing(&mut self) -> bool {
        match self.rng.below(8) {
            0 => self.extract_element(),
            1 => self.insert_element(),
            2 | 3 => self.dynamic_extract_slice(),
            4 => self.dynamic_insert_slice(),
            5 => self.gather(),
            6 => self.dynamic_pad(),
            _ => self.dynamic_concat(),
        }
    }

    /// Whether this draw goes out of bounds (never a second time: the
    /// ops after a fault that feeds them are in bounds).
    fn oob(&mut self) -> bool {
        self.fault.is_none() && self.rng.chance(1, OOB_IN)
    }

    /// An `index` SSA value equal to `v` at run time only.
    pub(super) fn runtime_index(&mut self, v: i64) -> String {
        if let Some(arg) = self.scalar_index_arg(v) {
            return arg;
        }
        let (pos, ty) = match self.idx_arg {
            Some(a) => a,
            None => {
                let ty = if self.rng.chance(1, 2) {
                    Ty::I32
                } else {
                    Ty::I64
                };
                self.params.push(format!(
                    "%arg{}: tensor<?x{}>",
                    self.params.len(),
                    ty.name()
                ));
                // The data is written by `write_index_arg`.
                let empty = Tensor::zeros(ty.elem(), &[0]).expect("an empty tensor");
                self.inputs.push(Value::Tensor(Rc::new(empty)));
                self.idx_arg = Some((self.params.len() - 1, ty));
                (self.params.len() - 1, ty)
            }
        };
        let k = self.idx_vals.len();
        self.idx_vals.push(v);
        let c = self.index(k);
        let (x, i) = (self.fresh("ix"), self.fresh("i"));
        let tn = ty.name();
        self.line(&format!(
            "{x} = tensor.extract %arg{pos}[{c}] : tensor<?x{tn}>"
        ));
        self.line(&format!("{i} = arith.index_cast {x} : {tn} to index"));
        i
    }

    /// The index argument's data, once every index is drawn.
    pub(super) fn write_index_arg(&mut self) {
        let Some((pos, ty)) = self.idx_arg else {
            return;
        };
        let mut t = Tensor::zeros(ty.elem(), &[self.idx_vals.len()]).expect("a small tensor");
        for (i, &v) in self.idx_vals.iter().enumerate() {
            t.set(i, Scalar::Int(v));
        }
        self.inputs[pos] = Value::Tensor(Rc::new(t));
    }

    /// An offset or size: static, or the same at run time.
    pub(super) fn amount(&mut self, v: usize, runtime: bool) -> Amount {
        if runtime {
            Amount::Runtime(self.runtime_index(v as i64))
        } else {
            Amount::Static(v as i64)
        }
    }

    /// An index past dim size `d`: `d` or a little more, or -1 (a huge
    /// one unsigned).
    fn bad_index(&mut self, d: usize) -> i64 {
        if self.rng.chance(1, 4) {
            -1
        } else {
            (d + self.rng.below(3)) as i64
        }
    }

    /// Indices into `shape`: in bounds, or (`oob`) one of them out of
    /// bounds and given at run time; each of the others static or run
    /// time. `None` when no in-bounds index exists (a 0 dim).
    fn element_indices(&mut self, shape: &[usize], oob: bool) -> Option<Vec<String>> {
        if !oob && shape.contains(&0) {
            return None;
        }
        let bad = self.rng.below(shape.len());
        let mut idx = Vec::new();
        for (k, &d) in shape.iter().enumerate() {
            if oob && k == bad {
                let v = self.bad_index(d);
                idx.push(self.runtime_index(v));
                continue;
            }
            let v = self.rng.below(d.max(1));
            if self.rng.chance(1, 2) {
                idx.push(self.runtime_index(v as i64));
            } else {
                idx.push(self.index(v));
            }
        }
        Some(idx)
    }

    /// `tensor.extract` of one element at run-time indices, splatted into
    /// a new 1-D tensor.
    fn extract_element(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let av = self.vals[a].clone();
        let oob = self.oob();
        let Some(idx) = self.element_indices(&av.shape, oob) else {
            return false;
        };
        let x = self.fresh("el");
        self.line(&format!(
            "{x} = tensor.extract {}[{}] : {}",
            av.name,
            idx.join(", "),
            av.ty_str()
        ));
        let n = 1 + self.rng.below(7);
        let e = self.fresh("e");
        let t = tensor_ty(av.ty, &[n], &[]);
        self.line(&format!("{e} = tensor.empty() : {t}"));
        let f = self.fresh("f");
        self.line(&format!(
            "{f} = linalg.fill ins({x} : {}) outs({e} : {t}) -> {t}",
            av.ty.name()
        ));
        self.push(f, av.ty, vec![n], vec![false], av.num);
        self.ends_if(oob, "tensor.extract")
    }

    /// `tensor.insert` of a constant at run-time indices.
    fn insert_element(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let d = self.any(|v| !v.shape.is_empty(), ty, 3);
        let dv = self.vals[d].clone();
        let oob = self.oob();
        let Some(idx) = self.element_indices(&dv.shape, oob) else {
            return false;
        };
        let v: f64 = if dv.ty == Ty::I1 {
            1.0
        } else {
            self.rng.pick(&[0.0, 1.0, -3.0, 0.5])
        };
        let v = if dv.ty.is_float() { v } else { v.trunc() };
        let k = self.fresh("k");
        self.line(&format!(
            "{k} = arith.constant {} : {}",
            Gen::literal(dv.ty, v),
            dv.ty.name()
        ));
        let n = self.fresh("put");
        self.line(&format!(
            "{n} = tensor.insert {k} into {}[{}] : {}",
            dv.name,
            idx.join(", "),
            dv.ty_str()
        ));
        let num = Num::either(dv.num, Num::exact(3.0, 1));
        self.push(n, dv.ty, dv.shape.clone(), dv.dynamic.clone(), num);
        self.ends_if(oob, "tensor.insert")
    }

    /// A window of `shape`: per dim an offset, a size (0 possible) and a
    /// stride, in bounds; or (`oob`) with one dim of at least one element
    /// running past its end.
    fn runtime_window(&mut self, shape: &[usize], oob: bool) -> Vec<(usize, usize, usize)> {
        let bad = self.rng.below(shape.len());
        let mut w = Vec::new();
        for (k, &d) in shape.iter().enumerate() {
            let stride = if d > 2 && self.rng.chance(1, 3) { 2 } else { 1 };
            let stride = self.wider_stride(d, stride);
            if oob && k == bad {
                let size = 1 + self.rng.below(d.max(1));
                let span = (size - 1) * stride + 1;
                // Past the end by 1 to 2 elements.
                let off = (d + 1 + self.rng.below(2)).saturating_sub(span);
                w.push((off, size, stride));
                continue;
            }
            let size = if d == 0 || self.rng.chance(1, 12) {
                0
            } else {
                1 + self.rng.below((d - 1) / stride + 1)
            };
            let span = if size == 0 {
                0
            } else {
                (size - 1) * stride + 1
            };
            let off = self.rng.below(d - span + 1);
            w.push((off, size, stride));
        }
        w
    }

    /// `tensor.extract_slice` with run-time offsets and sizes (`?` dims in
    /// the result where a size is), of a static or dynamic tensor.
    fn dynamic_extract_slice(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let av = self.vals[a].clone();
        let oob = self.oob();
        let w = self.runtime_window(&av.shape, oob);
        let mut offs = Vec::new();
        let mut sizes = Vec::new();
        for &(o, s, _) in &w {
            let ro = self.rng.chance(1, 2);
            offs.push(self.amount(o, ro));
            let rs = self.rng.chance(1, 2);
            sizes.push(self.amount(s, rs));
        }
        let shape: Vec<usize> = w.iter().map(|x| x.1).collect();
        let dynamic: Vec<bool> = sizes.iter().map(|s| !s.is_static()).collect();
        let t = tensor_ty(av.ty, &shape, &dynamic);
        let n = self.fresh("dsl");
        let st = self.strides(&w);
        self.line(&format!(
            "{n} = tensor.extract_slice {}[{}] [{}] [{}] : {} to {t}",
            av.name,
            offs.iter().map(Amount::text).collect::<Vec<_>>().join(", "),
            sizes
                .iter()
                .map(Amount::text)
                .collect::<Vec<_>>()
                .join(", "),
            st,
            av.ty_str()
        ));
        self.push(n, av.ty, shape, dynamic, av.num);
        self.ends_if(oob, "tensor.extract_slice")
    }

    /// `tensor.insert_slice` of a value (cast to `?` where its size is
    /// given at run time) at run-time offsets.
    fn dynamic_insert_slice(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let d = self.any(|v| !v.shape.is_empty(), ty, 3);
        let dv = self.vals[d].clone();
        let oob = self.oob();
        let w = self.runtime_window(&dv.shape, oob);
        let shape: Vec<usize> = w.iter().map(|x| x.1).collect();
        let src = self.operand(dv.ty, &shape);
        let sv = self.vals[src].clone();
        let mut offs = Vec::new();
        let mut sizes = Vec::new();
        for (k, &(o, s, _)) in w.iter().enumerate() {
            let ro = self.rng.chance(1, 2);
            offs.push(self.amount(o, ro));
            let rs = sv.dynamic[k] || self.rng.chance(1, 3);
            sizes.push(self.amount(s, rs));
        }
        // The source's type: `?` exactly where its size is a value.
        let want: Vec<bool> = sizes.iter().map(|s| !s.is_static()).collect();
        let (sname, sty) = if want == sv.dynamic {
            (sv.name.clone(), sv.ty_str())
        } else {
            let c = self.fresh("s");
            let t = tensor_ty(sv.ty, &sv.shape, &want);
            self.line(&format!(
                "{c} = tensor.cast {} : {} to {t}",
                sv.name,
                sv.ty_str()
            ));
            (c, t)
        };
        let st = self.strides(&w);
        let n = self.fresh("dins");
        self.line(&format!(
            "{n} = tensor.insert_slice {sname} into {}[{}] [{}] [{}] : {sty} into {}",
            dv.name,
            offs.iter().map(Amount::text).collect::<Vec<_>>().join(", "),
            sizes
                .iter()
                .map(Amount::text)
                .collect::<Vec<_>>()
                .join(", "),
            st,
            dv.ty_str()
        ));
        self.push(
            n,
            dv.ty,
            dv.shape.clone(),
            dv.dynamic.clone(),
            Num::either(dv.num, sv.num),
        );
        self.ends_if(oob, "tensor.insert_slice")
    }

    /// An integer argument of `shape` holding `vals`.
    fn data_input(&mut self, ty: Ty, shape: &[usize], vals: &[i64]) -> usize {
        let v = self.input(ty, shape);
        let mut t = Tensor::zeros(ty.elem(), shape).expect("a small tensor");
        for (i, &x) in vals.iter().enumerate() {
            t.set(i, Scalar::Int(x));
        }
        *self.inputs.last_mut().expect("the input just added") = Value::Tensor(Rc::new(t));
        let bound = vals.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
        self.vals[v].num = Num::exact(bound as f64, 0);
        v
    }

    /// A gather as ONNX `Gather` imports: `out[.., i.., ..] =
    /// table[.., idx[i..], ..]` along axis `ax`, a `linalg.generic` over
    /// the output whose body reads the index tensor's element, casts it to
    /// `index` (mapping a negative one to one from the end when the axis
    /// is static, as ONNX does) and `tensor.extract`s the table.
    fn gather(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.ft, self.it]);
        let t = self.any(|v| !v.shape.is_empty(), ty, 3);
        let tv = self.vals[t].clone();
        let rank = tv.shape.len();
        let ax = self.rng.below(rank);
        let ishape: Vec<usize> = (0..1 + self.rng.below(2)).map(|_| self.size()).collect();
        let mut shape: Vec<usize> = tv.shape[..ax].to_vec();
        shape.extend(&ishape);
        shape.extend(&tv.shape[ax + 1..]);
        let len: usize = shape.iter().product();
        if len > MAX_ELEMS {
            return false;
        }
        let n = tv.shape[ax];
        let negative = !tv.dynamic[ax] && self.rng.chance(1, 2);
        let oob = self.oob() && len > 0;
        if !oob && n == 0 && len > 0 {
            return false;
        }
        let ilen: usize = ishape.iter().product();
        let mut data: Vec<i64> = (0..ilen)
            .map(|_| {
                let k = self.rng.below(n.max(1)) as i64;
                if negative && self.rng.chance(1, 2) {
                    k - n as i64
                } else {
                    k
                }
            })
            .collect();
        if oob {
            // Every index of the bad element's position is read: the
            // other output dims are not 0 (len > 0).
            let at = self.rng.below(ilen);
            // -1 is in bounds when negative indices count from the end.
            data[at] = match (negative, self.rng.chance(1, 2)) {
                (true, true) => -(n as i64) - 1 - self.rng.below(2) as i64,
                (true, false) => (n + self.rng.below(3)) as i64,
                (false, _) => self.bad_index(n),
            };
        }
        let ity = if self.rng.chance(1, 2) {
            Ty::I32
        } else {
            Ty::I64
        };
        let idx = self.data_input(ity, &ishape, &data);
        let iv = self.vals[idx].clone();
        let srank = shape.len();
        let ir = ishape.len();
        let idx_map = Gen::affine(&(ax..ax + ir).map(Some).collect::<Vec<_>>(), srank);
        let out_map = Gen::affine(&(0..srank).map(Some).collect::<Vec<_>>(), srank);
        let src: Vec<DimSrc> = (0..srank)
            .map(|d| {
                if d < ax {
                    tv.dynamic[d].then_some((t, d))
                } else if d < ax + ir {
                    iv.dynamic[d - ax].then_some((idx, d - ax))
                } else {
                    let k = d - ir + 1;
                    tv.dynamic[k].then_some((t, k))
                }
            })
            .collect();
        let (e, et, dynamic) = self.empty(tv.ty, &shape, &src);
        let (x, o) = (self.fresh("gx"), self.fresh("go"));
        let tn = tv.ty.name();
        let itn = ity.name();
        let mut body = String::new();
        let i = self.fresh("gi");
        body.push_str(&format!(
            "    {i} = arith.index_cast {x} : {itn} to index\n"
        ));
        let j = if negative {
            let (z, nn, lt, w, j) = (
                self.fresh("gz"),
                self.fresh("gn"),
                self.fresh("glt"),
                self.fresh("gw"),
                self.fresh("gj"),
            );
            body.push_str(&format!(
                "    {z} = arith.constant 0 : index\n    {nn} = arith.constant {n} : index\n    {lt} = arith.cmpi slt, {i}, {z} : index\n    {w} = arith.addi {i}, {nn} : index\n    {j} = arith.select {lt}, {w}, {i} : index\n"
            ));
            j
        } else {
            i
        };
        let mut tidx = Vec::new();
        for d in 0..rank {
            if d == ax {
                tidx.push(j.clone());
                continue;
            }
            let l = self.fresh("gl");
            let od = if d < ax { d } else { d - 1 + ir };
            body.push_str(&format!("    {l} = linalg.index {od} : index\n"));
            tidx.push(l);
        }
        let v = self.fresh("gv");
        body.push_str(&format!(
            "    {v} = tensor.extract {}[{}] : {}\n",
            tv.name,
            tidx.join(", "),
            tv.ty_str()
        ));
        let g = self.fresh("gather");
        let iters = vec!["\"parallel\""; srank].join(", ");
        self.line(&format!(
            "{g} = linalg.generic {{indexing_maps = [{idx_map}, {out_map}], iterator_types = [{iters}]}} ins({} : {}) outs({e} : {et}) {{\n  ^bb0({x}: {itn}, {o}: {tn}):\n{body}    linalg.yield {v} : {tn}\n  }} -> {et}",
            iv.name,
            iv.ty_str()
        ));
        self.push(g, tv.ty, shape, dynamic, tv.num);
        self.ends_if(oob, "tensor.extract")
    }

    /// `tensor.pad` with some amounts given at run time (`?` in the
    /// result where a dim's size is not static), of a static or dynamic
    /// tensor.
    fn dynamic_pad(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let av = self.vals[a].clone();
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        let mut shape = Vec::new();
        let mut dynamic = Vec::new();
        let mut amounts = Vec::new();
        for (k, &d) in av.shape.iter().enumerate() {
            let (l, h) = (self.rng.below(3), self.rng.below(3));
            amounts.push((l, h));
            let (rl, rh) = (self.rng.chance(1, 3), self.rng.chance(1, 3));
            lo.push(self.amount(l, rl));
            hi.push(self.amount(h, rh));
            shape.push(d + l + h);
            dynamic.push(av.dynamic[k] || rl || rh);
        }
        if shape.iter().product::<usize>() > MAX_ELEMS {
            return false;
        }
        let negative = self.negative_pad(
            (&av.shape, &av.dynamic),
            &amounts,
            [&mut lo, &mut hi],
            &mut shape,
            &mut dynamic,
        );
        let t = tensor_ty(av.ty, &shape, &dynamic);
        let n = self.fresh("dpad");
        let region = self.pad_region(av.ty, shape.len());
        self.line(&format!(
            "{n} = tensor.pad {} low[{}] high[{}] {region} : {} to {t}",
            av.name,
            lo.iter().map(Amount::text).collect::<Vec<_>>().join(", "),
            hi.iter().map(Amount::text).collect::<Vec<_>>().join(", "),
            av.ty_str()
        ));
        let num = Num::either(av.num, Num::exact(3.0, 0));
        self.push(n, av.ty, shape, dynamic, num);
        self.ends_if(negative, "tensor.pad")
    }

    /// `v` cast to a type with `?` where `dynamic` says.
    fn cast_to(&mut self, v: usize, dynamic: &[bool]) -> (String, String) {
        let val = self.vals[v].clone();
        if val.dynamic == dynamic {
            let t = val.ty_str();
            return (val.name, t);
        }
        let n = self.fresh("s");
        let t = tensor_ty(val.ty, &val.shape, dynamic);
        self.line(&format!(
            "{n} = tensor.cast {} : {} to {t}",
            val.name,
            val.ty_str()
        ));
        (n, t)
    }

    /// `tensor.concat` of operands with `?` dims (the result's dim is
    /// static where MLIR infers one: along the concatenated dim when both
    /// are static, elsewhere when either is); out of bounds, two operands
    /// whose sizes along another dim differ at run time.
    fn dynamic_concat(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let av = self.vals[a].clone();
        let rank = av.shape.len();
        let k = self.rng.below(rank);
        let mut bshape = av.shape.clone();
        bshape[k] = self.size();
        let oob = rank >= 2 && self.oob();
        let bad = if oob {
            (k + 1 + self.rng.below(rank - 1)) % rank
        } else {
            k
        };
        if oob {
            bshape[bad] += 1;
        }
        let mut shape = av.shape.clone();
        shape[k] += bshape[k];
        if shape.iter().product::<usize>() > MAX_ELEMS
            || bshape.iter().product::<usize>() > MAX_ELEMS
        {
            return false;
        }
        let b = self.operand(av.ty, &bshape);
        let bv = self.vals[b].clone();
        let mut ad: Vec<bool> = (0..rank)
            .map(|d| av.dynamic[d] || self.rng.chance(1, 3))
            .collect();
        let mut bd: Vec<bool> = (0..rank)
            .map(|d| bv.dynamic[d] || self.rng.chance(1, 3))
            .collect();
        if oob {
            // Only the run time can tell the sizes apart.
            ad[bad] = true;
            bd[bad] = true;
        }
        let (an, at) = self.cast_to(a, &ad);
        let (bn, bt) = self.cast_to(b, &bd);
        let dynamic: Vec<bool> = (0..rank)
            .map(|d| {
                if d == k {
                    ad[d] || bd[d]
                } else {
                    ad[d] && bd[d]
                }
            })
            .collect();
        let t = tensor_ty(av.ty, &shape, &dynamic);
        let n = self.fresh("dcat");
        self.line(&format!(
            "{n} = tensor.concat dim({k}) {an}, {bn} : ({at}, {bt}) -> {t}"
        ));
        self.push(n, av.ty, shape, dynamic, Num::either(av.num, bv.num));
        self.ends_if(oob, "tensor.concat")
    }
}
