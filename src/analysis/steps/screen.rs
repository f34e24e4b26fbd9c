//! Step records screened before analysis: a step whose time cannot be
//! right, or a second record of the same step by the same writer, is a
//! problem and left out.

use crate::input::{ProblemKind, Problems};
use crate::model::{Run, Step};
use std::collections::HashMap;
use std::sync::Arc;

/// A step may start this long before the trace's first compile (steps that
/// ran eagerly before it)...
const BEFORE_TRACE_S: f64 = 86_400.0;
/// ...and this long after its last (a long run that stopped compiling), or
/// from the median step's start without a trace.
const AFTER_TRACE_S: f64 = 365.0 * 86_400.0;

/// Keeps the step records whose time can be right, in their order: a step
/// whose `start` is far outside the joined trace's time span (or, without
/// one, a year from the median step's), and a second record of the same
/// step by the same writer (rank, pid and StepLogger session: another
/// process, a resumed or retried run records its steps again, and those
/// are kept), are problems with file:line and dropped, so neither the
/// analysis nor the page's time axis uses them. Absurd values (a negative
/// `start`, `wall_ms` of 1e308) are already refused by the reader.
pub fn screen(steps: Vec<Step>, trace: Option<&Run>, problems: &mut Problems) -> Vec<Step> {
    let mut starts: Vec<f64> = steps.iter().map(|s| s.start).collect();
    starts.sort_by(f64::total_cmp);
    let median = starts.get(starts.len() / 2).copied();
    let span = trace.and_then(trace_span);
    type Key = (Option<u32>, Option<u32>, Option<String>, u64);
    let mut first: HashMap<Key, (Arc<str>, u64)> = HashMap::new();
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
            _ => first.get(&(s.rank, s.pid, s.session.clone(), s.step)).map(|(f, l)| {
                let rank = s.rank.map(|r| format!(" of rank {r}")).unwrap_or_default();
                let pid = s.pid.map(|p| format!(" by pid {p}")).unwrap_or_default();
                format!("step {}{rank} recorded again{pid} (first at {f}:{l}); left out", s.step)
            }),
        };
        match why {
            Some(why) => problems.push(&file, s.line, ProblemKind::BadEvent, why),
            None => {
                first.insert((s.rank, s.pid, s.session.clone(), s.step), (file, s.line));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Compile, Frame};

    // A hand-made step record (the shape StepLogger writes).
    fn step(n: u64) -> Step {
        Step {
            rank: None,
            pid: None,
            session: None,
            step: n,
            start: n as f64,
            wall_ms: 10.0,
            compiles: vec![],
            file: "steps.jsonl".into(),
            line: n,
        }
    }

    /// Before, every record was used: a duplicate step counted twice, a
    /// step of another year stretched the time axis.
    #[test]
    fn far_off_and_repeated_steps_are_problems_and_left_out() {
        let at = |n: u64, start: f64| Step { start, ..step(n) };
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
                run: 0,
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
}
