//! Recompile reasons: splitting Dynamo's guard-failure text into its parts,
//! and classifying it (category, culprit, source, detail, advice).

pub mod classify;
pub mod culprit;
pub mod rules;
pub mod split;

pub use classify::{classify, Category, RecompileReason};
pub use split::{split, GuardFailure, Location};
