//! Floating-point literals as MLIR prints and parses them.
//!
//! Float attributes are stored as the bits of an `f64` holding the value
//! exactly (every `f16`/`bf16`/`f32` value is an `f64` value). Conversions
//! to and from a type's own encoding are done by hand so NaN payloads and
//! signaling NaNs survive bit-exactly.
//!
//! Printing follows MLIR's `printFloatValue`: LLVM's `APFloat::toString`
//! with 6 digits in exponential form (`1.500000e+00`) when that parses back
//! to the same value, otherwise `toString` with the type's natural precision
//! (`1.23456776`, `9.99999974E-6`), and the type's bits in hexadecimal
//! (`0x7FC00000`) for NaN, infinities and values that would print without a
//! `.`. The digit generation reproduces `APFloat::toString` (including its
//! intermediate truncation), so kiln prints the same text as `mlir-opt`.

use crate::ir::FloatKind;

/// `(exponent bits, stored mantissa bits)` of a format.
fn layout(kind: FloatKind) -> (u32, u32) {
    match kind {
        FloatKind::F16 => (5, 10),
        FloatKind::BF16 => (8, 7),
        FloatKind::F32 => (8, 23),
        FloatKind::F64 => (11, 52),
    }
}

/// `2^k` as an `f64`, for `k` in the normal range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The value of a float of `kind` with encoding `bits`, as `f64` bits.
pub(crate) fn to_f64_bits(kind: FloatKind, bits: u64) -> u64 {
    if kind == FloatKind::F64 {
        return bits;
    }
    let (e, m) = layout(kind);
    let sign = (bits >> (e + m)) & 1;
    let exp = ((bits >> m) & ((1 << e) - 1)) as i32;
    let mant = bits & ((1 << m) - 1);
    let max_exp = (1 << e) - 1;
    let bias = (1 << (e - 1)) - 1;
    if exp == max_exp {
        // Infinity or NaN: keep the payload in the top mantissa bits.
        return (sign << 63) | (0x7ff << 52) | (mant << (52 - m));
    }
    let magnitude = if exp == 0 {
        mant as f64 * pow2(1 - bias - m as i32)
    } else {
        ((1u64 << m) | mant) as f64 * pow2(exp - bias - m as i32)
    };
    (sign << 63) | magnitude.to_bits()
}

/// The encoding in `kind` of the `f64` whose bits are `bits`, rounding to
/// nearest-even.
pub(crate) fn from_f64_bits(kind: FloatKind, bits: u64) -> u64 {
    if kind == FloatKind::F64 {
        return bits;
    }
    let (e, m) = layout(kind);
    let v = f64::from_bits(bits);
    let sign = (bits >> 63) << (e + m);
    let max_exp: u64 = (1 << e) - 1;
    if v.is_nan() {
        let mut mant = (bits & ((1 << 52) - 1)) >> (52 - m);
        if mant == 0 {
            mant = 1 << (m - 1);
        }
        return sign | (max_exp << m) | mant;
    }
    if v.is_infinite() {
        return sign | (max_exp << m);
    }
    if v == 0.0 {
        return sign;
    }
    // |v| = big * 2^q with `big` a 53-bit integer.
    let raw_exp = ((bits >> 52) & 0x7ff) as i32;
    let raw_mant = bits & ((1 << 52) - 1);
    let (big, q) = if raw_exp == 0 {
        (raw_mant, -1074)
    } else {
        (raw_mant | (1 << 52), raw_exp - 1075)
    };
    let top = 63 - big.leading_zeros() as i32 + q; // floor(log2 |v|)
    let bias = (1 << (e - 1)) - 1;
    let emin = 1 - bias;
    let quantum = top.max(emin) - m as i32;
    let n: u64 = if q >= quantum {
        let shift = (q - quantum) as u32;
        if shift >= 64 - (64 - big.leading_zeros()) {
            // Too large for any target format: infinity.
            return sign | (max_exp << m);
        }
        big << shift
    } else {
        let shift = (quantum - q) as u32;
        if shift > 63 {
            0
        } else {
            let kept = big >> shift;
            let rem = big & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            if rem > half || (rem == half && kept & 1 == 1) {
                kept + 1
            } else {
                kept
            }
        }
    };
    let enc = if top < emin {
        n
    } else {
        (((top + bias - 1) as u64) << m) + n
    };
    if enc >> m >= max_exp {
        return sign | (max_exp << m);
    }
    sign | enc
}

/// Rounds `v` to the nearest value of `kind` (returned as an `f64`).
pub(crate) fn round_to(kind: FloatKind, v: f64) -> f64 {
    f64::from_bits(to_f64_bits(kind, from_f64_bits(kind, v.to_bits())))
}

/// Prints a float attribute value like MLIR; `bits` are the `f64` bits of
/// the value. The second result says whether the hex form was used.
pub(crate) fn format_float(kind: FloatKind, bits: u64) -> (String, bool) {
    let kbits = from_f64_bits(kind, bits);
    let v = f64::from_bits(bits);
    if v.is_finite() {
        let s = to_string(kind, kbits, 6, 0, false);
        if parse_decimal(kind, &s).is_some_and(|b| from_f64_bits(kind, b) == kbits) {
            return (s, false);
        }
        let s = to_string(kind, kbits, 0, 3, true);
        if s.contains('.') {
            return (s, false);
        }
    }
    (format!("0x{kbits:X}"), true)
}

/// Parses a decimal float literal (optionally signed) and rounds it to
/// `kind`; returns the `f64` bits of the value.
pub(crate) fn parse_decimal(kind: FloatKind, text: &str) -> Option<u64> {
    let v: f64 = text.parse().ok()?;
    Some(round_to(kind, v).to_bits())
}

/// A minimal arbitrary-precision unsigned integer (little-endian limbs).
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn bits(&self) -> u32 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
        }
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let x = *limb as u64 * k as u64 + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn divrem_small(&mut self, k: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let x = (rem << 32) | *limb as u64;
            *limb = (x / k as u64) as u32;
            rem = x % k as u64;
        }
        self.trim();
        rem as u32
    }

    fn shl(&mut self, n: u32) {
        let words = (n / 32) as usize;
        let bits = n % 32;
        if bits != 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let x = *limb;
                *limb = (x << bits) | carry;
                carry = x >> (32 - bits);
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        if words != 0 && !self.is_zero() {
            self.0.splice(0..0, std::iter::repeat_n(0, words));
        }
    }

    fn mul_pow5(&mut self, mut e: u32) {
        while e >= 13 {
            self.mul_small(1_220_703_125); // 5^13
            e -= 13;
        }
        self.mul_small(5u32.pow(e));
    }

    fn div_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.divrem_small(1_000_000_000);
            e -= 9;
        }
        self.divrem_small(10u32.pow(e));
    }
}

/// `APFloat::toString(Str, FormatPrecision, FormatMaxPadding, TruncateZero)`
/// for a finite value of `kind` with encoding `kbits`.
fn to_string(
    kind: FloatKind,
    kbits: u64,
    precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) -> String {
    let (e, m) = layout(kind);
    let negative = (kbits >> (e + m)) & 1 == 1;
    let exp_field = ((kbits >> m) & ((1 << e) - 1)) as i32;
    let mant = kbits & ((1 << m) - 1);
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if exp_field == 0 && mant == 0 {
        if max_padding == 0 {
            if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                if precision > 1 {
                    out.extend(std::iter::repeat_n('0', precision as usize - 1));
                }
                out.push_str("e+00");
            }
        } else {
            out.push('0');
        }
        return out;
    }
    let sem_precision = m + 1;
    let bias = (1 << (e - 1)) - 1;
    let (mut sig, unbiased) = if exp_field == 0 {
        (mant, 1 - bias)
    } else {
        (mant | (1 << m), exp_field - bias)
    };
    let mut exp = unbiased - m as i32;
    let precision = if precision == 0 {
        2 + sem_precision * 59 / 196
    } else {
        precision
    };
    let tz = sig.trailing_zeros();
    exp += tz as i32;
    sig >>= tz;
    let mut big = Big::from_u64(sig);
    if exp > 0 {
        big.shl(exp as u32);
        exp = 0;
    } else if exp < 0 {
        big.mul_pow5((-exp) as u32);
    }
    // AdjustToPrecision on the integer: drop whole tens, truncating.
    let bits = big.bits();
    let bits_required = (precision * 196).div_ceil(59);
    if bits > bits_required {
        let tens = (bits - bits_required) * 59 / 196;
        if tens > 0 {
            exp += tens as i32;
            big.div_pow10(tens);
        }
    }
    // Decimal digits, least significant first, trailing zeros dropped.
    let mut buffer: Vec<u8> = Vec::new();
    let mut in_trail = true;
    while !big.is_zero() {
        let d = big.divrem_small(10) as u8;
        if in_trail && d == 0 {
            exp += 1;
        } else {
            buffer.push(b'0' + d);
            in_trail = false;
        }
    }
    if buffer.is_empty() {
        buffer.push(b'0');
    }
    // AdjustToPrecision on the digits: round half up.
    let n = buffer.len();
    if n > precision as usize {
        let mut first = n - precision as usize;
        if buffer[first - 1] < b'5' {
            while first < n && buffer[first] == b'0' {
                first += 1;
            }
            exp += first as i32;
            buffer.drain(..first);
        } else {
            let mut i = first;
            while i != n {
                if buffer[i] == b'9' {
                    first += 1;
                    i += 1;
                } else {
                    buffer[i] += 1;
                    break;
                }
            }
            if first == n {
                exp += first as i32;
                buffer.clear();
                buffer.push(b'1');
            } else {
                exp += first as i32;
                buffer.drain(..first);
            }
        }
    }
    let nd = buffer.len();
    let digit = |i: usize| buffer[nd - 1 - i] as char; // most significant first
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u32 > max_padding || nd as u32 + exp as u32 > precision
    } else {
        let msd = exp + nd as i32 - 1;
        msd < 0 && (-msd) as u32 > max_padding
    };
    if scientific {
        let e10 = exp + nd as i32 - 1;
        out.push(digit(0));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            for i in 1..nd {
                out.push(digit(i));
            }
        }
        if !truncate_zero && precision as usize > nd - 1 {
            out.extend(std::iter::repeat_n('0', precision as usize - nd + 1));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if e10 >= 0 { '+' } else { '-' });
        let digits = e10.unsigned_abs().to_string();
        if !truncate_zero && digits.len() < 2 {
            out.push('0');
        }
        out.push_str(&digits);
        return out;
    }
    if exp >= 0 {
        for i in 0..nd {
            out.push(digit(i));
        }
        out.extend(std::iter::repeat_n('0', exp as usize));
        return out;
    }
    let whole = exp + nd as i32;
    let mut i = 0;
    if whole > 0 {
        while i < whole as usize {
            out.push(digit(i));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-whole) as usize));
    }
    while i < nd {
        out.push(digit(i));
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(kind: FloatKind, v: f64) -> String {
        format_float(kind, round_to(kind, v).to_bits()).0
    }

    #[test]
    fn prints_like_mlir_opt_19() {
        // Expected strings are mlir-opt-19's output for these constants.
        assert_eq!(show(FloatKind::F32, 1.5), "1.500000e+00");
        assert_eq!(show(FloatKind::F32, 1.2345678), "1.23456776");
        assert_eq!(show(FloatKind::F32, std::f64::consts::PI), "3.14159274");
        assert_eq!(show(FloatKind::F32, 0.1), "1.000000e-01");
        assert_eq!(show(FloatKind::F32, 1.0e20), "1.000000e+20");
        assert_eq!(show(FloatKind::F32, 123456792.0), "0x4CEB79A3");
        assert_eq!(show(FloatKind::F64, 0.1), "1.000000e-01");
        assert_eq!(show(FloatKind::F32, 1.0e-5), "9.99999974E-6");
        assert_eq!(show(FloatKind::F16, 65504.0), "6.550400e+04");
        assert_eq!(show(FloatKind::F16, 0.333), "3.330080e-01");
        assert_eq!(show(FloatKind::F32, 0.0), "0.000000e+00");
        assert_eq!(show(FloatKind::F32, -0.0), "-0.000000e+00");
        assert_eq!(show(FloatKind::F32, 1.0e-40), "9.999940e-41");
        assert_eq!(show(FloatKind::F32, 16777216.0), "0x4B800000");
        assert_eq!(show(FloatKind::F32, 0.000123), "1.230000e-04");
        assert_eq!(show(FloatKind::F32, f64::NAN), "0x7FC00000");
        assert_eq!(show(FloatKind::F32, f64::NEG_INFINITY), "0xFF800000");
    }

    #[test]
    fn nan_payloads_survive() {
        for bits in [0x7F80_0001u64, 0x7FC0_0000, 0xFFC0_1234] {
            let b64 = to_f64_bits(FloatKind::F32, bits);
            assert_eq!(from_f64_bits(FloatKind::F32, b64), bits);
        }
        let h = to_f64_bits(FloatKind::F16, 0x7C01);
        assert_eq!(from_f64_bits(FloatKind::F16, h), 0x7C01);
    }

    #[test]
    fn half_and_bfloat_round_trip() {
        for bits in 0..=0xFFFFu64 {
            for kind in [FloatKind::F16, FloatKind::BF16] {
                let v = to_f64_bits(kind, bits);
                assert_eq!(from_f64_bits(kind, v), bits, "{kind:?} {bits:#x}");
            }
        }
        assert_eq!(from_f64_bits(FloatKind::F16, 1.0f64.to_bits()), 0x3C00);
        assert_eq!(from_f64_bits(FloatKind::F16, 1.0e6f64.to_bits()), 0x7C00);
        assert_eq!(
            from_f64_bits(FloatKind::F32, 1.5f64.to_bits()),
            1.5f32.to_bits() as u64
        );
    }
}
