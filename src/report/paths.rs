//! Paths as people read them. The JSON keeps the full path the log holds;
//! text shows one form everywhere: the user's files relative to the current
//! directory when under it (else absolute), installed packages from the
//! package (`transformers/utils/generic.py`), never torch's shortened form.

use std::path::Path;

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
    relative_to_cwd(path).unwrap_or_else(|| path.to_string())
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
}
