//! The rank x frame matrix of compile counts. A rank that recompiles when
//! the others do not stalls all of them at the next collective, so cells
//! that differ from the majority of ranks are what this view is for.

use crate::analysis::rank_mode as mode;
use crate::analysis::Findings;
use crate::model::Frame;
use crate::report::format::plural;
use serde::Serialize;
use std::collections::BTreeMap;

const MAX_COLUMNS: usize = 30;
const MAX_ROWS: usize = 64;
const MAX_FINDINGS: usize = 20;

#[derive(Serialize)]
pub struct RankMatrix {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// One sentence per deviating (rank, frame).
    pub findings: Vec<String>,
    pub more_findings: usize,
    pub hidden_columns: usize,
    pub hidden_rows: usize,
}

#[derive(Serialize)]
pub struct Column {
    pub label: String,
    pub title: String,
    pub majority: usize,
}

#[derive(Serialize)]
pub struct Row {
    pub rank: u32,
    pub cells: Vec<Cell>,
    pub deviates: bool,
}

#[derive(Serialize)]
pub struct Cell {
    pub count: usize,
    pub deviates: bool,
}

/// None unless the run has more than one rank. Columns are the frames as
/// analysis matched them across ranks (`Findings::frames`).
pub fn build(findings: &Findings<'_>) -> Option<RankMatrix> {
    let run = findings.run;
    let mut ranks: Vec<u32> = run.frames.iter().filter_map(|f| f.rank).collect();
    ranks.sort_unstable();
    ranks.dedup();
    if ranks.len() < 2 {
        return None;
    }
    struct Col<'a> {
        frame: &'a Frame,
        by_rank: Vec<usize>,
        majority: usize,
    }
    let cols: Vec<Col<'_>> = findings
        .frames
        .iter()
        .filter(|g| g.ranks().next().is_some())
        .map(|g| {
            let per: BTreeMap<u32, usize> = g
                .copies
                .iter()
                .filter_map(|f| Some((f.rank?, f.compiles.len())))
                .collect();
            let by_rank: Vec<usize> = ranks.iter().map(|r| per.get(r).copied().unwrap_or(0)).collect();
            let majority = mode(&by_rank);
            Col {
                frame: g.first(),
                by_rank,
                majority,
            }
        })
        .collect();

    let mut findings = Vec::new();
    for (ri, rank) in ranks.iter().enumerate() {
        for c in &cols {
            let n = c.by_rank[ri];
            if n != c.majority {
                findings.push(format!(
                    "rank {rank} compiled frame {} ({}) {}; most ranks {}",
                    c.frame.frame_id,
                    c.frame.function.as_deref().unwrap_or("?"),
                    plural(n, "time", "times"),
                    c.majority
                ));
            }
        }
    }
    let more_findings = findings.len().saturating_sub(MAX_FINDINGS);
    findings.truncate(MAX_FINDINGS);

    // Deviating columns and rows are kept first when there are too many.
    let deviates_col = |c: &Col<'_>| c.by_rank.iter().any(|n| *n != c.majority);
    let mut col_order: Vec<usize> = (0..cols.len()).collect();
    col_order.sort_by_key(|&i| (!deviates_col(&cols[i]), i));
    let hidden_columns = col_order.len().saturating_sub(MAX_COLUMNS);
    col_order.truncate(MAX_COLUMNS);
    col_order.sort_unstable();

    let deviates_row = |ri: usize| col_order.iter().any(|&ci| cols[ci].by_rank[ri] != cols[ci].majority);
    let mut row_order: Vec<usize> = (0..ranks.len()).collect();
    row_order.sort_by_key(|&ri| (!deviates_row(ri), ri));
    let hidden_rows = row_order.len().saturating_sub(MAX_ROWS);
    row_order.truncate(MAX_ROWS);
    row_order.sort_unstable();

    Some(RankMatrix {
        columns: col_order
            .iter()
            .map(|&ci| {
                let f = cols[ci].frame;
                let (generation, frame_id, function) = (f.generation, f.frame_id, f.function.as_deref().unwrap_or("?"));
                let reset = if generation > 0 {
                    format!(" (reset {generation})")
                } else {
                    String::new()
                };
                Column {
                    label: format!("{frame_id}{reset}"),
                    title: format!("frame {frame_id}{reset}: {function}"),
                    majority: cols[ci].majority,
                }
            })
            .collect(),
        rows: row_order
            .iter()
            .map(|&ri| {
                let cells: Vec<Cell> = col_order
                    .iter()
                    .map(|&ci| Cell {
                        count: cols[ci].by_rank[ri],
                        deviates: cols[ci].by_rank[ri] != cols[ci].majority,
                    })
                    .collect();
                Row {
                    rank: ranks[ri],
                    deviates: cells.iter().any(|c| c.deviates),
                    cells,
                }
            })
            .collect(),
        findings,
        more_findings,
        hidden_columns,
        hidden_rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Compile, Frame, Run};

    fn frame(rank: u32, frame_id: u32, compiles: usize) -> Frame {
        Frame {
            rank: Some(rank),
            pid: 100 + u64::from(rank),
            generation: 0,
            frame_id,
            function: Some("forward".into()),
            file: None,
            line: None,
            module_class: None,
            run: 0,
            compiles: vec![Compile::default(); compiles],
        }
    }

    #[test]
    fn the_rank_that_recompiled_alone_is_flagged() {
        let mut frames: Vec<Frame> = (0..4).map(|r| frame(r, 0, 1)).collect();
        frames[2].compiles.push(Compile::default());
        let run = Run {
            frames,
            ..Run::default()
        };
        let m = build(&crate::analysis::analyse(&run)).unwrap();
        assert_eq!(m.columns[0].majority, 1);
        let flagged: Vec<u32> = m.rows.iter().filter(|r| r.deviates).map(|r| r.rank).collect();
        assert_eq!(flagged, [2]);
        assert_eq!(m.findings, ["rank 2 compiled frame 0 (forward) 2 times; most ranks 1"]);
    }

    #[test]
    fn one_rank_has_no_matrix() {
        let run = Run {
            frames: vec![frame(0, 0, 2)],
            ..Run::default()
        };
        assert!(build(&crate::analysis::analyse(&run)).is_none());
    }
}
