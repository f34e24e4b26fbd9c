//! Numbers as serde_json reads them (without its `float_roundtrip`
//! feature, which guardscope does not enable), step for step so that every
//! value is bit for bit the one the serde path gives. Its slow paths return
//! None: the line then goes to serde.

use super::{Scan, HIGH, ONES};
use std::sync::LazyLock;

/// A JSON number as serde_json reads it, before the visitor converts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl Number {
    /// serde's `i64` accepts an unsigned that fits and any signed, not a float.
    pub(super) fn to_i64(self) -> Option<i64> {
        match self {
            Number::U64(u) => i64::try_from(u).ok(),
            Number::I64(i) => Some(i),
            Number::F64(_) => None,
        }
    }

    pub(super) fn to_u64(self) -> Option<u64> {
        match self {
            Number::U64(u) => Some(u),
            _ => None,
        }
    }
}

impl Scan<'_> {
    /// serde_json's number parser (`parse_integer` and what it calls,
    /// without its `float_roundtrip` feature, which guardscope does not
    /// enable), step for step so that every value is bit for bit the one
    /// it gives; its overflow paths (more than 19 significant digits, an
    /// exponent past i32 or out of range) return None instead.
    #[inline(always)]
    pub(super) fn number(&mut self) -> Option<Number> {
        let positive = !self.eat_if(b'-');
        let mut significand = match self.next()? {
            b'0' if matches!(self.peek(), Some(b'0'..=b'9')) => return None,
            c @ b'0'..=b'9' => u64::from(c - b'0'),
            _ => return None,
        };
        significand = self.digits(significand)?;
        let mut exponent = 0i32;
        let fraction = self.eat_if(b'.');
        if fraction {
            let start = self.at;
            significand = self.digits(significand)?;
            if self.at == start {
                return None;
            }
            exponent = -i32::try_from(self.at - start).ok()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let positive_exp = match self.peek() {
                Some(b'+') => {
                    self.at += 1;
                    true
                }
                Some(b'-') => {
                    self.at += 1;
                    false
                }
                _ => true,
            };
            let mut exp = match self.next()? {
                c @ b'0'..=b'9' => i32::from(c - b'0'),
                _ => return None,
            };
            while let Some(c @ b'0'..=b'9') = self.peek() {
                let digit = i32::from(c - b'0');
                if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || digit > i32::MAX % 10) {
                    return None;
                }
                exp = exp * 10 + digit;
                self.at += 1;
            }
            exponent = if positive_exp {
                exponent.saturating_add(exp)
            } else {
                exponent.saturating_sub(exp)
            };
        } else if !fraction {
            return Some(if positive {
                Number::U64(significand)
            } else {
                let neg = (significand as i64).wrapping_neg();
                // serde_json: a float on underflow, or on `-0`.
                if neg >= 0 {
                    Number::F64(-(significand as f64))
                } else {
                    Number::I64(neg)
                }
            });
        }
        let f = f64_from_parts(significand, exponent)?;
        Some(Number::F64(if positive { f } else { -f }))
    }

    /// Appends the digits at `at` to `significand`: eight at a time while
    /// the result stays below 10^19 (so cannot overflow), then one by one
    /// with serde_json's overflow check.
    // Inlined, with `number`: their calls were a tenth of the decoding.
    #[inline(always)]
    fn digits(&mut self, mut significand: u64) -> Option<u64> {
        while significand < 100_000_000_000 {
            let Some(chunk) = self.chunk() else {
                break;
            };
            let stop = not_digits(chunk);
            if stop == 0 {
                significand = significand * 100_000_000 + eight_digits(chunk);
                self.at += 8;
                continue;
            }
            // Fewer than eight: shifted to the top, '0's below them.
            let n = stop.trailing_zeros() / 8;
            if n > 0 {
                let padded = (chunk << (64 - 8 * n)) | ((ONES * u64::from(b'0')) >> (8 * n));
                significand = significand * 10u64.pow(n) + eight_digits(padded);
                self.at += n as usize;
            }
            return Some(significand);
        }
        while let Some(c @ b'0'..=b'9') = self.peek() {
            significand = grow(significand, c)?;
            self.at += 1;
        }
        Some(significand)
    }
}

/// The bytes of `x` that are not ASCII digits, as their high bits, exact
/// up to the lowest one (fast_float's test, which carries only upward).
fn not_digits(x: u64) -> u64 {
    (x.wrapping_add(ONES * 0x46) | x.wrapping_sub(ONES * u64::from(b'0'))) & HIGH
}

/// The value of eight ASCII digits read little-endian (the SWAR steps of
/// simdjson and fast_float).
fn eight_digits(chunk: u64) -> u64 {
    let v = chunk.wrapping_sub(ONES * u64::from(b'0'));
    let v = (v.wrapping_mul(10) + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
    let v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
    (v.wrapping_mul(10_000) + (v >> 32)) & 0xFFFF_FFFF
}

/// `significand * 10 + digit`, None where serde_json's `overflow!` would
/// leave for its slow path.
fn grow(significand: u64, c: u8) -> Option<u64> {
    let digit = u64::from(c - b'0');
    if significand >= u64::MAX / 10 && (significand > u64::MAX / 10 || digit > u64::MAX % 10) {
        return None;
    }
    Some(significand * 10 + digit)
}

/// serde_json's `f64_from_parts` (not correctly rounded past 2^53 or
/// 10^22, hence copied rather than a correctly rounding parser: values
/// must not move by an ulp against older outputs). None where it errs.
fn f64_from_parts(significand: u64, mut exponent: i32) -> Option<f64> {
    let mut f = significand as f64;
    loop {
        match pow10(exponent.unsigned_abs() as usize) {
            Some(pow) => {
                if exponent >= 0 {
                    f *= pow;
                    if f.is_infinite() {
                        return None;
                    }
                } else {
                    f /= pow;
                }
                return Some(f);
            }
            None => {
                if f == 0.0 {
                    return Some(f);
                }
                if exponent >= 0 {
                    return None;
                }
                f /= 1e308;
                exponent += 308;
            }
        }
    }
}

/// 10^k as serde_json's table has it; the first 23 (the exact ones, all
/// that common values need) without the lazy table's check.
pub(super) fn pow10(k: usize) -> Option<f64> {
    const EXACT: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    match EXACT.get(k) {
        Some(&p) => Some(p),
        None => POW10.get(k).copied(),
    }
}

/// 1e0 ..= 1e308, each the nearest f64 as the literals of serde_json's
/// table are (Rust's float parsing is correctly rounded, as its literals).
pub(super) static POW10: LazyLock<[f64; 309]> =
    LazyLock::new(|| std::array::from_fn(|k| format!("1e{k}").parse().expect("a float literal")));
