//! Plain log files read through a memory map: lines are borrowed from the
//! page cache instead of copied out of it (a `read` copy costs a quarter of
//! a parse), and a large file can be cut into parts read on several threads.
//! Only regular files are mapped: pipes, FIFOs and /proc files cannot be.
//!
//! A map has one hazard: if another process truncates the file while it is
//! read (`logrotate` with `copytruncate`), touching the lost pages raises
//! SIGBUS. So maps are used only once `use_memory_maps` has installed a
//! handler that turns that into a clear error and exit status 2: the CLI
//! does, the Python module (inside a user's process) does not.
//! `GUARDSCOPE_MMAP=never` makes the CLI read with `read(2)` too.

use super::lines::read_from_buffer;
use super::prefetch::Prefetch;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Read pages are dropped from the map in aligned blocks of this: mapped
/// pages count in the process's RSS, which must stay flat in file size.
/// A multiple of every page size, so a block is whole pages.
const RELEASE_EVERY: usize = 2 << 20;

/// Below this a file is read, not mapped: small files gain nothing.
pub(super) const MAP_AT_LEAST: u64 = 4 << 20;

static MAPS_ENABLED: AtomicBool = AtomicBool::new(false);

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

fn map(file: &File) -> Option<Arc<memmap2::Mmap>> {
    if !file.metadata().ok()?.is_file() || !MAPS_ENABLED.load(Ordering::Relaxed) {
        return None;
    }
    // SAFETY: the map is read-only and private to guardscope; the one way
    // its bytes can vanish under it (another process truncating the file)
    // ends the process through the SIGBUS handler that `use_memory_maps`
    // installed before enabling maps.
    let map = unsafe { memmap2::MmapOptions::new().map(file) }.ok()?;
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    Some(Arc::new(map))
}

/// A plain log file, mapped, to be cut into parts (see `trace::chunks`).
pub struct MappedLog {
    map: Arc<memmap2::Mmap>,
}

impl MappedLog {
    /// None where maps are off or the file cannot be mapped, and for a
    /// gzip file (its parts cannot be found without inflating it).
    pub fn open(path: &Path) -> io::Result<Option<MappedLog>> {
        let file = File::open(path)?;
        Ok(map(&file)
            .filter(|m| !m.starts_with(&[0x1f, 0x8b]))
            .map(|map| MappedLog { map }))
    }

    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Hands `range` to `visit` a block at a time, releasing each block's
    /// pages once visited (a pass over the file that keeps RSS flat).
    pub fn visit(&self, range: Range<usize>, visit: &mut dyn FnMut(&[u8])) {
        let mut released = Release::from(range.start);
        let mut at = range.start;
        while at < range.end {
            let next = ((at / RELEASE_EVERY + 1) * RELEASE_EVERY).min(range.end);
            visit(&self.map[at..next]);
            at = next;
            released.upto(&self.map, at);
        }
    }

    /// A reader of `range`, counting what it reads into `counter`.
    pub fn reader(&self, range: Range<usize>, counter: Option<Arc<AtomicU64>>) -> impl BufRead + Send + 'static {
        MappedFile {
            prefetch: Prefetch::start(Arc::clone(&self.map), range.clone()),
            map: Arc::clone(&self.map),
            pos: range.start,
            end: range.end,
            released: Release::from(range.start),
            counter,
        }
    }
}

/// The blocks of a map handed back to the kernel, from a part's first
/// whole block on (blocks shared with a neighbouring part stay mapped).
/// (Mapping the next block in ahead with MADV_POPULATE_READ was measured
/// slower than letting the reader fault it in.)
struct Release {
    done: usize,
}

impl Release {
    fn from(start: usize) -> Release {
        Release {
            done: start.div_ceil(RELEASE_EVERY) * RELEASE_EVERY,
        }
    }

    /// Releases the whole blocks before `pos` not yet released.
    fn upto(&mut self, map: &memmap2::Mmap, pos: usize) {
        let end = pos / RELEASE_EVERY * RELEASE_EVERY;
        if end <= self.done {
            return;
        }
        #[cfg(unix)]
        // SAFETY: no slice of the released range outlives the call that
        // read it: LineReader copies the lines it keeps, and a private
        // read-only file map faults dropped pages back in from the file if
        // they are read again.
        let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, self.done, end - self.done) };
        self.done = end;
    }
}

/// A mapped file (or a part of one) as a `BufRead`.
pub(super) struct MappedFile {
    map: Arc<memmap2::Mmap>,
    pos: usize,
    end: usize,
    released: Release,
    counter: Option<Arc<AtomicU64>>,
    prefetch: Option<Prefetch>,
}

impl MappedFile {
    /// The whole file, when it is large enough to be worth mapping.
    pub(super) fn new(file: &File, counter: Option<Arc<AtomicU64>>) -> Option<MappedFile> {
        if file.metadata().ok()?.len() < MAP_AT_LEAST {
            return None;
        }
        let map = map(file)?;
        Some(MappedFile {
            end: map.len(),
            prefetch: Prefetch::start(Arc::clone(&map), 0..map.len()),
            map,
            pos: 0,
            released: Release::from(0),
            counter,
        })
    }

    pub(super) fn is_gzip(&self) -> bool {
        self.map.starts_with(&[0x1f, 0x8b])
    }
}

impl Read for MappedFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, buf)
    }
}

impl BufRead for MappedFile {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.map[self.pos..self.end])
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.pos);
        self.pos += amt;
        if let Some(c) = &self.counter {
            c.fetch_add(amt as u64, Ordering::Relaxed);
        }
        let block_before = self.released.done;
        self.released.upto(&self.map, self.pos);
        if self.released.done != block_before {
            if let Some(p) = &self.prefetch {
                p.reader_at(self.pos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::lines::read_capped_line;
    use std::io::BufReader;

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
            mapped.released.done >= text.len() - RELEASE_EVERY,
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
                "input::mapped::tests::a_file_truncated_under_the_map_is_a_clear_error_not_a_crash",
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

    /// `big_log`, mapped (the directory holds it while the test runs).
    fn mapped_big_log() -> (tempfile::TempDir, Vec<u8>, MappedLog) {
        let dir = tempfile::tempdir().unwrap();
        let (path, text) = big_log(dir.path());
        MAPS_ENABLED.store(true, Ordering::Relaxed);
        let log = MappedLog::open(&path).unwrap().expect("mapped");
        (dir, text, log)
    }

    /// A reader dropped part way (an error, a stop) ends its prefetch
    /// thread with it, and one read to the end reads what the file holds.
    #[test]
    fn prefetch_ends_with_its_reader() {
        let (_dir, text, log) = mapped_big_log();
        for stop_at in [0, 1, RELEASE_EVERY + 5] {
            let mut reader = log.reader(0..text.len(), None);
            let mut head = vec![0; stop_at];
            reader.read_exact(&mut head).unwrap();
            assert_eq!(head, text[..stop_at]);
            drop(reader);
        }
        let mut all = Vec::new();
        log.reader(0..text.len(), None).read_to_end(&mut all).unwrap();
        assert!(all == text);
    }

    /// Parts read apart give back the file, and a visit sees it all.
    #[test]
    fn parts_and_visits_cover_the_file_exactly() {
        let (_dir, text, log) = mapped_big_log();
        assert_eq!(log.bytes(), &text[..]);
        let cuts = [
            0,
            1,
            RELEASE_EVERY - 1,
            RELEASE_EVERY + 7,
            3 * RELEASE_EVERY,
            text.len(),
        ];
        let counter = Arc::new(AtomicU64::new(0));
        let (mut read, mut visited) = (Vec::new(), Vec::new());
        for part in cuts.windows(2) {
            let mut reader = log.reader(part[0]..part[1], Some(counter.clone()));
            reader.read_to_end(&mut read).unwrap();
            log.visit(part[0]..part[1], &mut |b| visited.extend_from_slice(b));
        }
        assert!(read == text && visited == text);
        assert_eq!(counter.load(Ordering::Relaxed), text.len() as u64);
    }
}
