//! Number and tensor text as iree-check-module prints it: C's `%g`/`%G`
//! (what `std::ostream << double` and IREE's buffer-view formatter use),
//! `%.3e`, and buffer views (`2x2xf32=[1 2][3 4]`).

use crate::tensor::eval::{Scalar, Tensor};
use crate::tensor::types::ElemType;

/// C's `%.{precision}g` (`%G` when `upper`).
pub fn fmt_g(v: f64, precision: usize, upper: bool) -> String {
    let p = precision.max(1);
    let s = if v.is_nan() {
        if v.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        }
    } else if v.is_infinite() {
        if v < 0.0 {
            "-inf".into()
        } else {
            "inf".into()
        }
    } else if v == 0.0 {
        if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        }
    } else {
        // The exponent after rounding to p significant digits.
        let sci = format!("{:.*e}", p - 1, v);
        let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let x: i32 = exp.parse().unwrap_or(0);
        if x < -4 || x >= p as i32 {
            let mant = strip_zeros(mant);
            format!("{mant}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
        } else {
            let decimals = (p as i32 - 1 - x).max(0) as usize;
            strip_zeros(&format!("{v:.decimals$}"))
        }
    };
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

fn strip_zeros(s: &str) -> String {
    if !s.contains('.') {
        return s.to_string();
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// C's `%.3e` (`std::scientific` with precision 3).
pub fn fmt_e3(v: f64) -> String {
    if !v.is_finite() {
        return fmt_g(v, 6, false);
    }
    let s = format!("{v:.3e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    format!("{mant}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
}

/// The element type's name in IREE's buffer views (`index` is i64 there).
pub fn elem_name(e: ElemType) -> String {
    match e {
        ElemType::Index => "i64".into(),
        other => other.name(),
    }
}

/// One element as IREE's buffer-view formatter prints it (`%G` for
/// floats, decimal integers, 0/1 for `i1`).
pub fn element(t: &Tensor, i: usize) -> String {
    match t.get(i) {
        Scalar::Float(f) => fmt_g(f, 6, true),
        Scalar::Int(v) if t.elem == ElemType::I1 => (v & 1).to_string(),
        Scalar::Int(v) => v.to_string(),
    }
}

/// A tensor as IREE prints a buffer view: `2x3xf32=[1 2 3][4 5 6]`, at
/// most 1024 elements (then `...`).
pub fn buffer_view(t: &Tensor) -> String {
    let mut s: String = t.shape.iter().map(|d| format!("{d}x")).collect();
    s.push_str(&elem_name(t.elem));
    s.push('=');
    let mut budget = 1024usize;
    let mut next = 0usize;
    let shape: Vec<usize> = if t.shape.is_empty() {
        vec![1]
    } else {
        t.shape.clone()
    };
    rec(&mut s, t, &shape, &mut next, &mut budget);
    s
}

fn rec(s: &mut String, t: &Tensor, shape: &[usize], next: &mut usize, budget: &mut usize) {
    if shape.len() > 1 {
        let inner: usize = shape[1..].iter().product();
        for _ in 0..shape[0] {
            s.push('[');
            let start = *next;
            rec(s, t, &shape[1..], next, budget);
            *next = start + inner;
            s.push(']');
        }
        return;
    }
    let count = shape[0].min(*budget);
    *budget -= count;
    for i in 0..count {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&element(t, *next + i));
    }
    if count < shape[0] {
        s.push_str("...");
    }
    *next += shape[0];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_g() {
        // Values and texts of C's printf("%g").
        assert_eq!(fmt_g(1.0, 6, false), "1");
        assert_eq!(fmt_g(0.999, 6, false), "0.999");
        assert_eq!(fmt_g(0.0110016, 6, false), "0.0110016");
        assert_eq!(fmt_g(0.0001, 6, false), "0.0001");
        assert_eq!(fmt_g(1e-5, 6, true), "1E-05");
        assert_eq!(fmt_g(123456789.0, 6, false), "1.23457e+08");
        assert_eq!(fmt_g(100000.0, 6, false), "100000");
        assert_eq!(fmt_g(1000000.0, 6, false), "1e+06");
        assert_eq!(fmt_g(-2.5, 6, false), "-2.5");
        assert_eq!(fmt_g(f64::INFINITY, 6, true), "INF");
        assert_eq!(fmt_e3(-1e-3), "-1.000e-03");
        assert_eq!(fmt_e3(0.011), "1.100e-02");
        assert_eq!(fmt_e3(-2.0), "-2.000e+00");
    }
}
