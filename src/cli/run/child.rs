//! The command `guardscope run` runs: spawned with the user's environment
//! and stdio plus TORCH_TRACE (and TORCH_LOGS=recompiles unless the user
//! set TORCH_LOGS), its stderr copied as it passes, waited for, with the
//! signals meant for it passed on while it runs.

use super::tee::{self, Copied};
use crate::cli::error::CliError;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};

/// What `run` sets TORCH_LOGS to when the user has not: the recompiles'
/// text lines, which the copy of stderr is read for when TORCH_TRACE never
/// reached the command.
pub const TORCH_LOGS: &str = "recompiles";

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

/// Runs `command` with TORCH_TRACE set to `trace_dir` (and `env` added) and
/// waits for it; its stderr is copied to `stderr_copy` on the way, when
/// that file can be made (else the command writes to guardscope's stderr
/// itself, and no copy is returned).
pub fn run(
    command: &[OsString],
    trace_dir: &Path,
    env: &[(&str, OsString)],
    stderr_copy: &Path,
) -> Result<(Ended, Option<Copied>), CliError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| CliError::BadInput("no command to run after `--`".into()))?;
    let cannot = |e: std::io::Error| CliError::BadInput(format!("cannot run `{}`: {e}", program.to_string_lossy()));
    // Handlers first: a signal that arrives while the child starts is held
    // and passed on once its pid is known.
    let shown = display(command);
    let forwarding = forward::Forwarding::install();
    let mut command = Command::new(program);
    command.args(args).env("TORCH_TRACE", trace_dir);
    if std::env::var_os("TORCH_LOGS").is_none() {
        command.env("TORCH_LOGS", TORCH_LOGS);
    }
    command.envs(env.iter().map(|(k, v)| (k, v)));
    let file = match tee::create(stderr_copy) {
        Ok(file) => {
            command.stderr(Stdio::piped());
            Some(file)
        }
        Err(e) => {
            crate::cli::error::warn(&format!(
                "cannot copy the command's stderr into {}: {e}",
                stderr_copy.display()
            ));
            None
        }
    };
    // Its own process group, as timeout(1) does: a signal for the command
    // reaches what it started too (`bash train.sh` and its python), not
    // only the direct child.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(cannot)?;
    let copy = child.stderr.take().zip(file).map(|(from, file)| tee::start(from, file));
    let terminal = forward::Terminal::hand_to(child.id());
    forwarding.to(child.id());
    let status = child.wait().map_err(cannot);
    drop(terminal);
    let status = status?;
    if let Some(left) = forwarding.wait_for_group(child.id()) {
        crate::cli::error::warn(&format!(
            "{left} process(es) of `{}` still run {} s after the signal; their logs may still grow",
            shown,
            forward::GROUP_WAIT.as_secs()
        ));
    }
    drop(forwarding);
    Ok((ended(status), copy.map(tee::Tee::finish)))
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
    //! SIGINT, SIGTERM and SIGHUP sent to guardscope go to the command's
    //! process group. guardscope itself outlives them, to summarise what
    //! the logs hold.

    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::time::{Duration, Instant};

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    /// The child's pid (its process group's id), 0 before it is known.
    static CHILD: AtomicI32 = AtomicI32::new(0);
    /// A signal that came before the pid did, passed on by `to`.
    static HELD: AtomicI32 = AtomicI32::new(0);
    /// Whether a signal was passed on: then the group is waited for.
    static FORWARDED: AtomicBool = AtomicBool::new(false);
    /// How long the rest of the group may take to end after a signal.
    pub const GROUP_WAIT: Duration = Duration::from_secs(10);

    extern "C" fn on_signal(signal: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // The command's group is not the terminal's foreground group unless
        // `Terminal` handed it over, and then the terminal's own signals go
        // to the command directly, not here: whatever arrives here, a
        // Ctrl-C or a scheduler's kill(2), the command has not seen yet.
        FORWARDED.store(true, Ordering::SeqCst);
        let child = CHILD.load(Ordering::SeqCst);
        if child > 0 {
            // SAFETY: kill is async-signal-safe; -pid names the group.
            unsafe { libc::kill(-child, signal) };
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
            FORWARDED.store(false, Ordering::SeqCst);
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
                // SAFETY: plain kill(2) of the group we just started.
                unsafe { libc::kill(-(pid as i32), held) };
            }
        }

        /// After a signal, waits (up to `GROUP_WAIT`) for the rest of the
        /// command's group to end, so the logs are read once nothing
        /// writes them; the number of processes still there, if any.
        pub fn wait_for_group(&self, pid: u32) -> Option<usize> {
            if !FORWARDED.load(Ordering::SeqCst) {
                return None;
            }
            let group = i32::try_from(pid).ok()?;
            let start = Instant::now();
            // SAFETY: signal 0 only asks whether the group has members.
            while unsafe { libc::kill(-group, 0) } == 0 {
                if start.elapsed() > GROUP_WAIT {
                    return Some(members(group).max(1));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            None
        }
    }

    /// Processes in a group, counted from /proc where there is one.
    fn members(group: i32) -> usize {
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        dir.filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            // SAFETY: getpgid only reads another process's group.
            .filter(|&pid| unsafe { libc::getpgid(pid) } == group)
            .count()
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

    /// The terminal, handed to the command's group while it runs when
    /// guardscope holds it (as a shell does for a job): the command can
    /// read it (a `breakpoint()`), and Ctrl-C reaches it once. Dropping
    /// takes it back.
    pub struct Terminal {
        fd: libc::c_int,
    }

    impl Terminal {
        pub fn hand_to(pid: u32) -> Option<Terminal> {
            let group = i32::try_from(pid).ok()?;
            // SAFETY: isatty, tcgetpgrp, getpgrp and tcsetpgrp only read or
            // set the terminal's foreground group, from its foreground.
            unsafe {
                let fd = [0, 1, 2].into_iter().find(|&fd| libc::isatty(fd) == 1)?;
                if libc::tcgetpgrp(fd) != libc::getpgrp() || libc::tcsetpgrp(fd, group) != 0 {
                    return None;
                }
                Some(Terminal { fd })
            }
        }
    }

    impl Drop for Terminal {
        fn drop(&mut self) {
            // From the background, taking the terminal back raises SIGTTOU
            // unless it is blocked for the call.
            // SAFETY: sigset and mask calls on this thread, then tcsetpgrp.
            unsafe {
                let mut block: libc::sigset_t = std::mem::zeroed();
                let mut old: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut block);
                libc::sigaddset(&mut block, libc::SIGTTOU);
                libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old);
                libc::tcsetpgrp(self.fd, libc::getpgrp());
                libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(not(unix))]
mod forward {
    //! Elsewhere the console delivers Ctrl-C to both processes itself.
    pub const GROUP_WAIT: std::time::Duration = std::time::Duration::from_secs(0);
    pub struct Forwarding;
    impl Forwarding {
        pub fn install() -> Self {
            Forwarding
        }
        pub fn to(&self, _pid: u32) {}
        pub fn wait_for_group(&self, _pid: u32) -> Option<usize> {
            None
        }
    }
    pub struct Terminal;
    impl Terminal {
        pub fn hand_to(_pid: u32) -> Option<Terminal> {
            None
        }
    }
}
