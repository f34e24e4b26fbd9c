//! The Frames section: each compiled function once, with its compiles and
//! the reasons Dynamo logged for each recompile. In a distributed run the
//! ranks' copies of a frame are one section: the compiles of a copy that
//! did what most ranks did stand for those ranks, and each copy that
//! differs is listed after them, under its rank.

use super::breaks;
use super::format::shown;
use super::links::{Links, SourceLink};
use super::palette;
use super::timeline::{frame_anchor, frame_label};
use crate::analysis::Severity;
use crate::analysis::{Finding, Findings, FrameGroup};
use crate::model::{Compile, Frame};
use crate::report::format::{clip, plural, rank_list, secs, utc};
use serde::Serialize;

/// Frames shown in full; the rest are counted (all are in summary.json).
pub const MAX_FRAMES: usize = 100;
/// Differing ranks listed (with their compiles) in a frame's section.
const MAX_DIFFERING_SHOWN: usize = 8;

#[derive(Serialize)]
pub struct FrameSection {
    pub anchor: String,
    pub label: String,
    pub location: String,
    pub location_link: Option<SourceLink>,
    pub open: bool,
    pub headline: String,
    pub tone: &'static str,
    /// The ranks whose copy compiled otherwise than most ranks' (a frame
    /// compiled on several ranks is one section), one line each.
    pub differing: Vec<String>,
    pub more_differing: usize,
    pub compiles: Vec<CompileRow>,
    pub reasons: Vec<ReasonBlock>,
    pub graph_breaks: Vec<String>,
}

#[derive(Serialize)]
pub struct CompileRow {
    pub compile_id: String,
    /// Which ranks the row stands for, as read (`ranks 0-16, 18-63`, `r17`)
    /// and as the script matches a bar's rank (`0 1 2 …`); None for a frame
    /// of one process.
    pub ranks: Option<String>,
    pub data_ranks: Option<String>,
    pub kind: &'static str,
    pub color: &'static str,
    pub cause: Option<String>,
    pub started: String,
    pub started_utc: String,
    pub duration: String,
    pub breakdown: String,
    pub backward: String,
    pub guards: String,
    pub ops: String,
    pub attempts: usize,
    pub restarts: Vec<String>,
    pub status: String,
    pub status_tone: &'static str,
}

/// One recompile's reasons: the cause in full, the other failed entries
/// one line each (every entry's reason is repeated at each later recompile,
/// so showing them all in full grows with the square of the recompiles).
#[derive(Serialize)]
pub struct ReasonBlock {
    pub compile_id: String,
    pub ranks: Option<String>,
    pub cause: Option<ReasonLine>,
    pub others: Vec<ReasonLine>,
}

#[derive(Serialize)]
pub struct ReasonLine {
    pub entry: Option<String>,
    pub category: &'static str,
    pub color: &'static str,
    pub culprit: String,
    /// The whole text as logged (the cause only) or its guard, cut.
    pub text: String,
}

/// Frames that recompiled or failed come first and open; the rest follow
/// closed, longest compile first, up to `MAX_FRAMES`. A frame compiled on
/// several ranks is one section.
pub fn frame_sections(
    findings: &Findings<'_>,
    origin: Option<f64>,
    links: Links,
) -> (Vec<FrameSection>, Option<String>) {
    let multi_rank = findings.run.has_several_ranks();
    let notable = |g: &FrameGroup<'_>| {
        g.copies
            .iter()
            .any(|f| f.compiles.len() > 1 || f.compiles.iter().any(|c| c.failed || !c.finished))
    };
    let mut order: Vec<&FrameGroup<'_>> = findings.frames.iter().collect();
    order.sort_by(|a, b| {
        notable(b)
            .cmp(&notable(a))
            .then(b.slowest_seconds().total_cmp(&a.slowest_seconds()))
    });
    let open_budget = 12;
    let sections: Vec<FrameSection> = order
        .iter()
        .take(MAX_FRAMES)
        .enumerate()
        .map(|(i, g)| {
            let open = notable(g) && i < open_budget;
            frame_section(findings, g, multi_rank, origin, open, links)
        })
        .collect();
    let hidden = &order[order.len().min(MAX_FRAMES)..];
    let more = (!hidden.is_empty()).then(|| {
        let seconds: f64 = hidden.iter().map(|g| g.slowest_seconds()).sum();
        format!(
            "{} more frames ({} compiling) are not shown here; summary.json next to this page has every frame.",
            hidden.len(),
            secs(seconds)
        )
    });
    (sections, more)
}

/// The copies whose compiles a section lists: one that did what most ranks
/// did (standing for all of them), then each that differs, up to
/// `MAX_DIFFERING_SHOWN`; with the ranks each stands for.
fn shown_copies<'r>(g: &FrameGroup<'r>) -> Vec<(&'r Frame, Vec<u32>)> {
    if g.copies.len() == 1 {
        return vec![(g.copies[0], Vec::new())];
    }
    let differs = |f: &Frame| g.differing.iter().any(|d| Some(d.rank) == f.rank);
    let typical: Vec<&Frame> = g.copies.iter().copied().filter(|f| !differs(f)).collect();
    let mut shown = Vec::new();
    if let Some(rep) = typical.first() {
        shown.push((*rep, typical.iter().filter_map(|f| f.rank).collect()));
    }
    for f in g.copies.iter().filter(|f| differs(f)).take(MAX_DIFFERING_SHOWN) {
        shown.push((*f, f.rank.into_iter().collect()));
    }
    shown
}

fn frame_section(
    findings: &Findings<'_>,
    g: &FrameGroup<'_>,
    multi_rank: bool,
    origin: Option<f64>,
    open: bool,
    links: Links,
) -> FrameSection {
    let f = g.first();
    let across_ranks = g.copies.len() > 1;
    let recompiles: usize = g
        .copies
        .iter()
        .flat_map(|f| &f.compiles)
        .filter(|c| c.frame_compile_id.is_some_and(|n| n > 0))
        .count();
    let failed = g.copies.iter().flat_map(|f| &f.compiles).filter(|c| c.failed).count();
    let mut headline = if across_ranks {
        format!(
            "{} · {} on most ranks · slowest rank {}",
            plural(g.copies.len(), "rank", "ranks"),
            plural(g.typical_compiles, "compile", "compiles"),
            secs(g.slowest_seconds())
        )
    } else {
        format!(
            "{} · {}",
            plural(f.compiles.len(), "compile", "compiles"),
            secs(f.compile_seconds())
        )
    };
    if recompiles > 0 {
        headline.push_str(&format!(" · {}", plural(recompiles, "recompile", "recompiles")));
    }
    if failed > 0 {
        headline.push_str(&format!(" · {failed} failed"));
    }
    if !g.differing.is_empty() {
        headline.push_str(&format!(
            " · {} otherwise",
            plural(g.differing.len(), "rank compiled", "ranks compiled")
        ));
    }
    let problem_recompiles = findings
        .recompiles
        .iter()
        .any(|r| r.severity == Severity::Problem && g.copies.iter().any(|f| std::ptr::eq(*f, r.frame)));
    let tone = if problem_recompiles {
        "bad"
    } else if failed > 0 {
        "warn"
    } else {
        "ok"
    };
    let shown = shown_copies(g);
    let label_of = |ranks: &[u32]| match ranks {
        [] => None,
        [one] => Some(format!("r{one}")),
        many => Some(format!("ranks {}", rank_list(many))),
    };
    let data_of =
        |ranks: &[u32]| (!ranks.is_empty()).then(|| ranks.iter().map(u32::to_string).collect::<Vec<_>>().join(" "));
    FrameSection {
        anchor: frame_anchor(f),
        label: format!("frame {}", frame_label(f, multi_rank && !across_ranks)),
        location: match (&f.file, f.line) {
            (Some(file), Some(line)) => format!("{file}:{line}"),
            (Some(file), None) => file.to_string(),
            _ => "location unknown".to_string(),
        },
        location_link: f.file.as_deref().and_then(|file| links.file(file, f.line)),
        open,
        headline,
        tone,
        differing: g
            .differing
            .iter()
            .take(MAX_DIFFERING_SHOWN)
            .map(|d| d.short())
            .collect(),
        more_differing: g.differing.len().saturating_sub(MAX_DIFFERING_SHOWN),
        compiles: shown
            .iter()
            .flat_map(|(copy, ranks)| {
                copy.compiles.iter().map(move |c| CompileRow {
                    ranks: label_of(ranks),
                    data_ranks: data_of(ranks),
                    ..compile_row(findings.of(c), c, origin)
                })
            })
            .collect(),
        reasons: shown
            .iter()
            .flat_map(|(copy, ranks)| {
                copy.compiles
                    .iter()
                    .filter_map(|c| findings.of(c))
                    .filter(|f| !f.compile.recompile_reasons.is_empty())
                    .map(move |f| ReasonBlock {
                        ranks: label_of(ranks),
                        ..reason_block(f)
                    })
            })
            .collect(),
        graph_breaks: breaks::of_frame(&findings.graph_breaks, f),
    }
}

fn compile_row(finding: Option<&Finding<'_>>, c: &Compile, origin: Option<f64>) -> CompileRow {
    let recompile = c.frame_compile_id.is_some_and(|n| n > 0);
    let cause = finding.map(|f| &f.cause);
    let opt_secs = |v: Option<f64>| v.map_or_else(|| "–".to_string(), secs);
    let b = c.breakdown();
    let breakdown: Vec<String> = [
        ("backend", b.backend_s),
        ("inductor", b.inductor_s),
        ("codegen", b.code_gen_s),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| format!("{name} {}", secs(v))))
    .collect();
    let (status, status_tone) = if c.cache_limit {
        ("refused: recompile limit hit".to_string(), "bad")
    } else if c.failed {
        let why = [c.fail_type.as_deref(), c.fail_reason.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(": ");
        (format!("failed: {why}"), "warn")
    } else if !c.finished {
        ("unfinished (log ends mid-compile)".to_string(), "warn")
    } else {
        ("ok".to_string(), "ok")
    };
    CompileRow {
        compile_id: c.compile_id.clone(),
        ranks: None,
        data_ranks: None,
        kind: if recompile { "recompile" } else { "first" },
        color: cause
            .as_ref()
            .map_or(palette::FIRST_COMPILE, |r| palette::category(r.category)),
        cause: cause.map(|r| shown(format!("{}: {}", r.category.name(), r.culprit))),
        started: match (c.start, origin) {
            (Some(s), Some(o)) => format!("+{}", secs(s - o)),
            _ => "–".to_string(),
        },
        started_utc: c.start.map(utc).unwrap_or_default(),
        duration: opt_secs(c.duration_s),
        breakdown: breakdown.join(" · "),
        backward: opt_secs(c.backward.as_ref().and_then(|b| b.duration_s)),
        guards: c.guard_count.map_or_else(|| "–".to_string(), |n| n.to_string()),
        ops: c.graph_op_count.map_or_else(|| "–".to_string(), |n| n.to_string()),
        attempts: c.attempts.len().max(1),
        restarts: c.restart_reasons.iter().cloned().map(shown).collect(),
        status: shown(status),
        status_tone,
    }
}

fn reason_block(finding: &Finding<'_>) -> ReasonBlock {
    let c = finding.compile;
    let mut cause = None;
    let mut others = Vec::new();
    for (i, (g, r)) in c.recompile_reasons.iter().zip(&finding.reasons).enumerate() {
        let is_cause = finding.cause_index == Some(i);
        let line = ReasonLine {
            entry: g.entry.clone(),
            category: r.category.name(),
            color: palette::category(r.category),
            culprit: shown(r.culprit.clone()),
            text: if is_cause {
                shown(g.raw.clone())
            } else {
                clip(&g.guard, 160)
            },
        };
        if is_cause {
            cause = Some(line);
        } else {
            others.push(line);
        }
    }
    ReasonBlock {
        compile_id: c.compile_id.clone(),
        ranks: None,
        cause,
        others,
    }
}
