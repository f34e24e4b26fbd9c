//! Which process a sink or tracer belongs to, across `fork()`.
//!
//! A forked child (a DataLoader worker, say) inherits every sink with the
//! parent's buffered records, and mutexes that another parent thread may have
//! held at the instant of the fork. If the child wrote through them it would
//! write the parent's records a second time, or lock a mutex nobody will ever
//! release. So a child counts as a new generation: everything opened by an
//! older one is inert there, and is never locked, flushed or written again.
//! The child records only through traces it opens itself.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The current process's generation: 0, plus one per `fork()` since the
/// first sink was opened.
pub fn generation() -> u64 {
    watch_forks();
    GENERATION.load(Ordering::Relaxed)
}

/// Whether something made in generation `made_in` belongs to this process.
pub fn is_current(made_in: u64) -> bool {
    GENERATION.load(Ordering::Relaxed) == made_in
}

#[cfg(unix)]
fn watch_forks() {
    static WATCH: Once = Once::new();
    extern "C" fn in_child() {
        // Runs in the child right after fork(): only an atomic store, which
        // is async-signal-safe.
        GENERATION.fetch_add(1, Ordering::Relaxed);
    }
    WATCH.call_once(|| {
        // SAFETY: registers a plain function with no captured state; it
        // stays valid for the life of the process (the library is never
        // unloaded: CPython does not unload extension modules).
        let rc = unsafe { libc::pthread_atfork(None, None, Some(in_child)) };
        debug_assert_eq!(rc, 0, "pthread_atfork failed");
    });
}

#[cfg(not(unix))]
fn watch_forks() {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_forked_child_is_a_new_generation() {
        let parent = generation();
        // SAFETY: the child only reads an atomic and calls _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let code = if !is_current(parent) && generation() == parent + 1 {
                0
            } else {
                1
            };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "child saw no new generation"
        );
        assert!(is_current(parent), "the parent is unchanged");
    }
}
