//! The summary's list of recompiles: one line each, the guard that failed
//! cut between whole tokens to fit, and where it points on the line below
//! when the two do not fit side by side.

use super::fit::{clip_code, write_wrapped};
use crate::analysis::{Finding, Findings, Severity};
use crate::report::format::{fold_ranks, rank_list, width};
use crate::report::paths::display_site;
use crate::report::text::{style, Terminal};
use std::io::{self, Write};

/// Columns a guard keeps beside its source before the source moves below it.
const GUARD_AT_LEAST: usize = 30;

pub fn write_recompiles(out: &mut Terminal, findings: &Findings<'_>, w: usize) -> io::Result<()> {
    write_wrapped(
        out,
        "Recompiles (cause = the failed cache entry closest to the new call; ! = problem):",
        w,
        "",
        "  ",
    )?;
    let run = findings.run;
    let several_runs = run.runs.iter().filter(|r| r.selected).count() > 1;
    for (r, ranks) in fold_across_ranks(&findings.recompiles) {
        write_recompile(out, r, &ranks, several_runs, w)?;
    }
    Ok(())
}

/// The recompiles, each once with the ranks it happened on: the same
/// recompile (compile id, cause, guard) of 64 ranks' copies is one line,
/// with the slowest rank's seconds.
fn fold_across_ranks<'a, 'r>(recompiles: &'a [Finding<'r>]) -> Vec<(&'a Finding<'r>, Vec<u32>)> {
    fold_ranks(
        recompiles,
        |r| r.frame.rank,
        |r| {
            let f = r.frame;
            Some((
                (f.run, f.generation, f.frame_id, f.function.as_deref()),
                (&r.compile.compile_id, r.compile.failed, r.severity, r.cause.category),
                r.guard().map(|g| &g.guard),
            ))
        },
        |a, b| a.compile.duration_s > b.compile.duration_s,
    )
}

fn write_recompile(out: &mut Terminal, r: &Finding<'_>, ranks: &[u32], several_runs: bool, w: usize) -> io::Result<()> {
    let c = r.compile;
    let secs = c.duration_s.map_or("   ? s".to_string(), |d| format!("{d:>5.2} s"));
    let rank = match ranks {
        [] | [0] => String::new(),
        [one] => format!("r{one} "),
        many => format!("r{} ", rank_list(many)),
    };
    let rank = if several_runs {
        format!("run{} {rank}", r.frame.run)
    } else {
        rank
    };
    let category = r.cause.category.name();
    let mark = if r.severity == Severity::Problem { "!" } else { " " };
    let after_mark = format!(" {rank}{:<6} {secs}  [", c.compile_id);
    let head = format!("{mark}{after_mark}{category}] ");
    // A head too long for a guard beside it (many ranks named) puts the
    // guard on the line below.
    let below_head = w.saturating_sub(width(&head)) < GUARD_AT_LEAST;
    let start = if below_head { 8 } else { width(&head) };
    let room = w.saturating_sub(start);
    // The source and the count stay whole; only the guard is cut.
    let (text, below) = match r.guard() {
        Some(g) => {
            let mut suffix = Vec::new();
            if let Some(src) = &g.source {
                suffix.push(format!("[{}]", display_site(src)));
            }
            let older = c.recompile_reasons.len() - 1;
            if older > 0 {
                suffix.push(format!("(+{older} older)"));
            }
            let suffix = suffix.join("  ");
            let guard = match &g.entry {
                Some(e) => format!("{e}: {}", g.guard),
                None => g.guard.clone(),
            };
            let beside = room.saturating_sub(width(&suffix) + 2);
            if suffix.is_empty() {
                (clip_code(&guard, room.max(GUARD_AT_LEAST)), None)
            } else if beside >= GUARD_AT_LEAST || width(&guard) <= beside {
                (
                    format!("{}  {suffix}", clip_code(&guard, beside.max(GUARD_AT_LEAST))),
                    None,
                )
            } else {
                (clip_code(&guard, room.max(GUARD_AT_LEAST)), Some(suffix))
            }
        }
        None if c.cache_limit => ("recompile limit hit: Dynamo refused to compile".to_string(), None),
        None => ("(no recompile_reasons logged)".to_string(), None),
    };
    // The head in pieces, for its colours; `head` measured it whole.
    out.styled(style::severity(r.severity), mark)?;
    write!(out, "{after_mark}")?;
    out.styled(style::category(r.cause.category), category)?;
    if below_head {
        writeln!(out, "]\n{}{text}", " ".repeat(start))?;
    } else {
        writeln!(out, "] {text}")?;
    }
    if let Some(below) = below {
        let indent = start.min(w.saturating_sub(width(&below))).max(4);
        writeln!(out, "{}{below}", " ".repeat(indent))?;
    }
    if c.cache_limit && c.recompile_reasons.is_empty() {
        return Ok(());
    }
    if c.failed {
        let why = c.fail_reason.as_deref().or(c.fail_type.as_deref()).unwrap_or("failed");
        let first = why.lines().next().unwrap_or(why);
        write_wrapped(
            out,
            &format!("failed: {first}"),
            w,
            "                 ",
            "                   ",
        )?;
    }
    Ok(())
}
