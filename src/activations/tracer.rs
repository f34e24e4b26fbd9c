//! The run-time state of one activation trace: the step, whether it is
//! enabled, which steps are recorded, per-module call counters, and its sink.
//!
//! This state lives here, not in Python objects the hooks can see, so that
//! `torch.compile` never guards on it: changing it never recompiles.
//!
//! A tracer never fails its caller because of the file: the one call whose
//! write or flush fails gets `SinkFailed` (to report it), and from then on
//! nothing is recorded. In a forked child, a tracer the parent made records
//! nothing and touches none of its locks (see `fork`).

use std::collections::HashSet;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use super::fork;
use super::record::{module_prefix, push_record, Head};
use super::sink::{lock, Sink, SinkFailed};
use super::stats::{summarize, StatSet, Summary, Value};

pub struct Tracer {
    stats: StatSet,
    modules: Vec<String>,
    prefixes: Vec<Vec<u8>>,
    sink: Mutex<Option<Arc<Sink>>>,
    closed: AtomicBool,
    enabled: AtomicBool,
    step: AtomicI64,
    steps: RwLock<Option<HashSet<i64>>>,
    /// Calls of each module in the current step (recorded or not).
    calls: Mutex<Vec<u64>>,
    records: AtomicU64,
    /// The fork generation that made it.
    generation: u64,
    /// The file's failure, kept when `close` lets go of the file.
    failure_at_close: std::sync::OnceLock<String>,
}

/// Why a record was not written.
#[derive(Debug)]
pub enum RecordError {
    /// The caller passed something wrong (a bug in the caller, not the data).
    BadInput(String),
    /// The file just failed; nothing more will be written to it.
    Sink(SinkFailed),
}

impl From<SinkFailed> for RecordError {
    fn from(failed: SinkFailed) -> Self {
        RecordError::Sink(failed)
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::BadInput(message) => f.write_str(message),
            RecordError::Sink(failed) => failed.fmt(f),
        }
    }
}

/// What a record holds besides its values.
pub struct TensorInfo<'a> {
    pub module: usize,
    pub tensor: &'a str,
    pub call: u64,
    pub shape: &'a [i64],
    pub dtype: &'a str,
}

impl Tracer {
    pub fn open(path: &Path, stats: StatSet, modules: Vec<String>, steps: Option<Vec<i64>>) -> io::Result<Tracer> {
        let sink = Sink::open(path)?;
        Ok(Tracer {
            stats,
            prefixes: modules.iter().map(|m| module_prefix(m)).collect(),
            calls: Mutex::new(vec![0; modules.len()]),
            modules,
            sink: Mutex::new(Some(sink)),
            closed: AtomicBool::new(false),
            enabled: AtomicBool::new(true),
            step: AtomicI64::new(0),
            steps: RwLock::new(steps.map(|s| s.into_iter().collect())),
            records: AtomicU64::new(0),
            generation: fork::generation(),
            failure_at_close: Default::default(),
        })
    }

    pub fn stats(&self) -> &StatSet {
        &self.stats
    }

    pub fn modules(&self) -> &[String] {
        &self.modules
    }

    pub fn path(&self) -> Option<std::path::PathBuf> {
        lock(&self.sink).as_ref().map(|s| s.path().to_path_buf())
    }

    /// Counts a call of `module` and returns its index in the current step,
    /// or `None` when this call is not to be recorded (closed, disabled, a
    /// step outside the filter, an unknown module, a failed file, or a forked
    /// child of the process that made the tracer).
    ///
    /// The counters are shared by every thread: concurrent calls each get a
    /// distinct index, in the order they get here.
    pub fn begin_call(&self, module: usize) -> Option<u64> {
        if !self.in_own_process() {
            return None;
        }
        let index = {
            let mut calls = lock(&self.calls);
            let slot = calls.get_mut(module)?;
            *slot += 1;
            *slot - 1
        };
        if self.closed.load(Ordering::Relaxed) || !self.enabled.load(Ordering::Relaxed) {
            return None;
        }
        let step = self.step.load(Ordering::Relaxed);
        if let Some(steps) = &*self.steps.read().unwrap_or_else(|p| p.into_inner()) {
            if !steps.contains(&step) {
                return None;
            }
        }
        let writable = lock(&self.sink).as_ref().is_some_and(|s| s.live());
        writable.then_some(index)
    }

    fn in_own_process(&self) -> bool {
        fork::is_current(self.generation)
    }

    /// Whether calls can be recorded at all: not closed, the file has not
    /// failed, and this is the process that made the tracer.
    pub fn active(&self) -> bool {
        self.in_own_process() && !self.closed() && lock(&self.sink).as_ref().is_some_and(|s| s.live())
    }

    /// Why the file stopped being written, if it did.
    pub fn failure(&self) -> Option<String> {
        let sink = lock(&self.sink);
        let failure = sink.as_ref().and_then(|s| s.failure());
        failure
            .or(self.failure_at_close.get().map(String::as_str))
            .map(str::to_owned)
    }

    pub fn step(&self) -> i64 {
        self.step.load(Ordering::Relaxed)
    }

    /// Moves to `step`. A change restarts the call counters and flushes what
    /// the previous step wrote, so a crash loses at most the current step.
    pub fn set_step(&self, step: i64) -> Result<Option<String>, SinkFailed> {
        if !self.in_own_process() {
            return Ok(None);
        }
        {
            let mut calls = lock(&self.calls);
            if self.step.swap(step, Ordering::Relaxed) == step {
                return Ok(None);
            }
            calls.iter_mut().for_each(|c| *c = 0);
        }
        self.flush()
    }

    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    pub fn set_enabled(&self, enabled: bool) {
        self.enabled.store(enabled, Ordering::Relaxed);
    }

    /// The recorded steps in increasing order, or `None` for all.
    pub fn steps(&self) -> Option<Vec<i64>> {
        let steps = self.steps.read().unwrap_or_else(|p| p.into_inner());
        steps.as_ref().map(|s| {
            let mut v: Vec<i64> = s.iter().copied().collect();
            v.sort_unstable();
            v
        })
    }

    pub fn set_steps(&self, steps: Option<Vec<i64>>) {
        *self.steps.write().unwrap_or_else(|p| p.into_inner()) = steps.map(|s| s.into_iter().collect());
    }

    /// Records one tensor from a pass over its values (`detach().float()`).
    pub fn record_data(&self, info: &TensorInfo<'_>, data: &[f32]) -> Result<(), RecordError> {
        let summary = summarize(data, self.stats.need());
        self.record_summary(info, &summary)
    }

    pub fn record_summary(&self, info: &TensorInfo<'_>, summary: &Summary) -> Result<(), RecordError> {
        self.write(info, self.stats.values().iter().map(|&s| (s, summary.value(s))))
    }

    /// Records values computed elsewhere, one per value stat in order.
    pub fn record_values(&self, info: &TensorInfo<'_>, values: Vec<Value>) -> Result<(), RecordError> {
        let expected = self.stats.values().len();
        if values.len() != expected {
            return Err(RecordError::BadInput(format!(
                "{} values for {expected} stats",
                values.len()
            )));
        }
        self.write(info, self.stats.values().iter().copied().zip(values))
    }

    fn write(
        &self,
        info: &TensorInfo<'_>,
        stats: impl IntoIterator<Item = (super::Stat, Value)>,
    ) -> Result<(), RecordError> {
        let prefix = self
            .prefixes
            .get(info.module)
            .ok_or_else(|| RecordError::BadInput(format!("unknown module index {}", info.module)))?;
        if !self.in_own_process() {
            return Ok(());
        }
        let head = Head {
            module_prefix: prefix,
            tensor: info.tensor,
            step: self.step(),
            call: info.call,
            shape: info.shape,
            dtype: info.dtype,
        };
        let mut line = Vec::with_capacity(256);
        push_record(&mut line, &head, stats);
        let sink = lock(&self.sink).clone();
        if let Some(sink) = sink {
            if sink.write(&line)? {
                self.records.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }

    /// Writes out what is buffered; `Ok(Some(warning))` when the file had
    /// been deleted and was created again (see `Sink::flush`).
    pub fn flush(&self) -> Result<Option<String>, SinkFailed> {
        if !self.in_own_process() {
            return Ok(None);
        }
        let sink = lock(&self.sink).clone();
        sink.map_or(Ok(None), |s| s.flush())
    }

    /// Flushes and lets go of the file; later calls record nothing.
    pub fn close(&self) -> Result<Option<String>, SinkFailed> {
        self.closed.store(true, Ordering::Relaxed);
        if !self.in_own_process() {
            return Ok(None);
        }
        let Some(sink) = lock(&self.sink).take() else {
            return Ok(None);
        };
        let flushed = sink.flush();
        if let Some(failure) = sink.failure() {
            let _ = self.failure_at_close.set(failure.to_owned());
        }
        flushed
    }

    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracer(dir: &Path, steps: Option<Vec<i64>>) -> Tracer {
        let stats = StatSet::parse(&["sum", "max"]).unwrap();
        Tracer::open(&dir.join("t.jsonl"), stats, vec!["a".into(), "b".into()], steps).unwrap()
    }

    fn info(module: usize, call: u64) -> TensorInfo<'static> {
        TensorInfo {
            module,
            tensor: "out",
            call,
            shape: &[2],
            dtype: "torch.float32",
        }
    }

    fn lines(dir: &Path) -> Vec<serde_json::Value> {
        std::fs::read_to_string(dir.join("t.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn calls_count_per_module_and_restart_when_the_step_changes() {
        let dir = tempfile::tempdir().unwrap();
        let t = tracer(dir.path(), None);
        assert_eq!(
            (t.begin_call(0), t.begin_call(0), t.begin_call(1)),
            (Some(0), Some(1), Some(0))
        );
        t.set_step(0).unwrap();
        assert_eq!(t.begin_call(0), Some(2), "same step: no restart");
        t.set_step(1).unwrap();
        assert_eq!(t.begin_call(0), Some(0));
        assert_eq!(t.begin_call(7), None);
    }

    #[test]
    fn disabled_closed_and_filtered_steps_record_nothing_but_still_count() {
        let dir = tempfile::tempdir().unwrap();
        let t = tracer(dir.path(), Some(vec![2, 4]));
        assert_eq!(t.begin_call(0), None, "step 0 is filtered out");
        t.set_step(2).unwrap();
        t.set_enabled(false);
        assert_eq!(t.begin_call(0), None);
        t.set_enabled(true);
        assert_eq!(t.begin_call(0), Some(1));
        t.set_steps(None);
        t.set_step(3).unwrap();
        assert_eq!(t.begin_call(0), Some(0));
        assert_eq!(t.steps(), None);
        t.close().unwrap();
        assert_eq!(t.begin_call(0), None);
        t.record_data(&info(0, 0), &[1.0]).unwrap();
        assert_eq!(t.records(), 0);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_file_is_reported_by_one_call_and_then_nothing_is_recorded() {
        let stats = StatSet::parse(&["sum"]).unwrap();
        let t = Tracer::open(Path::new("/dev/full"), stats, vec!["a".into()], None).unwrap();
        assert_eq!(t.begin_call(0), Some(0));
        t.record_data(&info(0, 0), &[1.0]).unwrap();
        let failed = t.set_step(1).unwrap_err();
        assert!(failed.0.contains("No space left on device"), "{failed}");
        assert_eq!(t.begin_call(0), None, "no stats are computed for a dead file");
        assert!(!t.active());
        assert!(t.flush().is_ok() && t.set_step(2).is_ok(), "reported once");
        t.close().unwrap();
        assert_eq!(t.failure().as_deref(), Some(failed.0.as_str()), "kept after close");
    }

    #[test]
    fn records_carry_the_step_and_are_flushed_at_a_step_change() {
        let dir = tempfile::tempdir().unwrap();
        let t = tracer(dir.path(), None);
        t.set_step(5).unwrap();
        t.record_data(&info(1, 0), &[1.0, -4.0]).unwrap();
        t.record_values(&info(0, 1), vec![Value::Number(2.0), Value::Error("no".into())])
            .unwrap();
        assert!(lines(dir.path()).is_empty());
        t.set_step(6).unwrap();
        let got = lines(dir.path());
        assert_eq!(got.len(), 2);
        assert_eq!(got[0]["module"], "b");
        assert_eq!((got[0]["step"].as_i64(), got[0]["sum"].as_f64()), (Some(5), Some(-3.0)));
        assert_eq!(got[0]["max"], 1.0);
        assert_eq!(got[1]["max"], "<error: no>");
        assert_eq!(got[1]["call"], 1);
        assert!(t.record_values(&info(0, 0), vec![]).is_err());
        assert_eq!(t.records(), 2);
    }
}
