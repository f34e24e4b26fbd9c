//! The report in a real browser: headless Chromium loads the page from disk
//! (as a user opening a CI artifact would), runs its script, and we read
//! the resulting DOM and take a screenshot.
//!
//! Needs Debian's `chromium` (`make test` installs it when missing), or
//! GUARDSCOPE_CHROMIUM pointing at a Chromium/Chrome binary.

mod common;

use common::{guardscope, hostile_log};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("GUARDSCOPE_CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "headless Chromium is needed for the browser test and was not found on PATH. \
         Install it with `apt-get install -y chromium` (`make test` does this when run as root), \
         or set GUARDSCOPE_CHROMIUM to a Chromium or Chrome binary."
    );
}

/// Runs headless Chromium on a local page with the flags this machine
/// needs (no sandbox as root, no background network), in a fresh profile.
fn browse(page: &Path, extra: &[&str], work: &Path) -> String {
    let profile = work.join(format!("profile-{}", extra.len()));
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // Read its output while it runs: a DOM dump larger than the pipe's
    // buffer (64 KB) would otherwise block chromium until the deadline.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait on chromium").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = child.wait().expect("chromium status");
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(
        status.success(),
        "chromium failed ({status}): {}",
        String::from_utf8_lossy(&stderr)
    );
    String::from_utf8_lossy(&stdout).into_owned()
}

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

/// The page at a window width, measured by `MEASURE`. The copy drops the
/// Content-Security-Policy (it allows only the page's own script) and adds
/// the measuring script after the page's; markup and styles are unchanged.
fn measure(page: &Path, width: u32, work: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let csp_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("CSP meta");
    let csp_end = csp_start + html[csp_start..].find('>').unwrap() + 1;
    let probe = format!("{}{}", &html[..csp_start], &html[csp_end..]).replace("</body>", &format!("{MEASURE}</body>"));
    let copy = page.with_file_name(format!("measure-{width}.html"));
    std::fs::write(&copy, probe).unwrap();
    let dom = browse(&copy, &[&format!("--window-size={width},1200"), "--dump-dom"], work);
    assert!(
        dom.contains("data-ready=\"1\""),
        "the page's script did not finish at {width} px"
    );
    let start = dom.find("<pre id=\"measured\">").expect("measurements in the DOM") + "<pre id=\"measured\">".len();
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    assert!(verdict.contains("2 recompiles cost 1.12 s"));
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
    for sample in ["collision", "graph_breaks"] {
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
    assert_eq!(section.matches("<li class=\"card break\">").count(), 2);
    assert!(section.contains(">gb0025</a>") && section.contains(">gb0124</a>"));
    assert!(section.contains("logged 2 times"));
    assert!(dom.contains("<a href=\"#graph-breaks\">Graph breaks <b class=\"count\">2</b></a>"));
}
