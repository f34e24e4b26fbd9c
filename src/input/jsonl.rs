//! JSONL record files (step records, activation traces) read line by line
//! with the same rules: a line longer than the cap is skipped, so a file
//! without newlines cannot exhaust memory; a blank line is skipped; a read
//! error ends the file. Both are problems with `file:line`, never a failed
//! read.

use super::lines::read_capped_line_ended;
use super::problems::{ProblemKind, Problems};
use std::io::BufRead;
use std::sync::Arc;

pub struct JsonlLines<R> {
    reader: R,
    file: Arc<str>,
    cap: usize,
    buf: Vec<u8>,
    /// Lines read so far, blank and skipped ones included.
    lines: u64,
    ended: bool,
    /// The last line read ended at the end of the file, not at a line end.
    unterminated: bool,
}

impl<R: BufRead> JsonlLines<R> {
    /// `file` is the path as diagnostics show it; `cap` the longest line kept.
    pub fn new(reader: R, file: Arc<str>, cap: usize) -> Self {
        JsonlLines {
            reader,
            file,
            cap,
            buf: Vec::new(),
            lines: 0,
            ended: false,
            unterminated: false,
        }
    }

    /// The next non-blank line, trimmed of ASCII whitespace, with its
    /// number (from 1); None at the end of the file or after a read error.
    /// Skipped lines and the read error go into `problems`.
    pub fn next_line(&mut self, problems: &mut Problems) -> Option<(u64, &[u8])> {
        while !self.ended {
            self.buf.clear();
            let n = match read_capped_line_ended(&mut self.reader, &mut self.buf, self.cap) {
                Ok(Some((n, ended))) => {
                    self.unterminated = !ended;
                    n
                }
                Ok(None) => break,
                Err(e) => {
                    problems.push(&self.file, self.lines + 1, ProblemKind::Io, format!("read error: {e}"));
                    break;
                }
            };
            self.lines += 1;
            if n > self.cap {
                let why = format!("record of {n} bytes skipped");
                problems.push(&self.file, self.lines, ProblemKind::LineTooLong, why);
                continue;
            }
            if !self.buf.trim_ascii().is_empty() {
                return Some((self.lines, self.buf.trim_ascii()));
            }
        }
        self.ended = true;
        None
    }

    /// Lines read so far, blank and skipped ones included.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Whether the line last returned ended at the end of the file without
    /// a line end: if it does not parse, the writer stopped mid-line (the
    /// disk filled, the process was killed) and what came after is lost,
    /// the rule the TORCH_TRACE parser applies to its last line.
    pub fn unterminated(&self) -> bool {
        self.unterminated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &[u8], cap: usize) -> (Vec<(u64, String)>, u64, Problems) {
        let mut lines = JsonlLines::new(text, "f.jsonl".into(), cap);
        let mut problems = Problems::default();
        let mut out = Vec::new();
        while let Some((n, line)) = lines.next_line(&mut problems) {
            out.push((n, String::from_utf8_lossy(line).into_owned()));
        }
        (out, lines.lines(), problems)
    }

    #[test]
    fn blank_lines_are_skipped_and_long_ones_reported_with_their_number() {
        let (out, count, problems) = read_all(b"{}\n\n  \t\n0123456789ab\r\n {\"a\":1} ", 10);
        assert_eq!(out, [(1, "{}".to_string()), (5, "{\"a\":1}".to_string())]);
        assert_eq!(count, 5);
        assert_eq!(problems.count_of(ProblemKind::LineTooLong), 1);
        assert_eq!(problems.first[0].to_string(), "f.jsonl:4: record of 12 bytes skipped");
    }

    #[test]
    fn a_last_line_without_its_line_end_is_told_apart() {
        for (text, cut) in [(&b"{}\n{\"a\""[..], true), (b"{}\n{}\n", false), (b"{}\r{}\r", false)] {
            let mut lines = JsonlLines::new(text, "f.jsonl".into(), 64);
            let mut problems = Problems::default();
            assert!(lines.next_line(&mut problems).is_some());
            assert!(!lines.unterminated(), "{text:?}: the first line ended");
            assert!(lines.next_line(&mut problems).is_some());
            assert_eq!(lines.unterminated(), cut, "{text:?}");
        }
    }

    #[test]
    fn a_read_error_is_a_problem_on_the_next_line_and_ends_the_file() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk gone"))
            }
        }
        let reader = std::io::BufReader::new(std::io::Read::chain(&b"{}\n"[..], Failing));
        let mut lines = JsonlLines::new(reader, "f.jsonl".into(), 8);
        let mut problems = Problems::default();
        assert_eq!(lines.next_line(&mut problems).map(|(n, _)| n), Some(1));
        assert!(lines.next_line(&mut problems).is_none());
        assert!(lines.next_line(&mut problems).is_none());
        assert_eq!(problems.unread(), ["f.jsonl:2: read error: disk gone"]);
    }
}
