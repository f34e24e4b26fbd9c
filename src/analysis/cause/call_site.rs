//! A line of the user's code that called into compiled code, and any
//! traced frame as the user reads it.

use crate::model::StackFrame;
use crate::reasons::paths::{library_name, owner, Owner};
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

    /// The user's frame, or None for a library's or torch's frame, or one
    /// that names no file or line.
    pub fn of_user(f: &StackFrame) -> Option<CallSite> {
        match TracedLine::of(f)? {
            TracedLine::User(site) => Some(site),
            _ => None,
        }
    }
}

/// Whose code a traced frame is: the user's line can be named and edited;
/// a library's or torch's is named only by whose it is, since the user
/// does not edit that code.
#[derive(Clone, Debug, PartialEq)]
pub enum TracedLine {
    User(CallSite),
    Library(String),
    Torch,
}

impl TracedLine {
    /// None when the frame names no file (or, for the user's, no line).
    pub fn of(f: &StackFrame) -> Option<TracedLine> {
        let file = f.file.as_deref()?;
        Some(match owner(file) {
            Owner::User => TracedLine::User(CallSite {
                file: file.to_string(),
                line: f.line?,
                function: f.function.as_deref().map(String::from),
                code: f.code.as_deref().map(String::from),
            }),
            Owner::Library => TracedLine::Library(library_name(file).unwrap_or_else(|| "a library".into())),
            Owner::Torch => TracedLine::Torch,
        })
    }

    /// `` `code` at file.py:29 `` for the user's line; "X's own code"
    /// otherwise.
    pub fn describe(&self) -> String {
        match self {
            TracedLine::User(site) => {
                let code = site
                    .code
                    .as_deref()
                    .map_or(String::new(), |c| format!("`{}` at ", c.trim()));
                let file = site.file.rsplit(['/', '\\']).next().unwrap_or(&site.file);
                format!("{code}{file}:{}", site.line)
            }
            TracedLine::Library(name) => format!("{name}'s own code"),
            TracedLine::Torch => "torch's own code".into(),
        }
    }

    /// The quoted source of the user's line, when it is the user's.
    pub fn user_code(&self) -> Option<&str> {
        match self {
            TracedLine::User(site) => site.code.as_deref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(file: &str, line: u32, code: &str) -> StackFrame {
        StackFrame {
            file: Some(file.into()),
            line: Some(line),
            function: Some("f".into()),
            code: Some(code.into()),
        }
    }

    #[test]
    fn the_users_line_is_named_and_a_librarys_only_by_whose_it_is() {
        let own = TracedLine::of(&frame("/home/me/train.py", 29, "  for v in probes:")).unwrap();
        assert_eq!(own.describe(), "`for v in probes:` at train.py:29");
        assert_eq!(own.user_code(), Some("  for v in probes:"));
        let lib = TracedLine::of(&frame(
            "/venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py",
            300,
            "x[:, i]",
        ))
        .unwrap();
        assert_eq!(lib.describe(), "transformers's own code");
        assert_eq!(lib.user_code(), None);
        assert_eq!(
            CallSite::of_user(&frame(
                "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py",
                1,
                ""
            )),
            None
        );
    }
}
