//! What runs killed before their commit left behind: temporaries in the
//! report directory and staging directories beside it, removed once their
//! process is gone.

use super::names::{temporary_pid, WRITTEN};
use super::staging::parent_of;
use std::fs;
use std::io;
use std::path::Path;

/// Removes the temporaries of runs that were killed before renaming them:
/// guardscope's own names only (see `WRITTEN`), whose process is gone.
/// Failures are ignored; a leftover is harmless.
pub(super) fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else {
            continue;
        };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir && !process_alive(pid, &entry.path()) {
            // Removes a link itself, never what it points to.
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes the staging directories of runs killed before their swap: the
/// report directory's siblings named `.NAME.tmp-PID.XXXXXX` (or `.old`),
/// holding only guardscope's files, whose process is gone.
pub(super) fn remove_stale_staging(path: &Path) {
    let (Some(name), Ok(entries)) = (
        path.file_name().and_then(|n| n.to_str()),
        fs::read_dir(parent_of(path).unwrap_or(Path::new("."))),
    ) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let pid = rest.split('.').next().and_then(|p| p.parse::<u32>().ok());
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        // Only guardscope's names inside (none at all if killed before its
        // marker was written): never a directory of the user's.
        let ours = fs::read_dir(entry.path()).is_ok_and(|d| {
            d.flatten().all(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| WRITTEN.contains(&n) || temporary_pid(n).is_some())
            })
        });
        if let (Some(pid), true, true) = (pid, is_dir, ours) {
            if !process_alive(pid, &entry.path()) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// Whether the run that made a temporary may still be writing it. Our own
/// process counts as alive (a thread may be writing).
#[cfg(unix)]
fn process_alive(pid: u32, _file: &Path) -> bool {
    if pid == std::process::id() {
        return true;
    }
    // 0 and ids past i32::MAX would name process groups: no such process.
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Without a cheap process check: a temporary untouched for an hour is stale.
#[cfg(not(unix))]
fn process_alive(pid: u32, file: &Path) -> bool {
    let age = fs::symlink_metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok());
    pid == std::process::id() || age.is_none_or(|a| a < std::time::Duration::from_secs(3600))
}
