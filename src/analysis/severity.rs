//! Expected or a problem: most recompiles in a real run happen once and
//! are expected (the first decode step, train -> eval, optimizer state
//! creation); the ones worth a user's time repeat or fill the cache.

use super::cause::cause_or_unknown;
use crate::model::Frame;
use crate::reasons::Category;
use serde::Serialize;
use std::collections::HashMap;

/// Declared problems first, so sorting puts them first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// It repeats, hits the recompile limit, or its kind is never expected.
    Problem,
    /// A one-off of a kind that happens once in a healthy run.
    Expected,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Problem => "problem",
            Severity::Expected => "expected",
        }
    }
}

/// The severity of each compile of a frame, by index (None for a frame's
/// first compile). A cause is a problem when the recompile limit refused
/// the compile, when its kind is not one that is expected once, or when
/// the same culprit recompiled the frame more than once.
pub fn frame_severities(frame: &Frame) -> Vec<Option<Severity>> {
    let causes: Vec<Option<(Category, String)>> = frame
        .compiles
        .iter()
        .map(|c| {
            c.frame_compile_id.is_some_and(|n| n > 0).then(|| {
                let r = cause_or_unknown(frame, c);
                (r.category, r.culprit)
            })
        })
        .collect();
    let mut repeats: HashMap<&(Category, String), usize> = HashMap::new();
    for cause in causes.iter().flatten() {
        *repeats.entry(cause).or_default() += 1;
    }
    causes
        .iter()
        .map(|cause| {
            let cause = cause.as_ref()?;
            let (category, _) = cause;
            let once = repeats.get(cause).copied().unwrap_or(0) <= 1;
            Some(if category.expected_once() && once {
                Severity::Expected
            } else {
                Severity::Problem
            })
        })
        .collect()
}
