//! `report --open`: hands the page to the desktop's opener and says so when
//! no browser could take it.
//!
//! On Linux the `opener` crate starts `xdg-open` (or, when it is missing, a
//! copy of it run by `sh`) without waiting, so a machine with no browser (a
//! container, a server over ssh) failed in silence. There the opener is run
//! here and its exit status read for a moment: one that exits non-zero, or
//! no opener at all, is a failure to report; one still running has started
//! a browser in the foreground and is left to it.

use std::path::Path;

/// Opens `path` in a browser, or says why that could not be done.
pub(super) fn open(path: &Path) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    if !under_wsl() {
        return linux::open(path);
    }
    opener::open(path).map_err(|e| e.to_string())
}

/// Under WSL the opener waits for `wslview`, whose status it reports.
#[cfg(target_os = "linux")]
fn under_wsl() -> bool {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|release| release.to_ascii_lowercase().contains("microsoft"))
        .unwrap_or(false)
}

#[cfg(target_os = "linux")]
mod linux {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// How long xdg-open has to fail: it exits at once when it finds no
    /// browser, and stays while a browser it started in the foreground runs.
    const SETTLE: Duration = Duration::from_secs(3);

    pub(super) fn open(path: &Path) -> Result<(), String> {
        let Some(xdg_open) = on_path("xdg-open") else {
            return Err("xdg-open is not installed".into());
        };
        let mut child = Command::new(xdg_open)
            .arg(path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("xdg-open could not start: {e}"))?;
        let deadline = Instant::now() + SETTLE;
        loop {
            match child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => {
                    return Err(match status.code() {
                        Some(code) => format!("xdg-open found no browser: it exited with {code}"),
                        None => "xdg-open was killed".into(),
                    })
                }
                Ok(None) if Instant::now() >= deadline => return Ok(()),
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(format!("xdg-open: {e}")),
            }
        }
    }

    fn on_path(name: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).map(|dir| dir.join(name)).find(|file| {
            file.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    }
}
