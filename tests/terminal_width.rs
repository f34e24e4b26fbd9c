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
