//! Line splitting with bounded memory.
//!
//! TORCH_TRACE logs are mostly TAB-prefixed payload lines that guardscope does
//! not need, and hostile inputs may contain gigabytes without a newline. The
//! reader therefore never buffers more than `cap` bytes of one line, and lines
//! the caller wants skipped are streamed straight from the `BufRead` buffer
//! into a sink (the md5 hasher) without being copied. A line ends at `\n`,
//! `\r\n` or a lone `\r` (logs saved by old Mac tools).

use std::io::{self, BufRead};

/// What the caller wants done with the next line if it is a payload line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PayloadLine {
    /// Copy it into the line buffer like any other line.
    Keep,
    /// Stream its bytes (after the TAB) into the sink and do not store them.
    Skip,
}

pub struct Line<'a> {
    /// The line without its trailing newline; empty for a skipped payload line.
    pub bytes: &'a [u8],
    /// 1-based line number in the file.
    pub number: u64,
    /// Full length of the line in bytes, even when `bytes` holds less.
    pub len: u64,
    /// True when the line was longer than the cap and `bytes` holds a prefix.
    pub truncated: bool,
    /// True when this was a payload line streamed into the sink.
    pub skipped: bool,
    /// True when the line ended at end of file rather than at a line end.
    pub unterminated: bool,
}

pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    number: u64,
    cap: usize,
    bytes_read: u64,
    /// The last line ended with a `\r` at the end of a buffer: a `\n` that
    /// starts the next one belongs to it.
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, cap: usize) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            number: 0,
            cap,
            bytes_read: 0,
            after_cr: false,
        }
    }

    /// A reader whose first line is numbered `lines_before + 1`: one part
    /// of a file cut at a line boundary.
    pub fn numbered_after(inner: R, cap: usize, lines_before: u64) -> Self {
        LineReader {
            number: lines_before,
            ..LineReader::new(inner, cap)
        }
    }

    /// Total bytes consumed so far (decompressed bytes for a gzip input).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads the next line. A payload line (one starting with TAB) is streamed
    /// into `sink` minus its TAB when `payload` is `Skip`.
    pub fn next_line(&mut self, payload: PayloadLine, sink: &mut dyn FnMut(&[u8])) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut len: u64 = 0;
        let mut truncated = false;
        let mut skipping = None::<bool>;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if len == 0 {
                    return Ok(None);
                }
                self.number += 1;
                return Ok(Some(self.finish(len, truncated, skipping, true)));
            }
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                self.bytes_read += 1;
                self.inner.consume(1);
                continue;
            }
            let skip = *skipping.get_or_insert(payload == PayloadLine::Skip && chunk[0] == b'\t');
            let (content, consumed, done) = match memchr::memchr2(b'\n', b'\r', chunk) {
                Some(i) if chunk[i] == b'\r' => match chunk.get(i + 1) {
                    Some(b'\n') => (&chunk[..i], i + 2, true),
                    Some(_) => (&chunk[..i], i + 1, true),
                    None => {
                        self.after_cr = true;
                        (&chunk[..i], i + 1, true)
                    }
                },
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            if skip {
                // The first chunk of a skipped line starts with its TAB.
                let body = if len == 0 { &content[1..] } else { content };
                sink(body);
            } else {
                let room = self.cap.saturating_sub(self.buf.len());
                if content.len() > room {
                    truncated = true;
                }
                self.buf.extend_from_slice(&content[..content.len().min(room)]);
            }
            len += content.len() as u64;
            self.bytes_read += consumed as u64;
            self.inner.consume(consumed);
            if done {
                self.number += 1;
                return Ok(Some(self.finish(len, truncated, skipping, false)));
            }
        }
    }

    /// Consumes the whole payload lines (TAB first, `\n` last) at the front
    /// of the buffer without handing them anywhere, and returns how many.
    /// Payload is ~90% of an inductor log in lines of ~100 bytes: one tight
    /// scan instead of a `next_line` per line. Stops at anything else (an
    /// envelope, a `\r`, a line the buffer does not hold whole), which
    /// `next_line` then reads as usual.
    pub fn skip_payload_lines(&mut self) -> u64 {
        if self.after_cr {
            return 0;
        }
        // An error is left for `next_line` to meet and report.
        let Ok(chunk) = self.inner.fill_buf() else {
            return 0;
        };
        let (mut pos, mut n) = (0, 0);
        while chunk.get(pos) == Some(&b'\t') {
            match memchr::memchr2(b'\n', b'\r', &chunk[pos..]) {
                Some(i) if chunk[pos + i] == b'\n' => {
                    pos += i + 1;
                    n += 1;
                }
                _ => break,
            }
        }
        self.inner.consume(pos);
        self.bytes_read += pos as u64;
        self.number += n;
        n
    }

    fn finish(&mut self, len: u64, truncated: bool, skipping: Option<bool>, eof: bool) -> Line<'_> {
        Line {
            bytes: &self.buf,
            number: self.number,
            len,
            truncated,
            skipped: skipping.unwrap_or(false),
            unterminated: eof,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (bytes, truncated, skipped) of each line.
    type Collected = Vec<(Vec<u8>, bool, bool)>;

    fn collect(input: &[u8], cap: usize, mode: PayloadLine) -> (Collected, Vec<u8>) {
        let mut r = LineReader::new(io::BufReader::with_capacity(4, input), cap);
        let mut sunk = Vec::new();
        let mut out = Vec::new();
        while let Some(l) = r.next_line(mode, &mut |b| sunk.extend_from_slice(b)).unwrap() {
            out.push((l.bytes.to_vec(), l.truncated, l.skipped));
        }
        (out, sunk)
    }

    #[test]
    fn splits_lines_across_small_buffers() {
        let (lines, _) = collect(b"abc\r\ndefgh\nlast", 100, PayloadLine::Keep);
        let texts: Vec<_> = lines.iter().map(|l| l.0.clone()).collect();
        assert_eq!(texts, vec![b"abc".to_vec(), b"defgh".to_vec(), b"last".to_vec()]);
    }

    /// Before, a file with CR-only line ends was one long line.
    #[test]
    fn cr_crlf_and_lf_all_end_lines_even_split_across_buffers() {
        for size in 1..8 {
            let input = b"a\rbc\r\nd\n\re\r\r\nf\r";
            let mut r = LineReader::new(io::BufReader::with_capacity(size, &input[..]), 100);
            let mut lines = Vec::new();
            while let Some(l) = r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap() {
                lines.push((String::from_utf8(l.bytes.to_vec()).unwrap(), l.number));
            }
            let want = ["a", "bc", "d", "", "e", "", "f"];
            let want: Vec<_> = want.iter().zip(1..).map(|(t, n)| (t.to_string(), n)).collect();
            assert_eq!(lines, want, "buffer of {size}");
            assert_eq!(r.bytes_read(), input.len() as u64);
        }
    }

    #[test]
    fn caps_long_lines_and_reports_truncation() {
        let (lines, _) = collect(b"0123456789\nxy\n", 4, PayloadLine::Keep);
        assert_eq!(lines[0], (b"0123".to_vec(), true, false));
        assert_eq!(lines[1], (b"xy".to_vec(), false, false));
    }

    /// The fast skip takes whole TAB lines only, leaving a CR, an envelope or
    /// a line cut by the buffer to `next_line`, and numbers lines on.
    #[test]
    fn payload_runs_are_skipped_whole_and_counted() {
        let input = b"\ta\n\tb\nenv\n\tc\r\n\td\n\te";
        let mut r = LineReader::new(io::BufReader::with_capacity(64, &input[..]), 100);
        assert_eq!(r.skip_payload_lines(), 2);
        let env = r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap().unwrap();
        assert_eq!((env.bytes, env.number), (&b"env"[..], 3));
        assert_eq!(r.skip_payload_lines(), 0, "a CR line is next_line's");
        let cr = r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap().unwrap();
        assert_eq!((cr.bytes, cr.number), (&b"\tc"[..], 4));
        assert_eq!(r.skip_payload_lines(), 1, "the unterminated last line is next_line's");
        let last = r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap().unwrap();
        assert!(last.unterminated && last.number == 6);
        assert_eq!(r.bytes_read(), input.len() as u64);
        // A buffer holding part of a line: nothing skipped, nothing lost.
        let mut r = LineReader::new(io::BufReader::with_capacity(3, &b"\tabcdef\n"[..]), 100);
        assert_eq!(r.skip_payload_lines(), 0);
        let line = r.next_line(PayloadLine::Keep, &mut |_| {}).unwrap().unwrap();
        assert_eq!(line.bytes, b"\tabcdef");
    }

    #[test]
    fn skipped_payload_lines_go_to_the_sink_without_tab() {
        let (lines, sunk) = collect(b"env\n\tpay load\nnext\n", 100, PayloadLine::Skip);
        assert_eq!(lines.len(), 3);
        assert!(lines[1].2, "payload line is marked skipped");
        assert_eq!(sunk, b"pay load");
        assert_eq!(lines[2].0, b"next");
    }
}
