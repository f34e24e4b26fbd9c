//! `guardscope._native.load`: a run read from disk by the CLI's own loader
//! and analysed once. Python reads the findings as the `summary --json`
//! document (built here once); the gate, the report and the notebook view
//! borrow the same `Findings`.

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use self_cell::self_cell;

use crate::analysis::check::{self, CheckOptions, CheckVerdict};
use crate::analysis::{self, Findings};
use crate::cli::{self, exit, CliError, InputArgs};
use crate::input::{self, InputError};
use crate::model::Run;
use crate::reasons::Category;
use crate::report::emit::{emit, Format};
use crate::report::html::{self, PageInput};
use crate::report::json;

create_exception!(
    guardscope,
    LoadError,
    PyValueError,
    "The input holds no TORCH_TRACE log guardscope can read."
);

self_cell!(
    struct Analysed {
        owner: Run,
        #[covariant]
        dependent: Findings,
    }
);

/// `Findings` keys a map by `*const Compile`, which makes it neither Send
/// nor Sync. Those pointers point into the `Run` the same cell owns and are
/// only compared, never dereferenced, and nothing mutates the cell after it
/// is built: sharing it between threads is as safe as sharing the `Run`.
struct Shared(Analysed);
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

#[pyclass(name = "LoadedRun", module = "guardscope._native", frozen)]
pub struct PyLoadedRun {
    analysed: Shared,
    /// The `summary --json` document.
    document: String,
    /// The report page's title: the input's name, as `guardscope report` has it.
    title: String,
}

impl PyLoadedRun {
    fn findings(&self) -> &Findings<'_> {
        self.analysed.0.borrow_dependent()
    }
}

/// The one-line message the CLI prints, as the Python exception it fits.
fn load_error(e: CliError) -> PyErr {
    LoadError::new_err(e.to_string())
}

fn discover_error(e: InputError) -> PyErr {
    let message = e.to_string();
    match e {
        InputError::Missing(_) => PyFileNotFoundError::new_err(message),
        InputError::Unreadable(..) => PyOSError::new_err(message),
        _ => LoadError::new_err(message),
    }
}

/// Loads TORCH_TRACE logs (files, directories, .gz) as `guardscope summary`
/// does; `latest` and `run` are its `--latest` and `--run N`.
#[pyfunction]
#[pyo3(signature = (paths, *, latest = false, run = None, verify_all = false))]
pub fn load(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    latest: bool,
    run: Option<usize>,
    verify_all: bool,
) -> PyResult<PyLoadedRun> {
    if latest && run.is_some() {
        return Err(PyValueError::new_err(
            "latest and run: pick one run or the newest, not both",
        ));
    }
    py.detach(|| {
        let found = input::discover(&paths).map_err(discover_error)?;
        let args = InputArgs {
            verify_all,
            latest,
            run,
            ..InputArgs::all(paths.clone(), true)
        };
        let loaded = cli::load::load_found(&found, &args, true).map_err(load_error)?;
        let analysed = Analysed::new(loaded, analysis::analyse);
        let document = serde_json::to_string(&json::summary(analysed.borrow_dependent()))
            .map_err(|e| PyValueError::new_err(format!("the summary document: {e}")))?;
        Ok(PyLoadedRun {
            analysed: Shared(analysed),
            document,
            title: cli::report::report_title(&paths),
        })
    })
}

#[pymethods]
impl PyLoadedRun {
    /// The `guardscope summary --json` document of the run.
    fn summary_json(&self) -> &str {
        &self.document
    }

    /// The gate's verdict, as `guardscope check` gives it: (exit code, the
    /// `--json` document, the text it prints).
    #[pyo3(signature = (*, max_recompiles = None, max_recompile_causes = None, allow = Vec::new(), max_new_frames = None, baseline = None, max_new_graph_breaks = 0, max_eager_frames = 0, allow_unfinished = false))]
    fn check(
        &self,
        max_recompiles: Option<usize>,
        max_recompile_causes: Option<usize>,
        allow: Vec<String>,
        max_new_frames: Option<usize>,
        baseline: Option<PyRef<'_, PyLoadedRun>>,
        max_new_graph_breaks: usize,
        max_eager_frames: usize,
        allow_unfinished: bool,
    ) -> PyResult<(i32, String, String)> {
        let allow = allow
            .iter()
            .map(|name| {
                Category::parse(name).ok_or_else(|| {
                    let known: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                    PyValueError::new_err(format!(
                        "allow: unknown category {name:?} (one of {})",
                        known.join(", ")
                    ))
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let (max_recompiles, max_recompile_causes) = check::budgets(max_recompiles, max_recompile_causes);
        let opts = CheckOptions {
            max_recompiles,
            max_recompile_causes,
            allow,
            max_new_frames,
            max_new_graph_breaks,
            max_eager_frames,
            allow_unfinished,
        };
        let base = baseline.as_ref().map(|b| b.findings());
        let verdict = check::check(self.findings(), base, &opts);
        let json = serde_json::to_string(&verdict).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((exit_code(&verdict), json, verdict_text(&verdict)?))
    }

    /// Writes the HTML report (index.html, summary.json, compile_trace.json)
    /// into `output` as `guardscope report` does; returns index.html's path.
    #[pyo3(signature = (output, *, overwrite = false))]
    fn report(&self, py: Python<'_>, output: PathBuf, overwrite: bool) -> PyResult<PathBuf> {
        py.detach(|| {
            let page = PageInput {
                findings: self.findings(),
                steps: &[],
                activations: None,
                title: self.title.clone(),
                options: Default::default(),
            };
            cli::report::write_report(page, &output, overwrite).map_err(|e| match e {
                CliError::Internal(why) => PyErr::new::<pyo3::exceptions::PyRuntimeError, _>(why),
                e => PyOSError::new_err(e.to_string()),
            })
        })
    }

    /// The report's verdict and "What to fix" cards, as an HTML fragment.
    fn repr_html(&self) -> PyResult<String> {
        html::render_fragment(self.findings())
            .map_err(|e| PyErr::new::<pyo3::exceptions::PyRuntimeError, _>(format!("rendering: {e:?}")))
    }
}

/// `guardscope check`'s exit status for this verdict.
fn exit_code(v: &CheckVerdict) -> i32 {
    if v.passed {
        exit::OK
    } else if !v.unread_inputs.is_empty() {
        exit::BAD_INPUT
    } else {
        exit::FOUND_PROBLEM
    }
}

/// The verdict as `guardscope check` prints it to a pipe (no colour).
fn verdict_text(v: &CheckVerdict) -> PyResult<String> {
    let mut out = Vec::new();
    emit(
        v,
        Format::Text {
            width: 160,
            colour: false,
        },
        &mut out,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
