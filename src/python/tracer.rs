//! `guardscope._native.Tracer`: the activation-trace state and sink, as seen
//! from the Python hooks (`python/guardscope/_hooks.py`).

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::activations::reduced::parts;
use crate::activations::{StatSet, TensorInfo, Tracer, Value};

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

fn to_value(v: Option<ValueArg>) -> Value {
    match v {
        Some(ValueArg::Number(x)) => Value::Number(x),
        Some(ValueArg::Message(message)) => Value::Error(message),
        None => Value::Undefined,
    }
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
        module: usize,
        tensor: &str,
        call: u64,
        ptr: usize,
        numel: usize,
        shape: Vec<i64>,
        dtype: &str,
    ) -> PyResult<()> {
        if numel > 0 && (ptr == 0 || !ptr.is_multiple_of(std::mem::align_of::<f32>())) {
            return Err(PyValueError::new_err(format!("bad float32 data pointer {ptr:#x}")));
        }
        let data: &[f32] = if numel == 0 {
            &[]
        } else {
            // SAFETY: per the contract above, `ptr` is the aligned start of `numel`
            // initialized f32s that the caller keeps alive while we hold the GIL.
            unsafe { std::slice::from_raw_parts(ptr as *const f32, numel) }
        };
        let info = TensorInfo {
            module,
            tensor,
            call,
            shape: &shape,
            dtype,
        };
        Ok(self.inner.record_data(&info, data)?)
    }

    /// Records values computed in Python, one per value stat in order: a
    /// float, `None` (no value), or a string (the error that stat raised).
    #[allow(clippy::too_many_arguments)]
    fn record_values(
        &self,
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
        Ok(self
            .inner
            .record_values(&info, values.into_iter().map(to_value).collect())?)
    }

    /// Records call `call` of `module` from stats reduced in a compiled
    /// graph: `len` contiguous float64 at `ptr`, one per part of
    /// `reduced_parts` for each tensor of `layout` (see `activations::reduced`).
    ///
    /// The caller (guardscope's op body) passes `t.data_ptr()` of a
    /// contiguous float64 CPU tensor it keeps alive for the whole call.
    fn record_reduced(
        &self,
        module: usize,
        call: u64,
        layout: &str,
        sizes: Vec<i64>,
        ptr: usize,
        len: usize,
    ) -> PyResult<()> {
        if len > 0 && (ptr == 0 || !ptr.is_multiple_of(std::mem::align_of::<f64>())) {
            return Err(PyValueError::new_err(format!("bad float64 data pointer {ptr:#x}")));
        }
        let values: &[f64] = if len == 0 {
            &[]
        } else {
            // SAFETY: per the contract above, `ptr` is the aligned start of `len`
            // initialized f64s that the caller keeps alive while we hold the GIL.
            unsafe { std::slice::from_raw_parts(ptr as *const f64, len) }
        };
        Ok(self.inner.record_reduced(module, call, layout, &sizes, values)?)
    }

    /// What a compiled graph reduces for each tensor, in order.
    #[getter]
    fn reduced_parts(&self) -> Vec<&'static str> {
        parts(self.inner.stats().need()).iter().map(|p| p.name()).collect()
    }

    /// Moves to `step`; a change restarts call counts and flushes the file.
    fn set_step(&self, py: Python<'_>, step: i64) -> PyResult<()> {
        Ok(py.detach(|| self.inner.set_step(step))?)
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

    #[getter]
    fn enabled(&self) -> bool {
        self.inner.enabled()
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

    fn flush(&self, py: Python<'_>) -> PyResult<()> {
        Ok(py.detach(|| self.inner.flush())?)
    }

    /// Flushes and releases the file; later calls record nothing.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        Ok(py.detach(|| self.inner.close())?)
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
