//! `guardscope summary`: the run's frames, recompiles and their causes.

use super::args::SummaryArgs;
use super::error::{CliError, Status};
use super::load::load_run;
use super::output::Output;
use crate::analysis::{self, Findings};
use crate::report::emit::SummaryView;
use crate::report::trace_events;
use std::io::{self, Write};
use std::path::Path;

pub fn summary(args: SummaryArgs, out: Output) -> Result<Status, CliError> {
    let run = load_run(&args.input.paths, &args.input, false)?;
    let findings = analysis::analyse(&run);
    if let Some(path) = &args.trace_events {
        write_trace(path, &findings)
            .map_err(|e| CliError::BadInput(format!("--trace-events {}: {e}", path.display())))?;
    }
    let view = SummaryView {
        findings: &findings,
        verbose: args.verbose,
    };
    out.print(&view)?;
    Ok(Status::Success)
}

/// Written to a temporary beside `path`, then renamed: an interrupted run
/// leaves the previous file, never half a trace.
fn write_trace(path: &Path, findings: &Findings) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".guardscope-trace.");
    #[cfg(unix)]
    {
        // A plain create's mode (0666 less the umask), not tempfile's 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    {
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        trace_events::write(&mut w, findings, &[])?;
        w.flush()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
