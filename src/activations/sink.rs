//! The JSONL file behind activation traces: buffered, thread-safe, and
//! shared by path within a process.
//!
//! Within one process the first sink opened on a path truncates the file;
//! while it is open, other traces on that path share it (so two traces on
//! one file never clobber each other), and a later one reopens it for
//! appending. A new process starts a new file.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

const BUFFER_BYTES: usize = 256 * 1024;

pub struct Sink {
    path: PathBuf,
    writer: Mutex<BufWriter<File>>,
}

/// Sinks by absolute path; an entry whose sink is gone means "append next time".
fn registry() -> MutexGuard<'static, HashMap<PathBuf, Weak<Sink>>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Weak<Sink>>>> = OnceLock::new();
    lock(OPEN.get_or_init(Default::default))
}

/// A panic while a lock was held cannot leave these structures half-updated
/// in a way that matters (at worst a partly written line), so keep going.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Sink {
    /// Opens (or joins) the sink for `path`, creating its parent directory.
    /// Fails now, not at the first record, if the file cannot be written.
    pub fn open(path: &Path) -> io::Result<Arc<Sink>> {
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a file path", path.display()),
            )
        })?;
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent).map_err(|e| with_path(e, "cannot create directory", &parent))?;
        let key = fs::canonicalize(&parent)
            .map_err(|e| with_path(e, "cannot resolve", &parent))?
            .join(name);

        let mut open = registry();
        let seen = match open.get(&key) {
            Some(weak) => match weak.upgrade() {
                Some(sink) => return Ok(sink),
                None => true,
            },
            None => false,
        };
        let file = if seen {
            OpenOptions::new().append(true).create(true).open(&key)
        } else {
            File::create(&key)
        }
        .map_err(|e| with_path(e, "cannot write", &key))?;
        let sink = Arc::new(Sink {
            path: key.clone(),
            writer: Mutex::new(BufWriter::with_capacity(BUFFER_BYTES, file)),
        });
        open.insert(key, Arc::downgrade(&sink));
        Ok(sink)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends whole lines; lines from concurrent writers never interleave.
    pub fn write(&self, lines: &[u8]) -> io::Result<()> {
        lock(&self.writer).write_all(lines)
    }

    pub fn flush(&self) -> io::Result<()> {
        lock(&self.writer).flush()
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        // BufWriter flushes on drop too, but silently; this is the same, explicit.
        let _ = lock(&self.writer).flush();
    }
}

fn with_path(err: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("{what} {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_the_parent_and_shares_one_file_per_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/trace.jsonl");
        let first = Sink::open(&path).unwrap();
        let second = Sink::open(&dir.path().join("a/./b/trace.jsonl")).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        first.write(b"1\n").unwrap();
        second.write(b"2\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "", "buffered until a flush");
        first.flush().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "1\n2\n");
    }

    #[test]
    fn the_first_open_in_a_process_truncates_later_ones_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trace.jsonl");
        fs::write(&path, "from an earlier run\n").unwrap();
        let sink = Sink::open(&path).unwrap();
        sink.write(b"one\n").unwrap();
        drop(sink);
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\n", "flushed when dropped");
        Sink::open(&path).unwrap().write(b"two\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }

    #[test]
    fn an_unwritable_path_fails_at_open_with_the_path_in_the_message() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain-file");
        fs::write(&file, "").unwrap();
        let err = Sink::open(&file.join("trace.jsonl")).err().unwrap();
        assert!(err.to_string().contains("plain-file"), "{err}");
        let err = Sink::open(dir.path()).err().unwrap();
        assert!(err.to_string().contains(&dir.path().display().to_string()), "{err}");
    }
}
