//! A JSON scanner for the envelope's fast path: it finds where a value ends
//! without building it, accepting only text that serde_json accepts too.
//! Anything it is unsure of (an escape it would have to decode, deep
//! nesting, a number spelled unusually) is `None`, and the caller parses
//! the envelope with serde_json instead, which then says what is wrong.
//! So the fast path can change how fast an envelope is read, never what
//! comes of it (tests/envelope_fast_path.rs compares the two).

/// Nesting beyond this goes to serde_json (whose own limit is 128).
const MAX_DEPTH: usize = 64;

/// Where the first byte that ends a plain run of string text is: a quote,
/// a backslash or a control character. Eight bytes at a time (SWAR): string
/// text is most of what an envelope's body holds.
fn string_stop(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bytes below `n` (n <= 0x80) set their high bit; the lowest set bit is
    // exact (a borrow can only flag bytes after a real hit).
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut words {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let hits = below(w ^ (ONES * u64::from(b'"')), 1) | below(w ^ (ONES * u64::from(b'\\')), 1) | below(w, 0x20);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = words.remainder();
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|i| at + i)
}

pub(super) struct Scan<'a> {
    text: &'a str,
    pub(super) at: usize,
}

impl<'a> Scan<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Scan { text, at: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes().get(self.at).copied()
    }

    /// JSON whitespace (space, tab, LF, CR), and nothing else.
    pub(super) fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after whitespace) or fails.
    pub(super) fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.at += 1)
    }

    /// A string with no escapes, its text borrowed; an escape is `None`
    /// (decoding it is serde_json's job).
    pub(super) fn plain_string(&mut self) -> Option<&'a str> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.at + 1;
        let len = string_stop(&self.bytes()[start..])?;
        let end = start + len;
        if self.bytes()[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        Some(&self.text[start..end])
    }

    /// A string, escapes checked but not decoded (`\u` goes to serde_json).
    fn skip_string(&mut self) -> Option<()> {
        self.at += 1; // the opening quote
        loop {
            let len = string_stop(&self.bytes()[self.at..])?;
            self.at += len;
            match self.bytes()[self.at] {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => match self.bytes().get(self.at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 2,
                    _ => return None,
                },
                _ => return None, // a control character
            }
        }
    }

    /// An unsigned integer that fits `u32`, in its one JSON spelling.
    pub(super) fn u32(&mut self) -> Option<u32> {
        self.skip_ws();
        let digits = self.bytes()[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let text = &self.text[self.at..self.at + digits];
        if digits == 0 || digits > 10 || (digits > 1 && text.starts_with('0')) {
            return None;
        }
        // A fraction or exponent (`1.0`, `1e3`) is serde_json's to judge.
        if matches!(self.bytes().get(self.at + digits), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let n = text.parse().ok()?;
        self.at += digits;
        Some(n)
    }

    /// `null`.
    pub(super) fn null(&mut self) -> bool {
        self.skip_ws();
        let is = self.bytes()[self.at..].starts_with(b"null");
        if is {
            self.at += 4;
        }
        is
    }

    /// Skips one value and returns its text.
    pub(super) fn value(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let start = self.at;
        self.skip_value(0)?;
        Some(&self.text[start..self.at])
    }

    fn skip_value(&mut self, depth: usize) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' => self.skip_container(depth, b'}', true),
            b'[' => self.skip_container(depth, b']', false),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn skip_container(&mut self, depth: usize, close: u8, object: bool) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.skip_ws();
        if self.peek() == Some(close) {
            self.at += 1;
            return Some(());
        }
        loop {
            if object {
                self.skip_ws();
                if self.peek() != Some(b'"') {
                    return None;
                }
                self.skip_string()?;
                self.eat(b':')?;
            }
            self.skip_value(depth + 1)?;
            self.skip_ws();
            match self.peek()? {
                b',' => self.at += 1,
                b if b == close => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.bytes()[self.at..].starts_with(word).then(|| self.at += word.len())
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, JSON's grammar.
    fn number(&mut self) -> Option<()> {
        let b = self.bytes();
        let mut i = self.at;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = |i: usize| b[i.min(b.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
        let int = digits(i);
        if int == 0 || (int > 1 && b[i] == b'0') {
            return None;
        }
        i += int;
        if b.get(i) == Some(&b'.') {
            let frac = digits(i + 1);
            if frac == 0 {
                return None;
            }
            i += 1 + frac;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp = digits(i);
            if exp == 0 {
                return None;
            }
            i += exp;
        }
        self.at = i;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skips(text: &str) -> Option<&str> {
        let mut s = Scan::new(text);
        let v = s.value()?;
        s.skip_ws();
        (s.at == text.len()).then_some(v)
    }

    #[test]
    fn skips_what_serde_reads() {
        for ok in [
            r#"{"a": [1, -2.5e+3, 0, 0.5, true, false, null, "x\"\\\/\b\f\n\r\t"], "b": {}}"#,
            "[]",
            " \"\" ",
            "-0",
            "1E9",
        ] {
            assert!(skips(ok).is_some(), "{ok}");
            assert!(serde_json::from_str::<serde::de::IgnoredAny>(ok).is_ok(), "{ok}");
        }
    }

    /// What it refuses is either bad JSON or left to serde_json: never
    /// accepted where serde_json would refuse.
    #[test]
    fn refuses_bad_json_and_what_it_leaves_to_serde() {
        for refused in [
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a:1}",
            "tru",
            "nul",
            "[1 2]",
            "\"\\x\"",
            "\"\u{1}\"",
            "\"\\u0041\"",
            "\"open",
            "{",
            "[",
        ] {
            assert!(skips(refused).is_none(), "{refused:?}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(skips(&deep).is_none(), "deep nesting is serde_json's");
    }

    /// The eight-at-a-time search finds what a byte loop finds, wherever the
    /// stop byte falls in a word and whatever follows it.
    #[test]
    fn string_stops_are_found_exactly() {
        for len in 0..20 {
            for stop in [None, Some(b'"'), Some(b'\\'), Some(0u8), Some(0x1f), Some(b'\n')] {
                for at in 0..len.max(1) {
                    let mut text: Vec<u8> = (0..len).map(|i| b" az~\x7f\xc3\xa9!"[i % 8]).collect();
                    if let (Some(b), true) = (stop, at < len) {
                        text[at] = b;
                        // What follows a stop must not move it.
                        if at + 1 < len {
                            text[at + 1] = 0;
                        }
                    }
                    let want = text.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
                    assert_eq!(string_stop(&text), want, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn integers_fit_u32_in_their_one_spelling() {
        let read = |t: &str| Scan::new(t).u32();
        assert_eq!(read(" 42"), Some(42));
        assert_eq!(read("4294967295"), Some(u32::MAX));
        for other in ["4294967296", "007", "1.0", "1e2", "-1", "x"] {
            assert_eq!(read(other), None, "{other}");
        }
    }
}
