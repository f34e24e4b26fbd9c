//! Paths as people read them. The JSON keeps the full path the log holds;
//! text shows one form everywhere: the user's files relative to the current
//! directory when under it (else absolute), installed packages from the
//! package (`transformers/utils/generic.py`), never torch's shortened form.
//!
//! A log read where it was not recorded (another machine, another clone of
//! the same code: the bundled samples) names user files this machine does
//! not have. Such a file is shown, and linked, as the copy the current
//! directory holds at the longest tail of its path (`samples/scripts/x.py`
//! of `/elsewhere/samples/scripts/x.py`); a path that exists here is always
//! the file meant, so a log of this machine is never redirected.

use crate::reasons::paths::{owner, Owner};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// A path for display.
pub fn display(path: &str) -> String {
    let unix = path.replace('\\', "/");
    for marker in ["/site-packages/", "/dist-packages/"] {
        if let Some(i) = unix.rfind(marker) {
            return unix[i + marker.len()..].to_string();
        }
    }
    if let Some(i) = unix.rfind("/torch/") {
        // A source checkout of torch: from the package on.
        return unix[i + 1..].to_string();
    }
    relative_to_cwd(path)
        .or_else(|| copy_here(path).map(|(tail, _)| tail))
        .unwrap_or_else(|| path.to_string())
}

/// The current directory's copy of a user's file this machine lacks.
pub fn local_copy(path: &str) -> Option<PathBuf> {
    copy_here(path).map(|(_, here)| here)
}

/// The longest proper tail of `path` that is a file under `dir`, when
/// `path` is a user's absolute path that does not exist here.
pub fn tail_under(path: &str, dir: &Path) -> Option<String> {
    let p = Path::new(path);
    if !p.is_absolute() || owner(path) != Owner::User || p.exists() {
        return None;
    }
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    (1..parts.len())
        .map(|from| parts[from..].join("/"))
        .find(|tail| dir.join(tail).is_file())
}

/// `tail_under` the current directory, looked up once per path and
/// directory: a summary names the same few files hundreds of times, and a
/// notebook's process may change directory between runs.
fn copy_here(path: &str) -> Option<(String, PathBuf)> {
    type Found = HashMap<(PathBuf, String), Option<(String, PathBuf)>>;
    static FOUND: OnceLock<Mutex<Found>> = OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    let cwd = std::env::current_dir().ok()?;
    let key = (cwd, path.to_string());
    if let Some(known) = found.lock().ok()?.get(&key) {
        return known.clone();
    }
    let copy = tail_under(path, &key.0).map(|tail| {
        let here = key.0.join(&tail);
        (tail, here)
    });
    found.lock().ok()?.insert(key, copy.clone());
    copy
}

/// `file:line` (or `file:line: code`) with its file displayed.
pub fn display_site(site: &str) -> String {
    match site.rsplit_once(':') {
        Some((file, line)) if !file.is_empty() && line.chars().all(|c| c.is_ascii_digit()) => {
            format!("{}:{line}", display(file))
        }
        _ => display(site),
    }
}

/// The last part of a path, for a mention that has no room for the rest.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn relative_to_cwd(path: &str) -> Option<String> {
    let p = Path::new(path);
    if !p.is_absolute() {
        return None;
    }
    let cwd = std::env::current_dir().ok()?;
    let rel = p.strip_prefix(&cwd).ok()?;
    Some(rel.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_from_the_package_user_files_whole() {
        assert_eq!(
            display("/v/lib/python3.11/site-packages/transformers/utils/generic.py"),
            "transformers/utils/generic.py"
        );
        assert_eq!(
            display("/src/pytorch/torch/nn/modules/linear.py"),
            "torch/nn/modules/linear.py"
        );
        assert_eq!(display("/nowhere/near/train.py"), "/nowhere/near/train.py");
        let here = std::env::current_dir().unwrap().join("proj/train.py");
        assert_eq!(display(here.to_str().unwrap()), "proj/train.py");
        assert_eq!(display_site("/nowhere/train.py:16"), "/nowhere/train.py:16");
        assert_eq!(
            display_site("/v/lib/python3.11/site-packages/torch/optim/sgd.py:120"),
            "torch/optim/sgd.py:120"
        );
    }

    #[test]
    fn a_file_this_machine_lacks_is_the_copy_under_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("samples/scripts")).unwrap();
        std::fs::write(dir.path().join("samples/scripts/m.py"), "").unwrap();
        std::fs::write(dir.path().join("m.py"), "").unwrap();
        let elsewhere = "/nowhere/checkout/samples/scripts/m.py";
        // The longest tail wins over a shorter one that also exists.
        assert_eq!(
            tail_under(elsewhere, dir.path()).as_deref(),
            Some("samples/scripts/m.py")
        );
        assert_eq!(tail_under("/nowhere/other.py", dir.path()), None);
        // A path that exists is the file meant, wherever a copy is.
        let real = dir.path().join("samples/scripts/m.py");
        assert_eq!(tail_under(real.to_str().unwrap(), dir.path()), None);
        // Installed packages are never redirected to a user's file.
        assert_eq!(
            tail_under("/nowhere/lib/python3.11/site-packages/m.py", dir.path()),
            None
        );
    }
}
