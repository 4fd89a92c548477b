//! `Einsum`: the equation becomes one `linalg.generic` whose loops are the
//! output's letters then the summed ones, each operand read through the
//! map of its letters (a repeated letter reads a diagonal), the body the
//! product of the operands added to the accumulator. `...` stands for the
//! leading dims (the same for every operand that has it).

use kiln_core::tensor::attr::{IteratorType, ScalarBits};
use kiln_core::tensor::{AffineExpr, AffineMap, Dim};

use super::scalar::{arith, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// The letters of one term, `...` expanded to `rank - letters` capitals.
fn expand(
    n: &Node<'_>,
    term: &str,
    rank: Option<usize>,
    ell: &mut Option<usize>,
) -> Result<Vec<char>, OnnxError> {
    let explicit = term.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let mut out = Vec::new();
    if let Some(pos) = term.find("...") {
        let k = match rank {
            Some(r) => r.checked_sub(explicit).ok_or_else(|| {
                n.err(format!(
                    "term {term:?} has more letters than its operand dims"
                ))
            })?,
            None => ell.unwrap_or(0),
        };
        if rank.is_some() {
            *ell = Some(ell.map_or(k, |e| e.max(k)));
        }
        out.extend(term[..pos].chars());
        out.extend((0..k).map(|i| (b'A' + i as u8) as char));
        out.extend(term[pos + 3..].chars());
    } else {
        out.extend(term.chars());
    }
    if out.iter().any(|c| !c.is_ascii_alphabetic()) {
        return Err(n.err(format!("term {term:?} is not letters and `...`")));
    }
    Ok(out)
}

/// `Einsum(equation)`.
pub fn einsum(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let eq: String = n
        .string("equation", "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let ins: Vec<&Value> = (0..n.inputs.len()).filter_map(|i| n.opt_input(i)).collect();
    let first = ins.first().ok_or_else(|| n.err("no operands"))?;
    let dt = first.dtype;
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_owned(), Some(r.to_owned())),
        None => (eq.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != ins.len() {
        return Err(n.err(format!(
            "equation {eq:?} has {} terms for {} operands",
            terms.len(),
            ins.len()
        )));
    }
    let mut ell = None;
    let mut letters: Vec<Vec<char>> = Vec::new();
    let mut size: std::collections::BTreeMap<char, u64> = Default::default();
    for (t, v) in terms.iter().zip(&ins) {
        let s = v
            .static_shape()
            .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
        let l = expand(n, t, Some(s.len()), &mut ell)?;
        if l.len() != s.len() {
            return Err(n.err(format!("term {t:?} for an operand of rank {}", s.len())));
        }
        for (&ch, &d) in l.iter().zip(&s) {
            match size.get(&ch) {
                Some(&e) if e != d && e != 1 && d != 1 => {
                    return Err(n.err(format!("letter {ch} is {e} and {d}")))
                }
                Some(&e) if e >= d => {}
                _ => {
                    size.insert(ch, d);
                }
            }
        }
        letters.push(l);
    }
    let out: Vec<char> = match rhs {
        Some(r) => expand(n, &r, None, &mut ell)?,
        None => {
            let caps: Vec<char> = (0..ell.unwrap_or(0))
                .map(|i| (b'A' + i as u8) as char)
                .collect();
            let mut once: Vec<char> = size
                .keys()
                .filter(|ch| {
                    ch.is_ascii_lowercase()
                        && letters.iter().flatten().filter(|x| x == ch).count() == 1
                })
                .copied()
                .collect();
            once.sort_unstable();
            caps.into_iter().chain(once).collect()
        }
    };
    let mut loops = out.clone();
    for l in letters.iter().flatten() {
        if !loops.contains(l) {
            loops.push(*l);
        }
    }
    let pos = |ch: char| loops.iter().position(|&x| x == ch);
    let nl = loops.len() as u32;
    let mut maps = Vec::new();
    let mut operands = Vec::new();
    for (l, v) in letters.iter().zip(&ins) {
        let s = v.static_shape().unwrap_or_default();
        // A broadcast (size-1) dim reads index 0.
        let exprs = l
            .iter()
            .zip(&s)
            .map(|(&ch, &d)| {
                if d == 1 && size[&ch] != 1 {
                    AffineExpr::Const(0)
                } else {
                    AffineExpr::Dim(pos(ch).expect("every letter is a loop") as u32)
                }
            })
            .collect();
        maps.push(AffineMap::new(nl, 0, exprs));
        operands.push(c.ssa(v));
    }
    let out_shape: Vec<u64> = out
        .iter()
        .map(|ch| {
            size.get(ch)
                .copied()
                .ok_or_else(|| n.err(format!("output letter {ch} is on no operand")))
        })
        .collect::<Result<_, _>>()?;
    maps.push(AffineMap::new(
        nl,
        0,
        (0..out.len()).map(|i| AffineExpr::Dim(i as u32)).collect(),
    ));
    let mut iters = vec![IteratorType::Parallel; out.len()];
    iters.extend(vec![IteratorType::Reduction; loops.len() - out.len()]);
    let zero = if dt.is_float() {
        ScalarBits::Float(0.0)
    } else {
        ScalarBits::Int(0)
    };
    let acc = c.full(&out_shape, dt, zero);
    let k = operands.len();
    let r = c.b.generic(maps, iters, &operands, &[acc], |bb, args| {
        let mut p = args[0];
        for &a in &args[1..k] {
            p = arith(bb, dt, Bin::Mul, p, a);
        }
        vec![arith(bb, dt, Bin::Add, p, args[k])]
    });
    Ok(vec![Value::computed(
        r[0],
        dt,
        out_shape.iter().map(|&d| Dim::Static(d)).collect(),
    )])
}
