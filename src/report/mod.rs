//! Views of the model for people and machines.

pub mod check;
pub mod json;
pub mod terminal;
