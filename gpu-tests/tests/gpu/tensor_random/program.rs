//! A generator of random valid tensor programs in kiln's accepted subset
//! (MLIR text, linalg on tensors), one `func.func @main` per seed whose
//! arguments are tensors (some dims `?`, given at run time) and whose
//! results are compared across engines (`mod.rs`).
//!
//! A program is a DAG of 2 to 10 ops drawn from: tensor-level arith,
//! `linalg.generic` with permuted, broadcasting and constant-0 (keepdims)
//! maps and a random scalar region (arith / math / casts / compares /
//! selects), `linalg.reduce` and generic reductions along random dims,
//! `linalg.matmul` / `batch_matmul` / `conv_2d_nhwc_hwcf` at random small
//! shapes (1, primes, long K), `linalg.transpose` / `broadcast`,
//! `tensor.extract_slice` / `insert_slice` / `concat` / `pad` /
//! `collapse_shape` / `expand_shape` / `cast`; and ([`indexing`]) indices,
//! offsets, sizes and pad amounts known only at run time, gathers and
//! concats of dynamic operands, some out of bounds; ([`extras`]) scalar
//! `index` arguments, run-time strides, negative pad amounts, faults
//! whose results feed later ops, and bit counts. Element types
//! ([`dtypes`]) include bf16, f64 and i16; in one program in eight some
//! dims are 0. Every value carries a
//! [`Num`]: ops are chosen so that no float overflows, integer division
//! never divides by zero or overflows, shifts may reach twice the width
//! (not with `KILN_DIFF_WIDE_SHIFTS=0`), and a
//! float compared, floored or converted to an integer is exact (so every
//! engine must agree on it).

use std::collections::HashMap;
use std::fmt::Write;
use std::rc::Rc;

use kiln_core::tensor::eval::{Scalar, Tensor, Value};
use kiln_gpu_tests::Rng;

use super::num::{Num, Ty};

mod dtypes;
mod extras;
mod indexing;

pub(crate) use extras::DEAD_FEED;

/// A generated program: its text, its inputs, and what is known of each
/// result.
pub struct Program {
    pub text: String,
    /// The arguments: name and type.
    pub params: Vec<(String, String)>,
    /// The function's ops, without the return.
    pub body: String,
    /// The returned values: name and type.
    pub returns: Vec<(String, String)>,
    pub inputs: Vec<Value>,
    pub results: Vec<(Ty, Num)>,
    /// The op that indexes out of bounds at run time (the last one), whose
    /// run-time check every engine must report, naming it; `None` for a
    /// program that runs.
    pub fault: Option<&'static str>,
    /// The kinds of [`extras`] draws the program holds (each once).
    pub extras: Vec<&'static str>,
}

/// A tensor value of the program.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    ty: Ty,
    shape: Vec<usize>,
    dynamic: Vec<bool>,
    num: Num,
    is_arg: bool,
}

fn tensor_ty(ty: Ty, shape: &[usize], dynamic: &[bool]) -> String {
    let mut s = String::from("tensor<");
    for (i, d) in shape.iter().enumerate() {
        if dynamic.get(i).copied().unwrap_or(false) {
            s.push_str("?x");
        } else {
            let _ = write!(s, "{d}x");
        }
    }
    s.push_str(ty.name());
    s.push('>');
    s
}

impl Val {
    fn ty_str(&self) -> String {
        tensor_ty(self.ty, &self.shape, &self.dynamic)
    }

    fn is_dynamic(&self) -> bool {
        self.dynamic.iter().any(|&d| d)
    }

    fn len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// A scalar of a region body.
#[derive(Clone, Debug)]
struct Sc {
    name: String,
    ty: Ty,
    num: Num,
}

/// How often the SSA name `name` occurs in `text` (as a whole name).
fn uses(text: &str, name: &str) -> usize {
    text.match_indices(name)
        .filter(|(i, _)| {
            !text[i + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .count()
}

/// `v` truncated to the width of `ty`, sign-extended.
fn wrap(ty: Ty, v: i64) -> i64 {
    let s = 64 - ty.width();
    if s == 0 {
        v
    } else if ty == Ty::I1 {
        v & 1
    } else {
        (v << s) >> s
    }
}

/// Where a dim of a new tensor gets its size: static, or the run-time
/// size of dim `.1` of value `.0`.
type DimSrc = Option<(usize, usize)>;

/// Most elements any tensor of a program has (the reference evaluator
/// runs unoptimised in tests).
const MAX_ELEMS: usize = 1 << 14;

struct Gen {
    rng: Rng,
    body: String,
    vals: Vec<Val>,
    params: Vec<String>,
    inputs: Vec<Value>,
    n: usize,
    /// The program's float and (non-i1) integer types.
    ft: Ty,
    it: Ty,
    /// Float inputs are random reals rather than small dyadic numbers.
    noisy: bool,
    /// Some input elements are ±0, ±inf, NaN.
    edge: bool,
    /// Arguments may have `?` dims.
    dynamic: bool,
    index_consts: HashMap<usize, String>,
    dims: HashMap<(usize, usize), String>,
    /// Multiply-adds of the program (a cost bound).
    work: usize,
    /// The iteration space of the region being built (for linalg.index).
    space: Vec<usize>,
    /// Some dims are 0 (static, or dynamic and 0 at run time).
    zero: bool,
    /// The op drawn out of bounds (generation stops after it).
    fault: Option<&'static str>,
    /// The argument holding run-time index values (its parameter's
    /// position and element type) and the values, written at the end.
    idx_arg: Option<(usize, Ty)>,
    idx_vals: Vec<i64>,
    /// The stream of the draws added for issue 31's last note (scalar
    /// `index` arguments, run-time strides, negative pad amounts, faults
    /// that feed later ops, bit counts): [`extras`] decides each of them
    /// from its own stream, so a program where none is drawn is the
    /// program the generator drew before them.
    extra: Rng,
    /// After a fault that feeds later ops: the latest value depending on
    /// it and how many more ops must consume it.
    feed: Option<(usize, usize)>,
    /// Shifts by the bit width or more are drawn (unless
    /// `KILN_DIFF_WIDE_SHIFTS=0`; MLIR leaves them undefined, kiln gives
    /// numpy's result on every engine).
    wide_shifts: bool,
    /// The kinds of these draws made (`Program::extras`).
    drawn: Vec<&'static str>,
}

/// Generates the program of `seed`.
pub fn generate(seed: u64) -> Program {
    let mut rng = Rng::new(seed);
    let extra = Rng::new(seed ^ extras::SALT);
    let (ft, it) = dtypes::draw(&mut rng);
    let noisy = rng.chance(1, 3);
    let edge = rng.chance(1, 5);
    let dynamic = rng.chance(1, 3);
    let zero = rng.chance(1, 8);
    let mut g = Gen {
        rng,
        body: String::new(),
        vals: Vec::new(),
        params: Vec::new(),
        inputs: Vec::new(),
        n: 0,
        ft,
        it,
        noisy,
        edge,
        dynamic,
        index_consts: HashMap::new(),
        dims: HashMap::new(),
        work: 0,
        space: Vec::new(),
        zero,
        fault: None,
        idx_arg: None,
        idx_vals: Vec::new(),
        extra,
        feed: None,
        wide_shifts: std::env::var("KILN_DIFF_WIDE_SHIFTS").map_or(true, |v| v != "0"),
        drawn: Vec::new(),
    };
    let ops = 2 + g.rng.below(9);
    let mut done = 0;
    let mut tries = 0;
    while done < ops && tries < 100 && g.fault.is_none() {
        tries += 1;
        if g.step() {
            done += 1;
        }
    }
    g.feed_fault();
    if g.vals.iter().all(|v| v.is_arg) {
        let ty = g.ft;
        let shape = g.shape(2);
        let a = g.input(ty, &shape);
        g.elementwise_tensor(a);
    }
    g.finish()
}

impl Gen {
    fn fresh(&mut self, p: &str) -> String {
        self.n += 1;
        format!("%{p}{}", self.n)
    }

    fn line(&mut self, s: &str) {
        self.body.push_str("  ");
        self.body.push_str(s);
        self.body.push('\n');
    }

    fn index(&mut self, k: usize) -> String {
        if let Some(n) = self.index_consts.get(&k) {
            return n.clone();
        }
        let n = self.fresh("c");
        self.line(&format!("{n} = arith.constant {k} : index"));
        self.index_consts.insert(k, n.clone());
        n
    }

    /// The run-time size of dim `d` of value `v`.
    fn dim(&mut self, v: usize, d: usize) -> String {
        if let Some(n) = self.dims.get(&(v, d)) {
            return n.clone();
        }
        let c = self.index(d);
        let n = self.fresh("d");
        let (name, ty) = (self.vals[v].name.clone(), self.vals[v].ty_str());
        self.line(&format!("{n} = tensor.dim {name}, {c} : {ty}"));
        self.dims.insert((v, d), n.clone());
        n
    }

    /// A `tensor.empty` of `shape`, dynamic where `src` says; returns its
    /// name, its type and its dynamic dims.
    fn empty(&mut self, ty: Ty, shape: &[usize], src: &[DimSrc]) -> (String, String, Vec<bool>) {
        let dynamic: Vec<bool> = (0..shape.len())
            .map(|i| src.get(i).is_some_and(|s| s.is_some()))
            .collect();
        let sizes: Vec<String> = src.iter().flatten().map(|&(v, d)| self.dim(v, d)).collect();
        let t = tensor_ty(ty, shape, &dynamic);
        let n = self.fresh("e");
        self.line(&format!("{n} = tensor.empty({}) : {t}", sizes.join(", ")));
        (n, t, dynamic)
    }

    /// A scalar constant's literal.
    fn literal(ty: Ty, v: f64) -> String {
        if ty.is_float() {
            super::compare::float_literal(ty.elem(), v)
        } else if ty == Ty::I1 {
            // `true : i1` is kiln's, not MLIR's spelling.
            (if v != 0.0 { "1" } else { "0" }).into()
        } else {
            format!("{}", v as i64)
        }
    }

    /// A tensor of `shape` filled with `v`.
    fn fill(
        &mut self,
        ty: Ty,
        shape: &[usize],
        src: &[DimSrc],
        v: f64,
    ) -> (String, String, Vec<bool>) {
        let (e, t, dynamic) = self.empty(ty, shape, src);
        let c = self.fresh("k");
        self.line(&format!(
            "{c} = arith.constant {} : {}",
            Gen::literal(ty, v),
            ty.name()
        ));
        let f = self.fresh("f");
        self.line(&format!(
            "{f} = linalg.fill ins({c} : {}) outs({e} : {t}) -> {t}",
            ty.name()
        ));
        (f, t, dynamic)
    }

    /// The program's float type two times in three, else its integer type.
    fn float_mostly(&mut self) -> Ty {
        if self.rng.chance(2, 3) {
            self.ft
        } else {
            self.it
        }
    }

    fn push(
        &mut self,
        name: String,
        ty: Ty,
        shape: Vec<usize>,
        dynamic: Vec<bool>,
        num: Num,
    ) -> usize {
        self.vals.push(Val {
            name,
            ty,
            shape,
            dynamic,
            num,
            is_arg: false,
        });
        self.vals.len() - 1
    }

    fn size(&mut self) -> usize {
        if self.zero && self.rng.chance(1, 5) {
            return 0;
        }
        if self.rng.chance(1, 2) {
            self.rng.pick(&[1, 2, 3, 4, 5, 7, 8])
        } else {
            self.rng
                .pick(&[1, 3, 13, 16, 17, 31, 32, 33, 64, 67, 127, 129])
        }
    }

    fn shape(&mut self, max_rank: usize) -> Vec<usize> {
        loop {
            let rank = self.rng.below(max_rank + 1);
            let s: Vec<usize> = (0..rank).map(|_| self.size()).collect();
            if s.iter().product::<usize>() <= MAX_ELEMS {
                return s;
            }
        }
    }

    /// A new argument of `shape`, some dims dynamic, with random data.
    fn input(&mut self, ty: Ty, shape: &[usize]) -> usize {
        let dynamic: Vec<bool> = shape
            .iter()
            .map(|_| self.dynamic && self.rng.chance(1, 3))
            .collect();
        let name = format!("%arg{}", self.params.len());
        let t = tensor_ty(ty, shape, &dynamic);
        self.params.push(format!("{name}: {t}"));
        let n: usize = shape.iter().product();
        let mut tensor = Tensor::zeros(ty.elem(), shape).expect("a small tensor");
        let num = if ty.is_float() {
            let frac = self.rng.pick(&[0, 0, 1, 2]);
            let edge = self.edge && self.rng.chance(1, 2);
            for i in 0..n {
                let v = if edge && self.rng.chance(1, 8) {
                    self.rng
                        .pick(&[0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN])
                } else if self.noisy {
                    // Multiples of 2^-8 in [-2, 2]: exact in f16.
                    self.rng.range(-512, 512) as f64 / 256.0
                } else {
                    let s = 2f64.powi(frac);
                    self.rng.range(-4 * s as i64, 4 * s as i64) as f64 / s
                };
                tensor.set(i, Scalar::Float(v));
            }
            if self.noisy {
                Num::inexact(2.0, 0.0)
            } else {
                Num::exact(4.0, frac)
            }
        } else {
            let small = self.rng.chance(1, 2);
            for i in 0..n {
                let v = if ty == Ty::I1 {
                    self.rng.range(0, 1)
                } else if small {
                    self.rng.range(-8, 8)
                } else {
                    self.rng.next_u64() as i64
                };
                tensor.set(i, Scalar::Int(wrap(ty, v)));
            }
            Num::exact(if small { 8.0 } else { ty.limit() }, 0).settle(ty)
        };
        self.inputs.push(Value::Tensor(Rc::new(tensor)));
        self.vals.push(Val {
            name,
            ty,
            shape: shape.to_vec(),
            dynamic,
            num,
            is_arg: true,
        });
        self.vals.len() - 1
    }

    /// An existing value (recent ones preferred) satisfying `pred`.
    fn existing(&mut self, pred: impl Fn(&Val) -> bool) -> Option<usize> {
        let c: Vec<usize> = (0..self.vals.len())
            .filter(|&i| pred(&self.vals[i]))
            .collect();
        if c.is_empty() {
            return None;
        }
        if self.rng.chance(1, 2) {
            return c.last().copied();
        }
        Some(self.rng.pick(&c))
    }

    /// A value of `ty` and `shape`: an existing one or a new argument.
    fn operand(&mut self, ty: Ty, shape: &[usize]) -> usize {
        if self.rng.chance(2, 3) {
            if let Some(v) = self.existing(|v| v.ty == ty && v.shape == shape) {
                return v;
            }
        }
        self.input(ty, shape)
    }

    /// Any value to start an op from: an existing one or a new argument.
    fn any(&mut self, pred: impl Fn(&Val) -> bool, ty: Ty, max_rank: usize) -> usize {
        if let Some((v, _)) = self.feed {
            if pred(&self.vals[v]) {
                return v;
            }
        }
        if self.rng.chance(4, 5) {
            if let Some(v) = self.existing(&pred) {
                return v;
            }
        }
        loop {
            let s = self.shape(max_rank);
            let probe = Val {
                name: String::new(),
                ty,
                shape: s.clone(),
                dynamic: vec![false; s.len()],
                num: Num::exact(0.0, 0),
                is_arg: true,
            };
            if pred(&probe) {
                return self.input(ty, &s);
            }
        }
    }

    /// `v` as a static tensor (a `tensor.cast` when it has `?` dims).
    fn make_static(&mut self, v: usize) -> usize {
        if !self.vals[v].is_dynamic() {
            return v;
        }
        let val = self.vals[v].clone();
        let n = self.fresh("s");
        let t = tensor_ty(val.ty, &val.shape, &[]);
        self.line(&format!(
            "{n} = tensor.cast {} : {} to {t}",
            val.name,
            val.ty_str()
        ));
        self.push(
            n,
            val.ty,
            val.shape.clone(),
            vec![false; val.shape.len()],
            val.num,
        )
    }

    /// `v` with the type of `like` (same shape; a `tensor.cast` when their
    /// dynamic dims differ).
    fn cast_like(&mut self, v: usize, like: usize) -> usize {
        if self.vals[v].dynamic == self.vals[like].dynamic {
            return v;
        }
        let val = self.vals[v].clone();
        let dynamic = self.vals[like].dynamic.clone();
        let n = self.fresh("s");
        let t = tensor_ty(val.ty, &val.shape, &dynamic);
        self.line(&format!(
            "{n} = tensor.cast {} : {} to {t}",
            val.name,
            val.ty_str()
        ));
        self.push(n, val.ty, val.shape, dynamic, val.num)
    }

    /// A `tensor.cast` of a static value to a type with `?` dims.
    fn cast_dynamic(&mut self) -> bool {
        let Some(v) = self.existing(|v| !v.shape.is_empty() && !v.is_dynamic()) else {
            return false;
        };
        let val = self.vals[v].clone();
        let mut dynamic: Vec<bool> = val.shape.iter().map(|_| self.rng.chance(1, 2)).collect();
        dynamic[0] = true;
        let n = self.fresh("dyn");
        let t = tensor_ty(val.ty, &val.shape, &dynamic);
        self.line(&format!(
            "{n} = tensor.cast {} : {} to {t}",
            val.name,
            val.ty_str()
        ));
        self.push(n, val.ty, val.shape, dynamic, val.num);
        true
    }

    /// One random op; false when the drawn op did not fit.
    fn step(&mut self) -> bool {
        let ft = self.ft;
        let it = self.it;
        if self.rng.chance(1, 6) {
            return self.indexing();
        }
        match self.rng.below(16) {
            0 | 1 => {
                let ty = if self.rng.chance(2, 3) { ft } else { it };
                let a = self.any(|v| v.ty == ty, ty, 3);
                self.elementwise_tensor(a)
            }
            2..=4 => self.generic_elementwise(),
            5 => self.reduce(),
            6 => {
                if self.rng.chance(1, 2) {
                    self.argmax()
                } else {
                    self.reduce()
                }
            }
            7 => self.matmul(),
            8 => {
                if self.rng.chance(1, 3) {
                    self.softmax()
                } else {
                    self.conv()
                }
            }
            9 => self.transpose(),
            10 => self.broadcast(),
            11 => self.extract_slice(),
            12 => self.insert_slice(),
            13 => self.concat(),
            14 => self.pad(),
            15 if self.dynamic && self.rng.chance(1, 2) => self.cast_dynamic(),
            _ => {
                if self.rng.chance(1, 2) {
                    self.collapse()
                } else {
                    self.expand()
                }
            }
        }
    }

    /// `arith.OP %a, %b` on whole tensors.
    fn elementwise_tensor(&mut self, a: usize) -> bool {
        let av = self.vals[a].clone();
        let b = self.operand(av.ty, &av.shape);
        let b = self.cast_like(b, a);
        let bv = self.vals[b].clone();
        let ty = av.ty;
        let (op, num) = if ty.is_float() {
            let mul = Num::mul(av.num, bv.num, ty);
            let add = Num::add(av.num, bv.num, ty);
            match self.rng.below(5) {
                0 if add.bound <= ty.limit() => ("addf", add),
                1 if add.bound <= ty.limit() => ("subf", add),
                2 if mul.bound <= ty.limit() => ("mulf", mul),
                3 => ("minimumf", Num::either(av.num, bv.num)),
                _ => ("maximumf", Num::either(av.num, bv.num)),
            }
        } else if ty == Ty::I1 {
            (self.rng.pick(&["andi", "ori", "xori"]), Num::exact(1.0, 0))
        } else {
            let op = self.rng.pick(&[
                "addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui",
            ]);
            let num = match op {
                "addi" | "subi" => Num::add(av.num, bv.num, ty),
                "muli" => Num::mul(av.num, bv.num, ty),
                "maxsi" | "minsi" => Num::either(av.num, bv.num),
                _ => Num::exact(ty.limit(), 0),
            };
            (op, num)
        };
        let n = self.fresh("t");
        self.line(&format!(
            "{n} = arith.{op} {}, {} : {}",
            av.name,
            bv.name,
            av.ty_str()
        ));
        self.push(n, ty, av.shape, av.dynamic, num);
        true
    }

    /// A map of an input into an iteration space of `space` dims: for each
    /// input dim, `Some(j)` (`d_j`) or `None` (the constant 0, a unit
    /// dim); the existing value `v` fits when its sizes match.
    fn map_onto(&mut self, v: &Val, space: &[usize]) -> Option<Vec<Option<usize>>> {
        for _ in 0..6 {
            let mut used = vec![false; space.len()];
            let mut map = Vec::new();
            let mut ok = true;
            for &s in &v.shape {
                let c: Vec<usize> = (0..space.len())
                    .filter(|&j| !used[j] && space[j] == s)
                    .collect();
                if s == 1 && (c.is_empty() || self.rng.chance(1, 3)) {
                    map.push(None);
                } else if c.is_empty() {
                    ok = false;
                    break;
                } else {
                    let j = self.rng.pick(&c);
                    used[j] = true;
                    map.push(Some(j));
                }
            }
            if ok {
                return Some(map);
            }
        }
        None
    }

    fn affine(map: &[Option<usize>], rank: usize) -> String {
        let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
        let res: Vec<String> = map
            .iter()
            .map(|m| m.map_or("0".to_string(), |j| format!("d{j}")))
            .collect();
        format!("affine_map<({}) -> ({})>", dims.join(", "), res.join(", "))
    }

    /// A `linalg.generic` with parallel iterators only: an anchor input
    /// (possibly read permuted), up to two more inputs through
    /// broadcasting / permuting / constant-0 maps, and a random region.
    fn generic_elementwise(&mut self) -> bool {
        let ty = self.float_mostly();
        let a = self.any(|_| true, ty, 3);
        let av = self.vals[a].clone();
        let rank = av.shape.len();
        // space[j] = a.shape[perm[j]]
        let mut perm: Vec<usize> = (0..rank).collect();
        if rank >= 2 && self.rng.chance(1, 3) {
            for i in (1..rank).rev() {
                let j = self.rng.below(i + 1);
                perm.swap(i, j);
            }
        }
        let space: Vec<usize> = perm.iter().map(|&p| av.shape[p]).collect();
        let mut a_map = vec![Some(0); rank];
        for (j, &p) in perm.iter().enumerate() {
            a_map[p] = Some(j);
        }
        let mut ins = vec![(a, a_map)];
        for _ in 0..self.rng.below(3) {
            let t = self.rng.pick(&[self.ft, self.it, av.ty, Ty::I1]);
            let existing = if self.rng.chance(1, 2) {
                self.existing(|v| v.ty == t && v.shape.len() <= rank && v.len() > 0)
            } else {
                None
            };
            let found = existing.and_then(|v| {
                let val = self.vals[v].clone();
                self.map_onto(&val, &space).map(|m| (v, m))
            });
            let (v, m) = match found {
                Some(x) => x,
                None => {
                    // A new input: a random subset of the dims, maybe
                    // reordered, maybe with a unit dim read as 0.
                    let mut m: Vec<Option<usize>> = (0..rank)
                        .filter(|_| self.rng.chance(2, 3))
                        .map(Some)
                        .collect();
                    if m.len() >= 2 && self.rng.chance(1, 3) {
                        m.reverse();
                    }
                    if self.rng.chance(1, 4) {
                        let at = self.rng.below(m.len() + 1);
                        m.insert(at, None);
                    }
                    let shape: Vec<usize> = m.iter().map(|x| x.map_or(1, |j| space[j])).collect();
                    (self.input(t, &shape), m)
                }
            };
            ins.push((v, m));
        }
        // The output's dims: dynamic where the anchor's are.
        let src: Vec<DimSrc> = perm
            .iter()
            .map(|&p| av.dynamic[p].then_some((a, p)))
            .collect();
        // The region, built before the output type is known.
        let args: Vec<Sc> = ins
            .iter()
            .enumerate()
            .map(|(i, &(v, _))| Sc {
                name: format!("%x{i}"),
                ty: self.vals[v].ty,
                num: self.vals[v].num,
            })
            .collect();
        let steps = 1 + self.rng.below(4);
        self.space = space.clone();
        let (region, out) = self.region(args, steps);
        self.space.clear();
        let (e, t, dynamic) = self.empty(out.ty, &space, &src);
        let mut maps: Vec<String> = ins.iter().map(|(_, m)| Gen::affine(m, rank)).collect();
        maps.push(Gen::affine(&(0..rank).map(Some).collect::<Vec<_>>(), rank));
        let iters = vec!["\"parallel\""; rank].join(", ");
        let in_names: Vec<String> = ins
            .iter()
            .map(|&(v, _)| self.vals[v].name.clone())
            .collect();
        let in_tys: Vec<String> = ins.iter().map(|&(v, _)| self.vals[v].ty_str()).collect();
        let mut bb: Vec<String> = ins
            .iter()
            .enumerate()
            .map(|(i, &(v, _))| format!("%x{i}: {}", self.vals[v].ty.name()))
            .collect();
        bb.push(format!("%out: {}", out.ty.name()));
        let n = self.fresh("g");
        let mut s = format!(
            "{n} = linalg.generic {{indexing_maps = [{}], iterator_types = [{iters}]}} ins({} : {}) outs({e} : {t}) {{\n  ^bb0({}):\n",
            maps.join(", "),
            in_names.join(", "),
            in_tys.join(", "),
            bb.join(", ")
        );
        s.push_str(&region);
        let _ = write!(
            s,
            "    linalg.yield {} : {}\n  }} -> {t}",
            out.name,
            out.ty.name()
        );
        self.line(&s);
        self.push(n, out.ty, space, dynamic, out.num);
        true
    }

    /// A region body of `steps` scalar ops on `args`; returns its text
    /// and the scalar to yield.
    fn region(&mut self, args: Vec<Sc>, steps: usize) -> (String, Sc) {
        let mut sc = args;
        let mut text = String::new();
        for _ in 0..steps {
            for _ in 0..8 {
                if let Some(s) = self.scalar_op(&sc, &mut text) {
                    sc.push(s);
                    break;
                }
            }
        }
        let out = sc.last().cloned().expect("a region has arguments");
        (text, out)
    }

    fn constant(&mut self, text: &mut String, ty: Ty, v: f64) -> String {
        let n = self.fresh("k");
        let _ = writeln!(
            text,
            "    {n} = arith.constant {} : {}",
            Gen::literal(ty, v),
            ty.name()
        );
        n
    }

    /// One scalar op on the scalars `sc`, its lines appended to `text`.
    fn scalar_op(&mut self, sc: &[Sc], text: &mut String) -> Option<Sc> {
        // The latest scalar half of the time: chains, not dead ops.
        let x = if self.rng.chance(1, 2) {
            sc.last().cloned().expect("a region has arguments")
        } else {
            self.rng.pick(sc)
        };
        let same: Vec<Sc> = sc.iter().filter(|s| s.ty == x.ty).cloned().collect();
        let y = self.rng.pick(&same);
        let ty = x.ty;
        let name = self.fresh("r");
        let emit = |text: &mut String, rhs: String| {
            let _ = writeln!(text, "    {name} = {rhs}");
        };
        let tn = ty.name();
        let (a, b) = (x.name.clone(), y.name.clone());
        let r = |ty: Ty, num: Num| {
            Some(Sc {
                name: String::new(),
                ty,
                num,
            })
        };
        let out: Option<Sc> = if ty.is_float() {
            match self.rng.below(14) {
                0 | 1 => {
                    let num = Num::add(x.num, y.num, ty);
                    if num.bound > ty.limit() {
                        return None;
                    }
                    let op = if self.rng.chance(1, 2) {
                        "addf"
                    } else {
                        "subf"
                    };
                    emit(text, format!("arith.{op} {a}, {b} : {tn}"));
                    r(ty, num)
                }
                2 => {
                    let num = Num::mul(x.num, y.num, ty);
                    if num.bound > ty.limit() {
                        return None;
                    }
                    emit(text, format!("arith.mulf {a}, {b} : {tn}"));
                    r(ty, num)
                }
                3 => {
                    let op = self.rng.pick(&["maximumf", "minimumf"]);
                    emit(text, format!("arith.{op} {a}, {b} : {tn}"));
                    r(ty, Num::either(x.num, y.num))
                }
                4 => {
                    let op = self.rng.pick(&["negf", "math.absf"]);
                    let op = if op == "negf" { "arith.negf" } else { op };
                    emit(text, format!("{op} {a} : {tn}"));
                    r(ty, x.num)
                }
                5 if x.num.exact => {
                    let op = self.rng.pick(&["floor", "ceil", "trunc", "roundeven"]);
                    emit(text, format!("math.{op} {a} : {tn}"));
                    r(ty, Num::exact(x.num.bound.ceil(), 0))
                }
                6 => {
                    // y / (|x| + 1): the divisor at least 1.
                    let one = self.constant(text, ty, 1.0);
                    let ab = self.fresh("r");
                    let den = self.fresh("r");
                    let _ = writeln!(text, "    {ab} = math.absf {a} : {tn}");
                    let _ = writeln!(text, "    {den} = arith.addf {ab}, {one} : {tn}");
                    emit(text, format!("arith.divf {b}, {den} : {tn}"));
                    let den_num = Num::add(x.num, Num::exact(1.0, 0), ty);
                    let err = y.num.err + y.num.bound * den_num.err;
                    r(ty, Num::inexact(y.num.bound, err).settle(ty))
                }
                7 => {
                    emit(text, format!("math.tanh {a} : {tn}"));
                    r(ty, Num::inexact(1.0, x.num.err + 8.0 * Num::ulp(1.0, ty)))
                }
                8 if x.num.bound <= 8.0 => {
                    let bound = x.num.bound.exp();
                    emit(text, format!("math.exp {a} : {tn}"));
                    let err = bound * x.num.err + (4.0 + 2.0 * x.num.bound) * Num::ulp(bound, ty);
                    r(ty, Num::inexact(bound, err))
                }
                9 => {
                    // sqrt(|x|) and log(|x| + 1).
                    let ab = self.fresh("r");
                    let _ = writeln!(text, "    {ab} = math.absf {a} : {tn}");
                    if self.rng.chance(1, 2) {
                        emit(text, format!("math.sqrt {ab} : {tn}"));
                        let bound = x.num.bound.sqrt();
                        r(
                            ty,
                            Num::inexact(bound, x.num.err.sqrt() + 2.0 * Num::ulp(bound, ty)),
                        )
                    } else {
                        let one = self.constant(text, ty, 1.0);
                        let p = self.fresh("r");
                        let _ = writeln!(text, "    {p} = arith.addf {ab}, {one} : {tn}");
                        emit(text, format!("math.log {p} : {tn}"));
                        let bound = (x.num.bound + 1.0).ln();
                        let err = x.num.err
                            + Num::ulp(x.num.bound + 1.0, ty)
                            + 4.0 * Num::ulp(bound.max(1.0), ty);
                        r(ty, Num::inexact(bound, err))
                    }
                }
                10 => {
                    // x * 0.5: exact while it fits.
                    let h = self.constant(text, ty, 0.5);
                    emit(text, format!("arith.mulf {a}, {h} : {tn}"));
                    let mut num = x.num;
                    num.bound *= 0.5;
                    num.frac += 1;
                    num.err *= 0.5;
                    r(ty, num.settle(ty))
                }
                11 if x.num.exact && y.num.exact => {
                    let p = self.rng.pick(&[
                        "oeq", "one", "olt", "ole", "ogt", "oge", "ord", "uno", "ueq", "une",
                        "ult", "uge",
                    ]);
                    emit(text, format!("arith.cmpf {p}, {a}, {b} : {tn}"));
                    r(Ty::I1, Num::exact(1.0, 0))
                }
                12 if x.num.exact => {
                    let to = self.it;
                    emit(text, format!("arith.fptosi {a} : {tn} to {}", to.name()));
                    r(to, Num::exact(x.num.bound.ceil(), 0).settle(to))
                }
                13 => {
                    let to = dtypes::float_partner(ty, self.ft);
                    if dtypes::narrows(ty, to) {
                        if x.num.bound > to.limit() {
                            return None;
                        }
                        emit(text, format!("arith.truncf {a} : {tn} to {}", to.name()));
                        r(to, x.num.settle(to))
                    } else {
                        emit(text, format!("arith.extf {a} : {tn} to {}", to.name()));
                        r(to, x.num)
                    }
                }
                _ => None,
            }
        } else if ty == Ty::I1 {
            match self.rng.below(3) {
                0 => {
                    let op = self.rng.pick(&["andi", "ori", "xori"]);
                    emit(text, format!("arith.{op} {a}, {b} : i1"));
                    r(Ty::I1, x.num)
                }
                1 => {
                    // select between two other scalars of one type.
                    let others: Vec<Sc> = sc.iter().filter(|s| s.ty != Ty::I1).cloned().collect();
                    if others.is_empty() {
                        return None;
                    }
                    let p = self.rng.pick(&others);
                    let same: Vec<Sc> = others.iter().filter(|s| s.ty == p.ty).cloned().collect();
                    let q = self.rng.pick(&same);
                    emit(
                        text,
                        format!("arith.select {a}, {}, {} : {}", p.name, q.name, p.ty.name()),
                    );
                    r(p.ty, Num::either(p.num, q.num))
                }
                _ => {
                    let to = self.rng.pick(&[self.it, self.ft]);
                    if to.is_float() {
                        emit(text, format!("arith.uitofp {a} : i1 to {}", to.name()));
                    } else {
                        let op = self.rng.pick(&["extui", "extsi"]);
                        emit(text, format!("arith.{op} {a} : i1 to {}", to.name()));
                    }
                    r(to, Num::exact(1.0, 0))
                }
            }
        } else if let Some(s) = self.extra_int_op(&x, &y, &name, text) {
            Some(s)
        } else {
            match self.rng.below(9) {
                0..=2 => {
                    let op = self.rng.pick(&[
                        "addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
                        "minui",
                    ]);
                    let num = match op {
                        "addi" | "subi" => Num::add(x.num, y.num, ty),
                        "muli" => Num::mul(x.num, y.num, ty),
                        "maxsi" | "minsi" => Num::either(x.num, y.num),
                        _ => Num::exact(ty.limit(), 0),
                    };
                    emit(text, format!("arith.{op} {a}, {b} : {tn}"));
                    r(ty, num)
                }
                3 => {
                    // Shifts by y mod width.
                    let m = self.constant(text, ty, (ty.width() - 1) as f64);
                    let s = self.fresh("r");
                    let _ = writeln!(text, "    {s} = arith.andi {b}, {m} : {tn}");
                    let op = self.rng.pick(&["shli", "shrsi", "shrui"]);
                    emit(text, format!("arith.{op} {a}, {s} : {tn}"));
                    r(ty, Num::exact(ty.limit(), 0))
                }
                4 => {
                    // Division by (y & 7) | 1: 1, 3, 5 or 7.
                    let seven = self.constant(text, ty, 7.0);
                    let one = self.constant(text, ty, 1.0);
                    let (s, d) = (self.fresh("r"), self.fresh("r"));
                    let _ = writeln!(text, "    {s} = arith.andi {b}, {seven} : {tn}");
                    let _ = writeln!(text, "    {d} = arith.ori {s}, {one} : {tn}");
                    let op = self.rng.pick(&[
                        "divsi",
                        "remsi",
                        "divui",
                        "remui",
                        "floordivsi",
                        "ceildivsi",
                    ]);
                    emit(text, format!("arith.{op} {a}, {d} : {tn}"));
                    r(ty, Num::exact(ty.limit(), 0))
                }
                5 => {
                    let p = self.rng.pick(&[
                        "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
                    ]);
                    emit(text, format!("arith.cmpi {p}, {a}, {b} : {tn}"));
                    r(Ty::I1, Num::exact(1.0, 0))
                }
                6 => {
                    let to = self.ft;
                    if x.num.bound > to.limit() {
                        return None;
                    }
                    emit(text, format!("arith.sitofp {a} : {tn} to {}", to.name()));
                    r(to, Num::exact(x.num.bound, 0).settle(to))
                }
                7 => {
                    let to = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64]);
                    if to.width() == ty.width() {
                        return None;
                    }
                    if to.width() > ty.width() {
                        let op = self.rng.pick(&["extsi", "extui"]);
                        emit(text, format!("arith.{op} {a} : {tn} to {}", to.name()));
                        let num = if op == "extsi" {
                            x.num
                        } else {
                            Num::exact(2f64.powi(ty.width() as i32), 0)
                        };
                        r(to, num.settle(to))
                    } else {
                        emit(text, format!("arith.trunci {a} : {tn} to {}", to.name()));
                        r(to, x.num.settle(to))
                    }
                }
                8 if !self.space.is_empty() && self.rng.chance(1, 2) => {
                    // The iteration index along a random dim, plus x.
                    let d = self.rng.below(self.space.len());
                    let (i, c) = (self.fresh("r"), self.fresh("r"));
                    let _ = writeln!(text, "    {i} = linalg.index {d} : index");
                    let _ = writeln!(text, "    {c} = arith.index_cast {i} : index to {tn}");
                    emit(text, format!("arith.addi {c}, {a} : {tn}"));
                    r(ty, Num::add(x.num, Num::exact(self.space[d] as f64, 0), ty))
                }
                _ => {
                    emit(text, format!("math.absi {a} : {tn}"));
                    r(ty, x.num)
                }
            }
        };
        out.map(|mut s| {
            s.name = name;
            s
        })
    }

    /// `linalg.reduce` along random dims, or a generic reduction keeping
    /// them as unit dims (a constant-0 output map).
    fn reduce(&mut self) -> bool {
        let ty = self.float_mostly();
        let a = self.any(|v| !v.shape.is_empty() && v.ty != Ty::I1, ty, 3);
        let av = self.vals[a].clone();
        let ty = av.ty;
        let rank = av.shape.len();
        let mut red: Vec<bool> = (0..rank).map(|_| self.rng.chance(1, 2)).collect();
        if !red.iter().any(|&r| r) {
            let i = self.rng.below(rank);
            red[i] = true;
        }
        let n: usize = (0..rank).filter(|&i| red[i]).map(|i| av.shape[i]).product();
        let (comb, init, num) = if ty.is_float() {
            match self.rng.below(3) {
                0 => ("maximumf", f64::NEG_INFINITY, av.num),
                1 => ("minimumf", f64::INFINITY, av.num),
                _ => {
                    let num = Num::sum(av.num, n, ty);
                    if num.bound > ty.limit() {
                        return false;
                    }
                    ("addf", 0.0, num)
                }
            }
        } else {
            let lim = ty.limit();
            match self.rng.below(6) {
                0 => ("maxsi", -lim, av.num),
                1 => ("minsi", lim - 1.0, av.num),
                2 => ("muli", 1.0, Num::exact(lim, 0)),
                3 => ("xori", 0.0, Num::exact(lim, 0)),
                _ => ("addi", 0.0, Num::sum(av.num, n, ty)),
            }
        };
        let keep = self.rng.chance(1, 3);
        let (shape, src): (Vec<usize>, Vec<DimSrc>) = if keep {
            (0..rank)
                .map(|i| {
                    if red[i] {
                        (1, None)
                    } else {
                        (av.shape[i], av.dynamic[i].then_some((a, i)))
                    }
                })
                .unzip()
        } else {
            (0..rank)
                .filter(|&i| !red[i])
                .map(|i| (av.shape[i], av.dynamic[i].then_some((a, i))))
                .unzip()
        };
        let (f, t, dynamic) = self.fill(ty, &shape, &src, init);
        let n = self.fresh("red");
        if keep || self.rng.chance(1, 3) {
            let out_map: Vec<Option<usize>> = if keep {
                (0..rank).map(|i| (!red[i]).then_some(i)).collect()
            } else {
                (0..rank).filter(|&i| !red[i]).map(Some).collect()
            };
            let maps = [
                Gen::affine(&(0..rank).map(Some).collect::<Vec<_>>(), rank),
                Gen::affine(&out_map, rank),
            ];
            let iters: Vec<&str> = red
                .iter()
                .map(|&r| if r { "\"reduction\"" } else { "\"parallel\"" })
                .collect();
            let tn = ty.name();
            self.line(&format!(
                "{n} = linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}} ins({} : {}) outs({f} : {t}) {{\n  ^bb0(%x: {tn}, %acc: {tn}):\n    %y = arith.{comb} %x, %acc : {tn}\n    linalg.yield %y : {tn}\n  }} -> {t}",
                maps.join(", "),
                iters.join(", "),
                av.name,
                av.ty_str()
            ));
        } else {
            let dims: Vec<String> = (0..rank)
                .filter(|&i| red[i])
                .map(|i| i.to_string())
                .collect();
            self.line(&format!(
                "{n} = linalg.reduce {{ arith.{comb} }} ins({} : {}) outs({f} : {t}) dimensions = [{}]",
                av.name,
                av.ty_str(),
                dims.join(", ")
            ));
        }
        self.push(n, ty, shape, dynamic, num);
        true
    }

    /// Argmax / argmin along one dim as torch-mlir writes it: a generic
    /// reduction with two outputs, the value and its i64 index (the first
    /// index wins ties: a strict compare in loop order).
    fn argmax(&mut self) -> bool {
        let ty = self.float_mostly();
        let a = self.any(
            |v| !v.shape.is_empty() && v.ty != Ty::I1 && v.num.exact,
            ty,
            3,
        );
        let av = self.vals[a].clone();
        if av.shape.is_empty() || av.ty == Ty::I1 || !av.num.exact {
            return false;
        }
        let ty = av.ty;
        let rank = av.shape.len();
        let d = self.rng.below(rank);
        let max = self.rng.chance(1, 2);
        let init = match (ty.is_float(), max) {
            (true, true) => f64::NEG_INFINITY,
            (true, false) => f64::INFINITY,
            (false, true) => -ty.limit(),
            (false, false) => ty.limit() - 1.0,
        };
        let shape: Vec<usize> = (0..rank).filter(|&i| i != d).map(|i| av.shape[i]).collect();
        let src: Vec<DimSrc> = (0..rank)
            .filter(|&i| i != d)
            .map(|i| av.dynamic[i].then_some((a, i)))
            .collect();
        let (fv, tv, dynamic) = self.fill(ty, &shape, &src, init);
        let (fi, ti, _) = self.fill(Ty::I64, &shape, &src, 0.0);
        let out_map: Vec<Option<usize>> = (0..rank).filter(|&i| i != d).map(Some).collect();
        let maps = [
            Gen::affine(&(0..rank).map(Some).collect::<Vec<_>>(), rank),
            Gen::affine(&out_map, rank),
            Gen::affine(&out_map, rank),
        ];
        let iters: Vec<&str> = (0..rank)
            .map(|i| {
                if i == d {
                    "\"reduction\""
                } else {
                    "\"parallel\""
                }
            })
            .collect();
        let tn = ty.name();
        let cmp = match (ty.is_float(), max) {
            (true, true) => format!("arith.cmpf ogt, %x, %acc : {tn}"),
            (true, false) => format!("arith.cmpf olt, %x, %acc : {tn}"),
            (false, true) => format!("arith.cmpi sgt, %x, %acc : {tn}"),
            (false, false) => format!("arith.cmpi slt, %x, %acc : {tn}"),
        };
        let n = self.fresh("am");
        self.line(&format!(
            "{n}:2 = linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}} ins({} : {}) outs({fv}, {fi} : {tv}, {ti}) {{\n  ^bb0(%x: {tn}, %acc: {tn}, %idx: i64):\n    %i = linalg.index {d} : index\n    %ii = arith.index_cast %i : index to i64\n    %p = {cmp}\n    %v = arith.select %p, %x, %acc : {tn}\n    %j = arith.select %p, %ii, %idx : i64\n    linalg.yield %v, %j : {tn}, i64\n  }} -> ({tv}, {ti})",
            maps.join(", "),
            iters.join(", "),
            av.name,
            av.ty_str()
        ));
        self.push(
            format!("{n}#0"),
            ty,
            shape.clone(),
            dynamic.clone(),
            Num::either(av.num, Num::exact(init.abs().min(ty.limit()), 0)),
        );
        self.push(
            format!("{n}#1"),
            Ty::I64,
            shape,
            dynamic,
            Num::exact(av.shape[d] as f64, 0),
        );
        true
    }

    /// `linalg.matmul` or `linalg.batch_matmul`, sometimes of narrower
    /// inputs into a wider accumulator (i8 into i32, f16 into f32).
    fn matmul(&mut self) -> bool {
        let float = self.rng.chance(2, 3);
        let (ity, acc) = if float {
            if matches!(self.ft, Ty::F16 | Ty::BF16) && self.rng.chance(1, 2) {
                (self.ft, Ty::F32)
            } else {
                (self.ft, self.ft)
            }
        } else if self.rng.chance(1, 3) {
            (Ty::I8, Ty::I32)
        } else {
            (self.it, self.it)
        };
        if self.rng.chance(1, 3) {
            return self.matvec_like(ity, acc);
        }
        let batch = self.rng.chance(1, 3);
        let lead = usize::from(batch);
        let a = if self.rng.chance(1, 4) {
            // A long reduction: K past any tile.
            let k = self.rng.pick(&[255, 1000, 1021, 4099]);
            let mut shape = if batch {
                vec![self.rng.range(1, 3) as usize]
            } else {
                vec![]
            };
            shape.extend([self.rng.pick(&[1, 2, 3, 5, 17]), k]);
            self.input(ity, &shape)
        } else {
            self.any(|v| v.shape.len() == 2 + lead && v.ty == ity, ity, 3)
        };
        if self.vals[a].shape.len() != 2 + lead {
            return false;
        }
        let av = self.vals[a].clone();
        let (m, k) = (av.shape[lead], av.shape[lead + 1]);
        let nn = self.size();
        let bs = av.shape[..lead].to_vec();
        let mut bshape = bs.clone();
        bshape.extend([k, nn]);
        let work = bs.iter().product::<usize>() * m * k * nn;
        if work > 1 << 21 || self.work + work > 1 << 22 {
            return false;
        }
        let b = self.operand(ity, &bshape);
        let bv = self.vals[b].clone();
        let num = Num::sum(Num::mul(av.num, bv.num, acc), k, acc);
        if acc.is_float() && num.bound > acc.limit() {
            return false;
        }
        self.work += work;
        let mut shape = bs.clone();
        shape.extend([m, nn]);
        let mut src: Vec<DimSrc> = (0..lead).map(|i| av.dynamic[i].then_some((a, i))).collect();
        src.push(av.dynamic[lead].then_some((a, lead)));
        src.push(bv.dynamic[lead + 1].then_some((b, lead + 1)));
        let (f, t, dynamic) = self.fill(acc, &shape, &src, 0.0);
        let n = self.fresh("mm");
        let op = if batch { "batch_matmul" } else { "matmul" };
        self.line(&format!(
            "{n} = linalg.{op} ins({}, {} : {}, {}) outs({f} : {t}) -> {t}",
            av.name,
            bv.name,
            av.ty_str(),
            bv.ty_str()
        ));
        self.push(n, acc, shape, dynamic, num);
        true
    }

    /// `linalg.matvec`, `linalg.vecmat` or `linalg.matmul_transpose_b`.
    fn matvec_like(&mut self, ity: Ty, acc: Ty) -> bool {
        let kind = self.rng.below(3);
        let m = self.size();
        let k = if self.rng.chance(1, 4) {
            self.rng.pick(&[1000, 1021, 4099])
        } else {
            self.size()
        };
        let nn = if kind == 2 { self.size() } else { 1 };
        let work = m * k * nn;
        if work > 1 << 21 || self.work + work > 1 << 22 {
            return false;
        }
        self.work += work;
        let (ashape, bshape, shape, op) = match kind {
            0 => (vec![m, k], vec![k], vec![m], "matvec"),
            1 => (vec![k], vec![k, m], vec![m], "vecmat"),
            _ => (vec![m, k], vec![nn, k], vec![m, nn], "matmul_transpose_b"),
        };
        let a = self.operand(ity, &ashape);
        let b = self.operand(ity, &bshape);
        let (av, bv) = (self.vals[a].clone(), self.vals[b].clone());
        let num = Num::sum(Num::mul(av.num, bv.num, acc), k, acc);
        if acc.is_float() && num.bound > acc.limit() {
            return false;
        }
        let src: Vec<DimSrc> = match kind {
            0 => vec![av.dynamic[0].then_some((a, 0))],
            1 => vec![bv.dynamic[1].then_some((b, 1))],
            _ => vec![
                av.dynamic[0].then_some((a, 0)),
                bv.dynamic[0].then_some((b, 0)),
            ],
        };
        let (f, t, dynamic) = self.fill(acc, &shape, &src, 0.0);
        let n = self.fresh("mv");
        self.line(&format!(
            "{n} = linalg.{op} ins({}, {} : {}, {}) outs({f} : {t}) -> {t}",
            av.name,
            bv.name,
            av.ty_str(),
            bv.ty_str()
        ));
        self.push(n, acc, shape, dynamic, num);
        true
    }

    /// A sliding-window op with random strides and dilations:
    /// `linalg.conv_2d_nhwc_hwcf`, `depthwise_conv_2d_nhwc_hwc`,
    /// `pooling_nhwc_max` / `_sum`.
    fn conv(&mut self) -> bool {
        let ty = self.float_mostly();
        let kind = self.rng.below(4);
        let n = self.rng.range(1, 2) as usize;
        let (h, w) = (
            self.rng.range(1, 12) as usize,
            self.rng.range(1, 12) as usize,
        );
        let c = self.rng.range(1, 5) as usize;
        let (kh, kw) = (self.rng.range(1, 3) as usize, self.rng.range(1, 3) as usize);
        let (sh, sw) = (self.rng.range(1, 2) as usize, self.rng.range(1, 2) as usize);
        let (dh, dw) = (self.rng.range(1, 2) as usize, self.rng.range(1, 2) as usize);
        let f = if kind == 0 {
            self.rng.range(1, 6) as usize
        } else {
            c
        };
        let (eh, ew) = ((kh - 1) * dh + 1, (kw - 1) * dw + 1);
        if eh > h || ew > w {
            return false;
        }
        let (oh, ow) = ((h - eh) / sh + 1, (w - ew) / sw + 1);
        let x = self.operand(ty, &[n, h, w, c]);
        let x = self.make_static(x);
        let xv = self.vals[x].clone();
        let (op, kname, kty, num, init) = match kind {
            0 | 1 => {
                let kshape = if kind == 0 {
                    vec![kh, kw, c, f]
                } else {
                    vec![kh, kw, c]
                };
                let k = self.operand(ty, &kshape);
                let k = self.make_static(k);
                let kv = self.vals[k].clone();
                let num = Num::sum(
                    Num::mul(xv.num, kv.num, ty),
                    kh * kw * if kind == 0 { c } else { 1 },
                    ty,
                );
                let op = if kind == 0 {
                    "conv_2d_nhwc_hwcf"
                } else {
                    "depthwise_conv_2d_nhwc_hwc"
                };
                let kt = kv.ty_str();
                (op, kv.name, kt, num, 0.0)
            }
            _ => {
                // The window is the shape of an empty tensor.
                let (e, t, _) = self.empty(ty, &[kh, kw], &[]);
                if kind == 2 {
                    let init = if ty.is_float() {
                        f64::NEG_INFINITY
                    } else {
                        -ty.limit()
                    };
                    ("pooling_nhwc_max", e, t, xv.num, init)
                } else {
                    ("pooling_nhwc_sum", e, t, Num::sum(xv.num, kh * kw, ty), 0.0)
                }
            }
        };
        if ty.is_float() && num.bound > ty.limit() {
            return false;
        }
        let shape = vec![n, oh, ow, f];
        let (o, t, _) = self.fill(ty, &shape, &[], init);
        let name = self.fresh("conv");
        self.line(&format!(
            "{name} = linalg.{op} {{dilations = dense<[{dh}, {dw}]> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}} ins({}, {kname} : {}, {kty}) outs({o} : {t}) -> {t}",
            xv.name,
            xv.ty_str(),
        ));
        self.push(name, ty, shape.clone(), vec![false; 4], num);
        true
    }

    /// `linalg.softmax` along a random dim.
    fn softmax(&mut self) -> bool {
        let ty = self.ft;
        let a = self.any(
            |v| v.ty == ty && !v.shape.is_empty() && v.num.bound <= 64.0,
            ty,
            3,
        );
        let av = self.vals[a].clone();
        if av.ty != ty || av.shape.is_empty() || av.num.bound > 64.0 {
            return false;
        }
        let d = self.rng.below(av.shape.len());
        let src: Vec<DimSrc> = (0..av.shape.len())
            .map(|i| av.dynamic[i].then_some((a, i)))
            .collect();
        let (e, t, dynamic) = self.empty(ty, &av.shape, &src);
        let n = self.fresh("sm");
        self.line(&format!(
            "{n} = linalg.softmax dimension({d}) ins({} : {}) outs({e} : {t}) -> {t}",
            av.name,
            av.ty_str()
        ));
        // Results in [0, 1]; exp's error (3 + 2|x| ulp for |x| up to twice
        // the bound) and the row sum's (one ulp per term), relative.
        let len = av.shape[d] as f64;
        let err = 2.0 * av.num.err + (8.0 + 4.0 * av.num.bound + len) * Num::ulp(1.0, ty);
        self.push(n, ty, av.shape, dynamic, Num::inexact(1.0, err));
        true
    }

    fn transpose(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| v.shape.len() >= 2, ty, 4);
        let av = self.vals[a].clone();
        let rank = av.shape.len();
        let mut perm: Vec<usize> = (0..rank).collect();
        for i in (1..rank).rev() {
            let j = self.rng.below(i + 1);
            perm.swap(i, j);
        }
        let shape: Vec<usize> = perm.iter().map(|&p| av.shape[p]).collect();
        let src: Vec<DimSrc> = perm
            .iter()
            .map(|&p| av.dynamic[p].then_some((a, p)))
            .collect();
        let (e, t, dynamic) = self.empty(av.ty, &shape, &src);
        let n = self.fresh("tr");
        let p: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
        self.line(&format!(
            "{n} = linalg.transpose ins({} : {}) outs({e} : {t}) permutation = [{}]",
            av.name,
            av.ty_str(),
            p.join(", ")
        ));
        self.push(n, av.ty, shape, dynamic, av.num);
        true
    }

    fn broadcast(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| v.shape.len() <= 2, ty, 2);
        let av = self.vals[a].clone();
        let mut shape: Vec<usize> = av.shape.clone();
        let mut src: Vec<DimSrc> = (0..shape.len())
            .map(|i| av.dynamic[i].then_some((a, i)))
            .collect();
        let mut added = Vec::new();
        for _ in 0..1 + self.rng.below(2) {
            let at = self.rng.below(shape.len() + 1);
            let s = self.size();
            shape.insert(at, s);
            src.insert(at, None);
            for d in added.iter_mut() {
                if *d >= at {
                    *d += 1;
                }
            }
            added.push(at);
        }
        if shape.iter().product::<usize>() > MAX_ELEMS {
            return false;
        }
        added.sort();
        let (e, t, dynamic) = self.empty(av.ty, &shape, &src);
        let n = self.fresh("bc");
        let d: Vec<String> = added.iter().map(|p| p.to_string()).collect();
        self.line(&format!(
            "{n} = linalg.broadcast ins({} : {}) outs({e} : {t}) dimensions = [{}]",
            av.name,
            av.ty_str(),
            d.join(", ")
        ));
        self.push(n, av.ty, shape, dynamic, av.num);
        true
    }

    /// Random offsets, sizes and strides inside `shape`.
    fn window(&mut self, shape: &[usize]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let mut o = Vec::new();
        let mut s = Vec::new();
        let mut st = Vec::new();
        for &d in shape {
            let stride = if d > 2 && self.rng.chance(1, 3) {
                self.rng.range(2, 3) as usize
            } else {
                1
            };
            let max = (d - 1) / stride + 1;
            let size = 1 + self.rng.below(max);
            let span = (size - 1) * stride + 1;
            let off = self.rng.below(d - span + 1);
            o.push(off);
            s.push(size);
            st.push(stride);
        }
        (o, s, st)
    }

    fn list(v: &[usize]) -> String {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn extract_slice(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty() && v.len() > 0, ty, 3);
        let a = self.make_static(a);
        let av = self.vals[a].clone();
        let (o, s, st) = self.window(&av.shape);
        let t = tensor_ty(av.ty, &s, &[]);
        let n = self.fresh("sl");
        self.line(&format!(
            "{n} = tensor.extract_slice {}[{}] [{}] [{}] : {} to {t}",
            av.name,
            Gen::list(&o),
            Gen::list(&s),
            Gen::list(&st),
            av.ty_str()
        ));
        self.push(n, av.ty, s.clone(), vec![false; s.len()], av.num);
        true
    }

    fn insert_slice(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let d = self.any(|v| !v.shape.is_empty() && v.len() > 0, ty, 3);
        let d = self.make_static(d);
        let dv = self.vals[d].clone();
        let (o, s, st) = self.window(&dv.shape);
        let src = self.operand(dv.ty, &s);
        let src = self.make_static(src);
        let sv = self.vals[src].clone();
        let n = self.fresh("ins");
        self.line(&format!(
            "{n} = tensor.insert_slice {} into {}[{}] [{}] [{}] : {} into {}",
            sv.name,
            dv.name,
            Gen::list(&o),
            Gen::list(&s),
            Gen::list(&st),
            sv.ty_str(),
            dv.ty_str()
        ));
        self.push(
            n,
            dv.ty,
            dv.shape.clone(),
            vec![false; dv.shape.len()],
            Num::either(dv.num, sv.num),
        );
        true
    }

    fn concat(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let a = self.make_static(a);
        let av = self.vals[a].clone();
        let k = self.rng.below(av.shape.len());
        let mut bshape = av.shape.clone();
        bshape[k] = self.size();
        let mut shape = av.shape.clone();
        shape[k] += bshape[k];
        if shape.iter().product::<usize>() > MAX_ELEMS {
            return false;
        }
        let b = self.operand(av.ty, &bshape);
        let b = self.make_static(b);
        let bv = self.vals[b].clone();
        let t = tensor_ty(av.ty, &shape, &[]);
        let n = self.fresh("cat");
        self.line(&format!(
            "{n} = tensor.concat dim({k}) {}, {} : ({}, {}) -> {t}",
            av.name,
            bv.name,
            av.ty_str(),
            bv.ty_str()
        ));
        self.push(
            n,
            av.ty,
            shape.clone(),
            vec![false; shape.len()],
            Num::either(av.num, bv.num),
        );
        true
    }

    fn pad(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty(), ty, 3);
        let a = self.make_static(a);
        let av = self.vals[a].clone();
        let lo: Vec<usize> = av.shape.iter().map(|_| self.rng.below(3)).collect();
        let hi: Vec<usize> = av.shape.iter().map(|_| self.rng.below(3)).collect();
        let shape: Vec<usize> = (0..lo.len()).map(|i| av.shape[i] + lo[i] + hi[i]).collect();
        if shape.iter().product::<usize>() > MAX_ELEMS {
            return false;
        }
        let t = tensor_ty(av.ty, &shape, &[]);
        let n = self.fresh("pad");
        let region = self.pad_region(av.ty, shape.len());
        self.line(&format!(
            "{n} = tensor.pad {} low[{}] high[{}] {region} : {} to {t}",
            av.name,
            Gen::list(&lo),
            Gen::list(&hi),
            av.ty_str()
        ));
        let num = Num::either(av.num, Num::exact(3.0, 0));
        self.push(n, av.ty, shape.clone(), vec![false; shape.len()], num);
        true
    }

    /// A `tensor.pad` region of a rank-`rank` tensor of `ty`, yielding a
    /// drawn constant; its names are fresh (a value defined above the pad
    /// may not share them).
    fn pad_region(&mut self, ty: Ty, rank: usize) -> String {
        let v = if ty == Ty::I1 {
            1.0
        } else {
            self.rng.pick(&[0.0, 1.0, -3.0])
        };
        let idx: Vec<String> = (0..rank)
            .map(|i| format!("{}: index", self.fresh(&format!("p{i}_"))))
            .collect();
        let pv = self.fresh("pv");
        let tn = ty.name();
        format!(
            "{{\n  ^bb0({}):\n    {pv} = arith.constant {} : {tn}\n    tensor.yield {pv} : {tn}\n  }}",
            idx.join(", "),
            Gen::literal(ty, v)
        )
    }

    fn collapse(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| v.shape.len() >= 2, ty, 4);
        let a = self.make_static(a);
        let av = self.vals[a].clone();
        let rank = av.shape.len();
        // Consecutive groups: cut between dims at random, at least one
        // group of two.
        let mut groups: Vec<Vec<usize>> = vec![vec![0]];
        for i in 1..rank {
            if self.rng.chance(1, 2) {
                groups.push(vec![i]);
            } else {
                groups.last_mut().unwrap().push(i);
            }
        }
        if groups.len() == rank {
            let g = groups.pop().unwrap();
            groups.last_mut().unwrap().extend(g);
        }
        let shape: Vec<usize> = groups
            .iter()
            .map(|g| g.iter().map(|&i| av.shape[i]).product())
            .collect();
        let reass: Vec<String> = groups
            .iter()
            .map(|g| format!("[{}]", Gen::list(g)))
            .collect();
        let t = tensor_ty(av.ty, &shape, &[]);
        let n = self.fresh("col");
        self.line(&format!(
            "{n} = tensor.collapse_shape {} [{}] : {} into {t}",
            av.name,
            reass.join(", "),
            av.ty_str()
        ));
        self.push(n, av.ty, shape.clone(), vec![false; shape.len()], av.num);
        true
    }

    fn expand(&mut self) -> bool {
        let ty = self.rng.pick(&[self.ft, self.it, Ty::I1]);
        let a = self.any(|v| !v.shape.is_empty() && v.shape.len() <= 3, ty, 3);
        let a = self.make_static(a);
        let av = self.vals[a].clone();
        let k = self.rng.below(av.shape.len());
        let s = av.shape[k];
        if s == 0 {
            return false;
        }
        let divisors: Vec<usize> = (1..=s).filter(|d| s % d == 0).collect();
        let p = self.rng.pick(&divisors);
        let mut shape = Vec::new();
        let mut groups = Vec::new();
        for (i, &d) in av.shape.iter().enumerate() {
            if i == k {
                groups.push(vec![shape.len(), shape.len() + 1]);
                shape.push(p);
                shape.push(s / p);
            } else {
                groups.push(vec![shape.len()]);
                shape.push(d);
            }
        }
        let reass: Vec<String> = groups
            .iter()
            .map(|g| format!("[{}]", Gen::list(g)))
            .collect();
        let t = tensor_ty(av.ty, &shape, &[]);
        let n = self.fresh("exp");
        self.line(&format!(
            "{n} = tensor.expand_shape {} [{}] output_shape [{}] : {} into {t}",
            av.name,
            reass.join(", "),
            Gen::list(&shape),
            av.ty_str()
        ));
        self.push(n, av.ty, shape.clone(), vec![false; shape.len()], av.num);
        true
    }

    /// The function: results are the values no op reads (the last one
    /// first, at most four), so no op is dead code.
    fn finish(mut self) -> Program {
        let computed: Vec<usize> = (0..self.vals.len())
            .filter(|&i| !self.vals[i].is_arg)
            .collect();
        let last = *computed.last().expect("at least one op");
        let mut results = vec![last];
        for &v in computed.iter().rev() {
            if results.len() < 4
                && !results.contains(&v)
                && uses(&self.body, &self.vals[v].name) == 1
            {
                results.push(v);
            }
        }
        if results.len() == 1 && self.rng.chance(1, 2) {
            let v = self.rng.pick(&computed);
            if !results.contains(&v) {
                results.push(v);
            }
        }
        self.write_index_arg();
        let names: Vec<String> = results.iter().map(|&v| self.vals[v].name.clone()).collect();
        let tys: Vec<String> = results.iter().map(|&v| self.vals[v].ty_str()).collect();
        let mut text = format!(
            "func.func @main({}) -> ({}) {{\n",
            self.params.join(", "),
            tys.join(", ")
        );
        text.push_str(&self.body);
        let _ = writeln!(
            text,
            "  return {} : {}\n}}",
            names.join(", "),
            tys.join(", ")
        );
        Program {
            text,
            params: self
                .params
                .iter()
                .map(|p| {
                    let (n, t) = p.split_once(": ").expect("name: type");
                    (n.to_string(), t.to_string())
                })
                .collect(),
            body: self.body,
            returns: names.into_iter().zip(tys).collect(),
            inputs: self.inputs,
            results: results
                .iter()
                .map(|&v| (self.vals[v].ty, self.vals[v].num))
                .collect(),
            fault: self.fault,
            extras: self.drawn,
        }
    }
}
