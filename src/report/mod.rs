//! Views of the analysed run, by format: `text/` for a terminal, `json` (the
//! `summary --json` contract), `junit` (the check for CI systems), `sarif`,
//! `github` and `markdown` (the check where reviewers look; `ci` what they
//! share), `html/`
//! (the page), `events` (compile records for the Python helper), `ndjson` (one
//! flat row per compile, for SQL engines). `emit` is
//! the boundary the commands print through; `format` and `paths` hold what
//! every format shares.

pub mod ci;
pub mod compile_record;
pub mod cost;
pub mod emit;
pub mod events;
pub mod format;
pub mod github;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod ndjson;
pub mod output_dir;
pub mod paths;
pub mod runs;
pub mod sarif;
pub mod text;
pub mod text_log;
pub mod trace_events;
pub mod watch;
