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

/// How much of a growing log's new `bytes` (which start at a line start)
/// parses now as it will once the writer has gone on: the complete lines,
/// less a last event that announced a payload (`has_payload`) which more
/// lines may still extend. A piece so cut ends where a part may end (see
/// `split`): before an envelope-like line, or after a complete event. 0
/// when nothing is complete yet.
pub fn complete_events_end(bytes: &[u8]) -> usize {
    let Some(last_newline) = memchr::memrchr(b'\n', bytes) else {
        return 0;
    };
    let complete = last_newline + 1;
    // The last envelope-like line among the complete ones.
    let mut line_end = complete;
    while line_end > 0 {
        let start = memchr::memrchr(b'\n', &bytes[..line_end - 1]).map_or(0, |i| i + 1);
        if bytes.get(start).is_some_and(|b| !b.is_ascii_whitespace()) {
            let line = &bytes[start..line_end];
            let announces = memchr::memmem::find(line, b"\"has_payload\"").is_some();
            return if announces { start } else { complete };
        }
        line_end = start;
    }
    // Only payload or blank lines: whatever they belong to was parsed before.
    complete
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
    fn a_growing_piece_ends_after_complete_events_only() {
        // HAND-MADE: envelope lines and payload lines as TORCH_TRACE writes them.
        let done = b"V1 {\"a\": 1}\n";
        assert_eq!(complete_events_end(done), done.len());
        assert_eq!(
            complete_events_end(b"V1 {\"a\": 1}\nV2 {\"b"),
            done.len(),
            "a cut line waits"
        );
        let payload = b"V1 {\"a\": 1}\nV2 {\"b\": 1, \"has_payload\": \"x\"}\n\tone\n\ttwo\n";
        assert_eq!(complete_events_end(payload), done.len(), "its payload may grow");
        let mut then = payload.to_vec();
        then.extend_from_slice(b"V3 {\"c\": 1}\n");
        assert_eq!(complete_events_end(&then), then.len(), "the next event ends it");
        assert_eq!(complete_events_end(b"\tmore\n\n"), 7);
        assert_eq!(complete_events_end(b"V1 no newline"), 0);
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
