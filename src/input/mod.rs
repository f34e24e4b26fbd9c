//! Finding trace logs: files, `.gz` files, and (nested) TORCH_TRACE
//! directories holding one log per process or rank.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Prefix torch gives every TORCH_TRACE log file.
pub const TRACE_LOG_PREFIX: &str = "dedicated_log_torch_trace";

mod readers;

pub use readers::{open, open_counted, read_capped_line, read_to_string};

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

/// Expands the user's paths into the logs to parse, in a stable order.
/// An explicitly named file is always taken; inside directories only files
/// named like TORCH_TRACE logs are.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<LogSource>, InputError> {
    let mut sources = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::Missing(path.clone()),
            _ => InputError::Unreadable(path.clone(), e),
        })?;
        if !meta.is_dir() {
            sources.push(source(path.clone(), &meta));
            continue;
        }
        let mut found = Vec::new();
        let mut others = 0usize;
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            let entry = entry.map_err(|e| {
                let at = e.path().unwrap_or(path).to_path_buf();
                InputError::Unreadable(at, e.into())
            })?;
            if !entry.file_type().is_file() {
                continue;
            }
            if is_trace_log_name(&entry.file_name().to_string_lossy()) {
                let meta = entry
                    .metadata()
                    .map_err(|e| InputError::Unreadable(entry.path().to_path_buf(), e.into()))?;
                found.push(source(entry.into_path(), &meta));
            } else {
                others += 1;
            }
        }
        if found.is_empty() {
            return Err(if others == 0 {
                InputError::EmptyDirectory(path.clone())
            } else {
                InputError::NoTraceLogs {
                    dir: path.clone(),
                    files: others,
                }
            });
        }
        sources.extend(found);
    }
    Ok(sources)
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
