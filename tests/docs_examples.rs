//! Every example in the README and docs runs as written.
//!
//! - `$ guardscope ...` transcripts: the real binary's output equals the block.
//! - shell blocks, inline `guardscope ...` spans and the `Example:` lines of
//!   `--help`: each guardscope command runs (placeholders below) and is not a
//!   usage error, so a renamed flag fails here.
//! - ```python blocks: run by tests/python/test_docs_examples.py.
//! - every other block is in `NOT_RUN` with the reason, and that list may not
//!   go stale: a block neither checked nor listed fails the test.

mod common;

use common::root;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SUBCOMMANDS: [&str; 10] = [
    "summary",
    "check",
    "report",
    "diff",
    "steps",
    "run",
    "completions",
    "man",
    "watch",
    "rehearse",
];

/// The width the transcripts were made at: the README's summary wraps its
/// advice and shortens guards to fit 110 columns.
const DOC_COLUMNS: &str = "110";

/// What the docs' placeholders stand for. `/tmp/trace` is the TORCH_TRACE log
/// of the run whose StepLogger records are `steps_*.jsonl`, so the steps
/// examples join a real pair. Paths under `samples/` and `tests/` are of this checkout;
/// anything else (output files and directories) lands in a temporary cwd.
const PLACEHOLDERS: &[(&str, &[&str])] = &[
    ("/tmp/trace", &["samples/steps/collision_trace"]),
    ("/tmp/hooks", &["samples/traces/collision"]),
    ("/tmp/base", &["samples/traces/collision_fixed"]),
    // A directory holding two runs of the same script.
    ("/tmp/rerun", &["tests/data/two_runs"]),
    // A pull request's run beside its base branch's (docs/ci.md, README).
    ("/tmp/pr", &["samples/traces/collision"]),
    // A run's output directory holding its step files (a Trainer's output_dir).
    ("./out", &["samples/steps/ranks"]),
    ("/tmp/big.log", &["samples/traces/collision"]),
    ("/tmp/trace-report", &["trace-report"]),
    ("/tmp/compiles.json", &["compiles.json"]),
    ("SHELL", &["bash"]),
    ("COMMAND", &["summary"]),
    // The shell expands the glob; StepLogger("steps_<rank>.jsonl") of a one-rank run.
    ("steps_*.jsonl", &["samples/steps/collision.jsonl"]),
    ("steps_0.jsonl", &["samples/steps/collision.jsonl"]),
    ("base.jsonl", &["samples/activations/base.jsonl.gz"]),
    ("ported.jsonl", &["samples/activations/perturbed.jsonl.gz"]),
    ("ref.jsonl", &["samples/activations/base.jsonl.gz"]),
    ("port.jsonl", &["samples/activations/renamed.jsonl.gz"]),
    ("port.jsonl.gz", &["samples/activations/renamed.jsonl.gz"]),
    ("a.jsonl", &["samples/activations/base.jsonl.gz"]),
    ("a.jsonl.gz", &["samples/activations/base.jsonl.gz"]),
    ("b_equal.jsonl", &["samples/activations/base_again.jsonl.gz"]),
    ("b_equal.jsonl.gz", &["samples/activations/base_again.jsonl.gz"]),
    ("b_div.jsonl", &["samples/activations/perturbed.jsonl.gz"]),
    // stdin: the docs pipe a log in; here the same kind of log is named.
    ("-", &["samples/traces/collision/dedicated_log_torch_trace.log.gz"]),
    // tlparse's copy of a log is a log.
    (
        "tl_out/raw.log",
        &["samples/traces/collision/dedicated_log_torch_trace.log.gz"],
    ),
    // `guardscope run -- python train.py`: a tiny real torch script that
    // recompiles once (see `run_placeholder` for the interpreter).
    ("train.py", &["tests/run/recompiling.py"]),
    // A job's stderr with TORCH_LOGS=recompiles (docs/text-logs.md).
    (
        "job.err",
        &["tests/textlogs/logs/torch2.15.0/shapes_then_hook/stderr.txt"],
    ),
    // `watch --until-exit PID`: the pid is that of a short sleeper (see `watch_until`).
    ("4242", &["PID"]),
];

/// `guardscope watch` runs until the process of `--until-exit` ends: here
/// a one-second sleeper, named in place of the docs' pid (or added).
fn watch_until(args: &mut Vec<String>) -> std::process::Child {
    let sleeper = Command::new("sleep").arg("1").spawn().unwrap();
    let pid = sleeper.id().to_string();
    match args.iter().position(|a| a == "PID") {
        Some(i) => args[i] = pid,
        None => args.extend(["--until-exit".to_string(), pid]),
    }
    sleeper
}

/// The programs `guardscope run` examples start, as this machine has them:
/// the tests' Python with torch, and torchrun through it.
fn run_placeholder(word: &str) -> Option<Vec<String>> {
    let python = || common::python().to_string_lossy().into_owned();
    match word {
        "python" => Some(vec![python()]),
        "torchrun" => Some(vec![python(), "-m".into(), "torch.distributed.run".into()]),
        _ => None,
    }
}

/// Inputs for inline spans that name a command and flags but leave the input
/// to the table around them (`guardscope summary --verify-all`).
fn default_inputs(command: &str) -> &'static [&'static str] {
    match command {
        "diff" => &[
            "samples/activations/base.jsonl.gz",
            "samples/activations/base_again.jsonl.gz",
        ],
        "steps" => &["samples/steps/collision.jsonl"],
        "man" => &[],
        "completions" => &["bash"],
        _ => &["samples/traces/collision"],
    }
}

/// The exit codes each command documents for a run that is not an error:
/// `check` and `diff` fail with 1 on a finding (README, "Exit codes").
fn allowed_codes(command: &str) -> &'static [i32] {
    match command {
        "check" | "diff" | "run" | "rehearse" => &[0, 1],
        _ => &[0],
    }
}

/// Command lines that are not guardscope's: (how the line starts, why it is not run).
const OTHER_COMMANDS: &[(&str, &str)] = &[
    ("TORCH_TRACE=", "runs the reader's own training script"),
    ("TORCH_LOGS=", "runs the reader's own training script"),
    ("pip install", "installs the package: a build, and network"),
    ("make test", "runs every test, this one included"),
    (
        ".venv/bin/python samples/generate.py",
        "regenerates the samples with real torch (minutes)",
    ),
    ("python bench/", "a benchmark (minutes); its figures are measurements"),
    (
        ".venv/bin/python bench/",
        "a benchmark (minutes); its figures are measurements",
    ),
    (
        "bench/run.sh",
        "the benchmark: makes logs with torch and times tools (minutes); its figures are measurements",
    ),
    (
        "for f in tests/corpus/",
        "builds the benchmark's input from the corpus (shell loop)",
    ),
    ("for i in ", "builds the benchmark's input from the corpus (shell loop)"),
];

/// Blocks that are not commands: (file, how the block starts, why it is not run).
const NOT_RUN: &[(&str, &str, &str)] = &[
    (
        "docs/performance.md",
        "bench/cache/job_1024MB.err: 1025 MB, 90 Dynamo lines",
        "a benchmark's transcript (bench/text_log.sh): measured times",
    ),
    (
        "docs/rehearse.md",
        "0/8 [cache_limit] verified",
        "a Fix as str() prints it; tests/python/test_rehearse.py checks the fix and its replay",
    ),
    (
        "docs/rehearse.md",
        "GuardscopeCallback rehearsed",
        "a callback's printed prediction (its run, cut); tests/python/test_integration_*.py check its lines",
    ),
    (
        "docs/rehearse.md",
        "unseen: plan_raised",
        "an unseen entry as check() prints it; tests/python/test_rehearse.py checks its parts",
    ),
    (
        "docs/watch.md",
        "12:54:10.394",
        "output of a live run (its clock); the same events are checked by tests/watch_command.rs",
    ),
    (
        "docs/watch.md",
        "{\"event\"",
        "output of a live run; its fields are checked by tests/watch_command.rs",
    ),
    ("ARCHITECTURE.md", "files -> input", "a diagram"),
    (
        "README.md",
        "from guardscope.integrations.transformers import GuardscopeCallback",
        "one line of a Trainer run (no model or data); the callbacks' runnable examples are docs/python.md's, run by \
         test_docs_examples.py, and the real Trainer and Lightning runs are tests/python/test_integration_*.py",
    ),
    (
        "docs/ci.md",
        "name: recompile gate",
        "a GitHub Actions workflow (YAML); its guardscope commands are run from docs/ci.md's shell block",
    ),
    (
        "docs/check.md",
        "{",
        "an excerpt of check --format sarif; tests/check_formats.rs validates the whole log against the schema",
    ),
    (
        "ARCHITECTURE.md",
        "src/input/",
        "a map of the source tree (each path is checked to exist)",
    ),
    (
        "docs/json.md",
        "{\"frames\"",
        "schema notation (each key is checked against summary --json)",
    ),
    (
        "docs/fleet.md",
        "CREATE VIEW compiles",
        "SQL: run with duckdb by tests/python/test_ndjson_duckdb.py",
    ),
    (
        "docs/diff.md",
        "{\"verdict\"",
        "schema notation (each key is checked against diff --json)",
    ),
    (
        "docs/python.md",
        "{\"module\"",
        "output: compared by tests/python/test_docs_examples.py",
    ),
    (
        "docs/python.md",
        "WARNING:guardscope:step ",
        "output: compared by tests/python/test_docs_examples.py",
    ),
    (
        "docs/python.md",
        "guardscope.RecompileError",
        "output: compared by tests/python/test_docs_examples.py",
    ),
    (
        "docs/python.md",
        ".venv/bin/python bench/step_overhead.py",
        "a benchmark's transcript: measured times",
    ),
];

struct Block {
    file: String,
    line: usize,
    info: String,
    text: String,
}

impl Block {
    fn name(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

fn doc_files() -> Vec<String> {
    let mut files: Vec<String> = ["README.md", "ARCHITECTURE.md", "samples/README.md"]
        .map(String::from)
        .to_vec();
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The fenced blocks of a markdown file, and the text outside them.
fn parse(file: &str) -> (Vec<Block>, String) {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let (mut blocks, mut prose, mut open) = (Vec::new(), String::new(), None::<Block>);
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => {
                    open = Some(Block {
                        file: file.into(),
                        line: i + 2,
                        info: info.trim().into(),
                        text: String::new(),
                    })
                }
            }
        } else if let Some(block) = open.as_mut() {
            block.text.push_str(line);
            block.text.push('\n');
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    assert!(open.is_none(), "{file}: a code block is never closed");
    (blocks, prose)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[String], cwd: &Path, path_env: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(args)
        .current_dir(cwd)
        .env("COLUMNS", DOC_COLUMNS)
        // `--open` finds the stub opener of `Scratch`, not a real browser.
        .env("PATH", path_env)
        // `run` keeps its trace directory: in the scratch cwd, removed after.
        .env("TMPDIR", cwd)
        .output()
        .expect("guardscope runs");
    Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A temporary cwd for the commands (their output files land there), with a
/// stub `xdg-open` on its PATH.
struct Scratch {
    dir: tempfile::TempDir,
    bin: PathBuf,
}

fn scratch() -> Scratch {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for opener in ["xdg-open", "open"] {
        let stub = bin.join(opener);
        std::fs::write(&stub, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    Scratch { dir, bin }
}

/// A command line's words: `#` comments, redirections and anything before
/// the program (`/usr/bin/time -f "..."`) dropped; `[--json]` taken as given.
fn words(line: &str) -> Vec<String> {
    let line = line.split(" #").next().unwrap();
    // Output redirected or piped on: not guardscope's arguments.
    let line = [" > ", " >> ", " | "]
        .iter()
        .fold(line, |l, cut| l.split(cut).next().unwrap());
    line.split_whitespace()
        .map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string())
        .collect()
}

/// guardscope's arguments in a command line, if it runs guardscope.
fn guardscope_args(line: &str) -> Option<Vec<String>> {
    let words = words(line.trim());
    let cargo = ["cargo", "run", "--release", "--"];
    if words.len() > 4 && words[..4] == cargo {
        return Some(words[4..].to_vec());
    }
    let at = words
        .iter()
        .position(|w| w == "guardscope" || w.ends_with("/guardscope"))?;
    Some(words[at + 1..].to_vec())
}

/// Runs one documented guardscope command with its placeholders replaced.
/// Returns an error message, or `None` when it ran as documented.
fn check_command(origin: &str, args: &[String], scratch: &Scratch) -> Option<String> {
    let command = args.first().map(String::as_str).unwrap_or("");
    let mut args = args.to_vec();
    let runs = command == "run" || command == "rehearse";
    if runs && !args.iter().any(|a| a == "--") {
        // `guardscope run` named in prose runs the placeholder script.
        args.extend(["--", "python", "train.py"].map(String::from));
    }
    let mut real: Vec<String> = Vec::new();
    for arg in &args {
        if let Some(program) = run_placeholder(arg).filter(|_| runs) {
            real.extend(program);
        } else if let Some((_, to)) = PLACEHOLDERS.iter().find(|(from, _)| from == arg) {
            real.extend(to.iter().map(|t| t.to_string()));
        } else if arg.starts_with("/tmp/") {
            return Some(format!(
                "{origin}: `{arg}` is in no placeholder of tests/docs_examples.rs"
            ));
        } else {
            real.push(arg.clone());
        }
    }
    if SUBCOMMANDS.contains(&command) && !real[1..].iter().any(|a| !a.starts_with('-')) {
        real.extend(default_inputs(command).iter().map(|s| s.to_string()));
    }
    let sleeper = (command == "watch").then(|| watch_until(&mut real));
    let real: Vec<String> = real
        .into_iter()
        .map(|a| {
            if a.starts_with("samples/")
                || a.starts_with("tests/run/")
                || a.starts_with("tests/data/")
                || a.starts_with("tests/textlogs/")
            {
                root().join(a).to_string_lossy().into_owned()
            } else {
                a
            }
        })
        .collect();
    let out = run(&real, scratch.dir.path(), &scratch.bin);
    if let Some(mut sleeper) = sleeper {
        let _ = sleeper.wait();
    }
    let allowed = if command.starts_with('-') {
        &[0][..]
    } else {
        allowed_codes(command)
    };
    if allowed.contains(&out.code) && !out.stderr.contains("unexpected argument") {
        None
    } else {
        Some(format!(
            "{origin}: `guardscope {}` exited {} (documented: {allowed:?}), run as {real:?}:\n{}",
            args.join(" "),
            out.code,
            out.stderr
        ))
    }
}

/// A `$ guardscope ...` block: the command's stdout must be the rest of the block.
fn check_transcript(block: &Block) -> Option<String> {
    let (command, expected) = block.text.split_once('\n').unwrap();
    let args: Vec<String> = command
        .strip_prefix("$ guardscope ")
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    // The samples name their scripts by a path no checkout has, so every
    // checkout prints them as its own (tests/readme_any_clone.rs runs the
    // README's command from a copy elsewhere).
    let scratch = scratch();
    let out = run(&args, &root(), &scratch.bin);
    if !allowed_codes(&args[0]).contains(&out.code) || out.stdout != expected {
        return Some(format!(
            "{}: `{command}` (COLUMNS={DOC_COLUMNS}) exited {} and printed:\n{}{}\nnot the block:\n{expected}",
            block.name(),
            out.code,
            out.stdout,
            out.stderr
        ));
    }
    None
}

/// Every `"key"` of a schema block that is a key (not a value: those sit
/// beside `|`), and every key in `value`.
fn schema_keys(schema: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let parts: Vec<&str> = schema.split('"').collect();
    for i in (1..parts.len()).step_by(2) {
        let (word, before, after) = (parts[i], parts[i - 1], parts.get(i + 1).copied().unwrap_or(""));
        let is_key = word.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && !before.trim_end().ends_with('|')
            && !after.trim_start().starts_with('|');
        if is_key {
            keys.push(word.to_string());
        }
    }
    keys
}

fn json_keys(value: &serde_json::Value, into: &mut std::collections::BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                into.insert(k.clone());
                json_keys(v, into);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_keys(v, into)),
        _ => {}
    }
}

fn check_schema(block: &Block, outputs: &[Vec<&str>]) -> Option<String> {
    let mut real = std::collections::BTreeSet::new();
    for args in outputs {
        let out = common::guardscope(args);
        json_keys(&serde_json::from_str(&out.stdout).expect("JSON"), &mut real);
    }
    let missing: Vec<String> = schema_keys(&block.text)
        .into_iter()
        .filter(|k| !real.contains(k))
        .collect();
    (!missing.is_empty()).then(|| format!("{}: keys no real output has: {missing:?}", block.name()))
}

fn check_file_map(block: &Block) -> Option<String> {
    let missing: Vec<&str> = block
        .text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|p| !root().join(p).exists())
        .collect();
    (!missing.is_empty()).then(|| format!("{}: no such paths: {missing:?}", block.name()))
}

#[test]
fn every_docs_example_runs_as_written() {
    let scratch = scratch();
    let mut failures: Vec<String> = Vec::new();
    // What was checked and what was not, by category, printed at the end.
    let mut tally: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut used_not_run = vec![false; NOT_RUN.len()];
    let mut note = |category: &str, what: String| tally.entry(category.to_string()).or_default().push(what);

    for file in doc_files() {
        let (blocks, prose) = parse(&file);
        for block in &blocks {
            let first = block.text.lines().next().unwrap_or("");
            if block.info == "python" {
                if file == "README.md" || file == "docs/python.md" || file == "docs/rehearse.md" {
                    note("run by tests/python/test_docs_examples.py", block.name());
                } else {
                    failures.push(format!(
                        "{}: a python block that test_docs_examples.py does not run",
                        block.name()
                    ));
                }
            } else if first.starts_with("$ guardscope ") {
                failures.extend(check_transcript(block));
                note("transcript, output compared", block.name());
            } else if let Some(i) = NOT_RUN
                .iter()
                .position(|(f, start, _)| *f == file && first.starts_with(start))
            {
                used_not_run[i] = true;
                let (_, _, why) = NOT_RUN[i];
                match (file.as_str(), i) {
                    (_, _) if why.starts_with("a map of the source tree") => failures.extend(check_file_map(block)),
                    ("docs/json.md", _) => failures.extend(check_schema(
                        block,
                        &[
                            vec!["summary", "--json", "samples/traces/collision"],
                            vec!["summary", "--json", "tests/data"],
                        ],
                    )),
                    ("docs/diff.md", _) => failures.extend(check_schema(
                        block,
                        &[
                            vec![
                                "diff",
                                "--json",
                                "samples/activations/base.jsonl.gz",
                                "samples/activations/perturbed.jsonl.gz",
                            ],
                            vec![
                                "diff",
                                "--json",
                                "samples/activations/base.jsonl.gz",
                                "samples/activations/renamed.jsonl.gz",
                            ],
                        ],
                    )),
                    _ => {}
                }
                note(&format!("not run: {why}"), block.name());
            } else {
                // A block of command lines: each is guardscope's (run) or another's (listed).
                for (n, line) in block.text.lines().enumerate() {
                    let origin = format!("{}:{}", file, block.line + n);
                    let trimmed = line.trim();
                    if trimmed.is_empty() || trimmed.starts_with('#') {
                        continue;
                    }
                    if let Some(args) = guardscope_args(trimmed) {
                        failures.extend(check_command(&origin, &args, &scratch));
                        note("command run, not a usage error", format!("{origin}: {trimmed}"));
                    } else if let Some((_, why)) = OTHER_COMMANDS.iter().find(|(start, _)| trimmed.starts_with(start)) {
                        note(&format!("not run: {why}"), format!("{origin}: {trimmed}"));
                    } else {
                        failures.push(format!(
                            "{origin}: `{trimmed}` is neither run nor listed in tests/docs_examples.rs (NOT_RUN, OTHER_COMMANDS)"
                        ));
                    }
                }
            }
        }
        // Inline examples (the README's table of commands, the performance tables).
        for span in prose.split('`').skip(1).step_by(2) {
            if let Some(rest) = span.strip_prefix("guardscope ") {
                if rest.split_whitespace().next().is_some_and(|c| SUBCOMMANDS.contains(&c)) {
                    let args = words(rest);
                    failures.extend(check_command(&format!("{file} (inline)"), &args, &scratch));
                    note("inline command run, not a usage error", format!("{file}: {span}"));
                }
            }
        }
    }
    for (listed, used) in NOT_RUN.iter().zip(&used_not_run) {
        if !used {
            failures.push(format!("NOT_RUN lists {listed:?}, which no block is any more"));
        }
    }
    for (category, items) in &tally {
        eprintln!("{category} ({}):", items.len());
        for item in items {
            eprintln!("    {item}");
        }
    }
    assert!(
        failures.is_empty(),
        "{} docs examples fail:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The `Example:` lines of `--help` (and the diff examples there) run too.
#[test]
fn help_examples_run_as_written() {
    let scratch = scratch();
    let mut failures = Vec::new();
    let mut checked = 0;
    // "" is guardscope's own --help; every subcommand's follows.
    for command in std::iter::once("").chain(SUBCOMMANDS) {
        let args: Vec<&str> = [command, "--help"].into_iter().filter(|a| !a.is_empty()).collect();
        let help = common::guardscope(&args).stdout;
        for line in help.lines() {
            // The rule file the diff example passes to --map, as its help shows it.
            if let Some(rules) = line.trim().strip_prefix("names.txt:") {
                std::fs::write(scratch.dir.path().join("names.txt"), format!("{}\n", rules.trim())).unwrap();
            }
        }
        for line in help.lines().filter(|l| !l.starts_with("Usage:")) {
            let Some(at) = line.find("guardscope ") else { continue };
            let example = &line[at..];
            let sub = example["guardscope ".len()..].split_whitespace().next().unwrap_or("");
            if !SUBCOMMANDS.contains(&sub) {
                continue;
            }
            // `Example:  CMD   (a note)`: the note is not part of the command.
            let example = example.split("   (").next().unwrap();
            let args = guardscope_args(example).unwrap();
            failures.extend(check_command(
                &format!("`guardscope {command} --help`"),
                &args,
                &scratch,
            ));
            checked += 1;
        }
        if help.contains("Example:") && !help.lines().any(|l| l.starts_with("Example:  guardscope ")) {
            failures.push(format!(
                "`guardscope {command} --help` has an Example: that is not a guardscope command"
            ));
        }
    }
    // report, steps, run and the two of diff: finding fewer means the extraction broke.
    assert!(checked >= 5, "only {checked} help examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
