//! One log as the readers take it: its path, the name diagnostics give it,
//! its rank (from the file name, or tlparse's `rank_N` folder) and the year
//! its glog timestamps leave out (from its modification time).

use std::path::PathBuf;
use std::sync::Arc;

/// Prefix torch gives every TORCH_TRACE log file.
pub const TRACE_LOG_PREFIX: &str = "dedicated_log_torch_trace";

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

/// The source of one log file (its rank from its name, its year from its mtime).
pub fn source(path: PathBuf, meta: &std::fs::Metadata) -> LogSource {
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
    // tlparse's per-rank copies are `rank_3/raw.log`: the rank is the folder's.
    let folder = || {
        path.parent()?
            .file_name()
            .and_then(|n| rank_from_name(&n.to_string_lossy()))
    };
    let rank = rank_from_name(&name).or_else(folder);
    LogSource {
        display: path.display().to_string().into(),
        rank,
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

pub(super) fn stdin_source() -> LogSource {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    LogSource {
        path: PathBuf::from(super::STDIN),
        display: "<stdin>".into(),
        rank: None,
        // Glog timestamps carry no year: a piped log is taken as this year's.
        year: now.map(|d| year_of_unix(d.as_secs() as i64)).unwrap_or(1970),
        size: 0,
    }
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
