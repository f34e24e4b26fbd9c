//! The command's stderr, passed on to guardscope's own as it comes and
//! copied into a file: when the command's logs never reach TORCH_TRACE (a
//! wrapper that resets the environment, a node whose temp dir is not this
//! one), what Dynamo printed there is what `run` can still read.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Bytes moved at once: a progress bar's redraw is passed on as it comes.
const CHUNK: usize = 64 << 10;

/// How long, after the command ended, its stderr may stay open: a process
/// it left behind may hold the pipe; the copy is then read as it stands.
const DRAIN: Duration = Duration::from_secs(2);

/// The copy being written, and the thread writing it.
pub struct Tee {
    path: PathBuf,
    done: mpsc::Receiver<io::Result<()>>,
}

/// The file the copy goes to, made before the command starts: a command
/// whose stderr is a pipe must have a reader for it.
pub fn create(path: &Path) -> io::Result<(File, PathBuf)> {
    Ok((File::create(path)?, path.to_path_buf()))
}

/// Starts copying `from` into `file` and onto stderr.
pub fn start(from: impl Read + Send + 'static, (file, path): (File, PathBuf)) -> Tee {
    let (tx, done) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(copy(from, file));
    });
    Tee { path, done }
}

fn copy(mut from: impl Read, mut file: File) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    let mut terminal = true;
    let mut saved: io::Result<()> = Ok(());
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        // guardscope's stderr closed (a pipe whose reader left) must not
        // stop the command: its stderr is still read, and still copied.
        if terminal {
            let mut err = io::stderr().lock();
            terminal = err.write_all(&buf[..n]).and_then(|()| err.flush()).is_ok();
        }
        if saved.is_ok() {
            saved = file.write_all(&buf[..n]);
        }
    }
    saved.and_then(|()| file.flush())
}

/// What the copy holds once the command has ended.
pub enum Copied {
    /// All of its stderr.
    Whole(PathBuf),
    /// What came before the pipe was given up on, or before a write failed.
    Partial(PathBuf, String),
}

impl Tee {
    /// Waits (briefly) for the command's stderr to close.
    pub fn finish(self) -> Copied {
        match self.done.recv_timeout(DRAIN) {
            Ok(Ok(())) => Copied::Whole(self.path),
            Ok(Err(e)) => Copied::Partial(self.path, format!("copying it failed: {e}")),
            Err(_) => Copied::Partial(
                self.path,
                format!(
                    "a process it started still holds its stderr {} s after it ended",
                    DRAIN.as_secs()
                ),
            ),
        }
    }
}
