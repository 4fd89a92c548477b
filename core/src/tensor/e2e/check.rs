//! The checks of IREE's `check` dialect, with iree-check-module's messages.
//!
//! * `expect_true` / `expect_false`: the integer is nonzero / zero.
//! * `expect_eq` / `expect_eq_const`: same shape and bitwise-equal
//!   elements (IREE compares the bytes: `-0.0 != 0.0`), except that any
//!   two NaNs are equal: IEEE 754 leaves the sign and payload of a NaN
//!   result unspecified and devices differ (an H200 gives f16 `0x7FFF`
//!   where lavapipe gives `0x7E00`), so IREE's byte compare would make a
//!   test's verdict depend on the device.
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
        (0..lhs.len()).find(|&i| {
            lhs.data.element_bytes(i) != rhs.data.element_bytes(i) && !both_nan(lhs, rhs, i)
        })
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

/// Whether element `i` of both tensors is a NaN (of any sign and payload).
fn both_nan(lhs: &Tensor, rhs: &Tensor, i: usize) -> bool {
    let nan = |t: &Tensor| matches!(t.get(i), Scalar::Float(f) if f.is_nan());
    nan(lhs) && nan(rhs)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::attr::Elements;
    use crate::tensor::ElemType;

    fn f16s(bits: &[u16]) -> Tensor {
        Tensor {
            elem: ElemType::F16,
            shape: vec![bits.len()],
            data: Elements::F16(bits.to_vec()),
        }
    }

    #[test]
    fn nans_of_any_payload_are_equal_and_signed_zeros_are_not() {
        // lavapipe's f16 NaN against an H200's and a negative one.
        assert_eq!(
            equal(&f16s(&[0x7E00, 0x3C00]), &f16s(&[0x7FFF, 0x3C00])),
            None
        );
        assert_eq!(equal(&f16s(&[0xFE00]), &f16s(&[0x7E00])), None);
        let zeros = equal(&f16s(&[0x8000]), &f16s(&[0x0000])).expect("-0 is not +0");
        assert!(zeros.contains("index 0"), "{zeros}");
        let nan_one = equal(&f16s(&[0x7E00]), &f16s(&[0x3C00])).expect("NaN is not 1");
        assert!(nan_one.contains("index 0"), "{nan_one}");
    }
}
