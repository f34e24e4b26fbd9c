//! The report directory: created by guardscope and marked as such, never a
//! directory of the user's that happens to be named like `-o`; files are
//! written to a temporary name and renamed, so a crash leaves no half page.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Present in every directory guardscope created, so re-running the same
/// command may overwrite its own output.
const MARKER: &str = ".guardscope-report";

pub struct ReportDir {
    path: PathBuf,
}

#[derive(Debug)]
pub enum ReportDirError {
    NotEmpty(PathBuf),
    NotADirectory(PathBuf),
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
            Err(e) if e.kind() == io::ErrorKind::NotFound => fs::create_dir_all(path).map_err(io_err)?,
            Err(e) => return Err(io_err(e)),
        }
        let dir = ReportDir {
            path: path.to_path_buf(),
        };
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
        let target = self.path.join(name);
        let tmp = self.path.join(format!(".{name}.tmp-{}", std::process::id()));
        let result = (|| {
            let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
            fill(&mut f)?;
            let f = f.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
            fs::rename(&tmp, &target)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result.map(|()| target)
    }
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
}
