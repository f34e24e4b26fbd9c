//! The page's content as plain data: verdict, fix list, frames, problems.
//! Strings are final (formatted, not yet escaped); the template escapes them.

use super::activations;
use super::breaks;
use super::cost;
use super::format::shown;
use super::guards;
use super::palette;
use super::ranks::{self, RankMatrix};
use super::timeline::{self, frame_anchor, frame_label, Timeline};
use super::verdict::{fix, verdict, Fix, Headline};
use crate::activation_diff::series::Activations;
use crate::analysis::{Finding, Findings};
use crate::model::{median_wall_ms, Compile, Frame, Step};
use crate::reasons::Category;
use crate::report::format::{clip, millis, plural, secs, utc};
use serde::Serialize;

/// Frames shown in full; the rest are counted (all are in summary.json).
pub const MAX_FRAMES: usize = 100;
const MAX_FIXES: usize = 25;
const MAX_PROBLEMS: usize = 50;

#[derive(Serialize)]
pub struct Page {
    pub title: String,
    pub version: &'static str,
    pub inputs: Vec<InputRow>,
    pub verdict: Headline,
    pub fixes: Vec<Fix>,
    pub more_fixes: usize,
    pub timeline: Timeline,
    pub legend: Vec<LegendItem>,
    pub frames: Vec<FrameSection>,
    pub more_frames: Option<String>,
    pub graph_breaks: Option<breaks::Section>,
    pub guards: Option<guards::Section>,
    pub cost: cost::Section,
    pub ranks: Option<RankMatrix>,
    pub steps: Option<StepsSummary>,
    pub activations: Option<activations::Section>,
    pub problems: ProblemsSection,
}

#[derive(Serialize)]
pub struct InputRow {
    pub path: String,
    pub rank: Option<u32>,
    pub size: String,
    pub events: u64,
}

#[derive(Serialize)]
pub struct LegendItem {
    pub label: String,
    pub color: &'static str,
    pub class: &'static str,
    /// The letter a recompile category's bars carry, so that colour is not
    /// the only way to tell causes apart.
    pub mark: Option<char>,
}

#[derive(Serialize)]
pub struct FrameSection {
    pub anchor: String,
    pub label: String,
    pub location: String,
    pub open: bool,
    pub headline: String,
    pub tone: &'static str,
    pub compiles: Vec<CompileRow>,
    pub reasons: Vec<ReasonBlock>,
    pub graph_breaks: Vec<String>,
}

#[derive(Serialize)]
pub struct CompileRow {
    pub compile_id: String,
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

#[derive(Serialize)]
pub struct StepsSummary {
    pub count: usize,
    pub median: String,
    pub slowest: Vec<String>,
}

#[derive(Serialize)]
pub struct ProblemsSection {
    pub count: u64,
    pub by_kind: Vec<(String, u64)>,
    pub first: Vec<String>,
    pub more: u64,
}

pub struct PageInput<'a> {
    /// The run, analysed once (`analysis::analyse`).
    pub findings: &'a Findings<'a>,
    pub steps: &'a [Step],
    /// What `--activations` gave: one trace, or two and their diff.
    pub activations: Option<&'a Activations>,
    pub title: String,
}

pub fn build(input: &PageInput<'_>) -> Page {
    let findings = input.findings;
    let run = findings.run;
    let groups = &findings.culprits;
    let mut timeline = timeline::build(findings, input.steps);
    let legend = legend(&timeline, !input.steps.is_empty());
    for b in timeline.bars.iter_mut().filter(|b| b.class.starts_with("recompile")) {
        b.mark = legend.iter().find(|l| l.color == b.color).and_then(|l| l.mark);
    }
    let origin = run.compiles().filter_map(|(_, c)| c.start).reduce(f64::min);
    let (frames, more_frames) = frame_sections(findings, origin);
    Page {
        title: input.title.clone(),
        version: env!("CARGO_PKG_VERSION"),
        inputs: run
            .inputs
            .iter()
            .map(|i| InputRow {
                path: i.path.clone(),
                rank: i.rank,
                size: human_bytes(i.stats.bytes),
                events: i.stats.envelopes,
            })
            .collect(),
        verdict: verdict(findings),
        more_fixes: groups.len().saturating_sub(MAX_FIXES),
        fixes: groups.iter().take(MAX_FIXES).map(|g| fix(run, g)).collect(),
        legend,
        timeline,
        frames,
        more_frames,
        graph_breaks: breaks::section(&findings.graph_breaks, &run.frames),
        guards: guards::section(findings),
        cost: cost::section(findings),
        ranks: ranks::build(run),
        steps: steps_summary(input.steps),
        activations: input.activations.map(activations::build),
        problems: ProblemsSection {
            count: run.problems.count,
            by_kind: run
                .problems
                .by_kind
                .iter()
                .map(|(k, n)| (k.label().to_string(), *n))
                .collect(),
            first: run
                .problems
                .first
                .iter()
                .take(MAX_PROBLEMS)
                .map(|p| shown(p.to_string()))
                .collect(),
            more: run.problems.count.saturating_sub(MAX_PROBLEMS as u64),
        },
    }
}

fn legend(t: &Timeline, steps: bool) -> Vec<LegendItem> {
    let mut items = vec![LegendItem {
        label: "first compile".into(),
        color: palette::FIRST_COMPILE,
        class: "first",
        mark: None,
    }];
    let mut seen = Vec::new();
    for c in Category::ALL {
        let color = palette::category(*c);
        if t.bars
            .iter()
            .any(|b| b.class.starts_with("recompile") && b.color == color)
            && !seen.contains(&color)
        {
            seen.push(color);
            items.push(LegendItem {
                label: format!("recompile: {}", c.name()),
                color,
                class: "recompile",
                mark: char::from_u32(u32::from(b'A') + seen.len() as u32 - 1),
            });
        }
    }
    if t.bars.iter().any(|b| b.class.contains("failed")) {
        items.push(LegendItem {
            label: "failed".into(),
            color: palette::FAILED,
            class: "failed",
            mark: None,
        });
    }
    if steps {
        items.push(LegendItem {
            label: "slow step (≥ 2× median)".into(),
            color: palette::SLOW_STEP,
            class: "slow",
            mark: None,
        });
    }
    items
}

/// Frames that recompiled or failed come first and open; the rest follow
/// closed, longest compile first, up to `MAX_FRAMES`.
fn frame_sections(findings: &Findings<'_>, origin: Option<f64>) -> (Vec<FrameSection>, Option<String>) {
    let run = findings.run;
    let multi_rank = run.has_several_ranks();
    let notable = |f: &Frame| f.compiles.len() > 1 || f.compiles.iter().any(|c| c.failed || !c.finished);
    let mut order: Vec<&Frame> = run.frames.iter().collect();
    order.sort_by(|a, b| {
        notable(b)
            .cmp(&notable(a))
            .then(b.compile_seconds().total_cmp(&a.compile_seconds()))
    });
    let open_budget = 12;
    let sections: Vec<FrameSection> = order
        .iter()
        .take(MAX_FRAMES)
        .enumerate()
        .map(|(i, f)| frame_section(findings, f, multi_rank, origin, notable(f) && i < open_budget))
        .collect();
    let hidden = &order[order.len().min(MAX_FRAMES)..];
    let more = (!hidden.is_empty()).then(|| {
        let seconds: f64 = hidden.iter().map(|f| f.compile_seconds()).sum();
        format!(
            "{} more frames ({} compiling) are not shown here; summary.json next to this page has every frame.",
            hidden.len(),
            secs(seconds)
        )
    });
    (sections, more)
}

fn frame_section(
    findings: &Findings<'_>,
    f: &Frame,
    multi_rank: bool,
    origin: Option<f64>,
    open: bool,
) -> FrameSection {
    let recompiles = f
        .compiles
        .iter()
        .filter(|c| c.frame_compile_id.is_some_and(|n| n > 0))
        .count();
    let failed = f.compiles.iter().filter(|c| c.failed).count();
    let mut headline = format!(
        "{} · {}",
        plural(f.compiles.len(), "compile", "compiles"),
        secs(f.compile_seconds())
    );
    if recompiles > 0 {
        headline.push_str(&format!(" · {}", plural(recompiles, "recompile", "recompiles")));
    }
    if failed > 0 {
        headline.push_str(&format!(" · {failed} failed"));
    }
    let tone = if recompiles > 0 {
        "bad"
    } else if failed > 0 {
        "warn"
    } else {
        "ok"
    };
    FrameSection {
        anchor: frame_anchor(f),
        label: format!("frame {}", frame_label(f, multi_rank)),
        location: match (&f.file, f.line) {
            (Some(file), Some(line)) => format!("{file}:{line}"),
            (Some(file), None) => file.clone(),
            _ => "location unknown".to_string(),
        },
        open,
        headline,
        tone,
        compiles: f
            .compiles
            .iter()
            .map(|c| compile_row(findings.of(c), c, origin))
            .collect(),
        reasons: f
            .compiles
            .iter()
            .filter_map(|c| findings.of(c))
            .filter(|f| !f.compile.recompile_reasons.is_empty())
            .map(reason_block)
            .collect(),
        graph_breaks: breaks::of_frame(&findings.graph_breaks, f),
    }
}

fn compile_row(finding: Option<&Finding<'_>>, c: &Compile, origin: Option<f64>) -> CompileRow {
    let recompile = c.frame_compile_id.is_some_and(|n| n > 0);
    let cause = finding.map(|f| &f.cause);
    let opt_secs = |v: Option<f64>| v.map_or_else(|| "–".to_string(), secs);
    let b = &c.breakdown;
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
        cause,
        others,
    }
}

fn steps_summary(steps: &[Step]) -> Option<StepsSummary> {
    if steps.is_empty() {
        return None;
    }
    let median = median_wall_ms(steps);
    let mut slowest: Vec<&Step> = steps.iter().collect();
    slowest.sort_by(|a, b| b.wall_ms.total_cmp(&a.wall_ms));
    Some(StepsSummary {
        count: steps.len(),
        median: millis(median),
        slowest: slowest
            .iter()
            .take(5)
            .map(|s| {
                let rank = s.rank.map_or(String::new(), |r| format!("rank {r} "));
                let compiles = if s.compiles.is_empty() {
                    String::new()
                } else {
                    format!(", compiled {}", s.compile_ids().collect::<Vec<_>>().join(", "))
                };
                format!("{rank}step {}: {}{compiles}", s.step, millis(s.wall_ms))
            })
            .collect(),
    })
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{:.1} GiB", n as f64 / f64::from(1u32 << 30)),
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} B"),
    }
}
