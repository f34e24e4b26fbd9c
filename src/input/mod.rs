//! Finding trace logs: files, `.gz` files, and (nested) TORCH_TRACE
//! directories holding one log per process or rank (`discover`), each named
//! with its rank and year (`log_source`); opening them (`readers`, a line at
//! a time: `lines`); and what is wrong with an input (`problems`), which
//! every reader (TORCH_TRACE, step records, activation traces) counts the
//! same way.

use std::path::Path;

mod discover;
pub mod follow;
mod jsonl;
mod lines;
mod log_source;
mod mapped;
mod prefetch;
pub mod problems;
mod readers;
pub mod rehearsal;
mod sigbus;
pub mod sniff;

pub use discover::{discover, Discovery, InputError, SkipReason, Skipped};
pub use jsonl::JsonlLines;
pub use lines::read_capped_line;
pub use log_source::{is_trace_log_name, rank_from_name, source, LogSource, TRACE_LOG_PREFIX};
pub use mapped::{use_memory_maps, MappedLog};
pub use problems::{Problem, ProblemKind, Problems};
pub use readers::{open, open_counted, read_to_string};
pub use sniff::Content;

/// The path that names stdin, as in most Unix tools; a file named `-` is `./-`.
pub const STDIN: &str = "-";

pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}
