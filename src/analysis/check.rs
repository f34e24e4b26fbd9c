//! The pre-merge gate: does this run recompile (more than a baseline run of
//! the same program)?

mod compiled;
mod keys;

pub use keys::{FrameKey, NewGraphBreak};

use super::unfinished::unfinished_compiles;
use super::{eager::EagerFrame, finding::Finding, findings::Findings, frame_ref::FrameRef, judge::Severity};
use crate::input::ProblemKind;
use crate::reasons::{Category, RecompileReason};
use crate::words::plural;
use serde::Serialize;

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Recompiles tolerated (after removing allowed categories); None: no
    /// budget on recompiles (a cause budget alone was given).
    pub max_recompiles: Option<usize>,
    /// Causes of the counted recompiles tolerated: one change that
    /// recompiled several frames at one call is one. None: no cause budget.
    pub max_recompile_causes: Option<usize>,
    pub allow: Vec<Category>,
    /// New frames (graph breaks) tolerated versus the baseline; None: warn only.
    pub max_new_frames: Option<usize>,
    /// Distinct graph breaks the baseline lacks tolerated (baseline mode).
    pub max_new_graph_breaks: usize,
    /// Frames that run eagerly (skipped, failed, over the recompile limit)
    /// tolerated; with a baseline, those the baseline does not also have.
    pub max_eager_frames: usize,
    /// The run was stopped on purpose: a compile the log never finishes
    /// does not fail the gate (`--allow-unfinished`).
    pub allow_unfinished: bool,
}

impl Default for CheckOptions {
    /// The default gate: no recompile at all.
    fn default() -> Self {
        CheckOptions {
            max_recompiles: Some(0),
            max_recompile_causes: None,
            allow: Vec::new(),
            max_new_frames: None,
            max_new_graph_breaks: 0,
            max_eager_frames: 0,
            allow_unfinished: false,
        }
    }
}

/// The two recompile budgets as a user gives them: none given is a budget
/// of 0 recompiles; a cause budget given alone budgets causes only (a
/// recompile budget of 0 beside it would fail first on every cause that
/// spans frames).
pub fn budgets(max_recompiles: Option<usize>, max_recompile_causes: Option<usize>) -> (Option<usize>, Option<usize>) {
    match (max_recompiles, max_recompile_causes) {
        (None, None) => (Some(0), None),
        both => both,
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Offense {
    pub compile_id: String,
    #[serde(flatten)]
    pub frame: FrameRef,
    #[serde(flatten)]
    pub cause: RecompileReason,
    pub duration_s: Option<f64>,
    /// "problem" or "expected" (every recompile counts unless --allow).
    pub severity: Severity,
    /// What in the log decided the severity.
    pub evidence: super::judge::evidence::Evidence,
    /// Who owns the value that changed (`summary --json`'s `owner`).
    pub owner: super::judge::ValueOwner,
    /// The failed cache entry that is the cause (`summary --json`'s `cause_entry`).
    pub cause_entry: Option<String>,
    /// Index into the candidate's `summary --json` `causes`: offenses with
    /// one group are one cause (one change that recompiled several frames).
    pub cause_group: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckVerdict {
    pub passed: bool,
    /// "threshold" without a baseline, "baseline" with one.
    pub mode: &'static str,
    /// The recompile budget (`--max-recompiles`); null: none.
    pub max_recompiles: Option<usize>,
    /// The cause budget (`--max-recompile-causes`); null: none.
    pub max_recompile_causes: Option<usize>,
    /// Recompiles that count against the limit (new ones, with a baseline).
    pub offending: Vec<Offense>,
    /// How many causes made them: one change that recompiled several
    /// frames at one call is one.
    pub offending_causes: usize,
    /// The budgets the gate failed on, by flag (`--max-recompiles`,
    /// `--max-recompile-causes`, `--max-eager-frames`,
    /// `--max-new-graph-breaks`, `--max-new-frames`), in the message's order.
    pub failed_budgets: Vec<&'static str>,
    /// Recompiles excused by `--allow`.
    pub allowed: Vec<Offense>,
    /// Frames only the candidate has (new graph breaks); baseline mode only.
    pub new_frames: Vec<FrameKey>,
    pub new_frames_failed: bool,
    /// Distinct graph breaks only the candidate has; baseline mode only.
    pub new_graph_breaks: Vec<NewGraphBreak>,
    pub new_graph_breaks_failed: bool,
    pub max_new_graph_breaks: usize,
    /// Frames that run eagerly (with a baseline: that the baseline compiled).
    pub eager_frames: Vec<EagerFrame>,
    pub eager_frames_failed: bool,
    pub max_eager_frames: usize,
    /// Input of either run that could not be read (`file:line: why`): the
    /// gate cannot vouch for what it did not see, so any makes it fail.
    pub unread_inputs: Vec<String>,
    /// Compiles of either run that never finished (`file:line: why`): the
    /// log is not the whole run, so each is also an unread input unless
    /// `--allow-unfinished` says the run was stopped on purpose.
    pub unfinished_compiles: Vec<String>,
    pub unfinished_allowed: bool,
    /// Counted recompiles whose guard text guardscope does not read: no
    /// budget excuses them (fail closed), only `--allow other` or a
    /// baseline with the same text.
    pub unrecognised: usize,
    /// The one-line verdict.
    pub message: String,
}

fn offense(r: &Finding<'_>, cause_group: usize) -> Offense {
    Offense {
        compile_id: r.compile.compile_id.clone(),
        frame: FrameRef::of(r.frame),
        cause: r.cause.clone(),
        duration_s: r.compile.duration_s,
        severity: r.severity,
        evidence: r.judgement.evidence.clone(),
        owner: r.judgement.ownership.owner,
        cause_entry: r.guard().and_then(|g| g.entry.clone()),
        cause_group,
    }
}

pub fn check(candidate: &Findings<'_>, baseline: Option<&Findings<'_>>, opts: &CheckOptions) -> CheckVerdict {
    let all: Vec<(FrameKey, Offense)> = candidate
        .recompiles
        .iter()
        .zip(&candidate.cause_of)
        .map(|(r, &g)| (FrameKey::of(r.frame), offense(r, g)))
        .collect();
    let (allowed, counted): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|(_, o)| opts.allow.contains(&o.cause.category));
    let allowed: Vec<Offense> = allowed.into_iter().map(|(_, o)| o).collect();
    let (mode, offending, new_frames) = match baseline {
        None => (
            "threshold",
            counted.into_iter().map(|(_, o)| o).collect::<Vec<_>>(),
            Vec::new(),
        ),
        Some(base) => {
            // The baseline's recompiles, as (frame, category, culprit), each
            // excusing one identical recompile of the candidate.
            let mut known: Vec<(FrameKey, Category, &str)> = base
                .recompiles
                .iter()
                .map(|r| (FrameKey::of(r.frame), r.cause.category, r.cause.culprit.as_str()))
                .collect();
            let mut new = Vec::new();
            for (key, o) in counted {
                match known
                    .iter()
                    .position(|k| k.0 == key && k.1 == o.cause.category && k.2 == o.cause.culprit)
                {
                    Some(i) => {
                        known.swap_remove(i);
                    }
                    None => new.push(o),
                }
            }
            let base_frames: Vec<FrameKey> = base.run.frames.iter().map(FrameKey::of).collect();
            let mut frames: Vec<FrameKey> = candidate
                .run
                .frames
                .iter()
                .map(FrameKey::of)
                .filter(|k| !base_frames.contains(k))
                .collect();
            frames.sort();
            frames.dedup();
            ("baseline", new, frames)
        }
    };
    // Problems lead; expected one-offs still count unless --allow excuses them.
    let mut offending = offending;
    offending.sort_by_key(|o| o.severity);
    let offending_causes = {
        let mut groups: Vec<usize> = offending.iter().map(|o| o.cause_group).collect();
        groups.sort_unstable();
        groups.dedup();
        groups.len()
    };
    let too_many = opts.max_recompiles.is_some_and(|m| offending.len() > m);
    let too_many_causes = opts.max_recompile_causes.is_some_and(|m| offending_causes > m);
    let new_frames_failed = opts.max_new_frames.is_some_and(|n| new_frames.len() > n);
    let new_graph_breaks = baseline.map(|b| compiled::new_breaks(candidate, b)).unwrap_or_default();
    let new_graph_breaks_failed = new_graph_breaks.len() > opts.max_new_graph_breaks;
    let eager_frames = compiled::eager_frames(candidate, baseline);
    let eager_frames_failed = eager_frames.len() > opts.max_eager_frames;
    let mut unread_inputs = candidate.run.problems.unread();
    let mut unread_count = candidate.run.problems.count_of(ProblemKind::Io);
    if let Some(base) = baseline {
        unread_inputs.extend(base.run.problems.unread());
        unread_count += base.run.problems.count_of(ProblemKind::Io);
    }
    let mut unfinished = unfinished_compiles(candidate.run);
    unfinished.extend(baseline.map(|b| unfinished_compiles(b.run)).unwrap_or_default());
    let only_unfinished = unread_inputs.is_empty() && !opts.allow_unfinished;
    if !opts.allow_unfinished {
        unread_inputs.extend(unfinished.iter().cloned());
    }
    let unrecognised = offending.iter().filter(|o| !o.cause.recognised()).count();
    let passed = !too_many
        && !too_many_causes
        && !new_frames_failed
        && !new_graph_breaks_failed
        && !eager_frames_failed
        && unread_inputs.is_empty()
        && unrecognised == 0;
    let (one, many) = if mode == "baseline" {
        ("new recompile", "new recompiles")
    } else {
        ("recompile", "recompiles")
    };
    let n = offending.len();
    let unread = if unread_inputs.is_empty() {
        String::new()
    } else if only_unfinished {
        format!(
            "input not fully read ({} unfinished: the log ends mid-compile); in what was read, ",
            plural(unfinished.len(), "compile", "compiles")
        )
    } else {
        format!(
            "input not fully read ({unread_count} read error{}); in what was read, ",
            if unread_count == 1 { "" } else { "s" }
        )
    };
    // Each budget says what it allows; with no recompile budget the count
    // is still said (a cause budget counts causes of these recompiles).
    let recompiles = format!(
        "{}{}{}{}",
        plural(n, one, many),
        if offending_causes < n {
            format!(" from {}", plural(offending_causes, "cause", "causes"))
        } else {
            String::new()
        },
        opts.max_recompiles
            .map_or(String::new(), |m| format!(" (allowed: {m})")),
        if allowed.is_empty() {
            String::new()
        } else {
            format!(", {} excused by --allow", allowed.len())
        },
    );
    // What failed the gate leads, so a heading or a one-line summary built
    // from the message names the real reason.
    let mut failing = Vec::new();
    let mut failed_budgets = Vec::new();
    let mut rest = Vec::new();
    if too_many {
        failed_budgets.push("--max-recompiles");
        failing.push(recompiles);
    } else {
        rest.push(recompiles);
    }
    if let Some(m) = opts.max_recompile_causes {
        let part = format!(
            "{} (allowed: {})",
            plural(offending_causes, "cause of recompiles", "causes of recompiles"),
            plural(m, "cause", "causes")
        );
        if too_many_causes {
            failed_budgets.push("--max-recompile-causes");
            failing.push(part);
        } else {
            rest.push(part);
        }
    }
    if unrecognised > 0 {
        failing.push(format!(
            "{} not recognised (no budget excuses a guard text guardscope cannot read)",
            plural(unrecognised, "recompile", "recompiles")
        ));
    }
    if !eager_frames.is_empty() {
        let what = if mode == "baseline" {
            "that the baseline compiled "
        } else {
            ""
        };
        let mut names: Vec<&str> = Vec::new();
        for e in &eager_frames {
            if !names.contains(&e.frame.name.as_str()) {
                names.push(&e.frame.name);
            }
        }
        let part = format!(
            "{} {what}(allowed: {}): {}",
            plural(eager_frames.len(), "frame runs eagerly", "frames run eagerly"),
            opts.max_eager_frames,
            names.join(", ")
        );
        if eager_frames_failed {
            failed_budgets.push("--max-eager-frames");
        }
        if eager_frames_failed { &mut failing } else { &mut rest }.push(part);
    }
    if !new_graph_breaks.is_empty() {
        let part = format!(
            "{} versus the baseline (allowed: {})",
            plural(new_graph_breaks.len(), "new graph break", "new graph breaks"),
            opts.max_new_graph_breaks
        );
        if new_graph_breaks_failed {
            failed_budgets.push("--max-new-graph-breaks");
            &mut failing
        } else {
            &mut rest
        }
        .push(part);
    }
    if !new_frames.is_empty() {
        let limit = opts
            .max_new_frames
            .map_or("warning only".to_string(), |m| format!("allowed: {m}"));
        let part = format!("{} new frame(s) versus the baseline ({limit})", new_frames.len());
        if new_frames_failed {
            failed_budgets.push("--max-new-frames");
        }
        if new_frames_failed { &mut failing } else { &mut rest }.push(part);
    }
    failing.extend(rest);
    if opts.allow_unfinished && !unfinished.is_empty() {
        failing.push(format!(
            "{} unfinished, not judged (--allow-unfinished: the run was stopped on purpose)",
            plural(unfinished.len(), "compile", "compiles")
        ));
    }
    let message = format!(
        "{}: {unread}{}",
        if passed { "PASS" } else { "FAIL" },
        failing.join("; ")
    );
    CheckVerdict {
        passed,
        mode,
        max_recompiles: opts.max_recompiles,
        max_recompile_causes: opts.max_recompile_causes,
        offending_causes,
        failed_budgets,
        offending,
        allowed,
        new_frames,
        new_frames_failed,
        new_graph_breaks,
        new_graph_breaks_failed,
        max_new_graph_breaks: opts.max_new_graph_breaks,
        eager_frames,
        eager_frames_failed,
        max_eager_frames: opts.max_eager_frames,
        unread_inputs,
        unfinished_compiles: unfinished,
        unfinished_allowed: opts.allow_unfinished,
        unrecognised,
        message,
    }
}
