//! Views of the model for people and machines.

pub mod json;
pub mod terminal;
