//! Activation traces: the Rust half of `guardscope.trace_activations`.
//!
//! The Python hooks hand each module output tensor to a [`Tracer`], which
//! holds the run-time state (step, enabled, recorded steps), computes the
//! statistics in one pass ([`stats`]), formats the JSON line ([`record`];
//! the [`format`] itself is shared with the reader, `activation_diff`) and
//! appends it to a buffered, shared file ([`sink`]). Nothing here knows about
//! Python; `src/python/` wraps it.

pub mod fork;
pub mod format;
pub mod kernel;
pub mod record;
pub mod reduced;
pub mod sink;
pub mod stats;
pub mod tracer;

pub use sink::SinkFailed;
pub use stats::{Stat, StatSet, Summary, Value};
pub use tracer::{RecordError, TensorInfo, Tracer};
