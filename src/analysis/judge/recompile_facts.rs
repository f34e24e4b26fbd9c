//! The facts of one recompile as the evidence stage reads them, taken off
//! its finding: a file of its own, so that the evidence stage never reads a
//! finding (a finding holds the judgement the stage produces).

use super::evidence::Facts;
use super::owner::Ownership;
use crate::analysis::finding::Finding;

/// The facts of one recompile, with the frame's recompiles of its cause
/// (`same_cause`) as its judge counted them.
pub(super) fn facts<'a>(
    f: &'a Finding<'_>,
    ownership: &'a Ownership,
    same_cause: Vec<&'a str>,
    values_taken: usize,
) -> Facts<'a> {
    let inner = f.cause_index.map(|i| &f.reasons[i]);
    // The compile of the cause entry (`F/M` of its reason).
    let entry = f
        .guard()
        .and_then(|g| g.entry.as_deref())
        .and_then(|entry| f.frame.compiles.iter().find(|c| c.compile_id == entry));
    Facts {
        category: f.cause_category(),
        recognised: inner.map_or(f.cause.recognised(), |r| r.recognised()),
        form: inner.map_or(f.cause.form, |r| r.form),
        culprit: &f.cause.culprit,
        ownership,
        compile: f.compile,
        guard: f.guard(),
        same_cause,
        values_taken,
        declared: entry.map_or(&[][..], |c| c.declared_ranges.as_slice()),
        retry_of: f
            .guard()
            .is_none()
            .then(|| {
                f.frame
                    .compiles
                    .iter()
                    .rfind(|c| c.frame_compile_id < f.compile.frame_compile_id)
            })
            .flatten()
            .filter(|c| c.failed && c.finished),
        other_region: other_region(f),
        filled_limit: None,
    }
}

/// No guard failed, in a structured log (it logs every failure), although
/// the frame's previous compile succeeded: this call did not check the
/// frame's entries (another compiled region of the same function).
pub(super) fn other_region(f: &Finding<'_>) -> bool {
    f.guard().is_none()
        && !f.compile.cache_limit
        && f.compile.torch_minor.is_some()
        && f.frame
            .compiles
            .iter()
            .rfind(|c| c.frame_compile_id < f.compile.frame_compile_id)
            .is_some_and(|c| c.finished && !c.failed)
}
