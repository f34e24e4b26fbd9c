//! A progress bar on stderr for inputs that take more than a second to read.
//! Parsers only bump an atomic byte counter; a thread of its own draws, so
//! the hot loop never touches the terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Quick runs show nothing at all.
const DELAY: Duration = Duration::from_secs(1);
const TICK: Duration = Duration::from_millis(100);

pub struct Progress {
    counter: Arc<AtomicU64>,
    drawer: Option<(Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// `total` is the bytes on disk to read; nothing is drawn unless `enabled`.
    pub fn start(total: u64, enabled: bool) -> Self {
        let counter = Arc::new(AtomicU64::new(0));
        if !enabled || total == 0 {
            return Progress { counter, drawer: None };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let read = Arc::clone(&counter);
        let handle = std::thread::spawn(move || {
            if stopped.recv_timeout(DELAY) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let style = ProgressStyle::with_template(
                "reading logs {bar:40.cyan/blue} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            let bar = ProgressBar::new(total).with_style(style);
            loop {
                bar.set_position(read.load(Ordering::Relaxed).min(total));
                if stopped.recv_timeout(TICK) != Err(RecvTimeoutError::Timeout) {
                    break;
                }
            }
            bar.finish_and_clear();
        });
        Progress {
            counter,
            drawer: Some((stop, handle)),
        }
    }

    /// The counter readers add the bytes they read to.
    pub fn counter(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.counter)
    }

    /// Stops drawing and clears the bar.
    pub fn finish(self) {
        if let Some((stop, handle)) = self.drawer {
            let _ = stop.send(());
            let _ = handle.join();
        }
    }
}
