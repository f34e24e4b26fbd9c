//! `guardscope diff` in the terminal: the verdict, the first divergent
//! record with its stats, the next ones, a per-step summary, and what is on
//! one side only.

use crate::activation_diff::{outcome::StepRow, Diff, DiffVerdict, Divergence};
use crate::report::format::{display_module, g, pad, plural, width};
use crate::report::text::{style, Terminal};
use std::io::{self, Write};

/// Writes the verdict's word in its colour; the sentence follows.
fn verdict<'t, 'w>(out: &'t mut Terminal<'w>, style: anstyle::Style, word: &str) -> io::Result<&'t mut Terminal<'w>> {
    out.styled(style, word)?;
    Ok(out)
}

/// Steps listed in the terminal (all are in `--json`).
const STEP_ROWS_SHOWN: usize = 20;

pub fn write_diff(out: &mut Terminal, d: &Diff) -> io::Result<()> {
    let path_columns = width(&d.a.path).max(width(&d.b.path));
    for (label, s) in [("A", &d.a), ("B", &d.b)] {
        let passes = if s.passes > 1 {
            format!(" in {} passes", s.passes)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{label}  {}  {} records · {} steps{passes}{}",
            pad(&s.path, path_columns),
            s.records,
            s.steps,
            match s.malformed {
                0 => String::new(),
                n => format!(" · {}", plural(n as usize, "malformed line", "malformed lines")),
            }
        )?;
    }
    let stats = d
        .stats
        .as_ref()
        .map(|s| format!("; stats {}", s.join(",")))
        .unwrap_or_default();
    writeln!(
        out,
        "tolerance: rtol {}, atol {}; shape and dtype exact{stats}\n",
        d.tolerance.rtol, d.tolerance.atol
    )?;
    let passes = d.a.passes.max(d.b.passes) > 1;
    let missing = d.only_in_a.records + d.only_in_b.records;
    match d.verdict {
        DiffVerdict::Equal => {
            out.styled(style::pass(), "EQUAL")?;
            write!(out, ": all {} aligned records within tolerance", d.compared)?;
            if missing > 0 {
                write!(out, " ({missing} records on one side only, allowed)")?;
            }
            writeln!(out, ".")?;
        }
        DiffVerdict::Divergent if d.divergent > 0 => writeln!(
            verdict(out, style::fail(), "DIVERGENT")?,
            ": {} of {} aligned records differ ({} equal).",
            d.divergent, d.compared, d.equal
        )?,
        DiffVerdict::Divergent if d.compared == 0 => writeln!(
            verdict(out, style::fail(), "DIVERGENT")?,
            ": no record of A aligns with one of B ({missing} records on one side only)."
        )?,
        DiffVerdict::Divergent => writeln!(
            verdict(out, style::fail(), "DIVERGENT")?,
            ": all {} aligned records are equal, but {missing} records are on one side only.",
            d.compared
        )?,
        DiffVerdict::Unreadable => writeln!(
            verdict(out, style::fail(), "UNREADABLE")?,
            ": {} could not be read to its end (read error, listed below); no verdict on the {} records aligned so far.",
            match (d.a.read_errors > 0, d.b.read_errors > 0) {
                (true, true) => "A and B",
                (true, false) => "A",
                _ => "B",
            },
            d.compared
        )?,
        DiffVerdict::NothingCompared => writeln!(
            out,
            "NOT COMPARED: {} records aligned, but no stat value could be compared ({} of {} values not comparable: null, NaN on both sides, <error> or malformed); no evidence of parity.",
            d.compared, d.not_comparable, d.values_compared
        )?,
    }
    if d.not_comparable > 0 {
        writeln!(
            out,
            "{} of {} stat values were not comparable (NaN on both sides, null or <error>).",
            d.not_comparable, d.values_compared
        )?;
    }
    if let Some(first) = &d.first_divergence {
        writeln!(out, "\nFirst divergence (in A's order):")?;
        write_first(out, first, passes)?;
    }
    if !d.next_divergences.is_empty() {
        writeln!(out, "\nNext divergent records (A's order):")?;
        let rows: Vec<Vec<String>> = d.next_divergences.iter().map(|v| next_row(v, passes)).collect();
        let head = ["step", "module", "tensor", "call", "beyond tolerance", "max rel err"];
        write_table(out, &head, &rows)?;
    }
    write_steps(out, d, passes)?;
    for (label, side) in [("A", &d.only_in_a), ("B", &d.only_in_b)] {
        if side.records == 0 {
            continue;
        }
        writeln!(
            out,
            "\nOnly in {label}: {} records of {} module outputs",
            side.records,
            side.groups.len() as u64 + side.groups_omitted
        )?;
        let rows: Vec<Vec<String>> = side
            .groups
            .iter()
            .take(STEP_ROWS_SHOWN)
            .map(|g| {
                let mut name = display_module(&g.module);
                if g.original != g.module {
                    name = format!("{name} (as {})", g.original);
                }
                let first = position(g.first_pass, g.first_step, passes);
                vec![
                    name,
                    g.tensor.clone(),
                    g.records.to_string(),
                    first,
                    g.first_line.to_string(),
                ]
            })
            .collect();
        write_table(out, &["module", "tensor", "records", "from step", "line"], &rows)?;
        let more = side.groups.len().saturating_sub(STEP_ROWS_SHOWN) as u64 + side.groups_omitted;
        if more > 0 {
            writeln!(out, "  … {more} more (--json lists {})", side.groups.len())?;
        }
    }
    if let Some(hint) = &d.hint {
        writeln!(out, "\nHint: {hint}")?;
    }
    for (label, s) in [("A", &d.a), ("B", &d.b)] {
        if s.malformed > 0 {
            writeln!(out, "\n{} malformed lines in {label} (skipped):", s.malformed)?;
            for p in s.problems.iter().take(10) {
                writeln!(out, "  {p}")?;
            }
        }
    }
    Ok(())
}

fn write_first(out: &mut dyn Write, v: &Divergence, passes: bool) -> io::Result<()> {
    writeln!(
        out,
        "  step {} · {} · {} · call {}   (A line {}, B line {})",
        position(v.pass, v.step, passes),
        display_module(&v.module),
        v.tensor,
        v.call,
        v.line_a,
        v.line_b
    )?;
    if v.module_a != v.module || v.module_b != v.module {
        writeln!(
            out,
            "  names: A {}, B {}",
            display_module(&v.module_a),
            display_module(&v.module_b)
        )?;
    }
    if let Some(s) = &v.shape {
        writeln!(out, "  shape: A {:?}, B {:?}", s.a, s.b)?;
    }
    if let Some(t) = &v.dtype {
        writeln!(out, "  dtype: A {}, B {}", t.a, t.b)?;
    }
    if !v.stats.is_empty() {
        let rows: Vec<Vec<String>> = v
            .stats
            .iter()
            .map(|s| {
                vec![
                    s.stat.clone(),
                    value(&s.a.to_json()),
                    value(&s.b.to_json()),
                    g(s.abs_error, 4),
                    g(s.rel_error, 3),
                ]
            })
            .collect();
        write_table(out, &["stat", "A", "B", "abs err", "rel err"], &rows)?;
    }
    if !v.not_comparable.is_empty() {
        writeln!(out, "  not comparable: {}", v.not_comparable.join(", "))?;
    }
    Ok(())
}

fn next_row(v: &Divergence, passes: bool) -> Vec<String> {
    let mut what: Vec<String> = v.stats.iter().map(|s| s.stat.clone()).collect();
    if v.shape.is_some() {
        what.insert(0, "shape".into());
    }
    if v.dtype.is_some() {
        what.insert(0, "dtype".into());
    }
    vec![
        position(v.pass, v.step, passes),
        display_module(&v.module),
        v.tensor.clone(),
        v.call.to_string(),
        what.join(","),
        g(v.max_rel_error, 3),
    ]
}

fn write_steps(out: &mut dyn Write, d: &Diff, passes: bool) -> io::Result<()> {
    let total = d.steps.len() as u64 + d.steps_omitted;
    let flagged: Vec<&StepRow> = d
        .steps
        .iter()
        .filter(|s| s.divergent > 0 || s.only_in_a > 0 || s.only_in_b > 0)
        .collect();
    let with_div = d.steps.iter().filter(|s| s.divergent > 0).count();
    if flagged.is_empty() && d.steps_omitted == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "\nPer step: {total} steps; {with_div} with divergent records, {} with records on one side only{}",
        d.steps.iter().filter(|s| s.only_in_a + s.only_in_b > 0).count(),
        if d.steps_omitted > 0 {
            format!(" (in the first {} steps)", d.steps.len())
        } else {
            String::new()
        }
    )?;
    let rows: Vec<Vec<String>> = flagged
        .iter()
        .take(STEP_ROWS_SHOWN)
        .map(|s| {
            vec![
                position(s.pass, s.step, passes),
                s.compared.to_string(),
                s.divergent.to_string(),
                s.divergent_modules.to_string(),
                s.only_in_a.to_string(),
                s.only_in_b.to_string(),
                g(s.max_rel_error, 3),
            ]
        })
        .collect();
    let head = [
        "step",
        "compared",
        "divergent",
        "modules",
        "only A",
        "only B",
        "max rel err",
    ];
    write_table(out, &head, &rows)?;
    if flagged.len() > STEP_ROWS_SHOWN {
        writeln!(
            out,
            "  … {} more steps (all in --json)",
            flagged.len() - STEP_ROWS_SHOWN
        )?;
    }
    Ok(())
}

fn write_table(out: &mut dyn Write, head: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let mut widths: Vec<usize> = head.iter().map(|h| width(h)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
        format!("    {}", padded.join("  ").trim_end())
    };
    writeln!(out, "{}", line(head.to_vec()))?;
    for row in rows {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

fn position(pass: u32, step: i64, passes: bool) -> String {
    if passes {
        format!("{pass}:{step}")
    } else {
        step.to_string()
    }
}

fn value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), |x| g(x, 7)),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
