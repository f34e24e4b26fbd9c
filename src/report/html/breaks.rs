//! The Graph breaks section: the analysis's distinct breaks, one card each,
//! and the one-line mentions in each frame's section.

use super::format::cut;
use super::links::{Links, SourceLink};
use super::timeline::frame_anchor;
use crate::analysis::{FrameRef, GraphBreak};
use crate::model::Frame;
use crate::report::format::{id_list, plural};
use crate::report::paths::display_site;
use serde::Serialize;

/// Breaks listed in full; the rest are counted.
const MAX_BREAKS: usize = 50;
/// Where torch's own text sends a reader for a registry id (`gb0124`).
const REGISTRY: &str = "https://meta-pytorch.github.io/compile-graph-break-site/gb/";

#[derive(Serialize)]
pub struct Section {
    pub breaks: Vec<BreakCard>,
    pub more: usize,
}

#[derive(Serialize)]
pub struct BreakCard {
    pub reason: String,
    pub user_line: Option<String>,
    pub user_link: Option<SourceLink>,
    pub user_code: Option<String>,
    pub library_line: Option<String>,
    pub registry_id: Option<String>,
    pub registry_url: Option<String>,
    pub count: String,
    pub compiles: String,
    pub frames: Vec<FrameLink>,
    pub text: String,
}

#[derive(Serialize)]
pub struct FrameLink {
    pub label: String,
    pub anchor: String,
}

pub fn section(breaks: &[GraphBreak<'_>], frames: &[Frame], links: Links) -> Option<Section> {
    if breaks.is_empty() {
        return None;
    }
    Some(Section {
        breaks: breaks.iter().take(MAX_BREAKS).map(|g| card(g, frames, links)).collect(),
        more: breaks.len().saturating_sub(MAX_BREAKS),
    })
}

fn card(g: &GraphBreak<'_>, frames: &[Frame], links: Links) -> BreakCard {
    let multi_rank = frames.iter().any(|f| f.rank.is_some_and(|r| r > 0));
    // The id is checked to be `gb` and four digits by the analysis, so the
    // link cannot point anywhere but the registry.
    let registry_url = g.registry_id.as_ref().map(|id| format!("{REGISTRY}{id}.html"));
    BreakCard {
        reason: cut(g.reason.clone(), "the TORCH_TRACE log"),
        user_line: g.user_line.as_deref().map(display_site),
        user_link: g.user_line.as_deref().and_then(|s| links.site(s)),
        user_code: g.user_code.clone().map(|c| cut(c, "the TORCH_TRACE log")),
        library_line: g.library_line.as_deref().map(display_site),
        registry_id: g.registry_id.clone(),
        registry_url,
        count: format!("logged {}", plural(g.count, "time", "times")),
        compiles: id_list(&g.compile_ids),
        frames: g
            .frames
            .iter()
            .map(|r| FrameLink {
                label: match r.rank {
                    Some(rank) if multi_rank => format!("rank {rank} frame {} ({})", r.frame_id, r.name),
                    _ => format!("frame {} ({})", r.frame_id, r.name),
                },
                anchor: anchor_of(r, frames),
            })
            .collect(),
        text: cut(g.text.to_string(), "the TORCH_TRACE log"),
    }
}

fn anchor_of(r: &FrameRef, frames: &[Frame]) -> String {
    frames
        .iter()
        .find(|f| (f.rank, f.pid, f.frame_id) == (r.rank, r.pid, r.frame_id))
        .map(frame_anchor)
        .unwrap_or_default()
}

/// One line per distinct break a frame logged, for its frame section.
pub fn of_frame(breaks: &[GraphBreak<'_>], f: &Frame) -> Vec<String> {
    breaks
        .iter()
        .filter(|g| {
            g.frames
                .iter()
                .any(|r| (r.rank, r.pid, r.frame_id) == (f.rank, f.pid, f.frame_id))
        })
        .map(|g| {
            let at = g.user_line.as_deref().map(display_site).unwrap_or_default();
            let id = g.registry_id.as_deref().map(|i| format!(" [{i}]")).unwrap_or_default();
            cut(format!("{}{id} at {at}", g.reason), "the TORCH_TRACE log")
        })
        .collect()
}
