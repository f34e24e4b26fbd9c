//! `guardscope rehearse -- COMMAND`: `run --check` with every torch.compile
//! of the command given a cheap backend. Dynamo decides guards and
//! recompiles before the backend sees a graph, so the verdict predicts the
//! real job's recompiles. The swap is guardscope's `_eager_site.py`, written
//! as a `sitecustomize.py` first on the command's PYTHONPATH: one
//! implementation, shared with `guardscope.rehearse` in Python.

use super::args::RehearseArgs;
use super::error::{CliError, Status};
use super::output::Output;
use super::run::{run_with, Predicted};
use std::ffi::OsString;

/// The sitecustomize the command's Python processes import.
const SITE: &str = include_str!("../../python/guardscope/_eager_site.py");

pub fn rehearse(args: RehearseArgs, out: Output) -> Result<Status, CliError> {
    let (run, backend) = args.into_run();
    let site = tempfile::Builder::new()
        .prefix("guardscope-rehearse-")
        .tempdir()
        .map_err(|e| CliError::BadInput(format!("cannot create the rehearsal's sitecustomize directory: {e}")))?;
    std::fs::write(site.path().join("sitecustomize.py"), SITE)
        .map_err(|e| CliError::BadInput(format!("cannot write the rehearsal's sitecustomize.py: {e}")))?;
    let mut path = OsString::from(site.path());
    if let Some(old) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
        path.push(if cfg!(windows) { ";" } else { ":" });
        path.push(old);
    }
    let predicted = Predicted {
        env: vec![
            ("PYTHONPATH", path),
            ("GUARDSCOPE_REHEARSE_BACKEND", OsString::from(&backend)),
        ],
        label: format!(
            "Predicted (eager run: every torch.compile on backend={backend}, the same Dynamo guards as \
             Inductor's). It cannot see code paths this run did not take, nor Python that -I or -S \
             keeps from importing sitecustomize."
        ),
        mark: crate::input::rehearsal::Predicted {
            level: "eager run".into(),
            backend: Some(backend.clone()),
            cannot_see: "code paths this run did not take, and Python started with -I or -S (it compiles with                          Inductor)"
                .into(),
        },
    };
    super::error::warn(&format!(
        "rehearsing: every torch.compile of the command on backend={backend}"
    ));
    let status = run_with(run, out, Some(predicted));
    drop(site);
    status
}
