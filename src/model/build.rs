//! Folds trace events into the compile timeline.

use super::compile_events::{apply, fill_frame, new_compile, Interned};
use super::guard_sets::SharedSets;
use super::{Compile, Frame, InputFile, Run};
use crate::input::LogSource;
use crate::input::Problems;
use crate::reasons::paths::PathResolver;
use crate::reasons::{self, GuardCache, GuardSet};
use crate::trace::{CompileRef, Event, EventData, ParseStats};
use std::collections::HashMap;
use std::sync::Arc;

/// Guard trees `take_finished` keeps per frame: a recompile's failed entry
/// is one of the frame's cached compiles, at most Dynamo's recompile limit
/// (8 by default) of the latest.
const KEPT_GUARD_TREES: u32 = 64;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct FrameKey {
    pid: u64,
    generation: u32,
    frame_id: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct CompileKey {
    frame_compile_id: Option<u32>,
    compiled_autograd_id: Option<u32>,
}

/// Builds the part of a `Run` that one log file contributes. Files are
/// independent (each process writes its own), so builders can run in
/// parallel and be merged in input order.
pub struct RunBuilder {
    rank: Option<u32>,
    year: i32,
    /// Frames in the order they first appear, found by key through
    /// `frame_index`: a map of small entries, not of whole frame states
    /// (a fleet's log holds 10^5-10^6 frames, and a map keeps spare room).
    frames: Vec<FrameState>,
    frame_index: HashMap<FrameKey, usize>,
    compiled_autograd: Vec<Compile>,
    ca_index: HashMap<(u64, u32, u32), usize>,
    generation: HashMap<u64, u32>,
    /// Attempts already started per process and generation, to spot
    /// `torch._dynamo.reset()` restarting compile ids at 0/0.
    started: HashMap<(u64, u32), std::collections::HashSet<CompileRef>>,
    envelope_rank: Option<u32>,
    /// Full paths each process's log mentions, to undo torch's shortening.
    paths: HashMap<u64, PathResolver>,
    /// Per process, its `str` table: index -> path (see `DynamoStart`).
    interned: HashMap<u64, HashMap<u64, String>>,
    /// Whether compiles get their guard tree (`Compile::guard_tree`).
    guard_trees: bool,
    /// Each distinct guard line of the file's trees parsed once, and the
    /// guard subjects and values held once: the compiles of a frame, and
    /// the processes and ranks of a job, repeat nearly all of them.
    guard_cache: GuardCache,
    /// The file's stacks and graph-break texts, one copy each.
    shared: Interned,
    sets: SharedSets,
    /// The process and time of the file's first event: which run it is.
    first: Option<(u64, f64)>,
    /// Time of the latest event: how long the log runs after a compile.
    last: Option<f64>,
}

struct FrameState {
    frame: Frame,
    index: HashMap<CompileKey, usize>,
    /// Per compile id: what its guards assumed. Compared at the end with the
    /// compiles whose reasons name it as the failed entry, then dropped.
    guards: HashMap<String, Arc<GuardSet>>,
    /// Per compile id: its guard tree's lines, for the report.
    trees: HashMap<String, String>,
}

impl RunBuilder {
    pub fn new(source: &LogSource) -> Self {
        RunBuilder {
            rank: source.rank,
            year: source.year,
            frames: Vec::new(),
            frame_index: HashMap::new(),
            compiled_autograd: Vec::new(),
            ca_index: HashMap::new(),
            generation: HashMap::new(),
            started: HashMap::new(),
            envelope_rank: None,
            paths: HashMap::new(),
            interned: HashMap::new(),
            guard_trees: true,
            guard_cache: GuardCache::default(),
            shared: Interned::default(),
            sets: SharedSets::default(),
            first: None,
            last: None,
        }
    }

    /// Builds compiles without their guard trees (`Compile::guard_tree`
    /// None): they are about half of what a compile holds, and only the
    /// HTML report shows them. Guards are still read, for the guard diffs.
    pub fn drop_guard_trees(&mut self) {
        self.guard_trees = false;
    }

    pub fn add(&mut self, mut ev: Event) {
        if self.first.is_none() {
            self.first = Some((ev.pid, ev.time.to_unix(self.year)));
        }
        if ev.rank.is_some() {
            self.envelope_rank = ev.rank;
        }
        let unix = ev.time.to_unix(self.year);
        self.last = Some(self.last.map_or(unix, |t| t.max(unix)));
        let r = ev.compile;
        match &mut ev.data {
            EventData::DynamoStart { stack, interned_files } => {
                self.note_start(ev.pid, r);
                let table = self.interned.get(&ev.pid);
                for &(i, index) in interned_files.iter() {
                    stack[i].file = table.and_then(|t| t.get(&index)).cloned();
                }
                let paths = self.paths.entry(ev.pid).or_default();
                stack
                    .iter()
                    .filter_map(|f| f.file.as_deref())
                    .for_each(|p| paths.learn(p));
            }
            EventData::InternedPath { path, index } => {
                self.paths.entry(ev.pid).or_default().learn(path);
                self.interned
                    .entry(ev.pid)
                    .or_default()
                    .insert(*index, std::mem::take(path));
                return;
            }
            EventData::CompilationMetrics(m) => {
                if let Some(file) = &m.co_filename {
                    self.paths.entry(ev.pid).or_default().learn(file);
                }
            }
            EventData::RecompileReasons(list) => {
                // Stack traces in reasons name full paths too.
                let paths = self.paths.entry(ev.pid).or_default();
                for text in list {
                    for file in text.split("File \"").skip(1).filter_map(|t| t.split('"').next()) {
                        paths.learn(file);
                    }
                }
            }
            _ => {}
        }
        let generation = self.generation.get(&ev.pid).copied().unwrap_or(0);
        let glog_unix = unix;
        let compile = match (r.frame_id, r.compiled_autograd_id) {
            (Some(frame_id), _) => {
                let key = FrameKey {
                    pid: ev.pid,
                    generation,
                    frame_id,
                };
                let rank = self.rank.or(ev.rank);
                let frames = &mut self.frames;
                let at = *self.frame_index.entry(key).or_insert_with(|| {
                    frames.push(FrameState {
                        frame: Frame {
                            rank,
                            pid: ev.pid,
                            generation,
                            frame_id,
                            function: None,
                            file: None,
                            line: None,
                            module_class: None,
                            run: 0,
                            compiles: Vec::new(),
                        },
                        index: HashMap::new(),
                        guards: HashMap::new(),
                        trees: HashMap::new(),
                    });
                    frames.len() - 1
                });
                let state = &mut self.frames[at];
                let ckey = CompileKey {
                    frame_compile_id: r.frame_compile_id,
                    compiled_autograd_id: r.compiled_autograd_id,
                };
                let i = *state.index.entry(ckey).or_insert_with(|| {
                    let compiles = &mut state.frame.compiles;
                    // Most frames compile once: room for one, not Vec's
                    // first four (a Compile is ~600 bytes; a fleet's log
                    // holds 10^5-10^6 frames).
                    if compiles.is_empty() {
                        compiles.reserve_exact(1);
                    }
                    compiles.push(new_compile(r, ev.line));
                    compiles.len() - 1
                });
                if let EventData::CompilationMetrics(m) = &ev.data {
                    fill_frame(&mut state.frame, m);
                }
                if let EventData::GuardTree(lines) = &mut ev.data {
                    let set = self.sets.share(lines, self.guard_cache.parse(lines));
                    if state.frame.module_class.is_none() {
                        state.frame.module_class = ["self", "fn", "args[0]"]
                            .iter()
                            .find_map(|root| set.root_types.get(*root))
                            .filter(|ty| !ty.starts_with("builtins.") && !is_plain_python_type(ty))
                            .cloned();
                    }
                    let id = state.frame.compiles[i].compile_id.clone();
                    state.guards.insert(id.clone(), set);
                    if self.guard_trees {
                        // Nothing after this reads the event's tree: keep it, uncopied.
                        state.trees.insert(id, std::mem::take(lines));
                    }
                }
                if let EventData::DynamoStart { stack, .. } = &ev.data {
                    // The stack names the frame being compiled; metrics, when
                    // they arrive, give the authoritative name and first line.
                    if let Some(sf) = stack.last().filter(|_| state.frame.function.is_none()) {
                        state.frame.function = sf.function.clone();
                        state.frame.file = sf.file.clone();
                    }
                }
                &mut state.frame.compiles[i]
            }
            (None, Some(ca)) => {
                let key = (ev.pid, generation, ca);
                let i = *self.ca_index.entry(key).or_insert_with(|| {
                    self.compiled_autograd.push(new_compile(r, ev.line));
                    self.compiled_autograd.len() - 1
                });
                &mut self.compiled_autograd[i]
            }
            // Events outside any compile (interned strings, runtime events).
            (None, None) => return,
        };
        apply(compile, r, ev.data, ev.line, glog_unix, &mut self.shared);
    }

    fn note_start(&mut self, pid: u64, r: CompileRef) {
        let generation = self.generation.entry(pid).or_insert(0);
        if !self.started.entry((pid, *generation)).or_default().insert(r) {
            // The same compile id and attempt started twice: ids restarted.
            *generation += 1;
            self.started.entry((pid, *generation)).or_default().insert(r);
        }
    }

    /// The compile whose `compilation_metrics` event was just added, on its
    /// own (a `Run` of one frame holding only it, finished as `finish`
    /// finishes it), for a log read while it grows (`guardscope watch`).
    /// What it held is then dropped: the builder keeps a stub (its ids) and
    /// the guard trees of its frame's latest `KEPT_GUARD_TREES` compiles,
    /// the ones a later recompile's failed entry can name.
    pub fn take_finished(&mut self, pid: u64, r: CompileRef) -> Option<Run> {
        let key = FrameKey {
            pid,
            generation: self.generation.get(&pid).copied().unwrap_or(0),
            frame_id: r.frame_id?,
        };
        let rank = self.rank.or(self.envelope_rank);
        let state = &mut self.frames[*self.frame_index.get(&key)?];
        let ckey = CompileKey {
            frame_compile_id: r.frame_compile_id,
            compiled_autograd_id: r.compiled_autograd_id,
        };
        let stub = |c: &Compile| Compile {
            compile_id: c.compile_id.clone(),
            frame_compile_id: c.frame_compile_id,
            compiled_autograd_id: c.compiled_autograd_id,
            finished: true,
            log_line: c.log_line,
            last_log_line: c.last_log_line,
            ..Compile::default()
        };
        let slot = state.frame.compiles.get_mut(*state.index.get(&ckey)?)?;
        let fresh = stub(slot);
        let mut compile = std::mem::replace(slot, fresh);
        let no_paths = PathResolver::default();
        locate_reasons(&mut compile, &state.guards, self.paths.get(&pid).unwrap_or(&no_paths));
        if let Some(n) = compile.frame_compile_id {
            let number = |id: &str| id.rsplit('/').next().and_then(|n| n.parse::<u32>().ok());
            let kept = |id: &String| number(id).is_none_or(|m| m + KEPT_GUARD_TREES > n);
            state.guards.retain(|id, _| kept(id));
            // `watch` reports no guard trees; they are kept only until then.
            state.trees.clear();
        }
        let compiles = std::mem::take(&mut state.frame.compiles);
        let mut frame = state.frame.clone();
        state.frame.compiles = compiles;
        frame.compiles = vec![compile];
        frame.rank = frame.rank.or(rank);
        Some(Run {
            frames: vec![frame],
            ..Run::default()
        })
    }

    /// A frame as the model keeps it: its reasons located, its guard trees
    /// attached, its compiles in order and without spare room.
    fn finish_frame(&self, state: FrameState, rank: Option<u32>) -> Frame {
        let mut f = state.frame;
        let no_paths = PathResolver::default();
        let paths = self.paths.get(&f.pid).unwrap_or(&no_paths);
        for c in f.compiles.iter_mut() {
            locate_reasons(c, &state.guards, paths);
        }
        super::guard_tree::attach(&mut f.compiles, &state.trees);
        f.rank = f.rank.or(rank);
        f.compiles.sort_by_key(|c| (c.compiled_autograd_id, c.frame_compile_id));
        // A compile is ~600 bytes; the room a growing vector keeps is most
        // of a frame's memory when the analysis runs.
        f.compiles.shrink_to_fit();
        f
    }

    pub fn finish(mut self, source: &LogSource, stats: ParseStats) -> Run {
        let rank = self.rank.or(self.envelope_rank);
        self.frame_index = HashMap::new();
        let states = std::mem::take(&mut self.frames);
        // Collected in place (a Frame is smaller than its state): the frames
        // reuse the states' memory rather than a second allocation beside it.
        let mut frames: Vec<Frame> = states.into_iter().map(|state| self.finish_frame(state, rank)).collect();
        frames.shrink_to_fit();
        frames.sort_by_key(|f| (f.pid, f.generation, f.frame_id));

        Run {
            inputs: vec![InputFile {
                path: source.display.to_string(),
                rank,
                pid: self.first.map(|(pid, _)| pid),
                start: self.first.map(|(_, t)| t),
                end: self.last,
                run: None,
                stats,
            }],
            frames,
            compiled_autograd: self.compiled_autograd,
            problems: Problems::default(),
            runs: Vec::new(),
        }
    }
}

/// Points each failed entry's guard at its source line, gives torch's
/// shortened paths back in full and diffs the entry's guards with the new
/// compile's, from the frame's guard trees.
fn locate_reasons(c: &mut Compile, guards: &HashMap<String, Arc<GuardSet>>, paths: &PathResolver) {
    let new = guards.get(&c.compile_id);
    for g in c.recompile_reasons.iter_mut() {
        let old = g.entry.as_ref().and_then(|e| guards.get(e));
        if let Some(old) = old {
            reasons::locate(g, &old.tensor_sites);
        }
        g.resolve_paths(paths);
        if let (Some(old), Some(new)) = (old, new) {
            g.changes = Some(old.changes_to(new));
        }
        if let Some(new) = new {
            g.now = Some(reasons::guarded_now(&g.guard, new));
        }
    }
}

/// A class that is a value, not what was compiled (a wrapper's `fn` can be
/// a plain function, its `args[0]` a tensor).
fn is_plain_python_type(ty: &str) -> bool {
    !ty.contains('.')
        || matches!(
            ty,
            "functools.partial" | "torch.Tensor" | "torch.nn.parameter.Parameter"
        )
}

/// Concatenates per-file runs in input order.
pub fn merge(parts: Vec<(Run, Problems)>) -> Run {
    let mut run = Run::default();
    for (part, problems) in parts {
        run.inputs.extend(part.inputs);
        run.frames.extend(part.frames);
        run.compiled_autograd.extend(part.compiled_autograd);
        run.problems.merge(problems);
    }
    run
}
