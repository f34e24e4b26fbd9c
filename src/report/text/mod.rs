//! The views as text for a terminal: the summary, the check verdict, the
//! activation diff and the steps post-mortem, written through a terminal
//! that cannot be hijacked by what a log contains.
//!
//! Function names, guard texts, file names and step records come from
//! logs anyone may have written (or mutated). Printed raw, `ESC]0;...BEL`
//! sets the window title, `ESC[2J` clears the screen, and `CR` or
//! `ESC[1A` can overwrite the `check` verdict line; bidi overrides make
//! text read other than it is. Every terminal renderer writes through
//! `SafeWriter` (the CLI wraps stdout once), so no write site can forget:
//! control characters other than newline and tab, C1 controls and bidi
//! controls are shown escaped (`\x1b`, `\u{202e}`), and so is what a CI
//! runner would read as a workflow command (a `:` opening a line, `[`
//! after `##`: workflow.rs). The renderers themselves never emit such
//! characters. JSON output needs none of this
//! (JSON escapes control characters itself) and is written unwrapped.
//!
//! Colour is the one exception, and it never passes through the text: a
//! renderer asks `Terminal::styled` to put the codes of a typed
//! `anstyle::Style` (style.rs) around its own words, which still go through
//! `SafeWriter`; no byte of a log can become a colour code.

mod breaks;
mod causes;
pub mod check;
pub mod diff;
mod eager;
pub mod fit;
mod frames;
mod recompiles;
pub mod steps;
pub mod style;
pub mod summary;
pub mod workflow;

use std::borrow::Cow;
use std::io::{self, Write};
pub use workflow::{workflow_inert, WorkflowGuard};

/// How the summary and its sections (frames, graph breaks) are laid out.
pub struct TerminalOptions {
    /// Columns to fit lines into.
    pub width: usize,
    /// List every kept parse diagnostic instead of a one-line count.
    pub verbose: bool,
}

/// Whether `c` must not reach a terminal as is.
pub fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        // C0 controls (ESC, CR, BEL, backspace, ...), DEL, C1 controls.
        c if c.is_control() => true,
        // Bidi embeddings, overrides and isolates, and the marks.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}' => true,
        _ => false,
    }
}

/// `s` with every unsafe character escaped; borrowed when there is none.
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !is_unsafe(c) {
            out.push(c);
        } else if (c as u32) < 0x100 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:04x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// A writer that escapes unsafe characters in everything written through
/// it. Writes may split a UTF-8 character; its first bytes wait for the
/// rest. Invalid UTF-8 (never produced by the renderers) is shown as U+FFFD.
pub struct SafeWriter<W: Write> {
    inner: W,
    /// The start of a character cut by the end of the previous write.
    pending: Vec<u8>,
    /// Where the text stands for a CI runner's workflow commands: the job
    /// log a gate prints into reads them (workflow.rs).
    guard: WorkflowGuard,
}

impl<W: Write> SafeWriter<W> {
    pub fn new(inner: W) -> Self {
        SafeWriter {
            inner,
            pending: Vec::new(),
            guard: WorkflowGuard::default(),
        }
    }
}

impl<W: Write> SafeWriter<W> {
    /// Writes the codes of `style` (or its reset) unescaped: the only way
    /// past the escaping, and it takes a typed style, never text.
    fn style_codes(&mut self, codes: impl std::fmt::Display) -> io::Result<()> {
        // A character cut by the last write cannot be completed by codes.
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.inner.write_all(String::from_utf8_lossy(&rest).as_bytes())?;
        }
        write!(self.inner, "{codes}")
    }
}

/// Where a text view writes: through `SafeWriter`, with colour when the
/// command's `--color` and the terminal allow it.
pub struct Terminal<'w> {
    safe: SafeWriter<&'w mut dyn Write>,
    colour: bool,
}

impl<'w> Terminal<'w> {
    pub fn new(out: &'w mut dyn Write, colour: bool) -> Self {
        Terminal {
            safe: SafeWriter::new(out),
            colour,
        }
    }

    /// Without colour, e.g. for tests and files.
    pub fn plain(out: &'w mut dyn Write) -> Self {
        Terminal::new(out, false)
    }

    /// Writes `text` (made inert like any other) in `style`.
    pub fn styled(&mut self, style: anstyle::Style, text: &str) -> io::Result<()> {
        if !self.colour {
            return self.safe.write_all(text.as_bytes());
        }
        self.safe.style_codes(style.render())?;
        self.safe.write_all(text.as_bytes())?;
        self.safe.style_codes(style.render_reset())
    }
}

impl Write for Terminal<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.safe.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.safe.flush()
    }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let bytes = std::mem::take(&mut self.pending);
        let (text, rest) = match std::str::from_utf8(&bytes) {
            Ok(text) => (Cow::Borrowed(text), &[][..]),
            // Incomplete character at the end: keep it for the next write.
            Err(e) if e.error_len().is_none() => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                (Cow::Borrowed(std::str::from_utf8(valid).expect("valid prefix")), rest)
            }
            Err(_) => (String::from_utf8_lossy(&bytes), &[][..]),
        };
        let safe = terminal_safe(&text);
        let mut inert = String::with_capacity(safe.len());
        for c in safe.chars() {
            self.guard.push(c, &mut inert);
        }
        self.inner.write_all(inert.as_bytes())?;
        self.pending = rest.to_vec();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.inner.write_all(String::from_utf8_lossy(&rest).as_bytes())?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for SafeWriter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped_and_plain_text_is_borrowed() {
        assert!(matches!(terminal_safe("forward (a.py:3)\n\tok"), Cow::Borrowed(_)));
        assert_eq!(
            terminal_safe("f\u{1b}]0;pwned\u{7}\r\u{1b}[2J\u{9b}x\u{202e}y\u{7f}"),
            "f\\x1b]0;pwned\\x07\\x0d\\x1b[2J\\x9bx\\u{202e}y\\x7f"
        );
    }

    #[test]
    fn a_character_split_across_writes_is_kept_whole() {
        let mut out = Vec::new();
        {
            let mut w = SafeWriter::new(&mut out);
            let text = "é\u{202e}\u{1b}";
            let bytes = text.as_bytes();
            for b in bytes {
                w.write_all(std::slice::from_ref(b)).unwrap();
            }
        }
        assert_eq!(String::from_utf8(out).unwrap(), "é\\u{202e}\\x1b");
    }

    #[test]
    fn styled_text_is_escaped_inside_the_codes_and_plain_without_colour() {
        let style = anstyle::AnsiColor::Red.on_default().bold();
        let mut coloured = Vec::new();
        Terminal::new(&mut coloured, true).styled(style, "x\u{1b}[0m").unwrap();
        let expected = format!("{}x\\x1b[0m{}", style.render(), style.render_reset());
        assert_eq!(String::from_utf8(coloured).unwrap(), expected);
        let mut plain = Vec::new();
        Terminal::plain(&mut plain).styled(style, "x\u{1b}").unwrap();
        assert_eq!(String::from_utf8(plain).unwrap(), "x\\x1b");
    }
}
