//! guardscope: explains torch.compile recompilations from TORCH_TRACE logs.
//!
//! Data flows one way: `input` (files, gzip, ranks) -> `trace` (events) ->
//! `model` (the compile timeline) -> `analysis` -> `report` (terminal, JSON).
//! `activations` is the Rust half of the Python activation-trace hooks;
//! `activation_diff` reads such traces back and compares two of them.

pub mod activation_diff;
pub mod activations;
pub mod analysis;
pub mod cli;
pub mod input;
pub mod load;
pub mod model;
pub mod reasons;
pub mod records;
pub mod report;
pub mod shared;
pub mod trace;
pub mod words;

#[cfg(feature = "python")]
mod python;
