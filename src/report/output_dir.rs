//! The report directory: created by guardscope and marked as such, never a
//! directory of the user's that happens to be named like `-o`; files are
//! written to a temporary name and renamed, so a crash leaves no half page.
//! A temporary is created exclusively (`O_CREAT|O_EXCL`), so a link planted
//! at its name is never followed, and temporaries left by a killed run are
//! removed by the next one.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Present in every directory guardscope created, so re-running the same
/// command may overwrite its own output.
const MARKER: &str = ".guardscope-report";

/// Every name guardscope writes into a report directory. Its temporaries
/// are `.NAME.tmp-PID.XXXXXX` (`.NAME.tmp-PID` before they were random), and
/// only those are ever removed as stale.
const WRITTEN: [&str; 4] = [MARKER, "summary.json", "index.html", "compile_trace.json"];

pub struct ReportDir {
    path: PathBuf,
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
    /// Creates `path`, or reuses it when it is empty, was created by
    /// guardscope, or `overwrite` is set.
    pub fn prepare(path: &Path, overwrite: bool) -> Result<ReportDir, ReportDirError> {
        let io_err = |e| ReportDirError::Io(path.to_path_buf(), e);
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
                fs::create_dir_all(path).map_err(io_err)?
            }
            Err(e) => return Err(io_err(e)),
        }
        let dir = ReportDir {
            path: path.to_path_buf(),
        };
        dir.remove_stale_temporaries();
        dir.write(
            MARKER,
            b"This directory was written by guardscope report; guardscope may overwrite it.\n",
        )
        .map_err(io_err)?;
        Ok(dir)
    }

    /// Writes `name` atomically: a temporary file in the same directory,
    /// flushed, then renamed over the old one.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        self.write_with(name, |w| w.write_all(bytes))
    }

    /// Like `write`, for content produced by a writer function.
    pub fn write_with(&self, name: &str, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<PathBuf> {
        debug_assert!(WRITTEN.contains(&name), "{name}: add it to WRITTEN");
        let target = self.path.join(name);
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
        let mut tmp = builder.tempfile_in(&self.path)?;
        {
            let mut w = io::BufWriter::new(tmp.as_file_mut());
            fill(&mut w)?;
            w.flush()?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(&target).map_err(|e| e.error)?;
        Ok(target)
    }

    /// Removes the temporaries of runs that were killed before renaming
    /// them: guardscope's own names only (see `WRITTEN`), whose process is
    /// gone. Failures are ignored; a leftover is harmless.
    fn remove_stale_temporaries(&self) {
        let Ok(entries) = fs::read_dir(&self.path) else {
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
        assert!(ReportDir::prepare(&users, true).is_ok());
        assert_eq!(fs::read_to_string(users.join("todo.txt")).unwrap(), "keep me");

        let ours = root.path().join("a/b/report");
        let dir = ReportDir::prepare(&ours, false).unwrap();
        dir.write("index.html", b"one").unwrap();
        let again = ReportDir::prepare(&ours, false).unwrap();
        again.write("index.html", b"two").unwrap();
        assert_eq!(fs::read_to_string(ours.join("index.html")).unwrap(), "two");
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
        let dir = ReportDir::prepare(&report, false).unwrap();
        let pid = std::process::id();
        for planted in [format!(".index.html.tmp-{pid}"), format!(".index.html.tmp-{pid}.")] {
            std::os::unix::fs::symlink(&victim, report.join(planted)).unwrap();
        }
        dir.write("index.html", b"page").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let index = fs::symlink_metadata(report.join("index.html")).unwrap();
        assert!(index.file_type().is_file());
        assert_eq!(fs::read_to_string(report.join("index.html")).unwrap(), "page");
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
