//! Byte streams of log files: plain files read straight, gzip decompressed
//! on a thread of its own so inflating (~300 MB/s) and parsing overlap, and
//! an optional counter of bytes read from disk for progress bars.

use super::sniff;
use flate2::read::MultiGzDecoder;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

const READ_BUFFER: usize = 256 << 10;
/// Decompressed chunk handed from the inflating thread to the parser.
const CHUNK: usize = 1 << 20;
/// Chunks in flight: enough to keep both threads busy, little memory.
const CHUNKS_IN_FLIGHT: usize = 4;

/// Opens a log for streaming, decompressing gzip when the file starts with
/// the gzip magic number (whatever its name says).
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    open_counted(path, None)
}

/// Like `open`, adding every byte read from disk to `counter`.
/// `-` is stdin, read once; what it holds is recorded for error messages.
pub fn open_counted(path: &Path, counter: Option<Arc<AtomicU64>>) -> io::Result<Box<dyn BufRead + Send>> {
    if super::is_stdin(path) {
        // A pipe's first read may be a byte or two: read a whole head before
        // looking for the gzip magic number, then hand it back in front.
        let mut head = Vec::with_capacity(sniff::SNIFF_BYTES);
        io::stdin()
            .lock()
            .take(sniff::SNIFF_BYTES as u64)
            .read_to_end(&mut head)?;
        sniff::record_stdin(sniff::classify(&sniff::gunzip_prefix(&head)));
        let stdin: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(io::stdin()));
        return gunzip_if_gzip(Counting { inner: stdin, counter });
    }
    let file = File::open(path)?;
    if let Some(mapped) = MappedFile::new(&file, counter.clone()) {
        if !mapped.map.starts_with(&[0x1f, 0x8b]) {
            return Ok(Box::new(mapped));
        }
    }
    gunzip_if_gzip(Counting { inner: file, counter })
}

/// A plain log file read through a memory map: lines are borrowed from the
/// page cache instead of copied out of it (a `read` copy costs a quarter of
/// a parse). Only regular files of a few MB or more are mapped: small files
/// gain nothing, and pipes, FIFOs and /proc files cannot be.
///
/// A map has one hazard: if another process truncates the file while it is
/// read (`logrotate` with `copytruncate`), touching the lost pages raises
/// SIGBUS. So maps are used only once `use_memory_maps` has installed a
/// handler that turns that into a clear error and exit status 2: the CLI
/// does, the Python module (inside a user's process) does not.
/// `GUARDSCOPE_MMAP=never` makes the CLI read with `read(2)` too.
struct MappedFile {
    map: memmap2::Mmap,
    pos: usize,
    /// Everything before this was handed back to the kernel.
    released: usize,
    counter: Option<Arc<AtomicU64>>,
}

/// Read pages are dropped from the map in steps of this: mapped pages count
/// in the process's RSS, which must stay flat in file size.
const RELEASE_EVERY: usize = 2 << 20;

/// Below this a file is read, not mapped.
const MAP_AT_LEAST: u64 = 4 << 20;

impl MappedFile {
    fn new(file: &File, counter: Option<Arc<AtomicU64>>) -> Option<MappedFile> {
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() < MAP_AT_LEAST || !MAPS_ENABLED.load(Ordering::Relaxed) {
            return None;
        }
        // SAFETY: the map is read-only and private to this reader; the one
        // way its bytes can vanish under it (another process truncating the
        // file) ends the process through the SIGBUS handler that
        // `use_memory_maps` installed before enabling maps.
        let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Sequential);
        Some(MappedFile {
            map,
            pos: 0,
            released: 0,
            counter,
        })
    }
}

static MAPS_ENABLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets `open` map large plain files (unless `GUARDSCOPE_MMAP=never`), after
/// installing the SIGBUS handler that makes a file truncated under the map
/// an error message instead of a crash. For a process guardscope owns (the
/// CLI), not for one it is a library in.
pub fn use_memory_maps() {
    if std::env::var_os("GUARDSCOPE_MMAP").is_some_and(|v| v == "never") {
        return;
    }
    if super::sigbus::install() {
        MAPS_ENABLED.store(true, Ordering::Relaxed);
    }
}

/// `Read` for a reader whose bytes are already in its `BufRead` buffer.
fn read_from_buffer(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

impl Read for MappedFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, buf)
    }
}

impl BufRead for MappedFile {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.map[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.map.len() - self.pos);
        self.pos += amt;
        if let Some(c) = &self.counter {
            c.fetch_add(amt as u64, Ordering::Relaxed);
        }
        #[cfg(unix)]
        if self.pos - self.released >= RELEASE_EVERY {
            // Page-aligned (the map starts on a page), whole steps only.
            let len = (self.pos - self.released) / RELEASE_EVERY * RELEASE_EVERY;
            // SAFETY: no slice of the released range outlives `consume`:
            // LineReader copies the lines it keeps, and a private read-only
            // file map faults dropped pages back in from the file if read.
            let _ = unsafe {
                self.map
                    .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, self.released, len)
            };
            self.released += len;
        }
    }
}

fn gunzip_if_gzip<R: Read + Send + 'static>(input: Counting<R>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut input = BufReader::with_capacity(READ_BUFFER, input);
    if input.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(inflate_on_thread(input)))
    } else {
        Ok(Box::new(input))
    }
}

/// Reads a whole small file, transparently gunzipping it (for tests and tools).
pub fn read_to_string(path: &Path) -> io::Result<String> {
    let mut s = String::new();
    open(path)?.read_to_string(&mut s)?;
    Ok(s)
}

struct Counting<R> {
    inner: R,
    counter: Option<Arc<AtomicU64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(c) = &self.counter {
            c.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

fn inflate_on_thread<R: BufRead + Send + 'static>(compressed: R) -> ChunkReader {
    let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(CHUNKS_IN_FLIGHT);
    std::thread::spawn(move || {
        let mut decoder = MultiGzDecoder::new(compressed);
        loop {
            let mut chunk = vec![0u8; CHUNK];
            let mut filled = 0;
            // Fill whole chunks: the decoder returns a few KB per call.
            let result = loop {
                match decoder.read(&mut chunk[filled..]) {
                    Ok(0) => break Ok(()),
                    Ok(n) => {
                        filled += n;
                        if filled == CHUNK {
                            break Ok(());
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => break Err(e),
                }
            };
            chunk.truncate(filled);
            let last = filled < CHUNK || result.is_err();
            // A send fails only when the parser stopped reading: stop too.
            if filled > 0 && tx.send(Ok(chunk)).is_err() {
                return;
            }
            if let Err(e) = result {
                let _ = tx.send(Err(e));
                return;
            }
            if last {
                return;
            }
        }
    });
    ChunkReader {
        rx,
        chunk: Vec::new(),
        pos: 0,
    }
}

/// The parser's side of the inflating thread: a `BufRead` over its chunks.
struct ChunkReader {
    rx: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    pos: usize,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, buf)
    }
}

impl BufRead for ChunkReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.chunk.len() {
            match self.rx.recv() {
                Ok(Ok(chunk)) => {
                    self.chunk = chunk;
                    self.pos = 0;
                }
                Ok(Err(e)) => return Err(e),
                // The thread finished: end of stream.
                Err(_) => {
                    self.chunk.clear();
                    self.pos = 0;
                }
            }
        }
        Ok(&self.chunk[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.chunk.len());
    }
}

/// Reads one line into `buf`, keeping at most `cap + 1` bytes of it so a
/// file without newlines cannot exhaust memory; returns the line's full
/// length without its line end (over `cap`: the caller skips the line), or
/// None at end of file. A line ends at `\n`, `\r\n` or a lone `\r`.
pub fn read_capped_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<Option<usize>> {
    let mut total = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok((total > 0).then_some(total));
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
            return Ok(Some(total - 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

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

    fn big_log(dir: &Path) -> (std::path::PathBuf, Vec<u8>) {
        let text: Vec<u8> = (0..600_000)
            .flat_map(|i| format!("line {i}\r\n\tpayload {i}\n").into_bytes())
            .collect();
        assert!(text.len() as u64 > MAP_AT_LEAST);
        let path = dir.join("big.log");
        std::fs::write(&path, &text).unwrap();
        (path, text)
    }

    /// A mapped file reads exactly like a read one, counted byte for byte,
    /// across the steps where read pages are released.
    #[test]
    fn a_mapped_file_reads_and_counts_like_a_read_one() {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = big_log(dir.path());
        MAPS_ENABLED.store(true, Ordering::Relaxed);
        let counter = Arc::new(AtomicU64::new(0));
        let mut mapped = MappedFile::new(&File::open(&path).unwrap(), Some(counter.clone())).expect("mapped");
        let mut lines = Vec::new();
        let (mut buf, mut want) = (Vec::new(), Vec::new());
        while read_capped_line(&mut mapped, &mut buf, 100).unwrap().is_some() {
            lines.push(std::mem::take(&mut buf));
        }
        let mut plain = BufReader::with_capacity(1000, &text[..]);
        while read_capped_line(&mut plain, &mut buf, 100).unwrap().is_some() {
            want.push(std::mem::take(&mut buf));
        }
        assert_eq!(lines, want);
        assert_eq!(counter.load(Ordering::Relaxed), text.len() as u64);
        assert!(
            mapped.released >= text.len() - RELEASE_EVERY,
            "read pages were released"
        );
        // A small file is read, not mapped.
        let small = dir.path().join("small.log");
        std::fs::write(&small, b"x\n").unwrap();
        assert!(MappedFile::new(&File::open(&small).unwrap(), None).is_none());
    }

    /// A file truncated under the map ends the process with a message and
    /// status 2, not "Bus error". Run in a child process (this test binary
    /// again) because the handler exits.
    #[cfg(unix)]
    #[test]
    fn a_file_truncated_under_the_map_is_a_clear_error_not_a_crash() {
        const CHILD: &str = "GUARDSCOPE_TEST_SIGBUS_CHILD";
        if let Some(dir) = std::env::var_os(CHILD) {
            use_memory_maps();
            let (path, _) = big_log(Path::new(&dir));
            let file = File::open(&path).unwrap();
            let mut mapped = MappedFile::new(&file, None).expect("mapped");
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(0)
                .unwrap();
            let mut byte = [0u8; 1];
            mapped.consume(MAP_AT_LEAST as usize);
            let _ = mapped.read(&mut byte);
            unreachable!("reading a truncated map returned");
        }
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "input::readers::tests::a_file_truncated_under_the_map_is_a_clear_error_not_a_crash",
            ])
            .env(CHILD, dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
        assert!(
            stderr.contains("guardscope: error: a log file shrank while it was being read"),
            "{stderr}"
        );
    }

    #[test]
    fn gzip_through_the_thread_equals_the_original_and_is_counted() {
        let text: String = (0..200_000).map(|i| format!("line {i}\n")).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.log.gz");
        let mut enc = GzEncoder::new(File::create(&path).unwrap(), flate2::Compression::fast());
        enc.write_all(text.as_bytes()).unwrap();
        enc.finish().unwrap();
        let counter = Arc::new(AtomicU64::new(0));
        let mut out = String::new();
        open_counted(&path, Some(counter.clone()))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, text);
        assert_eq!(counter.load(Ordering::Relaxed), std::fs::metadata(&path).unwrap().len());
    }

    #[test]
    fn a_cut_gzip_stream_is_an_error_after_the_good_data() {
        let text: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(text.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.log.gz");
        std::fs::write(&path, &gz[..gz.len() / 2]).unwrap();
        let mut reader = open(&path).unwrap();
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(!out.is_empty() && text.as_bytes().starts_with(&out));
    }
}
