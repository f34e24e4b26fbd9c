//! The JSONL file behind activation traces: buffered, thread-safe, and
//! shared by path within a process.
//!
//! Within one process the first sink opened on a path truncates the file,
//! under an exclusive lock: a file another process holds is never
//! truncated, this process writes beside it (`NAME.pid<PID>.EXT`);
//! while it is open, other traces on that path share it (so two traces on
//! one file never clobber each other), and a later one reopens it for
//! appending. A new process starts a new file. Writes go through `O_APPEND`,
//! so a forked child that opens the same path adds to the end of the file
//! instead of overwriting the parent's lines.
//!
//! A sink never makes its caller fail after it is open: the first write or
//! flush that fails (disk full, file gone bad) is handed, once, to the caller
//! that hit it, to be reported; from then on the sink drops everything and
//! never touches the file again. Training must go on when tracing cannot.
//!
//! A file deleted (or replaced) at its path while the sink writes it is
//! noticed at the next flush (once a step): the sink opens the path again and
//! writes on there, and that flush tells its caller, once, to warn.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use super::fork;

const BUFFER_BYTES: usize = 256 * 1024;

pub struct Sink {
    path: PathBuf,
    /// The fork generation that opened it; in any other process it is inert.
    generation: u64,
    /// `None` once a write failed.
    writer: Mutex<Option<Open>>,
    /// Why writing stopped, once it has.
    failure: OnceLock<String>,
}

/// The failure that stopped a sink, returned only by the call that hit it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SinkFailed(pub String);

impl std::fmt::Display for SinkFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The open file, and which file it is (to notice when the path no longer
/// leads to it).
struct Open {
    file: BufWriter<File>,
    id: Option<FileId>,
}

impl Open {
    fn new(file: File) -> Open {
        let id = file.metadata().ok().and_then(|m| file_id(&m));
        Open {
            file: BufWriter::with_capacity(BUFFER_BYTES, file),
            id,
        }
    }
}

/// Device and inode: the same pair at the path means the same file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(meta: &fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(meta.dev(), meta.ino()))
}

/// Elsewhere the check is off: the file is never reopened.
#[cfg(not(unix))]
fn file_id(_meta: &fs::Metadata) -> Option<FileId> {
    None
}

type Registry = HashMap<PathBuf, (u64, Weak<Sink>)>;

/// Sinks by absolute path, with the fork generation that opened them; an
/// entry whose sink is gone (or failed, or belongs to the parent of a forked
/// child) means "append next time".
fn registry() -> MutexGuard<'static, Registry> {
    static OPEN: OnceLock<Mutex<Registry>> = OnceLock::new();
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
        let generation = fork::generation();
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
            Some((made_in, weak)) if *made_in == generation => match weak.upgrade() {
                Some(sink) if !sink.failed() => return Ok(sink),
                _ => true,
            },
            Some(_) => true,
            None => false,
        };
        let (file, key) = if seen {
            let file = OpenOptions::new().append(true).create(true).open(&key);
            (file.map_err(|e| with_path(e, "cannot write", &key))?, key)
        } else {
            open_alone(key)?
        };
        let sink = Arc::new(Sink {
            path: key.clone(),
            generation,
            writer: Mutex::new(Some(Open::new(file))),
            failure: OnceLock::new(),
        });
        open.insert(key, (generation, Arc::downgrade(&sink)));
        Ok(sink)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether writes still reach the file: false once a write failed, and in
    /// a forked child for a sink its parent opened.
    pub fn live(&self) -> bool {
        !self.failed() && fork::is_current(self.generation)
    }

    pub fn failed(&self) -> bool {
        self.failure.get().is_some()
    }

    /// Why the sink stopped writing, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// Appends whole lines; lines from concurrent writers never interleave.
    /// `Ok(false)` when the sink dropped them (failed earlier, or inherited).
    pub fn write(&self, lines: &[u8]) -> Result<bool, SinkFailed> {
        self.with_writer(|w| w.file.write_all(lines)).map(|done| done.is_some())
    }

    /// Writes out what is buffered. `Ok(Some(message))` when the file had
    /// been deleted or replaced at its path and was opened again: a warning
    /// for the caller to log (once; the next flush finds the new file).
    pub fn flush(&self) -> Result<Option<String>, SinkFailed> {
        let mut notice = None;
        self.with_writer(|w| {
            notice = self.reopen_if_gone(w)?;
            w.file.flush()
        })?;
        Ok(notice)
    }

    /// Opens the path again when it no longer leads to the open file, and
    /// moves what is buffered there.
    ///
    /// Records written to a deleted file are lost when it is closed, and
    /// nothing says so: the user sees no file, or a different one. Stopping
    /// would lose the rest of the run as silently. A new file at the same
    /// path is what a user wants: the default path is in the temporary
    /// directory, where cleaners delete the files of long runs, and a user
    /// who deletes the file mid-run wants the records from then on. The
    /// records flushed before are gone with the deleted file (the warning
    /// says so). One `stat` per flush, i.e. per step: about a microsecond.
    fn reopen_if_gone(&self, open: &mut Open) -> io::Result<Option<String>> {
        let Some(id) = open.id else {
            return Ok(None);
        };
        let gone = match fs::metadata(&self.path) {
            Ok(meta) => file_id(&meta) != Some(id),
            Err(err) => err.kind() == io::ErrorKind::NotFound,
        };
        if !gone {
            return Ok(None);
        }
        if let Some(parent) = self.path.parent() {
            fs::create_dir_all(parent)?;
        }
        let file = OpenOptions::new().append(true).create(true).open(&self.path)?;
        let old = std::mem::replace(open, Open::new(file));
        let (_deleted, unwritten) = old.file.into_parts();
        // A panic inside an earlier write lost its bytes whichever file
        // they were going to; the rest of the buffer still moves over.
        if let Ok(bytes) = unwritten {
            open.file.write_all(&bytes)?;
        }
        Ok(Some(format!(
            "{} was deleted or replaced while the trace was writing it; it was created again and \
             the records from now on go there (those written before went with the deleted file)",
            self.path.display()
        )))
    }

    fn with_writer(&self, op: impl FnOnce(&mut Open) -> io::Result<()>) -> Result<Option<()>, SinkFailed> {
        // Checked before locking: in a forked child the mutex may be held
        // forever by a parent thread that does not exist there.
        if !self.live() {
            return Ok(None);
        }
        let mut guard = lock(&self.writer);
        let Some(writer) = guard.as_mut() else {
            return Ok(None);
        };
        match op(writer) {
            Ok(()) => Ok(Some(())),
            Err(err) => {
                let message = format!("cannot write {}: {err}", self.path.display());
                let _ = self.failure.set(message.clone());
                discard(guard.take());
                Err(SinkFailed(message))
            }
        }
    }
}

/// Lets go of a writer without flushing it (`BufWriter`'s drop would write
/// the buffered bytes: to a failed file, or the parent's records from a child).
fn discard(writer: Option<Open>) {
    if let Some(writer) = writer {
        let (_file, _unwritten) = writer.file.into_parts();
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        // `get_mut`, not `lock`: in a forked child the lock may look held.
        let writer = self.writer.get_mut().unwrap_or_else(|p| p.into_inner()).take();
        match writer {
            Some(mut w) if self.live() => {
                let _ = w.file.flush();
                discard(Some(w));
            }
            other => discard(other),
        }
    }
}

/// Opens a new process's file emptied and under an exclusive lock held while
/// it is open. Opened for appending first, so that a file another process
/// writes (two ranks that resolved one `<rank>` before the process group
/// existed) is never truncated: this process then writes beside it,
/// `NAME.pid<PID>.EXT`, and the trace's `path` says so.
fn open_alone(key: PathBuf) -> io::Result<(File, PathBuf)> {
    let open = |path: &Path| -> io::Result<Option<File>> {
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        if !locked_alone(&file)? {
            return Ok(None);
        }
        if file.metadata()?.is_file() {
            file.set_len(0)?;
        }
        Ok(Some(file))
    };
    if let Some(file) = open(&key).map_err(|e| with_path(e, "cannot write", &key))? {
        return Ok((file, key));
    }
    let stem = key
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = key
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let beside = key.with_file_name(format!("{stem}.pid{}{ext}", std::process::id()));
    let file = match open(&beside).map_err(|e| with_path(e, "cannot write", &beside))? {
        Some(file) => file,
        None => File::create(&beside).map_err(|e| with_path(e, "cannot write", &beside))?,
    };
    Ok((file, beside))
}

/// Takes an exclusive lock on a regular file; false when another process
/// holds it. Devices (`/dev/null`) and systems without `flock` count as
/// locked.
fn locked_alone(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    if file.metadata()?.is_file() {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock(2) on a descriptor this function borrows, open for
        // as long as the call.
        let taken = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        return Ok(taken);
    }
    let _ = file;
    Ok(true)
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

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failing_file_is_reported_once_then_dropped_and_a_new_open_starts_over() {
        // Every write to /dev/full fails with ENOSPC: a disk that is full.
        let sink = Sink::open(Path::new("/dev/full")).unwrap();
        assert_eq!(sink.write(b"buffered\n"), Ok(true), "fits in the buffer");
        let err = sink.flush().unwrap_err();
        assert!(err.0.contains("/dev/full") && err.0.contains("No space left"), "{err}");
        assert_eq!(
            (sink.write(b"x\n"), sink.flush()),
            (Ok(false), Ok(None)),
            "reported once"
        );
        assert!(!sink.live() && sink.failure() == Some(err.0.as_str()));
        let again = Sink::open(Path::new("/dev/full")).unwrap();
        assert!(!Arc::ptr_eq(&sink, &again) && again.live());
    }

    #[cfg(unix)]
    #[test]
    fn a_forked_child_never_writes_what_the_parent_buffered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trace.jsonl");
        let sink = Sink::open(&path).unwrap();
        sink.write(b"parent\n").unwrap();
        // SAFETY: the child touches no lock the parent's other threads may
        // hold (that is what is tested) and leaves with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let inert = sink.write(b"child\n") == Ok(false) && sink.flush() == Ok(None) && !sink.live();
            drop(sink); // the last reference in the child: Drop must not flush
            unsafe { libc::_exit(if inert { 0 } else { 1 }) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        assert_eq!(fs::read_to_string(&path).unwrap(), "", "the child wrote nothing");
        sink.flush().unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "parent\n",
            "the parent still writes its own"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_deleted_mid_run_is_created_again_at_the_next_flush_which_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trace.jsonl");
        let sink = Sink::open(&path).unwrap();
        sink.write(b"step 0\n").unwrap();
        assert_eq!(sink.flush(), Ok(None));
        fs::remove_file(&path).unwrap();
        sink.write(b"step 1\n").unwrap();
        let notice = sink.flush().unwrap().expect("the deletion is reported");
        assert!(notice.contains("trace.jsonl") && notice.contains("deleted"), "{notice}");
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "step 1\n",
            "what was buffered moved over"
        );
        sink.write(b"step 2\n").unwrap();
        assert_eq!(sink.flush(), Ok(None), "reported once: the new file is the open one");
        assert_eq!(fs::read_to_string(&path).unwrap(), "step 1\nstep 2\n");
        assert!(sink.live());

        // Replaced by another file (moved over it): that one is written on.
        fs::rename(&path, dir.path().join("moved.jsonl")).unwrap();
        fs::write(&path, "other\n").unwrap();
        sink.write(b"step 3\n").unwrap();
        assert!(sink.flush().unwrap().is_some());
        assert_eq!(fs::read_to_string(&path).unwrap(), "other\nstep 3\n");

        // The directory gone too: created again.
        fs::remove_dir_all(dir.path()).unwrap();
        sink.write(b"step 4\n").unwrap();
        assert!(sink.flush().unwrap().is_some());
        assert_eq!(fs::read_to_string(&path).unwrap(), "step 4\n");
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
