//! Where a command's output goes: stdout, at the terminal's width, in
//! colour when `--color` and the terminal allow it.

use super::error::{written, CliError};
use crate::report::emit::{emit, Format, View};
use clap::ColorChoice;
use std::io::{self, IsTerminal, Write};

/// How this invocation prints: `--json`, NDJSON records or text, and the
/// `--color` choice. Made once by `dispatch` and handed to the command, so
/// two runs in one process (the Python console script, from threads) never
/// share it.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub json: bool,
    /// `--format ndjson`: the view's rows, one JSON object a line.
    records: bool,
    color: ColorChoice,
}

impl Output {
    pub fn new(json: bool, records: bool, color: ColorChoice) -> Self {
        Output { json, records, color }
    }

    /// The same, as text (e.g. `report`'s summary beside its page).
    pub fn text(self) -> Self {
        Output {
            json: false,
            records: false,
            ..self
        }
    }

    /// Prints `view` on stdout, as JSON, NDJSON records or text for this terminal.
    pub fn print(&self, view: &impl View) -> Result<(), CliError> {
        let stdout = io::stdout();
        if self.records {
            // Block-buffered: stdout flushes at each newline, a write per record.
            let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
            return written(emit(view, Format::Records, &mut out).and_then(|()| out.flush()));
        }
        let mut out = stdout.lock();
        let format = Format::new(self.json, terminal_width(), self.colour());
        written(emit(view, format, &mut out))
    }

    /// Prints `view` as one event of a stream: one NDJSON line with
    /// `--json`, else its text (one line); flushed at once, as events are
    /// read while they happen. The error as it is: a closed pipe ends a
    /// stream of events, where `print`'s one document ignores it.
    pub fn print_event(&self, view: &impl View) -> io::Result<()> {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let format = match Format::new(self.json, terminal_width(), self.colour()) {
            Format::Json => Format::JsonLine,
            text => text,
        };
        emit(view, format, &mut out).and_then(|()| out.flush())
    }

    /// Whether stdout gets colour: `always`, `never`, or (auto) when stdout
    /// is a terminal and neither NO_COLOR (non-empty, no-color.org) nor
    /// TERM=dumb says otherwise; CLICOLOR_FORCE forces it (anstream's rules).
    fn colour(&self) -> bool {
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !matches!(
                anstream::AutoStream::choice(&io::stdout()),
                anstream::ColorChoice::Never
            ),
        }
    }
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
