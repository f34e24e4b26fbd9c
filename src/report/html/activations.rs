//! The report's Activations section: per module output, a sparkline of each
//! stat over steps (two traces overlaid), NaN/inf marked, and with two
//! traces the first divergent layer and a module x step heat strip of the
//! relative error. Geometry is computed here; the template only places it.

use crate::activation_diff::outcome::{Diff, DiffVerdict, Divergence};
use crate::activation_diff::series::{Activations, Cell, Overview, Row, MAX_COLUMNS, MAX_ROWS, MAX_STATS};
use crate::report::format::{display_module, g, plural};
use serde::Serialize;
use std::fmt::Write;

const SPARK_W: f64 = 150.0;
const SPARK_H: f64 = 30.0;
const PAD: f64 = 2.5;
const HEAT_LABEL_W: f64 = 260.0;
const HEAT_W: f64 = 1160.0;
const HEAT_ROW_H: f64 = 14.0;
const HEAT_TOP: f64 = 20.0;

#[derive(Serialize)]
pub struct Section {
    pub traces: Vec<String>,
    /// `ok`, `bad` or `plain` (one trace).
    pub tone: &'static str,
    pub sentence: String,
    pub first: Option<FirstView>,
    pub stats: Vec<String>,
    pub rows: Vec<RowView>,
    pub notes: Vec<String>,
    pub steps: String,
    pub heat: Option<Heat>,
    pub problems: Vec<String>,
}

#[derive(Serialize)]
pub struct FirstView {
    pub module: String,
    pub tensor: String,
    pub step: i64,
    pub lines: String,
    pub stats: Vec<[String; 4]>,
    pub layout: Vec<String>,
}

#[derive(Serialize)]
pub struct RowView {
    pub module: String,
    pub tensor: String,
    pub first: bool,
    pub tone: &'static str,
    pub note: Option<String>,
    pub sparks: Vec<Spark>,
}

#[derive(Serialize)]
pub struct Spark {
    pub w: f64,
    pub h: f64,
    /// SVG path data for A and B (empty when there is no finite value).
    pub a: String,
    pub b: String,
    /// x of the step buckets holding a NaN or infinite value.
    pub marks: Vec<f64>,
    pub tip: String,
}

#[derive(Serialize)]
pub struct Heat {
    pub width: f64,
    pub height: f64,
    pub label_w: f64,
    pub rows: Vec<HeatRow>,
    pub cells: Vec<HeatCell>,
    pub first_x: Option<f64>,
    pub ticks: Vec<(f64, String)>,
}

#[derive(Serialize)]
pub struct HeatRow {
    pub y: f64,
    pub label: String,
    pub first: bool,
}

#[derive(Serialize)]
pub struct HeatCell {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub class: &'static str,
    pub color: String,
    pub tip: String,
}

pub fn build(act: &Activations) -> Section {
    let o = &act.overview;
    let diff = act.diff.as_ref();
    let first = diff.and_then(|d| d.first_divergence.as_ref());
    let is_first = |r: &Row| first.is_some_and(|f| f.module == r.module && f.tensor == r.tensor);
    let columns = o.columns();
    let rows = o
        .rows
        .iter()
        .map(|r| RowView {
            module: display_module(&r.module),
            tensor: r.tensor.clone(),
            first: is_first(r),
            tone: if r.nonfinite > 0 || r.divergent > 0 {
                "bad"
            } else if r.one_sided > 0 {
                "warn"
            } else {
                "plain"
            },
            note: row_note(r, diff.is_some()),
            sparks: (0..o.stats.len()).map(|s| spark(r, s, columns, o)).collect(),
        })
        .collect();
    let mut notes = Vec::new();
    if o.rows_omitted > 0 {
        notes.push(format!(
            "{} not drawn (the first {MAX_ROWS} module outputs are).",
            plural(o.rows_omitted, "more module output is", "more module outputs are")
        ));
    }
    if o.stats_omitted > 0 {
        notes.push(format!("Only the first {MAX_STATS} stats are drawn."));
    }
    if o.skipped > 0 {
        notes.push(format!(
            "{} of later passes (a step lower than the one before) are not drawn.",
            plural(o.skipped as usize, "record", "records")
        ));
    }
    let (tone, sentence) = verdict(act);
    Section {
        traces: act
            .traces
            .iter()
            .zip(["A", "B"])
            .map(|(t, side)| {
                let bad = if t.malformed > 0 {
                    format!(
                        " · {}",
                        plural(t.malformed as usize, "malformed line", "malformed lines")
                    )
                } else {
                    String::new()
                };
                format!("{side}: {} · {} records · {} steps{bad}", t.path, t.records, t.steps)
            })
            .collect(),
        tone,
        sentence,
        first: first.map(first_view),
        stats: o.stats.clone(),
        rows,
        notes,
        steps: step_range(o, columns),
        heat: diff.map(|d| heat(o, d, columns)),
        problems: act
            .traces
            .iter()
            .flat_map(|t| t.problems.iter().take(10).cloned())
            .collect(),
    }
}

fn verdict(act: &Activations) -> (&'static str, String) {
    let Some(d) = &act.diff else {
        let nonfinite = act.overview.rows.iter().filter(|r| r.nonfinite > 0).count();
        let sentence = if nonfinite > 0 {
            format!(
                "{} NaN or infinite values.",
                plural(nonfinite, "module output has", "module outputs have")
            )
        } else {
            "One trace: its stats over steps. Give a second --activations to compare.".to_string()
        };
        return (if nonfinite > 0 { "bad" } else { "plain" }, sentence);
    };
    let tol = format!("rtol {}, atol {}", d.tolerance.rtol, d.tolerance.atol);
    match (&d.verdict, &d.first_divergence) {
        (DiffVerdict::Equal, _) => (
            "ok",
            format!(
                "A and B are equal within tolerance ({tol}): {} records compared.",
                d.compared
            ),
        ),
        (DiffVerdict::Divergent, Some(f)) => (
            "bad",
            format!(
                "First divergence: {} ({}) at step {}; {} of {} records differ ({tol}).",
                display_module(&f.module),
                f.tensor,
                f.step,
                d.divergent,
                d.compared
            ),
        ),
        (DiffVerdict::Unreadable, _) => (
            "bad",
            "A trace could not be read to its end: no verdict (see `guardscope diff`).".to_string(),
        ),
        (DiffVerdict::NothingCompared, _) => (
            "bad",
            format!(
                "No stat value could be compared: {} records aligned, but their values are null, NaN, <error> or malformed.",
                d.compared
            ),
        ),
        (DiffVerdict::Divergent, None) => (
            "bad",
            format!(
                "{} records are on one side only ({} compared, all equal); see `guardscope diff`.",
                d.only_in_a.records + d.only_in_b.records,
                d.compared
            ),
        ),
    }
}

fn first_view(f: &Divergence) -> FirstView {
    let mut layout = Vec::new();
    if let Some(s) = &f.shape {
        layout.push(format!("shape: A {:?}, B {:?}", s.a, s.b));
    }
    if let Some(t) = &f.dtype {
        layout.push(format!("dtype: A {}, B {}", t.a, t.b));
    }
    let value = |v: &crate::activation_diff::RecordedStat| match v.to_json() {
        serde_json::Value::Number(n) => g(n.as_f64().unwrap_or(f64::NAN), 7),
        other => other.as_str().map_or_else(|| other.to_string(), str::to_string),
    };
    FirstView {
        module: display_module(&f.module),
        tensor: f.tensor.clone(),
        step: f.step,
        lines: format!("A line {}, B line {}", f.line_a, f.line_b),
        stats: f
            .stats
            .iter()
            .map(|s| [s.stat.clone(), value(&s.a), value(&s.b), g(s.rel_error, 3)])
            .collect(),
        layout,
    }
}

fn row_note(r: &Row, two: bool) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(step) = r.first_nonfinite_step {
        parts.push(format!("NaN/inf from step {step} ({} records)", r.nonfinite));
    }
    if two && r.divergent > 0 {
        parts.push(format!("{} divergent", r.divergent));
    }
    if r.one_sided > 0 {
        parts.push(format!("{} on one side only", r.one_sided));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

fn x_of(bucket: usize, columns: usize, width: f64) -> f64 {
    if columns <= 1 {
        return width / 2.0;
    }
    PAD + bucket as f64 * (width - 2.0 * PAD) / (columns - 1) as f64
}

fn spark(r: &Row, stat: usize, columns: usize, o: &Overview) -> Spark {
    let series = |side: usize| r.samples[side].get(stat).map(Vec::as_slice).unwrap_or(&[]);
    let (a, b) = (series(0), series(1));
    let finite = a.iter().chain(b).flatten().copied();
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    let y = |v: f64| {
        if hi > lo {
            SPARK_H - PAD - (v - lo) / (hi - lo) * (SPARK_H - 2.0 * PAD)
        } else {
            SPARK_H / 2.0
        }
    };
    let path = |values: &[Option<f64>]| {
        let mut d = String::new();
        let mut pen_down = false;
        for (i, v) in values.iter().enumerate() {
            match v {
                Some(v) => {
                    let _ = write!(
                        d,
                        "{}{:.1} {:.1} ",
                        if pen_down { "L" } else { "M" },
                        x_of(i, columns, SPARK_W),
                        y(*v)
                    );
                    pen_down = true;
                }
                None => pen_down = false,
            }
        }
        d.trim_end().to_string()
    };
    let marks = (0..columns)
        .filter(|&i| r.cells.get(i).is_some_and(|c| c.nonfinite > 0))
        .map(|i| r1(x_of(i, columns, SPARK_W)))
        .collect();
    let name = &o.stats[stat];
    let tip = if lo <= hi {
        format!("{} · {name}: {} … {}", display_module(&r.module), g(lo, 4), g(hi, 4))
    } else {
        format!("{} · {name}: no finite value", display_module(&r.module))
    };
    Spark {
        w: SPARK_W,
        h: SPARK_H,
        a: path(a),
        b: path(b),
        marks,
        tip,
    }
}

fn heat(o: &Overview, d: &Diff, columns: usize) -> Heat {
    let plot_w = HEAT_W - HEAT_LABEL_W;
    let cell_w = plot_w / columns.max(1) as f64;
    let first = d.first_divergence.as_ref();
    let mut rows = Vec::new();
    let mut cells = Vec::new();
    for (i, r) in o.rows.iter().enumerate() {
        let y = HEAT_TOP + i as f64 * HEAT_ROW_H;
        let is_first = first.is_some_and(|f| f.module == r.module && f.tensor == r.tensor);
        let tensor = if r.tensor == "out" {
            String::new()
        } else {
            format!(" {}", r.tensor)
        };
        rows.push(HeatRow {
            y,
            label: format!("{}{tensor}", display_module(&r.module)),
            first: is_first,
        });
        for (b, cell) in r.cells.iter().enumerate() {
            let Some((class, color)) = shade(cell, d.tolerance.rtol) else {
                continue;
            };
            cells.push(HeatCell {
                x: r1(HEAT_LABEL_W + b as f64 * cell_w),
                y,
                w: r1((cell_w - 0.5).max(0.5)),
                h: HEAT_ROW_H - 1.0,
                class,
                color,
                tip: cell_tip(r, b, cell, o),
            });
        }
    }
    let first_x = first
        .filter(|f| f.pass == 0)
        .and_then(|f| o.origin.map(|origin| (f.step - origin) / o.stride))
        .map(|b| r1(HEAT_LABEL_W + (b as f64 + 0.5) * cell_w));
    let ticks = (0..columns)
        .step_by((columns / 8).max(1))
        .map(|b| (r1(HEAT_LABEL_W + (b as f64 + 0.5) * cell_w), bucket_label(o, b)))
        .collect();
    Heat {
        width: HEAT_W,
        height: HEAT_TOP + o.rows.len() as f64 * HEAT_ROW_H + 4.0,
        label_w: HEAT_LABEL_W,
        rows,
        cells,
        first_x,
        ticks,
    }
}

/// Equal cells are green (paler when bitwise equal); divergent ones orange
/// to red with log10(rel / rtol) over three decades; one-sided ones grey.
fn shade(c: &Cell, rtol: f64) -> Option<(&'static str, String)> {
    if c.compared == 0 {
        return (c.one_sided > 0).then(|| ("one-sided", "#adb5bd".to_string()));
    }
    let rel = c.max_rel.unwrap_or(0.0);
    if c.divergent == 0 {
        let color = if rel == 0.0 { "#ebfbee" } else { "#b2f2bb" };
        return Some(("equal", color.to_string()));
    }
    let t = if rel.is_finite() {
        ((rel / rtol.max(1e-300)).log10() / 3.0).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let mix = |from: u8, to: u8| (from as f64 + (to as f64 - from as f64) * t).round() as u8;
    Some((
        "divergent",
        format!("#{:02x}{:02x}{:02x}", mix(0xff, 0xa6), mix(0xc0, 0x1e), mix(0x78, 0x1e)),
    ))
}

fn cell_tip(r: &Row, bucket: usize, c: &Cell, o: &Overview) -> String {
    let mut tip = format!("{} · {}", display_module(&r.module), bucket_label(o, bucket));
    if c.compared > 0 {
        let rel = c.max_rel.map_or_else(|| "-".to_string(), |v| g(v, 3));
        let _ = write!(
            tip,
            "\n{} compared, {} divergent, max rel err {rel}",
            c.compared, c.divergent
        );
    }
    if c.one_sided > 0 {
        let _ = write!(tip, "\n{} on one side only", c.one_sided);
    }
    if c.nonfinite > 0 {
        let _ = write!(tip, "\n{} with NaN/inf", c.nonfinite);
    }
    tip
}

fn bucket_label(o: &Overview, bucket: usize) -> String {
    let start = o.origin.unwrap_or(0) + bucket as i64 * o.stride;
    if o.stride == 1 {
        format!("step {start}")
    } else {
        format!("steps {start}–{}", start + o.stride - 1)
    }
}

fn step_range(o: &Overview, columns: usize) -> String {
    let Some(origin) = o.origin else {
        return String::new();
    };
    let last = origin + columns as i64 * o.stride - 1;
    if o.stride == 1 {
        format!("Steps {origin}–{last}, one point per step.")
    } else {
        format!(
            "Steps {origin}–{last}, one point per {} steps (the first of each; at most {MAX_COLUMNS} points).",
            o.stride
        )
    }
}

/// Coordinates to 0.1 px: a page of thousands of cells stays small.
fn r1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}
