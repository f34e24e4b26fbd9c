use super::*;
use crate::activation_diff::outcome::{Diff, SideSummary};
use crate::activation_diff::RecordedStat;

/// Feeds two synthetic record streams (module names `m0`, `m1`, ...; one
/// stat `sum`) to an aligner the way `diff` does, returning the result and
/// the largest number of records ever pending.
struct Feed {
    aligner: Aligner<'static>,
    queues: [std::collections::VecDeque<Record>; 2],
    seq: [u64; 2],
    max_pending: usize,
}

impl Feed {
    fn new(modules: usize, opts: Options) -> Feed {
        let mut aligner = Aligner::new(opts, None);
        // Both readers intern names in the same order: m0.., "out", "sum".
        let names: Vec<Arc<str>> = (0..modules)
            .map(|m| format!("m{m}").into())
            .chain(["out".into(), "sum".into()])
            .collect();
        aligner.add_names(A, &names);
        aligner.add_names(B, &names);
        Feed {
            aligner,
            queues: Default::default(),
            seq: [0; 2],
            max_pending: 0,
        }
    }

    fn record(&mut self, side: usize, step: i64, module: u32, sum: f64) {
        let modules = self.aligner.local[side].len() as u32 - 2;
        let seq = self.seq[side];
        self.seq[side] += 1;
        self.queues[side].push_back(Record {
            seq,
            line: seq + 1,
            pass: 0,
            step,
            module,
            original: module,
            tensor: modules,
            call: 0,
            stats: vec![(modules + 1, RecordedStat::Number(sum))],
            shape: None,
            dtype: None,
        });
    }

    fn run(mut self) -> (Diff, usize) {
        while let Some(side) = self.aligner.next_side() {
            match self.queues[side].pop_front() {
                Some(r) => self.aligner.push(side, r),
                None => self.aligner.finish_side(side),
            }
            self.max_pending = self.max_pending.max(self.aligner.pending_len());
        }
        let diff = self.aligner.finish(SideSummary::default(), SideSummary::default());
        (diff, self.max_pending)
    }
}

#[test]
fn the_window_stays_at_about_a_step_however_long_the_traces_are() {
    const STEPS: i64 = 5_000;
    const MODULES: u32 = 40;
    let mut feed = Feed::new(MODULES as usize, Options::default());
    for step in 0..STEPS {
        for m in 0..MODULES {
            feed.record(A, step, m, 1.0);
            // B skipped module 7 (a layer the port dropped).
            if m != 7 {
                feed.record(B, step, m, 1.0);
            }
        }
    }
    let (diff, max_pending) = feed.run();
    assert_eq!(diff.compared, (STEPS * 39) as u64);
    assert_eq!(diff.only_in_a.records, STEPS as u64);
    assert_eq!(diff.only_in_a.groups.len(), 1);
    assert_eq!(diff.only_in_a.groups[0].module, "m7");
    // One step of A plus the one-sided record of the step before, at most.
    assert!(max_pending <= MODULES as usize + 1, "{max_pending}");
    assert_eq!(diff.steps.len(), STEPS as usize);
    assert!(diff.steps.iter().all(|s| s.only_in_a == 1 && s.compared == 39));
}

#[test]
fn a_side_that_skips_steps_keeps_the_window_small() {
    let mut feed = Feed::new(4, Options::default());
    for step in 0..3_000 {
        for m in 0..4 {
            feed.record(A, step, m, 1.0);
            if step % 100 == 0 {
                feed.record(B, step, m, 1.0);
            }
        }
    }
    let (diff, max_pending) = feed.run();
    assert_eq!(diff.compared, 30 * 4);
    assert_eq!(diff.only_in_a.records, 2_970 * 4);
    assert!(max_pending <= 8, "{max_pending}");
}

#[test]
fn the_first_divergence_is_the_first_in_a_order_whatever_b_order() {
    let mut feed = Feed::new(6, Options::default());
    for step in 0..3 {
        for m in 0..6u32 {
            feed.record(A, step, m, 1.0);
        }
        // B writes each step's modules in reverse, and modules 2 and 4 differ.
        for m in (0..6u32).rev() {
            feed.record(B, step, m, if m == 2 || m == 4 { 2.0 } else { 1.0 });
        }
    }
    let (diff, _) = feed.run();
    assert_eq!(diff.divergent, 6);
    let first = diff.first_divergence.unwrap();
    assert_eq!((first.step, first.module.as_str(), first.line_a), (0, "m2", 3));
    let order: Vec<(i64, String)> = diff
        .next_divergences
        .iter()
        .map(|d| (d.step, d.module.clone()))
        .collect();
    let expected: Vec<(i64, String)> = [(0, "m4"), (1, "m2"), (1, "m4"), (2, "m2"), (2, "m4")]
        .iter()
        .map(|(s, m)| (*s, m.to_string()))
        .collect();
    assert_eq!(order, expected);
    assert!(diff.steps.iter().all(|s| s.divergent_modules == 2));
}

#[test]
fn show_caps_the_detailed_records_but_not_the_counts() {
    let opts = Options {
        show: 2,
        ..Options::default()
    };
    let mut feed = Feed::new(3, opts);
    for step in 0..100 {
        for m in 0..3 {
            feed.record(A, step, m, 1.0);
            feed.record(B, step, m, 3.0);
        }
    }
    let (diff, _) = feed.run();
    assert_eq!(diff.divergent, 300);
    assert_eq!(diff.next_divergences.len(), 2);
    let first = diff.first_divergence.unwrap();
    assert_eq!((first.step, first.module.as_str()), (0, "m0"));
    assert_eq!(diff.next_divergences[1].module, "m2");
}
