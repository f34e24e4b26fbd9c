//! The page's verdict (the headline sentence and stats) and its fix cards:
//! what the reader sees first, from the findings.

use super::format::shown;
use super::links::{Links, SourceLink};
use super::palette;
use super::timeline::{frame_anchor, frame_label};
use crate::analysis::Severity;
use crate::analysis::{CulpritGroup, Findings, Totals};
use crate::model::Run;
use crate::reasons::Category;
use crate::report::format::{plural, rank_list, secs};
use crate::report::paths::{display, display_site};
use serde::Serialize;
use std::collections::BTreeMap;

/// Compile ids a fix card names before counting the rest.
const MAX_IDS: usize = 8;

#[derive(Serialize)]
pub struct Headline {
    pub tone: &'static str,
    pub sentence: String,
    pub stats: Vec<Stat>,
    pub notes: Vec<String>,
    /// Frames that run eagerly, each as a card above the fixes.
    pub eager: Vec<EagerCard>,
}

/// A frame Dynamo did not compile: the summary's sentence and its fix.
#[derive(Serialize)]
pub struct EagerCard {
    pub sentence: String,
    pub fix: Option<String>,
}

#[derive(Serialize)]
pub struct Stat {
    pub label: &'static str,
    pub value: String,
    pub tone: &'static str,
}

#[derive(Serialize)]
pub struct Fix {
    pub category: &'static str,
    pub category_label: &'static str,
    pub color: &'static str,
    pub culprit: String,
    pub source: Option<String>,
    pub source_link: Option<SourceLink>,
    pub code: Option<String>,
    /// The user's line that called into the compiled code, displayed.
    pub called_from: Option<String>,
    pub called_from_link: Option<SourceLink>,
    pub library_line: Option<String>,
    /// Every guarded value that changed, one line each.
    pub changed: Vec<String>,
    /// "problem" or "expected".
    pub severity: &'static str,
    pub detail: Option<String>,
    /// What in the log decided the severity (the summary's `why:`).
    pub why: Option<String>,
    /// Who owns the value, in words (the summary's `owner:`).
    pub owner: &'static str,
    pub advice: String,
    pub frame: String,
    pub frame_anchor: String,
    /// The first ids, those after a `torch._dynamo.reset()` marked with
    /// their generation; `more_ids` counts the rest.
    pub compile_ids: Vec<String>,
    pub more_ids: usize,
    pub cost: String,
}

/// Where the verdict is shown: the page, whose sections its notes point
/// to, or a notebook cell, which holds only the verdict and the fixes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Page,
    Notebook,
}

impl Shown {
    /// Where a reader finds a section the verdict mentions.
    fn see(self, section: &str) -> String {
        match self {
            Shown::Page => format!("see {section}"),
            Shown::Notebook => format!("see {section} on the page run.report(DIR) writes"),
        }
    }
}

pub fn verdict(findings: &Findings<'_>, shown: Shown) -> Headline {
    let (run, t) = (findings.run, &findings.totals);
    // Alarm only for a recompile that is a problem: expected one-offs (a
    // short last batch, train/eval) are what a healthy run does.
    let problems = findings
        .recompiles
        .iter()
        .filter(|r| r.severity == Severity::Problem)
        .count();
    let stats = vec![
        stat("frames", t.frames.to_string(), "plain"),
        stat("compiles", t.compiles.to_string(), "plain"),
        stat(
            "recompiles",
            t.recompiles.to_string(),
            match (t.recompiles, problems) {
                (0, _) => "ok",
                (_, 0) => "plain",
                _ => "bad",
            },
        ),
        stat(
            "failed compiles",
            t.failed_compiles.to_string(),
            if t.failed_compiles > 0 { "warn" } else { "ok" },
        ),
        stat(
            "graph breaks",
            t.graph_breaks.to_string(),
            if t.graph_breaks > 0 { "warn" } else { "ok" },
        ),
        if t.processes > 1 {
            stat("compiling (wall clock)", secs(t.compile_wall_seconds), "plain")
        } else {
            stat("compiling", secs(t.compile_seconds), "plain")
        },
    ];
    let mut notes = Vec::new();
    if t.processes > 1 {
        // Ranks compile side by side: the job waited the wall clock.
        notes.push(format!(
            "{} ({} copies across {}); {} compiling summed over the processes.",
            plural(t.frames, "frame", "frames"),
            t.process_frames,
            plural(t.processes, "process", "processes"),
            secs(t.compile_seconds)
        ));
    }
    if let Some(line) = crate::report::runs::runs_line(run) {
        notes.push(format!("{line}."));
    }
    if t.cache_limit_hits > 0 {
        notes.push(format!(
            "{} hit the recompile limit: that code now runs eagerly, uncompiled.",
            plural(t.cache_limit_hits, "compile", "compiles")
        ));
    }
    if t.unfinished_compiles > 0 {
        notes.push(format!(
            "{} unfinished: the log ends mid-compile (was the process killed?).",
            plural(t.unfinished_compiles, "compile is", "compiles are")
        ));
    }
    if run.problems.count > 0 {
        notes.push(format!(
            "{}; {}.",
            plural(run.problems.count as usize, "input error", "input errors"),
            shown.see("Input errors")
        ));
    }
    if let Some(text) = findings.run.text_log() {
        notes.insert(0, crate::report::text_log::read_from_text(&text));
    }
    let (tone, sentence) = if t.compiles == 0 {
        ("warn", "The log holds no compiles.".to_string())
    } else if !findings.eager_frames.is_empty() {
        let names: Vec<&str> = findings.eager_frames.iter().map(|e| e.frame.name.as_str()).collect();
        let mut s = format!(
            "{} not compiled: {} eagerly ({}).",
            plural(names.len(), "frame is", "frames are"),
            if names.len() == 1 { "it runs" } else { "they run" },
            names.join(", ")
        );
        if t.recompiles > 0 {
            s.push_str(&format!(" {}", recompile_sentence(findings, t)));
        }
        ("bad", s)
    } else if t.recompiles == 0 {
        let mut s = format!(
            "No recompiles: {} compiled once each, {} in all.",
            plural(t.frames, "frame", "frames"),
            secs(t.compile_seconds)
        );
        if t.failed_compiles > 0 {
            s.push_str(&format!(
                " {} failed ({}).",
                plural(t.failed_compiles, "compile", "compiles"),
                shown.see("Frames")
            ));
        }
        ("ok", s)
    } else if problems == 0 {
        let mut s = recompile_sentence(findings, t);
        s.push_str(if t.recompiles == 1 {
            " It is expected, not a problem."
        } else {
            " All are expected, none is a problem."
        });
        ("ok", s)
    } else {
        ("bad", recompile_sentence(findings, t))
    };
    let eager = findings
        .eager_frames
        .iter()
        .map(|e| EagerCard {
            sentence: e.sentence(display_site),
            fix: e.fix.clone(),
        })
        .collect();
    Headline {
        tone,
        sentence,
        stats,
        notes,
        eager,
    }
}

/// "3 recompiles cost 61 s; 2 are caused by forward-hook closure state, 1 by
/// lazily grown buffers: see below."
fn recompile_sentence(findings: &Findings<'_>, t: &Totals) -> String {
    // None: the log holds no reason for the recompile (e.g. a lost payload).
    let mut by_category: BTreeMap<Option<Category>, (usize, f64)> = BTreeMap::new();
    for r in &findings.recompiles {
        let category = r.logged_cause().map(|c| c.category);
        let e = by_category.entry(category).or_default();
        e.0 += 1;
        e.1 += r.compile.duration_s.unwrap_or(0.0);
    }
    let label = |c: Option<Category>| c.map_or("a reason missing from the log", Category::label);
    let mut ranked: Vec<(Option<Category>, usize, f64)> =
        by_category.into_iter().map(|(c, (n, s))| (c, n, s)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let head = format!(
        "{} cost {}",
        plural(t.recompiles, "recompile", "recompiles"),
        secs(t.recompile_seconds)
    );
    if ranked.len() == 1 {
        let all = if t.recompiles == 1 {
            "caused by"
        } else {
            "all caused by"
        };
        return format!("{head}, {all} {}: see below.", label(ranked[0].0));
    }
    let mut parts: Vec<String> = Vec::new();
    for (i, (category, n, _)) in ranked.iter().take(3).enumerate() {
        let verb = match (i, *n) {
            (0, 1) => "is caused by",
            (0, _) => "are caused by",
            _ => "by",
        };
        parts.push(format!("{n} {verb} {}", label(*category)));
    }
    let rest: usize = ranked.iter().skip(3).map(|r| r.1).sum();
    if rest > 0 {
        parts.push(format!("{rest} by other causes"));
    }
    format!("{head}; {}: see below.", parts.join(", "))
}

fn stat(label: &'static str, value: String, tone: &'static str) -> Stat {
    Stat { label, value, tone }
}

pub fn fix(run: &Run, g: &CulpritGroup, links: Links) -> Fix {
    let multi_rank = run.has_several_ranks();
    let frame = run
        .frames
        .iter()
        .find(|f| (f.pid, f.rank, f.frame_id) == (g.frame.pid, g.frame.rank, g.frame.frame_id));
    let where_ = match (&g.frame.file, g.frame.line) {
        (Some(file), Some(line)) => format!(" ({}) at {}:{line}", g.frame.name, display(file)),
        _ => String::new(),
    };
    Fix {
        category: g.cause.category.name(),
        category_label: g.cause.category.label(),
        color: palette::category(g.cause.category),
        culprit: shown(g.cause.culprit.clone()),
        source: g.cause.source.as_deref().map(display_site).map(shown),
        source_link: g.cause.source.as_deref().and_then(|s| links.site(s)),
        code: g.cause.code.clone().map(shown),
        called_from: g.cause.called_from.as_deref().map(|s| {
            let code = g
                .cause
                .called_from_code
                .as_deref()
                .map(|c| format!(": {c}"))
                .unwrap_or_default();
            shown(format!("{}{code}", display_site(s)))
        }),
        called_from_link: g.cause.called_from.as_deref().and_then(|s| links.site(s)),
        library_line: g.cause.library_line.as_deref().map(display_site).map(shown),
        changed: g.cause.changed.iter().map(|c| shown(c.describe())).collect(),
        severity: g.severity.name(),
        detail: g.cause.detail.clone().map(shown),
        why: (!g.evidence.text.is_empty()).then(|| format!("{}: {}", g.evidence.kind.name(), g.evidence.text)),
        owner: g.owner.words(),
        advice: g.cause.advice.clone(),
        frame: match frame {
            Some(f) if g.ranks.len() > 1 => format!(
                "frame {}{where_} on {} ranks ({})",
                frame_label(f, false),
                g.ranks.len(),
                rank_list(&g.ranks)
            ),
            Some(f) => format!("frame {}{where_}", frame_label(f, multi_rank)),
            None => format!("frame {}{where_}", g.frame.frame_id),
        },
        frame_anchor: frame.map(frame_anchor).unwrap_or_default(),
        cost: format!(
            "{} · {}",
            plural(g.compile_ids.len(), "recompile", "recompiles"),
            secs(g.seconds)
        ),
        compile_ids: distinct_ids(g)
            .into_iter()
            .take(MAX_IDS)
            .map(|(id, generation)| match generation {
                0 => id.clone(),
                n => format!("{id} (after reset {n})"),
            })
            .collect(),
        more_ids: distinct_ids(g).len().saturating_sub(MAX_IDS),
    }
}

/// The card of one cause: a group's, or for a cause that recompiled
/// several frames, the first group's with every frame named and counted.
pub fn fix_entry(run: &Run, entry: &[&CulpritGroup], links: Links) -> Fix {
    let mut f = fix(run, entry[0], links);
    if entry.len() > 1 {
        let n: usize = entry.iter().map(|g| g.compile_ids.len()).sum();
        let seconds: f64 = entry.iter().map(|g| g.seconds).sum();
        f.cost = format!(
            "{} in {} · {}",
            plural(n, "recompile", "recompiles"),
            plural(entry.len(), "frame", "frames"),
            secs(seconds)
        );
        let frames: Vec<String> = entry
            .iter()
            .map(|g| format!("frame {} ({})", g.frame.frame_id, g.frame.name))
            .collect();
        f.frame = format!("{}, one change at one call", frames.join(", "));
        let ids: Vec<String> = entry
            .iter()
            .flat_map(|g| distinct_ids(g))
            .map(|(id, _)| id.clone())
            .collect();
        f.more_ids = ids.len().saturating_sub(MAX_IDS);
        f.compile_ids = ids.into_iter().take(MAX_IDS).collect();
    }
    f
}

/// A group's compile ids with their reset generation; across ranks each id
/// once (every rank has its own `0/1`).
fn distinct_ids(g: &CulpritGroup) -> Vec<(&String, &u32)> {
    let mut ids: Vec<(&String, &u32)> = g.compile_ids.iter().zip(&g.generations).collect();
    if g.ranks.len() > 1 {
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(*id));
    }
    ids
}
