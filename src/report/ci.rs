//! What the CI formats of `check` share (`sarif`, `github`, `markdown`):
//! the user's line of each counted recompile, named relative to the
//! repository root, and the one sentence that says what changed and how to
//! fix it. Code scanning and workflow annotations place a finding on a file
//! of the pull request only by its path from the repository root, while the
//! log holds the absolute path of the machine that ran the job.

use super::paths::tail_under;
use super::text::check::frame;
use super::text::terminal_safe;
use crate::analysis::check::{NewGraphBreak, Offense};
use crate::analysis::{EagerFrame, Severity};
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// The directory the user's files are named from.
#[derive(Clone, Debug)]
pub struct RepoRoot {
    root: PathBuf,
}

/// A file as the CI formats name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileName {
    /// Under the root (or relative in the log already): `/`-separated.
    Relative(String),
    /// Outside the root: as the log has it.
    Absolute(String),
}

impl FileName {
    /// The name as a person or an annotation reads it.
    pub fn as_str(&self) -> &str {
        match self {
            FileName::Relative(s) | FileName::Absolute(s) => s,
        }
    }
}

/// A user's line: the file and its 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub file: FileName,
    pub line: u32,
}

impl RepoRoot {
    /// `root` made absolute (against the current directory) and without
    /// `.`/`..`: the log's paths are compared as text, and the directory
    /// need not exist here (a log recorded on another machine).
    pub fn new(root: &Path) -> Self {
        let absolute = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        let mut clean = PathBuf::new();
        for part in absolute.components() {
            match part {
                Component::CurDir => {}
                Component::ParentDir => {
                    clean.pop();
                }
                other => clean.push(other),
            }
        }
        RepoRoot { root: clean }
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    pub fn name(&self, file: &str) -> FileName {
        let path = Path::new(file);
        if !path.is_absolute() {
            return FileName::Relative(file.replace('\\', "/"));
        }
        match path.strip_prefix(&self.root) {
            Ok(rel) if !rel.as_os_str().is_empty() => FileName::Relative(rel.to_string_lossy().replace('\\', "/")),
            // Recorded in another checkout of the repository (a baseline
            // made elsewhere, the bundled samples): the file the root holds.
            _ => match tail_under(file, &self.root) {
                Some(tail) => FileName::Relative(tail),
                None => FileName::Absolute(file.to_string()),
            },
        }
    }

    /// The user's line of an offense: where the guard's value is read (the
    /// line to change), else the line that called the compiled code.
    pub fn site(&self, o: &Offense) -> Option<Site> {
        [&o.cause.source, &o.cause.called_from]
            .into_iter()
            .flatten()
            .find_map(|s| split_site(s))
            .map(|(file, line)| Site {
                file: self.name(file),
                line,
            })
    }
}

impl RepoRoot {
    /// A `file:line` of the log as the CI formats place it.
    pub fn site_of(&self, site: Option<&str>) -> Option<Site> {
        site.and_then(split_site).map(|(file, line)| Site {
            file: self.name(file),
            line,
        })
    }

    /// `file:line` named from the root, for messages.
    pub fn display(&self, site: &str) -> String {
        match split_site(site) {
            Some((file, line)) => format!("{}:{line}", self.name(file).as_str()),
            None => site.to_string(),
        }
    }
}

/// A frame that runs eagerly, in one paragraph: which frame, the cost per
/// call, why, at which line, and the fix.
pub fn eager_sentence(e: &EagerFrame, root: &RepoRoot) -> String {
    let mut s = e.sentence(|site| root.display(site));
    s.push('.');
    if let Some(fix) = &e.fix {
        s.push_str(&format!(" Fix: {fix}"));
    }
    s
}

/// A new graph break, in one paragraph: what broke, at which line, what it
/// costs each call, and the fix.
pub fn break_sentence(g: &NewGraphBreak, root: &RepoRoot) -> String {
    let mut s = format!("New graph break: {}", g.reason);
    if let Some(id) = &g.registry_id {
        s.push_str(&format!(" [{}]", id.to_uppercase()));
    }
    if let Some(at) = &g.user_line {
        s.push_str(&format!(" at {}", root.display(at)));
        if let Some(code) = &g.user_code {
            s.push_str(&format!(": {code}"));
        }
    }
    s.push_str(&format!(" ({})", g.compile_ids.join(", ")));
    if !g.per_call.is_empty() {
        s.push_str(&format!(". Cost: {}", g.per_call));
    }
    s.push('.');
    if let Some(hint) = g.hints.first() {
        s.push_str(&format!(" Fix: {hint}"));
    }
    s
}

/// `file:LINE` split, when the line is a positive number.
pub fn split_site(site: &str) -> Option<(&str, u32)> {
    let (file, line) = site.rsplit_once(':')?;
    let line: u32 = line.parse().ok().filter(|l| *l > 0)?;
    (!file.is_empty()).then_some((file, line))
}

/// The changed values, as the summary's `changed:` lines name them.
pub fn what_changed(o: &Offense) -> String {
    const SHOWN: usize = 3;
    let mut parts: Vec<String> = o.cause.changed.iter().take(SHOWN).map(|c| c.describe()).collect();
    if o.cause.changed.len() > SHOWN {
        parts.push(format!("+{} more", o.cause.changed.len() - SHOWN));
    }
    parts.join("; ")
}

/// One paragraph: the culprit, what changed, the recompile and its
/// severity, then the fix. Reviewers read it where the line is shown, so it
/// carries everything the terminal's entry does.
pub fn sentence(o: &Offense) -> String {
    let mut s = o.cause.culprit.clone();
    let changed = what_changed(o);
    if !changed.is_empty() {
        s.push_str(&format!(" changed ({changed})"));
    } else if let Some(detail) = o.cause.detail.as_deref().filter(|d| !d.is_empty()) {
        s.push_str(&format!(" ({detail})"));
    }
    let severity = match o.severity {
        Severity::Problem => "a problem",
        Severity::Expected => "expected",
    };
    s.push_str(&format!(". Recompile {} of {} is {severity}", o.compile_id, frame(o)));
    if !o.evidence.text.is_empty() {
        s.push_str(&format!(": {}", o.evidence.text));
    }
    s.push('.');
    if !o.cause.advice.is_empty() {
        s.push_str(&format!(" Fix: {}", o.cause.advice));
    }
    s
}

/// `s` with control and bidi characters shown escaped (`\x1b`): CI logs
/// render terminal codes, and a PR comment should read as the log does.
/// Workflow commands need nothing more here: `github` escapes line breaks
/// inside its commands, and `markdown` breaks lines as `<br>` and escapes
/// `[` (text/workflow.rs is what the other outputs use).
pub fn inert(s: &str) -> String {
    terminal_safe(s).into_owned()
}

/// `text` cut after `max` characters, saying so and how long it was:
/// `… (cut: 1,000,000 chars)`. CI hosts drop or truncate what is too long
/// (a step summary over 1 MiB is dropped whole), and one guard of a log
/// can be a megabyte.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((at, _)) => {
            let whole = max + text[at..].chars().count();
            Cow::Owned(format!("{}… (cut: {} chars)", &text[..at], thousands(whole)))
        }
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_under_the_root_are_relative_others_absolute() {
        let root = RepoRoot::new(Path::new("/work/proj/./sub/.."));
        assert_eq!(root.path(), Path::new("/work/proj"));
        assert_eq!(root.name("/work/proj/train.py"), FileName::Relative("train.py".into()));
        assert_eq!(
            root.name("/work/proj/a b/hooks.py"),
            FileName::Relative("a b/hooks.py".into())
        );
        assert_eq!(
            root.name("/work/project/train.py"),
            FileName::Absolute("/work/project/train.py".into())
        );
        assert_eq!(root.name("/work/proj"), FileName::Absolute("/work/proj".into()));
        assert_eq!(root.name("rel/x.py"), FileName::Relative("rel/x.py".into()));
    }

    #[test]
    fn long_texts_are_cut_with_their_length() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut(&"é".repeat(1_000_000), 2), "éé… (cut: 1,000,000 chars)");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
    }

    #[test]
    fn sites_need_a_positive_line() {
        assert_eq!(split_site("/a/train.py:18"), Some(("/a/train.py", 18)));
        assert_eq!(split_site("C:\\a\\t.py:3"), Some(("C:\\a\\t.py", 3)));
        assert_eq!(split_site("/a/train.py:0"), None);
        assert_eq!(split_site("/a/train.py"), None);
        assert_eq!(split_site(":7"), None);
    }
}
