//! `guardscope report --open` hands the page to the desktop's opener
//! (`xdg-open` on Linux, through the `opener` crate).

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

/// `report --open` with `PATH` holding only `bin`, writing into a fresh directory.
fn report_open_with(bin: &std::path::Path, out_dir: &std::path::Path) -> common::Output {
    common::guardscope_env(
        [
            "report".as_ref(),
            "samples/traces/collision".as_ref(),
            "-o".as_ref(),
            out_dir.as_os_str(),
            "--open".as_ref(),
        ],
        &[("PATH", bin.to_str().unwrap())],
    )
}

fn stub(bin: &std::path::Path, name: &str, script: &str) {
    std::fs::write(bin.join(name), script).unwrap();
    std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The page was written, so the exit code stays 0, but a user who asked for
/// a browser is told on stderr that none came, and where the page is.
fn assert_told_where_the_page_is(out: &common::Output, out_dir: &std::path::Path, why: &str) {
    assert_eq!(out.code, 0, "{}", out.stderr);
    let index = out_dir.join("index.html");
    assert!(index.is_file());
    let told = out
        .stderr
        .lines()
        .find(|l| l.contains("could not open a browser"))
        .unwrap_or_else(|| panic!("no warning on stderr: {:?}", out.stderr));
    assert!(told.contains(why), "{told}");
    assert!(told.contains(&index.display().to_string()), "{told}");
    assert!(!out.stdout.contains("could not open"), "{}", out.stdout);
}

#[test]
fn open_with_an_xdg_open_that_finds_no_browser_says_so() {
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // xdg-open's own status when no method (browser) is available.
    stub(&bin, "xdg-open", "#!/bin/sh\nexit 3\n");
    stub(&bin, "wslview", "#!/bin/sh\nexit 3\n");
    let out_dir = root.path().join("report");
    let out = report_open_with(&bin, &out_dir);
    assert_told_where_the_page_is(&out, &out_dir, "exited with 3");
}

#[test]
fn open_without_any_opener_says_so() {
    let root = tempfile::tempdir().unwrap();
    let empty = root.path().join("bin");
    std::fs::create_dir(&empty).unwrap();
    let out_dir = root.path().join("report");
    let out = report_open_with(&empty, &out_dir);
    assert_told_where_the_page_is(&out, &out_dir, "xdg-open is not installed");
}

#[test]
fn open_leaves_a_browser_running_in_the_foreground_to_it() {
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // xdg-open without a desktop runs the browser and waits for it.
    let sleep = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("sleep"))
        .find(|p| p.is_file())
        .expect("sleep on PATH");
    let script = format!("#!/bin/sh\nexec '{}' 10\n", sleep.display());
    stub(&bin, "xdg-open", &script);
    stub(&bin, "wslview", &script);
    let out_dir = root.path().join("report");
    let started = Instant::now();
    let out = report_open_with(&bin, &out_dir);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("could not open"), "{}", out.stderr);
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "waited for the browser to close"
    );
}

#[test]
fn open_hands_the_written_page_to_xdg_open() {
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let opened = root.path().join("opened");
    // Written whole, then renamed: the test never reads half of it. Under
    // WSL the opener tries wslview first.
    let script = format!(
        "#!/bin/sh\nprintf '%s' \"$1\" > '{0}.tmp' && mv '{0}.tmp' '{0}'\n",
        opened.display()
    );
    for name in ["xdg-open", "wslview"] {
        std::fs::write(bin.join(name), &script).unwrap();
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out_dir = root.path().join("report");
    let out = common::guardscope_env(
        [
            "report".as_ref(),
            "samples/traces/collision".as_ref(),
            "-o".as_ref(),
            out_dir.as_os_str(),
            "--open".as_ref(),
        ],
        &[("PATH", &path)],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("could not open"), "{}", out.stderr);
    // The opener is not waited for: give the stub a moment.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !opened.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let given = std::fs::read_to_string(&opened).expect("xdg-open was run");
    assert!(given.ends_with("index.html"), "{given}");
    assert!(std::path::Path::new(&given).is_file(), "{given}");
}
