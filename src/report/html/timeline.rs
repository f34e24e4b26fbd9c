//! The timeline chart's geometry: wall-clock time on x, one lane per frame
//! (per rank), one bar per compile attempt, step durations on the same axis.
//! Everything is computed here so the template only places shapes.

use super::palette;
use crate::analysis::{Finding, Findings};
use crate::model::{steady_median_wall_ms, Compile, Frame, Run, Step};
use crate::report::format::{ellipsize_middle, millis, secs, utc};
use serde::Serialize;

/// Fits the page's widest card (1240 px less padding) without scrolling.
const WIDTH: f64 = 1140.0;
const LABEL_W: f64 = 220.0;
const RIGHT_PAD: f64 = 24.0;
const AXIS_H: f64 = 26.0;
const LANE_H: f64 = 24.0;
const BAR_H: f64 = 14.0;
const STEP_LANE_H: f64 = 46.0;
const MIN_BAR_W: f64 = 3.0;
/// More lanes than this stop being readable; the rest are listed as hidden.
pub const MAX_LANES: usize = 40;
const MAX_STEP_LANES: usize = 8;
/// Step boundaries are drawn as lines only while they stay apart.
const MAX_STEP_LINES: usize = 300;
/// A step this many times slower than the median step without compiles is
/// marked slow.
const SLOW_FACTOR: f64 = 2.0;

#[derive(Serialize, Default)]
pub struct Timeline {
    pub width: f64,
    pub height: f64,
    pub plot_x: f64,
    pub plot_w: f64,
    pub plot_top: f64,
    pub lanes: Vec<Lane>,
    pub bars: Vec<Bar>,
    pub ticks: Vec<Tick>,
    pub step_lanes: Vec<StepLane>,
    pub step_lines: Vec<f64>,
    pub slow_bands: Vec<Band>,
    /// "12 more frames … not drawn".
    pub hidden: Option<String>,
    /// Compiles without a start time cannot be placed.
    pub untimed: usize,
    pub origin: String,
}

#[derive(Serialize)]
pub struct Lane {
    pub y: f64,
    pub label: String,
    pub title: String,
    pub anchor: String,
    pub stripe: bool,
}

#[derive(Serialize)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// `first`, `recompile`, plus ` failed` / ` unfinished`.
    pub class: String,
    pub color: &'static str,
    pub compile_id: String,
    /// The rank whose copy of the frame compiled it: with `compile_id`,
    /// which row of the frame's section the bar is.
    pub rank: Option<u32>,
    pub tip: String,
    pub anchor: String,
    /// The legend's letter for the bar's cause (set with the legend).
    pub mark: Option<char>,
}

#[derive(Serialize)]
pub struct Tick {
    pub x: f64,
    pub label: String,
}

#[derive(Serialize)]
pub struct StepLane {
    pub y: f64,
    pub label: String,
    pub bars: Vec<StepBar>,
}

#[derive(Serialize)]
pub struct StepBar {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub slow: bool,
    pub tip: String,
}

#[derive(Serialize)]
pub struct Band {
    pub x: f64,
    pub w: f64,
}

/// `anchor` links a bar (and a fix, a break) to its frame's section. Every
/// rank's copy of a frame has one section (analysis matches copies by run,
/// reset generation, frame id and function), so the anchor of a ranked
/// frame names those and not the rank or pid.
pub fn frame_anchor(f: &Frame) -> String {
    match f.rank {
        Some(_) => {
            let function: String = f
                .function
                .as_deref()
                .unwrap_or("?")
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            format!("frame-run{}-{}-{}-{function}", f.run, f.generation, f.frame_id)
        }
        None => format!("frame-{}-{}-{}", f.pid, f.generation, f.frame_id),
    }
}

pub fn frame_label(f: &Frame, multi_rank: bool) -> String {
    let mut label = String::new();
    if multi_rank {
        label.push_str(&format!("r{} · ", f.rank.map_or("?".to_string(), |r| r.to_string())));
    }
    label.push_str(&format!("{} · {}", f.frame_id, f.function.as_deref().unwrap_or("?")));
    if f.generation > 0 {
        label.push_str(&format!(" (reset {})", f.generation));
    }
    label
}

pub fn build(findings: &Findings<'_>, steps: &[Step]) -> Timeline {
    let run = findings.run;
    let multi_rank = run.has_several_ranks();
    let (shown, hidden) = choose_lanes(run);
    let untimed = run.compiles().filter(|(_, c)| c.start.is_none()).count();

    let mut t0 = f64::INFINITY;
    let mut t1 = f64::NEG_INFINITY;
    for (_, c) in run.compiles() {
        if let Some(s) = c.start {
            t0 = t0.min(s);
            t1 = t1.max(s + c.duration_s.unwrap_or(0.0));
        }
    }
    for s in steps {
        t0 = t0.min(s.start);
        t1 = t1.max(s.end());
    }
    if !t0.is_finite() {
        return Timeline {
            untimed,
            ..Timeline::default()
        };
    }
    let span = (t1 - t0).max(1e-3) * 1.02;
    let plot_w = WIDTH - LABEL_W - RIGHT_PAD;
    let x_of = |t: f64| LABEL_W + (t - t0) / span * plot_w;

    let step_ranks = step_ranks(steps);
    let mut y = AXIS_H;
    let mut step_lanes = Vec::new();
    for rank in step_ranks.iter().take(MAX_STEP_LANES) {
        let of_rank: Vec<&Step> = steps.iter().filter(|s| s.rank == *rank).collect();
        step_lanes.push(step_lane(&of_rank, *rank, y, &x_of));
        y += STEP_LANE_H;
    }
    let plot_top = AXIS_H;
    let lanes_top = y;

    let mut lanes = Vec::new();
    let mut bars = Vec::new();
    for (i, f) in shown.iter().enumerate() {
        let lane_y = lanes_top + i as f64 * LANE_H;
        lanes.push(Lane {
            y: lane_y,
            label: ellipsize_middle(&frame_label(f, multi_rank), 30),
            title: format!(
                "{} at {}:{}",
                f.function.as_deref().unwrap_or("?"),
                f.file.as_deref().unwrap_or("?"),
                f.line.map_or("?".to_string(), |l| l.to_string())
            ),
            anchor: frame_anchor(f),
            stripe: i % 2 == 1,
        });
        for c in &f.compiles {
            bars.extend(compile_bars(
                f,
                findings.of(c),
                c,
                lane_y + (LANE_H - BAR_H) / 2.0,
                &x_of,
            ));
        }
    }
    let height = lanes_top + shown.len() as f64 * LANE_H + 8.0;

    let first_rank: Vec<&Step> = steps.iter().filter(|s| Some(&s.rank) == step_ranks.first()).collect();
    let step_lines = if first_rank.len() <= MAX_STEP_LINES {
        first_rank.iter().map(|s| x_of(s.start)).collect()
    } else {
        Vec::new()
    };
    let slow_bands = step_lanes
        .iter()
        .flat_map(|l| l.bars.iter().filter(|b| b.slow))
        .map(|b| Band { x: b.x, w: b.w })
        .collect();

    Timeline {
        width: WIDTH,
        height,
        plot_x: LABEL_W,
        plot_w,
        plot_top,
        ticks: ticks(span, &x_of, t0),
        lanes,
        bars,
        step_lanes,
        step_lines,
        slow_bands,
        hidden,
        untimed,
        origin: utc(t0),
    }
}

/// The frames that get a lane: those whose recompiles cost most, then those
/// that compiled longest, kept in run order so ranks stay together.
fn choose_lanes(run: &Run) -> (Vec<&Frame>, Option<String>) {
    let timed = |f: &&Frame| f.compiles.iter().any(|c| c.start.is_some());
    let mut order: Vec<(usize, &Frame)> = run.frames.iter().filter(timed).enumerate().collect();
    if order.len() <= MAX_LANES {
        return (order.into_iter().map(|(_, f)| f).collect(), None);
    }
    let weight = |f: &Frame| {
        let recompile_s: f64 = f
            .compiles
            .iter()
            .filter(|c| c.frame_compile_id.is_some_and(|n| n > 0))
            .filter_map(|c| c.duration_s)
            .sum();
        (recompile_s, f.compile_seconds())
    };
    order.sort_by(|a, b| {
        let (wa, wb) = (weight(a.1), weight(b.1));
        wb.0.total_cmp(&wa.0).then(wb.1.total_cmp(&wa.1)).then(a.0.cmp(&b.0))
    });
    let rest = order.split_off(MAX_LANES);
    order.sort_by_key(|(i, _)| *i);
    let compiles: usize = rest.iter().map(|(_, f)| f.compiles.len()).sum();
    let seconds: f64 = rest.iter().map(|(_, f)| f.compile_seconds()).sum();
    let note = format!(
        "{} more frames ({} compiles, {}) not drawn: the {MAX_LANES} frames that spent most time recompiling are shown. Every frame is listed under Frames.",
        rest.len(),
        compiles,
        secs(seconds)
    );
    (order.into_iter().map(|(_, f)| f).collect(), Some(note))
}

fn compile_bars(f: &Frame, finding: Option<&Finding<'_>>, c: &Compile, y: f64, x_of: &dyn Fn(f64) -> f64) -> Vec<Bar> {
    let Some(start) = c.start else { return Vec::new() };
    let recompile = c.frame_compile_id.is_some_and(|n| n > 0);
    let (kind, color, why) = if let Some(finding) = finding.filter(|_| recompile) {
        let cause = &finding.cause;
        let mut why = format!("{}: {}", cause.category.name(), cause.culprit);
        if let Some(src) = &cause.source {
            why.push_str(&format!("\n{src}"));
        }
        ("recompile", palette::category(cause.category), why)
    } else {
        (
            "first",
            palette::FIRST_COMPILE,
            "first compile of this frame".to_string(),
        )
    };
    let mut class = kind.to_string();
    let mut status = String::new();
    if c.failed {
        class.push_str(" failed");
        status = format!("\nfailed: {}", c.fail_reason.as_deref().unwrap_or("?"));
    }
    if !c.finished {
        class.push_str(" unfinished");
        status.push_str("\nunfinished: the log ends before this compile did");
    }
    let end = start + c.duration_s.unwrap_or(0.0);
    let starts: Vec<f64> = if c.attempts.len() > 1 && c.attempts.iter().all(|a| a.start.is_some()) {
        c.attempts.iter().filter_map(|a| a.start).collect()
    } else {
        vec![start]
    };
    let n = starts.len();
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let e = starts.get(i + 1).copied().unwrap_or(end).max(s);
            let attempt = if n > 1 {
                format!(" · attempt {} of {n}", i + 1)
            } else {
                String::new()
            };
            let duration = c.duration_s.map_or("duration unknown".to_string(), secs);
            Bar {
                x: round(x_of(s)),
                y,
                w: round((x_of(e) - x_of(s)).max(MIN_BAR_W)),
                h: BAR_H,
                class: class.clone(),
                color,
                compile_id: c.compile_id.clone(),
                rank: f.rank,
                tip: super::format::shown(format!(
                    "{} · {} · {duration}{attempt}\n{}\n{why}{status}",
                    c.compile_id,
                    if recompile { "recompile" } else { "compile" },
                    f.function.as_deref().unwrap_or("?"),
                )),
                anchor: frame_anchor(f),
                mark: None,
            }
        })
        .collect()
}

fn step_ranks(steps: &[Step]) -> Vec<Option<u32>> {
    let mut ranks: Vec<Option<u32>> = steps.iter().map(|s| s.rank).collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

fn step_lane(steps: &[&Step], rank: Option<u32>, y: f64, x_of: &dyn Fn(f64) -> f64) -> StepLane {
    // Against the steps that compiled nothing: when most steps compile, the
    // median of all steps is a compile step and no compile step looks slow.
    let steady = steady_median_wall_ms(steps.iter().copied()).filter(|m| *m > 0.0);
    let max = steps.iter().map(|s| s.wall_ms).fold(1e-9, f64::max);
    let usable = STEP_LANE_H - 8.0;
    let bars = steps
        .iter()
        .map(|s| {
            let h = (s.wall_ms / max * usable).max(2.0);
            let ratio = steady.map(|m| s.wall_ms / m);
            let compiles = if s.compiles.is_empty() {
                "no compiles".to_string()
            } else {
                format!("compiles: {}", s.compile_ids().collect::<Vec<_>>().join(", "))
            };
            StepBar {
                x: round(x_of(s.start)),
                y: round(y + STEP_LANE_H - 4.0 - h),
                w: round((x_of(s.end()) - x_of(s.start)).max(1.0)),
                h: round(h),
                slow: steps.len() >= 3 && ratio.is_some_and(|r| r >= SLOW_FACTOR),
                tip: match ratio {
                    Some(r) => format!(
                        "step {} · {} ({r:.1}× a step without compiles)\n{compiles}",
                        s.step,
                        millis(s.wall_ms)
                    ),
                    None => format!(
                        "step {} · {} (every step compiled: none to compare with)\n{compiles}",
                        s.step,
                        millis(s.wall_ms)
                    ),
                },
            }
        })
        .collect();
    let label = match rank {
        Some(r) => format!("steps · rank {r}"),
        None => "steps".to_string(),
    };
    StepLane { y, label, bars }
}

/// About eight ticks at round intervals (1, 2, 5 × 10^k seconds).
fn ticks(span: f64, x_of: &dyn Fn(f64) -> f64, t0: f64) -> Vec<Tick> {
    let raw = span / 8.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let mut out = Vec::new();
    let mut k = 0.0;
    while k * step <= span {
        let t = k * step;
        let label = if step >= 60.0 {
            format!("{:.0} min", t / 60.0)
        } else if step >= 1.0 {
            format!("{t:.0} s")
        } else {
            format!("{t:.prec$} s", prec = (-step.log10().floor()) as usize)
        };
        out.push(Tick {
            x: round(x_of(t0 + t)),
            label,
        });
        k += 1.0;
    }
    out
}

fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}
