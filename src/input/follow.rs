//! A log file read while a job writes it (`guardscope watch`), without
//! holding it open: each look is a `stat`, and only a file that grew is
//! opened, read from where the last read stopped, and closed again. A watch
//! over ten thousand ranks' logs so holds no descriptor while they are idle
//! and stays far from the open-file limit. A file that got shorter or names
//! another inode was truncated or replaced, and is read again from its start.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

pub struct GrowingFile {
    path: PathBuf,
    identity: Option<u64>,
    /// Bytes parsed so far (the start of what `unread` returns).
    consumed: u64,
    /// The length at the last look: a file that kept it has nothing new.
    seen_len: u64,
}

/// What a look at the file found.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing new since the last look.
    Same,
    /// Longer than at the last look.
    Grew,
    /// Shorter than what was read, or another file at the path.
    Replaced,
    /// Gone (deleted, or not there yet).
    Missing,
}

impl GrowingFile {
    pub fn new(path: &Path) -> Self {
        GrowingFile {
            path: path.to_path_buf(),
            identity: None,
            consumed: 0,
            seen_len: 0,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Looks at the file (one `stat`).
    pub fn check(&mut self) -> Change {
        let Ok(meta) = std::fs::metadata(&self.path) else {
            return Change::Missing;
        };
        let id = identity(&meta);
        if self.identity.is_some_and(|known| known != id) || meta.len() < self.consumed {
            return Change::Replaced;
        }
        self.identity = Some(id);
        if meta.len() == self.seen_len {
            return Change::Same;
        }
        self.seen_len = meta.len();
        Change::Grew
    }

    /// The bytes after what was consumed, at most `max` of them (the file
    /// is opened for this read only).
    pub fn unread(&self, max: u64) -> io::Result<Vec<u8>> {
        let mut file = File::open(&self.path)?;
        file.seek(SeekFrom::Start(self.consumed))?;
        let want = self.seen_len.saturating_sub(self.consumed).min(max);
        let mut bytes = Vec::with_capacity(want as usize);
        file.take(want).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Whether bytes past `max` remain unread (a read was cut at `max`).
    pub fn more_than(&self, max: u64) -> bool {
        self.seen_len.saturating_sub(self.consumed) > max
    }

    pub fn consume(&mut self, n: usize) {
        self.consumed += n as u64;
    }

    /// Starts again from the file's start (after truncation or replacement).
    pub fn restart(&mut self) {
        *self = GrowingFile::new(&self.path);
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
    fn sees_growth_truncation_and_replacement_without_holding_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.log");
        let mut w = File::create(&path).unwrap();
        w.write_all(b"one\ntw").unwrap();
        let mut f = GrowingFile::new(&path);
        assert_eq!(f.check(), Change::Grew);
        assert_eq!(f.unread(1 << 20).unwrap(), b"one\ntw");
        f.consume(4);
        assert_eq!(f.check(), Change::Same);
        w.write_all(b"o\n").unwrap();
        assert_eq!(f.check(), Change::Grew);
        assert_eq!(f.unread(1 << 20).unwrap(), b"two\n");
        assert_eq!(f.unread(2).unwrap(), b"tw");
        assert!(f.more_than(2));
        f.consume(4);
        w.set_len(0).unwrap();
        assert_eq!(f.check(), Change::Replaced);
        f.restart();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(f.check(), Change::Missing);
        std::fs::write(&path, b"new\n").unwrap();
        assert_eq!(f.check(), Change::Grew);
        assert_eq!(f.unread(1 << 20).unwrap(), b"new\n");
    }
}
