//! `python train.py 2>&1 | guardscope watch -`: a job's stderr followed
//! live as a text log (`TORCH_LOGS=recompiles`), each recompile told when
//! its block ends, with the same analysis as `summary`. A thread reads the
//! lines; when the job prints nothing for a moment, the blocks read so far
//! are ended, so a recompile is not held back until the job's next line.

use super::error::{CliError, Status};
use super::output::Output;
use crate::analysis;
use crate::input::{self, Problems};
use crate::model::RunBuilder;
use crate::report::watch::WatchEvent;
use crate::trace::lines::{LineReader, PayloadLine};
use crate::trace::{EventData, TextParser};
use std::io;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Quiet time after which the blocks being read are taken as whole: a
/// block is printed at once, in milliseconds.
const QUIET: Duration = Duration::from_millis(500);
/// Lines read ahead of the parser, at most.
const AHEAD: usize = 4096;

pub fn watch_stdin(out: Output) -> Result<Status, CliError> {
    let found = input::discover(&[std::path::PathBuf::from(input::STDIN)])?;
    let source = found.sources.into_iter().next().expect("stdin is one source");
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(AHEAD);
    std::thread::spawn(move || {
        let mut lines = LineReader::new(io::stdin().lock(), 1 << 20);
        while let Ok(Some(line)) = lines.next_line(PayloadLine::Keep, &mut |_| {}) {
            if tx.send(line.bytes.to_vec()).is_err() {
                break;
            }
        }
    });
    let mut problems = Problems::default();
    let mut parser = TextParser::new(source.display.clone(), &mut problems);
    let mut builder = RunBuilder::new(&source);
    builder.drop_guard_trees();
    let events = std::cell::RefCell::new(Vec::new());
    let mut on_event = |mut ev: crate::trace::Event| {
        let finished = matches!(ev.data, EventData::CompilationMetrics(_)).then_some((ev.pid, ev.compile));
        builder.add(&mut ev);
        if let Some(run) = finished.and_then(|(pid, r)| builder.take_finished(pid, r)) {
            for finding in &analysis::analyse(&run).recompiles {
                events.borrow_mut().push(WatchEvent::new(&source.display, finding));
            }
        }
    };
    let mut number = 0;
    loop {
        let ended = match rx.recv_timeout(QUIET) {
            Ok(line) => {
                number += 1;
                parser.feed_line(&line, number, &mut on_event);
                false
            }
            Err(RecvTimeoutError::Timeout) => {
                parser.flush(&mut on_event);
                false
            }
            Err(RecvTimeoutError::Disconnected) => {
                parser.flush(&mut on_event);
                true
            }
        };
        let told: Vec<WatchEvent> = events.borrow_mut().drain(..).collect();
        for event in told {
            match out.print_event(&event) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(Status::Success),
                Err(e) => return Err(CliError::Output(e)),
            }
        }
        if ended {
            return Ok(Status::Success);
        }
    }
}
