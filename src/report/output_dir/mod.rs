//! The report directory: created by guardscope and marked as such, never a
//! directory of the user's that happens to be named like `-o`. Its files
//! are one unit: they are written into a fresh sibling directory, which is
//! then swapped with the old one in one rename (`commit`), so a reader, or
//! a run killed at any point, never leaves an `index.html` of one run beside
//! the `summary.json` of another. Files are created exclusively
//! (`O_CREAT|O_EXCL`), so a link planted at a temporary name is never
//! followed, and what a killed run left is removed by the next one.

mod names;
mod staging;
mod stale;

use names::{MARKER, WRITTEN};
use staging::{make_staging, parent_of, swap_in};
use stale::{remove_stale_staging, remove_stale_temporaries};
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
}
