//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.

use crate::analysis::{self, check::CheckOptions};
use crate::load;
use crate::model::Run;
use crate::reasons::Category;
use crate::records;
use crate::report::output_dir::ReportDir;
use crate::report::{self, json, terminal};
use crate::trace::ParseOptions;
use clap::{Args, Parser, Subcommand};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// Exit codes, documented in `--help` and the README.
pub mod exit {
    pub const OK: i32 = 0;
    /// A check or diff found a problem (used by `check` and `diff`).
    pub const FOUND_PROBLEM: i32 = 1;
    /// Bad usage, or input that cannot be read or holds no trace events.
    pub const BAD_INPUT: i32 = 2;
    /// A bug in guardscope (never a panic's 101).
    pub const INTERNAL: i32 = 3;
}

const AFTER_HELP: &str = "\
Inputs: a TORCH_TRACE log (`.log` or `.log.gz`), or a directory holding them
(searched recursively for dedicated_log_torch_trace*.log[.gz], one per rank or
process). Produce one with:  TORCH_TRACE=/tmp/trace python train.py

Exit codes: 0 success · 1 a check found a problem · 2 bad usage or unreadable
input · 3 internal error (please report it).";

#[derive(Parser, Debug)]
#[command(
    name = "guardscope",
    version,
    about = "Explains torch.compile recompilations: which frame, which guard, what it cost.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarize the compiles of a run: frames, recompiles and their reasons.
    #[command(after_help = AFTER_HELP)]
    Summary(SummaryArgs),
    /// Fail (exit 1) when a run recompiles, or recompiles more than a baseline run.
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
    /// Write an HTML report (one self-contained page) and summary.json.
    #[command(after_help = REPORT_HELP)]
    Report(ReportArgs),
}

const REPORT_HELP: &str = "\
Writes DIR/index.html (open it from disk or attach it to a CI run: no network
needed) and DIR/summary.json (the same data as `summary --json`), then prints
the terminal summary and the page's path.

Example:  guardscope report /tmp/trace -o /tmp/trace-report --open

guardscope only writes into a directory it created, or an empty one; pass
--overwrite to write into another (only index.html and summary.json are
replaced).

Exit codes: 0 success · 2 bad usage, unreadable input or unwritable output ·
3 internal error.";

#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Directory to write the report into.
    #[arg(short, long, value_name = "DIR", default_value = "guardscope-report")]
    pub output: PathBuf,
    /// Per-step JSONL written by guardscope.StepLogger (one file per rank; repeatable):
    /// step durations are drawn on the timeline.
    #[arg(long, value_name = "FILE")]
    pub steps: Vec<PathBuf>,
    /// Activation-trace JSONL written by guardscope.trace_activations (repeatable).
    #[arg(long, value_name = "FILE")]
    pub activations: Vec<PathBuf>,
    /// Write into DIR even if it holds files guardscope did not write.
    #[arg(long)]
    pub overwrite: bool,
    /// Open the report in the default browser when done.
    #[arg(long)]
    pub open: bool,
    /// Do not print the terminal summary.
    #[arg(short, long)]
    pub quiet: bool,
}

const CHECK_HELP: &str = "\
Without --baseline, every recompile counts (except --allow'ed categories).
With --baseline, only recompiles the baseline run does not also have count:
run the same steps twice, e.g. with and without new hooks, and compare.
Frames are matched by function, file and first line (frame ids shift when a
graph break is added); new frames are a warning unless --max-new-frames.

Categories for --allow: shape_lazy_buffer shape_input stride dtype device
requires_grad closure_hook_state closure_state global_var torch_global_state
nn_module_attr object_id type_change constant_value container_len dict_keys
hooks_changed cache_limit other

Exit codes: 0 pass · 1 check failed · 2 bad usage or unreadable input ·
3 internal error.";

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Baseline run (logs or directories) of the same program to compare against.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub baseline: Vec<PathBuf>,
    /// Recompiles tolerated before failing.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_recompiles: usize,
    /// Do not count recompiles of this category (repeatable), e.g. nn_module_attr for train/eval switches.
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub allow: Vec<Category>,
    /// Fail when the run has more than N frames the baseline lacks (default: warn only).
    #[arg(long, value_name = "N")]
    pub max_new_frames: Option<usize>,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the verdict as JUnit XML to FILE, for CI test reports.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

fn parse_category(name: &str) -> Result<Category, String> {
    Category::parse(name).ok_or_else(|| {
        let all: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        format!("unknown category '{name}'; one of: {}", all.join(", "))
    })
}

#[derive(Args, Debug)]
pub struct InputArgs {
    /// TORCH_TRACE log files or directories.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Only verify the md5 of payloads guardscope reads (faster on huge logs;
    /// the others are counted as unchecked).
    #[arg(long)]
    pub fast: bool,
}

#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the model as JSON (a stable contract; see the README).
    #[arg(long)]
    pub json: bool,
    /// List every parse problem with file:line.
    #[arg(short, long)]
    pub verbose: bool,
}

/// Runs the CLI on `args` (including the program name) and returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { exit::BAD_INPUT } else { exit::OK };
            let _ = e.print();
            return code;
        }
    };
    let result = std::panic::catch_unwind(|| dispatch(cli));
    match result {
        Ok(code) => code,
        Err(_) => {
            eprintln!("guardscope: internal error (a bug); please report it with the command and, if you can, the log");
            exit::INTERNAL
        }
    }
}

fn dispatch(cli: Cli) -> i32 {
    match cli.command {
        Command::Summary(args) => summary(args),
        Command::Check(args) => check(args),
        Command::Report(args) => report(args),
    }
}

fn parse_options(input: &InputArgs) -> ParseOptions {
    ParseOptions {
        verify_all_payloads: !input.fast,
        ..ParseOptions::default()
    }
}

/// Loads a run, or prints the one-line reason it cannot and gives exit code 2.
fn load_run(paths: &[PathBuf], input: &InputArgs) -> Result<Run, i32> {
    let run = load::load(paths, &parse_options(input)).map_err(|e| {
        eprintln!("guardscope: {e}");
        exit::BAD_INPUT
    })?;
    if run.envelope_count() == 0 {
        // The file-level verdict (line 0) says more than the first bad line.
        let problems = &run.problems.first;
        let why = problems.iter().find(|p| p.line == 0).or(problems.first());
        let why = why.map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no TORCH_TRACE events found: {why}");
        return Err(exit::BAD_INPUT);
    }
    Ok(run)
}

fn check(args: CheckArgs) -> i32 {
    let candidate = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let baseline = if args.baseline.is_empty() {
        None
    } else {
        match load_run(&args.baseline, &args.input) {
            Ok(run) => Some(run),
            Err(code) => return code,
        }
    };
    let opts = CheckOptions {
        max_recompiles: args.max_recompiles,
        allow: args.allow,
        max_new_frames: args.max_new_frames,
    };
    let verdict = analysis::check::check(&candidate, baseline.as_ref(), &opts);
    if let Some(path) = &args.junit {
        if let Err(e) = std::fs::write(path, report::check::junit(&verdict)) {
            eprintln!("guardscope: cannot write {}: {e}", path.display());
            return exit::BAD_INPUT;
        }
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &verdict)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        report::check::write_verdict(&mut out, &verdict)
    };
    match written {
        Ok(()) | Err(_) if verdict.passed => exit::OK,
        _ => exit::FOUND_PROBLEM,
    }
}

fn summary(args: SummaryArgs) -> i32 {
    let run = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &json::summary(&run))
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: args.verbose,
        };
        terminal::write_summary(&mut out, &run, &opts)
    };
    match written {
        Ok(()) => exit::OK,
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("guardscope: cannot write output: {e}");
            exit::BAD_INPUT
        }
    }
}

fn report(args: ReportArgs) -> i32 {
    let run = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let mut problems = crate::trace::Problems::default();
    let mut steps = Vec::new();
    for path in &args.steps {
        match records::read_steps(path, &mut problems) {
            Ok(s) => steps.extend(s),
            Err(e) => {
                eprintln!("guardscope: {}: {e}", path.display());
                return exit::BAD_INPUT;
            }
        }
    }
    if !args.steps.is_empty() && steps.is_empty() {
        let why = problems.first.first().map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no step records in --steps files: {why}");
        return exit::BAD_INPUT;
    }
    for path in &args.activations {
        if let Err(e) = std::fs::metadata(path) {
            eprintln!("guardscope: {}: {e}", path.display());
            return exit::BAD_INPUT;
        }
    }
    let mut run = run;
    run.problems.merge(problems);

    let title = report_title(&args.input.paths);
    let activations: Vec<String> = args.activations.iter().map(|p| p.display().to_string()).collect();
    let html = match report::html::render(&report::html::PageInput {
        run: &run,
        steps: &steps,
        activations: &activations,
        title,
    }) {
        Ok(html) => html,
        Err(e) => {
            eprintln!("guardscope: internal error rendering the report: {e:?}");
            return exit::INTERNAL;
        }
    };
    let summary_json = match serde_json::to_vec_pretty(&json::summary(&run)) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("guardscope: internal error writing summary.json: {e}");
            return exit::INTERNAL;
        }
    };
    let written = ReportDir::prepare(&args.output, args.overwrite)
        .map_err(|e| e.to_string())
        .and_then(|dir| {
            let fail = |e: io::Error| format!("{}: {e}", args.output.display());
            dir.write("summary.json", &summary_json).map_err(fail)?;
            dir.write("index.html", html.as_bytes()).map_err(fail)
        });
    let index = match written {
        Ok(path) => path,
        Err(e) => {
            eprintln!("guardscope: {e}");
            return exit::BAD_INPUT;
        }
    };
    if !args.quiet {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: false,
        };
        let _ = terminal::write_summary(&mut out, &run, &opts).and_then(|_| writeln!(out));
    }
    println!("Report: {}", index.display());
    if args.open {
        open_in_browser(&index);
    }
    exit::OK
}

/// The page title: the input's name, e.g. the TORCH_TRACE directory.
fn report_title(paths: &[PathBuf]) -> String {
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string())
    };
    match paths {
        [one] => name(one),
        [first, rest @ ..] => format!("{} and {} more", name(first), rest.len()),
        [] => "guardscope report".to_string(),
    }
}

fn open_in_browser(path: &std::path::Path) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(path).spawn() {
        eprintln!(
            "guardscope: could not open a browser ({opener}: {e}); open {} yourself",
            path.display()
        );
    }
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(if io::stdout().is_terminal() { 120 } else { 160 })
}
