//! Expected or a problem: most recompiles in a real run happen once and
//! are expected (the first decode step, train -> eval, optimizer state
//! creation); the ones worth a user's time repeat or fill the cache.

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

/// The severity of each recompile of one frame, from its cause (category,
/// culprit). A cause is a problem when it is the recompile limit, when its
/// kind is not one that is expected once, or when the same culprit
/// recompiled the frame more than once.
pub fn severities(causes: &[(Category, &str)]) -> Vec<Severity> {
    let mut repeats: HashMap<&(Category, &str), usize> = HashMap::new();
    for cause in causes {
        *repeats.entry(cause).or_default() += 1;
    }
    causes
        .iter()
        .map(|cause| {
            let once = repeats.get(cause).copied().unwrap_or(0) <= 1;
            if cause.0.expected_once() && once {
                Severity::Expected
            } else {
                Severity::Problem
            }
        })
        .collect()
}
