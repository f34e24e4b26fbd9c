//! Turning a panic (a bug) into one line on stderr and exit code 3.
//!
//! The default panic hook prints `thread 'main' panicked at ...` and a note
//! about backtraces, which reads like a crash of the user's data. While a CLI
//! run is in progress, on any of its threads, the hook installed here only
//! keeps the panic's message and location; `run` prints them as one line
//! (an internal `CliError`) with where to report the bug. Outside CLI runs (the Python extension's
//! tracer, say) the previous hook runs as before.

use std::panic::PanicHookInfo;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

/// Where to report a bug; printed with every internal error.
pub const REPORT_TO: &str = "the guardscope issue tracker";

/// Set to 1 to make the CLI panic on purpose, so that tests can check what
/// an internal error looks like. For tests only; not a user option.
pub const DEBUG_PANIC_VAR: &str = "GUARDSCOPE_DEBUG_PANIC";

static RUNS: AtomicUsize = AtomicUsize::new(0);
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Marks a CLI run in progress (and installs the hook the first time).
pub struct Guard;

impl Guard {
    pub fn enter() -> Guard {
        install();
        RUNS.fetch_add(1, Ordering::SeqCst);
        Guard
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        RUNS.fetch_sub(1, Ordering::SeqCst);
    }
}

fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if RUNS.load(Ordering::SeqCst) == 0 {
                return previous(info);
            }
            let mut first = FIRST_PANIC.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert_with(|| describe(info));
        }));
    });
}

fn describe(info: &PanicHookInfo<'_>) -> String {
    let what = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    let at = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    format!("{}{at}", what.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The first panic of the runs in progress, if there was one.
pub fn take() -> Option<String> {
    FIRST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).take()
}

pub fn deliberate_panic_for_tests() {
    if std::env::var_os(DEBUG_PANIC_VAR).is_some_and(|v| v == "1") {
        panic!("deliberate panic for tests ({DEBUG_PANIC_VAR}=1)");
    }
}
