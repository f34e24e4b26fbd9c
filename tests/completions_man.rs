//! `guardscope completions SHELL` and `guardscope man [COMMAND]`: generated
//! from the parser itself, so every command (and a new one) is in them.

mod common;

use clap::CommandFactory;
use common::guardscope;
use std::io::Write;
use std::process::{Command, Stdio};

/// Every subcommand the parser knows, `help` aside.
fn subcommands() -> Vec<String> {
    let cli = guardscope::cli::Cli::command();
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    assert!(names.len() >= 7, "{names:?}");
    names
}

#[test]
fn the_bash_script_completes_every_subcommand_and_flag() {
    let out = guardscope(["completions", "bash"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("complete -F _guardscope"), "{}", out.stdout);
    for name in subcommands() {
        assert!(
            out.stdout.contains(&format!("guardscope,{name})")),
            "bash script lacks {name}"
        );
    }
    for flag in ["--trace-events", "--max-recompiles", "--baseline", "--strip-prefix"] {
        assert!(out.stdout.contains(flag), "bash script lacks {flag}");
    }
    // bash itself accepts the script (when bash is installed: it is on every
    // system these tests run on, so a missing one fails loudly).
    let status = Command::new("bash")
        .args(["-n"])
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(out.stdout.as_bytes())?;
            child.wait()
        })
        .expect("bash runs");
    assert!(status.success(), "bash -n rejects the completion script");
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = guardscope(["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        for name in subcommands() {
            assert!(out.stdout.contains(&name), "{shell} script lacks {name}");
        }
    }
    let out = guardscope(["completions", "tcsh"]);
    assert_eq!(out.code, 2, "an unknown shell is bad usage");
    assert!(out.stderr.contains("possible values"), "{}", out.stderr);
}

/// Renders roff with groff, warnings on: a page groff warns about or
/// rejects fails. Returns the rendered text.
fn render(roff: &str) -> String {
    let mut child = Command::new("groff")
        // -k: the page is UTF-8 (the help's `·`), as man(1) feeds it through preconv.
        .args(["-k", "-man", "-Tutf8", "-ww"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("groff is installed (apt-get install groff-base)");
    child.stdin.take().unwrap().write_all(roff.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.is_empty(), "groff: {stderr}");
    // Bold and underline as overstrikes (`X\bX`) dropped and justified
    // spacing collapsed, for plain matching.
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_man_page_is_roff_that_lists_every_subcommand() {
    let out = guardscope(["man"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(".TH guardscope 1"), "{}", out.stdout);
    assert!(out.stdout.contains(".SH SYNOPSIS") && out.stdout.contains(".SH SUBCOMMANDS"));
    let page = render(&out.stdout);
    for name in subcommands() {
        assert!(
            page.contains(&format!("guardscope-{name}(1)")),
            "the page lacks {name}:\n{page}"
        );
    }
    assert!(
        page.contains("Exit codes: 0 success · 1 a check found a problem"),
        "{page}"
    );
}

#[test]
fn each_command_has_a_page_with_its_flags() {
    for name in subcommands() {
        let out = guardscope(["man", &name]);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert!(
            out.stdout.contains(&format!(".TH guardscope-{name} 1")),
            "{}",
            out.stdout
        );
        let page = render(&out.stdout);
        assert!(page.contains(&format!("guardscope {name}")), "{name}: synopsis\n{page}");
    }
    let page = render(&guardscope(["man", "summary"]).stdout);
    assert!(page.contains("--trace-events") && page.contains("--json"), "{page}");
    let out = guardscope(["man", "nope"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no command 'nope'; one of: summary"),
        "{}",
        out.stderr
    );
}
