//! The names guardscope writes into a report directory, and how its
//! temporaries are named: only those are ever removed as another run's
//! leftovers, never a file of the user's.

/// Present in every directory guardscope created, so re-running the same
/// command may overwrite its own output.
pub(super) const MARKER: &str = ".guardscope-report";

/// Every name guardscope writes into a report directory. Its temporaries
/// are `.NAME.tmp-PID.XXXXXX` (`.NAME.tmp-PID` before they were random), and
/// only those are ever removed as stale; a staging directory is named the
/// same way after the report directory.
pub(super) const WRITTEN: [&str; 4] = [MARKER, "summary.json", "index.html", "compile_trace.json"];

/// The process id in the name of one of guardscope's temporaries:
/// `.NAME.tmp-PID.XXXXXX` or `.NAME.tmp-PID` for a NAME it writes.
pub(super) fn temporary_pid(file: &str) -> Option<u32> {
    let rest = WRITTEN
        .iter()
        .find_map(|n| file.strip_prefix('.')?.strip_prefix(n)?.strip_prefix(".tmp-"))?;
    let (pid, random) = rest.split_once('.').unwrap_or((rest, ""));
    let random_ok = random.is_empty() || (random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric()));
    let pid_ok = !pid.is_empty() && pid.len() <= 10 && pid.bytes().all(|b| b.is_ascii_digit());
    if random_ok && pid_ok {
        pid.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_guardscopes_own_temporary_names_are_recognised() {
        assert_eq!(temporary_pid(".index.html.tmp-123"), Some(123));
        assert_eq!(temporary_pid(".summary.json.tmp-7.aB3xY9"), Some(7));
        assert_eq!(temporary_pid("..guardscope-report.tmp-7.aB3xY9"), Some(7));
        for other in [
            ".notes.txt.tmp-123",
            "index.html.tmp-123",
            ".index.html.tmp-",
            ".index.html.tmp-12a",
            ".index.html.tmp-7.toolong1",
            ".index.html.tmp-99999999999",
        ] {
            assert_eq!(temporary_pid(other), None, "{other}");
        }
    }
}
