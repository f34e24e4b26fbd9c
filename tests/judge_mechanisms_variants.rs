//! Bounded variants against re-specialisation (issue 37, item 3), read off
//! the held-out sets of round 34, each a class checked on logs recorded
//! from third-party code on two torch versions whose truth was written
//! blind.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// Test-time augmentation passes `identity`, `TF.hflip` and `TF.vflip` as
/// the view to one compiled function: the guard is on the function's code,
/// which Python makes once where the function is defined, so however many
/// recompiles the views cause they are as few as their definitions, each
/// compiled once. Expected, not a repeat.
#[test]
fn functions_passed_by_code_are_as_few_as_their_definitions() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios73", torch, "tta_flip_views_squeezenet");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "function_identity", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "expected", "{torch} {id}: {r:#}");
            assert_eq!(r["evidence"]["kind"], "one_per_variant", "{torch} {id}: {r:#}");
            let why = r["evidence"]["text"].as_str().unwrap();
            assert!(why.contains("as few as their definitions"), "{torch} {id}: {why}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.starts_with("Expected"), "{torch} {id}: {fix}");
        }
    }
}
