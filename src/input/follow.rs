//! A log file read while a job writes it (`guardscope watch`). At its end
//! the reader waits for more rather than saying "end of file", so the line
//! reader above it only ever sees complete lines: a half-written last line
//! is finished by the writer before it is parsed. The end comes when the
//! watch stops, or when the file on disk was truncated or replaced (it is
//! then read again from its start, by a new reader).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often a reader at the end of its file looks for more.
pub const POLL: Duration = Duration::from_millis(200);

pub struct Follow {
    path: PathBuf,
    file: File,
    identity: u64,
    read: u64,
    stop: Arc<AtomicBool>,
    replaced: bool,
}

impl Follow {
    /// Follows `path` from its start until `stop` is set.
    pub fn open(path: &Path, stop: Arc<AtomicBool>) -> io::Result<Self> {
        let file = File::open(path)?;
        let identity = identity(&file.metadata()?);
        Ok(Follow {
            path: path.to_path_buf(),
            file,
            identity,
            read: 0,
            stop,
            replaced: false,
        })
    }

    /// Whether the reading ended because the file was truncated or
    /// replaced, rather than because the watch stopped.
    pub fn replaced(&self) -> bool {
        self.replaced
    }

    /// The path now names another file, or one shorter than what was read.
    /// A file truncated and written past the read position again within
    /// one `POLL` looks like one that only grew: not detectable by size.
    fn replaced_on_disk(&self) -> bool {
        std::fs::metadata(&self.path).is_ok_and(|m| identity(&m) != self.identity || m.len() < self.read)
    }
}

impl Read for Follow {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.file.read(buf)?;
            if n > 0 {
                self.read += n as u64;
                return Ok(n);
            }
            if self.replaced_on_disk() {
                self.replaced = true;
                return Ok(0);
            }
            if self.stop.load(Ordering::SeqCst) {
                // Stop is set after the writer is gone: what it wrote
                // before then is read now.
                let n = self.file.read(buf)?;
                self.read += n as u64;
                return Ok(n);
            }
            std::thread::sleep(POLL);
        }
    }
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.ino()
}

/// Without inodes a replaced file is seen only when it is shorter.
#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn waits_for_the_rest_of_a_line_and_sees_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.log");
        let mut w = File::create(&path).unwrap();
        w.write_all(b"one\ntw").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mut f = Follow::open(&path, stop).unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(f.read(&mut buf).unwrap(), 6);
        let writer = std::thread::spawn(move || {
            std::thread::sleep(POLL * 2);
            w.write_all(b"o\n").unwrap();
            std::thread::sleep(POLL * 2);
            w.set_len(0).unwrap();
        });
        // Blocks until the writer adds the rest, rather than ending mid-line.
        let n = f.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"o\n");
        assert_eq!(f.read(&mut buf).unwrap(), 0);
        assert!(f.replaced());
        writer.join().unwrap();
    }
}
