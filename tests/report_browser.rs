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
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait on chromium").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("chromium output");
    assert!(
        out.status.success(),
        "chromium failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
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
