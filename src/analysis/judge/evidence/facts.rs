//! What the evidence stage reads of one recompile: its own file, so that
//! the stage and its parts (`variants`) both read it and none reaches back.

use crate::analysis::judge::owner::Ownership;
use crate::model::Compile;
use crate::reasons::{Category, GuardFailure};

/// What is known of one recompile before its frame's others are weighed.
pub struct Facts<'a> {
    pub category: Category,
    /// A row of the table read the cause's guard text.
    pub recognised: bool,
    /// The id of the row that read it (`value.symbolic_relation`).
    pub form: &'static str,
    pub culprit: &'a str,
    pub ownership: &'a Ownership,
    pub compile: &'a Compile,
    /// The cause entry's failure (None when the log holds no reason).
    pub guard: Option<&'a GuardFailure>,
    /// The frame's recompiles with the same cause, this one included, that
    /// are not bounded variants, in compile order (their compile ids).
    pub same_cause: Vec<&'a str>,
    /// How many values the cause's value took at those recompiles: fewer
    /// than the recompiles where a value returned with another setting (a
    /// grid of settings, each combination compiled once).
    pub values_taken: usize,
    /// The dims the cause entry's compile was given a declared range for.
    pub declared: &'a [(String, String)],
    /// For a compile the log gives no guard failure for: the frame's
    /// previous compile, when it failed (no entry was cached, so this call
    /// compiled the frame again).
    pub retry_of: Option<&'a Compile>,
    /// For a compile the log gives no guard failure for although the
    /// frame's earlier compiles succeeded (a structured log, which logs
    /// every failure): the call did not check those entries.
    pub other_region: bool,
    /// A later compile of the frame with the same cause was refused at the
    /// recompile limit: this one helped fill the cache (its compile id).
    pub filled_limit: Option<&'a str>,
}
