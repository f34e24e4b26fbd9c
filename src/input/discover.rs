//! The user's paths expanded into the logs to read: directories walked
//! (symlinks followed, loops and duplicates read once, tlparse output passed
//! over), renamed logs told by their first line, and why a path that yields
//! no log is an error (`InputError`).

use super::is_stdin;
use super::log_source::{is_trace_log_name, rank_from_name, source, stdin_source, LogSource, TRACE_LOG_PREFIX};
use super::sniff::{self, Content};
use crate::words::plural;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub enum InputError {
    Missing(PathBuf),
    EmptyDirectory(PathBuf),
    /// No file named like a log, and none whose first line is a TORCH_TRACE line.
    NoTraceLogs {
        dir: PathBuf,
        files: usize,
        /// Of those files, how many hold StepLogger records or activation traces.
        steps: usize,
        activations: usize,
    },
    /// What `tlparse LOG -o DIR` wrote; `raw_logs` are its copies of the logs.
    TlparseOutput {
        dir: PathBuf,
        raw_logs: Vec<PathBuf>,
    },
    StdinTwice,
    Unreadable(PathBuf, io::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            InputError::Missing(p) => write!(f, "{}: no such file or directory", p.display()),
            InputError::EmptyDirectory(p) => write!(f, "{}: directory is empty", p.display()),
            InputError::NoTraceLogs { dir, steps, .. } if *steps > 0 => write!(
                f,
                "{}: no TORCH_TRACE logs, but {} of StepLogger records: use `guardscope steps FILES` or `report --steps FILES`",
                dir.display(),
                plural(*steps, "file", "files")
            ),
            InputError::NoTraceLogs { dir, activations, .. } if *activations > 0 => write!(
                f,
                "{}: no TORCH_TRACE logs, but {} of activation traces: use `guardscope diff A B` or `report --activations FILE`",
                dir.display(),
                plural(*activations, "file", "files")
            ),
            InputError::NoTraceLogs { dir, files, .. } => write!(
                f,
                "{}: no TORCH_TRACE logs in this directory ({} read, the first {} KB of each: \
                 none is named {TRACE_LOG_PREFIX}*.log[.gz] or starts with a TORCH_TRACE line)",
                dir.display(),
                plural(*files, "other file", "other files"),
                sniff::SNIFF_BYTES >> 10
            ),
            InputError::TlparseOutput { dir, raw_logs } => {
                let logs: Vec<String> = raw_logs.iter().map(|p| p.display().to_string()).collect();
                let (its, is) = match &logs[..] {
                    [_] => ("its `raw.log` is", "the original log"),
                    _ => ("its `rank_*/raw.log` are", "the original logs"),
                };
                let shown = match &logs[..] {
                    [one] => one.clone(),
                    _ => dir.join("rank_*").join("raw.log").display().to_string(),
                };
                write!(
                    f,
                    "{}: a tlparse output directory; {its} {is}: `guardscope summary {shown}`",
                    dir.display()
                )
            }
            InputError::StdinTwice => write!(f, "`-` (stdin) can be given only once"),
            InputError::Unreadable(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for InputError {}

/// What `discover` found: the logs to parse, and what it passed over.
#[derive(Debug, Default)]
pub struct Discovery {
    pub sources: Vec<LogSource>,
    /// Entries not taken, each named so the run can count it.
    pub skipped: Vec<Skipped>,
}

#[derive(Debug)]
pub struct Skipped {
    pub path: PathBuf,
    pub why: SkipReason,
}

#[derive(Debug)]
pub enum SkipReason {
    /// A directory or log that could not be read (permission denied, a
    /// dangling link named like a log): input lost, so a gate cannot pass.
    Unreadable(io::Error),
    /// The same file as an earlier input (by device and inode, so a hard
    /// link or a symlink is caught as well as a repeated path): read once,
    /// so `summary DIR DIR/FILE` does not count its compiles twice.
    Duplicate(PathBuf),
    /// A directory link leading back to an ancestor: walked once already.
    Loop(PathBuf),
    /// A tlparse output directory inside the one given: its `raw.log` is a
    /// copy of a log, which would count its compiles twice.
    TlparseOutput,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.why {
            SkipReason::Unreadable(e) => write!(f, "cannot read: {e}; skipped"),
            SkipReason::Duplicate(first) => {
                write!(f, "same file as {}; read once", first.display())
            }
            SkipReason::Loop(to) => write!(f, "symlink loop back to {}; not walked again", to.display()),
            SkipReason::TlparseOutput => write!(f, "tlparse output (its raw.log copies a log); not read"),
        }
    }
}

/// Expands the user's paths into the logs to parse, in a stable order.
/// An explicitly named file is always taken, and `-` is stdin. Inside
/// directories, files named like TORCH_TRACE logs are taken, symlinks
/// followed (gathered per-node logs often are links); a directory without
/// any takes the files whose first line is a TORCH_TRACE line (renamed
/// logs). tlparse output directories are passed over: their `raw.log` is a
/// copy of a log. An entry that cannot be read is skipped and named, not
/// the end of the run; only a path that cannot be read at all, or a
/// directory without any log, is an error.
pub fn discover(paths: &[PathBuf]) -> Result<Discovery, InputError> {
    let mut out = Discovery::default();
    // The file's identity -> the path it was first taken as.
    let mut seen: std::collections::HashMap<FileIdentity, PathBuf> = std::collections::HashMap::new();
    let mut take = |out: &mut Discovery, path: PathBuf, meta: &std::fs::Metadata| {
        let identity = FileIdentity::of(&path, meta);
        match seen.get(&identity) {
            Some(first) => out.skipped.push(Skipped {
                path,
                why: SkipReason::Duplicate(first.clone()),
            }),
            None => {
                seen.insert(identity, path.clone());
                out.sources.push(source(path, meta));
            }
        }
    };
    let mut stdin_taken = false;
    for path in paths {
        if is_stdin(path) {
            if std::mem::replace(&mut stdin_taken, true) {
                return Err(InputError::StdinTwice);
            }
            out.sources.push(stdin_source());
            continue;
        }
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::Missing(path.clone()),
            _ => InputError::Unreadable(path.clone(), e),
        })?;
        if !meta.is_dir() {
            take(&mut out, path.clone(), &meta);
            continue;
        }
        if let Some(raw_logs) = sniff::tlparse_output(path) {
            return Err(InputError::TlparseOutput {
                dir: path.clone(),
                raw_logs,
            });
        }
        let mut found = 0usize;
        let mut others = Vec::new();
        let mut unreadable = Vec::new();
        let mut tlparse_dirs = Vec::new();
        // Rank order, not name order: rank 2 before rank 10.
        let walk = walkdir::WalkDir::new(path).follow_links(true).sort_by(|a, b| {
            let key = |e: &walkdir::DirEntry| {
                let name = e.file_name().to_string_lossy().into_owned();
                (rank_from_name(&name), name)
            };
            key(a).cmp(&key(b))
        });
        let walk = walk.into_iter().filter_entry(|e| {
            let tlparse = e.depth() > 0 && e.file_type().is_dir() && sniff::tlparse_output(e.path()).is_some();
            if tlparse {
                tlparse_dirs.push(e.path().to_path_buf());
            }
            !tlparse
        });
        for entry in walk {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let at = e.path().unwrap_or(path).to_path_buf();
                    if let Some(to) = e.loop_ancestor() {
                        let why = SkipReason::Loop(to.to_path_buf());
                        out.skipped.push(Skipped { path: at, why });
                    } else if is_stray_link(&at) {
                        // A dangling link not named like a log: like any other file.
                        others.push(at);
                    } else {
                        unreadable.push(Skipped {
                            path: at,
                            why: SkipReason::Unreadable(e.into()),
                        });
                    }
                    continue;
                }
            };
            if !entry.file_type().is_file() {
                continue;
            }
            if !is_trace_log_name(&entry.file_name().to_string_lossy()) {
                others.push(entry.into_path());
                continue;
            }
            match entry.metadata() {
                Ok(meta) => {
                    found += 1;
                    take(&mut out, entry.into_path(), &meta);
                }
                Err(e) => unreadable.push(Skipped {
                    path: entry.into_path(),
                    why: SkipReason::Unreadable(e.into()),
                }),
            }
        }
        let mut tally = Tally::default();
        if found == 0 {
            // Renamed logs: told by their first line, a few KB read per file.
            for other in &others {
                let content = sniff::sniff_file(other);
                if let (Ok(Content::TorchTrace), Ok(meta)) = (&content, std::fs::metadata(other)) {
                    found += 1;
                    take(&mut out, other.clone(), &meta);
                }
                tally.count(content.ok());
            }
        }
        for dir in tlparse_dirs {
            out.skipped.push(Skipped {
                path: dir,
                why: SkipReason::TlparseOutput,
            });
        }
        if found == 0 {
            // Nothing to analyse here: the first unreadable entry says why.
            if let Some(first) = unreadable.into_iter().next() {
                let SkipReason::Unreadable(e) = first.why else {
                    unreachable!("only unreadable entries are collected here")
                };
                return Err(InputError::Unreadable(first.path, e));
            }
            let tlparse = out.skipped.iter().find(|s| matches!(s.why, SkipReason::TlparseOutput));
            if let Some(dir) = tlparse {
                let raw_logs = sniff::tlparse_output(&dir.path).unwrap_or_default();
                let dir = dir.path.clone();
                return Err(InputError::TlparseOutput { dir, raw_logs });
            }
            return Err(if others.is_empty() {
                InputError::EmptyDirectory(path.clone())
            } else {
                InputError::NoTraceLogs {
                    dir: path.clone(),
                    files: others.len(),
                    steps: tally.steps,
                    activations: tally.activations,
                }
            });
        }
        out.skipped.extend(unreadable);
    }
    Ok(out)
}

/// One file however it is named: two hard links to one inode are one log
/// (a gathered directory often links the same rank's log twice), as are a
/// symlink and its target. Without inodes, the canonical path.
#[derive(PartialEq, Eq, Hash)]
enum FileIdentity {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

impl FileIdentity {
    #[cfg(unix)]
    fn of(_path: &Path, meta: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        FileIdentity::Inode(meta.dev(), meta.ino())
    }

    #[cfg(not(unix))]
    fn of(path: &Path, _meta: &std::fs::Metadata) -> Self {
        FileIdentity::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// What the files of a directory without logs hold, for its error.
#[derive(Default)]
struct Tally {
    steps: usize,
    activations: usize,
}

impl Tally {
    fn count(&mut self, content: Option<Content>) {
        match content {
            Some(Content::StepRecords) => self.steps += 1,
            Some(Content::Activations) => self.activations += 1,
            _ => {}
        }
    }
}

/// A symlink whose target is missing, named unlike a trace log.
fn is_stray_link(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotFound)
        && !name.is_some_and(|n| is_trace_log_name(&n))
}
