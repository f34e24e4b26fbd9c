//! The staging directory a report is written into, and the swap that puts
//! it in place of the old one at once (one rename where the system can
//! exchange two directories, else two renames: never a mixed directory).

use super::names::WRITTEN;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub(super) fn parent_of(path: &Path) -> Option<&Path> {
    path.parent().filter(|p| !p.as_os_str().is_empty())
}

/// `.NAME.tmp-PID.` for the report directory `path`: its staging directory's
/// prefix.
fn staging_prefix(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    Some(format!(".{name}.tmp-{}.", std::process::id()))
}

/// A fresh, empty sibling of `path`, on the same file system, so that it can
/// be renamed into place.
pub(super) fn make_staging(path: &Path) -> io::Result<PathBuf> {
    let prefix = staging_prefix(path).ok_or_else(|| io::Error::other("no directory name"))?;
    let parent = parent_of(path).unwrap_or(Path::new("."));
    let staging = tempfile::Builder::new()
        .prefix(&prefix)
        .rand_bytes(6)
        .tempdir_in(parent)?
        .keep();
    // tempfile makes it 0700; a report directory is as readable as any other.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = 0o777 & !umask();
        fs::set_permissions(&staging, fs::Permissions::from_mode(mode))?;
    }
    Ok(staging)
}

#[cfg(unix)]
// mode_t is u32 on Linux and u16 on macOS.
#[allow(clippy::useless_conversion)]
fn umask() -> u32 {
    // SAFETY: umask(2) cannot fail; it is set back at once.
    unsafe {
        let old = libc::umask(0o022);
        libc::umask(old);
        u32::from(old)
    }
}

/// Puts `staging` where `path` is, in one step where the system can.
pub(super) fn swap_in(staging: &Path, path: &Path) -> io::Result<()> {
    if !path.exists() {
        return fs::rename(staging, path);
    }
    // What the user keeps in the directory (allowed with --overwrite) stays:
    // it moves along, and back should the swap fail.
    let mut kept = Vec::new();
    for entry in fs::read_dir(path)?.flatten() {
        let name = entry.file_name();
        // A stale temporary was removed by `prepare`; a live one is
        // another run's, and stays with the rest.
        let ours = name.to_str().is_some_and(|n| WRITTEN.contains(&n));
        if !ours && fs::rename(entry.path(), staging.join(&name)).is_ok() {
            kept.push(name);
        }
    }
    let swapped = match exchange(staging, path) {
        // `staging` now holds the old report.
        Ok(true) => return fs::remove_dir_all(staging),
        // Two renames: for a moment no directory, never a mixed one.
        Ok(false) => {
            let old = staging.with_extension("old");
            fs::rename(path, &old).and_then(|()| match fs::rename(staging, path) {
                Ok(()) => fs::remove_dir_all(&old),
                Err(e) => fs::rename(&old, path).and(Err(e)),
            })
        }
        Err(e) => Err(e),
    };
    if swapped.is_err() {
        for name in kept {
            let _ = fs::rename(staging.join(&name), path.join(&name));
        }
    }
    swapped
}

/// Exchanges two directories atomically (Linux's renameat2 RENAME_EXCHANGE);
/// false where the system or file system cannot.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two NUL-terminated paths; the raw syscall, since the wheel's
    // glibc (2.17) has no renameat2 wrapper.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::ENOSYS | libc::EINVAL | libc::ENOTSUP) => Ok(false),
        _ => Err(e),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(_a: &Path, _b: &Path) -> io::Result<bool> {
    Ok(false)
}
