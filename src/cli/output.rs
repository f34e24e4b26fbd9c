//! Where a command's output goes: stdout, at the terminal's width.

use std::io::{self, IsTerminal};

pub fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(if io::stdout().is_terminal() { 120 } else { 160 })
}
