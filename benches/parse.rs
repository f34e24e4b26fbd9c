//! `cargo bench`: throughput of the TORCH_TRACE line/envelope/payload
//! parser on a real log held in memory (no disk, no gzip), so a regression
//! in the hot loop shows up as a lower MB/s. Whole-command timings against
//! tlparse live in bench/.

use guardscope::input::Problems;
use guardscope::trace::{ParseOptions, Parser};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = root.join("samples/traces/collision/dedicated_log_torch_trace.log.gz");
    let one = guardscope::input::read_to_string(&log).expect("sample log");
    // ~50 MB: long enough that timer noise does not matter.
    let text = one.repeat(36);
    for (name, verify_all_payloads) in [("default", false), ("--verify-all", true)] {
        let opts = ParseOptions {
            verify_all_payloads,
            ..ParseOptions::default()
        };
        let mut best = Duration::MAX;
        let mut events = 0usize;
        for _ in 0..5 {
            let mut problems = Problems::default();
            let start = Instant::now();
            events = 0;
            Parser::new(Arc::from("bench.log"), opts.clone(), &mut problems).run(text.as_bytes(), &mut |_| events += 1);
            best = best.min(start.elapsed());
        }
        let mb = text.len() as f64 / 1e6;
        println!(
            "parse {name:<22} {mb:.0} MB in {:>6.1} ms  {:>6.0} MB/s  ({events} events; best of 5)",
            best.as_secs_f64() * 1e3,
            mb / best.as_secs_f64()
        );
    }
}
