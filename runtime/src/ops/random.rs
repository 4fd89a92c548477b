//! Counter-based random numbers: [`random_bits`], [`rand`] and
//! [`dropout`], from Philox4x32-10 (Salmon et al., "Parallel random
//! numbers: as easy as 1, 2, 3", SC'11; the generator of cuRAND's and
//! PyTorch's GPU random numbers, and of JAX's).
//!
//! Element `i` (row-major) of a result is word `i % 4` of Philox4x32-10
//! with key `(lo(seed), hi(seed))` at counter
//! `(lo(c), hi(c), lo(subsequence), hi(subsequence))`, `c = offset + i / 4`
//! (cuRAND's `curand_init(seed, subsequence, offset)` layout, the offset in
//! blocks of four words). Nothing depends on the device, the launch or the
//! order of calls: the same [`Philox`] key gives the same numbers on every
//! device and in kiln-core's reference evaluator, and successive draws
//! move `offset` on ([`Philox::advance`]). The key is a program argument,
//! so a new seed compiles nothing.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{need_float, shape_error, Func, Operand};

/// Where a draw starts in Philox4x32-10's stream (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Philox {
    /// The key (the seed).
    pub seed: u64,
    /// The counter's high half (independent streams of one seed).
    pub subsequence: u64,
    /// The counter's low half at element 0, in blocks of four words.
    pub offset: u64,
}

impl Philox {
    /// The key of seed `seed`, at the start of subsequence 0.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            subsequence: 0,
            offset: 0,
        }
    }

    /// The key of the draw after one of `n` elements from this one.
    pub fn advance(self, n: usize) -> Self {
        Self {
            offset: self.offset.wrapping_add((n as u64).div_ceil(4)),
            ..self
        }
    }

    /// The six words a program takes: key, counter base (low, high), the
    /// subsequence (low, high).
    fn words(&self) -> [i32; 6] {
        let w = |v: u64, hi: bool| (if hi { v >> 32 } else { v & 0xFFFF_FFFF }) as u32 as i32;
        [
            w(self.seed, false),
            w(self.seed, true),
            w(self.offset, false),
            w(self.offset, true),
            w(self.subsequence, false),
            w(self.subsequence, true),
        ]
    }
}

/// What a random program computes from each 32-bit word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Draw {
    /// The word itself (`i32`).
    Bits,
    /// Uniform in `[0, 1)`.
    Uniform,
    /// `x` kept (scaled by `1 / (1 - p)`) where the uniform draw is at
    /// least `p`, else 0.
    Dropout,
}

/// `i32` words of Philox4x32-10 (see the module docs), of `shape`.
pub fn random_bits(stream: &Stream, shape: &[usize], key: Philox) -> Result<Tensor> {
    draw(
        stream,
        "ops::random_bits",
        Draw::Bits,
        DType::I32,
        shape,
        None,
        key,
        0.0,
    )
}

/// Uniform numbers in `[0, 1)` of float `dtype` and `shape`: the top 24
/// bits of each word (11 for f16, 8 for bf16, so that no value rounds to
/// 1) times 2^-24 (2^-11, 2^-8).
pub fn rand(stream: &Stream, shape: &[usize], dtype: DType, key: Philox) -> Result<Tensor> {
    need_float("ops::rand", dtype)?;
    draw(
        stream,
        "ops::rand",
        Draw::Uniform,
        dtype,
        shape,
        None,
        key,
        0.0,
    )
}

/// Dropout: each element of `x` (a float tensor) is zeroed where its
/// uniform f32 draw (as [`rand`] gives for f32, whatever `x`'s type) is
/// below `p`, and otherwise scaled by `1 / (1 - p)` (computed in f32). `p`
/// in `[0, 1]`; `p = 1` zeroes everything.
pub fn dropout(stream: &Stream, x: &Tensor, p: f64, key: Philox) -> Result<Tensor> {
    let what = "ops::dropout";
    need_float(what, x.dtype())?;
    if !(0.0..=1.0).contains(&p) {
        return Err(shape_error(what, format!("p = {p} is outside [0, 1]")));
    }
    let flat = x.contiguous()?;
    let flat = flat.reshape(&[x.numel()])?;
    draw(
        stream,
        what,
        Draw::Dropout,
        x.dtype(),
        x.shape(),
        Some(&flat),
        key,
        p,
    )
}

#[allow(clippy::too_many_arguments)]
fn draw(
    stream: &Stream,
    what: &'static str,
    kind: Draw,
    dtype: DType,
    shape: &[usize],
    x: Option<&Tensor>,
    key: Philox,
    p: f64,
) -> Result<Tensor> {
    let n: usize = shape.iter().product();
    let device = stream.device();
    if n == 0 {
        return Tensor::empty(&device, dtype, shape);
    }
    let mut words = key.words().to_vec();
    if kind == Draw::Dropout {
        // p and the scale, as f32 bits.
        let keep = if p >= 1.0 { 0.0 } else { 1.0 / (1.0 - p) };
        words.push((p as f32).to_bits() as i32);
        words.push((keep as f32).to_bits() as i32);
    }
    let params = Tensor::from_slice(&device, &words, &[words.len()])?;
    // The size's carrier: x itself, or n bytes whose values are unused.
    let like = match x {
        Some(x) => x.clone(),
        None => Tensor::empty(&device, DType::I8, &[n])?,
    };
    let count = words.len();
    let text = || Ok(program(what, kind, dtype, like.dtype(), count));
    let y = single(cache::run_keyed(
        stream,
        what,
        &[dtype as u64],
        &[&params, &like],
        text,
    )?)?;
    y.reshape(shape)
}

/// Philox4x32-10's multipliers and key increments.
const M: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
const W: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

/// The program `@name(params: tensor<count x i32>, like: tensor<?x T>)`.
fn program(what: &'static str, kind: Draw, dtype: DType, like: DType, count: usize) -> String {
    let mut f = Func::new(super::elementwise::fname(what));
    let p_ty = format!("tensor<{count}xi32>");
    let pa = f.arg(&p_ty);
    let l_ty = format!("tensor<?x{}>", like.name());
    let la = f.arg(&l_ty);
    let n = f.dim(&la, &l_ty, 0);
    let elem = dtype.name();
    let init = f.empty_dims(std::slice::from_ref(&n), elem, None);
    let out_ty = super::text::dims_ty(std::slice::from_ref(&n), elem);
    let ins = if kind == Draw::Dropout {
        vec![Operand {
            value: la.clone(),
            ty: l_ty.clone(),
            elem: like.name().to_owned(),
            map: super::text::identity(1),
        }]
    } else {
        Vec::new()
    };
    let out = Operand {
        value: init,
        ty: out_ty.clone(),
        elem: elem.to_owned(),
        map: super::text::identity(1),
    };
    let y = f.generic(&ins, &out, &["parallel"], |f, args| {
        let param = |f: &mut Func, k: usize| {
            let c = f.constant(&k.to_string(), "index");
            f.let_(&format!("tensor.extract {pa}[{c}] : {p_ty}"))
        };
        let i = f.let_("linalg.index 0 : index");
        let i64v = f.let_(&format!("arith.index_cast {i} : index to i64"));
        let two = f.constant("2", "i64");
        let block = f.let_(&format!("arith.shrui {i64v}, {two} : i64"));
        let three = f.constant("3", "i64");
        let lane = f.let_(&format!("arith.andi {i64v}, {three} : i64"));
        let k0 = param(f, 0);
        let k1 = param(f, 1);
        let b_lo = param(f, 2);
        let b_hi = param(f, 3);
        let c2 = param(f, 4);
        let c3 = param(f, 5);
        // c = offset + i / 4 (64-bit).
        let lo64 = f.let_(&format!("arith.extui {b_lo} : i32 to i64"));
        let hi64 = f.let_(&format!("arith.extui {b_hi} : i32 to i64"));
        let s32 = f.constant("32", "i64");
        let hi_sh = f.let_(&format!("arith.shli {hi64}, {s32} : i64"));
        let base = f.let_(&format!("arith.ori {hi_sh}, {lo64} : i64"));
        let c = f.let_(&format!("arith.addi {base}, {block} : i64"));
        let c0 = f.let_(&format!("arith.trunci {c} : i64 to i32"));
        let c_hi = f.let_(&format!("arith.shrui {c}, {s32} : i64"));
        let c1 = f.let_(&format!("arith.trunci {c_hi} : i64 to i32"));
        let mut ctr = [c0, c1, c2, c3];
        let mut key = [k0, k1];
        let m: Vec<String> = M
            .iter()
            .map(|&v| f.constant(&u64::from(v).to_string(), "i64"))
            .collect();
        let w: Vec<String> = W
            .iter()
            .map(|&v| f.constant(&(v as i32).to_string(), "i32"))
            .collect();
        for round in 0..10 {
            if round > 0 {
                for (k, w) in key.iter_mut().zip(&w) {
                    *k = f.let_(&format!("arith.addi {k}, {w} : i32"));
                }
            }
            let mulhilo = |f: &mut Func, m: &str, c: &str| {
                let c64 = f.let_(&format!("arith.extui {c} : i32 to i64"));
                let prod = f.let_(&format!("arith.muli {m}, {c64} : i64"));
                let lo = f.let_(&format!("arith.trunci {prod} : i64 to i32"));
                let h = f.let_(&format!("arith.shrui {prod}, {s32} : i64"));
                let hi = f.let_(&format!("arith.trunci {h} : i64 to i32"));
                (hi, lo)
            };
            let (hi0, lo0) = mulhilo(f, &m[0], &ctr[0]);
            let (hi1, lo1) = mulhilo(f, &m[1], &ctr[2]);
            let x0 = f.let_(&format!("arith.xori {hi1}, {} : i32", ctr[1]));
            let n0 = f.let_(&format!("arith.xori {x0}, {} : i32", key[0]));
            let x2 = f.let_(&format!("arith.xori {hi0}, {} : i32", ctr[3]));
            let n2 = f.let_(&format!("arith.xori {x2}, {} : i32", key[1]));
            ctr = [n0, lo1, n2, lo0];
        }
        // Word `lane` of the block.
        let mut word = ctr[3].clone();
        for l in (0..3).rev() {
            let lc = f.constant(&l.to_string(), "i64");
            let is = f.let_(&format!("arith.cmpi eq, {lane}, {lc} : i64"));
            word = f.let_(&format!("arith.select {is}, {}, {word} : i32", ctr[l]));
        }
        match kind {
            Draw::Bits => word,
            Draw::Uniform | Draw::Dropout => {
                let bits = match (kind, dtype) {
                    (Draw::Uniform, DType::F16) => 11,
                    (Draw::Uniform, DType::BF16) => 8,
                    _ => 24,
                };
                let sh = f.constant(&(32 - bits).to_string(), "i32");
                let top = f.let_(&format!("arith.shrui {word}, {sh} : i32"));
                let fl = f.let_(&format!("arith.sitofp {top} : i32 to f32"));
                let scale = f.f32(1.0 / (1u64 << bits) as f32);
                let u = f.let_(&format!("arith.mulf {fl}, {scale} : f32"));
                if kind == Draw::Uniform {
                    return f.narrow(&u, dtype);
                }
                let pb = param(f, 6);
                let pf = f.let_(&format!("arith.bitcast {pb} : i32 to f32"));
                let sb = param(f, 7);
                let sf = f.let_(&format!("arith.bitcast {sb} : i32 to f32"));
                let keep = f.let_(&format!("arith.cmpf oge, {u}, {pf} : f32"));
                let xv = f.widen(&args[0], dtype);
                let scaled = f.let_(&format!("arith.mulf {xv}, {sf} : f32"));
                let zero = f.f32(0.0);
                let r = f.let_(&format!("arith.select {keep}, {scaled}, {zero} : f32"));
                f.narrow(&r, dtype)
            }
        }
    });
    f.finish(&[(y, out_ty)])
}
