//! What every reader of buffered bytes shares, whatever the bytes come
//! from (a read file, a map, the inflating thread, stdin): one line at a
//! time with a cap on what is kept, and `Read` over a `BufRead`'s buffer.

use std::io::{self, BufRead};

/// Reads one line into `buf`, keeping at most `cap + 1` bytes of it so a
/// file without newlines cannot exhaust memory; returns the line's full
/// length without its line end (over `cap`: the caller skips the line), or
/// None at end of file. A line ends at `\n`, `\r\n` or a lone `\r`.
pub fn read_capped_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<Option<usize>> {
    Ok(read_capped_line_ended(reader, buf, cap)?.map(|(n, _)| n))
}

/// `read_capped_line`, and whether the line ended at a line end (false:
/// at the end of the file, the writer stopped mid-line or wrote no last
/// newline).
pub fn read_capped_line_ended(
    reader: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<(usize, bool)>> {
    let mut total = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok((total > 0).then_some((total, false)));
        }
        let (take, end) = match memchr::memchr2(b'\n', b'\r', chunk) {
            Some(i) => (i + 1, Some((chunk[i], chunk.get(i + 1).copied()))),
            None => (chunk.len(), None),
        };
        let room = (cap + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        total += take;
        match end {
            None => reader.consume(take),
            Some((b'\r', Some(b'\n'))) => reader.consume(take + 1),
            Some((b'\r', None)) => {
                // The CR ended the buffer: a LF starting the next is its pair.
                reader.consume(take);
                if reader.fill_buf()?.first() == Some(&b'\n') {
                    reader.consume(1);
                }
            }
            Some(_) => reader.consume(take),
        }
        if end.is_some() {
            if matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            return Ok(Some((total - 1, true)));
        }
    }
}

/// `Read` for a reader whose bytes are already in its `BufRead` buffer.
pub(super) fn read_from_buffer(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before, a file with CR-only line ends was one record.
    #[test]
    fn capped_lines_end_at_cr_crlf_and_lf_even_split_across_buffers() {
        let input = b"a\rbc\r\nd\n\re\r\r\nf\r";
        for size in 1..8 {
            let mut reader = io::BufReader::with_capacity(size, &input[..]);
            let (mut buf, mut lines) = (Vec::new(), Vec::new());
            while let Some(n) = read_capped_line(&mut reader, &mut buf, 100).unwrap() {
                assert_eq!(n, buf.len());
                lines.push(String::from_utf8(std::mem::take(&mut buf)).unwrap());
            }
            assert_eq!(lines, ["a", "bc", "d", "", "e", "", "f"], "buffer of {size}");
        }
    }
}
