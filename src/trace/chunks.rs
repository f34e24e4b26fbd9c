//! Where a log can be cut into parts that parse apart and still give the
//! events and problems one parse of the whole gives: before a line that
//! starts with a byte that is neither whitespace nor a payload TAB. Such a
//! line ends any payload before it (see `Parser::run`), so no payload,
//! blank-line run or line spans two parts; a part starts with the parser's
//! state reset, which is the state it has before that line anyway.

use std::ops::Range;

/// Cuts `bytes` into at most `parts` ranges of about equal size, each
/// (after the first) starting at a line a part may start with. Fewer parts
/// come back when no such line lies between two targets (a log that is one
/// long payload is one part).
pub fn split(bytes: &[u8], parts: usize) -> Vec<Range<usize>> {
    let mut starts = vec![0];
    for i in 1..parts.max(1) {
        let target = (bytes.len() as u128 * i as u128 / parts as u128) as usize;
        let from = target.max(*starts.last().unwrap_or(&0) + 1);
        match next_part_start(bytes, from) {
            Some(at) if at < bytes.len() => starts.push(at),
            _ => break,
        }
    }
    starts.dedup();
    let ends = starts.iter().skip(1).copied().chain([bytes.len()]);
    starts.iter().copied().zip(ends).map(|(s, e)| s..e).collect()
}

/// The first position at or after `from` that follows a `\n` and holds a
/// byte that starts an envelope-like line.
fn next_part_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from.min(bytes.len());
    while let Some(i) = memchr::memchr(b'\n', &bytes[at..]) {
        let next = at + i + 1;
        match bytes.get(next) {
            Some(b) if !b.is_ascii_whitespace() => return Some(next),
            Some(_) => at = next,
            None => return None,
        }
    }
    None
}

/// Lines in `bytes` as `LineReader` numbers them: a line ends at `\n`,
/// `\r\n` or a lone `\r`, and a last line without an end still counts.
/// `bytes` is visited in pieces (so a caller can release what was read);
/// `after_cr` carries a `\r` that ended the previous piece.
pub fn count_lines(bytes: &[u8], after_cr: &mut bool) -> u64 {
    let mut lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    if std::mem::take(after_cr) && bytes.first() == Some(&b'\n') {
        // The `\n` of a `\r\n` cut between pieces: its `\r` counted the line.
        lines -= 1;
    }
    // A `\r` ends a line unless a `\n` follows; logs rarely hold one.
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'\r', &bytes[from..]) {
        let at = from + i;
        match bytes.get(at + 1) {
            Some(b'\n') => {}
            Some(_) => lines += 1,
            None => {
                lines += 1;
                *after_cr = true;
            }
        }
        from = at + 1;
    }
    lines
}

/// Whether the bytes end inside a line (one that `count_lines` did not
/// count because no line end followed yet).
pub fn ends_mid_line(bytes: &[u8]) -> bool {
    !matches!(bytes.last(), None | Some(b'\n' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::lines::{LineReader, PayloadLine};

    fn reader_lines(bytes: &[u8]) -> u64 {
        let mut r = LineReader::new(bytes, 1 << 20);
        let mut n = 0;
        while r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap().is_some() {
            n += 1;
        }
        n
    }

    #[test]
    fn counts_lines_as_the_reader_does_in_any_pieces() {
        let text = b"a\r\nb\rc\n\n\r\r\nd\te\rf";
        for cut in 0..=text.len() {
            let mut after_cr = false;
            let (a, b) = text.split_at(cut);
            let mut n = count_lines(a, &mut after_cr) + count_lines(b, &mut after_cr);
            n += u64::from(ends_mid_line(text));
            assert_eq!(n, reader_lines(text), "cut at {cut}");
        }
    }

    #[test]
    fn parts_start_at_envelope_like_lines_only() {
        let text = b"I0 a\n\tpay\n\tload\n\n  \nW1 b\n\tp\nI2 c\n";
        for parts in 1..12 {
            let ranges = split(text, parts);
            assert_eq!(ranges.first().map(|r| r.start), Some(0));
            assert_eq!(ranges.last().map(|r| r.end), Some(text.len()));
            for pair in ranges.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                let at = pair[1].start;
                assert!(
                    text[at - 1] == b'\n' && matches!(text[at], b'I' | b'W'),
                    "{parts}: {at}"
                );
            }
        }
        assert_eq!(split(text, 50).len(), 3, "three envelope lines, three parts at most");
        assert_eq!(split(b"\tonly\n\tpayload\n", 4), vec![0..15]);
        assert_eq!(split(b"", 4), vec![0..0]);
    }
}
