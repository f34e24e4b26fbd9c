//! TORCH_TRACE parsing: glog line -> envelope -> typed event.

mod body;
pub mod chunks;
pub mod envelope;
pub mod event;
pub mod glog;
pub mod graph_reads;
mod json_scan;
pub mod kinds;
pub mod lines;
pub mod parser;
mod payload;
pub mod stats;
pub mod text;

pub use envelope::CompileRef;
pub use event::{Event, EventData};
pub use parser::{ParseOptions, Parser};
#[cfg(feature = "python")]
pub(crate) use payload::is_kept_guard_line;
pub use stats::{ParseStats, TextStats};
pub use text::TextParser;
