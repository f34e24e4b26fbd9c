//! The page's content as plain data: verdict, fix list, frames, problems.
//! Strings are final (formatted, not yet escaped); the template escapes them.

use super::activations;
use super::breaks;
use super::cost;
use super::format::shown;
use super::frames::{frame_sections, FrameSection};
use super::guards;
use super::links::Links;
use super::palette;
use super::ranks::{self, RankMatrix};
use super::timeline::{self, Timeline};
use super::verdict::{fix_entry, verdict, Fix, Headline, Shown};
use super::PageOptions;
use crate::activation_diff::series::Activations;
use crate::analysis::Findings;
use crate::model::{steady_median_wall_ms, Step};
use crate::reasons::Category;
use crate::report::format::millis;
use serde::Serialize;

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
    /// compile_trace.json is beside the page (the footer links it).
    pub compile_trace: bool,
    /// A rehearsal's logs: the page says its findings are predicted.
    pub predicted: Option<crate::input::rehearsal::Predicted>,
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
    pub options: PageOptions,
}

/// The verdict and the fix cards: what a notebook shows of a run.
#[derive(Serialize)]
pub struct Headlines {
    pub verdict: Headline,
    pub fixes: Vec<Fix>,
    pub more_fixes: usize,
}

pub fn headline(findings: &Findings<'_>) -> Headlines {
    Headlines {
        verdict: verdict(findings, Shown::Notebook),
        // A notebook runs where the files are: their lines link as on the page.
        fixes: fixes(findings, Links(true)),
        more_fixes: findings.fix_entries.len().saturating_sub(MAX_FIXES),
    }
}

fn fixes(findings: &Findings<'_>, links: Links) -> Vec<Fix> {
    let run = findings.run;
    // One card per cause: the frames one change recompiled together.
    findings
        .fix_entries
        .iter()
        .take(MAX_FIXES)
        .map(|entry| {
            let groups: Vec<&crate::analysis::CulpritGroup> = entry.iter().map(|&i| &findings.culprits[i]).collect();
            fix_entry(run, &groups, links)
        })
        .collect()
}

pub fn build(input: &PageInput<'_>) -> Page {
    let findings = input.findings;
    let run = findings.run;
    let mut timeline = timeline::build(findings, input.steps);
    let legend = legend(&timeline, !input.steps.is_empty());
    for b in timeline.bars.iter_mut().filter(|b| b.class.starts_with("recompile")) {
        b.mark = legend.iter().find(|l| l.color == b.color).and_then(|l| l.mark);
    }
    let origin = run.compiles().filter_map(|(_, c)| c.start).reduce(f64::min);
    let links = Links(!input.options.no_links);
    let (frames, more_frames) = frame_sections(findings, origin, links);
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
        verdict: verdict(findings, Shown::Page),
        more_fixes: findings.fix_entries.len().saturating_sub(MAX_FIXES),
        fixes: fixes(findings, links),
        legend,
        timeline,
        frames,
        more_frames,
        graph_breaks: breaks::section(&findings.graph_breaks, &run.frames, links),
        guards: guards::section(findings),
        cost: cost::section(findings),
        ranks: ranks::build(findings),
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
        compile_trace: input.options.compile_trace,
        predicted: crate::input::rehearsal::find(run.inputs.iter().map(|i| i.path.as_str())),
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
            label: "slow step (≥ 2× the median step without compiles)".into(),
            color: palette::SLOW_STEP,
            class: "slow",
            mark: None,
        });
    }
    items
}

fn steps_summary(steps: &[Step]) -> Option<StepsSummary> {
    if steps.is_empty() {
        return None;
    }
    let steady = steps.iter().filter(|s| s.compiles.is_empty()).count();
    let median = match steady_median_wall_ms(steps) {
        Some(ms) => format!("median step without compiles {} ({steady} of them)", millis(ms)),
        None => "every step compiled: no step without compiles to compare with".to_string(),
    };
    let mut slowest: Vec<&Step> = steps.iter().collect();
    slowest.sort_by(|a, b| b.wall_ms.total_cmp(&a.wall_ms));
    Some(StepsSummary {
        count: steps.len(),
        median,
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
