//! The colours of the text views, in one place: the verdict (pass green,
//! fail red), severity (a problem red, an expected one-off dim), and the
//! cause categories (never-expected kinds yellow, expected-once kinds cyan,
//! as the summary splits them). Colour only repeats what the words say.

use crate::analysis::Severity;
use crate::reasons::Category;
use anstyle::{AnsiColor, Style};

pub fn pass() -> Style {
    AnsiColor::Green.on_default().bold()
}

pub fn fail() -> Style {
    AnsiColor::Red.on_default().bold()
}

/// A warning that does not fail the command.
pub fn warn() -> Style {
    AnsiColor::Yellow.on_default().bold()
}

pub fn severity(s: Severity) -> Style {
    match s {
        Severity::Problem => AnsiColor::Red.on_default().bold(),
        Severity::Expected => Style::new().dimmed(),
    }
}

pub fn category(c: Category) -> Style {
    if c.expected_once() {
        AnsiColor::Cyan.on_default()
    } else {
        AnsiColor::Yellow.on_default()
    }
}
