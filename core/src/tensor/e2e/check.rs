//! The checks of IREE's `check` dialect, with iree-check-module's messages.
//!
//! * `expect_true` / `expect_false`: the integer is nonzero / zero.
//! * `expect_eq` / `expect_eq_const`: same shape and bitwise-equal
//!   elements (IREE compares the bytes: `-0.0 != 0.0`, equal NaNs are equal).
//! * `expect_almost_eq` / `expect_almost_eq_const`: same shape, and for
//!   every element, with `lhs` the computed and `rhs` the expected value
//!   (f16/bf16 read as f32, then compared in f64):
//!   `lhs == rhs || both NaN || (isfinite(rhs) && |lhs - rhs| <= atol + rtol * |rhs|)`,
//!   defaults `atol = 1e-4`, `rtol = 0` (IREE's `iree_math_fuzzy_compare_f64`).
//!
//! Failure messages are IREE's; for `expect_eq` kiln adds the first
//! differing index with both values (IREE prints only the two tensors).

use super::format::{buffer_view, element, fmt_e3, fmt_g};
use crate::tensor::eval::{Scalar, Tensor};

/// Why `expect_true` / `expect_false` failed, if it did.
pub fn truth(value: i64, expect_true: bool) -> Option<String> {
    match (expect_true, value != 0) {
        (true, false) => Some(format!("Expected {value} to be nonzero.")),
        (false, true) => Some(format!("Expected {value} to be zero.")),
        _ => None,
    }
}

fn views(lhs: &Tensor, rhs: &Tensor) -> String {
    format!(
        "\n  lhs:\n    {}\n  rhs:\n    {}",
        buffer_view(lhs),
        buffer_view(rhs)
    )
}

/// Why `expect_eq` failed, if it did.
pub fn equal(lhs: &Tensor, rhs: &Tensor) -> Option<String> {
    let mut msg = String::from("Expected equality of these values.");
    if lhs.elem != rhs.elem {
        msg.push_str(" Element types do not match.");
    }
    if lhs.shape != rhs.shape {
        msg.push_str(" Shapes do not match.");
    }
    let first = if lhs.elem == rhs.elem && lhs.shape == rhs.shape {
        (0..lhs.len()).find(|&i| lhs.data.element_bytes(i) != rhs.data.element_bytes(i))
    } else {
        None
    };
    if lhs.elem == rhs.elem && lhs.shape == rhs.shape && first.is_none() {
        return None;
    }
    if let Some(i) = first {
        msg.push_str(&format!(
            " Contents does not match. The first failure occurs at index {i} as the lhs value {} differs from the rhs value {}.",
            element(lhs, i),
            element(rhs, i)
        ));
    }
    msg.push_str(&views(lhs, rhs));
    Some(msg)
}

/// IREE's fuzzy comparison.
pub fn fuzzy(actual: f64, expected: f64, atol: f64, rtol: f64) -> bool {
    if actual == expected || (actual.is_nan() && expected.is_nan()) {
        return true;
    }
    if !expected.is_finite() {
        return false;
    }
    (actual - expected).abs() <= atol + rtol * expected.abs()
}

/// Why `expect_almost_eq` failed, if it did.
pub fn almost_equal(lhs: &Tensor, rhs: &Tensor, atol: f32, rtol: f32) -> Option<String> {
    let mut msg = String::from("Expected near equality of these values.");
    if lhs.elem != rhs.elem {
        msg.push_str(" Element types do not match.");
    }
    if lhs.shape != rhs.shape {
        msg.push_str(" Shapes do not match.");
    }
    let comparable = lhs.elem == rhs.elem && lhs.shape == rhs.shape;
    let value = |t: &Tensor, i: usize| match t.get(i) {
        Scalar::Float(f) => f,
        Scalar::Int(v) => v as f64,
    };
    let first = if comparable {
        (0..lhs.len()).find(|&i| {
            !fuzzy(
                value(lhs, i),
                value(rhs, i),
                f64::from(atol),
                f64::from(rtol),
            )
        })
    } else {
        None
    };
    if comparable && first.is_none() {
        return None;
    }
    if let Some(i) = first {
        let (l, r) = (value(lhs, i), value(rhs, i));
        msg.push_str(&format!(
            " Contents does not match to tolerance parameters atol={}, rtol={}. The first failure occurs at index {i} as the lhs value {} differs from the rhs value {} by {}.",
            fmt_g(f64::from(atol), 6, false),
            fmt_g(f64::from(rtol), 6, false),
            fmt_g(l, 6, false),
            fmt_g(r, 6, false),
            fmt_e3(r - l)
        ));
    }
    msg.push_str(&views(lhs, rhs));
    Some(msg)
}
