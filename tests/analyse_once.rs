//! A command analyses the run once and every view reads that analysis: the
//! terminal summary, `--json`, the HTML page and the `check` verdict of one
//! run classify each logged reason exactly once between them. (One test in
//! its own binary: the counter is per process.)

mod common;

use common::root;
use guardscope::analysis::{self, check};
use guardscope::load::load;
use guardscope::reasons::classify::classifications;
use guardscope::report::text::summary as terminal;
use guardscope::report::text::Terminal;
use guardscope::report::{html, json};
use guardscope::trace::ParseOptions;

#[test]
fn every_view_reads_one_analysis_and_each_reason_is_classified_once() {
    for sample in [
        "samples/traces/collision",
        "tests/corpus/logs/torch2.15.0/hook_flag_after_lengths",
    ] {
        let run = load(&[root().join(sample)], &ParseOptions::default()).unwrap();
        let reasons: usize = run.compiles().map(|(_, c)| c.recompile_reasons.len()).sum();
        assert!(reasons >= 3, "{sample}: {reasons} reasons");
        let before = classifications();
        let findings = analysis::analyse(&run);
        let mut out = Vec::new();
        let opts = terminal::TerminalOptions {
            width: 120,
            verbose: true,
        };
        terminal::write_summary(&mut Terminal::new(&mut out, true), &findings, &opts).unwrap();
        serde_json::to_string(&json::summary(&findings)).unwrap();
        html::render(&html::PageInput {
            findings: &findings,
            steps: &[],
            activations: None,
            title: "t".into(),
            options: Default::default(),
        })
        .unwrap();
        check::check(&findings, Some(&findings), &check::CheckOptions::default());
        guardscope::report::events::compile_events(&findings);
        assert_eq!(classifications() - before, reasons as u64, "{sample}");
    }
}
