//! The Guards section: each cache entry's guard tree, collapsed, with the
//! guard a later recompile failed on highlighted and what changed between
//! that entry and the new compile beside it. Trees run to thousands of
//! lines on Hugging Face models and repeat on every rank, so the page
//! shows a bounded number of entries and lines and counts the rest.

use super::timeline::{frame_anchor, frame_label};
use crate::analysis::Findings;
use crate::model::{Compile, Frame, GuardTree};
use crate::report::format::{clip, plural};
use serde::Serialize;
use std::collections::HashSet;

/// Cache entries whose trees the page shows; entries that failed come first.
const MAX_ENTRIES: usize = 30;
/// Characters of one guard line shown (tensor guards with their comment
/// run past 300).
const MAX_LINE_CHARS: usize = 240;

#[derive(Serialize)]
pub struct Section {
    pub entries: Vec<Entry>,
    /// Entries left out, and identical trees folded into one shown.
    pub more: usize,
    pub same_on_other_ranks: usize,
    /// What was left out, in words.
    pub notes: Vec<String>,
}

#[derive(Serialize)]
pub struct Entry {
    pub label: String,
    pub frame_anchor: String,
    pub compile_id: String,
    /// `74 guards · failed in 0/1, 0/2`.
    pub summary: String,
    pub failed: bool,
    pub lines: Vec<Line>,
    /// `1,204 more guards not shown`.
    pub more: Option<String>,
    /// Per recompile whose cause was this entry: its failed guard and what changed.
    pub recompiles: Vec<RecompileDiff>,
}

#[derive(Serialize)]
pub struct Line {
    /// `⋮ 12 guards` before this line, when kept lines skip some.
    pub gap: Option<String>,
    pub text: String,
    /// `failed in 0/1`, when a recompile failed on this guard.
    pub failed_in: Option<String>,
}

#[derive(Serialize)]
pub struct RecompileDiff {
    pub compile_id: String,
    /// The failed guard as the reason states it.
    pub guard: String,
    /// The failed guard was not among the tree's lines (a reason such as
    /// "Cache line invalidated" names no guard).
    pub unmatched: bool,
    pub changed: Vec<String>,
}

pub fn section(findings: &Findings<'_>) -> Option<Section> {
    let run = findings.run;
    let multi_rank = run.has_several_ranks();
    let mut candidates: Vec<(&Frame, &Compile, &GuardTree)> = run
        .compiles()
        .filter_map(|(f, c)| c.guard_tree.as_deref().map(|t| (f, c, t)))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    // Entries a recompile failed on first (stable: run order within each).
    candidates.sort_by_key(|(_, _, t)| !t.lines.iter().any(|l| !l.failed_in.is_empty()));
    let mut seen = HashSet::new();
    let mut section = Section {
        entries: Vec::new(),
        more: 0,
        same_on_other_ranks: 0,
        notes: Vec::new(),
    };
    for (f, c, tree) in candidates {
        // Every rank compiles the same frame with the same guards, and so
        // does a process after `torch._dynamo.reset()`: one tree stands for
        // the identical ones (object ids differ per process).
        let key = (
            f.function.clone(),
            f.file.clone(),
            c.compile_id.clone(),
            tree.lines
                .iter()
                .map(|l| (without_ids(&l.text), l.failed_in.clone()))
                .collect::<Vec<_>>(),
        );
        if !seen.insert(key) {
            section.same_on_other_ranks += 1;
            continue;
        }
        if section.entries.len() == MAX_ENTRIES {
            section.more += 1;
            continue;
        }
        section.entries.push(entry(findings, f, c, tree, multi_rank));
    }
    if section.same_on_other_ranks > 0 {
        section.notes.push(format!(
            "{} (other ranks or processes, or after torch._dynamo.reset()) not repeated.",
            plural(section.same_on_other_ranks, "identical tree", "identical trees")
        ));
    }
    if section.more > 0 {
        section.notes.push(format!(
            "{} not shown.",
            plural(section.more, "more cache entry's tree", "more cache entries' trees")
        ));
    }
    Some(section)
}

fn entry(findings: &Findings<'_>, f: &Frame, c: &Compile, tree: &GuardTree, multi_rank: bool) -> Entry {
    let mut lines = Vec::with_capacity(tree.lines.len());
    let mut next = 0;
    for l in &tree.lines {
        lines.push(Line {
            gap: (l.index > next).then(|| format!("⋮ {}", plural(l.index - next, "guard", "guards"))),
            text: clip(&l.text, MAX_LINE_CHARS),
            failed_in: (!l.failed_in.is_empty()).then(|| {
                let ids_of: Vec<&str> = l.failed_in.iter().map(String::as_str).collect();
                format!("failed in {}", ids(&ids_of))
            }),
        });
        next = l.index + 1;
    }
    let hidden = tree.total - tree.lines.len();
    let recompiles: Vec<RecompileDiff> = f
        .compiles
        .iter()
        .filter_map(|r| {
            let finding = findings.of(r)?;
            let g = finding.guard()?;
            (g.entry.as_deref() == Some(c.compile_id.as_str())).then(|| RecompileDiff {
                compile_id: r.compile_id.clone(),
                guard: clip(g.guard.trim(), MAX_LINE_CHARS),
                unmatched: !tree.lines.iter().any(|l| l.failed_in.contains(&r.compile_id)),
                changed: g
                    .changes
                    .iter()
                    .flatten()
                    .map(|ch| clip(&ch.describe(), MAX_LINE_CHARS))
                    .collect(),
            })
        })
        .collect();
    // An entry is checked again on every later call, so its guard fails in
    // each recompile after the one it caused.
    let mut failed_in: Vec<&str> = tree
        .lines
        .iter()
        .flat_map(|l| l.failed_in.iter().map(String::as_str))
        .collect();
    failed_in.sort_by_key(|id| f.compiles.iter().position(|c| c.compile_id == *id));
    failed_in.dedup();
    let mut summary = plural(tree.total, "guard", "guards");
    if !failed_in.is_empty() {
        summary.push_str(&format!(" · failed in {}", ids(&failed_in)));
    }
    Entry {
        label: frame_label(f, multi_rank),
        frame_anchor: frame_anchor(f),
        compile_id: c.compile_id.clone(),
        summary,
        failed: !failed_in.is_empty() || !recompiles.is_empty(),
        lines,
        more: (hidden > 0).then(|| {
            format!(
                "{hidden} more {} not shown",
                if hidden == 1 { "guard" } else { "guards" }
            )
        }),
        recompiles,
    }
}

/// `0/1, 0/2, 0/3 and 5 more`: compile ids, a few named.
fn ids(ids: &[&str]) -> String {
    const NAMED: usize = 4;
    let mut s = ids[..ids.len().min(NAMED)].join(", ");
    if ids.len() > NAMED {
        s.push_str(&format!(" and {} more", ids.len() - NAMED));
    }
    s
}

/// A guard line with its object ids (`___check_obj_id(x, 140343737407728)`:
/// runs of 8 or more digits) blanked, to compare trees across processes.
fn without_ids(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut digits = String::new();
    for ch in line.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if digits.len() >= 8 {
            out.push('#');
        } else {
            out.push_str(&digits);
        }
        digits.clear();
        out.push(ch);
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn object_ids_do_not_tell_ranks_apart() {
        assert_eq!(
            super::without_ids("ID_MATCH: ___check_obj_id(G['torch'], 140343737407728), size=[8, 16]"),
            "ID_MATCH: ___check_obj_id(G['torch'], #), size=[8, 16]"
        );
    }
}
