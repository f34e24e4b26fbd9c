//! `guardscope run` when TORCH_TRACE never reaches the command (a launcher
//! that drops it from the environment): the command's stderr, copied as it
//! passed, is read as a text log, said so plainly, and gated as `check`
//! gates a text log. Real wrappers (tests/run/strip_trace.sh drops
//! TORCH_TRACE, clean_env.sh runs `env -i`) around real torch scripts.

mod common;

use common::{guardscope_env, python, root, run_trace_dir as trace_dir, Output};

/// `guardscope run FLAGS -- tests/run/WRAPPER python tests/run/SCRIPT`, with `env`.
fn run_wrapped(flags: &[&str], wrapper: Option<&str>, script: &str, env: &[(&str, &str)]) -> Output {
    let py = python();
    let mut args: Vec<String> = vec!["run".into()];
    args.extend(flags.iter().map(|f| f.to_string()));
    args.push("--".into());
    if let Some(w) = wrapper {
        args.push(root().join("tests/run").join(w).display().to_string());
    }
    args.push(py.display().to_string());
    args.push(root().join("tests/run").join(script).display().to_string());
    guardscope_env(args, env)
}

fn shown(out: &Output) -> String {
    format!("code {}\nstdout:\n{}\nstderr:\n{}", out.code, out.stdout, out.stderr)
}

#[test]
fn a_command_that_lost_torch_trace_is_summarised_from_its_stderr_and_says_so() {
    let out = run_wrapped(&[], Some("strip_trace.sh"), "recompiling.py", &[]);
    assert_eq!(out.code, 0, "{}", shown(&out));
    let dir = trace_dir(&out);
    let copy = dir.join("stderr.txt");
    assert!(
        out.stderr.contains("wrote no TORCH_TRACE log")
            && out.stderr.contains("reading its stderr")
            && out.stderr.contains("A text log cannot show how long each compile took"),
        "the fall back to text is said, with what text cannot show:\n{}",
        shown(&out)
    );
    // The same diagnosis as from its trace (tests/run_command.rs): MODE set
    // once, an expected one-off, with the guard that failed.
    assert!(out.stdout.contains("read from a text log"), "{}", shown(&out));
    assert!(out.stdout.contains("global MODE [global_var]"), "{}", shown(&out));
    assert!(
        out.stdout.contains("[global_var] 0/0: G['MODE'] == 'train'"),
        "{}",
        shown(&out)
    );
    assert!(
        out.stdout.contains(&format!(
            "Logs: {} (the command's stderr; no TORCH_TRACE log)",
            copy.display()
        )),
        "{}",
        shown(&out)
    );
    // The command's own stderr still reached the user, whole.
    assert!(out.stderr.contains("Recompiling function step"), "{}", shown(&out));
    let kept = std::fs::read_to_string(&copy).expect("the copy of stderr is kept");
    assert!(kept.contains("[__recompiles]"), "{kept}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_gate_judges_a_recompile_read_from_stderr() {
    let out = run_wrapped(&["--check", "--json"], Some("strip_trace.sh"), "recompiling.py", &[]);
    assert_eq!(out.code, 1, "{}", shown(&out));
    let json = out
        .stdout
        .split_once("recompiling: done\n")
        .expect("the script's line")
        .1;
    let verdict: serde_json::Value = serde_json::from_str(json).expect("the verdict as JSON");
    assert_eq!(verdict["passed"], false, "{verdict}");
    assert!(verdict.to_string().contains("global_var"), "{verdict}");
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

#[test]
fn stderr_without_a_recompile_line_never_passes_the_gate() {
    // Dynamo's graph-break lines, but no recompile line: a run without
    // recompiles looks the same as one that TORCH_LOGS=recompiles missed.
    let env = [("TORCH_LOGS", "graph_breaks")];
    let out = run_wrapped(&["--check"], Some("strip_trace.sh"), "graph_break.py", &env);
    assert_eq!(out.code, 2, "{}", shown(&out));
    let last = out.stderr.lines().last().unwrap_or("");
    assert!(
        last.contains("holds no recompile line") && last.contains("--recompiles-logged"),
        "{}",
        shown(&out)
    );
    assert!(!out.stdout.contains("PASS"), "{}", shown(&out));
    // Without --check the text is summarised (its graph break), not judged.
    let dir = trace_dir(&out);
    let summary = run_wrapped(&[], Some("strip_trace.sh"), "graph_break.py", &env);
    assert_eq!(summary.code, 0, "{}", shown(&summary));
    assert!(summary.stdout.contains("1 graph break"), "{}", shown(&summary));
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(trace_dir(&summary)).unwrap();
}

#[test]
fn an_empty_environment_leaves_nothing_to_read_and_says_why() {
    let out = run_wrapped(&["--check"], Some("clean_env.sh"), "recompiling.py", &[]);
    assert_eq!(out.code, 2, "{}", shown(&out));
    let last = out.stderr.lines().last().unwrap_or("");
    assert!(
        last.contains("wrote no TORCH_TRACE log")
            && last.contains("TORCH_TRACE did not reach it")
            && last.contains("holds none of Dynamo's lines either"),
        "{}",
        shown(&out)
    );
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

#[test]
fn with_its_trace_the_copy_is_dropped_and_torch_logs_is_the_users_own() {
    // run sets TORCH_LOGS=recompiles when it is unset: the recompile's
    // lines show on stderr, and the trace is read, not the copy.
    let out = run_wrapped(&[], None, "recompiling.py", &[]);
    assert_eq!(out.code, 0, "{}", shown(&out));
    assert!(out.stderr.contains("Recompiling function step"), "{}", shown(&out));
    assert!(!out.stdout.contains("read from a text log"), "{}", shown(&out));
    let dir = trace_dir(&out);
    assert!(!dir.join("stderr.txt").exists(), "the copy is not kept beside a trace");
    std::fs::remove_dir_all(dir).unwrap();
    // A TORCH_LOGS of the user's own is left as it is.
    let out = run_wrapped(&[], None, "recompiling.py", &[("TORCH_LOGS", "graph_breaks")]);
    assert_eq!(out.code, 0, "{}", shown(&out));
    assert!(!out.stderr.contains("Recompiling function"), "{}", shown(&out));
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}
