//! `guardscope diff A B`: the first divergent layer between two activation
//! traces, as text or JSON, and an exit code a CI parity check can use.

use super::exit;
use crate::activation_diff::{self as ad, NameMap, Tolerance, Verdict};
use crate::report::diff::write_diff;
use crate::report::text::{terminal_safe, SafeWriter};
use clap::Args;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub const DIFF_HELP: &str = "\
Aligns the records of two activation traces (JSONL from
guardscope.trace_activations, or the reference format without \"call\"; plain
or .gz) by (step, module, tensor, call), compares every stat both have, and
reports the first divergent record in A's execution order, the next ones, a
per-step summary, and records present on one side only. Both files are
streamed; memory does not grow with their size.

Tolerance: a stat is equal when |a - b| <= atol + rtol * max(|a|, |b|).
The defaults (rtol 1e-2, atol 1e-4) are for bf16 noise: bf16 keeps 8
significant bits (one rounding moves a value by up to 0.4%) and reductions add
a few roundings, while real port bugs move stats by more. For float32 parity
try --rtol 1e-5 --atol 1e-7. Shapes and dtypes must match exactly. A NaN
facing a number is a divergence; NaN on both sides, null and \"<error: ...>\"
are not comparable (counted, never a divergence); other strings are
malformed (counted as problems). A diff that compared no value fails.

Ports whose module paths differ: strip a prefix on one side, and/or rename
with regex rules (one `REGEX -> REPLACEMENT` per line, applied in order, `#`
comments; the replacement may use ${1}):

  guardscope diff ref.jsonl port.jsonl.gz --strip-prefix A=transformer. --strip-prefix B=model.
  guardscope diff ref.jsonl port.jsonl --map B=names.txt
      names.txt:  ^layers\\.(\\d+)\\.self_attn$ -> blocks.${1}.attn

Exit codes: 0 equal within tolerance · 1 divergent, no record aligned, no
stat value compared (all null, <error> or malformed), or records on one
side only (unless --allow-missing) · 2 bad usage (e.g. a
--stats name no aligned record has), unreadable file (also one read only in
part: verdict `unreadable`) or a file without records · 3 internal error.";

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The reference trace (JSONL, plain or .gz).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The trace to check against it.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Relative tolerance.
    #[arg(long, value_name = "F", default_value_t = ad::DEFAULT_RTOL, value_parser = non_negative)]
    pub rtol: f64,
    /// Absolute tolerance.
    #[arg(long, value_name = "F", default_value_t = ad::DEFAULT_ATOL, value_parser = non_negative)]
    pub atol: f64,
    /// Compare only these stats (comma-separated, e.g. abs_mean,max); default: every stat both sides have.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub stats: Vec<String>,
    /// Remove PREFIX from module names of side A, side B, or both (no `A=`/`B=`); repeatable.
    #[arg(long, value_name = "[A=|B=]PREFIX")]
    pub strip_prefix: Vec<String>,
    /// Rename modules of side A, B or both with the `REGEX -> REPLACEMENT` rules in FILE; repeatable.
    #[arg(long, value_name = "[A=|B=]FILE")]
    pub map: Vec<String>,
    /// Divergent records detailed after the first.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    /// Records on one side only are listed but do not fail the diff.
    #[arg(long)]
    pub allow_missing: bool,
    /// Print the result as JSON (a stable contract; see the README).
    #[arg(long)]
    pub json: bool,
}

fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a finite number >= 0")),
    }
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

pub fn diff(args: DiffArgs) -> i32 {
    let [map_a, map_b] = match name_maps(&args.strip_prefix, &args.map) {
        Ok(maps) => maps,
        Err(e) => {
            eprintln!("guardscope: {}", terminal_safe(&e));
            return exit::BAD_INPUT;
        }
    };
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
    let result = match ad::diff(inputs, opts, None) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("guardscope: {}", terminal_safe(&e.to_string()));
            return exit::BAD_INPUT;
        }
    };
    if !result.stats_never_compared.is_empty() && result.compared > 0 {
        eprintln!(
            "guardscope: --stats: no aligned record has {} on both sides",
            terminal_safe(&result.stats_never_compared.join(", "))
        );
        return exit::BAD_INPUT;
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &result)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        write_diff(&mut SafeWriter::new(&mut out), &result)
    };
    // A closed pipe (`| head`) leaves the verdict standing.
    match (super::output_written(written), result.verdict) {
        (exit::OK, Verdict::Equal) => exit::OK,
        // No value compared is a failed comparison, not a pass.
        (exit::OK, Verdict::Divergent | Verdict::NothingCompared) => exit::FOUND_PROBLEM,
        (exit::OK, Verdict::Unreadable) => exit::BAD_INPUT,
        (failed, _) => failed,
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
