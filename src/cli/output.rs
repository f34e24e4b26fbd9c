//! Where a command's output goes: stdout, at the terminal's width, in
//! colour when `--color` and the terminal allow it.

use super::error::{written, CliError};
use crate::report::emit::{emit, Format, View};
use clap::ColorChoice;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU8, Ordering};

/// The global `--color` of the command being run, set once by `dispatch`
/// before the command starts, so no command passes it around.
static COLOR: AtomicU8 = AtomicU8::new(0);

pub fn set_color(choice: ColorChoice) {
    let code = match choice {
        ColorChoice::Auto => 0,
        ColorChoice::Always => 1,
        ColorChoice::Never => 2,
    };
    COLOR.store(code, Ordering::Relaxed);
}

/// Whether stdout gets colour: `always`, `never`, or (auto) when stdout is
/// a terminal and neither NO_COLOR (non-empty, no-color.org) nor TERM=dumb
/// says otherwise; CLICOLOR_FORCE forces it (anstream's rules).
fn colour() -> bool {
    match COLOR.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => !matches!(
            anstream::AutoStream::choice(&io::stdout()),
            anstream::ColorChoice::Never
        ),
    }
}

/// Prints `view` on stdout, as JSON or as text for this terminal.
pub fn print(view: &impl View, json: bool) -> Result<(), CliError> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    written(emit(view, Format::new(json, terminal_width(), colour()), &mut out))
}

fn terminal_width() -> usize {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40);
    columns.unwrap_or_else(|| {
        if !io::stdout().is_terminal() {
            // A pipe or a file: no screen to fit, and lines an editor shows whole.
            return 160;
        }
        // Below 40 columns every line wraps anyway; the layout's floors assume 40.
        terminal_size::terminal_size_of(io::stdout()).map_or(120, |(w, _)| usize::from(w.0).max(40))
    })
}

/// Prints text that is not a view of a run (a completion script, a manual
/// page): as it is, never reflowed or escaped.
pub fn print_verbatim(bytes: &[u8]) -> Result<(), CliError> {
    written(io::stdout().lock().write_all(bytes))
}
