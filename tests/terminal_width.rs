//! The width `summary` lays its lines out for: `$COLUMNS` when set, else the
//! terminal's own width, else (a pipe or a file) 160 columns.

mod common;

use common::guardscope_env;

const SAMPLE: &str = "samples/traces/collision";

fn summary(columns: &str) -> String {
    let out = guardscope_env(["summary", SAMPLE], &[("COLUMNS", columns)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn columns_set_wins_and_a_pipe_without_it_gets_160() {
    let narrow = summary("80");
    assert_ne!(narrow, summary("160"), "the sample has lines to shorten");
    // Unusable values are ignored, as if unset.
    for unusable in ["", "wide", "39", "-1"] {
        assert_eq!(summary(unusable), summary("160"), "COLUMNS={unusable:?}");
    }
}

/// Under a pseudo-terminal of a given size (util-linux `script`), without
/// `$COLUMNS`: lines fit the terminal. `script` is part of util-linux, on
/// every Linux system: without it the test fails rather than passing unseen.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_without_columns_is_measured() {
    use std::process::Command;
    let under_pty = |cols: u32| {
        let cmd = format!(
            // No colour: the text is compared with the piped one (tests/colour.rs does colour).
            "stty rows 40 cols {cols} && exec '{}' summary {SAMPLE} --color never",
            env!("CARGO_BIN_EXE_guardscope")
        );
        Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(common::root())
            .env_remove("COLUMNS")
            .output()
    };
    let out = under_pty(80).expect("util-linux `script` runs (it makes the pseudo-terminal)");
    assert!(
        out.status.success() || !out.stdout.is_empty(),
        "`script` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A terminal turns \n into \r\n.
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert_eq!(text, summary("80"));
    let wide = under_pty(200).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&wide.stdout).replace("\r\n", "\n"),
        summary("200")
    );
}

/// The run directories of the samples and of the third-party corpus, one
/// per scenario (each holds a run's logs).
fn run_directories() -> Vec<String> {
    let mut dirs = Vec::new();
    for parent in [
        "samples/traces",
        "samples/traces/reasons",
        "tests/corpus/logs/torch2.15.0",
        "tests/corpus/logs/torch2.11.0",
    ] {
        let mut here: Vec<String> = std::fs::read_dir(common::root().join(parent))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && std::fs::read_dir(p).unwrap().any(|f| f.unwrap().path().is_file()))
            .map(|p| p.strip_prefix(common::root()).unwrap().to_string_lossy().into_owned())
            .collect();
        here.sort();
        dirs.extend(here);
    }
    dirs
}

/// What does not fit 80 columns in `text`: a line wider than that which is
/// more than one word (a single path or name wider than the line may stand
/// alone), or an ellipsis inside a token (`logi…ens`, `self.dec…`): a cut
/// is " … " between whole tokens, or `…/` for directories left out.
fn misfits(text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for line in text.lines() {
        let columns = unicode_width::UnicodeWidthStr::width(line);
        if columns > 80 && line.trim().contains(' ') {
            bad.push(format!("{columns} columns: {line}"));
        }
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if *c != '…' {
                continue;
            }
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let clean_before = before.is_none_or(|b| b == ' ');
            let clean_after = after.is_none_or(|a| a == ' ' || a == '/');
            if !(clean_before && clean_after) {
                bad.push(format!("cut inside a token: {line}"));
            }
        }
    }
    bad
}

#[test]
fn at_80_columns_lines_wrap_between_words_and_code_is_cut_between_tokens() {
    let mut bad = Vec::new();
    let mut runs: Vec<Vec<String>> = Vec::new();
    for dir in run_directories() {
        runs.push(vec!["summary".into(), dir.clone()]);
        runs.push(vec!["check".into(), dir]);
    }
    for steps in [
        "samples/steps/collision.jsonl",
        "samples/steps/mostly_compiling.jsonl",
        "samples/steps/ranks",
    ] {
        runs.push(vec!["steps".into(), steps.into()]);
    }
    runs.push(
        [
            "steps",
            "samples/steps/collision.jsonl",
            "--trace",
            "samples/steps/collision_trace",
        ]
        .map(String::from)
        .to_vec(),
    );
    assert!(runs.len() > 150, "{} runs", runs.len());
    for args in &runs {
        let out = guardscope_env(args, &[("COLUMNS", "80")]);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
        bad.extend(misfits(&out.stdout).into_iter().map(|m| format!("{args:?}: {m}")));
    }
    assert!(bad.is_empty(), "{} lines do not fit:\n{}", bad.len(), bad.join("\n"));
}
