//! The report in a real browser: headless Chromium loads the page from disk
//! (as a user opening a CI artifact would), runs its script, and we read
//! the resulting DOM and take a screenshot (tests/common/browser.rs drives
//! Chromium; tests/report_browser_tools.rs has the filter, bar clicks, the
//! dark scheme and printing).

mod common;

use common::browser::{browse, fresh_dir, probe};
use common::{guardscope, hostile_log};
use std::path::Path;

/// Measures what a reader sees, run in the page after its own script: the
/// smallest SVG text as rendered (font size times the SVG's scale on
/// screen), whether the body or any table scrolls sideways, and whether a
/// compile's start time ("+0.00 s") wraps. Written into the DOM as JSON.
const MEASURE: &str = r##"<script>
(function () {
  var min = 1e9, smallest = "";
  document.querySelectorAll("svg text").forEach(function (t) {
    var ctm = t.getScreenCTM();
    if (!ctm || !t.textContent.trim()) return;
    var px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(ctm.a, ctm.b);
    if (px < min) { min = px; smallest = t.textContent; }
  });
  var wide = [];
  document.querySelectorAll(".table-wrap").forEach(function (w) {
    if (w.closest("#ranks")) return;
    if (w.offsetParent && w.scrollWidth > w.clientWidth + 1) wide.push(w.parentElement.id || w.closest("[id]").id);
  });
  var wrapped = [];
  document.querySelectorAll("td.started").forEach(function (td) {
    if (!td.offsetParent) return;
    var r = document.createRange(); r.selectNodeContents(td);
    var tops = {}; Array.prototype.forEach.call(r.getClientRects(), function (c) { tops[Math.round(c.top)] = 1; });
    if (Object.keys(tops).length > 1) wrapped.push(td.textContent);
  });
  var chart = document.querySelector("#timeline .chart");
  var out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({
    width: window.innerWidth,
    body_overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    min_svg_text_px: min, smallest: smallest,
    wide_tables: wide, wrapped_starts: wrapped,
    chart_scrolls: chart ? chart.scrollWidth > chart.clientWidth : null
  });
  document.body.appendChild(out);
})();
</script>"##;

/// The page at a window width, measured by `MEASURE`.
fn measure(page: &Path, width: u32, work: &Path) -> serde_json::Value {
    probe(
        page,
        MEASURE,
        &[&format!("--window-size={width},1200")],
        &format!("measure-{width}"),
        work,
    )
}

#[test]
fn collision_report_renders_in_chromium_with_verdict_fixes_and_timeline() {
    let work = fresh_dir("browser-collision");
    let report = work.join("report");
    let out = guardscope([
        "report",
        "samples/traces/collision",
        "-q",
        "-o",
        report.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let page = report.join("index.html");

    let dom = browse(&page, &["--dump-dom"], &work);
    // The page's script ran to its end without an error.
    assert!(dom.contains("data-ready=\"1\""), "script did not finish");
    let verdict = &dom[dom.find("id=\"verdict\"").expect("verdict section")..];
    assert!(verdict.contains("2 recompiles cost 5.21 s"));
    assert_eq!(dom.matches("<li class=\"card fix\"").count(), 2);
    assert!(dom.contains("collector.capture_activation_norms"));
    assert!(dom.contains("pos_encoding.pos_enc_cache (buffer)"));
    assert_eq!(dom.matches("class=\"bar first\"").count(), 1);
    assert_eq!(dom.matches("class=\"bar recompile\"").count(), 2);

    let shot = work.join("report-collision.png");
    browse(
        &page,
        &["--window-size=1280,1500", &format!("--screenshot={}", shot.display())],
        &work,
    );
    let png = std::fs::read(&shot).expect("screenshot written");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    assert!(png.len() > 20_000, "screenshot of {} bytes looks blank", png.len());
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn hostile_log_text_stays_text_in_the_browser() {
    let work = fresh_dir("browser-hostile");
    let log = work.join("dedicated_log_torch_trace_hostile.log");
    std::fs::write(&log, hostile_log()).unwrap();
    let report = work.join("report");
    let out = guardscope(["report", log.to_str().unwrap(), "-q", "-o", report.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);

    let dom = browse(&report.join("index.html"), &["--dump-dom"], &work);
    assert!(dom.contains("data-ready=\"1\""), "script did not finish");
    // One script element (the page's own), no injected image; the log's
    // markup is there as text.
    assert_eq!(dom.matches("<script").count(), 1);
    assert!(!dom.contains("<img"));
    assert!(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(dom.contains("&lt;img src=x onerror=alert(4)&gt;"));
}

/// At 800 and 1400 px: SVG text stays at least 10 px (the timeline scrolls
/// in its card instead of shrinking; it rendered at about 6 px at 800), the
/// page and the frames table do not scroll sideways, "+0.00 s" stays on one
/// line. The collision sample (timeline and frames) and the graph-break
/// sample (its section) are real torch 2.15 logs.
#[test]
fn the_page_reads_at_800_and_1400_px() {
    let work = fresh_dir("browser-widths");
    for sample in ["collision", "graph_breaks", "ranks64"] {
        let report = work.join(sample);
        let out = guardscope([
            "report",
            &format!("samples/traces/{sample}"),
            "-q",
            "-o",
            report.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        for width in [800u32, 1400] {
            let m = measure(&report.join("index.html"), width, &work);
            let at = format!("{sample} at {width} px: {m}");
            assert_eq!(m["width"], width, "{at}");
            assert!(m["body_overflow"].as_f64().unwrap() <= 0.0, "{at}");
            assert!(m["min_svg_text_px"].as_f64().unwrap() >= 10.0, "{at}");
            assert_eq!(m["wide_tables"], serde_json::json!([]), "{at}");
            assert_eq!(m["wrapped_starts"], serde_json::json!([]), "{at}");
            // The 1140 px chart cannot fit 800 px without shrinking: it scrolls.
            assert_eq!(m["chart_scrolls"], width < 1000, "{at}");
        }
    }
}

#[test]
fn graph_breaks_are_listed_once_each_in_the_browser() {
    let work = fresh_dir("browser-breaks");
    let report = work.join("report");
    let out = guardscope([
        "report",
        "samples/traces/graph_breaks",
        "-q",
        "-o",
        report.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let dom = browse(&report.join("index.html"), &["--dump-dom"], &work);
    assert!(dom.contains("data-ready=\"1\""), "script did not finish");
    let section = &dom[dom.find("<section id=\"graph-breaks\">").expect("graph-break section")..];
    let section = &section[..section.find("</section>").unwrap()];
    // Three breaks logged, two distinct: the explicit one twice.
    assert_eq!(section.matches("<li class=\"card break\"").count(), 2);
    assert!(section.contains(">gb0025</a>") && section.contains(">gb0124</a>"));
    assert!(section.contains("logged 2 times"));
    assert!(dom.contains("<a href=\"#graph-breaks\">Graph breaks <b class=\"count\">2</b></a>"));
}
