//! Scoring one held-out set of recorded logs against its blind truth
//! (`truth.json` beside each log, written from the script and the raw log
//! by someone who never ran guardscope). Every recompile is checked for its
//! category, owner, severity, cause entry and a fix that names one of what
//! the truth requires and none of what it forbids; the user's line is
//! scored by tests/scenarios2/score.py, apart from the suite.

use super::{summary_json, truth_scenarios};
use serde_json::Value;

/// A field where guardscope and the truth still disagree: (scenario, torch
/// version or "*", compile id, field, why). Each must still be wrong; one
/// that passes fails the test until it is removed from the list.
pub type Open<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// The set's layout: where its logs are, which versions, how many
/// scenarios per version and recompiles in all.
pub struct HeldOut<'a> {
    pub logs: &'a str,
    pub versions: &'a [&'a str],
    pub scenarios: usize,
    pub recompiles: usize,
    pub open: &'a [Open<'a>],
}

/// The next record of compile `id` not matched yet, marked as matched:
/// records are in log order, and after a reset ids repeat.
pub fn next_record(ours: &[Value], used: &mut [bool], id: &str, at: &str) -> usize {
    let i = (0..ours.len())
        .find(|&i| !used[i] && ours[i]["compile_id"] == id)
        .unwrap_or_else(|| panic!("{at}: not reported"));
    used[i] = true;
    i
}

fn open(list: &[Open<'_>], scenario: &str, version: &str, id: &str, field: &str) -> bool {
    list.iter()
        .any(|(s, v, c, f, _)| *s == scenario && (*v == "*" || *v == version) && *c == id && *f == field)
}

/// Each field of one recompile: right or not, and what guardscope said.
fn fields(t: &Value, r: &Value) -> Vec<(&'static str, bool, String)> {
    let cause = &r["cause"];
    let advice = cause["advice"].as_str().unwrap_or("").to_lowercase();
    let list = |k: &str| -> Vec<String> {
        t[k].as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap().to_lowercase()).collect())
            .unwrap_or_default()
    };
    let (must, never) = (list("fix_must_contain"), list("fix_must_not_contain"));
    let fix = (must.is_empty() || must.iter().any(|m| advice.contains(m.as_str())))
        && !never.iter().any(|n| advice.contains(n.as_str()));
    vec![
        (
            "category",
            cause["category"] == t["category"],
            cause["category"].to_string(),
        ),
        ("owner", r["owner"] == t["owner"], r["owner"].to_string()),
        (
            "severity",
            r["severity"] == t["severity"],
            format!("{} ({})", r["severity"], r["evidence"]["text"]),
        ),
        (
            "cause_entry",
            t["cause_entry"].is_null() || r["cause_entry"] == t["cause_entry"],
            r["cause_entry"].to_string(),
        ),
        ("fix", fix, advice.clone()),
    ]
}

/// Judges every recompile of the set and fails on any field judged
/// otherwise than the truth that is not in `open`, and on any entry of
/// `open` that is now right.
pub fn judge_set(set: &HeldOut<'_>) {
    let mut checked = 0;
    let mut wrong = Vec::new();
    let mut fixed = Vec::new();
    for version in set.versions {
        let dirs = truth_scenarios(set.logs, version);
        assert_eq!(dirs.len(), set.scenarios, "{version}: {} scenarios", dirs.len());
        for dir in dirs {
            let scenario = dir.file_name().unwrap().to_str().unwrap().to_string();
            let truth: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
            let s = summary_json(&dir);
            let ours = s["recompiles"].as_array().unwrap();
            let mut used = vec![false; ours.len()];
            for t in truth["recompiles"].as_array().unwrap() {
                let id = t["compile_id"].as_str().unwrap();
                let at = format!("{version}/{scenario} {id}");
                let i = next_record(ours, &mut used, id, &at);
                assert!(
                    !ours[i]["evidence"]["text"].as_str().unwrap_or("").is_empty(),
                    "{at}: no evidence named"
                );
                for (field, right, said) in fields(t, &ours[i]) {
                    match (right, open(set.open, &scenario, version, id, field)) {
                        (false, false) => wrong.push(format!("{at} {field}: {said}")),
                        (true, true) => fixed.push(format!("{at} {field}")),
                        _ => {}
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, set.recompiles, "recompiles checked");
    assert!(
        wrong.is_empty(),
        "judged otherwise than the truth:\n{}",
        wrong.join("\n")
    );
    assert!(fixed.is_empty(), "now right: remove from OPEN:\n{}", fixed.join("\n"));
}
