//! The fast path of `decode`: a scanner for the flat record our hooks and
//! the reference format write, with no serde machinery in between (serde
//! was ~40% of a diff's CPU). It takes a line only when it can give the
//! exact `Raw` the serde path would; anything unusual (an escape or a
//! non-ASCII byte in a string, a nested stat, a number serde_json parses
//! on its slow path, any syntax error) returns None, and the caller decodes
//! the line with serde, so errors and their messages cannot differ.

use super::{stat_from_str, Raw};
use crate::activation_diff::compare::RecordedStat;
use crate::activation_diff::names::same_short;
use crate::activations::format::{CALL, DTYPE, MODULE, SHAPE, STEP, TENSOR};
use number::Number;
use std::borrow::Cow;

mod number;

/// Decodes `text` (trimmed) when it is a record in the common shape.
pub fn decode<'t>(text: &'t [u8], layout: &mut Layout) -> Option<Raw<'t>> {
    let mut s = Scan { text, at: 0 };
    let mut raw = Raw::empty(8);
    s.ws();
    s.eat(b'{')?;
    for entry in 0.. {
        let (key, word) = match s.known_key(layout, entry) {
            Some(known) => known,
            None => match s.key(layout, entry)? {
                Some(scanned) => scanned,
                None => break,
            },
        };
        // As the serde visitor: a repeated field keeps its last value, a
        // repeated stat is kept twice.
        match word {
            W_MODULE => raw.module = Some(Cow::Borrowed(s.quoted()?)),
            W_TENSOR => raw.tensor = Some(Cow::Borrowed(s.quoted()?)),
            W_DTYPE => raw.dtype = Some(Cow::Borrowed(s.quoted()?)),
            W_STEP => raw.step = Some(s.number()?.to_i64()?),
            W_CALL => raw.call = Some(s.number()?.to_u64()?),
            W_SHAPE => raw.shape = Some(s.shape()?),
            _ => {
                let value = s.stat()?;
                raw.stats.push((Cow::Borrowed(key), value));
            }
        }
    }
    s.ws();
    (s.at == text.len()).then_some(raw)
}

/// The lead of each entry of the lines before: the bytes from the end of
/// the previous value (or the `{`) to the start of this one, i.e. comma,
/// key, colon and whitespace. A trace's lines have the same keys in the
/// same order, so a line that has the same bytes in the same place has
/// the same key, found by one compare instead of a scan (the same bytes
/// scan the same, and more whitespace after them is skipped as the scan
/// would).
#[derive(Default)]
pub struct Layout {
    leads: Vec<Lead>,
}

#[derive(Default)]
struct Lead {
    bytes: Vec<u8>,
    /// Where the key sits in `bytes`.
    key: std::ops::Range<usize>,
    word: u64,
}

impl<'t> Scan<'t> {
    /// The key of entry `entry` when its lead is the one remembered.
    fn known_key(&mut self, layout: &Layout, entry: usize) -> Option<(&'t str, u64)> {
        let lead = layout.leads.get(entry)?;
        let rest = &self.text[self.at..];
        if !same_short(rest.get(..lead.bytes.len())?, &lead.bytes) {
            return None;
        }
        let key = &rest[lead.key.clone()];
        self.at += lead.bytes.len();
        // Where this line has more space before the value than the lead.
        self.ws();
        // SAFETY: the same bytes as a key `string` checked (all ASCII).
        Some((unsafe { std::str::from_utf8_unchecked(key) }, lead.word))
    }

    /// Scans entry `entry`'s lead and remembers it; Some(None) at the
    /// object's end.
    fn key(&mut self, layout: &mut Layout, entry: usize) -> Option<Option<(&'t str, u64)>> {
        let start = self.at;
        self.ws();
        match self.next()? {
            b'}' => return Some(None),
            b',' if entry > 0 => {
                self.ws();
                self.eat(b'"')?;
            }
            b'"' if entry == 0 => {}
            _ => return None,
        }
        let key_start = self.at;
        let key = self.string()?;
        let word = self.word_at(key_start, key.len());
        self.ws();
        self.eat(b':')?;
        self.ws();
        if layout.leads.len() <= entry {
            layout.leads.resize_with(entry + 1, Lead::default);
        }
        let lead = &mut layout.leads[entry];
        lead.bytes.clear();
        lead.bytes.extend_from_slice(&self.text[start..self.at]);
        lead.key = key_start - start..key_start - start + key.len();
        lead.word = word;
        Some(Some((key, word)))
    }
}

/// A key of up to 8 bytes as a number, 0 for a longer one: keys are
/// matched against the fields by value, not through memcmp. Keys hold no
/// NUL (`string` takes no control character), so the padding is unambiguous.
const fn word(bytes: &[u8]) -> u64 {
    if bytes.len() > 8 {
        return 0;
    }
    let mut w = 0;
    let mut i = 0;
    while i < bytes.len() {
        w |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

const W_MODULE: u64 = word(MODULE.as_bytes());
const W_TENSOR: u64 = word(TENSOR.as_bytes());
const W_STEP: u64 = word(STEP.as_bytes());
const W_CALL: u64 = word(CALL.as_bytes());
const W_SHAPE: u64 = word(SHAPE.as_bytes());
const W_DTYPE: u64 = word(DTYPE.as_bytes());

struct Scan<'t> {
    text: &'t [u8],
    at: usize,
}

impl<'t> Scan<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    fn eat_if(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.at += usize::from(hit);
        hit
    }

    fn eat_word(&mut self, word: &[u8]) -> Option<()> {
        self.text[self.at..].starts_with(word).then(|| self.at += word.len())
    }

    /// JSON's whitespace (not the form feed `trim_ascii` also removes).
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The rest of a string whose opening quote is eaten. Only printable
    /// ASCII without escapes: the rest (escapes, UTF-8 the serde path
    /// validates, control characters it rejects) goes to serde.
    fn string(&mut self) -> Option<&'t str> {
        let start = self.at;
        // Eight bytes at a time (names are short: memchr's setup cost more
        // than this scan), byte by byte in the last few.
        while let Some(chunk) = self.chunk() {
            let special = special(chunk);
            if special != 0 {
                self.at += (special.trailing_zeros() / 8) as usize;
                break;
            }
            self.at += 8;
        }
        loop {
            match self.next()? {
                b'"' => break,
                b'\\' | 0..0x20 | 0x80.. => return None,
                _ => {}
            }
        }
        // SAFETY: every byte is ASCII (checked above), so this is UTF-8;
        // `from_utf8` on every name was a tenth of the decoding.
        Some(unsafe { std::str::from_utf8_unchecked(&self.text[start..self.at - 1]) })
    }

    /// `word` of the `len` bytes at `start`, a load and a mask where eight
    /// bytes are there (a key is followed by at least `":0}`).
    fn word_at(&self, start: usize, len: usize) -> u64 {
        match self.text.get(start..start + 8) {
            Some(bytes) if len < 8 => u64::from_le_bytes(bytes.try_into().expect("8 bytes")) & ((1 << (8 * len)) - 1),
            _ => word(&self.text[start..start + len]),
        }
    }

    /// The eight bytes at `at`, little-endian, if there are eight.
    fn chunk(&self) -> Option<u64> {
        let bytes = self.text.get(self.at..self.at + 8)?;
        Some(u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }

    fn quoted(&mut self) -> Option<&'t str> {
        self.eat(b'"')?;
        self.string()
    }

    /// Gathered on the stack, then allocated once at its length (no
    /// growing vector); more than 8 dimensions go to serde.
    fn shape(&mut self) -> Option<Vec<i64>> {
        self.eat(b'[')?;
        self.ws();
        let mut dims = [0i64; 8];
        let mut n = 0;
        if self.eat_if(b']') {
            return Some(Vec::new());
        }
        loop {
            *dims.get_mut(n)? = self.number()?.to_i64()?;
            n += 1;
            self.ws();
            match self.next()? {
                b',' => self.ws(),
                b']' => return Some(dims[..n].to_vec()),
                _ => return None,
            }
        }
    }

    /// A stat's value as `ValueVisitor` reads it, bare `NaN` / `Infinity` /
    /// `-Infinity` as `repair_non_standard` rewrites them; None for a list
    /// or an object (rare; serde skips them).
    fn stat(&mut self) -> Option<RecordedStat> {
        Some(match self.peek()? {
            b'"' => {
                self.at += 1;
                stat_from_str(self.string()?)
            }
            b'N' => {
                self.eat_word(b"NaN")?;
                RecordedStat::Nan
            }
            b'I' => {
                self.eat_word(b"Infinity")?;
                RecordedStat::Number(f64::INFINITY)
            }
            b'-' if self.text.get(self.at + 1) == Some(&b'I') => {
                self.eat_word(b"-Infinity")?;
                RecordedStat::Number(f64::NEG_INFINITY)
            }
            b'n' => {
                self.eat_word(b"null")?;
                RecordedStat::Null
            }
            b't' => {
                self.eat_word(b"true")?;
                RecordedStat::Other
            }
            b'f' => {
                self.eat_word(b"false")?;
                RecordedStat::Other
            }
            _ => RecordedStat::Number(match self.number()? {
                Number::U64(u) => u as f64,
                Number::I64(i) => i as f64,
                Number::F64(f) => f,
            }),
        })
    }
}

/// The bytes of `x` that end a plain string (a quote, a backslash, a
/// control character, a non-ASCII byte), as their high bits: exact up to
/// the lowest one, which is all the callers read (the tricks of "Bit
/// Twiddling Hacks": a byte below n sets its high bit in `x - n`, and only
/// its borrow can flag a byte above it).
fn special(x: u64) -> u64 {
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    below(x ^ (ONES * u64::from(b'"')), 1) | below(x ^ (ONES * u64::from(b'\\')), 1) | below(x, 0x20) | (x & HIGH)
}

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

#[cfg(test)]
mod tests;
