//! The report directory: created by guardscope and marked as such, never a
//! directory of the user's that happens to be named like `-o`. Its files
//! are one unit: they are written into a fresh sibling directory, which is
//! then swapped with the old one in one rename (`commit`), so a reader, or
//! a run killed at any point, never leaves an `index.html` of one run beside
//! the `summary.json` of another. Files are created exclusively
//! (`O_CREAT|O_EXCL`), so a link planted at a temporary name is never
//! followed, and what a killed run left is removed by the next one.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Present in every directory guardscope created, so re-running the same
/// command may overwrite its own output.
const MARKER: &str = ".guardscope-report";

/// Every name guardscope writes into a report directory. Its temporaries
/// are `.NAME.tmp-PID.XXXXXX` (`.NAME.tmp-PID` before they were random), and
/// only those are ever removed as stale; a staging directory is named the
/// same way after the report directory.
const WRITTEN: [&str; 4] = [MARKER, "summary.json", "index.html", "compile_trace.json"];

pub struct ReportDir {
    path: PathBuf,
    /// Where the files go until `commit` swaps it in; None where no sibling
    /// directory could be made (a mount point, a parent without write
    /// permission): then each file is renamed into place on its own.
    staging: Option<PathBuf>,
}

#[derive(Debug)]
pub enum ReportDirError {
    NotEmpty(PathBuf),
    NotADirectory(PathBuf),
    /// A symbolic link (the path or a directory above it) to nothing.
    DanglingLink(PathBuf, PathBuf),
    Io(PathBuf, io::Error),
}

impl fmt::Display for ReportDirError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ReportDirError::NotEmpty(p) => write!(
                f,
                "{}: directory is not empty and was not created by guardscope; choose another -o DIR or pass --overwrite",
                p.display()
            ),
            ReportDirError::NotADirectory(p) => write!(f, "{}: exists and is not a directory", p.display()),
            ReportDirError::DanglingLink(p, to) => write!(
                f,
                "{}: is a symbolic link to {}, which does not exist; create it or choose another -o DIR",
                p.display(),
                to.display()
            ),
            ReportDirError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ReportDirError {}

impl ReportDir {
    /// Prepares `path`: a new directory, or one that is empty, was created
    /// by guardscope, or `overwrite` is set. Nothing is visible at `path`
    /// until `commit`.
    pub fn prepare(path: &Path, overwrite: bool) -> Result<ReportDir, ReportDirError> {
        let io_err = |e| ReportDirError::Io(path.to_path_buf(), e);
        // A link to a directory stays a link: the directory it names is swapped.
        let path = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            _ => path.to_path_buf(),
        };
        let path = path.as_path();
        match fs::metadata(path) {
            Ok(meta) if !meta.is_dir() => return Err(ReportDirError::NotADirectory(path.to_path_buf())),
            Ok(_) => {
                let ours = path.join(MARKER).exists();
                let empty = fs::read_dir(path).map_err(io_err)?.next().is_none();
                if !(ours || empty || overwrite) {
                    return Err(ReportDirError::NotEmpty(path.to_path_buf()));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if let Some((link, to)) = dangling_link(path) {
                    return Err(ReportDirError::DanglingLink(link, to));
                }
                if let Some(parent) = parent_of(path) {
                    fs::create_dir_all(parent).map_err(io_err)?;
                }
            }
            Err(e) => return Err(io_err(e)),
        }
        remove_stale_staging(path);
        let staging = make_staging(path).ok();
        if staging.is_none() {
            fs::create_dir_all(path).map_err(io_err)?;
        }
        let dir = ReportDir {
            path: path.to_path_buf(),
            staging,
        };
        if dir.path.is_dir() {
            remove_stale_temporaries(&dir.path);
        }
        dir.write(
            MARKER,
            b"This directory was written by guardscope report; guardscope may overwrite it.\n",
        )
        .map_err(io_err)?;
        Ok(dir)
    }

    /// Where the files are written until `commit`.
    fn files(&self) -> &Path {
        self.staging.as_deref().unwrap_or(&self.path)
    }

    /// Makes the written files the directory's, all at once: the staging
    /// directory takes the old one's place in one rename (the files the
    /// user kept there with --overwrite move along), and the old one is
    /// removed. Returns the path of `name` in the directory.
    pub fn commit(self, name: &str) -> io::Result<PathBuf> {
        let Some(staging) = &self.staging else {
            return Ok(self.path.join(name));
        };
        let result = swap_in(staging, &self.path);
        if result.is_err() {
            let _ = fs::remove_dir_all(staging);
        }
        result.map(|()| self.path.join(name))
    }

    /// Writes `name` atomically: a temporary file in the same directory,
    /// flushed, then renamed over the old one.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        self.write_with(name, |w| w.write_all(bytes))
    }

    /// Like `write`, for content produced by a writer function.
    pub fn write_with(&self, name: &str, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<PathBuf> {
        debug_assert!(WRITTEN.contains(&name), "{name}: add it to WRITTEN");
        let target = self.files().join(name);
        // O_CREAT|O_EXCL under a fresh random name: never opens what is
        // already there, a planted link included. Mode 0666 less the umask,
        // as a plain create would give (tempfile's default is 0600).
        let prefix = format!(".{name}.tmp-{}.", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).rand_bytes(6);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        // Dropped on any error below, the temporary is removed.
        let mut tmp = builder.tempfile_in(self.files())?;
        {
            let mut w = io::BufWriter::new(tmp.as_file_mut());
            fill(&mut w)?;
            w.flush()?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(&target).map_err(|e| e.error)?;
        Ok(target)
    }
}

impl Drop for ReportDir {
    /// A report that failed before `commit` leaves nothing behind.
    fn drop(&mut self) {
        if let Some(staging) = &self.staging {
            if staging.exists() {
                let _ = fs::remove_dir_all(staging);
            }
        }
    }
}

fn parent_of(path: &Path) -> Option<&Path> {
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
fn make_staging(path: &Path) -> io::Result<PathBuf> {
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
fn swap_in(staging: &Path, path: &Path) -> io::Result<()> {
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

/// Removes the temporaries of runs that were killed before renaming them:
/// guardscope's own names only (see `WRITTEN`), whose process is gone.
/// Failures are ignored; a leftover is harmless.
fn remove_stale_temporaries(dir: &Path) {
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
fn remove_stale_staging(path: &Path) {
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

/// The process id in the name of one of guardscope's temporaries:
/// `.NAME.tmp-PID.XXXXXX` or `.NAME.tmp-PID` for a NAME it writes.
fn temporary_pid(file: &str) -> Option<u32> {
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

/// The first of `path` and the directories above it that is a symbolic
/// link to nothing, with where it points: `create_dir_all` would only say
/// "File exists".
fn dangling_link(path: &Path) -> Option<(PathBuf, PathBuf)> {
    path.ancestors().filter(|p| !p.as_os_str().is_empty()).find_map(|p| {
        let is_link = fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
        let dangling = is_link && fs::metadata(p).is_err_and(|e| e.kind() == io::ErrorKind::NotFound);
        dangling.then(|| (p.to_path_buf(), fs::read_link(p).unwrap_or_default()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_users_directory_but_reuses_its_own() {
        let root = tempfile::tempdir().unwrap();
        let users = root.path().join("notes");
        fs::create_dir(&users).unwrap();
        fs::write(users.join("todo.txt"), "keep me").unwrap();
        assert!(matches!(
            ReportDir::prepare(&users, false),
            Err(ReportDirError::NotEmpty(_))
        ));
        let over = ReportDir::prepare(&users, true).unwrap();
        over.write("index.html", b"page").unwrap();
        over.commit("index.html").unwrap();
        assert_eq!(fs::read_to_string(users.join("todo.txt")).unwrap(), "keep me");
        assert_eq!(fs::read_to_string(users.join("index.html")).unwrap(), "page");

        let ours = root.path().join("a/b/report");
        let dir = ReportDir::prepare(&ours, false).unwrap();
        dir.write("index.html", b"one").unwrap();
        assert!(!ours.exists(), "nothing shows before the commit");
        dir.commit("index.html").unwrap();
        let again = ReportDir::prepare(&ours, false).unwrap();
        again.write("index.html", b"two").unwrap();
        assert_eq!(fs::read_to_string(ours.join("index.html")).unwrap(), "one");
        again.commit("index.html").unwrap();
        assert_eq!(fs::read_to_string(ours.join("index.html")).unwrap(), "two");
        let siblings: Vec<_> = fs::read_dir(root.path().join("a/b")).unwrap().flatten().collect();
        assert_eq!(siblings.len(), 1, "no staging directory left: {siblings:?}");
        let leftovers: Vec<_> = fs::read_dir(&ours)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn a_file_in_the_way_is_an_error() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("report");
        fs::write(&file, "x").unwrap();
        assert!(matches!(
            ReportDir::prepare(&file, true),
            Err(ReportDirError::NotADirectory(_))
        ));
    }

    /// Before temporaries were exclusive, `.index.html.tmp-PID` was opened
    /// with a plain create: a link planted there made the run overwrite
    /// the file it pointed to.
    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_a_temporary_name_is_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let victim = root.path().join("victim.txt");
        fs::write(&victim, "precious").unwrap();
        let report = root.path().join("report");
        let first = ReportDir::prepare(&report, false).unwrap();
        first.write("index.html", b"old page").unwrap();
        first.commit("index.html").unwrap();
        let dir = ReportDir::prepare(&report, false).unwrap();
        let pid = std::process::id();
        // In the report directory and in the staging one (whose random name
        // an attacker would have to guess: found here by listing).
        let staging = fs::read_dir(root.path())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(".report.tmp-"))
            .unwrap();
        for at in [&report, &staging] {
            for planted in [format!(".index.html.tmp-{pid}"), format!(".index.html.tmp-{pid}.")] {
                std::os::unix::fs::symlink(&victim, at.join(planted)).unwrap();
            }
        }
        dir.write("index.html", b"page").unwrap();
        dir.commit("index.html").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let index = fs::symlink_metadata(report.join("index.html")).unwrap();
        assert!(index.file_type().is_file());
        assert_eq!(fs::read_to_string(report.join("index.html")).unwrap(), "page");
    }

    #[test]
    fn a_report_that_fails_before_its_commit_leaves_the_old_one_whole() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("report");
        let first = ReportDir::prepare(&out, false).unwrap();
        first.write("summary.json", b"1").unwrap();
        first.write("index.html", b"1").unwrap();
        first.commit("index.html").unwrap();
        let second = ReportDir::prepare(&out, false).unwrap();
        second.write("summary.json", b"2").unwrap();
        drop(second);
        assert_eq!(fs::read_to_string(out.join("summary.json")).unwrap(), "1");
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "1");
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1, "the staging is removed");
    }

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
