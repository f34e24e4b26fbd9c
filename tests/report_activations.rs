//! `guardscope report --activations`: the Activations section drawn from
//! the real traces in samples/activations/, its escaping and its bounds.

mod common;

use common::guardscope;
use std::path::Path;

const LOG: &str = "samples/traces/collision";

fn sample(name: &str) -> String {
    format!("samples/activations/{name}.jsonl.gz")
}

/// Runs `report LOG --activations T...` into a temporary directory and
/// returns the Activations section of the page.
fn section(traces: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let mut args = vec!["report", LOG, "-q", "-o", out_dir.to_str().unwrap()];
    for t in traces {
        args.extend(["--activations", t]);
    }
    let out = guardscope(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert_eq!(html.matches("<script").count(), 1);
    let start = html.find("<section id=\"activations\">").expect("activations section");
    let end = start + html[start..].find("</section>").unwrap();
    html[start..end].to_string()
}

fn count(html: &str, needle: &str) -> usize {
    html.matches(needle).count()
}

#[test]
fn two_traces_mark_the_first_divergent_layer_and_draw_the_heat_strip() {
    let s = section(&[&sample("base"), &sample("perturbed")]);
    assert!(
        s.contains("First divergence: blocks.2.fc1 (out) at step 0; 53 of 126 records differ"),
        "{s}"
    );
    assert!(s.contains("<b>First divergent layer:</b> <code class=\"culprit\">blocks.2.fc1</code>"));
    // One row per module output, the perturbed one badged, and only it.
    assert_eq!(count(&s, "<tr class=\"tone-"), 21);
    assert_eq!(count(&s, "first divergence</span>"), 1);
    let badged = &s[s.find("<tr class=\"tone-bad first\">").unwrap()..];
    assert!(
        badged[..200].contains("<code>blocks.2.fc1</code>"),
        "{}",
        &badged[..200]
    );
    // Heat strip: 21 modules x 6 steps, one record each; the 53 divergent
    // records are the divergent cells, and nothing upstream is one of them.
    assert_eq!(count(&s, "<rect class=\"cell "), 126);
    assert_eq!(count(&s, "<rect class=\"cell divergent\""), 53);
    assert_eq!(count(&s, "<rect class=\"cell equal\""), 73);
    assert_eq!(count(&s, "class=\"heat-label first\""), 1);
    assert!(s.contains("<line class=\"first-line\""));
    assert!(s.contains("data-tip=\"blocks.0.ln · step 0\n1 compared, 0 divergent, max rel err 0\""));
    // Sparklines: the first 4 of 6 stats, A and B paths, 6 points each.
    assert!(s.contains("Only the first 4 stats are drawn."));
    assert_eq!(count(&s, "<svg class=\"spark\""), 21 * 4);
    assert_eq!(count(&s, "<path class=\"a\""), 21 * 4);
    assert_eq!(count(&s, "<path class=\"b\""), 21 * 4);
    let path = &s[s.find("<path class=\"a\" d=\"").unwrap() + 19..];
    let d = &path[..path.find('"').unwrap()];
    assert_eq!((d.matches('M').count(), d.matches('L').count()), (1, 5), "{d}");
    assert!(s.contains("Steps 0–5, one point per step."));
}

#[test]
fn equal_traces_say_so() {
    let s = section(&[&sample("base"), &sample("base_again")]);
    assert!(s.contains("A and B are equal within tolerance (rtol 0.01, atol 0.0001): 126 records compared."));
    assert!(s.contains("card acts tone-ok"));
    assert_eq!(count(&s, "<rect class=\"cell equal\" x=\""), 126);
    assert_eq!(count(&s, "first divergence</span>"), 0);
}

#[test]
fn one_trace_highlights_nan_and_inf() {
    let s = section(&[&sample("nan")]);
    assert!(s.contains("3 module outputs have NaN or infinite values."), "{s}");
    assert!(!s.contains("<svg class=\"heat\""));
    // blocks.3.fc2, blocks.3 and head are NaN at all 6 steps: a red tick per
    // step under each of their 4 sparklines, and no line (no finite value).
    assert_eq!(count(&s, "<rect class=\"nonfinite\""), 3 * 4 * 6);
    assert_eq!(count(&s, "NaN&#x2F;inf from step 0 (6 records)"), 3);
    assert_eq!(count(&s, "<path class=\"a\""), 18 * 4);
    assert!(s.contains("head · abs_mean: no finite value"));
}

#[test]
fn names_from_the_trace_are_escaped() {
    // HAND-MADE: hostile module and tensor names.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("hostile.jsonl");
    let line = |step: i64| {
        format!(
            "{{\"module\":\"<script>alert(1)</script>\",\"tensor\":\"out['\\\"><img src=x onerror=alert(2)>']\",\"step\":{step},\"sum\":1.0}}\n"
        )
    };
    std::fs::write(&trace, [line(0), line(1)].concat()).unwrap();
    let s = section(&[trace.to_str().unwrap(), trace.to_str().unwrap()]);
    assert!(!s.contains("<script>") && !s.contains("<img"));
    assert!(s.contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"));
    assert!(s.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"));
}

#[test]
fn many_modules_and_steps_stay_bounded() {
    // Generated: 60 modules x 1000 steps, B off by 50% at module 30 from step 600.
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, off: bool| {
        let mut text = String::new();
        for step in 0..1000 {
            for m in 0..60 {
                let v = if off && m == 30 && step >= 600 { 1.5 } else { 1.0 };
                text.push_str(&format!(
                    "{{\"module\":\"layers.{m}\",\"tensor\":\"out\",\"step\":{step},\"abs_mean\":{v},\"call\":0}}\n"
                ));
            }
        }
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let (a, b) = (write("a.jsonl", false), write("b.jsonl", true));
    let s = section(&[a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(s.contains("20 more module outputs are not drawn (the first 40 module outputs are)."));
    assert_eq!(count(&s, "<tr class=\"tone-"), 40);
    assert!(s.contains("First divergence: layers.30 (out) at step 600"));
    // 1000 steps in 16-step buckets: 63 columns per row.
    assert!(s.contains("Steps 0–1007, one point per 16 steps"), "{}", &s[..2000]);
    assert_eq!(count(&s, "<rect class=\"cell "), 40 * 63);
    assert!(s.len() < 600_000, "{} bytes", s.len());
}

#[test]
fn bad_activation_inputs_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let o = out_dir.to_str().unwrap();
    let base = sample("base");
    let out = guardscope(["report", LOG, "-q", "-o", o, "--activations", "no/such.jsonl"]);
    common::assert_clean_failure(&out);
    let three = [
        "report",
        LOG,
        "-q",
        "-o",
        o,
        "--activations",
        &base,
        "--activations",
        &base,
        "--activations",
        &base,
    ];
    let out = guardscope(three);
    common::assert_clean_failure(&out);
    assert!(out.stderr.contains("at most two traces"));
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = guardscope(["report", LOG, "-q", "-o", o, "--activations", empty.to_str().unwrap()]);
    common::assert_clean_failure(&out);
    assert!(!Path::new(o).join("index.html").exists());
}
