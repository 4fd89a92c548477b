//! The text `libmlir_runner_utils` prints for `printMemref*`.
//!
//! `mlir/ExecutionEngine/RunnerUtils.h`: `printMemRef` writes
//! `Unranked Memref ` (for the unranked entry points), the metadata
//! `base@ = PTR rank = R offset = O sizes = [..] strides = [..]`, then
//! ` data = `, a newline, the nested rows of `MemRefDataPrinter` and a
//! newline. Rows: `[` first element, `, ` (and a newline between rows of
//! rank > 1), each later element preceded by `rank - dim + 1` spaces, `]`.
//! Floats print as `std::ostream` does by default, i.e. C's `%g` (6
//! significant digits: `3.3`, `1e+06`, `-0`, `nan`, `inf`); integers in
//! decimal. `i8` elements print as numbers (the C++ code streams an
//! `int8_t`, which writes the raw byte as a character; numbers are what a
//! test can check, so kiln deviates here on purpose).

use super::buffer::{ElemType, HostBuffer};
use super::value::HostValue;

/// C's `printf("%g", x)`: 6 significant digits, trailing zeros removed,
/// exponent form below 1e-4 and from 1e6 on.
pub fn format_g(x: f64) -> String {
    format_general(x, 6)
}

/// C's `printf("%.*g", precision, x)` (what `std::ostream` prints after
/// `std::setprecision(precision)`): `precision` significant digits (at
/// least 1), trailing zeros removed, exponent form below 1e-4 and from
/// 10^precision on.
pub fn format_general(x: f64, precision: u32) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.to_owned();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let p = i32::try_from(precision.clamp(1, 17)).unwrap_or(17);
    // Round to P significant digits first: the exponent after rounding
    // picks the style, as C specifies.
    let sci = format!("{:.*e}", (p - 1) as usize, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..p).contains(&exp) {
        let decimals = (p - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, x))
    } else {
        let m = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    }
}

/// Removes trailing zeros after a decimal point, and the point if bare.
fn strip_zeros(s: &str) -> String {
    if !s.contains('.') {
        return s.to_owned();
    }
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// One element as the runner utils print it.
pub fn format_elem(v: &HostValue, elem: ElemType) -> String {
    match (v, elem) {
        (HostValue::Float { value, .. }, _) => format_g(*value),
        (HostValue::Int { .. }, ElemType::I1) => v.as_unsigned().unwrap_or(0).to_string(),
        (HostValue::Int { .. }, ElemType::Index) => v.as_unsigned().unwrap_or(0).to_string(),
        (HostValue::Int { .. }, _) => v.as_signed().unwrap_or(0).to_string(),
        _ => String::from("?"),
    }
}

/// What `printMemref*` prints for an unranked memref viewing `buf`, with
/// `base` as the data pointer (MLIR prints the address; it varies).
pub fn format_memref(buf: &HostBuffer, base: usize) -> String {
    let shape = buf.shape();
    let strides = buf.strides();
    let list = |v: &[u64]| {
        v.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!(
        "Unranked Memref base@ = {base:#x} rank = {} offset = 0 sizes = [{}] strides = [{}] data = \n",
        shape.len(),
        list(shape),
        list(&strides),
    );
    let rank = shape.len();
    if rank == 0 {
        out.push('[');
        if let Some(v) = buf.get(0) {
            out.push_str(&format_elem(&v, buf.elem()));
        }
        out.push(']');
    } else {
        print_rows(&mut out, buf, rank, rank, 0, shape, &strides);
    }
    out.push('\n');
    out
}

/// `MemRefDataPrinter::print`.
fn print_rows(
    out: &mut String,
    buf: &HostBuffer,
    dim: usize,
    rank: usize,
    offset: u64,
    sizes: &[u64],
    strides: &[u64],
) {
    if dim == 0 {
        let v = usize::try_from(offset).ok().and_then(|at| buf.get(at));
        if let Some(v) = v {
            out.push_str(&format_elem(&v, buf.elem()));
        }
        return;
    }
    let n = sizes[0];
    // printFirst
    out.push('[');
    print_rows(out, buf, dim - 1, rank, offset, &sizes[1..], &strides[1..]);
    if n <= 1 {
        out.push(']');
        return;
    }
    out.push_str(", ");
    if dim > 1 {
        out.push('\n');
    }
    for i in 1..n - 1 {
        push_spaces(out, rank - dim + 1);
        print_rows(
            out,
            buf,
            dim - 1,
            rank,
            offset + i * strides[0],
            &sizes[1..],
            &strides[1..],
        );
        out.push_str(", ");
        if dim > 1 {
            out.push('\n');
        }
    }
    // printLast
    push_spaces(out, rank - dim + 1);
    print_rows(
        out,
        buf,
        dim - 1,
        rank,
        offset + (n - 1) * strides[0],
        &sizes[1..],
        &strides[1..],
    );
    out.push(']');
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values checked against glibc's `printf("%g")` (`printf '%g\n' ...`
    /// in a shell gives the same strings).
    #[test]
    fn g_format_matches_printf() {
        let cases: &[(f64, &str)] = &[
            (f64::from(3.3f32), "3.3"),
            (1e6, "1e+06"),
            (999999.0, "999999"),
            (9999995.0, "1e+07"),
            (123456.7, "123457"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-0.0, "-0"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (33.333333333, "33.3333"),
            (-2.25, "-2.25"),
            (4294967296.0, "4.29497e+09"),
            (16777216.0, "1.67772e+07"),
            (0.5625, "0.5625"),
        ];
        for &(x, want) in cases {
            assert_eq!(format_g(x), want, "{x}");
        }
    }
}
