//! Folds trace events into the compile timeline.

use super::compile_events::{apply, fill_frame, new_compile, Interned};
use super::guard_sets::SharedSets;
use super::{Compile, Frame, InputFile, Run};
use crate::input::LogSource;
use crate::input::Problems;
use crate::reasons::paths::PathResolver;
use crate::reasons::{self, GuardCache, GuardSet};
use crate::trace::{CompileRef, Event, EventData, ParseStats};
use foldhash::fast::RandomState;
use std::collections::HashMap;
use std::sync::Arc;

mod graph;
mod growing;
mod locate;
mod receiver;

use locate::{locate_reasons, FrameGuards};

/// Builds the part of a `Run` that one log file contributes. Files are
/// independent (each process writes its own), so builders can run in
/// parallel and be merged in input order.
pub struct RunBuilder {
    rank: Option<u32>,
    year: i32,
    /// Frames in the order they first appear, found through `frame_index`
    /// (per process and generation, frame id -> index): maps of small
    /// entries, not of whole frame states (a fleet's log holds 10^5-10^6
    /// frames, and a map keeps spare room).
    frames: Vec<FrameState>,
    frame_index: HashMap<(u64, u32), HashMap<u32, u32, RandomState>, RandomState>,
    compiled_autograd: Vec<Compile>,
    ca_index: HashMap<(u64, u32, u32), usize>,
    /// Per process, how many times `torch._dynamo.reset()` restarted its
    /// compile ids (see `note_start`).
    generation: HashMap<u64, u32>,
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
    /// Only for frames whose log has guard trees, or whose compiles `watch`
    /// took: a fleet's log can hold 10^6 frames without either, and two
    /// empty maps are most of a state.
    extra: Option<Box<FrameExtra>>,
}

#[derive(Default)]
struct FrameExtra {
    /// Per compile id: what its guards assumed. Compared at the end with the
    /// compiles whose reasons name it as the failed entry, then dropped.
    sets: HashMap<String, Arc<GuardSet>>,
    /// Per compile id: its guard tree's lines, for the report.
    trees: HashMap<String, String>,
    /// Where the frame's graphs first read their inputs, in the user's code:
    /// the first compile that read an input names it.
    reads: Vec<reasons::GuardSite>,
    /// Names the frame's traced lines assign in its own file, by line.
    assigned: Vec<(u32, Box<str>)>,
    /// Per compile id: the user lines that called the library code where
    /// it added guards.
    callers: HashMap<String, Vec<locate::LibraryCaller>>,
    /// The compiles `take_finished` handed out (see there): most frames
    /// compile once.
    taken: smallvec::SmallVec<[growing::Taken; 1]>,
}

/// Where the compile `r` names sits among its frame's, searched from the
/// newest: a compile's events come together, and a frame has few compiles
/// (a map per frame cost more than the compile itself).
fn find_compile(compiles: &[Compile], r: CompileRef) -> Option<usize> {
    compiles
        .iter()
        .rposition(|c| c.frame_compile_id == r.frame_compile_id && c.compiled_autograd_id == r.compiled_autograd_id)
}

impl RunBuilder {
    pub fn new(source: &LogSource) -> Self {
        RunBuilder {
            rank: source.rank,
            year: source.year,
            frames: Vec::new(),
            frame_index: HashMap::default(),
            compiled_autograd: Vec::new(),
            ca_index: HashMap::new(),
            generation: HashMap::new(),
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

    /// Folds one event in. What the model keeps of it is copied: the event
    /// itself is left to its owner to drop (see `load::parse_beside_building`).
    pub fn add(&mut self, ev: &mut Event) {
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
            EventData::CreateSymbol {
                stack, interned_files, ..
            }
            | EventData::GuardAdded {
                user_stack: stack,
                interned_files,
            }
            | EventData::Specialized {
                user_stack: stack,
                interned_files,
                ..
            } => {
                let table = self.interned.get(&ev.pid);
                for &(i, index) in interned_files.iter() {
                    stack[i].file = table.and_then(|t| t.get(&index)).cloned();
                }
            }
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
        match (r.frame_id, r.compiled_autograd_id) {
            (Some(frame_id), _) => self.add_to_frame(ev, frame_id, generation, unix),
            (None, Some(ca)) => {
                let key = (ev.pid, generation, ca);
                let i = *self.ca_index.entry(key).or_insert_with(|| {
                    self.compiled_autograd.push(new_compile(r, ev.line));
                    self.compiled_autograd.len() - 1
                });
                apply(
                    &mut self.compiled_autograd[i],
                    r,
                    &ev.data,
                    ev.line,
                    unix,
                    &mut self.shared,
                );
            }
            // Events outside any compile (interned strings, runtime events).
            (None, None) => {}
        }
    }

    fn add_to_frame(&mut self, ev: &mut Event, frame_id: u32, generation: u32, glog_unix: f64) {
        let r = ev.compile;
        let rank = self.rank.or(ev.rank);
        let frames = &mut self.frames;
        let index = self.frame_index.entry((ev.pid, generation)).or_default();
        let at = *index.entry(frame_id).or_insert_with(|| {
            frames.push(FrameState {
                extra: None,
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
            });
            (frames.len() - 1) as u32
        });
        let state = &mut self.frames[at as usize];
        let compiles = &mut state.frame.compiles;
        let i = match find_compile(compiles, r) {
            Some(i) => i,
            // Handed out already (`watch`): nothing later is reported of it.
            None if growing::was_taken(state.extra.as_deref(), r) => return,
            None => {
                // Most frames compile once: room for one, not Vec's first
                // four (a fleet's log holds 10^5-10^6 frames).
                if compiles.is_empty() {
                    compiles.reserve_exact(1);
                }
                compiles.push(new_compile(r, ev.line));
                compiles.len() - 1
            }
        };
        if let EventData::CompilationMetrics(m) = &ev.data {
            fill_frame(&mut state.frame, m, &mut self.shared);
        }
        if let EventData::GuardTree(lines) = &mut ev.data {
            let set = self.sets.share(lines, self.guard_cache.parse(lines));
            if state.frame.module_class.is_none() {
                state.frame.module_class = receiver::compiled_class(&set).map(|ty| self.shared.text(ty));
            }
            if let Some(module) = receiver::receiver_is_module(&set, lines) {
                state.frame.compiles[i].self_is_module = Some(module);
            }
            let id = state.frame.compiles[i].compile_id.clone();
            let guards = state.extra.get_or_insert_default();
            guards.sets.insert(id.clone(), set);
            if self.guard_trees {
                // Nothing after this reads the event's tree: keep it, uncopied.
                guards.trees.insert(id, std::mem::take(lines));
            }
        }
        if let EventData::OutputGraph(g) = &ev.data {
            let extra = state.extra.get_or_insert_default();
            graph::note(g, state.frame.file.as_deref(), &mut extra.reads, &mut extra.assigned);
        }
        if let EventData::GuardAdded { user_stack, .. } = &ev.data {
            let id = &state.frame.compiles[i].compile_id;
            let extra = state.extra.get_or_insert_default();
            locate::note_callers(user_stack, extra.callers.entry(id.to_string()).or_default());
        }
        let named = state.frame.function.is_some();
        let compile = &mut state.frame.compiles[i];
        apply(compile, r, &ev.data, ev.line, glog_unix, &mut self.shared);
        if !named {
            // The stack names the frame being compiled; metrics, when
            // they arrive, give the authoritative name and first line.
            if let Some(sf) = compile.stack.last() {
                state.frame.function = sf.function.clone();
                state.frame.file = sf.file.clone();
            }
        }
    }

    /// Spots `torch._dynamo.reset()`: it restarts compile ids at 0/0, so a
    /// compile id and attempt that Dynamo starts a second time begin a new
    /// generation of the process's frames.
    fn note_start(&mut self, pid: u64, r: CompileRef) {
        let generation = self.generation.get(&pid).copied().unwrap_or(0);
        let attempt = r.attempt.unwrap_or(0);
        let started = |attempts: &[super::Attempt]| attempts.iter().any(|a| a.attempt == attempt && a.dynamo_start);
        let again = match (r.frame_id, r.compiled_autograd_id) {
            (Some(frame_id), _) => self.frame_at(pid, generation, frame_id).is_some_and(|state| {
                let compiles = &state.frame.compiles;
                match find_compile(compiles, r) {
                    Some(i) => started(&compiles[i].attempts),
                    None => growing::taken_attempts(state.extra.as_deref(), r).is_some_and(started),
                }
            }),
            (None, Some(ca)) => self
                .ca_index
                .get(&(pid, generation, ca))
                .is_some_and(|&i| started(&self.compiled_autograd[i].attempts)),
            (None, None) => false,
        };
        if again {
            *self.generation.entry(pid).or_insert(0) += 1;
        }
    }

    fn frame_at(&self, pid: u64, generation: u32, frame_id: u32) -> Option<&FrameState> {
        let at = *self.frame_index.get(&(pid, generation))?.get(&frame_id)?;
        self.frames.get(at as usize)
    }

    /// A frame as the model keeps it: its reasons located, its guard trees
    /// attached, its compiles in order and without spare room.
    fn finish_frame(&self, state: FrameState, rank: Option<u32>, carried: &[Box<str>]) -> Frame {
        let mut f = state.frame;
        let no_paths = PathResolver::default();
        let paths = self.paths.get(&f.pid).unwrap_or(&no_paths);
        let (file, function) = (f.file.as_deref().unwrap_or(""), f.function.as_deref().unwrap_or(""));
        for c in f.compiles.iter_mut() {
            locate_compile(c, state.extra.as_deref(), paths);
            graph::mark_carried(&mut c.recompile_reasons, carried, file, function);
        }
        if let Some(guards) = &state.extra {
            super::guard_tree::attach(&mut f.compiles, &guards.trees);
        }
        f.rank = f.rank.or(rank);
        f.compiles.sort_by_key(|c| (c.compiled_autograd_id, c.frame_compile_id));
        // The room a growing vector keeps would be most of a frame's memory
        // when the analysis runs.
        f.compiles.shrink_to_fit();
        f
    }

    pub fn finish(mut self, source: &LogSource, stats: ParseStats) -> Run {
        let rank = self.rank.or(self.envelope_rank);
        self.frame_index = HashMap::default();
        let states = std::mem::take(&mut self.frames);
        // What each resume function received from the code before its
        // break, looked up before the states are consumed.
        let assigned: Vec<graph::FrameAssignments> = states.iter().filter_map(frame_assignments).collect();
        let carried: Vec<Vec<Box<str>>> = states
            .iter()
            .map(|s| {
                let f = &s.frame;
                graph::carried_names(f.pid, f.generation, f.file.as_deref(), f.function.as_deref(), &assigned)
            })
            .collect();
        // Collected in place (a Frame is smaller than its state): the frames
        // reuse the states' memory rather than a second allocation beside it.
        let mut frames: Vec<Frame> = states
            .into_iter()
            .zip(&carried)
            .map(|(state, carried)| self.finish_frame(state, rank, carried))
            .collect();
        frames.shrink_to_fit();
        // Keys are unique, so an unstable sort gives the same order, in
        // place: a stable one would borrow half the frames' size again.
        frames.sort_unstable_by_key(|f| (f.pid, f.generation, f.frame_id));

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

/// What a frame's graphs assigned, for its resume functions to look up.
fn frame_assignments(state: &FrameState) -> Option<graph::FrameAssignments<'_>> {
    let f = &state.frame;
    let names = &state.extra.as_ref()?.assigned;
    if names.is_empty() {
        return None;
    }
    Some(graph::FrameAssignments {
        pid: f.pid,
        generation: f.generation,
        file: f.file.as_deref()?,
        function: f.function.as_deref()?,
        first_line: f.line.unwrap_or(0),
        names,
    })
}

/// Locates a compile's reasons with what its frame's log holds.
fn locate_compile(c: &mut Compile, extra: Option<&FrameExtra>, paths: &PathResolver) {
    let sets = |id: &str| extra.and_then(|e| e.sets.get(id)).map(|s| &**s);
    let callers = |id: &str| extra.and_then(|e| e.callers.get(id)).map(|c| c.as_slice());
    let reads = extra.map_or(&[][..], |e| &e.reads);
    let guards = FrameGuards {
        sets: &sets,
        reads,
        callers: &callers,
    };
    locate_reasons(&c.compile_id, &mut c.recompile_reasons, &guards, paths);
}
