//! `guardscope watch DIR`: follows the TORCH_TRACE logs a running job
//! writes and prints each recompile as its compile finishes. One thread per
//! log reads it as it grows (`input::follow`), builds each compile when its
//! `compilation_metrics` line arrives (`load::load_growing`) and classifies
//! that compile alone with the same analysis as `summary`; this thread
//! finds new logs, prints the events and decides when to stop.

use super::args::WatchArgs;
use super::error::{self, CliError, Status};
use super::output::Output;
use crate::analysis;
use crate::input::follow::{Follow, POLL};
use crate::load::load_growing;
use crate::report::watch::WatchEvent;
use std::collections::HashSet;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

pub fn watch(args: WatchArgs, out: Output) -> Result<Status, CliError> {
    if let Some(pid) = args.until_exit {
        if !alive(pid)? {
            return Err(CliError::BadInput(format!("--until-exit {pid}: no such process")));
        }
    }
    if !args.dir.exists() {
        error::warn(&format!("waiting for {} to be created", args.dir.display()));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let mut watcher = Watcher {
        followed: HashSet::new(),
        threads: Vec::new(),
        stop: stop.clone(),
        tx,
    };
    loop {
        watcher.find_logs(&args.dir)?;
        let until = Instant::now() + POLL;
        loop {
            match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(event) => {
                    if !print(&out, &event)? {
                        return Ok(Status::Success);
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => unreachable!("the watcher holds a sender"),
            }
        }
        if let Some(pid) = args.until_exit {
            if !alive(pid)? {
                break;
            }
        }
    }
    // The process is gone: logs it made at its end, then what every log
    // holds, read to its end.
    watcher.find_logs(&args.dir)?;
    stop.store(true, Ordering::SeqCst);
    let Watcher { threads, tx, .. } = watcher;
    drop(tx);
    drain(&out, rx, threads)
}

/// Prints what the readers still send until they have all finished.
fn drain(out: &Output, rx: Receiver<WatchEvent>, threads: Vec<JoinHandle<()>>) -> Result<Status, CliError> {
    for event in rx {
        if !print(out, &event)? {
            break;
        }
    }
    for t in threads {
        t.join()
            .map_err(|_| CliError::Internal("a log reader panicked".into()))?;
    }
    Ok(Status::Success)
}

/// Prints one event; false once stdout is closed (`| head`): the watch ends.
fn print(out: &Output, event: &WatchEvent) -> Result<bool, CliError> {
    match out.print_event(event) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(CliError::Output(e)),
    }
}

struct Watcher {
    followed: HashSet<PathBuf>,
    threads: Vec<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    tx: Sender<WatchEvent>,
}

impl Watcher {
    /// Starts a reader for each log not followed yet.
    fn find_logs(&mut self, dir: &Path) -> Result<(), CliError> {
        for path in logs_in(dir)? {
            if self.followed.insert(path.clone()) {
                error::warn(&format!("following {}", path.display()));
                let (stop, tx) = (self.stop.clone(), self.tx.clone());
                self.threads.push(std::thread::spawn(move || follow(&path, &stop, &tx)));
            }
        }
        Ok(())
    }
}

/// The `.log` files in `dir` (or `dir` itself when it is a file); none
/// while it does not exist yet. Only `.log`: a `.log.gz` is a finished log.
fn logs_in(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let unreadable = |e: io::Error| CliError::BadInput(format!("{}: cannot read: {e}", dir.display()));
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(unreadable(e)),
        Ok(m) if m.is_file() => return Ok(vec![dir.to_path_buf()]),
        Ok(_) => {}
    }
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.extension().is_some_and(|e| e == "log") && path.is_file() {
            logs.push(path);
        }
    }
    logs.sort();
    Ok(logs)
}

/// Reads one log until the watch stops, again from its start each time it
/// is truncated or replaced.
fn follow(path: &Path, stop: &Arc<AtomicBool>, tx: &Sender<WatchEvent>) {
    loop {
        let opened = std::fs::metadata(path)
            .map(|meta| crate::input::source(path.to_path_buf(), &meta))
            .and_then(|source| Ok((Follow::open(path, stop.clone())?, source)));
        let (mut reader, source) = match opened {
            Ok(x) => x,
            Err(e) => {
                error::warn(&format!("{}: cannot read: {e}", path.display()));
                return;
            }
        };
        // Parse problems are not reported here: `summary` reports them.
        let _problems = load_growing(&source, BufReader::new(&mut reader), &mut |run| {
            for finding in &analysis::analyse(&run).recompiles {
                // The receiver is gone only when the watch is ending.
                let _ = tx.send(WatchEvent::new(&source.display, finding));
            }
        });
        if !reader.replaced() {
            return;
        }
        error::warn(&format!(
            "{}: truncated or replaced; reading it again from its start",
            path.display()
        ));
    }
}

/// Whether process `pid` still runs (a zombie has ended: it only awaits its parent).
#[cfg(unix)]
fn alive(pid: u32) -> Result<bool, CliError> {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return Ok(false);
    };
    // SAFETY: signal 0 only checks that the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| rest.starts_with('Z')))
        .unwrap_or(false);
    Ok(exists && !zombie)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> Result<bool, CliError> {
    Err(CliError::BadInput("--until-exit needs a Unix system".into()))
}
