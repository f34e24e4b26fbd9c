//! The `guardscope._native` extension module (feature "python"). It is thin:
//! the Python package calls into the same library the CLI uses.

use pyo3::prelude::*;

mod compile_log;
mod loaded;
mod tracer;

/// Runs the guardscope CLI with `argv` (argv[0] is the program name) and
/// returns its exit code; this is what the `guardscope` console script calls.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> i32 {
    py.detach(|| crate::cli::run(argv))
}

/// `file:line` as guardscope's text shows it (`report::paths::display_site`):
/// the Python helpers' messages name a line as the CLI does, from one copy.
#[pyfunction]
fn display_site(site: &str) -> String {
    crate::report::paths::display_site(site)
}

/// Whether a guard tree line is one the parser keeps
/// (`trace::payload::is_kept_guard_line`): the in-process compile log keeps
/// the same lines a TORCH_TRACE file's parse does, from one copy.
#[pyfunction]
fn is_kept_guard_line(line: &str) -> bool {
    crate::trace::is_kept_guard_line(line.as_bytes())
}

/// The tensor and dim of a size guard that failed (`tensor 'x' size
/// mismatch at index 0. ...` -> `("x", 0)`), read by the one reader
/// (`reasons::subject`): a rehearsal marks that dim dynamic to try the fix.
#[pyfunction]
fn size_guard(guard: &str) -> Option<(String, usize)> {
    let tensor = crate::reasons::subject::guarded_tensor(guard)?;
    Some((tensor.to_string(), crate::reasons::subject::size_mismatch_dim(guard)?))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(display_site, m)?)?;
    m.add_function(wrap_pyfunction!(is_kept_guard_line, m)?)?;
    m.add_function(wrap_pyfunction!(size_guard, m)?)?;
    m.add_class::<tracer::PyTracer>()?;
    m.add_class::<compile_log::PyCompileLog>()?;
    m.add_class::<loaded::PyLoadedRun>()?;
    m.add_function(wrap_pyfunction!(loaded::load, m)?)?;
    m.add("LoadError", m.py().get_type::<loaded::LoadError>())?;
    let stats: Vec<&str> = crate::activations::Stat::ALL.iter().map(|s| s.name()).collect();
    m.add("STATS", stats)?;
    let categories: Vec<&str> = crate::reasons::Category::ALL.iter().map(|c| c.name()).collect();
    m.add("CATEGORIES", categories)?;
    Ok(())
}
