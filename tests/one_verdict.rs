//! One verdict everywhere: samples/steps/ddp (samples/scripts/ddp_steps.py,
//! real torch, two DDP ranks on gloo, each with a StepLogger and
//! TORCH_TRACE) has rank 1 alone recompile for a short batch at step 3. Its
//! own StepLogger, seeing one rank's log, records an expected one-off; the
//! whole run shows a rank that recompiled alone (the other waits for it at
//! the next collective), a problem. Every surface that reads the trace
//! gives the whole run's verdict, the one `summary` gives.

mod common;

use common::{guardscope, root, summary_json};
use serde_json::Value;

fn sample(name: &str) -> String {
    root()
        .join("samples/steps/ddp")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn json(args: &[&str]) -> Value {
    let out = guardscope(args);
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect(&out.stderr)
}

#[test]
fn the_step_logger_alone_sees_an_expected_one_off() {
    // What the test below corrects: the record rank 1 wrote.
    let records = std::fs::read_to_string(sample("steps_1.jsonl")).unwrap();
    let step3: Value = records
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["step"] == 3)
        .unwrap();
    let recompile = step3["compiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["recompile"] == true)
        .unwrap();
    assert_eq!(recompile["cause"]["severity"], "expected");
}

#[test]
fn summary_json_check_and_steps_give_one_verdict() {
    let trace = sample("trace");
    let summary = summary_json(std::path::Path::new(&trace));
    let [r] = summary["recompiles"].as_array().unwrap().as_slice() else {
        panic!("one recompile: {summary}")
    };
    assert_eq!((r["rank"].as_u64(), r["compile_id"].as_str()), (Some(1), Some("0/1")));
    assert_eq!(r["severity"], "problem");
    assert_eq!(r["evidence"]["kind"], "rank_alone");

    let check = json(&["check", "--json", &trace]);
    assert_eq!(check["offending"][0]["severity"], "problem");
    assert_eq!(check["offending"][0]["evidence"]["kind"], "rank_alone");

    let steps_1 = sample("steps_1.jsonl");
    let steps_0 = sample("steps_0.jsonl");
    let steps = json(&["steps", "--json", &steps_0, &steps_1, "--trace", &trace]);
    let recompiles: Vec<&Value> = steps["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["compiles"].as_array().unwrap())
        .filter(|c| c["recompile"] == true)
        .collect();
    let [c] = recompiles.as_slice() else {
        panic!("one recompile among the slowest steps: {steps}")
    };
    assert_eq!(c["cause"]["severity"], "problem", "{c}");
    assert_eq!(c["cause"]["evidence"], "rank_alone", "{c}");
    assert_eq!(c["cause"]["advice"], r["cause"]["advice"], "the fix summary gives");

    // The text surfaces say it in the same words.
    let text = guardscope(["summary", &trace]).stdout;
    assert!(text.contains("why: problem (rank_alone)"), "{text}");
    let text = guardscope(["steps", &steps_0, &steps_1, "--trace", &trace]).stdout;
    assert!(text.contains("[problem: rank alone;"), "{text}");
    assert!(!text.contains("[expected:"), "{text}");
}

#[test]
fn steps_from_every_ranks_records_alone_gives_the_same_verdict() {
    // No trace: each record was judged on its own rank's log, but every
    // rank's records together show rank 1 recompiling alone.
    let (steps_0, steps_1) = (sample("steps_0.jsonl"), sample("steps_1.jsonl"));
    let steps = json(&["steps", "--json", &steps_0, &steps_1]);
    let recompiles: Vec<&Value> = steps["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["compiles"].as_array().unwrap())
        .filter(|c| c["recompile"] == true)
        .collect();
    let [c] = recompiles.as_slice() else {
        panic!("one recompile among the slowest steps: {steps}")
    };
    assert_eq!(
        (c["cause"]["severity"].as_str(), c["cause"]["evidence"].as_str()),
        (Some("problem"), Some("rank_alone"))
    );
    let summary = summary_json(std::path::Path::new(&sample("trace")));
    assert_eq!(c["cause"]["advice"], summary["recompiles"][0]["cause"]["advice"]);
    // One rank's records alone cannot tell: its own verdict stands.
    let steps = guardscope(["steps", &steps_1]).stdout;
    assert!(steps.contains("[expected: became dynamic;"), "{steps}");
}
