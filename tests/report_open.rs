//! `guardscope report --open` hands the page to the desktop's opener
//! (`xdg-open` on Linux, through the `opener` crate).

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

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
