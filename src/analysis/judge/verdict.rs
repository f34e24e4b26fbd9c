//! The verdict: expected or a problem, from the evidence (never from the
//! category alone). Most recompiles in a real run happen once and are
//! expected; the ones worth a user's time repeat, fill the cache, break a
//! declared range or come from state the code changes while it runs.

use serde::Serialize;

/// Declared problems first, so sorting puts them first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// It repeats, hits the recompile limit, breaks a declared range, or
    /// comes from state the user's code changes while running.
    Problem,
    /// A one-off: made dynamic afterwards, one of a few variants each
    /// compiled once, or set once on the first call.
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
