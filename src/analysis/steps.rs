//! The slow-step post-mortem: which steps were slow, which compiles they
//! held, how much of the run went to compiling after the first step, and
//! which rank recompiled alone. Optionally joined with a TORCH_TRACE run of
//! the same process for the fuller story of each compile (`trace_join`).
//! Records are screened first (`screen`).

mod attempts;
mod rank_alone;
mod screen;
mod trace_join;

pub use attempts::Attempt;
pub use screen::screen;
pub use trace_join::TraceDetail;

use crate::model::{median_wall_ms, steady_median_wall_ms, Step, StepCompile};
use attempts::number_attempts;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use trace_join::join;

#[derive(Clone, Debug, Serialize)]
pub struct StepsAnalysis {
    pub steps: usize,
    pub ranks: Vec<RankSummary>,
    /// Each writer of each rank (a StepLogger session of a process): a
    /// retried or resumed run, or another process, is an attempt of its own.
    pub attempts: Vec<Attempt>,
    pub total_wall_s: f64,
    /// Compile seconds (forward and backward) in steps after each attempt's first.
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
    pub attempt: usize,
    /// The step in which the limit was hit.
    pub step: u64,
    pub compile_id: String,
    /// The frame as `summary` names it (`StepCompile::name`).
    pub name: Option<String>,
    pub function: Option<String>,
    /// Steps the attempt recorded after that one: all ran the frame eagerly.
    pub steps_after: usize,
    pub last_step: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct RankSummary {
    pub rank: Option<u32>,
    /// Its attempts (`StepsAnalysis::attempts`).
    pub attempts: usize,
    pub steps: usize,
    pub first_step: u64,
    pub last_step: u64,
    /// The median of all the rank's steps (compile steps included).
    pub median_wall_ms: f64,
    /// Steps of the rank that compiled nothing, and their median wall time
    /// (None when every step compiled): what slowness is measured against.
    pub steady_steps: usize,
    pub steady_median_wall_ms: Option<f64>,
    pub compiles: usize,
    pub recompiles: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct SlowStep {
    pub rank: Option<u32>,
    /// The rank's attempt that recorded it, and its process.
    pub attempt: usize,
    pub pid: Option<u32>,
    pub step: u64,
    pub wall_ms: f64,
    /// Wall time over the median step of the same rank, compile steps
    /// included (kept for readers of the older field; see `ratio_to_steady`).
    pub ratio_to_median: f64,
    /// Wall time over the median of the rank's steps that compiled nothing;
    /// None when every step of the rank compiled.
    pub ratio_to_steady: Option<f64>,
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
pub struct LoneRecompile {
    /// Each rank's attempt of that number (a run resumed on every rank).
    pub attempt: usize,
    pub step: u64,
    /// Ranks that recompiled in this step...
    pub ranks: Vec<Option<u32>>,
    /// ...out of this many that recorded the step.
    pub of_ranks: usize,
    pub compiles: Vec<String>,
}

/// `trace`: the joined TORCH_TRACE run, analysed once (`analysis::analyse`),
/// whose verdicts the recompiles take.
pub fn analyse(steps: &[Step], trace: Option<&crate::analysis::findings::Findings<'_>>, top: usize) -> StepsAnalysis {
    let mut steps = steps.to_vec();
    let details = match trace {
        Some(findings) => join(&mut steps, findings),
        None => HashMap::new(),
    };
    let (attempt_of, attempts) = number_attempts(&steps);
    let rank_count = group_by_rank(&steps).len();
    let lone = lone_recompiles(&steps, &attempt_of, rank_count);
    if trace.is_none() {
        // Joined with a trace, the whole run's verdicts are in already.
        let keys: Vec<(usize, u64)> = lone.iter().map(|l| (l.attempt, l.step)).collect();
        rank_alone::judge(&mut steps, &attempt_of, &keys);
    }
    let by_rank = group_by_rank(&steps);
    let mut ranks = Vec::new();
    let mut medians = HashMap::new();
    let mut steady = HashMap::new();
    let mut first_steps = HashMap::new();
    for (rank, list) in &by_rank {
        let median = median_wall_ms(list.iter().copied());
        medians.insert(*rank, median);
        let steady_median = steady_median_wall_ms(list.iter().copied());
        steady.insert(*rank, steady_median);
        let first = list.iter().map(|s| s.step).min().unwrap_or(0);
        ranks.push(RankSummary {
            rank: *rank,
            attempts: attempts.iter().filter(|a| a.rank == *rank).count(),
            steps: list.len(),
            first_step: first,
            last_step: list.iter().map(|s| s.step).max().unwrap_or(0),
            median_wall_ms: median,
            steady_steps: list.iter().filter(|s| s.compiles.is_empty()).count(),
            steady_median_wall_ms: steady_median,
            compiles: list.iter().map(|s| s.compiles.len()).sum(),
            recompiles: list.iter().map(|s| recompiles(s)).sum(),
        });
    }
    // Each attempt compiles anew in its first step (a new process does).
    for a in &attempts {
        first_steps.insert((a.rank, a.attempt), a.first_step);
    }
    let compile_s = |s: &Step| s.compiles.iter().map(StepCompile::total_seconds).sum::<f64>();
    let (mut after, mut first) = (0.0, 0.0);
    for (s, attempt) in steps.iter().zip(&attempt_of) {
        if first_steps.get(&(s.rank, *attempt)) == Some(&s.step) {
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
            let steady = steady.get(&s.rank).copied().flatten().filter(|m| *m > 0.0);
            SlowStep {
                rank: s.rank,
                attempt: attempt_of[i],
                pid: s.pid,
                step: s.step,
                wall_ms: s.wall_ms,
                ratio_to_median: if median > 0.0 { s.wall_ms / median } else { 1.0 },
                ratio_to_steady: steady.map(|m| s.wall_ms / m),
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
        attempts,
        total_wall_s: steps.iter().map(|s| s.wall_ms).sum::<f64>() / 1000.0,
        compile_after_first_step_s: after,
        compile_in_first_step_s: first,
        slowest,
        lone_recompiles: lone,
        eager_fallbacks: eager_fallbacks(&steps, &attempt_of),
        joined_trace: trace.is_some(),
    }
}

fn eager_fallbacks(steps: &[Step], attempt_of: &[usize]) -> Vec<EagerFallback> {
    let mut out = Vec::new();
    for (s, attempt) in steps.iter().zip(attempt_of) {
        for c in s
            .compiles
            .iter()
            .filter(|c| c.cause.as_ref().is_some_and(|k| k.category == "cache_limit"))
        {
            let later: Vec<u64> = steps
                .iter()
                .zip(attempt_of)
                .filter(|(o, a)| o.rank == s.rank && *a == attempt && o.step > s.step)
                .map(|(o, _)| o.step)
                .collect();
            out.push(EagerFallback {
                rank: s.rank,
                attempt: *attempt,
                step: s.step,
                compile_id: c.compile_id.clone(),
                name: c.name.clone(),
                function: c.function.clone(),
                steps_after: later.len(),
                last_step: later.iter().copied().max().unwrap_or(s.step),
            });
        }
    }
    out.sort_by_key(|e| (e.rank, e.attempt, e.step));
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
fn lone_recompiles(steps: &[Step], attempt_of: &[usize], rank_count: usize) -> Vec<LoneRecompile> {
    if rank_count < 2 {
        return Vec::new();
    }
    let mut by_step: BTreeMap<(usize, u64), Vec<&Step>> = BTreeMap::new();
    for (s, attempt) in steps.iter().zip(attempt_of) {
        by_step.entry((*attempt, s.step)).or_default().push(s);
    }
    by_step
        .into_iter()
        .filter_map(|((attempt, step), list)| {
            let recompiling: Vec<&&Step> = list.iter().filter(|s| recompiles(s) > 0).collect();
            (!recompiling.is_empty() && recompiling.len() < list.len() && list.len() > 1).then(|| LoneRecompile {
                attempt,
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
