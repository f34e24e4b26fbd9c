//! Headless Chromium for the browser tests: the page loaded from disk (as a
//! user opening a CI artifact would), its script run, the DOM read back.
//!
//! Needs Debian's `chromium` (`make test` installs it when missing), or
//! GUARDSCOPE_CHROMIUM pointing at a Chromium/Chrome binary.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn chromium() -> PathBuf {
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
pub fn browse(page: &Path, extra: &[&str], work: &Path) -> String {
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
    // Read while it runs: a DOM larger than the pipe's buffer (64 KiB)
    // would otherwise block Chromium on its write, and it never exits.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            r.read_to_end(&mut buf).map(|_| buf)
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait on chromium") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = std::process::Output {
        status,
        stdout: stdout.join().unwrap().expect("chromium stdout"),
        stderr: stderr.join().unwrap().expect("chromium stderr"),
    };
    assert!(
        out.status.success(),
        "chromium failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `script` (a `<script>` element that writes JSON into a
/// `<pre id="measured">`) in a copy of the page, after the page's own, and
/// returns that JSON. The copy drops the Content-Security-Policy (it allows
/// only the page's own script); markup and styles are unchanged.
pub fn probe(page: &Path, script: &str, flags: &[&str], name: &str, work: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let csp_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("CSP meta");
    let csp_end = csp_start + html[csp_start..].find('>').unwrap() + 1;
    let probe = format!("{}{}", &html[..csp_start], &html[csp_end..]).replace("</body>", &format!("{script}</body>"));
    let copy = page.with_file_name(format!("{name}.html"));
    std::fs::write(&copy, probe).unwrap();
    let mut args = flags.to_vec();
    args.push("--dump-dom");
    let dom = browse(&copy, &args, work);
    // The page's own script ran to its end, unless the copy has none.
    assert!(
        dom.contains("data-ready=\"1\"") || !html.contains("<script>"),
        "the page's script did not finish ({name})"
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

pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
