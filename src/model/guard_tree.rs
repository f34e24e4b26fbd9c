//! What the report keeps of a compile's guard tree: its first guards and
//! every guard a later recompile names as failed, each marked with the
//! recompiles it failed in. Trees of HF models run to thousands of lines
//! per compile, so the rest is only counted.

use crate::reasons::{FailedGuard, GuardFailure, TreeLine};
use serde::Serialize;

/// Guard lines kept per compile besides the failed ones.
pub const GUARD_LINES_KEPT: usize = 40;

#[derive(Clone, Debug, Default, Serialize)]
pub struct GuardTree {
    pub lines: Vec<GuardLine>,
    /// Guard lines the tree has in all (of those guardscope reads: guards
    /// and the managers of root locals).
    pub total: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct GuardLine {
    /// Position in the tree's guard lines (kept lines can skip some).
    pub index: usize,
    /// The line as logged, its tree drawing included.
    pub text: String,
    /// The recompiles (compile ids) in which this guard was the failed one.
    pub failed_in: Vec<String>,
}

impl GuardTree {
    /// Keeps `tree`'s first lines and those that `failures` (each with the
    /// compile id of the recompile that logged it) name.
    pub fn keep(tree: &str, failures: &[(&str, &GuardFailure)]) -> GuardTree {
        let mut out = GuardTree::default();
        let failures: Vec<(&str, FailedGuard)> = failures.iter().map(|(id, g)| (*id, FailedGuard::new(g))).collect();
        for (index, line) in tree.lines().enumerate() {
            out.total += 1;
            let parsed = TreeLine::new(line);
            let failed_in: Vec<String> = failures
                .iter()
                .filter(|(_, g)| g.names(&parsed))
                .map(|(id, _)| id.to_string())
                .collect();
            if index < GUARD_LINES_KEPT || !failed_in.is_empty() {
                out.lines.push(GuardLine {
                    index,
                    text: line.to_string(),
                    failed_in,
                });
            }
        }
        out
    }
}

/// Gives each compile of a frame its guard tree (`trees`: compile id ->
/// the tree's guard lines), marking the guards the frame's recompiles
/// report as failed.
pub(super) fn attach(compiles: &mut [super::Compile], trees: &std::collections::HashMap<String, String>) {
    let failures: Vec<(String, String, GuardFailure)> = compiles
        .iter()
        .flat_map(|c| {
            c.recompile_reasons
                .iter()
                .filter_map(|g| Some((g.entry.clone()?, c.compile_id.clone(), g.clone())))
        })
        .collect();
    for c in compiles.iter_mut() {
        let Some(tree) = trees.get(&c.compile_id) else {
            continue;
        };
        let named: Vec<(&str, &GuardFailure)> = failures
            .iter()
            .filter(|(entry, _, _)| *entry == c.compile_id)
            .map(|(_, id, g)| (id.as_str(), g))
            .collect();
        c.guard_tree = Some(Box::new(GuardTree::keep(tree, &named)));
    }
}
