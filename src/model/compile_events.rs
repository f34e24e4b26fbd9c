//! What each event says about the compile it names: its attempts, stack,
//! metrics, reasons, graph breaks and cache lookups.

use super::{Attempt, BackwardCompile, CacheCounts, Compile, Frame, Phases, Specialization, StackFrame};
use crate::reasons;
use crate::shared::ArcSet;
use crate::trace::event::{self, CacheKind, CacheLookup, CacheOutcome, CompilationMetrics};
use crate::trace::{CompileRef, EventData};
use std::sync::Arc;

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

pub(super) fn fill_frame(frame: &mut Frame, m: &CompilationMetrics, interned: &mut Interned) {
    if let Some(name) = &m.co_name {
        frame.function = Some(interned.text(name));
    }
    if let Some(file) = &m.co_filename {
        frame.file = Some(interned.text(file));
    }
    if m.co_firstlineno.is_some() {
        frame.line = m.co_firstlineno;
    }
}

/// One copy of each text and each stack of a file: the processes and ranks
/// of one job compile the same functions from the same call stacks, and
/// break the graph at the same lines with the same message.
///
/// What the model keeps is copied here, on the builder's thread, rather
/// than kept as the parser made it: a string the parser's thread allocated
/// and the model holds pins that thread's heap pages, most of them full
/// of events long freed (1M frames: 0.3 GB of RSS).
#[derive(Default)]
pub(super) struct Interned {
    texts: ArcSet<str>,
    stacks: ArcSet<[StackFrame]>,
    /// Values held after the last `release_unused`.
    held: usize,
}

impl Interned {
    /// Lets go of the values no compile holds any more (`watch` drops each
    /// compile once it is reported), whenever the sets have doubled since
    /// the last time: a constant share of the work of adding them.
    pub(super) fn release_unused(&mut self) {
        let now = self.texts.len() + self.stacks.len();
        if now > 2 * self.held.max(1024) {
            self.texts.release_unused();
            self.stacks.release_unused();
            self.held = self.texts.len() + self.stacks.len();
        }
    }

    pub(super) fn text(&mut self, text: &str) -> Arc<str> {
        self.texts.share(text)
    }

    fn stack(&mut self, stack: &[event::StackFrame]) -> Arc<[StackFrame]> {
        let frames: Vec<StackFrame> = stack.iter().map(|f| self.frame(f)).collect();
        self.stacks.share(frames)
    }

    fn frame(&mut self, f: &event::StackFrame) -> StackFrame {
        let mut text = |t: &Option<String>| t.as_deref().map(|t| self.texts.share(t));
        StackFrame {
            file: text(&f.file),
            line: f.line,
            function: text(&f.function),
            code: text(&f.code),
        }
    }
}

/// The user's frame that made the call Dynamo intercepted, on a stack
/// logged inside the compile: the innermost user frame before Dynamo starts
/// compiling (`_dynamo/convert_frame.py`), past torch's wrappers of the
/// user's functions (`torch.no_grad()` as a decorator, a module's
/// `__call__`, the compiled callable's own wrapper) and a library's (a
/// Trainer's loop). An outer compiled function's frames above it (a block
/// compiled on its own, called from a forward that runs eagerly) are the
/// user's code that led there, not the call. Without Dynamo's frames on
/// the stack: the innermost user frame before the first torch frame.
fn user_caller(stack: &[event::StackFrame]) -> Option<&event::StackFrame> {
    use crate::reasons::paths::{owner, Owner};
    let is = |f: &event::StackFrame, who: Owner| f.file.as_deref().is_some_and(|p| owner(p) == who);
    let dynamo = |f: &event::StackFrame| {
        f.file
            .as_deref()
            .is_some_and(|p| p.replace('\\', "/").contains("torch/_dynamo/convert_frame.py"))
    };
    let end = match stack.iter().position(dynamo) {
        Some(at) => at,
        None => stack.iter().position(|f| is(f, Owner::Torch))?,
    };
    stack[..end].iter().rev().find(|f| is(f, Owner::User))
}

pub(super) fn apply(
    c: &mut Compile,
    r: CompileRef,
    data: &EventData,
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
                c.stack = interned.stack(stack);
            }
            match c.attempts.iter_mut().find(|a| a.attempt == attempt) {
                Some(a) => a.dynamo_start = true,
                None => {
                    c.attempts.push(Attempt {
                        attempt,
                        start: Some(glog_unix),
                        log_line: line,
                        dynamo_start: true,
                    });
                    c.attempts.sort_by_key(|a| a.attempt);
                }
            }
            if c.start.is_none() {
                c.start = Some(glog_unix);
            }
        }
        EventData::CompilationMetrics(m) => apply_metrics(c, m, interned),
        EventData::BwdCompilationMetrics(m) => {
            let us = |v: Option<u64>| v.map(|x| x as f64 / 1e6);
            c.backward = Some(Box::new(BackwardCompile {
                duration_s: us(m.backward_cumulative_compile_time_us).or(us(m.duration_us)),
                inductor_s: m.inductor_compile_time_s.or(us(m.inductor_cumulative_compile_time_us)),
                code_gen_s: m.code_gen_time_s.or(us(m.inductor_code_gen_cumulative_compile_time_us)),
                failed: m.fail_type.is_some(),
                fail_reason: m
                    .fail_reason
                    .as_ref()
                    .or(m.fail_type.as_ref())
                    .map(|t| interned.text(t)),
            }));
        }
        EventData::RecompileReasons(list) => {
            c.recompile_reasons = list.iter().map(|r| reasons::split(r)).collect();
        }
        EventData::GraphBreak(text) => c.graph_breaks.push(interned.text(text)),
        EventData::GuardAdded { .. } => c.guards_added += 1,
        EventData::CreateSymbol { declared, stack, .. } => {
            if let Some((source, range)) = declared {
                c.declared_ranges
                    .push((crate::reasons::culprit::canonical(source), range.clone()));
            }
            let symbols = c.symbols.get_or_insert_default();
            if symbols.caller.is_none() {
                symbols.caller = user_caller(stack).map(|f| Arc::new(interned.frame(f)));
            }
        }
        EventData::Specialized {
            sources,
            value,
            user_stack,
            ..
        } => {
            let at = user_stack.last().map(|f| Arc::new(interned.frame(f)));
            let symbols = c.symbols.get_or_insert_default();
            for source in sources {
                symbols.specialized.push(Specialization {
                    source: crate::reasons::culprit::canonical(source),
                    value: value.clone(),
                    at: at.clone(),
                });
            }
        }
        EventData::CacheLookup(lookup) => count_lookup(c.cache_lookups.get_or_insert_default(), *lookup),
        EventData::GuardTree(_) | EventData::OutputGraph(_) | EventData::InternedPath { .. } | EventData::Seen => {}
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
                dynamo_start: false,
            });
            c.attempts.sort_by_key(|x| x.attempt);
        }
    }
}

fn apply_metrics(c: &mut Compile, m: &CompilationMetrics, interned: &mut Interned) {
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
    let phases = Phases {
        backend_s: m
            .backend_compile_time_s
            .or(us(m.aot_autograd_cumulative_compile_time_us)),
        inductor_s: m.inductor_compile_time_s.or(us(m.inductor_cumulative_compile_time_us)),
        code_gen_s: m.code_gen_time_s.or(us(m.inductor_code_gen_cumulative_compile_time_us)),
    };
    c.phases = (phases != Phases::default()).then(|| Box::new(phases));
    c.guard_count = m.guard_count;
    c.guard_latency_us = m.guard_latency_us;
    c.suppress_errors = m.config_suppress_errors;
    let remote_hits =
        m.inductor_fx_remote_cache_hit_count.unwrap_or(0) + m.aotautograd_remote_cache_hit_count.unwrap_or(0);
    let remote_misses =
        m.inductor_fx_remote_cache_miss_count.unwrap_or(0) + m.aotautograd_remote_cache_miss_count.unwrap_or(0);
    if remote_hits + remote_misses > 0 || c.cache_lookups.is_some() {
        let caches = c.cache_lookups.get_or_insert_default();
        caches.remote_hits = remote_hits;
        caches.remote_misses = remote_misses;
    }
    c.automatic_dynamic = m.dynamo_flag("automatic_dynamic_shapes");
    c.torch_minor = m.pytorch_version.as_deref().and_then(|v| {
        let mut parts = v.split(['.', '+']);
        (parts.next()? == "2")
            .then(|| parts.next()?.parse::<std::num::NonZeroU8>().ok())
            .flatten()
    });
    c.recompile_limit = m
        .dynamo_number("recompile_limit")
        .or_else(|| m.dynamo_number("cache_size_limit"))
        .and_then(|n| std::num::NonZeroU8::new(u8::try_from(n).unwrap_or(u8::MAX)));
    c.graph_op_count = m.graph_op_count;
    c.fail_type = m.fail_type.as_deref().map(|t| interned.text(t));
    c.fail_reason = m.fail_reason.as_deref().map(|t| interned.text(t));
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
