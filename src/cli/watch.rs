//! `guardscope watch DIR`: follows the TORCH_TRACE logs a running job
//! writes and prints each recompile as its compile finishes. One loop looks
//! at every log with a `stat` (`input::follow`): a log that grew is opened,
//! its new complete events parsed (`load::GrowingLog`) and closed again,
//! each compile built when its `compilation_metrics` line arrives and
//! classified alone with the same analysis as `summary`. Idle logs hold no
//! descriptor and no thread, so a job of ten thousand ranks is followed
//! under the default open-file limit, and the loop looks less often the
//! more logs there are (`pause`), which keeps an idle watch near no CPU.

use super::args::WatchArgs;
use super::error::{self, CliError, Status};
use super::output::Output;
use crate::analysis;
use crate::input::follow::{Change, GrowingFile};
use crate::load::GrowingLog;
use crate::report::watch::WatchEvent;
use rayon::prelude::*;
use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// How often the logs are looked at, for up to 1,000 of them.
const POLL: Duration = Duration::from_millis(200);
/// Past that, the pause between looks grows by this much per log: a `stat`
/// costs ~3 µs with its path, so looking takes ~1.5% of a core however
/// many logs there are (10,000 logs are looked at every 2 s;
/// bench/watch_scale.sh measures it).
const PER_LOG: Duration = Duration::from_micros(200);
/// New bytes read at once from one log; a longer event is read whole by
/// doubling it.
const WINDOW: u64 = 16 << 20;
/// The directory is listed again at least this often, even when its mtime
/// says nothing was added (a file system with coarse mtimes).
const RELIST: Duration = Duration::from_secs(10);
/// New logs named one per line on stderr, up to this many at once.
const NAMED_LOGS: usize = 8;

pub fn watch(args: WatchArgs, out: Output) -> Result<Status, CliError> {
    if crate::input::is_stdin(&args.dir) {
        return super::watch_text::watch_stdin(out);
    }
    if let Some(pid) = args.until_exit {
        if !alive(pid)? {
            return Err(CliError::BadInput(format!("--until-exit {pid}: no such process")));
        }
    }
    if !args.dir.exists() {
        error::warn(&format!("waiting for {} to be created", args.dir.display()));
    }
    let mut watcher = Watcher::default();
    loop {
        watcher.find_logs(&args.dir)?;
        for event in watcher.sweep(false) {
            if !print(&out, &event)? {
                return Ok(Status::Success);
            }
        }
        if let Some(pid) = args.until_exit {
            if !alive(pid)? {
                break;
            }
        }
        std::thread::sleep(pause(watcher.logs.len()));
    }
    // The process is gone: logs it made at its end, then what every log
    // holds, read to its end.
    watcher.listed = None;
    watcher.find_logs(&args.dir)?;
    for event in watcher.sweep(true) {
        if !print(&out, &event)? {
            break;
        }
    }
    Ok(Status::Success)
}

/// The pause between two looks at `logs` logs.
fn pause(logs: usize) -> Duration {
    POLL.max(PER_LOG * u32::try_from(logs).unwrap_or(u32::MAX))
}

/// Prints one event; false once stdout is closed (`| head`): the watch ends.
fn print(out: &Output, event: &WatchEvent) -> Result<bool, CliError> {
    match out.print_event(event) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(CliError::Output(e)),
    }
}

/// One followed log: where its reading stands and what its parse keeps.
struct Followed {
    file: GrowingFile,
    log: GrowingLog,
}

#[derive(Default)]
struct Watcher {
    logs: Vec<Followed>,
    known: HashSet<PathBuf>,
    /// When the directory was last listed and its mtime then.
    listed: Option<(Instant, Option<SystemTime>)>,
}

impl Watcher {
    /// Follows each log not followed yet. The directory is listed again
    /// only when its mtime changed (an entry was added) or `RELIST` passed.
    fn find_logs(&mut self, dir: &Path) -> Result<(), CliError> {
        let mtime = std::fs::metadata(dir).and_then(|m| m.modified()).ok();
        if let Some((at, seen)) = self.listed {
            if seen == mtime && mtime.is_some() && at.elapsed() < RELIST {
                return Ok(());
            }
        }
        self.listed = Some((Instant::now(), mtime));
        let new = logs_in(dir, &self.known)?;
        // A job of many ranks is one line, not one per rank.
        let name_each = new.len() <= NAMED_LOGS;
        if !name_each {
            error::warn(&format!("following {} more logs in {}", new.len(), dir.display()));
        }
        for path in new {
            let meta = match std::fs::metadata(&path) {
                Ok(meta) if meta.is_file() => meta,
                _ => continue,
            };
            if name_each {
                error::warn(&format!("following {}", path.display()));
            }
            let source = crate::input::source(path.clone(), &meta);
            self.known.insert(path.clone());
            self.logs.push(Followed {
                file: GrowingFile::new(&path),
                log: GrowingLog::new(source),
            });
        }
        Ok(())
    }

    /// Looks at every log (a `stat` each) and parses those that grew, in
    /// parallel; the recompiles found, log by log. At the `end` every log
    /// is read to its end, a last unfinished event included.
    fn sweep(&mut self, end: bool) -> Vec<WatchEvent> {
        let mut grown: Vec<&mut Followed> = self
            .logs
            .iter_mut()
            .filter_map(|f| {
                let read = match f.file.check() {
                    Change::Same => end,
                    Change::Missing => false,
                    Change::Grew => true,
                    Change::Replaced => {
                        error::warn(&format!(
                            "{}: truncated or replaced; reading it again from its start",
                            f.file.path().display()
                        ));
                        f.file.restart();
                        f.log = GrowingLog::new(f.log.source().clone());
                        f.file.check() == Change::Grew
                    }
                };
                read.then_some(f)
            })
            .collect();
        grown.par_iter_mut().flat_map_iter(|f| read_new(f, end)).collect()
    }
}

/// Parses what `f` gained since it was last read; its recompiles.
fn read_new(f: &mut Followed, end: bool) -> Vec<WatchEvent> {
    let mut events = Vec::new();
    let mut window = WINDOW;
    loop {
        let bytes = match f.file.unread(window) {
            Ok(bytes) => bytes,
            Err(e) => {
                error::warn(&format!("{}: cannot read: {e}", f.file.path().display()));
                break;
            }
        };
        if bytes.is_empty() {
            break;
        }
        let cut = f.file.more_than(window);
        let display = f.log.source().display.clone();
        let used = f.log.feed(&bytes, end && !cut, &mut |run| {
            for finding in &analysis::analyse(&run).recompiles {
                events.push(WatchEvent::new(&display, finding));
            }
        });
        f.file.consume(used);
        if !cut {
            break;
        }
        if used == 0 {
            // One event longer than the window: read it whole.
            window = window.saturating_mul(2);
        }
    }
    events
}

/// The `.log` files in `dir` (or `dir` itself when it is a file) not in
/// `known`; none while it does not exist yet. Only `.log`: a `.log.gz` is a
/// finished log.
fn logs_in(dir: &Path, known: &HashSet<PathBuf>) -> Result<Vec<PathBuf>, CliError> {
    let unreadable = |e: io::Error| CliError::BadInput(format!("{}: cannot read: {e}", dir.display()));
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(unreadable(e)),
        Ok(m) if m.is_file() => {
            let path = dir.to_path_buf();
            return Ok(if known.contains(&path) { Vec::new() } else { vec![path] });
        }
        Ok(_) => {}
    }
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.extension().is_some_and(|e| e == "log") && !known.contains(&path) {
            logs.push(path);
        }
    }
    logs.sort();
    Ok(logs)
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
