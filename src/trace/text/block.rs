//! One recompile as Dynamo's text tells it, gathered line by line:
//! `Recompiling function NAME in FILE:LINE`, `triggered by the following
//! guard failure(s):`, then `- 0/0: REASON` per failed cache entry, each
//! reason's own further lines (a user stack) also behind `- `; or the
//! recompile-limit warning (`hit config.recompile_limit (8)`, `function:
//! 'NAME' (FILE:LINE)`, `last reason: 0/7: ...`) for the compile it refused.

use crate::trace::envelope::CompileRef;
use crate::trace::glog::LogTime;

/// Where the line that began a block sits, and who wrote it.
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    pub line: u64,
    pub time: Option<LogTime>,
    pub pid: Option<u64>,
    pub rank: Option<u32>,
    /// Written by a logger (glog prefix or tag): only such lines continue
    /// it, and a line of the job's own cannot end it.
    pub logged: bool,
}

#[derive(Debug)]
pub struct Block {
    pub origin: Origin,
    /// The compile id the logger printed (`[0/3]`); None in a pasted block.
    pub compile: Option<CompileRef>,
    pub function: Option<String>,
    pub file: Option<String>,
    pub first_line: Option<u32>,
    /// One per failed cache entry, as the `recompile_reasons` artifact holds them.
    pub reasons: Vec<String>,
    /// Past `triggered by ...`: `- ` lines are reasons.
    pub in_reasons: bool,
    /// The recompile-limit warning named this compile: Dynamo refused it.
    pub refused: bool,
    /// `FailOnRecompileLimitHit` was raised for it.
    pub hard_failure: bool,
    /// In the limit warning, past `last reason:`: its further lines are the
    /// quoted source line, not more reasons.
    pub in_limit_warning: bool,
    /// Reading a further failed guard of an entry that has its reason.
    skipping: bool,
}

impl Block {
    pub fn new(origin: Origin, compile: Option<CompileRef>) -> Block {
        Block {
            origin,
            compile,
            function: None,
            file: None,
            first_line: None,
            reasons: Vec::new(),
            in_reasons: false,
            refused: false,
            hard_failure: false,
            in_limit_warning: false,
            skipping: false,
        }
    }

    /// `Recompiling function forward in /proj/model.py:117` (the body after the tag).
    pub fn header(text: &str) -> Option<(String, String, Option<u32>)> {
        let rest = text.trim_start().strip_prefix("Recompiling function ")?;
        let (name, at) = rest.split_once(" in ")?;
        let (file, line) = split_file_line(at.trim_end());
        Some((name.to_string(), file, line))
    }

    /// Takes one line of the block's body; false when the line is not part of it.
    pub fn take(&mut self, body: &str) -> bool {
        let trimmed = body.trim_start();
        if trimmed.starts_with("triggered by the following guard failure") {
            self.in_reasons = true;
            return true;
        }
        if self.in_reasons && trimmed.starts_with("guard ") && trimmed.ends_with("failures:") {
            // recompiles_verbose numbers the entries; the ids say it too.
            return true;
        }
        if let Some(rest) = trimmed.strip_prefix("- ").or_else(|| (trimmed == "-").then_some("")) {
            if !self.in_reasons && self.reasons.is_empty() && entry_id(rest).is_none() {
                return false;
            }
            self.in_reasons = true;
            self.reason_line(rest);
            return true;
        }
        if let Some(rest) = trimmed.strip_prefix("function: ") {
            // `'forward' (/proj/model.py:117)` in the limit warning.
            let (name, at) = rest.split_once(" (").unwrap_or((rest, ""));
            if self.function.is_none() {
                self.function = Some(name.trim_matches('\'').to_string());
            }
            if self.file.is_none() && !at.is_empty() {
                let (file, line) = split_file_line(at.trim_end().trim_end_matches(')'));
                self.file = Some(file);
                self.first_line = line;
            }
            return true;
        }
        if let Some(rest) = trimmed.strip_prefix("last reason: ") {
            // Only the newest entry's reason: what the block had is fuller.
            if self.reasons.is_empty() {
                self.reasons.push(rest.to_string());
            }
            self.in_limit_warning = true;
            return true;
        }
        if trimmed.starts_with("To log all recompilation reasons") || trimmed.starts_with("To diagnose recompilation") {
            self.in_limit_warning = false;
            return true;
        }
        // The source line the warning quotes after the last reason.
        self.in_limit_warning && !trimmed.is_empty()
    }

    fn reason_line(&mut self, rest: &str) {
        match entry_id(rest) {
            Some(id) => {
                // recompiles_verbose lists every failed guard of an entry;
                // the artifact holds the first one only.
                self.skipping = self.reasons.iter().any(|r| entry_id(r) == Some(id));
                if !self.skipping {
                    self.reasons.push(rest.to_string());
                }
            }
            None if self.skipping => {}
            None => match self.reasons.last_mut() {
                Some(last) => {
                    last.push('\n');
                    last.push_str(rest);
                }
                None => self.reasons.push(rest.to_string()),
            },
        }
    }

    /// The compile this block is about: the logged id, or in a pasted
    /// block the entry after the newest failed one (Dynamo numbers a
    /// frame's entries in order, and each recompile lists every older one).
    pub fn compile_ref(&self) -> Option<CompileRef> {
        if self.compile.is_some() {
            return self.compile;
        }
        let newest = self
            .reasons
            .iter()
            .filter_map(|r| entry_id(r))
            .max_by_key(|&(_, n)| n)?;
        Some(CompileRef {
            frame_id: Some(newest.0),
            frame_compile_id: Some(newest.1 + 1),
            attempt: Some(0),
            compiled_autograd_id: None,
        })
    }
}

/// `0/3` from `0/3: tensor 'x' ...`.
pub fn entry_id(reason: &str) -> Option<(u32, u32)> {
    let (id, _) = reason.split_once(": ")?;
    let (f, n) = id.split_once('/')?;
    Some((f.parse().ok()?, n.parse().ok()?))
}

/// `/proj/model.py:117` -> (`/proj/model.py`, 117).
fn split_file_line(at: &str) -> (String, Option<u32>) {
    match at.rsplit_once(':') {
        Some((file, line)) if line.bytes().all(|b| b.is_ascii_digit()) && !line.is_empty() => {
            (file.to_string(), line.parse().ok())
        }
        _ => (at.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            line: 1,
            time: None,
            pid: None,
            rank: None,
            logged: false,
        }
    }

    #[test]
    fn a_pasted_block_gives_reasons_and_the_next_id() {
        // Hand-made, in the words torch 2.15 prints (see tests/textlogs).
        let (name, file, line) = Block::header("Recompiling function inner in /p/external_utils.py:67").unwrap();
        assert_eq!(
            (name.as_str(), file.as_str(), line),
            ("inner", "/p/external_utils.py", Some(67))
        );
        let mut b = Block::new(origin(), None);
        for l in [
            "    triggered by the following guard failure(s):",
            "    - 0/1: not G['m'].norms  # x  # t.py:19 in hook",
            "    - User stack trace:",
            "    -   File \"/p/t.py\", line 19, in hook",
            "    - 0/0: G['m'].on == False",
        ] {
            assert!(b.take(l), "{l}");
        }
        assert!(!b.take("epoch 3"));
        assert_eq!(b.reasons.len(), 2);
        assert_eq!(
            b.reasons[0],
            "0/1: not G['m'].norms  # x  # t.py:19 in hook\nUser stack trace:\n  File \"/p/t.py\", line 19, in hook"
        );
        let r = b.compile_ref().unwrap();
        assert_eq!((r.frame_id, r.frame_compile_id), (Some(0), Some(2)));
    }
}
