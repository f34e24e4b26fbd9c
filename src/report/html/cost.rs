//! The Cost section: what compiling cost beyond compile time, as far as
//! the log records it (the phrases are `report::cost`'s, shared with the
//! terminal).

use super::timeline::frame_anchor;
use crate::analysis::Findings;
use crate::report::cost::{fallback_sentence, guard_phrase};
use serde::Serialize;

/// Eager fallbacks listed; the rest are counted.
const MAX_FALLBACKS: usize = 20;

#[derive(Serialize)]
pub struct Section {
    /// `123 µs median check (max 125 µs, 0/1)` over `N compiles`.
    pub guards: Option<String>,
    pub guard_compiles: usize,
    pub caches: Vec<CacheRow>,
    pub fallbacks: Vec<Fallback>,
    pub more_fallbacks: usize,
}

#[derive(Serialize)]
pub struct CacheRow {
    pub name: &'static str,
    pub hits: u64,
    pub misses: u64,
    pub bypasses: Option<u64>,
}

#[derive(Serialize)]
pub struct Fallback {
    pub sentence: String,
    pub anchor: String,
}

pub fn section(findings: &Findings<'_>) -> Section {
    let cost = &findings.cost;
    let c = &cost.caches;
    let rows = [
        (
            "FX graph (inductor)",
            c.fx_graph_hits,
            c.fx_graph_misses,
            Some(c.fx_graph_bypasses),
        ),
        (
            "AOTAutograd",
            c.aot_autograd_hits,
            c.aot_autograd_misses,
            Some(c.aot_autograd_bypasses),
        ),
        ("remote (shared)", c.remote_hits, c.remote_misses, None),
    ];
    let frames = &findings.run.frames;
    Section {
        guards: guard_phrase(cost),
        guard_compiles: cost.guard_checks_measured,
        caches: rows
            .into_iter()
            .filter(|(_, h, m, b)| h + m + b.unwrap_or(0) > 0)
            .map(|(name, hits, misses, bypasses)| CacheRow {
                name,
                hits,
                misses,
                bypasses,
            })
            .collect(),
        fallbacks: cost
            .eager_fallbacks
            .iter()
            .take(MAX_FALLBACKS)
            .map(|f| Fallback {
                sentence: fallback_sentence(f),
                anchor: frames
                    .iter()
                    .find(|x| x.rank == f.frame.rank && x.pid == f.frame.pid && x.frame_id == f.frame.frame_id)
                    .map(frame_anchor)
                    .unwrap_or_default(),
            })
            .collect(),
        more_fallbacks: cost.eager_fallbacks.len().saturating_sub(MAX_FALLBACKS),
    }
}
