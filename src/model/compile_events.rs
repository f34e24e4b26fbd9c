//! What each event says about the compile it names: its attempts, stack,
//! metrics, reasons, graph breaks and cache lookups.

use super::{Attempt, BackwardCompile, Breakdown, CacheCounts, Compile, Frame};
use crate::reasons;
use crate::shared::ArcSet;
use crate::trace::event::{CacheKind, CacheLookup, CacheOutcome, CompilationMetrics, StackFrame};
use crate::trace::{CompileRef, EventData};

pub(super) fn new_compile(r: CompileRef, line: u64) -> Compile {
    Compile {
        compile_id: compile_id_string(r),
        frame_compile_id: r.frame_compile_id,
        compiled_autograd_id: r.compiled_autograd_id,
        log_line: line,
        last_log_line: line,
        ..Compile::default()
    }
}

/// torch's `CompileId.__str__`.
pub fn compile_id_string(r: CompileRef) -> String {
    let frame = match (r.frame_id, r.frame_compile_id) {
        (Some(f), Some(n)) => Some(format!("{f}/{n}")),
        (Some(f), None) => Some(format!("{f}/?")),
        _ => None,
    };
    match (r.compiled_autograd_id, frame) {
        (Some(ca), Some(fr)) => format!("!{ca}/{fr}"),
        (Some(ca), None) => format!("!{ca}"),
        (None, Some(fr)) => fr,
        (None, None) => "?".to_string(),
    }
}

pub(super) fn fill_frame(frame: &mut Frame, m: &CompilationMetrics) {
    if m.co_name.is_some() {
        frame.function = m.co_name.clone();
    }
    if m.co_filename.is_some() {
        frame.file = m.co_filename.clone();
    }
    if m.co_firstlineno.is_some() {
        frame.line = m.co_firstlineno;
    }
}

/// One copy of each graph-break text and each stack of a file: the
/// processes and ranks of one job break the graph at the same lines, with
/// the same message, and compile their frames from the same call stacks.
#[derive(Default)]
pub(super) struct Interned {
    texts: ArcSet<str>,
    stacks: ArcSet<[StackFrame]>,
}

pub(super) fn apply(
    c: &mut Compile,
    r: CompileRef,
    data: EventData,
    line: u64,
    glog_unix: f64,
    interned: &mut Interned,
) {
    c.last_log_line = c.last_log_line.max(line);
    c.last_log_time = Some(c.last_log_time.map_or(glog_unix, |t| t.max(glog_unix)));
    match data {
        EventData::DynamoStart { stack, .. } => {
            let attempt = r.attempt.unwrap_or(0);
            if c.stack.is_empty() {
                c.stack = interned.stacks.share(stack);
            }
            if !c.attempts.iter().any(|a| a.attempt == attempt) {
                // Nearly every compile has one attempt: room for one.
                if c.attempts.is_empty() {
                    c.attempts.reserve_exact(1);
                }
                c.attempts.push(Attempt {
                    attempt,
                    start: Some(glog_unix),
                    log_line: line,
                });
                c.attempts.sort_by_key(|a| a.attempt);
            }
            if c.start.is_none() {
                c.start = Some(glog_unix);
            }
        }
        EventData::CompilationMetrics(m) => apply_metrics(c, &m),
        EventData::BwdCompilationMetrics(m) => {
            let us = |v: Option<u64>| v.map(|x| x as f64 / 1e6);
            c.backward = Some(BackwardCompile {
                duration_s: us(m.backward_cumulative_compile_time_us).or(us(m.duration_us)),
                inductor_s: m.inductor_compile_time_s.or(us(m.inductor_cumulative_compile_time_us)),
                code_gen_s: m.code_gen_time_s.or(us(m.inductor_code_gen_cumulative_compile_time_us)),
                failed: m.fail_type.is_some(),
                fail_reason: m.fail_reason.clone().or(m.fail_type.clone()),
            });
        }
        EventData::RecompileReasons(list) => {
            c.recompile_reasons = list.iter().map(|r| reasons::split(r)).collect();
        }
        EventData::GraphBreak(text) => c.graph_breaks.push(interned.texts.share(text)),
        EventData::GuardAdded => c.guards_added += 1,
        EventData::DeclaredRange { source, range } => {
            c.declared_ranges
                .push((crate::reasons::culprit::canonical(&source), range));
        }
        EventData::CacheLookup(lookup) => count_lookup(&mut c.caches, lookup),
        EventData::GuardTree(_) | EventData::InternedPath { .. } | EventData::Seen => {}
    }
    // Every event proves at least the attempt it names happened, including
    // refused compiles that never log `dynamo_start`. Dynamo logs
    // `dynamo_start` once per compile, not per restart: a restarted
    // attempt starts at its first event.
    if let Some(a) = r.attempt {
        if !c.attempts.iter().any(|x| x.attempt == a) && r.frame_id.is_some() {
            c.attempts.push(Attempt {
                attempt: a,
                start: (a > 0).then_some(glog_unix),
                log_line: line,
            });
            c.attempts.sort_by_key(|x| x.attempt);
        }
    }
}

fn apply_metrics(c: &mut Compile, m: &CompilationMetrics) {
    let us = |v: Option<u64>| v.map(|x| x as f64 / 1e6);
    c.finished = true;
    // compilation_metrics.start_time is real unix time; the glog time has no
    // year or zone, so prefer this whenever torch logged it.
    if let Some(t) = m.start_time.or(us(m.start_time_us)) {
        c.start = Some(t);
    }
    c.duration_s = m
        .entire_frame_compile_time_s
        .or(us(m.duration_us))
        .or(us(m.dynamo_cumulative_compile_time_us));
    c.breakdown = Breakdown {
        entire_frame_s: c.duration_s,
        backend_s: m
            .backend_compile_time_s
            .or(us(m.aot_autograd_cumulative_compile_time_us)),
        inductor_s: m.inductor_compile_time_s.or(us(m.inductor_cumulative_compile_time_us)),
        code_gen_s: m.code_gen_time_s.or(us(m.inductor_code_gen_cumulative_compile_time_us)),
    };
    c.guard_count = m.guard_count;
    c.guard_latency_us = m.guard_latency_us;
    c.suppress_errors = m.config_suppress_errors;
    c.caches.remote_hits =
        m.inductor_fx_remote_cache_hit_count.unwrap_or(0) + m.aotautograd_remote_cache_hit_count.unwrap_or(0);
    c.caches.remote_misses =
        m.inductor_fx_remote_cache_miss_count.unwrap_or(0) + m.aotautograd_remote_cache_miss_count.unwrap_or(0);
    c.automatic_dynamic = m.dynamo_flag("automatic_dynamic_shapes");
    c.graph_op_count = m.graph_op_count;
    c.fail_type = m.fail_type.clone();
    c.fail_reason = m.fail_reason.clone();
    c.failed = m.fail_type.is_some();
    // `fullgraph=True` at the limit raises with a reason that names only
    // fullgraph ("Hard failure due to fullgraph=True"): the type says limit.
    c.cache_limit = m.fail_reason.as_deref().is_some_and(is_cache_limit_reason)
        || m.fail_type
            .as_deref()
            .is_some_and(|t| t.contains("FailOnRecompileLimitHit"));
    if let Some(r) = &m.restart_reasons {
        c.restart_reasons = r.clone();
    }
}

fn count_lookup(counts: &mut CacheCounts, lookup: CacheLookup) {
    let slot = match (lookup.cache, lookup.outcome) {
        (CacheKind::FxGraph, CacheOutcome::Hit) => &mut counts.fx_graph_hits,
        (CacheKind::FxGraph, CacheOutcome::Miss) => &mut counts.fx_graph_misses,
        (CacheKind::FxGraph, CacheOutcome::Bypass) => &mut counts.fx_graph_bypasses,
        (CacheKind::AotAutograd, CacheOutcome::Hit) => &mut counts.aot_autograd_hits,
        (CacheKind::AotAutograd, CacheOutcome::Miss) => &mut counts.aot_autograd_misses,
        (CacheKind::AotAutograd, CacheOutcome::Bypass) => &mut counts.aot_autograd_bypasses,
    };
    *slot += 1;
}

/// Dynamo's refusal message changed names with the config option
/// (`cache_size_limit` -> `recompile_limit`).
pub fn is_cache_limit_reason(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("recompile limit exceeded")
        || r.contains("cache_size_limit")
        || r.contains("cache size limit")
        || r.contains("fail_on_recompile_limit_hit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_id_strings_match_torch() {
        let r = |f, n, ca| CompileRef {
            frame_id: f,
            frame_compile_id: n,
            attempt: Some(0),
            compiled_autograd_id: ca,
        };
        assert_eq!(compile_id_string(r(Some(0), Some(2), None)), "0/2");
        assert_eq!(compile_id_string(r(Some(3), Some(0), Some(1))), "!1/3/0");
        assert_eq!(compile_id_string(r(None, None, Some(0))), "!0");
    }

    #[test]
    fn cache_limit_wordings() {
        assert!(is_cache_limit_reason("Dynamo recompile limit exceeded"));
        assert!(is_cache_limit_reason("cache_size_limit reached"));
        assert!(!is_cache_limit_reason("Unsupported: call_function"));
    }
}
