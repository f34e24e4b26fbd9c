//! A recompile or a graph break read from text, as the events a TORCH_TRACE
//! log holds for it, so that the model and everything after it read both
//! kinds of log alike. Only what the text says goes in: a frame's name and
//! first line, the reasons, the refusal at the limit, and the guard sets
//! when `TORCH_LOGS=guards` printed them; no times or stacks, which only
//! TORCH_TRACE records.

use super::block::Block;
use crate::trace::envelope::CompileRef;
use crate::trace::event::{CompilationMetrics, Event, EventData, StackFrame};
use crate::trace::glog::LogTime;
use std::collections::{HashMap, HashSet};

/// Glog's time when the text has none (a pasted block): the model orders
/// nothing by it.
const NO_TIME: LogTime = LogTime {
    month: 1,
    day: 1,
    seconds_of_day: 0.0,
};

/// A frame as a recompile's header names it: function, file, first line.
type Named = (Option<String>, Option<String>, Option<u32>);

/// What the reader of one file remembers between blocks.
#[derive(Default)]
pub struct Emitter {
    /// Compiles whose start has been emitted, per process: a second start
    /// of one id would read as `torch._dynamo.reset()`.
    started: HashSet<(u64, u32, u32)>,
    /// A pasted header without an id or reasons: its frame, by its code.
    by_code: HashMap<(String, Option<u32>), (u32, u32)>,
    /// The frames ranked lines recompiled (`[rank1]:`), by id: what the
    /// ranks that logged none of them compiled once (see `quiet_ranks`).
    ranked_frames: std::collections::BTreeMap<u32, Named>,
    /// (rank, frame id) of every frame emitted for a rank.
    rank_frames: HashSet<(u32, u32)>,
    /// Guard trees of compiles not (yet) in the model, by process, frame
    /// and compile: a frame's first compile prints its tree before any
    /// recompile names the frame. A frame that never recompiles is not
    /// in a text log, and neither is its tree.
    trees: HashMap<(u64, u32, u32), super::guards::Tree>,
    /// Guard trees handed on.
    pub trees_given: u64,
}

/// Guard trees held for compiles no recompile has named yet, at most.
const TREES_HELD: usize = 4096;

/// The process a line is counted to: its pid, or without a glog prefix
/// its rank (`[rank1]:` lines of one job are one process per rank).
fn process(pid: Option<u64>, rank: Option<u32>) -> u64 {
    pid.unwrap_or_else(|| rank.map_or(0, u64::from))
}

impl Emitter {
    pub fn block(&mut self, b: Block, out: &mut dyn FnMut(Event)) {
        let pid = process(b.origin.pid, b.origin.rank);
        let Some(r) = b.compile_ref().or_else(|| self.by_code(&b)) else {
            return;
        };
        let Some(frame_id) = r.frame_id else {
            return;
        };
        let event = |compile: CompileRef, data: EventData| Event {
            line: b.origin.line,
            time: b.origin.time.unwrap_or(NO_TIME),
            pid,
            rank: b.origin.rank,
            compile,
            data,
        };
        let named = |fail: Option<(&str, &str)>| {
            EventData::CompilationMetrics(Box::new(CompilationMetrics {
                co_name: b.function.clone(),
                co_filename: b.file.clone(),
                co_firstlineno: b.first_line,
                fail_type: fail.map(|(t, _)| t.to_string()),
                fail_reason: fail.map(|(_, why)| why.to_string()),
                ..CompilationMetrics::default()
            }))
        };
        let start = || EventData::DynamoStart {
            stack: vec![StackFrame {
                file: b.file.clone(),
                line: b.first_line,
                function: b.function.clone(),
                code: None,
            }],
            interned_files: Vec::new(),
        };
        // A recompile proves its frame compiled before: that first compile
        // is in the log only as the entry the reasons name.
        if let Some(rank) = b.origin.rank {
            self.rank_frames.insert((rank, frame_id));
            let named = (b.function.clone(), b.file.clone(), b.first_line);
            self.ranked_frames.entry(frame_id).or_insert(named);
        }
        if r.frame_compile_id != Some(0) && self.started.insert((pid, frame_id, 0)) {
            let first = CompileRef {
                frame_compile_id: Some(0),
                attempt: Some(0),
                ..r
            };
            out(event(first, start()));
            // Its tree before its metrics: `watch -` takes a compile as
            // finished at those.
            self.held_tree(pid, frame_id, 0, out);
            out(event(first, named(None)));
        }
        if !b.refused && self.started.insert((pid, frame_id, r.frame_compile_id.unwrap_or(0))) {
            out(event(r, start()));
            self.held_tree(pid, frame_id, r.frame_compile_id.unwrap_or(0), out);
        }
        if !b.reasons.is_empty() {
            out(event(r, EventData::RecompileReasons(b.reasons.clone())));
        }
        let fail = match (b.refused, b.hard_failure) {
            (_, true) => Some((
                "FailOnRecompileLimitHit",
                "Dynamo recompile limit exceeded (read from text)",
            )),
            (true, false) => Some(("Unsupported", "Dynamo recompile limit exceeded (read from text)")),
            _ => None,
        };
        out(event(r, named(fail)));
        // A tree that came after its compile's start (graph break lines
        // started it) still belongs to it.
        for compile in [0, r.frame_compile_id.unwrap_or(0)] {
            self.held_tree(pid, frame_id, compile, out);
        }
    }

    /// A compile's guard tree (`[__guards]`): handed on once its compile is
    /// in the model, held until then.
    pub fn guard_tree(&mut self, tree: super::guards::Tree, out: &mut dyn FnMut(Event)) {
        let Some(frame_id) = tree.compile.frame_id else {
            return;
        };
        let pid = process(tree.origin.pid, tree.origin.rank);
        let id = (pid, frame_id, tree.compile.frame_compile_id.unwrap_or(0));
        if self.trees.len() < TREES_HELD || self.trees.contains_key(&id) {
            self.trees.insert(id, tree);
        }
        if self.started.contains(&id) {
            self.held_tree(pid, frame_id, id.2, out);
        }
    }

    fn held_tree(&mut self, pid: u64, frame_id: u32, compile: u32, out: &mut dyn FnMut(Event)) {
        let Some(tree) = self.trees.remove(&(pid, frame_id, compile)) else {
            return;
        };
        self.trees_given += 1;
        out(Event {
            line: tree.origin.line,
            time: tree.origin.time.unwrap_or(NO_TIME),
            pid,
            rank: tree.origin.rank,
            compile: tree.compile,
            data: EventData::GuardTree(tree.text),
        });
    }

    /// Each rank of the job (`[rankN]:` lines, with the process each
    /// rank's glog prefix names) that logged no recompile of a frame
    /// another rank recompiled compiled it once: TORCH_LOGS is the same
    /// for every rank, so a rank's silence is its single compile. This is
    /// what tells a rank that recompiled alone (a rank-divergent input).
    pub fn quiet_ranks(&mut self, ranks: &std::collections::BTreeMap<u32, Option<u64>>, out: &mut dyn FnMut(Event)) {
        for (&frame_id, (function, file, first_line)) in &self.ranked_frames {
            for (&rank, &pid) in ranks {
                if self.rank_frames.contains(&(rank, frame_id)) {
                    continue;
                }
                let compile = CompileRef {
                    frame_id: Some(frame_id),
                    frame_compile_id: Some(0),
                    attempt: Some(0),
                    compiled_autograd_id: None,
                };
                let event = |data| Event {
                    line: 0,
                    time: NO_TIME,
                    pid: process(pid, Some(rank)),
                    rank: Some(rank),
                    compile,
                    data,
                };
                out(event(EventData::DynamoStart {
                    stack: vec![StackFrame {
                        file: file.clone(),
                        line: *first_line,
                        function: function.clone(),
                        code: None,
                    }],
                    interned_files: Vec::new(),
                }));
                out(event(EventData::CompilationMetrics(Box::new(CompilationMetrics {
                    co_name: function.clone(),
                    co_filename: file.clone(),
                    co_firstlineno: *first_line,
                    ..CompilationMetrics::default()
                }))));
            }
        }
    }

    /// A header pasted alone (no id, no reasons): the frame is known by its
    /// code, and each such header is its next compile.
    fn by_code(&mut self, b: &Block) -> Option<CompileRef> {
        let file = b.file.clone()?;
        let next_frame = 10_000 + self.by_code.len() as u32;
        let slot = self.by_code.entry((file, b.first_line)).or_insert((next_frame, 0));
        slot.1 += 1;
        Some(CompileRef {
            frame_id: Some(slot.0),
            frame_compile_id: Some(slot.1),
            attempt: Some(0),
            compiled_autograd_id: None,
        })
    }

    /// A graph break's text, as the `dynamo_graph_break_reason` artifact
    /// holds it, for the compile the logger named (a pasted one names none
    /// and is not kept).
    pub fn graph_break(
        &mut self,
        compile: Option<CompileRef>,
        origin: super::block::Origin,
        text: String,
        out: &mut dyn FnMut(Event),
    ) {
        let Some(compile) = compile else {
            return;
        };
        let pid = process(origin.pid, origin.rank);
        let event = |data| Event {
            line: origin.line,
            time: origin.time.unwrap_or(NO_TIME),
            pid,
            rank: origin.rank,
            compile,
            data,
        };
        let id = (
            pid,
            compile.frame_id.unwrap_or(0),
            compile.frame_compile_id.unwrap_or(0),
        );
        if compile.frame_id.is_some() && self.started.insert(id) {
            // A compile that broke its graph ran: it is in the log only here.
            out(event(EventData::DynamoStart {
                stack: Vec::new(),
                interned_files: Vec::new(),
            }));
            out(event(EventData::CompilationMetrics(Box::default())));
        }
        out(event(EventData::GraphBreak(text)));
        if let Some(frame_id) = compile.frame_id {
            self.held_tree(pid, frame_id, id.2, out);
        }
    }
}
