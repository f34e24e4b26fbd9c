//! The SIGBUS handler that makes memory-mapped reading safe to offer: a log
//! truncated by another process while guardscope reads it through a map
//! (`logrotate --copytruncate`, a job restarting over its log) would
//! otherwise kill the process with "Bus error" and no word of why.

/// Installs the handler once; false where it cannot be (then do not map).
#[cfg(unix)]
pub fn install() -> bool {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *INSTALLED.get_or_init(|| {
        // SAFETY: a plain sigaction with a handler that only calls
        // async-signal-safe functions (write, _exit).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
        }
    })
}

#[cfg(not(unix))]
pub fn install() -> bool {
    // Windows refuses to truncate a file that is mapped: nothing to catch.
    true
}

#[cfg(unix)]
extern "C" fn on_sigbus(_signal: libc::c_int) {
    const MESSAGE: &[u8] = b"guardscope: error: a log file shrank while it was being read \
(truncated or rotated by another process); its results would be incomplete. \
Run again once the file is stable, or with GUARDSCOPE_MMAP=never to read it without a memory map.\n";
    // SAFETY: write(2) and _exit(2) are async-signal-safe.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(2);
    }
}
