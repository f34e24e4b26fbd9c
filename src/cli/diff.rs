//! `guardscope diff A B`: the first divergent layer between two activation
//! traces, as text or JSON, and an exit code a CI parity check can use.

use super::args::DiffArgs;
use super::error::{CliError, Status};
use super::output::Output;
use crate::activation_diff::{self as ad, DiffVerdict, NameMap, Tolerance};
use crate::input::{self, Content};
use std::path::Path;

const USE_SUMMARY: &str = "use `guardscope summary`, `check` or `report`";
const USE_STEPS: &str = "use `guardscope steps` or `report --steps`";

/// An input that is another guardscope input, not an activation trace:
/// the one line naming the command that reads it, as `summary` and `steps`
/// give for theirs.
fn wrong_kind(path: &Path) -> Option<CliError> {
    let what = if path.is_dir() {
        if input::discover(&[path.to_path_buf()]).is_ok_and(|found| !found.sources.is_empty()) {
            format!("a TORCH_TRACE directory, not an activation trace: {USE_SUMMARY}")
        } else if !super::steps::step_files_in(path).is_empty() {
            format!("a directory of StepLogger records, not an activation trace: {USE_STEPS}")
        } else {
            "a directory: diff compares two activation trace files (JSONL of guardscope.trace_activations)".into()
        }
    } else {
        match input::sniff::sniff(path)? {
            Content::TorchTrace => format!("a TORCH_TRACE log, not an activation trace: {USE_SUMMARY}"),
            Content::StepRecords => format!("StepLogger records, not an activation trace: {USE_STEPS}"),
            _ => return None,
        }
    };
    Some(CliError::BadInput(format!("{}: {what}", path.display())))
}

/// `A=x` -> (Some(A), x); `B=x` -> (Some(B), x); `x` -> (None, x): both sides.
fn sided(arg: &str) -> (Option<usize>, &str) {
    match arg.split_once('=') {
        Some(("A" | "a", rest)) => (Some(ad::A), rest),
        Some(("B" | "b", rest)) => (Some(ad::B), rest),
        _ => (None, arg),
    }
}

/// The two sides' name maps from the flags, or the one-line reason they are bad.
pub fn name_maps(strip: &[String], maps: &[String]) -> Result<[NameMap; 2], String> {
    let mut out = [NameMap::default(), NameMap::default()];
    let sides = |side: Option<usize>| match side {
        Some(s) => vec![s],
        None => vec![ad::A, ad::B],
    };
    for arg in strip {
        let (side, prefix) = sided(arg);
        if prefix.is_empty() {
            return Err(format!("--strip-prefix '{arg}': empty prefix"));
        }
        for s in sides(side) {
            out[s].strip.push(prefix.to_string());
        }
    }
    for arg in maps {
        let (side, file) = sided(arg);
        let rules = ad::read_map_file(Path::new(file)).map_err(|e| format!("--map {e}"))?;
        for s in sides(side) {
            out[s].rules.extend(rules.iter().cloned());
        }
    }
    Ok(out)
}

pub fn diff(args: DiffArgs, out: Output) -> Result<Status, CliError> {
    if let Some(wrong) = [&args.a, &args.b].into_iter().find_map(|p| wrong_kind(p)) {
        return Err(wrong);
    }
    let [map_a, map_b] = name_maps(&args.strip_prefix, &args.map).map_err(CliError::BadInput)?;
    let opts = ad::Options {
        tolerance: Tolerance {
            rtol: args.rtol,
            atol: args.atol,
        },
        stats: (!args.stats.is_empty()).then(|| args.stats.iter().map(|s| s.trim().to_string()).collect()),
        show: args.show,
        allow_missing: args.allow_missing,
    };
    let inputs = ad::Inputs {
        a: &args.a,
        b: &args.b,
        map_a,
        map_b,
    };
    let result = ad::diff(inputs, opts, None)?;
    if !result.stats_never_compared.is_empty() && result.compared > 0 {
        return Err(CliError::BadInput(format!(
            "--stats: no aligned record has {} on both sides",
            result.stats_never_compared.join(", ")
        )));
    }
    out.print(&result)?;
    match result.verdict {
        DiffVerdict::Equal => Ok(Status::Success),
        // No value compared is a failed comparison, not a pass.
        DiffVerdict::Divergent | DiffVerdict::NothingCompared => Ok(Status::FoundProblem),
        DiffVerdict::Unreadable => Err(CliError::Incomplete(
            "an input was read only in part (verdict: unreadable); the output lists what was lost".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_of_strip_and_map_flags() {
        let [a, b] = name_maps(&["A=transformer.".into(), "B=model.".into(), "x.".into()], &[]).unwrap();
        assert_eq!(a.strip, ["transformer.", "x."]);
        assert_eq!(b.strip, ["model.", "x."]);
        assert!(name_maps(&["A=".into()], &[]).is_err());
        let err = name_maps(&[], &["B=/nonexistent/map.txt".into()]).unwrap_err();
        assert!(err.starts_with("--map /nonexistent/map.txt: "), "{err}");
    }
}
