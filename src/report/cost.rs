//! The cost beyond compile time in words every view shares: the terminal's
//! one line, the page's Cost section.

use super::format::{g, plural, secs};
use crate::analysis::{Cost, EagerFallback};
use crate::model::CacheCounts;

/// `guards: 123 µs median check (max 125 µs, 0/1); FX graph cache 1 hit / 2 misses`,
/// or None when the log records none of it.
pub fn cost_line(cost: &Cost) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(phrase) = guard_phrase(cost) {
        parts.push(format!("guards: {phrase}"));
    }
    parts.extend(cache_phrases(&cost.caches));
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// `123 µs median check (max 125 µs, 0/1)`.
pub fn guard_phrase(cost: &Cost) -> Option<String> {
    let median = cost.guard_latency_median_us?;
    let mut s = format!("{} µs median check", g(median, 3));
    if let (Some(max), Some(id)) = (cost.guard_latency_max_us, &cost.guard_latency_max_compile) {
        if cost.guard_checks_measured > 1 && max > median {
            s.push_str(&format!(" (max {} µs, {id})", g(max, 3)));
        }
    }
    Some(s)
}

/// `FX graph cache 1 hit / 2 misses`, `AOTAutograd cache 3 bypassed`, one
/// per cache the log mentions.
pub fn cache_phrases(c: &CacheCounts) -> Vec<String> {
    let mut out = Vec::new();
    let mut cache = |name: &str, hits: u64, misses: u64, bypasses: u64| {
        let mut counts = Vec::new();
        if hits + misses > 0 {
            counts.push(format!(
                "{} / {}",
                plural(hits as usize, "hit", "hits"),
                plural(misses as usize, "miss", "misses")
            ));
        }
        if bypasses > 0 {
            counts.push(format!("{bypasses} bypassed"));
        }
        if !counts.is_empty() {
            out.push(format!("{name} {}", counts.join(", ")));
        }
    };
    cache(
        "FX graph cache",
        c.fx_graph_hits,
        c.fx_graph_misses,
        c.fx_graph_bypasses,
    );
    cache(
        "AOTAutograd cache",
        c.aot_autograd_hits,
        c.aot_autograd_misses,
        c.aot_autograd_bypasses,
    );
    cache("remote cache", c.remote_hits, c.remote_misses, 0);
    out
}

/// What the log says of a frame that ran eagerly, without numbers it
/// does not hold.
pub fn fallback_sentence(f: &EagerFallback) -> String {
    let after = match f.log_seconds_after {
        Some(s) if s >= 0.005 => format!("; the log runs {} after it", secs(s)),
        Some(_) => "; the log ends there".to_string(),
        None => String::new(),
    };
    match f.why {
        "recompile_limit" => format!(
            "{} hit the recompile limit at {}: it runs eagerly, uncompiled, from then on{after}",
            f.frame.name, f.compile_id
        ),
        _ => {
            let then = match f.suppress_errors {
                Some(true) => "with suppress_errors on, that call ran eagerly",
                Some(false) => {
                    "suppress_errors was off: the error reached your code unless Dynamo skipped the frame for it"
                }
                None => "that call ran eagerly or the error reached your code (the log does not say which)",
            };
            format!(
                "{} failed to compile at {} ({}); {then}{after}",
                f.frame.name,
                f.compile_id,
                f.fail_type.as_deref().unwrap_or("no error type logged")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_names_only_what_was_logged() {
        assert_eq!(cost_line(&Cost::default()), None);
        let cost = Cost {
            guard_checks_measured: 2,
            guard_latency_median_us: Some(123.0),
            guard_latency_max_us: Some(125.0),
            guard_latency_max_compile: Some("0/1".into()),
            caches: CacheCounts {
                fx_graph_hits: 1,
                fx_graph_misses: 2,
                aot_autograd_bypasses: 3,
                ..CacheCounts::default()
            },
            eager_fallbacks: Vec::new(),
        };
        assert_eq!(
            cost_line(&cost).unwrap(),
            "guards: 123 µs median check (max 125 µs, 0/1); FX graph cache 1 hit / 2 misses; AOTAutograd cache 3 bypassed"
        );
    }
}
