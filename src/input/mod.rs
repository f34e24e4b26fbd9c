//! Finding trace logs: files, `.gz` files, and (nested) TORCH_TRACE
//! directories holding one log per process or rank; opening them
//! (`readers`); and what is wrong with an input (`problems`), which every
//! reader (TORCH_TRACE, step records, activation traces) counts the same way.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Prefix torch gives every TORCH_TRACE log file.
pub const TRACE_LOG_PREFIX: &str = "dedicated_log_torch_trace";

mod jsonl;
pub mod problems;
mod readers;

pub use jsonl::JsonlLines;
pub use problems::{Problem, ProblemKind, Problems};
pub use readers::{open, open_counted, read_capped_line, read_to_string};

use std::path::Path;

#[derive(Clone, Debug)]
pub struct LogSource {
    pub path: PathBuf,
    /// The path as shown in diagnostics (`file:line: ...`).
    pub display: Arc<str>,
    /// From the file name (`..._rank_3_xxxx.log`), when it has one.
    pub rank: Option<u32>,
    /// Year of the file's modification time: glog timestamps carry none.
    pub year: i32,
    /// Size on disk (compressed size for gzip), for progress reporting.
    pub size: u64,
}

#[derive(Debug)]
pub enum InputError {
    Missing(PathBuf),
    EmptyDirectory(PathBuf),
    NoTraceLogs { dir: PathBuf, files: usize },
    Unreadable(PathBuf, io::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            InputError::Missing(p) => write!(f, "{}: no such file or directory", p.display()),
            InputError::EmptyDirectory(p) => write!(f, "{}: directory is empty", p.display()),
            InputError::NoTraceLogs { dir, files } => write!(
                f,
                "{}: no TORCH_TRACE logs in this directory ({files} other files; expected {TRACE_LOG_PREFIX}*.log or .log.gz)",
                dir.display()
            ),
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
    /// The same file as an earlier input (by canonical path): read once,
    /// so `summary DIR DIR/FILE` does not count its compiles twice.
    Duplicate(PathBuf),
    /// A directory link leading back to an ancestor: walked once already.
    Loop(PathBuf),
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.why {
            SkipReason::Unreadable(e) => write!(f, "cannot read: {e}; skipped"),
            SkipReason::Duplicate(first) => {
                write!(f, "same file as {}; read once", first.display())
            }
            SkipReason::Loop(to) => write!(f, "symlink loop back to {}; not walked again", to.display()),
        }
    }
}

/// Expands the user's paths into the logs to parse, in a stable order.
/// An explicitly named file is always taken; inside directories only files
/// named like TORCH_TRACE logs are, symlinks followed (gathered per-node
/// logs often are links). An entry that cannot be read is skipped and
/// named, not the end of the run; only a path that cannot be read at all,
/// or a directory without any log, is an error.
pub fn discover(paths: &[PathBuf]) -> Result<Discovery, InputError> {
    let mut out = Discovery::default();
    // Canonical path -> the path it was first taken as.
    let mut seen: std::collections::HashMap<PathBuf, PathBuf> = std::collections::HashMap::new();
    let mut take = |out: &mut Discovery, path: PathBuf, meta: &std::fs::Metadata| {
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        match seen.get(&canonical) {
            Some(first) => out.skipped.push(Skipped {
                path,
                why: SkipReason::Duplicate(first.clone()),
            }),
            None => {
                seen.insert(canonical, path.clone());
                out.sources.push(source(path, meta));
            }
        }
    };
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::Missing(path.clone()),
            _ => InputError::Unreadable(path.clone(), e),
        })?;
        if !meta.is_dir() {
            take(&mut out, path.clone(), &meta);
            continue;
        }
        let mut found = 0usize;
        let mut others = 0usize;
        let mut unreadable = Vec::new();
        for entry in walkdir::WalkDir::new(path).follow_links(true).sort_by_file_name() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let at = e.path().unwrap_or(path).to_path_buf();
                    if let Some(to) = e.loop_ancestor() {
                        let why = SkipReason::Loop(to.to_path_buf());
                        out.skipped.push(Skipped { path: at, why });
                    } else if is_stray_link(&at) {
                        // A dangling link not named like a log: like any other file.
                        others += 1;
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
                others += 1;
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
        if found == 0 {
            // Nothing to analyse here: the first unreadable entry says why.
            if let Some(first) = unreadable.into_iter().next() {
                let SkipReason::Unreadable(e) = first.why else {
                    unreachable!("only unreadable entries are collected here")
                };
                return Err(InputError::Unreadable(first.path, e));
            }
            return Err(if others == 0 {
                InputError::EmptyDirectory(path.clone())
            } else {
                InputError::NoTraceLogs {
                    dir: path.clone(),
                    files: others,
                }
            });
        }
        out.skipped.extend(unreadable);
    }
    Ok(out)
}

/// A symlink whose target is missing, named unlike a trace log.
fn is_stray_link(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotFound)
        && !name.is_some_and(|n| is_trace_log_name(&n))
}

fn source(path: PathBuf, meta: &std::fs::Metadata) -> LogSource {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let year = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| year_of_unix(d.as_secs() as i64))
        .unwrap_or(1970);
    LogSource {
        display: path.display().to_string().into(),
        rank: rank_from_name(&name),
        path,
        year,
        size: meta.len(),
    }
}

pub fn is_trace_log_name(name: &str) -> bool {
    name.starts_with(TRACE_LOG_PREFIX) && (name.ends_with(".log") || name.ends_with(".log.gz"))
}

/// `dedicated_log_torch_trace_rank_3_abcd1234.log` -> 3.
pub fn rank_from_name(name: &str) -> Option<u32> {
    let at = name.find("rank_")? + "rank_".len();
    let digits: String = name[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn year_of_unix(secs: i64) -> i32 {
    // Civil-from-days (Howard Hinnant), year only.
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_comes_from_the_file_name() {
        assert_eq!(rank_from_name("dedicated_log_torch_trace_rank_3_abcd1234.log"), Some(3));
        assert_eq!(rank_from_name("dedicated_log_torch_trace_rank_12.log.gz"), Some(12));
        assert_eq!(rank_from_name("dedicated_log_torch_trace_k2j3h4.log"), None);
    }

    #[test]
    fn trace_log_names() {
        assert!(is_trace_log_name("dedicated_log_torch_trace_x.log"));
        assert!(is_trace_log_name("dedicated_log_torch_trace_rank_0.log.gz"));
        assert!(!is_trace_log_name("another.log.gz"));
        assert!(!is_trace_log_name("dedicated_log_torch_trace_x.txt"));
    }

    #[test]
    fn years_from_unix_time() {
        assert_eq!(year_of_unix(0), 1970);
        assert_eq!(year_of_unix(1_795_219_200), 2026);
        assert_eq!(year_of_unix(1_767_225_599), 2025);
        assert_eq!(year_of_unix(1_767_225_600), 2026);
    }
}
