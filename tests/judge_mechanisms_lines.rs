//! The user's line for a recompile whose frame's own stack skips it
//! (issue 37, item 2), checked on held-out logs recorded from third-party
//! code on two torch versions, whose truth was written blind: a library
//! function the user's compiled function calls, compiled as a frame of its
//! own after a graph break, the resume function of such a library call,
//! and a decorated function of the user's whose own graph break names its
//! call.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};
use serde_json::Value;

fn called_from(r: &Value) -> &str {
    r["cause"]["called_from"].as_str().unwrap_or("")
}

/// `report = torch.compile(calibration_report)`, whose body calls
/// torchmetrics' `binary_calibration_error` (train.py:14) and breaks the
/// graph inside it. Dynamo compiles the torchmetrics function as frame 1,
/// and its `dynamo_start` stack goes from the loop's `report(...)` line
/// (train.py:36) straight into torchmetrics. The graph break's traceback
/// lists train.py:14 above the library function: that is the call.
/// Frame 12 resumes `binary_calibration_error` after its own break; the
/// line above it on its stack calls the function it resumes.
#[test]
fn a_library_function_split_off_by_a_graph_break_is_called_from_the_users_line_in_its_traceback() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios43", torch, "calibration_report_n_bins");
        for id in ["1/1", "12/1", "12/2"] {
            let r = find(&all, id);
            assert!(
                called_from(r).ends_with("calibration_report_n_bins/train.py:14"),
                "{torch} {id}: {r:#}"
            );
            assert_eq!(r["user_line"]["from"], "caller", "{torch} {id}");
            assert!(
                r["cause"]["called_from_code"]
                    .as_str()
                    .is_some_and(|c| c.contains("binary_calibration_error(")),
                "{torch} {id}: {r:#}"
            );
        }
    }
}

/// torchvision's `remove_small_boxes` and `batched_nms`, called from the
/// user's compiled post-processing function (train.py:46 and :48) and
/// compiled as frames of their own after graph breaks: each one's call is
/// the user's line the graph break's traceback names above it.
#[test]
fn torchvision_ops_split_off_by_graph_breaks_are_called_from_the_users_lines() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios39", torch, "detection_postprocess_batched_nms");
        for (id, line) in [("4/1", "train.py:46"), ("6/1", "train.py:48")] {
            let r = find(&all, id);
            assert!(called_from(r).ends_with(line), "{torch} {id}: {r:#}");
        }
    }
}

/// A `@torch.compile`-decorated function whose `dynamo_start` stack holds
/// no caller and whose run logged no graph break: the call is read off the
/// Python stack torch logged while tracing the compile (a dynamic dim's
/// create_symbol), the line in the loop that calls it (train.py:43), not
/// guessed from the decorator.
#[test]
fn a_decorated_functions_call_comes_from_the_stack_logged_while_tracing() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios42", torch, "channels_layout_ingest");
        let r = find(&all, "0/1");
        assert!(
            called_from(r).ends_with("channels_layout_ingest/train.py:43"),
            "{torch}: {r:#}"
        );
    }
}

/// `@torch.compile def opt_step(): opt.step()`, defined per stage: the
/// compile's stack holds only its own line, but its graph break (inside
/// torch.optim) lists the loop's `opt_step()` call (train.py:54) above it.
#[test]
fn a_decorated_function_is_called_from_the_line_its_own_graph_break_names() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios45", torch, "timm_layerscale_llrd_finetune");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert!(
                called_from(r).ends_with("timm_layerscale_llrd_finetune/train.py:54"),
                "{torch} {id}: {r:#}"
            );
        }
    }
}

/// `score_candidates`, decorated, is called from two lines (train.py:71 and
/// :75); the graph breaks logged name only :71. The compile called from :75
/// is not given :71: its own symbol stack says :75.
#[test]
fn another_calls_traceback_is_not_taken_for_a_call_from_another_line() {
    let all = recorded("scenarios37", "torch2.15.0", "t5_summary_rerank_scoring");
    let r = find(&all, "0/1");
    assert!(
        called_from(r).ends_with("t5_summary_rerank_scoring/train.py:75"),
        "{r:#}"
    );
    assert!(
        r["user_line"]["site"]
            .as_str()
            .is_some_and(|s| s.ends_with("t5_summary_rerank_scoring/train.py:75")),
        "{r:#}"
    );
}

/// torchmetrics' helpers (`_multiclass_confusion_matrix_format`, its
/// resume function, `_multiclass_confusion_matrix_update`), compiled as
/// frames of their own inside `multiclass_jaccard_index`: their stacks go
/// from the loop's `evaluate_batch_c(...)` (train.py:65) through torch into
/// torchmetrics, eliding the user's `evaluate_batch`. The graph break's
/// traceback lists it: the user's line that led into the library is
/// train.py:50, the deeper one on the same path.
#[test]
fn a_librarys_helper_is_called_from_the_innermost_user_line_that_led_into_the_library() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios45", torch, "seg_eval_jaccard_per_dataset");
        for id in ["2/1", "3/1", "5/1", "6/1"] {
            let r = find(&all, id);
            assert!(
                called_from(r).ends_with("seg_eval_jaccard_per_dataset/train.py:50"),
                "{torch} {id}: {r:#}"
            );
        }
        // The user's own compiled function keeps the loop's line.
        assert!(called_from(find(&all, "0/1")).ends_with("seg_eval_jaccard_per_dataset/train.py:65"));
    }
}
