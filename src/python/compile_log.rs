//! `guardscope._native.CompileLog`: the in-process twin of a TORCH_TRACE
//! file. The Python handler on torch's structured trace logger appends each
//! event in the TORCH_TRACE text format (payloads it does not need left
//! out), and compiles are read back with the same parser, model builder and
//! classifier as logs on disk: one implementation, one set of answers.

use std::sync::Mutex;

use pyo3::prelude::*;

use crate::activations::sink::lock;
use crate::report::events::compile_events;

#[pyclass(name = "CompileLog", module = "guardscope._native", frozen)]
pub struct PyCompileLog {
    state: Mutex<State>,
}

struct State {
    text: Vec<u8>,
    lines: u64,
    /// glog timestamps carry no year; compile starts come from
    /// `compilation_metrics` anyway, this only fills gaps.
    year: i32,
}

#[pymethods]
impl PyCompileLog {
    #[new]
    fn new(year: i32) -> Self {
        PyCompileLog {
            state: Mutex::new(State {
                text: Vec::new(),
                lines: 0,
                year,
            }),
        }
    }

    /// Appends one event (an envelope line, then its payload lines); a
    /// missing final newline is added.
    fn append(&self, chunk: &str) {
        let mut s = lock(&self.state);
        s.text.extend_from_slice(chunk.as_bytes());
        if !chunk.ends_with('\n') {
            s.text.push(b'\n');
        }
        s.lines += chunk.lines().count().max(1) as u64;
    }

    /// Lines appended so far: a mark to select the compiles that come after it.
    #[getter]
    fn lines(&self) -> u64 {
        lock(&self.state).lines
    }

    #[getter]
    fn bytes(&self) -> usize {
        lock(&self.state).text.len()
    }

    /// The compiles whose first event lies on a line in `(after, upto]`, in
    /// the order they started, as a JSON list of compile events (see
    /// `src/report/events.rs`).
    fn events_json(&self, py: Python<'_>, after: u64, upto: u64) -> String {
        let (text, year) = {
            let s = lock(&self.state);
            (s.text.clone(), s.year)
        };
        py.detach(|| {
            let run = crate::load::load_text("<in-process trace>", &text, year);
            let findings = crate::analysis::analyse(&run);
            let mut events: Vec<_> = compile_events(&findings)
                .into_iter()
                .filter(|e| e.first_line > after && e.first_line <= upto)
                .collect();
            events.sort_by_key(|e| e.first_line);
            serde_json::to_string(&events).unwrap_or_else(|_| "[]".to_string())
        })
    }

    /// The whole text, in TORCH_TRACE format (for debugging and tests).
    fn text(&self) -> String {
        String::from_utf8_lossy(&lock(&self.state).text).into_owned()
    }
}
