//! Typed events: the envelope kinds guardscope reads, decoded into structs.
//! Kinds it only counts never become an `Event`.

use super::envelope::CompileRef;
use super::glog::LogTime;
use serde::Deserialize;

#[derive(Debug, Clone)]
pub struct Event {
    /// Line of the envelope in its file.
    pub line: u64,
    pub time: LogTime,
    pub pid: u64,
    /// Rank from the envelope itself; the file name's rank is applied later.
    pub rank: Option<u32>,
    pub compile: CompileRef,
    pub data: EventData,
}

#[derive(Debug, Clone)]
pub enum EventData {
    /// Dynamo began (an attempt of) a compile. `stack` runs outermost first;
    /// its last entry is the compiled frame, the ones before it its callers
    /// (the user's training loop among them).
    DynamoStart {
        stack: Vec<StackFrame>,
        /// Frames whose `filename` is an index into the process's `str`
        /// table, as (frame, index): the builder resolves them, because it
        /// sees the table's entries in file order and a parser of one chunk
        /// of a file sees only its own.
        interned_files: Vec<(usize, u64)>,
    },
    /// A file name the process interned (`{"str": [path, index]}`): a full
    /// path, which resolves the shortened paths of guard comments and the
    /// `dynamo_start` frames that name the file by its index.
    InternedPath {
        path: String,
        index: u64,
    },
    CompilationMetrics(Box<CompilationMetrics>),
    BwdCompilationMetrics(Box<BwdCompilationMetrics>),
    /// One raw reason per cache entry whose guards failed.
    RecompileReasons(Vec<String>),
    GraphBreak(String),
    /// The guard lines of a compile's guard tree (`dynamo_cpp_guards_str`)
    /// that carry a value or a root object's type: what the compile assumed.
    GuardTree(String),
    /// Where the compile's graph first read each input, and the names its
    /// traced lines assign (`dynamo_output_graph`).
    OutputGraph(Box<super::graph_reads::GraphSummary>),
    /// A guard Dynamo added (`guard_added`, `guard_added_fast`), with the
    /// traced code's stack where it was added (`user_stack`: the user's
    /// frames and the library or torch code they called, outermost first,
    /// files interned as in `DynamoStart`). Empty when the event has none.
    GuardAdded {
        user_stack: Vec<StackFrame>,
        interned_files: Vec<(usize, u64)>,
    },
    /// A dynamic dim created (`create_symbol`). `declared`: its source and
    /// range when the range is not a default one (`[2, int_oo]`), i.e. what
    /// the user declared with `mark_dynamic(x, d, min=, max=)`. `stack`: the
    /// Python stack at that moment, outermost first, files interned as in
    /// `DynamoStart`; unlike `dynamo_start`'s for a decorated function, it
    /// holds the user's line that called the compiled code.
    CreateSymbol {
        declared: Option<(String, String)>,
        stack: Vec<StackFrame>,
        interned_files: Vec<(usize, u64)>,
    },
    /// A symbol fixed to one value while tracing
    /// (`symbolic_shape_specialization`): the sources it stood for (`L['x']
    /// .size()[0]`, `L['k']`), the value, and the traced code's stack where
    /// the code needed it as a number (`user_stack`, outermost first, files
    /// interned as in `DynamoStart`).
    Specialized {
        sources: Vec<String>,
        value: String,
        user_stack: Vec<StackFrame>,
        interned_files: Vec<(usize, u64)>,
    },
    /// A compile cache lookup (`fx_graph_cache_hit`, `aotautograd_cache_miss`
    /// artifacts; their payload, the cache key's details, is not read).
    CacheLookup(CacheLookup),
    /// Any other event naming a compile: proof the compile (attempt) exists,
    /// even if the log ends before anything guardscope decodes.
    Seen,
}

impl Event {
    /// About the memory the event holds, its strings included: what the
    /// parts of a file parsed ahead of the builder account for
    /// (`load::parts`). An estimate: allocator overheads are left out.
    pub fn held_bytes(&self) -> usize {
        let text = |t: &Option<String>| t.as_ref().map_or(0, String::len);
        let texts = |v: &[String]| v.iter().map(|t| size_of::<String>() + t.len()).sum::<usize>();
        let frames = |stack: &[StackFrame], interned_files: &[(usize, u64)]| {
            stack
                .iter()
                .map(|f| size_of::<StackFrame>() + text(&f.file) + text(&f.function) + text(&f.code))
                .sum::<usize>()
                + size_of_val(interned_files)
        };
        size_of::<Event>()
            + match &self.data {
                EventData::DynamoStart { stack, interned_files } => frames(stack, interned_files),
                EventData::CreateSymbol {
                    declared,
                    stack,
                    interned_files,
                } => frames(stack, interned_files) + declared.as_ref().map_or(0, |(s, r)| s.len() + r.len()),
                EventData::GuardAdded {
                    user_stack,
                    interned_files,
                } => frames(user_stack, interned_files),
                EventData::Specialized {
                    sources,
                    value,
                    user_stack,
                    interned_files,
                } => frames(user_stack, interned_files) + texts(sources) + value.len(),
                EventData::InternedPath { path, .. } => path.len(),
                EventData::CompilationMetrics(m) => {
                    size_of::<CompilationMetrics>()
                        + [
                            &m.co_name,
                            &m.co_filename,
                            &m.fail_type,
                            &m.fail_reason,
                            &m.dynamo_config,
                            &m.recompile_reason,
                        ]
                        .into_iter()
                        .map(text)
                        .sum::<usize>()
                        + m.restart_reasons.as_deref().map_or(0, texts)
                }
                EventData::BwdCompilationMetrics(m) => {
                    size_of::<BwdCompilationMetrics>() + text(&m.fail_type) + text(&m.fail_reason)
                }
                EventData::RecompileReasons(list) => texts(list),
                EventData::GraphBreak(t) | EventData::GuardTree(t) => t.len(),
                EventData::OutputGraph(g) => {
                    let reads: usize = g
                        .reads
                        .iter()
                        .map(|r| size_of_val(r) + r.input.len() + r.site.len() + text(&r.code))
                        .sum();
                    let assigned: usize = g
                        .assigned
                        .iter()
                        .map(|a| size_of_val(a) + a.file.len() + a.name.len())
                        .sum();
                    size_of_val(&**g) + reads + assigned
                }
                EventData::CacheLookup(_) | EventData::Seen => 0,
            }
    }
}

/// Which compile cache an artifact names, and what the lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLookup {
    pub cache: CacheKind,
    pub outcome: CacheOutcome,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheKind {
    FxGraph,
    AotAutograd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    Hit,
    Miss,
    /// The graph could not be cached (an op or input the cache refuses).
    Bypass,
}

impl CacheLookup {
    /// The lookup an artifact name records, if it is one.
    pub fn from_artifact(name: &str) -> Option<CacheLookup> {
        let (cache, rest) = if let Some(rest) = name.strip_prefix("fx_graph_cache_") {
            (CacheKind::FxGraph, rest)
        } else {
            (CacheKind::AotAutograd, name.strip_prefix("aotautograd_cache_")?)
        };
        let outcome = match rest {
            "hit" => CacheOutcome::Hit,
            "miss" => CacheOutcome::Miss,
            "bypass" => CacheOutcome::Bypass,
            _ => return None,
        };
        Some(CacheLookup { cache, outcome })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct StackFrame {
    pub file: Option<String>,
    pub line: Option<u32>,
    pub function: Option<String>,
    /// The source line as Dynamo quotes it (`loc`).
    pub code: Option<String>,
}

/// The `compilation_metrics` fields guardscope uses. Field names changed over
/// torch versions, so every one is optional and the model picks what exists.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct CompilationMetrics {
    pub co_name: Option<String>,
    pub co_filename: Option<String>,
    pub co_firstlineno: Option<u32>,
    pub start_time: Option<f64>,
    pub start_time_us: Option<u64>,
    pub entire_frame_compile_time_s: Option<f64>,
    pub duration_us: Option<u64>,
    pub dynamo_cumulative_compile_time_us: Option<u64>,
    pub backend_compile_time_s: Option<f64>,
    pub aot_autograd_cumulative_compile_time_us: Option<u64>,
    pub inductor_compile_time_s: Option<f64>,
    pub inductor_cumulative_compile_time_us: Option<u64>,
    pub code_gen_time_s: Option<f64>,
    pub inductor_code_gen_cumulative_compile_time_us: Option<u64>,
    pub guard_count: Option<u64>,
    pub shape_env_guard_count: Option<u64>,
    pub graph_op_count: Option<u64>,
    pub graph_node_count: Option<u64>,
    pub graph_input_count: Option<u64>,
    pub fail_type: Option<String>,
    pub fail_reason: Option<String>,
    pub fail_user_frame_filename: Option<String>,
    pub fail_user_frame_lineno: Option<u32>,
    pub restart_reasons: Option<Vec<String>>,
    pub recompile_reason: Option<String>,
    pub cache_size: Option<u64>,
    pub accumulated_cache_size: Option<u64>,
    pub recompile_user_contexts: Option<serde_json::Value>,
    /// The torch that compiled (`2.15.0+cu132`).
    pub pytorch_version: Option<String>,
    /// Dynamo's config as a JSON string (torch >= 2.4).
    pub dynamo_config: Option<String>,
    /// Time to evaluate the new entry's guards once, measured by Dynamo
    /// right after the compile (torch >= 2.6; an integer there, read as a
    /// float in case a version logs fractions).
    pub guard_latency_us: Option<f64>,
    /// Dynamo's `suppress_errors`: whether a failed compile's call ran eagerly.
    pub config_suppress_errors: Option<bool>,
    /// Remote (shared) cache lookups; the local ones are also logged as
    /// `*_cache_hit` / `*_cache_miss` artifacts, which guardscope counts.
    pub inductor_fx_remote_cache_hit_count: Option<u64>,
    pub inductor_fx_remote_cache_miss_count: Option<u64>,
    pub aotautograd_remote_cache_hit_count: Option<u64>,
    pub aotautograd_remote_cache_miss_count: Option<u64>,
}

impl CompilationMetrics {
    /// A whole number of the compile's Dynamo config (`recompile_limit`;
    /// a `torch.compile(..., recompile_limit=)` shows there too).
    pub fn dynamo_number(&self, name: &str) -> Option<u64> {
        let config = self.dynamo_config.as_deref()?;
        let at = config.find(&format!("\"{name}\": "))? + name.len() + 4;
        config[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    }

    /// A boolean of the compile's Dynamo config, when the log carries it.
    pub fn dynamo_flag(&self, name: &str) -> Option<bool> {
        let config = self.dynamo_config.as_deref()?;
        let at = config.find(&format!("\"{name}\": "))? + name.len() + 4;
        let rest = &config[at..];
        if rest.starts_with("true") {
            Some(true)
        } else if rest.starts_with("false") {
            Some(false)
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct BwdCompilationMetrics {
    pub backward_cumulative_compile_time_us: Option<u64>,
    pub duration_us: Option<u64>,
    pub inductor_compile_time_s: Option<f64>,
    pub code_gen_time_s: Option<f64>,
    pub inductor_cumulative_compile_time_us: Option<u64>,
    pub inductor_code_gen_cumulative_compile_time_us: Option<u64>,
    pub fail_type: Option<String>,
    pub fail_reason: Option<String>,
}

/// Decodes the `recompile_reasons` payload. It is declared JSON, but torch
/// writes a single reason as a bare string and several as a JSON list.
pub fn decode_recompile_reasons(payload: &str) -> Vec<String> {
    match serde_json::from_str::<serde_json::Value>(payload) {
        Ok(serde_json::Value::Array(items)) => items
            .into_iter()
            .map(|v| match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            })
            .collect(),
        Ok(serde_json::Value::String(s)) => vec![s],
        _ if payload.trim().is_empty() => Vec::new(),
        _ => vec![payload.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recompile_reasons_bare_string_and_list() {
        assert_eq!(
            decode_recompile_reasons("0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"),
            vec!["0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"]
        );
        assert_eq!(
            decode_recompile_reasons(r#"["0/1: a == 1", "0/0: b"]"#),
            vec!["0/1: a == 1", "0/0: b"]
        );
        assert_eq!(decode_recompile_reasons(r#""quoted""#), vec!["quoted"]);
        assert!(decode_recompile_reasons("").is_empty());
    }

    #[test]
    fn cache_artifact_names() {
        let l = CacheLookup::from_artifact;
        assert_eq!(
            l("fx_graph_cache_hit"),
            Some(CacheLookup {
                cache: CacheKind::FxGraph,
                outcome: CacheOutcome::Hit
            })
        );
        assert_eq!(
            l("aotautograd_cache_bypass"),
            Some(CacheLookup {
                cache: CacheKind::AotAutograd,
                outcome: CacheOutcome::Bypass
            })
        );
        assert_eq!(l("fx_graph_cache_hash"), None);
        assert_eq!(l("recompile_reasons"), None);
    }

    #[test]
    fn metrics_tolerate_missing_and_unknown_fields() {
        let m: CompilationMetrics =
            serde_json::from_str(r#"{"co_name": "f", "new_field_from_torch_3": [1], "guard_count": null}"#).unwrap();
        assert_eq!(m.co_name.as_deref(), Some("f"));
        assert_eq!(m.guard_count, None);
    }
}
