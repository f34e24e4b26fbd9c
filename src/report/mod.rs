//! Views of the model for people and machines.

pub mod check;
pub mod compile_record;
pub mod diff;
pub mod emit;
pub mod events;
pub mod format;
pub mod html;
pub mod json;
pub mod output_dir;
pub mod paths;
pub mod steps;
pub mod terminal;
pub mod text;
