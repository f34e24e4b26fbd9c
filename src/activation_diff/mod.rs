//! Activation-trace diffs: "at which layer do two runs first produce
//! different numbers?"
//!
//! The read side of the traces `activations` writes (and of the reference
//! format): `read` streams each file on a thread of its own (`decode` turns
//! a line into a record's fields), `align` pairs
//! records by (pass, step, module, tensor, call) in a window bounded by the
//! traces' misalignment, `compare` applies the tolerances, and `outcome`
//! is the result that `guardscope diff` prints and the report draws.

pub mod align;
pub mod compare;
mod decode;
pub mod names;
pub mod outcome;
pub mod read;
pub mod series;

pub use align::{Observer, Options, A, B};
pub use compare::{RecordedStat, Tolerance, DEFAULT_ATOL, DEFAULT_RTOL};
pub use names::{read_map_file, Interner, NameMap, Rule};
pub use outcome::{Diff, DiffVerdict, Divergence};
pub use read::{ReadSummary, Record};

use align::Aligner;
use outcome::SideSummary;
use read::SideReader;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Diagnostics kept per side in the output (all are counted).
const PROBLEMS_LISTED: usize = 20;

#[derive(Debug)]
pub enum DiffError {
    Unreadable(PathBuf, io::Error),
    /// A file with no activation record at all.
    NoRecords {
        path: PathBuf,
        lines: u64,
        first_problem: Option<String>,
    },
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            DiffError::Unreadable(p, e) => write!(f, "{}: {e}", p.display()),
            DiffError::NoRecords {
                path,
                lines,
                first_problem,
            } => {
                write!(f, "{}: no activation records in {lines} lines", path.display())?;
                match first_problem {
                    Some(p) => write!(f, " (first problem: {p})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for DiffError {}

/// Two traces and how to rename each side's modules.
pub struct Inputs<'p> {
    pub a: &'p Path,
    pub b: &'p Path,
    pub map_a: NameMap,
    pub map_b: NameMap,
}

/// Diffs two traces, streaming both. `observer` sees every record and pair.
pub fn diff(inputs: Inputs<'_>, opts: Options, observer: Option<&mut dyn Observer>) -> Result<Diff, DiffError> {
    let open = |path: &Path, map: NameMap| {
        SideReader::spawn(path, map).map_err(|e| DiffError::Unreadable(path.to_path_buf(), e))
    };
    let readers = [open(inputs.a, inputs.map_a)?, open(inputs.b, inputs.map_b)?];
    let paths = [inputs.a, inputs.b];
    let mut aligner = Aligner::new(opts, observer);
    let mut batches: [std::vec::IntoIter<Record>; 2] = Default::default();
    let mut produced = [false; 2];
    while let Some(side) = aligner.next_side() {
        if let Some(record) = batches[side].next() {
            produced[side] = true;
            aligner.push(side, record);
            continue;
        }
        for s in [A, B] {
            if let Some(spent) = aligner.take_spent(s) {
                readers[s].recycle(spent);
            }
        }
        match readers[side].next_batch() {
            Some(batch) => {
                aligner.add_names(side, &batch.names);
                aligner.add_shapes(side, &batch.shapes);
                batches[side] = batch.records.into_iter();
            }
            None => {
                // A side with nothing to compare ends the diff early: there
                // is no point streaming the other gigabyte.
                if !produced[side] {
                    let [ra, rb] = readers;
                    let summary = if side == A { ra.finish() } else { rb.finish() };
                    return Err(no_records(paths[side], &summary));
                }
                aligner.finish_side(side);
            }
        }
    }
    let [ra, rb] = readers;
    let (sa, sb) = (ra.finish(), rb.finish());
    Ok(aligner.finish(side_summary(inputs.a, sa), side_summary(inputs.b, sb)))
}

/// Reads one trace, calling `each` with every record and the reader's names
/// (for the report when only one trace is given).
pub fn scan(path: &Path, map: NameMap, each: &mut dyn FnMut(&Interner, &Record)) -> Result<SideSummary, DiffError> {
    let reader = SideReader::spawn(path, map).map_err(|e| DiffError::Unreadable(path.to_path_buf(), e))?;
    // The reader's names arrive in its id order, so interning them again
    // gives the same ids: records need no translation.
    let mut names = Interner::default();
    while let Some(batch) = reader.next_batch() {
        for name in &batch.names {
            names.intern(name);
        }
        for r in &batch.records {
            each(&names, r);
        }
    }
    let summary = reader.finish();
    if summary.records == 0 {
        return Err(no_records(path, &summary));
    }
    Ok(side_summary(path, summary))
}

fn no_records(path: &Path, summary: &ReadSummary) -> DiffError {
    DiffError::NoRecords {
        path: path.to_path_buf(),
        lines: summary.lines,
        first_problem: summary
            .problems
            .first
            .first()
            .map(|p| format!("line {}: {}", p.line, p.message)),
    }
}

fn side_summary(path: &Path, s: ReadSummary) -> SideSummary {
    SideSummary {
        path: path.display().to_string(),
        lines: s.lines,
        records: s.records,
        passes: s.passes,
        steps: s.steps,
        malformed: s.problems.count,
        read_errors: s.problems.count_of(crate::input::ProblemKind::Io),
        problems: s
            .problems
            .first
            .iter()
            .take(PROBLEMS_LISTED)
            .map(ToString::to_string)
            .collect(),
    }
}

/// Gathers the report's view of one trace, or of two and their diff
/// (default tolerances), in one streaming pass.
pub fn gather(a: &Path, b: Option<&Path>) -> Result<series::Activations, DiffError> {
    let mut overview = series::Overview::new();
    let (traces, diff) = match b {
        None => {
            let summary = scan(a, NameMap::default(), &mut |names, r| overview.record(names, A, r))?;
            (vec![summary], None)
        }
        Some(b) => {
            let inputs = Inputs {
                a,
                b,
                map_a: NameMap::default(),
                map_b: NameMap::default(),
            };
            let d = diff(inputs, Options::default(), Some(&mut overview))?;
            let traces = vec![d.a.clone(), d.b.clone()];
            (traces, Some(d))
        }
    };
    Ok(series::Activations {
        traces,
        overview: overview.finish(),
        diff,
    })
}
