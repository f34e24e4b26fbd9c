//! Colour: the verdict and the cause categories on a terminal, never in a
//! pipe or under NO_COLOR (no-color.org), and `--color always|never|auto`
//! (run on the real collision sample, which fails `check`).

mod common;

use common::{guardscope, guardscope_env};

const SAMPLE: &str = "samples/traces/collision";
const ESC: char = '\u{1b}';

#[test]
fn color_always_colours_the_verdict_and_the_categories() {
    let check = guardscope(["check", SAMPLE, "--color", "always"]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    let red_bold = anstyle::AnsiColor::Red.on_default().bold().render().to_string();
    let verdict = format!("{red_bold}FAIL: 2 recompiles");
    assert!(check.stdout.contains(&verdict), "{:?}", check.stdout);
    let yellow = anstyle::AnsiColor::Yellow.on_default().render().to_string();
    assert!(
        check.stdout.contains(&format!("[{yellow}closure_hook_state")),
        "{:?}",
        check.stdout
    );

    // The flag is global: before the command too.
    let summary = guardscope(["--color", "always", "summary", SAMPLE]);
    assert_eq!(summary.code, 0);
    assert!(
        summary.stdout.contains(&format!("[{yellow}shape_lazy_buffer")),
        "{:?}",
        summary.stdout
    );
    // Apart from the codes, the text is the plain one.
    let plain = guardscope(["summary", SAMPLE]).stdout;
    assert_eq!(strip(&summary.stdout), plain);
}

#[test]
fn a_pipe_no_color_and_never_get_no_escape_byte() {
    for (args, env) in [
        (vec!["check", SAMPLE], vec![]),
        (vec!["summary", SAMPLE], vec![]),
        (vec!["check", SAMPLE, "--color", "auto"], vec![("NO_COLOR", "1")]),
        (
            vec!["summary", SAMPLE, "--color", "never"],
            vec![("CLICOLOR_FORCE", "1")],
        ),
        (
            vec![
                "diff",
                "samples/activations/base.jsonl.gz",
                "samples/activations/perturbed.jsonl.gz",
            ],
            vec![],
        ),
    ] {
        let out = guardscope_env(&args, &env);
        assert!(!out.stdout.is_empty(), "{args:?}: {}", out.stderr);
        assert!(!out.stdout.contains(ESC), "{args:?} {env:?}: {:?}", out.stdout);
    }
    let bad = guardscope(["summary", SAMPLE, "--color", "sometimes"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("[possible values: auto, always, never]"),
        "{}",
        bad.stderr
    );
}

/// Under a pseudo-terminal (util-linux `script`, part of every Linux system
/// these tests run on): colour by default, none with NO_COLOR or --color never.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_gets_colour_unless_no_color() {
    let under_pty = |prefix: &str, flag: &str| {
        let cmd = format!(
            "{prefix} exec '{}' check {SAMPLE} {flag}",
            env!("CARGO_BIN_EXE_guardscope")
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .current_dir(common::root())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env("TERM", "xterm")
            .output()
            .expect("util-linux script runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let coloured = under_pty("", "");
    assert!(coloured.contains("FAIL: 2 recompiles"), "{coloured:?}");
    assert!(coloured.contains(ESC), "{coloured:?}");
    assert!(!under_pty("NO_COLOR=1", "").contains(ESC));
    assert!(!under_pty("", "--color never").contains(ESC));
    // An empty NO_COLOR does not count (no-color.org).
    assert!(under_pty("NO_COLOR=", "").contains(ESC));
}

/// The text with SGR codes (`ESC [ ... m`) removed.
fn strip(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == ESC {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
