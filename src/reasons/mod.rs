//! Recompile reasons: splitting Dynamo's guard-failure text into its parts.
//! (Classification into categories builds on this.)

pub mod split;

pub use split::{split, GuardFailure, Location};
