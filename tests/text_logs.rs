//! A job's stderr with `TORCH_LOGS=recompiles` read like its TORCH_TRACE
//! log: each job in tests/textlogs/logs ran once with both set
//! (tests/textlogs/record.py), so the text and the trace describe the same
//! compiles, and guardscope must give the same recompile ids, categories,
//! culprits and severities from both. What text cannot show (compile
//! times, the caller's line) is asserted as absent, not papered over.

mod common;

use common::{guardscope, root, summary_json};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

const VERSIONS: [&str; 4] = ["torch2.15.0", "torch2.14.1", "torch2.12.1", "torch2.11.0"];
const SCENARIOS: [&str; 7] = [
    "ddp_gloo",
    "graph_break_recompile",
    "guards_dynamic",
    "hook_flag_flip",
    "limit_fullgraph",
    "limit_int_attr",
    "shapes_then_hook",
];

fn job(version: &str, scenario: &str) -> PathBuf {
    root().join("tests/textlogs/logs").join(version).join(scenario)
}

/// Recompiles whose severity in the trace rests on what only TORCH_TRACE
/// records, with what that is. On torch 2.11 the float argument's new
/// entry guards `___as_tensor(L['temperature']).item()`: the trace reads
/// it as still constant (a problem); a text log has no guard sets, so its
/// verdict rests on the later compiles, none of which failed on it.
const SEVERITY_FROM_GUARD_SETS: [(&str, &str, &str); 1] = [("torch2.11.0", "graph_break_recompile", "1/1")];

/// What a verdict is scored on, per recompile.
fn verdicts(doc: &Value) -> Vec<String> {
    doc["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "rank {} {} [{}] {} {} limit={} failed={} entry={}",
                r["rank"],
                r["compile_id"],
                r["cause"]["category"],
                r["cause"]["culprit"],
                r["severity"],
                r["cache_limit"],
                r["failed"],
                r["cause_entry"]
            )
        })
        .collect()
}

#[test]
fn the_text_gives_the_traces_verdicts() {
    for version in VERSIONS {
        for scenario in SCENARIOS {
            let dir = job(version, scenario);
            let trace = summary_json(&dir.join("trace"));
            let text = summary_json(&dir.join("stderr.txt"));
            let (mut want, mut got) = (verdicts(&trace), verdicts(&text));
            assert!(!want.is_empty(), "{version}/{scenario}: the job recompiled");
            for (v, s, id) in SEVERITY_FROM_GUARD_SETS {
                if (v, s) == (version, scenario) {
                    let at = want.iter().position(|w| w.contains(&format!(" \"{id}\" "))).unwrap();
                    assert!(
                        want[at].contains("\"problem\"") && got[at].contains("\"expected\""),
                        "{got:?}"
                    );
                    want[at] = want[at].replace("\"problem\"", "?");
                    got[at] = got[at].replace("\"expected\"", "?");
                }
            }
            assert_eq!(got, want, "{version}/{scenario}");
            assert_eq!(text["source"], "text");
            assert_eq!(trace["source"], "trace");
            assert!(trace.get("text_log").is_none());
            // Guard sets only with TORCH_LOGS=guards (read from `[__guards]`).
            let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
            let missing = match meta["TORCH_LOGS"].as_str().unwrap().contains("guards") {
                true => serde_json::json!(["compile_times", "call_stacks"]),
                false => serde_json::json!(["compile_times", "call_stacks", "guard_sets"]),
            };
            assert_eq!(text["text_log"]["missing"], missing, "{version}/{scenario}");
            // What text cannot show is absent, never zero or a guess.
            for r in text["recompiles"].as_array().unwrap() {
                assert!(r["duration_s"].is_null(), "{version}/{scenario}: {r}");
                assert!(r["called_from"].is_null(), "{version}/{scenario}: {r}");
            }
            // Graph breaks are printed only with TORCH_LOGS=graph_breaks.
            let breaks = if meta["TORCH_LOGS"].as_str().unwrap().contains("graph_breaks") {
                trace["totals"]["graph_breaks"].clone()
            } else {
                Value::from(0)
            };
            assert_eq!(text["totals"]["graph_breaks"], breaks, "{version}/{scenario}");
        }
    }
}

#[test]
fn the_summary_says_it_read_text_and_what_that_leaves_out() {
    let out = guardscope([
        "summary".as_ref(),
        job("torch2.15.0", "limit_int_attr").join("stderr.txt").as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Words, whatever the wrapping.
    let words = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("read from a text log"), "{}", out.stdout);
    assert!(
        words.contains("`TORCH_TRACE=/tmp/trace python train.py"),
        "{}",
        out.stdout
    );
    assert!(words.contains("compile times not in a text log"), "{}", out.stdout);
    assert!(words.contains("hit the recompile limit at 0/8"), "{}", out.stdout);
    assert!(!words.contains("0.00 s"), "{}", out.stdout);
}

/// The recorded stderr as a real terminal log also holds it: progress bars
/// redrawn with `\r` (the logger's line printed after a bar), colour codes,
/// the job's prints and warnings and a traceback. Assembled here from the
/// recorded lines; the noise is hand-made.
fn noisy(stderr: &str) -> String {
    let mut out = String::from("\x1b[33mUserWarning: something about dataloaders\x1b[0m\n");
    for (i, line) in stderr.lines().enumerate() {
        if i % 7 == 3 {
            out.push_str(&format!(
                "\r {:>3}%|\x1b[32m####\x1b[0m      | {i}/100 [00:0{}<00:10]",
                i % 100,
                i % 10
            ));
        }
        if i % 5 == 0 {
            out.push_str(&format!("epoch {i} loss 0.{i:04}\n"));
        }
        if i % 11 == 0 {
            out.push_str(&format!("\x1b[2m{line}\x1b[0m\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nKeyboardInterrupt\n");
    out
}

#[test]
fn noise_gzip_and_stdin_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for scenario in ["hook_flag_flip", "limit_fullgraph", "ddp_gloo"] {
        let job = job("torch2.15.0", scenario);
        let want = verdicts(&summary_json(&job.join("trace")));
        let stderr = std::fs::read_to_string(job.join("stderr.txt")).unwrap();
        let plain = dir.path().join(format!("{scenario}.log"));
        std::fs::write(&plain, noisy(&stderr)).unwrap();
        assert_eq!(verdicts(&summary_json(&plain)), want, "{scenario}: noisy");
        let gz = dir.path().join(format!("{scenario}.err.gz"));
        let mut enc = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::fast());
        enc.write_all(noisy(&stderr).as_bytes()).unwrap();
        enc.finish().unwrap();
        assert_eq!(verdicts(&summary_json(&gz)), want, "{scenario}: gzip");
        let piped = std::process::Command::new(env!("CARGO_BIN_EXE_guardscope"))
            .args(["summary", "--json", "-"])
            .stdin(std::fs::File::open(&gz).unwrap())
            .output()
            .unwrap();
        assert!(piped.status.success(), "{}", String::from_utf8_lossy(&piped.stderr));
        let doc: Value = serde_json::from_slice(&piped.stdout).unwrap();
        assert_eq!(verdicts(&doc), want, "{scenario}: stdin");
    }
}

fn pasted(name: &str) -> Value {
    summary_json(&root().join("tests/textlogs/pasted").join(name))
}

/// The 0/2 recompile of hook_flag_flip as its trace judges it.
fn hook_flag_0_2() -> String {
    let trace = summary_json(&job("torch2.15.0", "hook_flag_flip").join("trace"));
    verdicts(&trace).into_iter().find(|v| v.contains(" \"0/2\" ")).unwrap()
}

#[test]
fn pasted_blocks_with_or_without_prefixes() {
    // Hand-made from the recorded stderr (tests/textlogs/README.md says how).
    let want = hook_flag_0_2();
    // Without glog prefix or tag, the compile id is the one after the newest
    // failed entry, and no process or rank is known.
    let strip = |v: String| v.replacen("rank null ", "", 1);
    for name in ["block_bare.txt", "reasons_only.txt", "issue_comment.txt"] {
        let got = verdicts(&pasted(name));
        assert_eq!(got.len(), 1, "{name}: {got:?}");
        assert_eq!(strip(got[0].clone()), strip(want.clone()), "{name}");
    }
}

#[test]
fn a_log_cut_mid_block_keeps_what_it_holds() {
    // Cut inside the user stack of 0/3's first reason: 0/3 lost its other
    // reasons (the older entries' failures) and with them the evidence that
    // the same cause repeats, so only its id, category and culprit are
    // asserted; 0/1 and 0/2 are whole and judged as the trace judges them.
    let trace = verdicts(&summary_json(&job("torch2.15.0", "hook_flag_flip").join("trace")));
    let cut = verdicts(&pasted("cut_in_block.txt"));
    assert_eq!(cut.len(), 3, "{cut:?}");
    assert_eq!(cut[..2], trace[..2]);
    let head = |v: &str| {
        v.split(" \"problem\"")
            .next()
            .unwrap()
            .split(" \"expected\"")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(head(&cut[2]), head(&trace[2]));
}

fn check(args: &[&Path]) -> common::Output {
    let mut all = vec![Path::new("check")];
    all.extend_from_slice(args);
    guardscope(all)
}

#[test]
fn check_refuses_a_text_log_that_cannot_show_recompiles() {
    let dir = tempfile::tempdir().unwrap();
    // The job's stderr without TORCH_LOGS: its prints and its warning only
    // (the ranks' profiler warning of the recorded ddp_gloo job).
    let stderr = std::fs::read_to_string(job("torch2.15.0", "ddp_gloo").join("stderr.txt")).unwrap();
    let quiet: String = stderr
        .lines()
        .filter(|l| !l.contains("[__recompiles]"))
        .map(|l| format!("{l}\nstep 1 loss 0.25\n"))
        .collect();
    let log = dir.path().join("job.err");
    std::fs::write(&log, &quiet).unwrap();
    let out = check(&[&log]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("cannot show recompiles"), "{}", out.stderr);
    assert!(out.stderr.contains("--recompiles-logged"), "{}", out.stderr);
    let vouched = check(&[Path::new("--recompiles-logged"), &log]);
    assert_eq!(vouched.code, 0, "{}{}", vouched.stdout, vouched.stderr);
    // Not a single Dynamo line: the same, in check's words.
    let prints = dir.path().join("prints.err");
    std::fs::write(&prints, "step 0 loss 1.0\nstep 1 loss 0.5\n").unwrap();
    assert_eq!(check(&[&prints]).code, 2);
    assert_eq!(check(&[Path::new("--recompiles-logged"), &prints]).code, 0);
    // summary still refuses a file with no Dynamo line at all.
    let out = guardscope(["summary".as_ref(), prints.as_os_str()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no Dynamo log lines"), "{}", out.stderr);
    // A log that recompiled fails the gate like its trace does.
    let recompiled = check(&[&job("torch2.15.0", "hook_flag_flip").join("stderr.txt")]);
    assert_eq!(recompiled.code, 1, "{}", recompiled.stderr);
    assert!(
        recompiled.stdout.contains("FAIL: 3 recompiles"),
        "{}",
        recompiled.stdout
    );
}

#[test]
fn watch_follows_a_piped_stderr() {
    // `python train.py 2>&1 | guardscope watch -`, the job's lines replayed.
    let job = job("torch2.15.0", "limit_int_attr");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(["watch", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::fs::read(job.join("stderr.txt")).unwrap();
    child.stdin.take().unwrap().write_all(&stderr).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let events: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&str> = events.iter().map(|e| e["compile_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["0/1", "0/2", "0/3", "0/4", "0/5", "0/6", "0/7", "0/8"]);
    assert_eq!(events[7]["event"], "recompile_limit");
    assert!(events
        .iter()
        .all(|e| e["culprit"] == "self.step" && e["duration_s"].is_null()));
}

#[test]
fn the_page_says_it_read_text() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("report");
    let log = job("torch2.15.0", "hook_flag_flip").join("stderr.txt");
    let out = guardscope([
        "report".as_ref(),
        "-q".as_ref(),
        "-o".as_ref(),
        out_dir.as_os_str(),
        log.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let page = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(page.contains("read from a text log"));
    assert!(page.contains("global metrics.norms"));
}

/// `TORCH_LOGS=recompiles,guards`: each compile's `[__guards]` tree is its
/// guard set, which tells the shape recompile made the size dynamic, as the
/// trace does; without those lines the same stderr cannot tell it.
#[test]
fn guard_trees_from_torch_logs_guards_tell_what_became_dynamic() {
    let made_dynamic = |doc: &Value| {
        let advice = doc["recompiles"][0]["cause"]["advice"].as_str().unwrap().to_string();
        advice.contains("torch made it dynamic")
    };
    for version in VERSIONS {
        let dir = job(version, "guards_dynamic");
        let text = summary_json(&dir.join("stderr.txt"));
        assert_eq!(text["text_log"]["guard_sets"], 3, "{version}: one tree per compile");
        assert!(made_dynamic(&summary_json(&dir.join("trace"))), "{version}");
        assert!(made_dynamic(&text), "{version}: {}", text["recompiles"][0]);
        let work = tempfile::tempdir().unwrap();
        let bare = work.path().join("stderr.txt");
        let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.contains("[__guards]")).collect();
        std::fs::write(&bare, lines.join("\n")).unwrap();
        let bare = summary_json(&bare);
        assert_eq!(verdicts(&bare), verdicts(&text), "{version}: the same recompiles");
        assert!(!made_dynamic(&bare), "{version}: {}", bare["recompiles"][0]);
        assert_eq!(bare["text_log"]["missing"][2], "guard_sets");
    }
}

/// A Hugging Face Trainer job's stderr as it was (torch 2.15): tqdm's bar
/// redrawn with `\r`, Dynamo's lines printed right after a bar, the
/// Trainer's own notices. The same verdicts as its trace: the config
/// attribute set by the first forward, then the short last batch.
#[test]
fn a_trainer_jobs_stderr_gives_the_traces_verdicts() {
    let dir = job("torch2.15.0", "hf_trainer");
    let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    assert!(stderr.contains("s/it]V1128"), "a logger line after a progress bar");
    let (trace, text) = (summary_json(&dir.join("trace")), summary_json(&dir.join("stderr.txt")));
    let want = verdicts(&trace);
    assert_eq!(want.len(), 2, "{want:?}");
    assert!(
        want[0].contains("[\"nn_module_attr\"] \"self.config.problem_type\""),
        "{want:?}"
    );
    assert!(want[1].contains("[\"shape_input\"] \"argument input_ids\""), "{want:?}");
    assert_eq!(verdicts(&text), want);
    assert_eq!(text["source"], "text");
}
