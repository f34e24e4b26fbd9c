//! The frames table of the terminal summary. A distributed run shows each
//! compiled function once, with how many ranks compiled it and the ranks
//! that did so differently, instead of a row per rank's copy.

use super::fit::{tail_path, write_wrapped};
use super::TerminalOptions;
use crate::analysis::{self, Findings, FrameGroup};
use crate::model::Frame;
use crate::report::format::{pad, width};
use crate::report::paths::display;
use crate::report::runs::{colliding_frames, log_clock};
use std::collections::HashSet;
use std::io::{self, Write};

/// Differing ranks named in a row before "+N more".
const DIFFERING_SHOWN: usize = 2;

pub fn write_frames(out: &mut dyn Write, findings: &Findings<'_>, opts: &TerminalOptions) -> io::Result<()> {
    let run = findings.run;
    let across_ranks = findings.frames.iter().any(|g| g.copies.len() > 1);
    let multi_gen = run.frames.iter().any(|f| f.generation > 0);
    let colliding: HashSet<*const Frame> = colliding_frames(run)
        .into_iter()
        .map(|i| &run.frames[i] as *const Frame)
        .collect();
    let id = |f: &Frame, with_rank: bool| {
        let mut id = f.frame_id.to_string();
        if with_rank {
            id = format!("r{}:{id}", f.rank.map_or("?".into(), |r| r.to_string()));
        }
        if multi_gen {
            id = format!("{id} (reset {})", f.generation);
        }
        if colliding.contains(&(f as *const Frame)) {
            id = match run
                .runs
                .get(f.run)
                .and_then(|r| r.start)
                .filter(|_| run.has_several_runs())
            {
                Some(start) => format!("{id} (run {}, pid {}, {})", f.run, f.pid, log_clock(start)),
                None => format!("{id} (pid {})", f.pid),
            };
        }
        id
    };
    let mut header = vec!["frame", "compiled", "location"];
    let with_rank = run.has_several_ranks();
    // A text log has no compile times: "?" rather than a made-up 0.00.
    let timed = run.text_log().is_none();
    let secs = move |s: f64| if timed { format!("{s:.2}") } else { "?".to_string() };
    // The rows are made twice, to measure the columns and then to write
    // them, rather than held: a fleet's table has 10^5-10^6 rows.
    let rows = || -> Box<dyn Iterator<Item = Vec<String>> + '_> {
        if across_ranks {
            Box::new(findings.frames.iter().map(|g| {
                let f = g.first();
                vec![
                    id(f, false),
                    analysis::frame_name(f),
                    location(f),
                    g.copies.len().to_string(),
                    g.typical_compiles.to_string(),
                    g.typical_attempts().to_string(),
                    secs(g.slowest_seconds()),
                    differs(g),
                ]
            }))
        } else {
            Box::new(findings.frames.iter().flat_map(|g| &g.copies).map(|f| {
                vec![
                    id(f, with_rank),
                    analysis::frame_name(f),
                    location(f),
                    f.compiles.len().to_string(),
                    f.attempts().to_string(),
                    secs(f.compile_seconds()),
                ]
            }))
        }
    };
    if across_ranks {
        header.extend(["ranks", "compiles", "attempts", "seconds", "differs"]);
    } else {
        header.extend(["compiles", "attempts", "seconds"]);
    }
    let mut widths: Vec<usize> = header.iter().map(|h| width(h)).collect();
    for row in rows() {
        for (w, cell) in widths.iter_mut().zip(&row) {
            *w = (*w).max(width(cell));
        }
    }
    // Shrink the location column first when the table is too wide, by
    // whole directories; when even file names do not fit, one frame a block.
    let fixed: usize = widths
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, w)| w + 2)
        .sum();
    let room = opts.width.saturating_sub(fixed + 2);
    // Every location must fit once shortened, or the table becomes blocks.
    if room < width(header[2]) || !rows().all(|r| tail_path(&r[2], room).is_some()) {
        return write_blocks(out, &header, rows(), across_ranks, opts.width);
    }
    let shortened = || {
        rows().map(move |mut r| {
            if let Some(short) = tail_path(&r[2], room) {
                r[2] = short;
            }
            r
        })
    };
    widths[2] = shortened()
        .map(|r| width(&r[2]))
        .max()
        .unwrap_or(0)
        .max(width(header[2]));
    // Text columns are left-aligned, counts right-aligned; `differs` is text.
    let last_text = header.len() - 1;
    let fmt_row = |cells: &[&str]| {
        let mut line = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            line.push(' ');
            line.push(' ');
            if i < 3 || (across_ranks && i == last_text) {
                line.push_str(&pad(cell, *w));
            } else {
                line.push_str(&" ".repeat(w.saturating_sub(width(cell))));
                line.push_str(cell);
            }
        }
        line.trim_end().to_string()
    };
    writeln!(out, "{}", fmt_row(&header))?;
    for row in shortened() {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        writeln!(out, "{}", fmt_row(&cells))?;
    }
    if across_ranks {
        write_wrapped(out, LEGEND, opts.width, "  ", "   ")?;
    }
    Ok(())
}

const LEGEND: &str =
    "(compiles, attempts: what most ranks did; seconds: the slowest rank's; differs: ranks that compiled otherwise)";

/// The table too wide for the terminal: each frame as a line of its name and
/// counts, wrapped, then its location.
fn write_blocks(
    out: &mut dyn Write,
    header: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
    across_ranks: bool,
    columns: usize,
) -> io::Result<()> {
    for row in rows {
        let counts: Vec<String> = header[3..]
            .iter()
            .zip(&row[3..])
            .filter(|(_, v)| !v.is_empty())
            .map(|(h, v)| format!("{h} {v}"))
            .collect();
        let line = format!("frame {}  {}: {}", row[0], row[1], counts.join(", "));
        write_wrapped(out, &line, columns, "  ", "      ")?;
        writeln!(out, "      at {}", row[2])?;
    }
    if across_ranks {
        write_wrapped(out, LEGEND, columns, "  ", "   ")?;
    }
    Ok(())
}

fn differs(g: &FrameGroup<'_>) -> String {
    let mut parts: Vec<String> = g.differing.iter().take(DIFFERING_SHOWN).map(|d| d.short()).collect();
    if g.differing.len() > DIFFERING_SHOWN {
        parts.push(format!("+{} more", g.differing.len() - DIFFERING_SHOWN));
    }
    parts.join("; ")
}

fn location(f: &Frame) -> String {
    match (&f.file, f.line) {
        (Some(file), Some(line)) => format!("{}:{line}", display(file)),
        (Some(file), None) => display(file),
        _ => "?".to_string(),
    }
}
