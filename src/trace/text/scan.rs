//! A text log read a large buffer at a time: a job's log is mostly its own
//! output, so a buffer whose bytes hold none of Dynamo's words has its lines
//! counted and nothing more (one multi-literal search over the buffer, not
//! one per line), and only buffers that hold one are taken apart line by
//! line. Lines are numbered as `LineReader` numbers them (`\n`, `\r\n` or a
//! lone `\r` ends one).

use regex::bytes::Regex;
use std::io::{self, BufRead};
use std::sync::OnceLock;

/// Where the lines go.
pub trait Lines {
    /// Whether every line must be looked at (a pasted block is open: its
    /// further lines need not hold Dynamo's words).
    fn every_line(&self) -> bool;
    fn line(&mut self, bytes: &[u8], number: u64);
}

/// Bytes looked at once: the search's start-up cost is paid once per buffer.
const BUFFER: usize = 1 << 20;

/// Any of the words a line of Dynamo's (or a reason pasted alone, or a
/// `[rankN]:` line) holds; `prefix::might_be_dynamo` then tells line by line.
fn words() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"ecompil|graph_breaks|raph break|Graph Break|_limit|guard failure|__guards|function: '|last reason: |\[rank|- [0-9]+/[0-9]",
        )
        .expect("valid regex")
    })
}

/// Where the line starting at `pos` ends, and where the next one starts;
/// None when no line end is in `buf`. A `\r` at the very end sets `after_cr`
/// (a `\n` starting the next buffer belongs to it).
fn line_end(buf: &[u8], pos: usize, after_cr: &mut bool) -> Option<(usize, usize)> {
    let i = pos + memchr::memchr2(b'\n', b'\r', &buf[pos..])?;
    Some(match (buf[i], buf.get(i + 1)) {
        (b'\r', Some(b'\n')) => (i, i + 2),
        (b'\r', None) => {
            *after_cr = true;
            (i, i + 1)
        }
        _ => (i, i + 1),
    })
}

/// The line ends in `bytes` (`\n`, `\r\n`, a lone `\r`), which ends with one:
/// one pass over byte pairs in blocks the compiler turns into vector code,
/// as fast whether `\r`s are many (a progress bar redrawn every step) or few.
fn count_ends(bytes: &[u8]) -> u64 {
    const LANES: usize = 32;
    let Some((&last, _)) = bytes.split_last() else {
        return 0;
    };
    let ends = |b: u8, after: u8| u8::from(b == b'\n') + u8::from((b == b'\r') & (after != b'\n'));
    let (this, next) = (&bytes[..bytes.len() - 1], &bytes[1..]);
    let mut total = 0u64;
    let mut lanes = [0u8; LANES];
    // A lane gains at most 1 a block: emptied every 255 blocks.
    let mut blocks = 0;
    let (a, b) = (this.chunks_exact(LANES), next.chunks_exact(LANES));
    let rest = a.remainder().iter().zip(b.remainder());
    for (a, b) in a.zip(b) {
        let (a, b): (&[u8; LANES], &[u8; LANES]) = (a.try_into().unwrap(), b.try_into().unwrap());
        for i in 0..LANES {
            lanes[i] += ends(a[i], b[i]);
        }
        blocks += 1;
        if blocks == 255 {
            total += lanes.iter().map(|&n| u64::from(n)).sum::<u64>();
            lanes = [0; LANES];
            blocks = 0;
        }
    }
    total += lanes.iter().map(|&n| u64::from(n)).sum::<u64>();
    total += rest.map(|(&a, &b)| u64::from(ends(a, b))).sum::<u64>();
    total + u64::from(last == b'\n' || last == b'\r')
}

/// Reads `reader` to its end, at most `BUFFER` bytes of its buffer at a
/// time (a mapped file's is the whole file, read in place); returns (lines, bytes).
pub fn scan<R: BufRead>(mut reader: R, cap: usize, sink: &mut dyn Lines) -> io::Result<(u64, u64)> {
    let (mut number, mut bytes) = (0u64, 0u64);
    let mut carry: Vec<u8> = Vec::new();
    let mut carrying = false;
    let mut after_cr = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if carrying {
                number += 1;
                sink.line(&carry, number);
            }
            return Ok((number, bytes));
        }
        let buf = &buf[..buf.len().min(BUFFER)];
        let len = buf.len();
        bytes += len as u64;
        let mut pos = 0;
        if std::mem::take(&mut after_cr) && buf[0] == b'\n' {
            pos = 1;
        }
        let Some(last) = memchr::memrchr2(b'\n', b'\r', &buf[pos..]).map(|i| i + pos) else {
            let room = cap.saturating_sub(carry.len());
            carry.extend_from_slice(&buf[pos..len.min(pos + room)]);
            carrying |= pos < len;
            reader.consume(len);
            continue;
        };
        let region_end = last + 1;
        if carrying {
            let (end, next) = line_end(buf, pos, &mut after_cr).expect("a line end is in the buffer");
            let room = cap.saturating_sub(carry.len());
            carry.extend_from_slice(&buf[pos..end.min(pos + room)]);
            number += 1;
            sink.line(&carry, number);
            carry.clear();
            carrying = false;
            pos = next;
        }
        if pos < region_end {
            let region = &buf[pos..region_end];
            if !sink.every_line() && !words().is_match(region) {
                number += count_ends(region);
                // A `\r` that ends the buffer may be the half of a `\r\n`.
                after_cr = region_end == len && buf[last] == b'\r';
            } else {
                while pos < region_end {
                    let Some((end, next)) = line_end(buf, pos, &mut after_cr) else {
                        break;
                    };
                    number += 1;
                    sink.line(&buf[pos..end.min(pos + cap)], number);
                    pos = next;
                }
            }
        }
        if region_end < len {
            carry.extend_from_slice(&buf[region_end..len.min(region_end + cap)]);
            carrying = true;
        }
        reader.consume(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    struct Collect(Vec<(u64, String)>);

    /// At most `.1` bytes per read: buffers that end anywhere.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    impl Lines for Collect {
        fn every_line(&self) -> bool {
            true
        }
        fn line(&mut self, bytes: &[u8], number: u64) {
            self.0.push((number, String::from_utf8_lossy(bytes).into_owned()));
        }
    }

    #[test]
    fn line_ends_are_counted_as_the_line_reader_counts_them() {
        for (text, ends) in [("a\r\nb\rc\n\nd\n", 5), ("\r\r\n\n", 3), ("x\r", 1), ("", 0)] {
            assert_eq!(count_ends(text.as_bytes()), ends, "{text:?}");
        }
        // Long enough for the byte lanes to be emptied many times, with
        // every pair of `a`, `\r`, `\n` in it.
        let mut state = 7u32;
        let mut text: Vec<u8> = (0..200_003)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                [b'a', b'\r', b'\n'][(state >> 16) as usize % 3]
            })
            .collect();
        text.push(b'\n');
        let one_by_one = (0..text.len())
            .filter(|&i| text[i] == b'\n' || (text[i] == b'\r' && text.get(i + 1) != Some(&b'\n')))
            .count() as u64;
        assert_eq!(count_ends(&text), one_by_one);
    }

    #[test]
    fn a_cr_lf_split_between_reads_ends_one_line() {
        // Lines that hold none of Dynamo's words are only counted; a `\r`
        // ending one read and its `\n` starting the next are one line end.
        struct Count(u64);
        impl Lines for Count {
            fn every_line(&self) -> bool {
                false
            }
            fn line(&mut self, _: &[u8], _: u64) {
                self.0 += 1;
            }
        }
        let text = b"progress 1\rprogress 2\r\nloss 3\r\nend\n";
        for buffer in [1usize, 2, 3, 11, 12, 13, 64] {
            let mut sink = Count(0);
            let (lines, _) = scan(BufReader::new(Trickle(text, buffer)), 1 << 10, &mut sink).unwrap();
            assert_eq!(lines, 4, "buffer {buffer}");
        }
        // A lone `\r` inside a read is no half of the next read's `\n`.
        for buffer in [1usize, 2, 3, 4, 5, 64] {
            let (lines, _) = scan(BufReader::new(Trickle(b"ab\rc\nd\n", buffer)), 1 << 10, &mut Count(0)).unwrap();
            assert_eq!(lines, 3, "buffer {buffer}");
        }
    }

    #[test]
    fn lines_are_numbered_as_the_line_reader_numbers_them() {
        let text = b"a\r\nb\rc\n\nd";
        for buffer in [1usize, 2, 3, 64] {
            let mut sink = Collect(Vec::new());
            let (lines, bytes) = scan(BufReader::new(Trickle(text, buffer)), 1 << 10, &mut sink).unwrap();
            assert_eq!((lines, bytes), (5, text.len() as u64), "buffer {buffer}");
            let got: Vec<&str> = sink.0.iter().map(|(_, l)| l.as_str()).collect();
            assert_eq!(got, ["a", "b", "c", "", "d"], "buffer {buffer}");
        }
    }
}
