//! One file parsed beside the thread that builds its model, in parts on
//! threads of their own when it is large and cores are left over.

use crate::input::{LogSource, MappedLog, Problems};
use crate::model::RunBuilder;
use crate::trace::{chunks, Event, ParseStats, Parser};
use rayon::prelude::*;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The file's lines before each part, so that every part's parser numbers
/// lines as one parse of the whole file does. A pass over all parts but the
/// last, on all cores.
pub(super) fn lines_before_each(log: &MappedLog, ranges: &[std::ops::Range<usize>]) -> Vec<u64> {
    let counts: Vec<u64> = ranges[..ranges.len().saturating_sub(1)]
        .par_iter()
        .map(|r| {
            let (mut lines, mut after_cr) = (0, false);
            log.visit(r.clone(), &mut |block| {
                lines += chunks::count_lines(block, &mut after_cr)
            });
            lines
        })
        .collect();
    std::iter::once(0)
        .chain(counts.iter().scan(0, |sum, n| {
            *sum += n;
            Some(*sum)
        }))
        .collect()
}

/// Events handed from a parsing thread to the building one at a time:
/// enough to make the hand-over cheap.
const EVENT_BATCH: usize = 256;
/// Batches the part the builder is on may have parsed ahead of it.
const BATCHES_IN_FLIGHT: usize = 4;
/// Event memory (`Event::held_bytes`) that the parts after the builder's
/// may hold, all together, before their parsers wait. On real logs the
/// parser is the slower side and parts this far ahead are rare; on a
/// fleet's log of 10^6 small frames the builder is, and the events are
/// bigger than what the model keeps of them: unbounded, the parts of a 552
/// MB log held 1.2 GB on 16 cores.
const AHEAD_BYTES: usize = 128 << 20;

/// What the parsers have handed over and the builder not yet taken.
struct Waiting {
    ahead_bytes: usize,
    held: Mutex<Held>,
    changed: Condvar,
}

struct Held {
    /// The part the builder takes events from.
    building: usize,
    /// Per part, batches handed over and not yet taken.
    batches: Vec<usize>,
    bytes: usize,
    /// The builder is gone (done, or a panic): nobody waits any more.
    closed: bool,
}

impl Waiting {
    fn new(parts: usize, ahead_bytes: usize) -> Self {
        Waiting {
            ahead_bytes,
            held: Mutex::new(Held {
                building: 0,
                batches: vec![0; parts],
                bytes: 0,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until part `part` may hand over a batch of `bytes`: the part
    /// being built, while it has few batches waiting; a later one, while
    /// the parts ahead hold little. The part being built never waits on
    /// the others, so the builder always gets its events.
    fn hand_over(&self, part: usize, bytes: usize) {
        let mut held = self.lock();
        while !held.closed
            && if held.building == part {
                held.batches[part] >= BATCHES_IN_FLIGHT
            } else {
                held.bytes + bytes > self.ahead_bytes
            }
        {
            held = self.changed.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
        held.batches[part] += 1;
        held.bytes += bytes;
    }

    fn update(&self, change: impl FnOnce(&mut Held)) {
        change(&mut self.lock());
        self.changed.notify_all();
    }
}

/// Closes `Waiting` when the builder is done with it, on a panic too: a
/// parser waiting for room would otherwise never end, nor the scope.
struct Closing<'a>(&'a Waiting);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.update(|held| held.closed = true);
    }
}

/// Gives back to the system what this thread's freed events took. glibc
/// keeps a heap per thread and reuses it only for that thread: a part's
/// events, parsed ahead and freed once built, would stay resident to the
/// end beside every other part's (16 cores, 1M frames: 0.5 GB).
fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim(3) only returns free memory; nothing else touches it.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Parses each part (a reader and the file's lines before it) on a thread
/// of its own while this one folds the events into the model: parsing and
/// building overlap, and the parts of a large file parse on all cores. The
/// builder takes the parts' events in file order and their problems are
/// merged in file order, so the model is the one a single parse builds
/// (tests/parts_parse.rs compares them on every sample).
pub(super) fn parse_beside_building<R: std::io::BufRead + Send>(
    source: &LogSource,
    load: &super::LoadOptions,
    parts: Vec<(R, u64)>,
    problems: &mut Problems,
    builder: &mut RunBuilder,
) -> ParseStats {
    let count = parts.len();
    let mut part_problems: Vec<Problems> = (0..count).map(|_| Problems::default()).collect();
    let mut stats = ParseStats::default();
    let opts = &load.parse;
    let ahead_bytes = load.ahead_bytes.unwrap_or(AHEAD_BYTES);
    let waiting = Waiting::new(count, ahead_bytes);
    std::thread::scope(|scope| {
        let closing = Closing(&waiting);
        let waiting = &waiting;
        let mut threads = Vec::with_capacity(count);
        for (i, ((reader, before), problems)) in parts.into_iter().zip(&mut part_problems).enumerate() {
            // The part being built feeds the builder a few batches ahead;
            // later parts run ahead while the builder works through earlier
            // ones, as far as `ahead_bytes` lets them. A send fails only
            // once the receiver is gone: after this thread is joined, never.
            let (tx, rx) = std::sync::mpsc::channel::<(Vec<Event>, usize)>();
            // Batches the builder is done with come back to be dropped here,
            // on the thread that allocated their events. Freed on the
            // builder's thread, they would refill its malloc caches with
            // this thread's memory, and the model built from those caches
            // would pin this thread's heap pages, most of them full of
            // events long freed (1M frames: 0.3 GB more RSS).
            let (back, returned) = std::sync::mpsc::channel::<Vec<Event>>();
            let parser = Parser::new(source.display.clone(), opts.clone(), problems);
            let thread = scope.spawn(move || {
                let send = move |batch: Vec<Event>| {
                    let bytes = batch.iter().map(Event::held_bytes).sum();
                    waiting.hand_over(i, bytes);
                    _ = tx.send((batch, bytes));
                };
                let mut batch = Vec::with_capacity(EVENT_BATCH);
                let stats = parser.run_part(reader, before, i + 1 == count, &mut |ev| {
                    batch.push(ev);
                    if batch.len() == EVENT_BATCH {
                        let empty = match returned.try_recv() {
                            Ok(mut used) => {
                                used.clear();
                                used
                            }
                            Err(_) => Vec::with_capacity(EVENT_BATCH),
                        };
                        send(std::mem::replace(&mut batch, empty));
                    }
                });
                send(batch);
                drop(send);
                // Until the builder has taken this part's last batch.
                returned.iter().for_each(drop);
                release_freed();
                stats
            });
            threads.push((thread, rx, back));
        }
        let mut built = 0;
        for (i, (thread, rx, back)) in threads.into_iter().enumerate() {
            waiting.update(|held| held.building = i);
            for (mut batch, bytes) in rx.iter() {
                batch.iter_mut().for_each(|ev| builder.add(ev));
                waiting.update(|held| {
                    held.batches[i] -= 1;
                    held.bytes -= bytes;
                });
                // Fails only if the thread panicked (the join reports it).
                _ = back.send(batch);
                built += bytes;
                if count > 1 && built >= ahead_bytes / 2 {
                    // The parts' heaps hold what they held at most, each
                    // apart: give back the events built since last time.
                    release_freed();
                    built = 0;
                }
            }
            drop(back);
            match thread.join() {
                Ok(part) => stats.add(part),
                // A bug in the parser: the CLI's panic handler reports it.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        drop(closing);
    });
    part_problems.into_iter().for_each(|p| problems.merge(p));
    stats
}
