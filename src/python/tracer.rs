//! `guardscope._native.Tracer`: the activation-trace state and sink, as seen
//! from the Python hooks (`python/guardscope/_hooks.py`).
//!
//! Nothing here raises because the file failed: the hooks run inside the
//! user's forward pass (and inside compiled graphs, as a custom op's body),
//! and `set_step` inside their training loop. The failure is logged once, as
//! a warning on the `guardscope` logger, and tracing to that file stops.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::activations::reduced::parts;
use crate::activations::{RecordError, SinkFailed, StatSet, TensorInfo, Tracer, Value};

#[pyclass(name = "Tracer", module = "guardscope._native", frozen)]
pub struct PyTracer {
    inner: Tracer,
}

/// A value computed in Python: a float or an error message (`None`, for
/// "no value", arrives as `Option::None`).
#[derive(FromPyObject)]
pub enum ValueArg {
    Number(f64),
    Message(String),
}

/// Logs the failure that stopped a sink. Only the call that hit it gets
/// here, so this happens once per file, whichever trace or thread wrote.
fn report(py: Python<'_>, failed: SinkFailed) {
    warn(
        py,
        &format!(
            "activation trace: {failed}; activation tracing to this file is off from now on \
             (the model and training are unaffected)"
        ),
    );
}

/// Logs `message` as a warning on the `guardscope` logger; a broken logging
/// setup must not break the forward pass either.
fn warn(py: Python<'_>, message: &str) {
    let logged = py
        .import("logging")
        .and_then(|logging| logging.call_method1("getLogger", ("guardscope",)))
        .and_then(|logger| logger.call_method1("warning", ("%s", message)));
    drop(logged);
}

/// Reports what a flush says: the failure that stopped the file, or that the
/// file was deleted and created again (tracing goes on).
fn sink_result(py: Python<'_>, result: Result<Option<String>, SinkFailed>) {
    match result {
        Ok(None) => {}
        Ok(Some(notice)) => warn(py, &format!("activation trace: {notice}")),
        Err(failed) => report(py, failed),
    }
}

fn record_result(py: Python<'_>, result: Result<(), RecordError>) -> PyResult<()> {
    match result {
        Ok(()) => Ok(()),
        Err(RecordError::Sink(failed)) => {
            report(py, failed);
            Ok(())
        }
        Err(RecordError::BadInput(message)) => Err(PyValueError::new_err(message)),
    }
}

fn to_value(v: Option<ValueArg>) -> Value {
    match v {
        Some(ValueArg::Number(x)) => Value::Number(x),
        Some(ValueArg::Message(message)) => Value::Error(message),
        None => Value::Undefined,
    }
}

/// The `len` values at `ptr`, after refusing a null or misaligned pointer.
///
/// # Safety
/// `ptr` must be the start of `len` initialized `T`s that the caller keeps
/// alive (and unchanged) while the slice is used, i.e. while we hold the GIL.
unsafe fn slice_at<'a, T>(ptr: usize, len: usize, what: &str) -> PyResult<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr == 0 || !ptr.is_multiple_of(std::mem::align_of::<T>()) {
        return Err(PyValueError::new_err(format!("bad {what} data pointer {ptr:#x}")));
    }
    // SAFETY: non-null and aligned (checked); the rest is the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr as *const T, len) })
}

#[pymethods]
impl PyTracer {
    /// Opens (or joins) the JSONL file at `path` now, so that an unwritable
    /// path fails at attach time. `modules` are indexed by position.
    #[new]
    #[pyo3(signature = (path, stats, modules, steps=None))]
    fn new(path: PathBuf, stats: Vec<String>, modules: Vec<String>, steps: Option<Vec<i64>>) -> PyResult<Self> {
        let stats = StatSet::parse(&stats).map_err(PyValueError::new_err)?;
        let inner = Tracer::open(&path, stats, modules, steps)?;
        Ok(PyTracer { inner })
    }

    /// Counts a call of module `module`; returns its index in the current
    /// step, or -1 when the call is not to be recorded.
    fn begin_call(&self, module: usize) -> i64 {
        self.inner.begin_call(module).map_or(-1, |c| c as i64)
    }

    /// Records a tensor from its values: `numel` contiguous float32 at `ptr`.
    ///
    /// The caller (guardscope's own hook code) passes `t.data_ptr()` of a
    /// contiguous float32 CPU tensor it keeps alive for the whole call.
    #[allow(clippy::too_many_arguments)]
    fn record_f32(
        &self,
        py: Python<'_>,
        module: usize,
        tensor: &str,
        call: u64,
        ptr: usize,
        numel: usize,
        shape: Vec<i64>,
        dtype: &str,
    ) -> PyResult<()> {
        // SAFETY: per the contract above.
        let data: &[f32] = unsafe { slice_at(ptr, numel, "float32")? };
        let info = TensorInfo {
            module,
            tensor,
            call,
            shape: &shape,
            dtype,
        };
        record_result(py, self.inner.record_data(&info, data))
    }

    /// Records values computed in Python, one per value stat in order: a
    /// float, `None` (no value), or a string (the error that stat raised).
    #[allow(clippy::too_many_arguments)]
    fn record_values(
        &self,
        py: Python<'_>,
        module: usize,
        tensor: &str,
        call: u64,
        values: Vec<Option<ValueArg>>,
        shape: Vec<i64>,
        dtype: &str,
    ) -> PyResult<()> {
        let info = TensorInfo {
            module,
            tensor,
            call,
            shape: &shape,
            dtype,
        };
        let values = values.into_iter().map(to_value).collect();
        record_result(py, self.inner.record_values(&info, values))
    }

    /// Records call `call` of `module` from stats reduced in a compiled
    /// graph: `len` contiguous float64 at `ptr`, one per part of
    /// `reduced_parts` for each tensor of `layout` (see `activations::reduced`).
    ///
    /// The caller (guardscope's op body) passes `t.data_ptr()` of a
    /// contiguous float64 CPU tensor it keeps alive for the whole call.
    #[allow(clippy::too_many_arguments)]
    fn record_reduced(
        &self,
        py: Python<'_>,
        module: usize,
        call: u64,
        layout: &str,
        sizes: Vec<i64>,
        ptr: usize,
        len: usize,
    ) -> PyResult<()> {
        // SAFETY: per the contract above.
        let values: &[f64] = unsafe { slice_at(ptr, len, "float64")? };
        record_result(py, self.inner.record_reduced(module, call, layout, &sizes, values))
    }

    /// What a compiled graph reduces for each tensor, in order.
    #[getter]
    fn reduced_parts(&self) -> Vec<&'static str> {
        parts(self.inner.stats().need()).iter().map(|p| p.name()).collect()
    }

    /// Moves to `step`; a change restarts call counts and flushes the file.
    fn set_step(&self, py: Python<'_>, step: i64) {
        sink_result(py, py.detach(|| self.inner.set_step(step)));
    }

    #[getter]
    fn step(&self) -> i64 {
        self.inner.step()
    }

    fn enable(&self) {
        self.inner.set_enabled(true);
    }

    fn disable(&self) {
        self.inner.set_enabled(false);
    }

    /// The user's switch, and false once recording cannot happen at all
    /// (closed, the file failed, or a forked child of the tracer's process).
    #[getter]
    fn enabled(&self) -> bool {
        self.inner.enabled() && self.inner.active()
    }

    /// Why the file stopped being written (`None` while it works).
    #[getter]
    fn error(&self) -> Option<String> {
        self.inner.failure()
    }

    /// Records only these steps from now on (`None`: every step).
    #[pyo3(signature = (steps=None))]
    fn set_steps(&self, steps: Option<Vec<i64>>) {
        self.inner.set_steps(steps);
    }

    #[getter]
    fn steps(&self) -> Option<Vec<i64>> {
        self.inner.steps()
    }

    fn flush(&self, py: Python<'_>) {
        sink_result(py, py.detach(|| self.inner.flush()));
    }

    /// Flushes and releases the file; later calls record nothing.
    fn close(&self, py: Python<'_>) {
        sink_result(py, py.detach(|| self.inner.close()));
    }

    #[getter]
    fn closed(&self) -> bool {
        self.inner.closed()
    }

    /// The absolute path of the file (`None` once closed).
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.inner.path()
    }

    /// The value stats recorded, in record order.
    #[getter]
    fn stats(&self) -> Vec<&'static str> {
        self.inner.stats().values().iter().map(|s| s.name()).collect()
    }

    #[getter]
    fn modules(&self) -> Vec<String> {
        self.inner.modules().to_vec()
    }

    /// Records written so far.
    #[getter]
    fn records(&self) -> u64 {
        self.inner.records()
    }
}
