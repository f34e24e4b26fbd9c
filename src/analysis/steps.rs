//! The slow-step post-mortem: which steps were slow, which compiles they
//! held, how much of the run went to compiling after the first step, and
//! which rank recompiled alone. Optionally joined with a TORCH_TRACE run of
//! the same process for the fuller story of each compile.

use crate::input::{ProblemKind, Problems};
use crate::model::{median_wall_ms, Compile, Frame, Run, Step, StepCause, StepCompile};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A trace compile is joined to a step by time when it started within the
/// step. Steps follow each other closely (a compile starts a millisecond
/// into its step), so the only slack is for the records' rounding.
const TIME_SLACK_S: f64 = 1e-4;

/// A step may start this long before the trace's first compile (steps that
/// ran eagerly before it)...
const BEFORE_TRACE_S: f64 = 86_400.0;
/// ...and this long after its last (a long run that stopped compiling), or
/// from the median step's start without a trace.
const AFTER_TRACE_S: f64 = 365.0 * 86_400.0;

/// Keeps the step records whose time can be right, in their order: a step
/// whose `start` is far outside the joined trace's time span (or, without
/// one, a year from the median step's), and a second record of the same
/// (rank, step), are problems with file:line and dropped, so neither the
/// analysis nor the page's time axis uses them. Absurd values (a negative
/// `start`, `wall_ms` of 1e308) are already refused by the reader.
pub fn screen(steps: Vec<Step>, trace: Option<&Run>, problems: &mut Problems) -> Vec<Step> {
    let mut starts: Vec<f64> = steps.iter().map(|s| s.start).collect();
    starts.sort_by(f64::total_cmp);
    let median = starts.get(starts.len() / 2).copied();
    let span = trace.and_then(trace_span);
    let mut first: HashMap<(Option<u32>, u64), (Arc<str>, u64)> = HashMap::new();
    let mut kept = Vec::with_capacity(steps.len());
    for s in steps {
        let file: Arc<str> = s.file.as_str().into();
        let gap = |from: f64| days(s.start - from);
        let why = match (span, median) {
            (Some((t0, _)), _) if s.start < t0 - BEFORE_TRACE_S => Some(format!(
                "step {}: 'start' is {} before the trace's first compile; left out",
                s.step,
                gap(t0)
            )),
            (Some((_, t1)), _) if s.start > t1 + AFTER_TRACE_S => Some(format!(
                "step {}: 'start' is {} after the trace's last compile; left out",
                s.step,
                gap(t1)
            )),
            (None, Some(m)) if (s.start - m).abs() > AFTER_TRACE_S => Some(format!(
                "step {}: 'start' is {} from the median step's; left out",
                s.step,
                gap(m)
            )),
            _ => first.get(&(s.rank, s.step)).map(|(f, l)| {
                let rank = s.rank.map(|r| format!(" of rank {r}")).unwrap_or_default();
                format!("step {}{rank} recorded again (first at {f}:{l}); left out", s.step)
            }),
        };
        match why {
            Some(why) => problems.push(&file, s.line, ProblemKind::BadEvent, why),
            None => {
                first.insert((s.rank, s.step), (file, s.line));
                kept.push(s);
            }
        }
    }
    kept
}

/// The first and last time of the trace's timed compiles.
fn trace_span(run: &Run) -> Option<(f64, f64)> {
    let times = run
        .compiles()
        .filter_map(|(_, c)| c.start.map(|t| (t, t + c.duration_s.unwrap_or(0.0))));
    times.fold(None, |acc, (s, e)| match acc {
        None => Some((s, e)),
        Some((a, b)) => Some((f64::min(a, s), f64::max(b, e))),
    })
}

fn days(seconds: f64) -> String {
    let d = seconds.abs() / 86_400.0;
    if d >= 10.0 {
        format!("{d:.0} days")
    } else {
        format!("{d:.1} days")
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct StepsAnalysis {
    pub steps: usize,
    pub ranks: Vec<RankSummary>,
    pub total_wall_s: f64,
    /// Compile seconds (forward and backward) in steps after each rank's first.
    pub compile_after_first_step_s: f64,
    pub compile_in_first_step_s: f64,
    /// The slowest steps, slowest first.
    pub slowest: Vec<SlowStep>,
    /// Steps at which some ranks recompiled and others did not.
    pub lone_recompiles: Vec<LoneRecompile>,
    /// Frames that hit the recompile limit, and how long they ran eagerly.
    pub eager_fallbacks: Vec<EagerFallback>,
    /// Whether a TORCH_TRACE run was joined in.
    pub joined_trace: bool,
}

/// A frame Dynamo stopped compiling: it runs eagerly, uncompiled, for the
/// rest of the run, which is slower every step without any further log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EagerFallback {
    pub rank: Option<u32>,
    /// The step in which the limit was hit.
    pub step: u64,
    pub compile_id: String,
    pub function: Option<String>,
    /// Steps the rank recorded after that one: all ran the frame eagerly.
    pub steps_after: usize,
    pub last_step: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RankSummary {
    pub rank: Option<u32>,
    pub steps: usize,
    pub first_step: u64,
    pub last_step: u64,
    pub median_wall_ms: f64,
    pub compiles: usize,
    pub recompiles: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct SlowStep {
    pub rank: Option<u32>,
    pub step: u64,
    pub wall_ms: f64,
    /// Wall time over the median step of the same rank.
    pub ratio_to_median: f64,
    pub compile_s: f64,
    pub compiles: Vec<SlowCompile>,
    /// Where the record is, `file:line`.
    pub record: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SlowCompile {
    #[serde(flatten)]
    pub compile: StepCompile,
    /// What the TORCH_TRACE log adds, with `--trace`.
    pub trace: Option<TraceDetail>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TraceDetail {
    /// `id` (the record named the compile) or `time` (it started inside the step).
    pub matched_by: &'static str,
    /// Where the compile starts in the log, `file:line`.
    pub log: String,
    /// The guard that failed (the cause's), as Dynamo printed it.
    pub guard: Option<String>,
    pub attempts: usize,
    pub restart_reasons: Vec<String>,
    pub graph_op_count: Option<u64>,
    pub guard_count: Option<u64>,
    pub backend_s: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LoneRecompile {
    pub step: u64,
    /// Ranks that recompiled in this step...
    pub ranks: Vec<Option<u32>>,
    /// ...out of this many that recorded the step.
    pub of_ranks: usize,
    pub compiles: Vec<String>,
}

pub fn analyse(steps: &[Step], trace: Option<&Run>, top: usize) -> StepsAnalysis {
    let mut steps = steps.to_vec();
    let details = match trace {
        Some(run) => join(&mut steps, run),
        None => HashMap::new(),
    };
    let by_rank = group_by_rank(&steps);
    let mut ranks = Vec::new();
    let mut medians = HashMap::new();
    let mut first_steps = HashMap::new();
    for (rank, list) in &by_rank {
        let median = median_wall_ms(list.iter().copied());
        medians.insert(*rank, median);
        let first = list.iter().map(|s| s.step).min().unwrap_or(0);
        first_steps.insert(*rank, first);
        ranks.push(RankSummary {
            rank: *rank,
            steps: list.len(),
            first_step: first,
            last_step: list.iter().map(|s| s.step).max().unwrap_or(0),
            median_wall_ms: median,
            compiles: list.iter().map(|s| s.compiles.len()).sum(),
            recompiles: list.iter().map(|s| recompiles(s)).sum(),
        });
    }
    let compile_s = |s: &Step| s.compiles.iter().map(StepCompile::total_seconds).sum::<f64>();
    let (mut after, mut first) = (0.0, 0.0);
    for s in &steps {
        if first_steps.get(&s.rank) == Some(&s.step) {
            first += compile_s(s);
        } else {
            after += compile_s(s);
        }
    }
    let mut order: Vec<(usize, &Step)> = steps.iter().enumerate().collect();
    order.sort_by(|(_, a), (_, b)| b.wall_ms.total_cmp(&a.wall_ms).then(a.step.cmp(&b.step)));
    let slowest = order
        .into_iter()
        .take(top)
        .map(|(i, s)| {
            let median = medians.get(&s.rank).copied().unwrap_or(0.0);
            SlowStep {
                rank: s.rank,
                step: s.step,
                wall_ms: s.wall_ms,
                ratio_to_median: if median > 0.0 { s.wall_ms / median } else { 1.0 },
                compile_s: compile_s(s),
                compiles: s
                    .compiles
                    .iter()
                    .enumerate()
                    .map(|(j, c)| SlowCompile {
                        compile: c.clone(),
                        trace: details.get(&(i, j)).cloned(),
                    })
                    .collect(),
                record: format!("{}:{}", s.file, s.line),
            }
        })
        .collect();
    StepsAnalysis {
        steps: steps.len(),
        ranks,
        total_wall_s: steps.iter().map(|s| s.wall_ms).sum::<f64>() / 1000.0,
        compile_after_first_step_s: after,
        compile_in_first_step_s: first,
        slowest,
        lone_recompiles: lone_recompiles(&steps, by_rank.len()),
        eager_fallbacks: eager_fallbacks(&steps),
        joined_trace: trace.is_some(),
    }
}

fn eager_fallbacks(steps: &[Step]) -> Vec<EagerFallback> {
    let mut out = Vec::new();
    for s in steps {
        for c in s
            .compiles
            .iter()
            .filter(|c| c.cause.as_ref().is_some_and(|k| k.category == "cache_limit"))
        {
            let later: Vec<u64> = steps
                .iter()
                .filter(|o| o.rank == s.rank && o.step > s.step)
                .map(|o| o.step)
                .collect();
            out.push(EagerFallback {
                rank: s.rank,
                step: s.step,
                compile_id: c.compile_id.clone(),
                function: c.function.clone(),
                steps_after: later.len(),
                last_step: later.iter().copied().max().unwrap_or(s.step),
            });
        }
    }
    out.sort_by_key(|e| (e.rank, e.step));
    out
}

fn recompiles(s: &Step) -> usize {
    s.compiles.iter().filter(|c| c.is_recompile()).count()
}

fn group_by_rank(steps: &[Step]) -> BTreeMap<Option<u32>, Vec<&Step>> {
    let mut map: BTreeMap<Option<u32>, Vec<&Step>> = BTreeMap::new();
    for s in steps {
        map.entry(s.rank).or_default().push(s);
    }
    map
}

/// A rank that recompiles at a step where the others do not stalls them at
/// the next collective: the step is slow everywhere, the cause is on one rank.
fn lone_recompiles(steps: &[Step], rank_count: usize) -> Vec<LoneRecompile> {
    if rank_count < 2 {
        return Vec::new();
    }
    let mut by_step: BTreeMap<u64, Vec<&Step>> = BTreeMap::new();
    for s in steps {
        by_step.entry(s.step).or_default().push(s);
    }
    by_step
        .into_iter()
        .filter_map(|(step, list)| {
            let recompiling: Vec<&&Step> = list.iter().filter(|s| recompiles(s) > 0).collect();
            (!recompiling.is_empty() && recompiling.len() < list.len() && list.len() > 1).then(|| LoneRecompile {
                step,
                ranks: recompiling.iter().map(|s| s.rank).collect(),
                of_ranks: list.len(),
                compiles: recompiling
                    .iter()
                    .flat_map(|s| s.compiles.iter().filter(|c| c.is_recompile()))
                    .map(|c| c.compile_id.clone())
                    .collect(),
            })
        })
        .collect()
}

/// Fills each step's compiles from the trace: by compile id (the start time
/// picks among `torch._dynamo.reset()` generations), and adds trace
/// compiles that started inside a step the record does not list. Returns
/// the trace's detail by (step index, compile index).
fn join(steps: &mut [Step], run: &Run) -> HashMap<(usize, usize), TraceDetail> {
    let mut details = HashMap::new();
    let mut by_id: HashMap<(u32, &str), Vec<(&Frame, &Compile)>> = HashMap::new();
    for (frame, compile) in run.compiles() {
        by_id
            .entry((frame.rank.unwrap_or(0), compile.compile_id.as_str()))
            .or_default()
            .push((frame, compile));
    }
    for (i, step) in steps.iter_mut().enumerate() {
        let rank = step.rank.unwrap_or(0);
        let (lo, hi) = (step.start - TIME_SLACK_S, step.end());
        let within = |c: &Compile| c.start.is_some_and(|t| t >= lo && t < hi);
        for (j, sc) in step.compiles.iter_mut().enumerate() {
            let id = sc.compile_id.clone();
            let found = by_id.get(&(rank, id.as_str())).and_then(|cands| {
                cands
                    .iter()
                    .find(|(_, c)| within(c))
                    .or((cands.len() == 1).then(|| &cands[0]))
            });
            if let Some((frame, compile)) = found {
                fill(sc, frame, compile);
                details.insert((i, j), detail(run, frame, compile, "id"));
            }
        }
        let listed: Vec<String> = step.compiles.iter().map(|c| c.compile_id.clone()).collect();
        for (frame, compile) in run.compiles() {
            if frame.rank.unwrap_or(0) == rank && within(compile) && !listed.contains(&compile.compile_id) {
                let mut sc = StepCompile {
                    compile_id: compile.compile_id.clone(),
                    ..StepCompile::default()
                };
                fill(&mut sc, frame, compile);
                details.insert((i, step.compiles.len()), detail(run, frame, compile, "time"));
                step.compiles.push(sc);
            }
        }
    }
    details
}

fn detail(run: &Run, frame: &Frame, compile: &Compile, matched_by: &'static str) -> TraceDetail {
    let file = run
        .inputs
        .iter()
        .find(|i| i.stats.pids.contains(&frame.pid))
        .or(run.inputs.first())
        .map_or("?", |i| i.path.as_str());
    TraceDetail {
        matched_by,
        log: format!("{file}:{}", compile.log_line),
        guard: super::cause_of(compile).map(|g| g.guard.clone()),
        attempts: compile.attempts.len().max(1),
        restart_reasons: compile.restart_reasons.clone(),
        graph_op_count: compile.graph_op_count,
        guard_count: compile.guard_count,
        backend_s: compile.breakdown.backend_s,
    }
}

/// The trace knows more than a step record: keep what the record says,
/// fill in what it lacks.
fn fill(sc: &mut StepCompile, frame: &Frame, compile: &Compile) {
    sc.function = sc.function.take().or_else(|| frame.function.clone());
    sc.file = sc.file.take().or_else(|| frame.file.clone());
    sc.line = sc.line.or(frame.line);
    sc.recompile = sc.recompile.or(Some(compile.frame_compile_id.is_some_and(|n| n > 0)));
    sc.seconds = sc.seconds.or(compile.duration_s);
    sc.backward_seconds = sc
        .backward_seconds
        .or_else(|| compile.backward.as_ref().and_then(|b| b.duration_s));
    sc.failed |= compile.failed;
    if sc.cause.is_none() && sc.recompile == Some(true) {
        let logged = !compile.recompile_reasons.is_empty() || compile.cache_limit;
        sc.cause = logged
            .then(|| super::findings::finding(frame, compile).cause)
            .map(|c| StepCause {
                category: c.category.name().to_string(),
                label: Some(c.category.label().to_string()),
                culprit: c.culprit,
                source: c.source,
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-made step records (the shape StepLogger writes): a frame refused
    // at the recompile limit in step 3 of 5.
    fn step(n: u64, compiles: Vec<StepCompile>) -> Step {
        Step {
            rank: None,
            step: n,
            start: n as f64,
            wall_ms: 10.0,
            compiles,
            file: "steps.jsonl".into(),
            line: n,
        }
    }

    /// Before, every record was used: a duplicate step counted twice, a
    /// step of another year stretched the time axis.
    #[test]
    fn far_off_and_repeated_steps_are_problems_and_left_out() {
        let at = |n: u64, start: f64| Step {
            start,
            ..step(n, vec![])
        };
        let base = 1_795_257_300.0;
        let steps = vec![
            at(1, base),
            at(2, base + 1.0),
            at(2, base + 2.0),
            at(3, 1.0),
            at(4, base + 3.0),
        ];
        let mut problems = Problems::default();
        let kept = screen(steps.clone(), None, &mut problems);
        assert_eq!(
            kept.iter().map(|s| s.start).collect::<Vec<_>>(),
            [base, base + 1.0, base + 3.0]
        );
        let messages: Vec<String> = problems.first.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("steps.jsonl:2: step 2 recorded again (first at steps.jsonl:2)"));
        assert!(messages[1].starts_with("steps.jsonl:3: step 3: 'start' is 20778 days from the median"));

        // With a trace: against its compiles' times.
        let run = Run {
            frames: vec![Frame {
                rank: None,
                pid: 1,
                generation: 0,
                frame_id: 0,
                function: None,
                file: None,
                line: None,
                module_class: None,
                compiles: vec![Compile {
                    start: Some(base + 0.5),
                    duration_s: Some(1.0),
                    ..Compile::default()
                }],
            }],
            ..Run::default()
        };
        let steps = vec![
            at(1, base),
            at(2, base - 2.0 * 86_400.0),
            at(3, base + 400.0 * 86_400.0),
        ];
        let mut problems = Problems::default();
        assert_eq!(screen(steps, Some(&run), &mut problems).len(), 1);
        let messages: Vec<&str> = problems.first.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "step 2: 'start' is 2.0 days before the trace's first compile; left out",
                "step 3: 'start' is 400 days after the trace's last compile; left out"
            ]
        );
    }

    #[test]
    fn a_frame_at_the_limit_runs_eagerly_for_the_steps_after() {
        let refused = StepCompile {
            compile_id: "0/8".into(),
            function: Some("forward".into()),
            recompile: Some(true),
            cause: Some(StepCause {
                category: "cache_limit".into(),
                label: None,
                culprit: "self.step".into(),
                source: None,
            }),
            ..StepCompile::default()
        };
        let steps: Vec<Step> = (1..=5)
            .map(|n| step(n, if n == 3 { vec![refused.clone()] } else { vec![] }))
            .collect();
        let a = analyse(&steps, None, 3);
        assert_eq!(
            a.eager_fallbacks,
            vec![EagerFallback {
                rank: None,
                step: 3,
                compile_id: "0/8".into(),
                function: Some("forward".into()),
                steps_after: 2,
                last_step: 5,
            }]
        );
        let text = crate::report::steps::render(&a);
        assert!(
            text.contains("step 3: 0/8 forward hit the recompile limit; it ran eagerly, uncompiled, for the 2 steps after it (4-5)"),
            "{text}"
        );
    }
}
