//! A rehearsal's mark: the file `guardscope rehearse` and
//! `guardscope.rehearse` write beside the logs they make, so that every
//! later reading of those logs (`summary --json`, the page, the Python
//! loader) says their findings are predicted, and by which level.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// The mark's file name, in the directory of the logs it marks (a name
/// no log is given, so discovery passes it by).
pub const MARKER: &str = "guardscope-rehearsal.json";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Predicted {
    /// Which level predicted the compiles: `meta rehearsal` or `eager run`.
    pub level: String,
    /// The backend every compile was given (null: the job's own).
    pub backend: Option<String>,
    /// What that level cannot see, in words.
    pub cannot_see: String,
}

/// The mark beside the first of `logs` that has one. A mark that cannot be
/// read still marks the logs as predicted (never as a real run), its level
/// saying why it is unknown.
pub fn find<'a>(logs: impl IntoIterator<Item = &'a str>) -> Option<Predicted> {
    let mut seen = BTreeSet::new();
    logs.into_iter().find_map(|log| {
        let path = Path::new(log);
        let dir = if path.is_dir() { path } else { path.parent()? };
        if !seen.insert(dir.to_path_buf()) {
            return None;
        }
        let text = std::fs::read(dir.join(MARKER)).ok()?;
        Some(serde_json::from_slice(&text).unwrap_or_else(|e| Predicted {
            level: format!(
                "rehearsal (its mark {} could not be read: {e})",
                dir.join(MARKER).display()
            ),
            backend: None,
            cannot_see: String::new(),
        }))
    })
}

/// Writes the mark into `dir`, where the rehearsal's logs go.
pub fn write(dir: &Path, predicted: &Predicted) -> std::io::Result<()> {
    let text = serde_json::to_vec_pretty(predicted).map_err(std::io::Error::other)?;
    std::fs::write(dir.join(MARKER), text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_beside_a_log_is_found_and_a_broken_one_still_marks_it_predicted() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("dedicated_log_torch_trace_x.log");
        std::fs::write(&log, "").unwrap();
        let log = log.display().to_string();
        assert_eq!(find([log.as_str()]), None);
        let mark = Predicted {
            level: "eager run".into(),
            backend: Some("eager".into()),
            cannot_see: "paths not taken".into(),
        };
        write(dir.path(), &mark).unwrap();
        assert_eq!(find([log.as_str()]), Some(mark.clone()));
        assert_eq!(find([dir.path().display().to_string().as_str()]), Some(mark));
        std::fs::write(dir.path().join(MARKER), "{").unwrap();
        let broken = find([log.as_str()]).unwrap();
        assert!(broken.level.starts_with("rehearsal (its mark "), "{}", broken.level);
    }
}
