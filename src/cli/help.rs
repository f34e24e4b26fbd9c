//! The long help of each command, shown after its flags (`--help`) and in
//! its manual page: what it reads, examples, and its exit codes. The flags
//! themselves, with their one-line help, are in args.rs.

use crate::reasons::Category;

/// What every command reads, said once for `AFTER_HELP` and `summary`'s help.
macro_rules! inputs_help {
    () => {
        "\
Inputs: a TORCH_TRACE log (`.log` or `.log.gz`), `-` for stdin (plain or
gzip), or a directory holding them (searched recursively for
dedicated_log_torch_trace*.log[.gz], one per rank or process; without such
names, the files whose first line is a TORCH_TRACE line). Not a tlparse
output directory: pass its raw.log. Produce one with:
TORCH_TRACE=/tmp/trace python train.py
"
    };
}

pub const AFTER_HELP: &str = concat!(
    inputs_help!(),
    "
Exit codes: 0 success · 1 a check found a problem · 2 bad usage or unreadable
input · 3 internal error (please report it)."
);

/// `summary` never finds "a problem": it has no exit code 1.
pub const SUMMARY_HELP: &str = concat!(
    "\
Example:  guardscope summary /tmp/trace --trace-events /tmp/compiles.json
          (then open compiles.json in ui.perfetto.dev: one track per rank and
          frame, each compile a slice with its cause)
          guardscope summary /tmp/trace --format ndjson > compiles.ndjson
          (one JSON record per compile, for DuckDB: see docs/fleet.md)

",
    inputs_help!(),
    "
Several runs in one directory (a rerun beside the last run's log) are named
on the summary's second line; the ranks of one torchrun launch are one run.
Pick one with --latest or --run N:
Example:  guardscope summary /tmp/rerun --latest

Exit codes: 0 success · 2 bad usage or unreadable input · 3 internal error
(please report it)."
);

pub const WATCH_HELP: &str = "\
Follows DIR (a TORCH_TRACE directory, or one log file) while a job writes
into it: new `.log` files (one per rank or process) and the lines added to
each, read every 200 ms. Each recompile is one line as soon as its compile
finishes: the frame, the cause's category and culprit, the user line it
was called from, and its compile time; a frame that hits the recompile
limit gets a line saying so. No change to the training code: only
TORCH_TRACE set for the job.

Example:  guardscope watch /tmp/trace
          guardscope watch /tmp/trace --until-exit 4242 --json >> recompiles.ndjson

A half-written last line is read when it is complete; a log truncated or
replaced (rotated) is read again from its start. DIR need not exist yet.
Runs until Ctrl-C, or with --until-exit PID until that process has exited
(then reads what is left and exits 0).

Exit codes: 0 success (the process of --until-exit ended, or stdout was
closed) · 2 bad usage or an unreadable DIR · 3 internal error.";

pub const COMPLETIONS_HELP: &str = "\
Example:  guardscope completions bash > ~/.local/share/bash-completion/completions/guardscope
          guardscope completions zsh > ~/.zfunc/_guardscope   (with fpath+=~/.zfunc)
          guardscope completions fish > ~/.config/fish/completions/guardscope.fish
          guardscope completions powershell >> $PROFILE

Exit codes: 0 success · 2 bad usage.";

pub const MAN_HELP: &str = "\
Example:  guardscope man | man -l -
          guardscope man summary > guardscope-summary.1

Without COMMAND, the page of guardscope (every command, listed); with it,
the page of that command (all its flags).

Exit codes: 0 success · 2 bad usage.";

pub const RUN_HELP: &str = "\
Runs COMMAND with your environment and TORCH_TRACE set to a fresh directory
(kept, its path printed; --trace-dir to choose one), then prints the summary
of the logs it wrote: one per process, so a torchrun job's ranks are all
summarised. Ctrl-C or a SIGTERM/SIGHUP sent to guardscope reaches the
command; guardscope then still summarises what the logs hold.

Example:  guardscope run --check -- python train.py --steps 20

With --check, the check's verdict is printed instead of the summary and the
exit code is the check's (its options are those of `check`, see its --help).
--report DIR also writes the HTML page and summary.json, as `report` does.

When the command fails, its failure is one line on stderr (after what its
logs hold) and guardscope exits with the command's own code, never a pass:
its exit code as is, or 128 + the signal number when a signal ended it
(130 for Ctrl-C), as a shell reports it.

Exit codes: 0 success · 1 --check failed · 2 bad usage, a command that
cannot be started, or one that wrote no TORCH_TRACE log (nothing compiled)
· 3 internal error · otherwise the command's own failure, as above.";

pub const REHEARSE_HELP: &str = "\
Runs COMMAND as `run --check` does, with every torch.compile of every Python
process it starts given --backend (eager by default) instead of Inductor:
Dynamo decides its guards and recompiles before the backend sees a graph,
so a short run on a small config shows the recompiles the real job will
have, without code generation or autotuning. The verdict is labelled
predicted. It cannot see code paths the short run does not take (an eval
at step 1000, a layer unfrozen at epoch 3: make the short run take them).

Example:  guardscope rehearse -- python train.py --steps 20

The backend is swapped by a sitecustomize.py put first on the command's
PYTHONPATH (it runs the sitecustomize it shadows, if any); a Python started
with -I or -S skips it, and its compiles are then Inductor's.

Exit codes: 0 no predicted recompile beyond the limits · 1 the gate failed
· 2 bad usage, a command that cannot be started, or one that wrote no
TORCH_TRACE log · 3 internal error · otherwise the command's own failure,
as for `run`.";

pub const STEPS_HELP: &str = "\
Reads the per-step JSONL that guardscope.StepLogger writes (one file per rank)
and prints the slowest steps with their wall time, its ratio to the median
step without compiles of the same rank (the steps that compiled nothing:
when most steps compile, the median of all is a compile step; none there,
it says so), and the compiles inside each (recompiles with their
classified cause and source line); then how much of the run went to
compiling after the first step, and the steps at which one rank recompiled
while the others did not (they wait for it at the next collective).

Example:  guardscope steps steps_*.jsonl --trace /tmp/trace
          (the files of StepLogger(\"steps_<rank>.jsonl\"))

With --trace, each compile is joined with the TORCH_TRACE log of the same run
by compile id (and start time, which tells apart compile ids reused after
torch._dynamo.reset()); the log's detail (failed guard, attempts, log line)
is shown, and compiles that a step record does not list but that started
inside the step are added.

Exit codes: 0 success · 2 bad usage, unreadable input (also a steps file or
trace log read only in part: the output lists it) or no step records ·
3 internal error.";

pub const REPORT_HELP: &str = "\
Writes DIR/index.html (open it from disk or attach it to a CI run: no network
needed), DIR/summary.json (the same data as `summary --json`) and
DIR/compile_trace.json (the compile timeline, with --steps the steps, as a
Chrome trace for ui.perfetto.dev or chrome://tracing), then prints the
terminal summary and the page's path.

Example:  guardscope report /tmp/trace -o /tmp/trace-report --open

With -q, neither the summary nor a progress bar is printed, only the path.

The page links your source lines to the files (file:// and
vscode://file/PATH:LINE); --no-links leaves them as text.

guardscope only writes into a directory it created, or an empty one; pass
--overwrite to write into another (only index.html, summary.json and
compile_trace.json are replaced).

Exit codes: 0 success · 2 bad usage, unreadable input or unwritable output ·
3 internal error.";

const CHECK_HELP_HEAD: &str = "\
Without --baseline, every recompile counts (except --allow'ed categories).
With --baseline, only recompiles the baseline run does not also have count:
run the same steps twice, e.g. with and without new hooks, and compare.
Frames are matched by function, file and first line (frame ids shift when a
graph break is added); new frames are a warning unless --max-new-frames.
Graph breaks are matched by reason and user line; those the baseline does
not log fail the check (--max-new-graph-breaks N tolerates N).
A frame that runs eagerly, not compiled (Dynamo skipped it, e.g. for a graph
break inside a loop; its compile failed; it hit the recompile limit) fails
the check, with --baseline only one the baseline compiled
(--max-eager-frames N tolerates N).";

const CHECK_HELP_TAIL: &str = "\
Output for CI (docs/ci.md): --format sarif (upload it to GitHub code
scanning), github (annotations on the lines, in a GitHub Actions log) or
markdown (append it to $GITHUB_STEP_SUMMARY); each names the user's line of
every counted recompile, frame that runs eagerly and new graph break,
relative to --repo-root.
Example:  guardscope check /tmp/hooks --baseline /tmp/base --format sarif > guardscope.sarif

A log that cannot be read completely (a rank's file unreadable, a gzip
stream cut short) fails the check with exit 2, the problems listed in every
format and in --junit: the gate never passes on input it did not see. So
does a compile the log never finishes (a run killed mid-compile: the log is
not the whole run), unless --allow-unfinished says the run was stopped on
purpose. The format never changes the exit code.

Exit codes: 0 pass · 1 check failed · 2 bad usage or unreadable input ·
3 internal error.";

pub const DIFF_HELP: &str = "\
Aligns the records of two activation traces (JSONL from
guardscope.trace_activations, or the reference format without \"call\"; plain
or .gz) by (step, module, tensor, call), compares every stat both have, and
reports the first divergent record in A's execution order, the next ones, a
per-step summary, and records present on one side only. Both files are
streamed; memory does not grow with their size.

Tolerance: a stat is equal when |a - b| <= atol + rtol * max(|a|, |b|).
The defaults (rtol 1e-2, atol 1e-4) are for bf16 noise: bf16 keeps 8
significant bits (one rounding moves a value by up to 0.4%) and reductions add
a few roundings, while real port bugs move stats by more. For float32 parity
try --rtol 1e-5 --atol 1e-7. Shapes and dtypes must match exactly. A NaN
facing a number is a divergence; NaN on both sides, null and \"<error: ...>\"
are not comparable (counted, never a divergence); other strings are
malformed (counted as problems). A diff that compared no value fails.

Ports whose module paths differ: strip a prefix on one side, and/or rename
with regex rules (one `REGEX -> REPLACEMENT` per line, applied in order, `#`
comments; the replacement may use ${1}):

  guardscope diff ref.jsonl port.jsonl.gz --strip-prefix A=transformer. --strip-prefix B=model.
  guardscope diff ref.jsonl port.jsonl --map B=names.txt
      names.txt:  ^layers\\.(\\d+)\\.self_attn$ -> blocks.${1}.attn

Exit codes: 0 equal within tolerance · 1 divergent, no record aligned, no
stat value compared (all null, <error> or malformed), or records on one
side only (unless --allow-missing) · 2 bad usage (e.g. a
--stats name no aligned record has), unreadable file (also one read only in
part: verdict `unreadable`) or a file without records · 3 internal error.";

/// `check --help` after the flags. The --allow categories are listed from
/// the category table (src/reasons/category.rs), so a new category is in the
/// help the day its row is added; a hand-kept list had fallen behind.
pub fn check_help() -> String {
    let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    let list = crate::report::format::wrap_words(&format!("Categories for --allow: {}", names.join(" ")), 76);
    format!("{CHECK_HELP_HEAD}\n\n{}\n\n{CHECK_HELP_TAIL}", list.join("\n"))
}
