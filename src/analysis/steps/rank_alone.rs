//! Step records alone (no TORCH_TRACE to join): each StepLogger judged its
//! recompiles from its own rank's log, so a recompile one rank made while
//! the others did not reads as whatever its cause is. Every rank's records
//! together show what `summary` shows from every rank's log: that rank
//! stalled the others at the next collective, a problem whatever the cause
//! (`analysis::ranks::rank_alone`, the words both give).

use crate::analysis::ranks::rank_alone;
use crate::model::Step;
use std::collections::HashMap;

/// Marks the recompiles of `steps` no other rank recorded for the same
/// frame and category, made in a step (attempt, number) in which some
/// ranks recompiled and others did not (`lone`: each such step's key).
pub(super) fn judge(steps: &mut [Step], attempt_of: &[usize], lone: &[(usize, u64)]) {
    // (frame name, category) -> the ranks that recorded such a recompile.
    let mut ranks_of: HashMap<(String, String), Vec<Option<u32>>> = HashMap::new();
    for s in steps.iter() {
        for c in s.compiles.iter().filter(|c| c.is_recompile()) {
            let Some(cause) = &c.cause else { continue };
            let key = (c.name.clone().unwrap_or_default(), cause.category.clone());
            let ranks = ranks_of.entry(key).or_default();
            if !ranks.contains(&s.rank) {
                ranks.push(s.rank);
            }
        }
    }
    for (s, attempt) in steps.iter_mut().zip(attempt_of) {
        let Some(rank) = s.rank.filter(|_| lone.contains(&(*attempt, s.step))) else {
            continue;
        };
        for c in s.compiles.iter_mut().filter(|c| c.is_recompile()) {
            let name = c.name.clone().unwrap_or_default();
            let Some(cause) = c.cause.as_mut() else { continue };
            let alone = ranks_of
                .get(&(name, cause.category.clone()))
                .is_some_and(|r| r.as_slice() == [Some(rank)]);
            if alone && cause.severity.as_deref() != Some("problem") {
                let (advice, evidence) = rank_alone(rank, cause.advice.as_deref().unwrap_or(""));
                cause.severity = Some("problem".to_string());
                cause.evidence = Some(evidence.kind.name().to_string());
                cause.advice = Some(advice);
            }
        }
    }
}
