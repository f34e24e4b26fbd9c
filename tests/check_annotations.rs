//! `guardscope check --format github|markdown`: workflow commands parsed
//! and unescaped as the Actions runner does, Markdown tables split into
//! cells as GitHub renders them.

mod common;

use common::ci_formats::*;

#[test]
fn github_annotations_point_at_the_hook_and_carry_the_fix() {
    let expected = verdict(HOOK_FLAG_FLIP);
    let offending = expected["offending"].as_array().unwrap();
    let repo = recorded_root(HOOK_FLAG_FLIP, "train.py");
    let out = check(&[HOOK_FLAG_FLIP, "--format", "github", "--repo-root", &repo]);
    assert_eq!(out.code, 1);
    let (commands, plain) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), offending.len(), "{}", out.stdout);
    for (c, o) in commands.iter().zip(offending) {
        assert_eq!(c.name, "error");
        assert_eq!(c.property("file"), Some("train.py"));
        assert_eq!(
            c.property("line").unwrap().parse::<u64>().unwrap(),
            line_of(&o["source"])
        );
        let title = c.property("title").unwrap();
        assert!(title.contains(o["category"].as_str().unwrap()), "{title}");
        assert!(title.contains("frame 0 (Sequential via inner)"), "{title}");
        assert!(c.message.contains(o["culprit"].as_str().unwrap()), "{}", c.message);
        assert!(c.message.contains(o["advice"].as_str().unwrap()), "{}", c.message);
    }
    assert_eq!(
        plain,
        ["budgets exceeded: --max-recompiles", "FAIL: 3 recompiles (allowed: 0)"]
    );

    // Without --repo-root: the sample's absolute path, its line still there.
    let out = check(&[HOOK_FLAG, "--format", "github"]);
    let (commands, _) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), 1);
    let file = commands[0].property("file").unwrap();
    assert!(
        file.ends_with("samples/scripts/reasons/closure_hook_state.py"),
        "{file}"
    );
    assert_eq!(commands[0].property("line"), Some("19"));
}

#[test]
fn github_escapes_what_would_end_a_property_or_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let name = "f, g: 100%\n::warning::injected";
    let log = log_with_function(dir.path(), name);
    let log = log.to_str().unwrap();
    let out = check(&[log, "--format", "github", "--repo-root", "/repo"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let (commands, plain) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), 1, "no injected command: {}", out.stdout);
    assert_eq!(
        plain,
        ["budgets exceeded: --max-recompiles", "FAIL: 1 recompile (allowed: 0)"]
    );
    let c = &commands[0];
    assert_eq!(c.property("file"), Some("train.py"));
    assert_eq!(c.property("line"), Some("7"));
    let title = c.property("title").unwrap();
    assert!(title.contains(&format!("frame 0 ({name})")), "{title:?}");
    assert!(c.message.contains(&format!("frame 0 ({name})")), "{:?}", c.message);
    assert_eq!(c.properties.len(), 3, "{:?}", c.properties);
}

#[test]
fn markdown_has_one_row_per_counted_recompile() {
    let expected = verdict(HOOK_FLAG_FLIP);
    let offending = expected["offending"].as_array().unwrap();
    let repo = recorded_root(HOOK_FLAG_FLIP, "train.py");
    let out = check(&[HOOK_FLAG_FLIP, "--format", "markdown", "--repo-root", &repo]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with("## guardscope check: ❌ FAIL\n"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("**FAIL**: 3 recompiles counted, budget 0 (`--max-recompiles`)."));
    let rows = table_rows(&out.stdout);
    assert_eq!(rows.len(), offending.len());
    for (row, o) in rows.iter().zip(offending) {
        assert_eq!(row.len(), 7, "{row:?}");
        assert_eq!(row[1], o["compile_id"].as_str().unwrap());
        assert_eq!(row[2], o["category"].as_str().unwrap());
        assert_eq!(row[4], format!("train.py:{}", line_of(&o["source"])));
        assert_eq!(row[5], "problem");
        // The fix as written, `@` joined to nothing (no `@torch` mention).
        assert!(!row[6].contains("@torch"), "{}", row[6]);
        assert_eq!(row[6].replace('\u{200d}', ""), o["advice"].as_str().unwrap());
    }

    // A run that compiles every frame once (tests/corpus, real torch 2.15).
    let pass = check(&["tests/corpus/logs/torch2.15.0/lambda_per_call", "--format", "markdown"]);
    assert_eq!(pass.code, 0);
    assert!(
        pass.stdout.starts_with("## guardscope check: ✅ PASS\n"),
        "{}",
        pass.stdout
    );
    assert!(table_rows(&pass.stdout).is_empty());
}

#[test]
fn markdown_cells_escape_pipes_newlines_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_with_function(dir.path(), "a|b\n<img src=x>|c");
    let out = check(&[log.to_str().unwrap(), "--format", "markdown", "--repo-root", "/repo"]);
    assert_eq!(out.code, 1);
    let rows = table_rows(&out.stdout);
    assert_eq!(rows.len(), 1, "{}", out.stdout);
    assert_eq!(rows[0].len(), 7, "{:?}", rows[0]);
    assert_eq!(rows[0][0], "frame 0 (a\\|b<br>&lt;img src=x>\\|c)");
    assert_eq!(rows[0][4], "train.py:7");
    assert!(!out.stdout.contains("<img"), "{}", out.stdout);
}
