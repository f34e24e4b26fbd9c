//! The writers of a rank's step records, told apart: each StepLogger
//! session of each process is one attempt of the run (the first run, a
//! `train()` retried after an exception, a run resumed from a checkpoint in
//! a new process, a forked child that kept logging), numbered per rank in
//! the order their first step started.

use crate::model::Step;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attempt {
    pub rank: Option<u32>,
    /// 1, 2, ... in the order the rank's attempts began.
    pub attempt: usize,
    pub pid: Option<u32>,
    /// The StepLogger's session; None in records written before sessions.
    pub session: Option<String>,
    pub steps: usize,
    pub first_step: u64,
    pub last_step: u64,
    /// Unix seconds at which its first step began.
    pub start: f64,
}

/// Each step's attempt (from 1, in `steps`' order) and the attempts, by
/// rank then number.
pub fn number_attempts(steps: &[Step]) -> (Vec<usize>, Vec<Attempt>) {
    type Writer<'a> = (Option<u32>, Option<u32>, Option<&'a str>);
    let mut found: HashMap<Writer, Attempt> = HashMap::new();
    for s in steps {
        let a = found.entry(s.writer()).or_insert_with(|| Attempt {
            rank: s.rank,
            attempt: 0,
            pid: s.pid,
            session: s.session.clone(),
            steps: 0,
            first_step: s.step,
            last_step: s.step,
            start: s.start,
        });
        a.steps += 1;
        a.first_step = a.first_step.min(s.step);
        a.last_step = a.last_step.max(s.step);
        a.start = a.start.min(s.start);
    }
    let mut order: Vec<(Writer, Attempt)> = found.into_iter().collect();
    order.sort_by(|(wa, a), (wb, b)| {
        (a.rank, a.start)
            .partial_cmp(&(b.rank, b.start))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| wa.cmp(wb))
    });
    let mut number: HashMap<Writer, usize> = HashMap::new();
    let mut previous = None;
    let mut n = 0;
    for (writer, a) in &mut order {
        n = if previous == Some(a.rank) { n + 1 } else { 1 };
        previous = Some(a.rank);
        a.attempt = n;
        number.insert(*writer, n);
    }
    let of_step = steps.iter().map(|s| number[&s.writer()]).collect();
    (of_step, order.into_iter().map(|(_, a)| a).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-made records (the shape StepLogger writes): a run of rank 0
    // resumed in a new process, and rank 1's one attempt.
    fn step(rank: u32, pid: u32, session: &str, n: u64, start: f64) -> Step {
        Step {
            rank: Some(rank),
            pid: Some(pid),
            session: Some(session.into()),
            step: n,
            start,
            ..Step::default()
        }
    }

    #[test]
    fn attempts_are_numbered_per_rank_in_the_order_they_began() {
        let steps = vec![
            step(0, 20, "20-9", 3, 200.0),
            step(0, 10, "10-1", 1, 100.0),
            step(1, 11, "11-1", 1, 100.0),
            step(0, 10, "10-1", 2, 101.0),
            step(0, 20, "20-9", 4, 201.0),
        ];
        let (of_step, attempts) = number_attempts(&steps);
        assert_eq!(of_step, [2, 1, 1, 1, 2]);
        let summary: Vec<String> = attempts
            .iter()
            .map(|a| {
                let (rank, pid) = (a.rank.unwrap(), a.pid.unwrap());
                format!(
                    "rank {rank} #{} pid {pid}: {} steps {}-{}",
                    a.attempt, a.steps, a.first_step, a.last_step
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                "rank 0 #1 pid 10: 2 steps 1-2",
                "rank 0 #2 pid 20: 2 steps 3-4",
                "rank 1 #1 pid 11: 1 steps 1-1"
            ]
        );
    }
}
