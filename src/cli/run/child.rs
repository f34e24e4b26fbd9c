//! The command `guardscope run` runs: spawned with the user's environment
//! and stdio plus TORCH_TRACE, waited for, with the signals meant for it
//! passed on while it runs.

use crate::cli::error::CliError;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitStatus};

/// How the command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Exited(i32),
    /// Ended by a signal (Unix), e.g. 2 after Ctrl-C.
    Signal(i32),
}

impl Ended {
    /// The exit code a shell would report: the code, or 128 + the signal.
    pub fn exit_code(self) -> i32 {
        match self {
            Ended::Exited(code) => code,
            Ended::Signal(signal) => 128 + signal,
        }
    }

    /// "exited with code 3", "was ended by signal 2 (SIGINT)".
    pub fn describe(self) -> String {
        match self {
            Ended::Exited(code) => format!("exited with code {code}"),
            Ended::Signal(signal) => match signal_name(signal) {
                Some(name) => format!("was ended by signal {signal} ({name})"),
                None => format!("was ended by signal {signal}"),
            },
        }
    }
}

/// Runs `command` with TORCH_TRACE set to `trace_dir` and waits for it.
pub fn run(command: &[OsString], trace_dir: &Path) -> Result<Ended, CliError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| CliError::BadInput("no command to run after `--`".into()))?;
    let cannot = |e: std::io::Error| CliError::BadInput(format!("cannot run `{}`: {e}", program.to_string_lossy()));
    // Handlers first: a signal that arrives while the child starts is held
    // and passed on once its pid is known.
    let forwarding = forward::Forwarding::install();
    let mut child = Command::new(program)
        .args(args)
        .env("TORCH_TRACE", trace_dir)
        .spawn()
        .map_err(cannot)?;
    forwarding.to(child.id());
    let status = child.wait().map_err(cannot)?;
    drop(forwarding);
    Ok(ended(status))
}

/// The command line as one string for messages.
pub fn display(command: &[OsString]) -> String {
    let words: Vec<String> = command.iter().map(|w| w.to_string_lossy().into_owned()).collect();
    words.join(" ")
}

#[cfg(unix)]
fn ended(status: ExitStatus) -> Ended {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ended::Exited(code),
        (None, Some(signal)) => Ended::Signal(signal),
        (None, None) => Ended::Exited(1),
    }
}

#[cfg(not(unix))]
fn ended(status: ExitStatus) -> Ended {
    Ended::Exited(status.code().unwrap_or(1))
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        6 => "SIGABRT",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        15 => "SIGTERM",
        _ => return None,
    })
}

#[cfg(unix)]
mod forward {
    //! SIGINT, SIGTERM and SIGHUP sent to guardscope go to the child.
    //! guardscope itself outlives them, to summarise what the logs hold.

    use std::sync::atomic::{AtomicI32, Ordering};

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    /// The child's pid, 0 before it is known.
    static CHILD: AtomicI32 = AtomicI32::new(0);
    /// A signal that came before the pid did, passed on by `to`.
    static HELD: AtomicI32 = AtomicI32::new(0);

    extern "C" fn on_signal(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // A terminal's Ctrl-C goes to the whole foreground process group, the
        // child included: sending it again would interrupt Python's cleanup
        // of the first. Only a kill(2) aimed at guardscope needs passing on.
        // (Linux marks the terminal's signals SI_KERNEL; elsewhere the child
        // may see a Ctrl-C twice.)
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            const SI_KERNEL: libc::c_int = 0x80;
            // SAFETY: the kernel passes a valid siginfo with SA_SIGINFO.
            if !info.is_null() && unsafe { (*info).si_code } == SI_KERNEL {
                return;
            }
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let _ = info;
        let child = CHILD.load(Ordering::SeqCst);
        if child > 0 {
            // SAFETY: kill is async-signal-safe; a pid > 0 names one process.
            unsafe { libc::kill(child, signal) };
        } else {
            HELD.store(signal, Ordering::SeqCst);
        }
    }

    /// Installed handlers; dropping restores the previous ones.
    pub struct Forwarding {
        previous: Vec<(libc::c_int, libc::sigaction)>,
    }

    impl Forwarding {
        pub fn install() -> Self {
            CHILD.store(0, Ordering::SeqCst);
            HELD.store(0, Ordering::SeqCst);
            let mut previous = Vec::new();
            for signal in SIGNALS {
                // SAFETY: a zeroed sigaction is valid; the handler only calls
                // async-signal-safe functions.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) = on_signal;
                    action.sa_sigaction = handler as libc::sighandler_t;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
                    libc::sigemptyset(&mut action.sa_mask);
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, &action, &mut old) == 0 {
                        previous.push((signal, old));
                    }
                }
            }
            Forwarding { previous }
        }

        pub fn to(&self, pid: u32) {
            CHILD.store(i32::try_from(pid).unwrap_or(0), Ordering::SeqCst);
            let held = HELD.swap(0, Ordering::SeqCst);
            if held != 0 && pid > 0 {
                // SAFETY: plain kill(2) of the child we just started.
                unsafe { libc::kill(pid as i32, held) };
            }
        }
    }

    impl Drop for Forwarding {
        fn drop(&mut self) {
            CHILD.store(0, Ordering::SeqCst);
            for (signal, old) in &self.previous {
                // SAFETY: restores what sigaction returned for this signal.
                unsafe { libc::sigaction(*signal, old, std::ptr::null_mut()) };
            }
        }
    }
}

#[cfg(not(unix))]
mod forward {
    //! Elsewhere the console delivers Ctrl-C to both processes itself.
    pub struct Forwarding;
    impl Forwarding {
        pub fn install() -> Self {
            Forwarding
        }
        pub fn to(&self, _pid: u32) {}
    }
}
