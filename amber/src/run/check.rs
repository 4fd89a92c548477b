//! Expectations: `EXPECT ... IDX` value checks and whole-buffer
//! comparisons, over a buffer's bytes.
//!
//! Semantics (google/amber's verifier, except where noted):
//! - `IDX` is a byte offset, a multiple of the element stride; the values
//!   are the components from there on, element after element, padding
//!   skipped.
//! - Integers compare exactly in their type's range (an expected `-1` and
//!   `0xffffffff` are the same `uint32`); `LT LE GT GE` compare signed
//!   types as signed.
//! - Floats: the expected value is first rounded to the component's type
//!   (Amber rounds `float16` expectations to `float` only). `EQ` holds
//!   within a relative 1e-8 (Amber's 0.000001 %), `NE` when `EQ` does
//!   not; NaN equals NaN. `EQ` with `TOLERANCE t` holds when
//!   `|actual - expected| <= t`, or `t / 100 * |expected|` for `t%`; the
//!   first tolerance applies to every value, as in Amber. Orderings with
//!   a NaN fail (Amber lets `LT` pass).
//! - `EQ_BUFFER`: every component of the two buffers has the same bits
//!   (padding is not compared).
//! - `RMSE_BUFFER`: the root mean square of the component differences is
//!   at most the tolerance.
//! - `EQ_HISTOGRAM_EMD_BUFFER`: for 8-bit unsigned components, per channel
//!   (component index) the histograms of the two buffers, each normalized
//!   by its element count, are compared by earth mover's distance (the
//!   summed absolute running difference over the 256 bins, divided by
//!   256); the largest over the channels must be at most the tolerance.
//!   Amber asks for exactly four channels; kiln takes any number.
//!
//! A failure names the line, the value's index and byte offset, the
//! expected and the actual value.

use crate::layout::ElementLayout;
use crate::script::{Buffer, BufferComparison, Comparator, Expect, Tolerance};
use crate::types::{Scalar, Value};

/// Amber's default relative tolerance for float `EQ`, in percent.
const EPSILON_PERCENT: f64 = 0.000001;

/// A value as it reads in messages: floats in their own precision's
/// shortest form.
fn show(scalar: Scalar, v: Value) -> String {
    match (scalar, v) {
        (Scalar::F16 | Scalar::F32, Value::Float(f)) => (f as f32).to_string(),
        _ => v.to_string(),
    }
}

fn close(actual: f64, expected: f64, tol: f64, percent: bool) -> bool {
    if actual.is_nan() || expected.is_nan() {
        return actual.is_nan() && expected.is_nan();
    }
    if actual == expected {
        return true;
    }
    let limit = if percent {
        tol / 100.0 * expected.abs()
    } else {
        tol
    };
    (actual - expected).abs() <= limit
}

/// Whether `actual` satisfies `cmp expected` for a `scalar` component.
fn holds(
    scalar: Scalar,
    cmp: Comparator,
    tol: Option<Tolerance>,
    expected: Value,
    actual: Value,
) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (order, equal) = if scalar.is_float() {
        let e = scalar.round_float(expected.as_f64());
        let a = actual.as_f64();
        let equal = match tol {
            Some(t) => close(a, e, t.value, t.percent),
            None => close(a, e, EPSILON_PERCENT, true),
        };
        (a.partial_cmp(&e), equal)
    } else {
        let e = match expected {
            Value::Int(v) => scalar.normalize(v),
            Value::Float(f) => f as i128,
        };
        let a = match actual {
            Value::Int(v) => v,
            Value::Float(f) => f as i128,
        };
        let equal = match tol {
            Some(t) => close(a as f64, e as f64, t.value, t.percent),
            None => a == e,
        };
        (Some(a.cmp(&e)), equal)
    };
    match cmp {
        Comparator::Eq => equal,
        Comparator::Ne => !equal,
        Comparator::Lt => order == Some(Less),
        Comparator::Le => matches!(order, Some(Less | Equal)),
        Comparator::Gt => order == Some(Greater),
        Comparator::Ge => matches!(order, Some(Greater | Equal)),
    }
}

/// How the expectation of one value reads: `7`, `!= 7`, `< 7`,
/// `7 ± 0.5`, `7 ± 1%`.
fn expectation(scalar: Scalar, cmp: Comparator, tol: Option<Tolerance>, expected: Value) -> String {
    let v = match (scalar.is_float(), expected) {
        (false, Value::Int(i)) => Value::Int(scalar.normalize(i)),
        _ => expected,
    };
    let v = show(scalar, v);
    match (cmp, tol) {
        (Comparator::Eq, Some(t)) => {
            format!("{v} ± {}{}", t.value, if t.percent { "%" } else { "" })
        }
        (Comparator::Eq, None) => v,
        (Comparator::Ne, _) => format!("!= {v}"),
        (Comparator::Lt, _) => format!("< {v}"),
        (Comparator::Le, _) => format!("<= {v}"),
        (Comparator::Gt, _) => format!("> {v}"),
        (Comparator::Ge, _) => format!(">= {v}"),
    }
}

/// Checks `e` against `bytes`, the current contents of `buffer`.
pub(crate) fn expect(e: &Expect, buffer: &Buffer, bytes: &[u8]) -> Result<(), String> {
    let layout = &buffer.layout;
    let what = format!(
        "EXPECT {} IDX {} {}",
        buffer.name,
        e.offset,
        e.comparator.keyword()
    );
    if e.offset % layout.stride != 0 {
        return Err(format!(
            "{what}: IDX {} is not a multiple of the {}-byte element size of {}",
            e.offset, layout.stride, buffer.ty
        ));
    }
    let scalar = layout.scalar;
    let size = scalar.size();
    let tol = e.tolerances.first().copied();
    for (i, &expected) in e.values.iter().enumerate() {
        let at = e.offset.saturating_add(layout.value_offset(i as u64));
        let Some(raw) = at
            .checked_add(size)
            .filter(|&end| end <= bytes.len() as u64)
            .map(|end| &bytes[at as usize..end as usize])
        else {
            return Err(format!(
                "{what}: value {i} would be at byte {at}, past the end of the {}-byte buffer",
                bytes.len()
            ));
        };
        let actual = scalar.decode(raw);
        if !holds(scalar, e.comparator, tol, expected, actual) {
            return Err(format!(
                "{what}: value {i} (byte {at}): expected {}, got {}",
                expectation(scalar, e.comparator, tol, expected),
                show(scalar, actual)
            ));
        }
    }
    Ok(())
}

/// Every component of a buffer of `len` bytes, with its byte offset.
fn components(layout: &ElementLayout, len: usize) -> impl Iterator<Item = (u64, usize)> + '_ {
    let size = layout.scalar.size() as usize;
    let elements = len as u64 / layout.stride;
    let per = layout.offsets.len() as u64;
    (0..elements * per).map(move |i| (layout.value_offset(i), size))
}

/// Compares `actual` (bytes `a`) with `expected` (bytes `b`).
pub(crate) fn compare_buffers(
    comparison: BufferComparison,
    actual: &Buffer,
    a: &[u8],
    expected: &Buffer,
    b: &[u8],
) -> Result<(), String> {
    let kw = match comparison {
        BufferComparison::Equal => "EQ_BUFFER",
        BufferComparison::Rmse(_) => "RMSE_BUFFER",
        BufferComparison::HistogramEmd(_) => "EQ_HISTOGRAM_EMD_BUFFER",
    };
    let what = format!("EXPECT {} {kw} {}", actual.name, expected.name);
    if actual.ty != expected.ty || actual.packing != expected.packing {
        return Err(format!(
            "{what}: the buffers have different types ({} and {})",
            actual.ty, expected.ty
        ));
    }
    if a.len() != b.len() {
        return Err(format!(
            "{what}: the buffers have different sizes ({} and {} bytes)",
            a.len(),
            b.len()
        ));
    }
    let layout = &actual.layout;
    let scalar = layout.scalar;
    let value =
        |bytes: &[u8], at: u64, size: usize| scalar.decode(&bytes[at as usize..at as usize + size]);
    match comparison {
        BufferComparison::Equal => {
            let mut first = None;
            let mut differ = 0usize;
            let mut total = 0usize;
            for (i, (at, size)) in components(layout, a.len()).enumerate() {
                total += 1;
                let range = at as usize..at as usize + size;
                if a[range.clone()] != b[range] {
                    differ += 1;
                    first.get_or_insert((i, at));
                }
            }
            match first {
                None => Ok(()),
                Some((i, at)) => Err(format!(
                    "{what}: {differ} of {total} values differ; the first is value {i} (byte {at}): {} != {}",
                    show(scalar, value(a, at, scalar.size() as usize)),
                    show(scalar, value(b, at, scalar.size() as usize))
                )),
            }
        }
        BufferComparison::Rmse(tol) => {
            let (mut sum, mut n) = (0.0f64, 0usize);
            for (at, size) in components(layout, a.len()) {
                let d = value(a, at, size).as_f64() - value(b, at, size).as_f64();
                sum += d * d;
                n += 1;
            }
            let rmse = if n == 0 { 0.0 } else { (sum / n as f64).sqrt() };
            if rmse <= tol {
                Ok(())
            } else {
                Err(format!(
                    "{what}: the root mean square error {rmse} is above the tolerance {tol}"
                ))
            }
        }
        BufferComparison::HistogramEmd(tol) => {
            if scalar != Scalar::U8 {
                return Err(format!(
                    "{what}: histograms need 8-bit unsigned components, not {}",
                    actual.ty
                ));
            }
            let channels = layout.offsets.len();
            let elements = (a.len() as u64 / layout.stride).max(1) as f64;
            let mut worst = 0.0f64;
            for c in 0..channels {
                let mut ha = [0u64; 256];
                let mut hb = [0u64; 256];
                for (i, (at, _)) in components(layout, a.len()).enumerate() {
                    if i % channels == c {
                        ha[usize::from(a[at as usize])] += 1;
                        hb[usize::from(b[at as usize])] += 1;
                    }
                }
                let (mut running, mut total) = (0.0f64, 0.0f64);
                for bin in 0..256 {
                    running += ha[bin] as f64 / elements - hb[bin] as f64 / elements;
                    total += running.abs();
                }
                worst = worst.max(total / 256.0);
            }
            if worst <= tol {
                Ok(())
            } else {
                Err(format!(
                    "{what}: the histogram earth mover's distance {worst} is above the tolerance {tol}"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(value: f64, percent: bool) -> Option<Tolerance> {
        Some(Tolerance { value, percent })
    }

    #[test]
    fn comparisons() {
        use Comparator::*;
        let f = Value::Float;
        let i = Value::Int;
        assert!(holds(Scalar::F32, Eq, None, f(0.1), f(f64::from(0.1f32))));
        assert!(holds(Scalar::F64, Eq, None, f(0.1), f(0.1 + 1e-12)));
        assert!(!holds(Scalar::F64, Eq, None, f(0.1), f(0.1 + 1e-8)));
        assert!(holds(Scalar::F32, Eq, tol(0.01, false), f(1.0), f(1.009)));
        assert!(!holds(Scalar::F32, Eq, tol(0.01, false), f(1.0), f(1.011)));
        assert!(holds(Scalar::F32, Eq, tol(1.0, true), f(200.0), f(201.5)));
        assert!(!holds(Scalar::F32, Eq, tol(1.0, true), f(200.0), f(202.5)));
        assert!(holds(Scalar::F32, Eq, None, f(f64::NAN), f(f64::NAN)));
        assert!(!holds(Scalar::F32, Lt, None, f(1.0), f(f64::NAN)));
        assert!(holds(Scalar::U32, Eq, None, i(-1), i(0xffff_ffff)));
        assert!(holds(Scalar::I32, Lt, None, i(0), i(-5)));
        assert!(holds(Scalar::I32, Ne, None, i(3), i(4)));
        assert!(holds(Scalar::U8, Ge, None, i(7), i(7)));
        assert!(!holds(Scalar::U8, Gt, None, i(7), i(7)));
        assert!(holds(Scalar::I32, Eq, tol(2.0, false), i(10), i(12)));
    }

    fn buffer(ty: &str) -> Buffer {
        let ty = crate::types::parse_data_type(ty).unwrap();
        Buffer {
            name: "b".into(),
            line: 1,
            layout: crate::layout::element_layout(&ty, crate::layout::Packing::Std430),
            ty,
            packing: crate::layout::Packing::Std430,
            init: crate::script::Initializer::Zero { elements: 0 },
        }
    }

    /// RMSE of (1, 2, 3, 4) against (1, 2, 3, 6): sqrt(4 / 4) = 1, by hand.
    #[test]
    fn rmse_value() {
        let b = buffer("float");
        let bytes = |v: [f32; 4]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let (x, y) = (bytes([1.0, 2.0, 3.0, 4.0]), bytes([1.0, 2.0, 3.0, 6.0]));
        assert_eq!(
            compare_buffers(BufferComparison::Rmse(1.0), &b, &x, &b, &y),
            Ok(())
        );
        assert_eq!(
            compare_buffers(BufferComparison::Rmse(0.99), &b, &x, &b, &y),
            Err(
                "EXPECT b RMSE_BUFFER b: the root mean square error 1 is above the tolerance 0.99"
                    .into()
            )
        );
    }

    /// Two RGBA8 texels; in the second buffer one red value moves from bin
    /// 0 to bin 2: half the mass travels 2 bins, EMD = 0.5 * 2 / 256 =
    /// 0.00390625, by hand. Other channels are equal.
    #[test]
    fn histogram_emd_value() {
        let b = buffer("R8G8B8A8_UNORM");
        let x = [0, 5, 5, 5, 7, 5, 5, 5];
        let y = [2, 5, 5, 5, 7, 5, 5, 5];
        assert_eq!(
            compare_buffers(BufferComparison::HistogramEmd(0.00390625), &b, &x, &b, &y),
            Ok(())
        );
        assert_eq!(
            compare_buffers(BufferComparison::HistogramEmd(0.0039), &b, &x, &b, &y),
            Err(
                "EXPECT b EQ_HISTOGRAM_EMD_BUFFER b: the histogram earth mover's distance \
                 0.00390625 is above the tolerance 0.0039"
                    .into()
            )
        );
        let f = buffer("float");
        assert!(compare_buffers(
            BufferComparison::HistogramEmd(1.0),
            &f,
            &[0; 4],
            &f,
            &[0; 4]
        )
        .unwrap_err()
        .contains("8-bit unsigned components"));
    }

    #[test]
    fn eq_buffer_names_the_first_difference() {
        let b = buffer("vec3<int32>");
        let words = |v: [i32; 8]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        // Padding (the fourth word of each element) differs too but is not
        // compared.
        let x = words([1, 2, 3, 9, 4, 5, 6, 9]);
        let y = words([1, 2, 3, 0, 4, 7, 8, 0]);
        assert_eq!(
            compare_buffers(BufferComparison::Equal, &b, &x, &b, &y),
            Err("EXPECT b EQ_BUFFER b: 2 of 6 values differ; the first is value 4 (byte 20): 5 != 7".into())
        );
    }

    #[test]
    fn expectations_read() {
        use Comparator::*;
        assert_eq!(
            expectation(Scalar::U32, Eq, None, Value::Int(-1)),
            "4294967295"
        );
        assert_eq!(
            expectation(Scalar::F32, Le, None, Value::Float(0.1)),
            "<= 0.1"
        );
        assert_eq!(
            expectation(Scalar::F32, Eq, tol(5.0, true), Value::Float(2.0)),
            "2 ± 5%"
        );
    }
}
