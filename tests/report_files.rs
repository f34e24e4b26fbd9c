//! The files `guardscope report` writes: temporaries are created
//! exclusively and renamed (a link planted at a temporary name is never
//! followed: the unit test `a_link_planted_at_a_temporary_name_is_not_followed`
//! in src/report/output_dir.rs), temporaries of a killed run are removed by
//! the next run, `-o` naming a link to nothing is a clear error, and the
//! directory's files are one unit: a run killed at any moment leaves the
//! old report or the new one, never a mix.

mod common;

use common::guardscope;
use std::fs;
use std::path::Path;

fn report(out_dir: &Path) -> common::Output {
    guardscope([
        "report".as_ref(),
        "samples/traces/collision".as_ref(),
        "-q".as_ref(),
        "-o".as_ref(),
        out_dir.as_os_str(),
    ])
}

/// No process has this id: Linux pids stop at 2^22.
const DEAD_PID: u32 = 2_000_000_000;

#[cfg(unix)]
#[test]
fn a_report_removes_temporaries_of_a_killed_run_and_nothing_else() {
    let root = tempfile::tempdir().unwrap();
    let out_dir = root.path().join("report");
    assert_eq!(report(&out_dir).code, 0);
    let victim = root.path().join("victim.txt");
    fs::write(&victim, "precious").unwrap();

    // What a run killed before its rename leaves, old and new style; one a
    // link, which is removed without touching what it points to.
    let stale = [
        format!(".index.html.tmp-{DEAD_PID}"),
        format!(".summary.json.tmp-{DEAD_PID}.a1B2c3"),
        format!("..guardscope-report.tmp-{DEAD_PID}.Zz9Yy8"),
    ];
    fs::write(out_dir.join(&stale[0]), "<html>half a page").unwrap();
    fs::write(out_dir.join(&stale[1]), "{\"half\":").unwrap();
    std::os::unix::fs::symlink(&victim, out_dir.join(&stale[2])).unwrap();
    // Not guardscope's, or of a run still alive (this test's parent): kept.
    let live = format!(".index.html.tmp-{}.q1W2e3", std::os::unix::process::parent_id());
    let kept = [
        live.as_str(),
        ".notes.txt.tmp-2000000000",
        "index.html.tmp-2000000000",
        ".index.html.tmp-mine",
    ];
    for name in kept {
        fs::write(out_dir.join(name), "keep").unwrap();
    }

    let out = report(&out_dir);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for name in &stale {
        assert!(fs::symlink_metadata(out_dir.join(name)).is_err(), "{name} was left");
    }
    for name in kept {
        assert_eq!(fs::read_to_string(out_dir.join(name)).unwrap(), "keep", "{name}");
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert!(fs::read_to_string(out_dir.join("index.html"))
        .unwrap()
        .contains("</html>"));
}

#[cfg(unix)]
#[test]
fn o_at_a_dangling_symlink_is_a_clear_error_not_file_exists() {
    let root = tempfile::tempdir().unwrap();
    let gone = root.path().join("gone");
    for link in [root.path().join("report"), root.path().join("parent")] {
        std::os::unix::fs::symlink(&gone, &link).unwrap();
    }
    for out_dir in [root.path().join("report"), root.path().join("parent/report")] {
        let out = report(&out_dir);
        common::assert_clean_failure(&out);
        assert!(
            out.stderr.contains("is a symbolic link to") && out.stderr.contains("which does not exist"),
            "{}",
            out.stderr
        );
        assert!(!out.stderr.contains("File exists"), "{}", out.stderr);
    }
    assert!(!gone.exists(), "nothing is created through the link");
}

/// A report killed at random moments while it replaces another: after each
/// kill, `index.html` and `summary.json` are of one run. Two inputs
/// alternate, told apart by the page's title and the summary's inputs.
#[cfg(unix)]
#[test]
fn a_report_killed_while_replacing_another_never_leaves_a_mixed_pair() {
    use std::process::{Command, Stdio};
    let root = tempfile::tempdir().unwrap();
    let out_dir = root.path().join("report");
    let inputs = ["samples/traces/collision", "samples/traces/collision_fixed"];
    let which = |out: &Path| {
        let summary = fs::read_to_string(out.join("summary.json")).unwrap();
        let index = fs::read_to_string(out.join("index.html")).unwrap();
        let from_summary = inputs.iter().position(|i| summary.contains(&format!("{i}/")));
        let from_index = inputs
            .iter()
            .position(|i| index.contains(&format!("<title>{} ·", i.rsplit('/').next().unwrap())));
        (from_summary, from_index)
    };
    assert_eq!(report(&out_dir).code, 0);
    assert_eq!(which(&out_dir), (Some(0), Some(0)));
    let mut kills = 0;
    for round in 0..40u64 {
        let input = inputs[(round % 2) as usize];
        let mut child = Command::new(env!("CARGO_BIN_EXE_guardscope"))
            .args(["report", input, "-q", "-o"])
            .arg(&out_dir)
            .current_dir(common::root())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread over the run's life (tens of ms), by a cheap pseudo-random step.
        std::thread::sleep(std::time::Duration::from_micros((round * 7919) % 60_000));
        if child.try_wait().unwrap().is_none() {
            unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
            kills += 1;
        }
        child.wait().unwrap();
        let (summary, index) = which(&out_dir);
        assert!(
            summary.is_some() && summary == index,
            "round {round}: summary of {summary:?}, page of {index:?}"
        );
    }
    assert!(kills > 5, "only {kills} runs were killed before they ended");
    assert_eq!(report(&out_dir).code, 0, "the next run cleans up");
    let left: Vec<_> = fs::read_dir(root.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}
