//! `guardscope steps` as text: the slowest steps with the compiles inside
//! them, the compile share of the run, and ranks that recompiled alone.

use super::fit::{clip_code, wrap};
use crate::analysis::steps::{SlowCompile, StepsAnalysis};
use crate::analysis::COSTLY_EXPECTED_SECONDS;
use crate::model::StepCompile;
use crate::report::format::{plural, utc};
use std::fmt::Write;

/// Columns a step's compiles keep beside the table before they go below it.
const DESCRIBED_AT_LEAST: usize = 50;

/// The post-mortem in lines of at most `columns`.
pub fn render(a: &StepsAnalysis, columns: usize) -> String {
    let mut out = String::new();
    // Prose lines, wrapped; the table's rows are laid out below.
    let para = |out: &mut String, text: &str, first: &str, rest: &str| {
        for line in wrap(text, columns, first, rest) {
            let _ = writeln!(out, "{line}");
        }
    };
    let several_ranks = a.ranks.len() > 1;
    // Another writer of a rank's steps (a retried or resumed run, another
    // process): its steps are shown apart, each with its attempt.
    let several_attempts = a.ranks.iter().any(|r| r.attempts > 1);
    // Slowness is measured against the steps that compiled nothing: when
    // most steps compile, the median of all steps is a compile step itself.
    let steady: Vec<String> = a
        .ranks
        .iter()
        .map(|r| {
            let value = match r.steady_median_wall_ms {
                Some(ms) => format!("{ms:.1} ms ({})", plural(r.steady_steps, "step", "steps")),
                None => format!("none: all {} compiled", r.steps),
            };
            match (several_ranks, r.rank) {
                (true, Some(rank)) => format!("rank {rank} {value}"),
                _ => value,
            }
        })
        .collect();
    let head = format!(
        "{} steps · {} · median step without compiles {} · {:.2} s of steps",
        a.steps,
        plural(a.ranks.len(), "rank", "ranks"),
        steady.join(", "),
        a.total_wall_s
    );
    para(&mut out, &head, "", "  ");
    if a.ranks.iter().any(|r| r.steady_median_wall_ms.is_none()) {
        let line = format!(
            "No step without compiles to compare with{}: 'x steady' is left blank there.",
            if several_ranks { " on some ranks" } else { "" }
        );
        para(&mut out, &line, "", "  ");
    }
    let share = if a.total_wall_s > 0.0 {
        100.0 * a.compile_after_first_step_s / a.total_wall_s
    } else {
        0.0
    };
    let line = format!(
        "Compiling after the first step took {:.2} s of {:.2} s ({share:.0}%); the first step compiled for {:.2} s.",
        a.compile_after_first_step_s, a.total_wall_s, a.compile_in_first_step_s
    );
    para(&mut out, &line, "", "  ");
    if a.joined_trace {
        para(
            &mut out,
            "Joined with the TORCH_TRACE log by compile id and time.",
            "",
            "  ",
        );
    }
    if several_attempts {
        out.push_str(&attempts(a, columns));
    }

    let _ = writeln!(out, "\nSlowest steps:");
    let rank_col = if several_ranks { "rank  " } else { "" };
    let attempt_col = if several_attempts { "attempt  " } else { "" };
    let _ = writeln!(
        out,
        "  {rank_col}{attempt_col}{:>6}  {:>10}  {:>8}  {:>9}  compiles",
        "step", "wall ms", "x steady", "compile s"
    );
    for s in &a.slowest {
        let rank = match (several_ranks, s.rank) {
            (true, Some(r)) => format!("{r:<4}  "),
            (true, None) => "?     ".to_string(),
            _ => String::new(),
        };
        let attempt = if several_attempts {
            format!("{:<7}  ", s.attempt)
        } else {
            String::new()
        };
        let rank = rank + &attempt;
        let compile_s = if s.compiles.is_empty() {
            "-".to_string()
        } else {
            format!("{:.2}", s.compile_s)
        };
        let ratio = s
            .ratio_to_steady
            .map_or_else(|| "-".to_string(), |r| format!("{r:.1}x"));
        let row = format!(
            "  {rank}{:>6}  {:>10.1}  {ratio:>8}  {compile_s:>9}  ",
            s.step, s.wall_ms
        );
        // Each compile's line beside the row (under the `compiles` column),
        // or, on a narrow terminal, below it.
        let column = if columns.saturating_sub(row.len()) >= DESCRIBED_AT_LEAST {
            row.len()
        } else {
            6
        };
        let indent = " ".repeat(column);
        let mut first = Some(row);
        let mut lines = |out: &mut String, text: &str, more: &str| match first.take() {
            Some(row) if column == row.len() => para(out, text, &row, &format!("{indent}{more}")),
            Some(row) => {
                let _ = writeln!(out, "{}", row.trim_end());
                para(out, text, &indent, &format!("{indent}{more}"));
            }
            None => para(out, text, &indent, &format!("{indent}{more}")),
        };
        if s.compiles.is_empty() {
            lines(&mut out, "none", "");
        }
        for c in &s.compiles {
            lines(&mut out, &describe(c), "  ");
            if let Some(fix) = costly_fix(&c.compile) {
                para(&mut out, &fix, &format!("{indent}  fix: "), &format!("{indent}       "));
            }
            if let Some(t) = &c.trace {
                let mut line = format!("log {}", t.log);
                if t.attempts > 1 {
                    let _ = write!(line, " · {} attempts", t.attempts);
                }
                if t.matched_by == "time" {
                    line.push_str(" · not in the step record: matched by time");
                }
                para(&mut out, &line, &format!("{indent}  "), &format!("{indent}    "));
                if let Some(g) = &t.guard {
                    let room = columns.saturating_sub(column + 8).max(40);
                    let _ = writeln!(out, "{indent}  guard {}", clip_code(g, room));
                }
            }
        }
    }

    if !a.eager_fallbacks.is_empty() {
        out.push('\n');
        para(
            &mut out,
            "Frames that hit the recompile limit (Dynamo stopped compiling them; they run eagerly from then on):",
            "",
            "  ",
        );
        for e in &a.eager_fallbacks {
            let mut rank = match (several_ranks, e.rank) {
                (true, Some(r)) => format!("rank {r} "),
                _ => String::new(),
            };
            if several_attempts {
                let _ = write!(rank, "attempt {} ", e.attempt);
            }
            let after = match e.steps_after {
                0 => "no step ran after it".to_string(),
                n => format!(
                    "it ran eagerly, uncompiled, for the {} after it ({}-{})",
                    plural(n, "step", "steps"),
                    e.step + 1,
                    e.last_step
                ),
            };
            let line = format!(
                "{rank}step {}: {} {} hit the recompile limit; {after}",
                e.step,
                e.compile_id,
                e.name.as_deref().or(e.function.as_deref()).unwrap_or("?")
            );
            para(&mut out, &line, "  ", "    ");
        }
    }

    if !a.lone_recompiles.is_empty() {
        out.push('\n');
        para(
            &mut out,
            "Ranks that recompiled alone (the others wait for them at the next collective):",
            "",
            "  ",
        );
        for l in &a.lone_recompiles {
            let ranks: Vec<String> = l
                .ranks
                .iter()
                .map(|r| r.map_or("?".into(), |r| r.to_string()))
                .collect();
            let attempt = if several_attempts {
                format!("attempt {} ", l.attempt)
            } else {
                String::new()
            };
            let line = format!(
                "{attempt}step {}: rank {} recompiled ({}), {} of {} ranks did not",
                l.step,
                ranks.join(", "),
                l.compiles.join(", "),
                l.of_ranks - l.ranks.len(),
                l.of_ranks
            );
            para(&mut out, &line, "  ", "    ");
        }
    }
    out
}

/// The attempts of each rank, when a rank has several: which process wrote
/// them, when each began and which steps it recorded.
fn attempts(a: &StepsAnalysis, columns: usize) -> String {
    let mut out = String::new();
    let head = "Attempts (each StepLogger of a process: a retried or resumed run, another process), \
                numbered per rank in the order they began:";
    for line in wrap(head, columns, "", "  ") {
        let _ = writeln!(out, "{line}");
    }
    for t in &a.attempts {
        let rank = t.rank.map(|r| format!("rank {r} ")).unwrap_or_default();
        let pid = t.pid.map(|p| format!("pid {p}, ")).unwrap_or_default();
        let text = format!(
            "{rank}attempt {}: {pid}{} (steps {}-{}), began {}",
            t.attempt,
            plural(t.steps, "record", "records"),
            t.first_step,
            t.last_step,
            utc(t.start)
        );
        for line in wrap(&text, columns, "  ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// `0/2 forward (model.py:117) recompile 0.58 s: <label>: <culprit> at <source>`
fn describe(c: &SlowCompile) -> String {
    let c = &c.compile;
    let mut s = c.compile_id.clone();
    // The frame as `summary` names it; `function` alone in older records.
    if let Some(f) = c.name.as_ref().or(c.function.as_ref()) {
        let _ = write!(s, " {f}");
    }
    if let (Some(file), Some(line)) = (&c.file, c.line) {
        let _ = write!(s, " ({}:{line})", crate::report::paths::file_name(file));
    }
    s.push_str(if c.is_recompile() {
        " recompile"
    } else {
        " first compile"
    });
    if let Some(sec) = c.seconds {
        let _ = write!(s, " {sec:.2} s");
    }
    if let Some(b) = c.backward_seconds {
        let _ = write!(s, " + {b:.2} s backward");
    }
    if c.failed {
        s.push_str(", failed");
    }
    if let Some(cause) = &c.cause {
        let label = cause.label.as_deref().unwrap_or(&cause.category);
        let _ = write!(s, ": {label}: {}", cause.culprit);
        if let Some(src) = &cause.source {
            let _ = write!(s, " at {}", crate::report::paths::display_site(src));
        }
        // As the StepLogger's warning says it: judged from the log so far.
        if let (Some(severity), Some(kind)) = (&cause.severity, &cause.evidence) {
            let _ = write!(s, " [{severity}: {}", kind.replace('_', " "));
            if let Some(owner) = &cause.owner {
                let _ = write!(s, "; {}", owner.replace('_', " "));
            }
            if let Some(entry) = &cause.entry {
                let _ = write!(s, "; entry {entry}");
            }
            s.push(']');
        }
    }
    s
}

/// A recompile's fix, when it is a problem or cost at least
/// `COSTLY_EXPECTED_SECONDS` (an expected one-off that stalls a step).
fn costly_fix(c: &StepCompile) -> Option<String> {
    let cause = c.cause.as_ref()?;
    let advice = cause.advice.as_deref()?;
    let seconds = c.total_seconds();
    if !c.is_recompile() {
        return None;
    }
    if cause.severity.as_deref() == Some("problem") {
        return Some(advice.to_string());
    }
    (seconds >= COSTLY_EXPECTED_SECONDS).then(|| format!("costly ({seconds:.2} s): {advice}"))
}

#[cfg(test)]
mod tests {
    //! The post-mortem of a frame refused at the recompile limit, from the
    //! analysis to the line a user reads.
    use super::*;
    use crate::analysis::steps::{analyse, EagerFallback};
    use crate::model::{Step, StepCause, StepCompile};

    // Hand-made step records (the shape StepLogger writes): a frame refused
    // at the recompile limit in step 3 of 5.
    fn step(n: u64, compiles: Vec<StepCompile>) -> Step {
        Step {
            rank: None,
            pid: None,
            session: None,
            step: n,
            start: n as f64,
            wall_ms: 10.0,
            compiles,
            file: "steps.jsonl".into(),
            line: n,
        }
    }

    /// A hand-made expected recompile (the case: 25.7 s of compiling
    /// in a loop of 5 ms steps) carries its fix into the text; a cheap one
    /// stays one line.
    #[test]
    fn a_costly_expected_recompile_shows_its_fix_and_a_cheap_one_does_not() {
        let expected = |id: &str, seconds: f64| StepCompile {
            compile_id: id.into(),
            function: Some("forward".into()),
            recompile: Some(true),
            seconds: Some(seconds),
            cause: Some(StepCause {
                category: "shape_input".into(),
                culprit: "input_ids".into(),
                severity: Some("expected".into()),
                evidence: Some("became_dynamic".into()),
                advice: Some("torch._dynamo.mark_dynamic(input_ids, 1) before the first call".into()),
                ..StepCause::default()
            }),
            ..StepCompile::default()
        };
        let mut steps: Vec<Step> = (1..=6).map(|n| step(n, vec![])).collect();
        steps[1].compiles = vec![expected("0/1", 25.7)];
        steps[1].wall_ms = 25_700.0;
        steps[3].compiles = vec![expected("0/2", 0.2)];
        steps[3].wall_ms = 210.0;
        let text = render(&analyse(&steps, None, 10), 160);
        assert!(
            text.contains("fix: costly (25.70 s): torch._dynamo.mark_dynamic(input_ids, 1) before the first call"),
            "{text}"
        );
        assert_eq!(text.matches("fix: ").count(), 1, "{text}");
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
                severity: Some("problem".into()),
                evidence: Some("limit_hit".into()),
                ..StepCause::default()
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
                attempt: 1,
                step: 3,
                compile_id: "0/8".into(),
                name: None,
                function: Some("forward".into()),
                steps_after: 2,
                last_step: 5,
            }]
        );
        let text = render(&a, 160);
        assert!(
            text.contains("step 3: 0/8 forward hit the recompile limit; it ran eagerly, uncompiled, for the 2 steps after it (4-5)"),
            "{text}"
        );
    }
}
