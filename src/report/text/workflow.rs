//! Text from a log made inert for a CI job log. GitHub's Actions runner
//! reads every line a step prints: a line whose first non-blank characters
//! are `::` is a workflow command (`::warning file=...::`, `::add-mask::`),
//! and `##[` anywhere in a line starts a legacy one (`##[add-mask]`,
//! `##[set-output name=x;]`). A newline in a file path or `##[` in a
//! guard's dict key would otherwise let whoever wrote the log annotate the
//! pull request, mask text or set a step's outputs. Other CI systems read
//! similar commands (Azure Pipelines `##vso[`), which the `##[`-rule breaks
//! too.
//!
//! The guard follows the text one character at a time, across writes, and
//! says which characters to escape: a `:` that is the first non-blank
//! character of a line, and a `[` right after `##`. Each output escapes
//! them in its own syntax (`\x3a` on a terminal, `\u005b` in JSON).

/// Where the text stands: at a line's start (only blanks so far), and how
/// many `#` just went by.
#[derive(Clone, Copy, Debug)]
pub struct WorkflowGuard {
    line_start: bool,
    hashes: u8,
}

impl Default for WorkflowGuard {
    fn default() -> Self {
        WorkflowGuard {
            line_start: true,
            hashes: 0,
        }
    }
}

impl WorkflowGuard {
    /// Whether `c`, coming next, must be escaped; the guard then moves past it.
    pub fn must_escape(&mut self, c: char) -> bool {
        let escape = match c {
            ':' => self.line_start,
            '[' => self.hashes >= 2,
            _ => false,
        };
        self.hashes = if c == '#' {
            self.hashes.saturating_add(1).min(2)
        } else {
            0
        };
        // The runner trims a line's leading white space before it looks for `::`.
        self.line_start = c == '\n' || (self.line_start && c.is_whitespace() && !escape);
        escape
    }

    /// Appends `c` to `out`, as `\xNN` when it must be escaped.
    pub fn push(&mut self, c: char, out: &mut String) {
        if self.must_escape(c) {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
}

/// `s`, a text from its line's start, with what would be a workflow
/// command escaped as `\xNN`, as a terminal shows any other unsafe
/// character.
pub fn workflow_inert(s: &str) -> String {
    let mut guard = WorkflowGuard::default();
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        guard.push(c, &mut out);
    }
    out
}

/// A writer of JSON that spells `[` after `##` as `\u005b`: the same value
/// to a JSON reader, no legacy command to a runner printing the document
/// (`--json` in a CI step). Outside strings JSON never has `#`, so only
/// text inside strings changes; a line never starts with `:` in JSON.
pub struct JsonInert<W: std::io::Write> {
    inner: W,
    hashes: u8,
}

impl<W: std::io::Write> JsonInert<W> {
    pub fn new(inner: W) -> Self {
        JsonInert { inner, hashes: 0 }
    }
}

impl<W: std::io::Write> std::io::Write for JsonInert<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Bytes, not characters: `#` and `[` are ASCII, never inside a
        // multi-byte character.
        let mut from = 0;
        for (i, &b) in buf.iter().enumerate() {
            if b == b'[' && self.hashes >= 2 {
                self.inner.write_all(&buf[from..i])?;
                self.inner.write_all(b"\\u005b")?;
                from = i + 1;
            }
            self.hashes = if b == b'#' {
                self.hashes.saturating_add(1).min(2)
            } else {
                0
            };
        }
        self.inner.write_all(&buf[from..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A JSON document as `JsonInert` writes it.
pub fn json_inert(json: &str) -> String {
    let mut out = Vec::with_capacity(json.len());
    std::io::Write::write_all(&mut JsonInert::new(&mut out), json.as_bytes()).expect("a Vec takes every write");
    String::from_utf8(out).expect("only ASCII was added")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_its_value_and_loses_its_commands() {
        let value = serde_json::json!({"key": "x##[add-mask]y ## [z", "list": [1]});
        let text = json_inert(&serde_json::to_string(&value).unwrap());
        assert!(!text.contains("##["), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }

    #[test]
    fn line_start_commands_and_legacy_commands_are_escaped() {
        assert_eq!(
            workflow_inert("a\n::warning file=x::y\n  \t::error::z"),
            "a\n\\x3a:warning file=x::y\n  \t\\x3a:error::z"
        );
        assert_eq!(
            workflow_inert("key ##[add-mask]s ###[x"),
            "key ##\\x5badd-mask]s ###\\x5bx"
        );
        // Mid-line `::` and a lone `#[` are text.
        assert_eq!(workflow_inert("torch::ops a#[b"), "torch::ops a#[b");
        // Unicode blanks are trimmed by the runner too.
        assert_eq!(workflow_inert("\u{3000}::x"), "\u{3000}\\x3a:x");
    }
}
