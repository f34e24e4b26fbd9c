//! Where a command's output goes: stdout, at the terminal's width.

use super::error::{written, CliError};
use crate::report::emit::{emit, Format, View};
use std::io::{self, IsTerminal};

/// Prints `view` on stdout, as JSON or as text for this terminal.
pub fn print(view: &impl View, json: bool) -> Result<(), CliError> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    written(emit(view, Format::new(json, terminal_width()), &mut out))
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(if io::stdout().is_terminal() { 120 } else { 160 })
}
