//! What a run read from a text log (`TORCH_LOGS=recompiles` in a job's
//! stderr) cannot show, in the words every format uses: the summary's
//! line, `--json`'s `source` and `text_log`, the page's note.

use crate::report::format::plural;
use crate::trace::TextStats;
use serde::Serialize;

/// What TORCH_TRACE records and Dynamo's text lines do not, each with
/// what it leaves unknown.
pub const MISSING: [(&str, &str); 3] = [
    ("compile_times", "how long each compile took"),
    (
        "call_stacks",
        "the line of yours that called each compile, and frames that never recompiled",
    ),
    (
        "guard_sets",
        "what else changed, and whether a changed value then became dynamic",
    ),
];

/// The one command that records what is missing.
pub const RECORD: &str = "TORCH_TRACE=/tmp/trace python train.py (or guardscope run -- python train.py)";

/// What this text log lacks: the guard sets are there when the job ran
/// with `TORCH_LOGS=guards` too.
fn missing(t: &TextStats) -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    let held = t.guard_sets > 0;
    MISSING.iter().filter(move |(key, _)| !(held && *key == "guard_sets"))
}

/// The summary's line for a run read from text.
pub fn read_from_text(t: &TextStats) -> String {
    let unknown: Vec<&str> = missing(t).map(|(_, what)| *what).collect();
    let guards = match t.guard_sets {
        0 => String::new(),
        n => format!(
            ", the guard sets of {} (TORCH_LOGS=guards)",
            plural(n as usize, "compile", "compiles")
        ),
    };
    format!(
        "read from a text log (Dynamo's TORCH_LOGS lines, not TORCH_TRACE): {}, {}, {}{guards}. \
         Not in a text log: {}. `{RECORD}` records them.",
        plural(t.recompile_blocks as usize, "recompile block", "recompile blocks"),
        plural(
            t.limit_warnings as usize,
            "recompile-limit warning",
            "recompile-limit warnings"
        ),
        match t.graph_breaks {
            0 => "no graph break (printed only with TORCH_LOGS=graph_breaks)".to_string(),
            n => plural(n as usize, "graph break", "graph breaks"),
        },
        unknown.join("; ")
    )
}

/// `--json`'s `text_log`: what the text held and what it lacks.
#[derive(Serialize)]
pub struct TextLogView {
    #[serde(flatten)]
    pub held: TextStats,
    /// The kinds of evidence a text log lacks (`compile_times`, `call_stacks`, `guard_sets`).
    pub missing: Vec<&'static str>,
    /// The command that records them.
    pub record_with: &'static str,
}

impl TextLogView {
    pub fn new(held: TextStats) -> Self {
        TextLogView {
            missing: missing(&held).map(|(k, _)| *k).collect(),
            held,
            record_with: RECORD,
        }
    }
}
