//! A line of the user's code that called into compiled code.

use serde::Serialize;

/// A line of the user's code on the compile's stack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallSite {
    pub file: String,
    pub line: u32,
    pub function: Option<String>,
    pub code: Option<String>,
}

impl CallSite {
    pub fn short(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}
