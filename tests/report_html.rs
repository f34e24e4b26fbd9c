//! `guardscope report`: the page's content, its escaping, its limits at
//! scale, and where it may write.

mod common;

use common::{guardscope, hostile_log, root, summary_json};
use guardscope::model::{Compile, Frame, Run, Step};
use guardscope::report::html::{render, PageInput, MAX_FRAMES, MAX_LANES};
use std::path::Path;

fn report(args: &[&str]) -> common::Output {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    guardscope(all)
}

/// The page `report ARGS -q` writes (into a fresh directory), which must succeed.
fn page(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let mut all = args.to_vec();
    all.extend(["-o", out_dir.to_str().unwrap(), "-q"]);
    let out = report(&all);
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::read_to_string(out_dir.join("index.html")).unwrap()
}

fn bars(html: &str, class: &str) -> usize {
    html.matches(&format!("class=\"bar {class}")).count()
}

#[test]
fn collision_report_names_both_culprits_with_their_lines_and_draws_three_bars() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let out = report(&["samples/traces/collision", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let index = out_dir.join("index.html");
    assert!(
        out.stdout.contains("2 recompiles"),
        "terminal summary first: {}",
        out.stdout
    );
    assert!(out.stdout.trim_end().ends_with(&format!("Report: {}", index.display())));

    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains(
        "2 recompiles cost 5.21 s; 1 is caused by forward-hook closure state, 1 by lazily grown buffers: see below."
    ));
    // The fix list: the hook closure state (3.74 s) before the buffer (1.47 s).
    let fixes = &html[html.find("<ol class=\"fixes\">").unwrap()..html.find("</ol>").unwrap()];
    let hook = fixes.find("collector.capture_activation_norms").expect("hook culprit");
    let buffer = fixes
        .find("pos_encoding.pos_enc_cache (buffer)")
        .expect("buffer culprit");
    assert!(hook < buffer);
    assert!(fixes.contains("samples&#x2F;scripts&#x2F;_collision_model.py:180"));
    assert!(fixes.contains("samples&#x2F;scripts&#x2F;_collision_model.py:59"));
    assert!(fixes.contains("if not collector.capture_activation_norms:"));
    // The timeline: three compiles of frame 0, two of them recompiles.
    assert_eq!(bars(&html, "first"), 1);
    assert_eq!(bars(&html, "recompile"), 2);
    assert!(html.contains("data-compile=\"0&#x2F;1\""));
    assert!(html.contains("data-compile=\"0&#x2F;2\""));
    // Self-contained: nothing is fetched.
    for remote in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!html.contains(remote), "{remote}");
    }

    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap()).unwrap();
    let expected = summary_json(Path::new("samples/traces/collision"));
    assert!(written == expected, "summary.json differs from summary --json");
}

#[test]
fn every_string_from_the_log_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dedicated_log_torch_trace_hostile.log");
    std::fs::write(&log, hostile_log()).unwrap();
    let out_dir = dir.path().join("r");
    let out = report(&[log.to_str().unwrap(), "-o", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    // The only script element is the page's own; the log's appear as text.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("<img"));
    assert!(!html.contains("\"javascript:") && !html.contains("href=\"javascript"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"));
    assert!(html.contains("&lt;img src=x onerror=alert(4)&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(3)&gt;"));
    // The file name's right-to-left override and zero-width space are shown.
    assert!(html.contains("⟨U+202E⟩⟨U+200B⟩.py"));
    assert!(!html.contains('\u{202e}') && !html.contains('\u{200b}'));
}

#[test]
fn refuses_a_directory_it_did_not_create_unless_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("thesis.tex"), "mine").unwrap();
    let target = dir.path().to_str().unwrap();
    let out = report(&["samples/traces/collision", "-o", target, "-q"]);
    common::assert_clean_failure(&out);
    assert!(out.stderr.contains("not created by guardscope"), "{}", out.stderr);
    assert!(!dir.path().join("index.html").exists());

    let out = report(&["samples/traces/collision", "-o", target, "-q", "--overwrite"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(dir.path().join("index.html").exists());
    assert_eq!(std::fs::read_to_string(dir.path().join("thesis.tex")).unwrap(), "mine");
    // Now it is guardscope's: a rerun needs no flag.
    let again = report(&["samples/traces/collision", "-o", target, "-q"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn unreadable_input_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let out = report(&["no/such/trace", "-o", out_dir.to_str().unwrap()]);
    common::assert_clean_failure(&out);
    assert!(!out_dir.exists());
}

#[test]
fn steps_are_drawn_on_the_timeline_and_bad_records_reported() {
    // The real StepLogger records of samples/steps/ (the collision run) and
    // the TORCH_TRACE log of the same run; one hand-added bad line.
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps.jsonl");
    let mut text = std::fs::read_to_string(root().join("samples/steps/collision.jsonl")).unwrap();
    text.push_str("{\"step\": 17, \"start\": \"soon\"}\n");
    std::fs::write(&steps, text).unwrap();
    let out_dir = dir.path().join("r");
    let out = report(&[
        "samples/steps/collision_trace",
        "--steps",
        steps.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(html.matches("<rect class=\"step").count(), 16);
    // Steps 1, 2 and 12 compile and are far above the ~30 ms median.
    assert_eq!(html.matches("<rect class=\"step slow\"").count(), 3);
    let step12 = html.find("step 12 · ").expect("step 12's bar");
    assert!(
        html[step12..].starts_with("step 12 · 5541 ms"),
        "{}",
        &html[step12..step12 + 60]
    );
    assert!(html[step12..step12 + 80].contains("compiles: 0&#x2F;2"));
    // The record without numbers is an input error with file:line.
    assert!(html.contains(&format!("{}:17: not a step record", steps.display()).replace('/', "&#x2F;")));
}

/// Before, `start` -1e18 put the axis in the year -292275055 and squeezed
/// every bar into a pixel, `wall_ms` 1e308 printed 309 digits, and a step
/// recorded twice was drawn twice.
#[test]
fn step_records_out_of_range_are_input_errors_and_kept_off_the_time_axis() {
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps.jsonl");
    let mut text = std::fs::read_to_string(root().join("samples/steps/collision.jsonl")).unwrap();
    let bad = [
        r#"{"step": 17, "start": -1e18, "wall_ms": 5}"#,
        // Times within the run's (samples/steps/collision.jsonl starts at 1795648332).
        r#"{"step": 18, "start": 1795648441.0, "wall_ms": 1e308}"#,
        r#"{"step": 19, "start": 1000000000.0, "wall_ms": 5}"#,
        // Step 5 again, by the same process (another process's would be kept).
        r#"{"step": 5, "start": 1795648341.0, "wall_ms": 5, "pid": 10991}"#,
    ];
    for line in bad {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&steps, text).unwrap();
    let out_dir = dir.path().join("r");
    let steps_arg = steps.to_str().unwrap();
    let out = report(&[
        "samples/steps/collision_trace",
        "--steps",
        steps_arg,
        "-o",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(
        html.matches("<rect class=\"step").count(),
        16,
        "only the 16 real steps are drawn"
    );
    // The axis spans the run's ~30 s, in seconds.
    let ticks: Vec<&str> = html.split("<text class=\"tick\"").skip(1).collect();
    assert!(!ticks.is_empty());
    for t in ticks {
        let label = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
        assert!(label.ends_with(" s") && label.len() < 8, "tick {label}");
    }
    assert!(!html.contains("1000000000000000000"), "no 19-digit number on the page");
    let at = |line: usize, what: &str| format!("{steps_arg}:{line}: {what}").replace('/', "&#x2F;");
    for (line, what) in [
        (17, "step 17: &#x27;start&#x27; -1e18 is not a time"),
        (18, "step 18: &#x27;wall_ms&#x27; 1e308 is longer"),
        (19, "step 19: &#x27;start&#x27; is 9209 days before the trace"),
        (20, "step 5 recorded again by pid 10991 (first at "),
    ] {
        assert!(html.contains(&at(line, what)), "{}", at(line, what));
    }
}

/// HAND-MADE: frame 0 compiles twice; the recompile's guard compares a
/// global with a 1 MB string, and the first compile logs a 1 MB graph break.
/// Frame 1 fails with a 1 MB error.
fn megabyte_strings_log() -> (String, [String; 3]) {
    const P: &str = "V1121 11:35:10.000000 2524 torch/_dynamo/convert_frame.py:1]";
    let md5 = |s: &str| {
        use md5::{Digest, Md5};
        Md5::digest(s.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let reason = format!("0/0: G['MODE'] == '{}'", "m".repeat(1 << 20));
    let graph_break = format!(
        "Graph break in user code at model.py:3\nReason: {}",
        "b".repeat(1 << 20)
    );
    let metrics = |id: u32, start: f64| {
        let m = serde_json::json!({"compilation_metrics": {
            "co_name": "forward", "co_filename": "model.py", "co_firstlineno": 3,
            "start_time": start, "entire_frame_compile_time_s": 0.5},
            "frame_id": 0, "frame_compile_id": id, "attempt": 0});
        format!("{P} {m}\n")
    };
    let start = |id: u32| {
        format!("{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0}}\n")
    };
    let artifact = |name: &str, encoding: &str, id: u32, payload: &str| {
        let lines: String = payload.split('\n').map(|l| format!("\t{l}\n")).collect();
        format!(
            "{P} {{\"artifact\": {{\"name\": \"{name}\", \"encoding\": \"{encoding}\"}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0, \"has_payload\": \"{}\"}}\n{lines}",
            md5(payload)
        )
    };
    let reasons = serde_json::to_string(&[&reason]).unwrap();
    // Frame 1 fails with a 1 MB error: the bar's tooltip and the status.
    let error = format!("shape mismatch: {}", "e".repeat(1 << 20));
    let failed = serde_json::json!({"compilation_metrics": {
        "co_name": "loss", "co_filename": "model.py", "co_firstlineno": 9,
        "start_time": 1_795_257_303.0, "entire_frame_compile_time_s": 0.1,
        "fail_type": "RuntimeError", "fail_reason": error},
        "frame_id": 1, "frame_compile_id": 0, "attempt": 0});
    let log = [
        start(0),
        artifact("dynamo_graph_break_reason", "string", 0, &graph_break),
        metrics(0, 1_795_257_300.0),
        start(1),
        artifact("recompile_reasons", "json", 1, &reasons),
        metrics(1, 1_795_257_302.0),
        format!(
            "{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 1, \"frame_compile_id\": 0, \"attempt\": 0}}\n"
        ),
        format!("{P} {failed}\n"),
    ]
    .concat();
    (log, [reason, graph_break, error])
}

/// Before, each 1 MB text was on the page whole (an 11 MB page took 8 s to
/// open); summary.json keeps them whole.
#[test]
fn megabyte_log_texts_are_cut_on_the_page_and_whole_in_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    let (log, texts) = megabyte_strings_log();
    let trace = dir.path().join("dedicated_log_torch_trace.log");
    std::fs::write(&trace, log).unwrap();
    let out_dir = dir.path().join("r");
    let out = report(&[trace.to_str().unwrap(), "-o", out_dir.to_str().unwrap(), "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    // Five places show a text: reason, graph break, status, two tooltips.
    assert!(html.len() < 300_000, "page of {} bytes", html.len());
    // The guard is cut after 20,000 of its 1,048,596 characters, and says so.
    assert!(html.contains("mmm… 1028596 more characters; full text in summary.json"));
    // The cut texts start as the log's do.
    assert!(html.contains("G[&#x27;MODE&#x27;] == &#x27;mmmm"));
    assert!(html.contains("Reason: bbbb"));
    assert!(html.contains("shape mismatch: eeee"));
    // summary.json counts graph breaks; their text is in the log.
    assert!(html.contains("more characters; full text in the TORCH_TRACE log"));
    let summary = std::fs::read_to_string(out_dir.join("summary.json")).unwrap();
    for whole in [&texts[0], &texts[2]] {
        assert!(
            summary.contains(&serde_json::to_string(whole).unwrap()),
            "whole in summary.json"
        );
    }
}

fn frame(rank: u32, frame_id: u32, compiles: u32) -> Frame {
    Frame {
        rank: Some(rank),
        pid: 1000 + u64::from(rank),
        generation: 0,
        frame_id,
        function: Some(format!("fn_{frame_id}").into()),
        file: Some("model.py".into()),
        line: Some(frame_id + 1),
        module_class: None,
        run: 0,
        compiles: (0..compiles)
            .map(|n| Compile {
                compile_id: format!("{frame_id}/{n}"),
                frame_compile_id: Some(n),
                start: Some(1_795_257_300.0 + f64::from(frame_id) + f64::from(n) * 0.3),
                duration_s: Some(0.2),
                finished: true,
                ..Compile::default()
            })
            .collect(),
    }
}

#[test]
fn two_hundred_frames_on_eight_ranks_stay_readable() {
    // Built in memory (model data, not a log): every rank compiles 200
    // frames once, and rank 5 recompiles frame 150.
    let frames: Vec<Frame> = (0..8)
        .flat_map(|r| (0..200).map(move |f| frame(r, f, if r == 5 && f == 150 { 2 } else { 1 })))
        .collect();
    let run = Run {
        frames,
        ..Run::default()
    };
    let findings = guardscope::analysis::analyse(&run);
    let html = render(&PageInput {
        findings: &findings,
        steps: &[] as &[Step],
        activations: None,
        title: "scale".into(),
        options: Default::default(),
    })
    .unwrap();
    assert_eq!(html.matches("class=\"lane-label\"").count(), MAX_LANES);
    assert!(html.contains(&format!("{} more frames", 1600 - MAX_LANES)));
    // The one recompile gets a lane even though it is not among the first frames.
    assert_eq!(bars(&html, "recompile"), 1);
    // Frames are the 200 functions, each once however many ranks compiled it.
    assert_eq!(html.matches("<details id=").count(), MAX_FRAMES);
    assert!(html.contains(&format!("{} more frames (", 200 - MAX_FRAMES)));
    assert!(html.contains("8 ranks · 1 compile on most ranks · slowest rank"));
    // Ranks: one finding, and the deviating cell is shown although it is
    // beyond the first 30 frames.
    assert!(html.contains("rank 5 compiled frame 150 (fn_150) 2 times; most ranks 1"));
    assert_eq!(html.matches("<td class=\"deviates\">2</td>").count(), 1);
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
    // Rendered alone, no compile_trace.json is beside the page to link.
    assert!(!html.contains("compile_trace.json"));
    // Kept for looking at: target/tmp/scale-report.html.
    std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join("scale-report.html"), &html).unwrap();
}

#[test]
fn graph_breaks_get_a_section_with_each_distinct_break_once() {
    // samples/traces/graph_breaks (real torch 2.15) logs three breaks:
    // Tensor.item() at line 36, and an explicit graph_break() at line 39
    // twice (frame 1's recompile logs it again).
    let html = page(&["samples/traces/graph_breaks"]);
    assert!(html.contains("<a href=\"#graph-breaks\">Graph breaks <b class=\"count\">2</b></a>"));
    let start = html.find("<section id=\"graph-breaks\">").expect("section");
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    assert_eq!(section.matches("<li class=\"card break\"").count(), 2);
    // Most logged first: the explicit break, with its registry id as a link.
    let explicit = section.find("Call to `torch._dynamo.graph_break()`").unwrap();
    let item = section
        .find("Unsupported Tensor.item() call with capture_scalar_outputs=False")
        .unwrap();
    assert!(explicit < item);
    assert!(section.contains(
        "href=\"https:&#x2F;&#x2F;meta-pytorch.github.io&#x2F;compile-graph-break-site&#x2F;gb&#x2F;gb0025.html\""
    ));
    assert!(section.contains(">gb0025</a>") && section.contains(">gb0124</a>"));
    assert!(section.contains("logged 2 times") && section.contains("logged 1 time<"));
    assert!(section.contains("samples&#x2F;scripts&#x2F;graph_breaks.py:39"));
    assert!(section.contains("torch._dynamo.graph_break()  # graph break: explicit"));
    // The ~40-line text is there once per distinct break, collapsed; frame
    // sections name their breaks in one line each.
    assert_eq!(html.matches("Traceback (most recent call last)").count(), 2);
    assert_eq!(html.matches("<details class=\"as-logged\">").count(), 2);
    assert!(html.contains("<li><a href=\"#graph-breaks\">Call to `torch._dynamo.graph_break()` [gb0025] at "));
    // The verdict counts the same distinct breaks.
    assert!(html.contains("<div class=\"value\">2</div><div class=\"label\">graph breaks</div>"));
}

#[test]
fn a_page_without_graph_breaks_says_so() {
    let html = page(&["samples/traces/collision"]);
    assert!(html.contains("<a href=\"#graph-breaks\">Graph breaks</a>"));
    assert!(html.contains("None: no frame logged a graph break."));
}

#[test]
fn each_recompile_shows_its_own_cause_in_full_and_other_entries_in_one_line() {
    // tests/corpus no_auto_dynamic (real torch 2.15): frame 0 recompiles 8
    // times, the nth recompile logging n failed entries. In full that was
    // 1 + 2 + ... + 8 = 36 reasons with their stacks.
    let html = page(&["tests/corpus/logs/torch2.15.0/no_auto_dynamic"]);
    assert_eq!(html.matches("<pre class=\"raw\">").count(), 8);
    assert_eq!(html.matches("<b class=\"why\">← cause</b>").count(), 8);
    assert_eq!(html.matches("<details class=\"older\">").count(), 7);
    assert!(html.contains("7 other cache entries also failed, one line each"));
    assert!(html.contains("1 other cache entry also failed, one line each"));
    let older = html
        .split("<ul class=\"older\">")
        .skip(1)
        .map(|s| &s[..s.find("</ul>").unwrap()]);
    assert_eq!(older.map(|u| u.matches("<li>").count()).sum::<usize>(), 28);
}

#[test]
fn fix_cards_cut_long_compile_id_lists_and_mark_reset_generations() {
    // Built in memory (model data, not a log): twelve generations of
    // `torch._dynamo.reset()`, each compiling frame 0 and recompiling it, so
    // that the culprit group holds twelve `0/1`.
    let frames: Vec<Frame> = (0..12)
        .map(|generation| Frame {
            generation,
            ..frame(0, 0, 2)
        })
        .collect();
    let run = Run {
        frames,
        ..Run::default()
    };
    let findings = guardscope::analysis::analyse(&run);
    let html = render(&PageInput {
        findings: &findings,
        steps: &[] as &[Step],
        activations: None,
        title: "resets".into(),
        options: Default::default(),
    })
    .unwrap();
    let fixes = &html[html.find("<ol class=\"fixes\">").unwrap()..];
    let fixes = &fixes[..fixes.find("</ol>").unwrap()];
    assert_eq!(fixes.matches("<span class=\"cid\">").count(), 8);
    assert!(fixes.contains("<span class=\"cid\">0&#x2F;1</span>, <span class=\"cid\">0&#x2F;1 (after reset 1)</span>"));
    assert!(fixes.contains("<span class=\"more-ids\">… 4 more</span>"));
}

#[test]
fn no_two_legend_entries_share_a_colour() {
    // The slow-step key and shape_input were one orange. The steps sample
    // (real torch and StepLogger) has recompiles and slow steps.
    let html = page(&[
        "samples/steps/collision_trace",
        "--steps",
        "samples/steps/collision.jsonl",
    ]);
    let legend = &html[html.find("<div class=\"legend\">").unwrap()..];
    let legend = &legend[..legend.find("</div>").unwrap()];
    let colours: Vec<&str> = legend
        .split("style=\"--c: ")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    let mut distinct = colours.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), colours.len(), "{legend}");
    assert!(legend.contains("slow step"), "{legend}");
    // Each recompile category also carries a letter, on its bars too.
    assert!(legend.contains("<i>A</i>recompile: "), "{legend}");
    assert!(html.contains("<text class=\"mark\""));
}

/// The class list of the element that opens with `<tag class="card verdict`.
fn verdict_classes(html: &str) -> &str {
    let at = html.find("class=\"card verdict").expect("a verdict card");
    html[at..].split('"').nth(1).unwrap()
}

#[test]
fn a_run_whose_every_recompile_is_expected_is_shown_calm() {
    // One dtype recompile, judged expected (one compile per dtype).
    let calm = page(&["samples/traces/reasons/dtype"]);
    assert_eq!(verdict_classes(&calm), "card verdict tone-ok");
    assert!(
        calm.contains("It is expected, not a problem."),
        "the sentence says why it is calm"
    );
    // No alarm anywhere: not the recompile count, not the frame.
    assert!(
        !calm.contains("tone-bad\""),
        "an expected recompile drawn in alarm colour"
    );
    // The collision sample's recompiles are problems: the alarm stays.
    let alarm = page(&["samples/traces/collision"]);
    assert_eq!(verdict_classes(&alarm), "card verdict tone-bad");
    assert!(alarm.contains("class=\"card frame tone-bad\""));
}
