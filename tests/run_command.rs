//! `guardscope run -- python SCRIPT`: the real binary runs real torch
//! scripts (tests/run/, each compiling with backend="eager" in well under a
//! second) and reads the logs they wrote.
//!
//! The scripts run under GUARDSCOPE_TEST_PYTHON, else `.venv/bin/python`
//! (`make test` creates it); without either the tests fail and say so.

mod common;

use common::{guardscope, python, root, run_trace_dir as trace_dir, Output};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn script(name: &str) -> PathBuf {
    root().join("tests/run").join(name)
}

/// `guardscope run FLAGS -- python SCRIPT`.
fn run_script(flags: &[&str], name: &str) -> Output {
    let py = python();
    let script = script(name);
    let mut args: Vec<&Path> = vec![Path::new("run")];
    args.extend(flags.iter().map(Path::new));
    args.extend([Path::new("--"), py.as_path(), script.as_path()]);
    guardscope(args)
}

fn logs_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("dedicated_log_torch_trace")
        })
        .count()
}

/// guardscope's own last stderr line (the script may print its own).
fn last_line(out: &Output) -> &str {
    out.stderr.lines().last().unwrap_or("")
}

#[test]
fn a_clean_script_passes_the_check() {
    let out = run_script(&["--check"], "clean.py");
    assert_eq!(out.code, 0, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("clean: done"),
        "the script's own output reaches the user"
    );
    assert!(out.stdout.contains("PASS"), "{}", out.stdout);
    let dir = trace_dir(&out);
    assert!(
        out.stdout.contains(&format!("Logs: {}", dir.display())),
        "{}",
        out.stdout
    );
    assert_eq!(logs_in(&dir), 1, "the trace directory is kept, with the script's log");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_recompiling_script_fails_the_check_which_names_the_cause() {
    let out = run_script(&["--check", "--json"], "recompiling.py");
    assert_eq!(out.code, 1, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    // The script prints one line before guardscope's JSON document.
    let json = out
        .stdout
        .split_once("recompiling: done\n")
        .expect("the script's line")
        .1;
    let verdict: serde_json::Value = serde_json::from_str(json).expect("the verdict as JSON");
    assert_eq!(verdict["passed"], false, "{verdict}");
    let text = verdict.to_string();
    assert!(text.contains("global_var") && text.contains("MODE"), "{text}");
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

#[test]
fn without_check_the_summary_is_printed_and_report_writes_the_page() {
    let work = tempfile::tempdir().unwrap();
    let (traces, report) = (work.path().join("traces"), work.path().join("page"));
    let out = run_script(
        &[
            "--trace-dir",
            traces.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
        "recompiling.py",
    );
    assert_eq!(out.code, 0, "a recompile is no failure without --check: {}", out.stderr);
    // MODE is set once between two calls and never again: an expected
    // one-off, listed with its cause and the guard that failed.
    assert!(
        out.stdout.contains("Expected (") && out.stdout.contains("global MODE [global_var]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("[global_var] 0/0: G['MODE'] == 'train'"),
        "{}",
        out.stdout
    );
    assert_eq!(logs_in(&traces), 1);
    let html = std::fs::read_to_string(report.join("index.html")).expect("index.html written");
    assert!(html.contains("MODE") && html.contains("recompiling.py"));
    assert!(report.join("summary.json").is_file());
    assert!(out
        .stdout
        .contains(&format!("Report: {}", report.join("index.html").display())));
}

#[test]
fn a_failing_script_gives_its_own_exit_code_in_one_line_even_under_check() {
    let out = run_script(&["--check"], "failing.py");
    assert_eq!(out.code, 3, "the script's exit code, not a pass: {}", out.stderr);
    let line = last_line(&out);
    assert!(
        line.starts_with("guardscope: `") && line.contains("failing.py` exited with code 3"),
        "{line}"
    );
    // What the logs hold comes before: the one compile it made.
    assert!(out.stdout.contains("1 frame · 1 compile"), "{}", out.stdout);
    assert!(!out.stdout.contains("PASS"), "{}", out.stdout);
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

#[test]
fn a_script_that_compiles_nothing_is_told_apart() {
    let out = run_script(&[], "no_compile.py");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(last_line(&out).contains("wrote no TORCH_TRACE log"), "{}", out.stderr);
    assert!(last_line(&out).contains("it compiled nothing"), "{}", out.stderr);
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

/// `guardscope run -- COMMAND...` started, read until the script says it
/// has compiled and waits (`waiting: pid N`): guardscope's process, the
/// script's pid, the rest of stdout to read, stderr read on a thread.
#[cfg(unix)]
struct Waiting {
    child: std::process::Child,
    script_pid: i32,
    stdout: BufReader<std::process::ChildStdout>,
    stderr: std::thread::JoinHandle<String>,
}

#[cfg(unix)]
fn run_until_waiting(command: &[&std::ffi::OsStr]) -> Waiting {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(["run", "--"])
        .args(command)
        .current_dir(root())
        .env("COLUMNS", "200")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let script_pid = loop {
        line.clear();
        if stdout.read_line(&mut line).unwrap() == 0 {
            let _ = child.wait();
            panic!("the script ended before waiting: {}", stderr.join().unwrap());
        }
        if let Some(pid) = line.trim().strip_prefix("waiting: pid ") {
            break pid.parse::<i32>().unwrap();
        }
    };
    Waiting {
        child,
        script_pid,
        stdout,
        stderr,
    }
}

#[cfg(unix)]
#[test]
fn sigint_to_guardscope_stops_the_script_and_the_logs_are_still_summarised() {
    let (py, waits) = (python(), script("waits.py"));
    let Waiting {
        mut child,
        script_pid,
        mut stdout,
        stderr,
    } = run_until_waiting(&[py.as_os_str(), waits.as_os_str()]);
    // Sent to guardscope alone, as `kill -INT` would: guardscope passes it on.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let stderr = stderr.join().unwrap();
    assert_eq!(status.code(), Some(130), "128 + SIGINT; stderr:\n{stderr}");
    let last = stderr.lines().last().unwrap();
    assert!(last.contains("waits.py` was ended by signal 2 (SIGINT)"), "{last}");
    assert!(
        stderr.contains("KeyboardInterrupt"),
        "the script saw the Ctrl-C:\n{stderr}"
    );
    assert!(
        rest.contains("1 frame · 1 compile"),
        "what the logs hold is printed:\n{rest}"
    );
    // The script is gone (guardscope reaped it), not left running.
    assert_eq!(
        unsafe { libc::kill(script_pid, 0) },
        -1,
        "script {script_pid} still runs"
    );
    std::fs::remove_dir_all(trace_dir(&Output {
        code: 130,
        stdout: rest,
        stderr,
    }))
    .unwrap();
}

/// SIGTERM from a scheduler to guardscope, while the command is a wrapper
/// (`sh wrapped.sh` -> python): the whole process group gets it, as under
/// timeout(1), and guardscope summarises once python is gone.
#[cfg(unix)]
#[test]
fn sigterm_to_guardscope_reaches_the_python_under_a_wrapper_script() {
    let (py, wrapped) = (python(), script("wrapped.sh"));
    let Waiting {
        mut child,
        script_pid: python_pid,
        mut stdout,
        stderr,
    } = run_until_waiting(&["sh".as_ref(), wrapped.as_os_str(), py.as_os_str()]);
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let stderr = stderr.join().unwrap();
    // Checked before anything else: a python left running would sleep on.
    let python_alive = unsafe { libc::kill(python_pid, 0) } == 0;
    if python_alive {
        unsafe { libc::kill(python_pid, libc::SIGKILL) };
    }
    assert!(!python_alive, "python {python_pid}, the wrapper's child, still runs");
    assert_eq!(status.code(), Some(143), "128 + SIGTERM; stderr:\n{stderr}");
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .contains("was ended by signal 15 (SIGTERM)"),
        "{stderr}"
    );
    assert!(
        !rest.contains("wrapper: python ended"),
        "the shell got the signal too:\n{rest}"
    );
    assert!(rest.contains("1 frame · 1 compile"), "the logs are summarised:\n{rest}");
    std::fs::remove_dir_all(trace_dir(&Output {
        code: 143,
        stdout: rest,
        stderr,
    }))
    .unwrap();
}

/// A disk that fills mid-run (RLIMIT_FSIZE, real torch): the log ends in
/// the middle of a line and the recompiles after it were never written. The
/// gate must not pass on what is left: exit 2, the cut named, the likely
/// cause said.
#[cfg(unix)]
#[test]
fn a_log_cut_by_a_full_disk_fails_the_gate_closed() {
    // A first run, unlimited, tells where the log's lines fall; the limit is
    // put in the middle of a long line past half the log.
    let whole = run_script(&["--check", "--max-recompiles", "5"], "full_disk.py");
    assert_eq!(whole.code, 0, "{}\n{}", whole.stdout, whole.stderr);
    let dir = trace_dir(&whole);
    let log = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read(&log).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut at = text.len() / 2;
    let limit = loop {
        let end = at + text[at..].iter().position(|&b| b == b'\n').unwrap();
        if end - at > 60 {
            break at + (end - at) / 2;
        }
        at = end + 1;
    };
    let py = python();
    let script = script("full_disk.py");
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(["run", "--check", "--max-recompiles", "5", "--"])
        .arg(&py)
        .arg(&script)
        .current_dir(root())
        .env("COLUMNS", "200")
        .env("GUARDSCOPE_TEST_FSIZE", limit.to_string())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(
        stdout.contains("full_disk: done"),
        "the script ran on:\n{stdout}\n{stderr}"
    );
    assert_eq!(out.status.code(), Some(2), "fails closed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("cut off at end of file") || stderr.contains("cut off at end of file"),
        "the cut is named:\n{stdout}\n{stderr}"
    );
    assert!(
        stderr.contains("ends cut off mid-line: the disk holding it may be full"),
        "run says what it likely was:\n{stderr}"
    );
    let dir = trace_dir(&Output {
        code: 2,
        stdout,
        stderr,
    });
    let cut = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    assert_eq!(std::fs::metadata(&cut).unwrap().len(), limit as u64);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A real two-process torchrun (gloo on CPU): one log per rank, and the
/// summary covers both.
#[test]
fn a_torchrun_job_is_summarised_over_its_ranks() {
    let py = python();
    let script = script("two_ranks.py");
    let out = guardscope([
        Path::new("run"),
        Path::new("--check"),
        Path::new("--"),
        &py,
        Path::new("-m"),
        Path::new("torch.distributed.run"),
        Path::new("--standalone"),
        Path::new("--nproc-per-node"),
        Path::new("2"),
        &script,
    ]);
    assert_eq!(out.code, 1, "rank 1 recompiled:\n{}\n{}", out.stdout, out.stderr);
    assert_eq!(logs_in(&trace_dir(&out)), 2, "one log per rank");
    assert!(out.stdout.contains("rank 0 of 2: done") && out.stdout.contains("rank 1 of 2: done"));
    assert!(out.stdout.contains("global MODE"), "{}", out.stdout);
    std::fs::remove_dir_all(trace_dir(&out)).unwrap();
}

#[test]
fn bad_usage_is_one_line() {
    // No command after `--`.
    let out = guardscope(["run", "--check"]);
    assert_eq!(out.code, 2);
    // A program that does not exist.
    let out = guardscope(["run", "--", "/nonexistent/python3"]);
    common::assert_clean_failure(&out_without_note(out));
    // A --trace-dir with files in it: another run's logs would be mixed in.
    let busy = tempfile::tempdir().unwrap();
    std::fs::write(busy.path().join("dedicated_log_torch_trace_old.log"), "").unwrap();
    let out = guardscope([
        Path::new("run"),
        Path::new("--trace-dir"),
        busy.path(),
        Path::new("--"),
        Path::new("true"),
    ]);
    common::assert_clean_failure(&out);
    assert!(out.stderr.contains("is not empty"), "{}", out.stderr);
    // --check's options without --check.
    assert_eq!(guardscope(["run", "--max-recompiles", "2", "--", "true"]).code, 2);
}

/// The failure line, without the TORCH_TRACE note printed before the start.
fn out_without_note(out: Output) -> Output {
    let stderr: Vec<&str> = out.stderr.lines().filter(|l| !l.contains("TORCH_TRACE=")).collect();
    Output {
        stderr: stderr.join("\n"),
        ..out
    }
}
