//! Byte streams of log files: plain files read straight (large ones through
//! a memory map, see `mapped`), gzip decompressed on a thread of its own so
//! inflating (~300 MB/s) and parsing overlap, and an optional counter of
//! bytes read from disk for progress bars.

use super::lines::read_from_buffer;
use super::mapped::MappedFile;
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
        sniff::record_stdin(&sniff::gunzip_prefix(&head));
        let stdin: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(io::stdin()));
        return gunzip_if_gzip(Counting { inner: stdin, counter });
    }
    let file = File::open(path)?;
    if let Some(mapped) = MappedFile::new(&file, counter.clone()) {
        if !mapped.is_gzip() {
            return Ok(Box::new(mapped));
        }
    }
    gunzip_if_gzip(Counting { inner: file, counter })
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

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

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
