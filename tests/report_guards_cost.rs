//! Guards per compile and the cost beyond compile time (issue 21, items 6
//! and 7), on real logs: the tlparse cache test log, the third-party corpus.

mod common;

use common::{guardscope, root, summary_json};

/// The page `report PATH -q` writes (into a fresh directory).
fn page(path: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let out = guardscope(["report", path, "-q", "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::read_to_string(out_dir.join("index.html")).unwrap()
}

/// The part of the page from `<section id="ID">` to the next section.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no {id} section"));
    let end = html[start + 1..]
        .find("<section id=")
        .map_or(html.len(), |e| start + 1 + e);
    &html[start..end]
}

#[test]
fn cache_hits_and_misses_of_the_tlparse_cache_log() {
    // torch's own test of the FX graph cache: one hit, two misses; the
    // AOTAutograd cache bypassed all three graphs.
    let path = root().join("tests/data/tlparse/cache_hit_miss.log.gz");
    let json = summary_json(&path);
    let caches = &json["cost"]["caches"];
    assert_eq!(caches["fx_graph_hits"], 1);
    assert_eq!(caches["fx_graph_misses"], 2);
    assert_eq!(caches["fx_graph_bypasses"], 0);
    assert_eq!(caches["aot_autograd_hits"], 0);
    assert_eq!(caches["aot_autograd_misses"], 0);
    assert_eq!(caches["aot_autograd_bypasses"], 3);
    // The per-compile counts add up to the totals.
    let hits: u64 = json["frames"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["compiles"].as_array().unwrap())
        .map(|c| c["caches"]["fx_graph_hits"].as_u64().unwrap())
        .sum();
    assert_eq!(hits, 1);
    // This log predates guard_latency_us.
    assert_eq!(json["cost"]["guard_checks_measured"], 0);
    assert!(json["cost"]["guard_latency_median_us"].is_null());

    let out = guardscope(["summary", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .any(|l| l == "FX graph cache 1 hit / 2 misses; AOTAutograd cache 3 bypassed"),
        "{}",
        out.stdout
    );

    let html = page("tests/data/tlparse/cache_hit_miss.log.gz");
    let cost = section(&html, "cost");
    assert!(
        cost.contains("<tr><td>FX graph (inductor)</td><td>1</td><td>2</td><td>0</td></tr>"),
        "{cost}"
    );
    assert!(
        cost.contains("<tr><td>AOTAutograd</td><td>0</td><td>0</td><td>3</td></tr>"),
        "{cost}"
    );
    assert!(cost.contains("Not in the log"), "{cost}");
}

#[test]
fn guard_latency_of_a_torch_2_11_log() {
    // dtype_change: two compiles whose metrics carry guard_latency_us 121 and 125.
    let json = summary_json(&root().join("tests/corpus/logs/torch2.11.0/dtype_change"));
    let latencies: Vec<f64> = json["frames"][0]["compiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["guard_latency_us"].as_f64().unwrap())
        .collect();
    assert_eq!(latencies, [121.0, 125.0]);
    let cost = &json["cost"];
    assert_eq!(cost["guard_checks_measured"], 2);
    assert_eq!(cost["guard_latency_median_us"], 123.0);
    assert_eq!(cost["guard_latency_max_us"], 125.0);
    assert_eq!(cost["guard_latency_max_compile"], "0/1");
    assert_eq!(cost["caches"]["fx_graph_misses"], 2);
    assert_eq!(cost["caches"]["aot_autograd_misses"], 2);

    let out = guardscope(["summary", "tests/corpus/logs/torch2.11.0/dtype_change"]);
    assert!(out.stdout.contains(
        "guards: 123 µs median check (max 125 µs, 0/1); FX graph cache 0 hits / 2 misses; AOTAutograd cache 0 hits / 2 misses"
    ), "{}", out.stdout);
}

#[test]
fn eager_fallbacks_say_what_the_log_says() {
    // module_step_counter hits the recompile limit at 0/8.
    let json = summary_json(&root().join("tests/corpus/logs/torch2.15.0/module_step_counter"));
    let fallbacks = json["cost"]["eager_fallbacks"].as_array().unwrap();
    assert_eq!(fallbacks.len(), 1);
    assert_eq!(fallbacks[0]["why"], "recompile_limit");
    assert_eq!(fallbacks[0]["compile_id"], "0/8");
    assert_eq!(fallbacks[0]["frame"]["name"], "NoisyStudent.forward");
    let html = page("tests/corpus/logs/torch2.15.0/module_step_counter");
    assert!(section(&html, "cost").contains(
        "NoisyStudent.forward hit the recompile limit at 0&#x2F;8: it runs eagerly, uncompiled, from then on; the log ends there"
    ));

    // torch's test of a failing backend, with suppress_errors on.
    let json = summary_json(&root().join("tests/data/tlparse/comp_failure.log.gz"));
    let fallbacks = json["cost"]["eager_fallbacks"].as_array().unwrap();
    assert_eq!(fallbacks.len(), 1);
    assert_eq!(fallbacks[0]["why"], "compile_failed");
    assert_eq!(fallbacks[0]["fail_type"], "BackendCompilerFailed");
    assert_eq!(fallbacks[0]["suppress_errors"], true);
}

#[test]
fn the_failed_guard_is_highlighted_in_its_entry_with_what_changed() {
    let html = page("tests/corpus/logs/torch2.15.0/module_step_counter");
    let guards = section(&html, "guards");
    // Collapsed by default: no entry is open.
    assert!(guards.contains("<details class=\"card guard-entry failed\">"));
    assert!(!guards.contains("<details open"));
    // 0/1 recompiled because entry 0/0's `self.step == 0` failed; every
    // later call checks 0/0 again and fails on it again.
    let entry = &guards[guards.find("<span class=\"cid\">0&#x2F;0</span>").unwrap()..];
    let entry = &entry[..entry.find("</details>").unwrap()];
    assert!(entry.contains(
        "<mark class=\"failed-guard\" title=\"failed in 0&#x2F;1, 0&#x2F;2, 0&#x2F;3, 0&#x2F;4 and 4 more\">| | | | +- EQUALS_MATCH: L[&#x27;self&#x27;].step == 0"
    ), "{entry}");
    assert_eq!(entry.matches("<mark class=\"failed-guard\"").count(), 1);
    assert!(entry.contains("<h4>0&#x2F;1 failed on</h4>"));
    assert!(entry.contains("<code class=\"failed-guard\">self.step == 0</code>"));
    assert!(entry.contains("<li><code>self.step: 0 -&gt; 1</code></li>"), "{entry}");
}

#[test]
fn a_tensor_failure_highlights_the_tensors_guard() {
    let html = page("tests/corpus/logs/torch2.15.0/dtype_change");
    let guards = section(&html, "guards");
    let marks: Vec<&str> = guards
        .split("<mark class=\"failed-guard\"")
        .skip(1)
        .map(|m| &m[..m.find("</mark>").unwrap()])
        .collect();
    assert_eq!(marks.len(), 1, "{guards}");
    assert!(marks[0].contains("+- TENSOR_MATCH: check_tensor(L[&#x27;args&#x27;][0], Tensor"));
    assert!(marks[0].contains("torch.float32"));
}

#[test]
fn big_trees_are_cut_and_the_page_stays_small() {
    // Hugging Face BERT with output_attentions: trees of 400+ guards.
    let html = page("tests/corpus/logs/torch2.15.0/hf_output_attentions");
    let guards = section(&html, "guards");
    assert!(guards.contains("<span class=\"muted\">458 guards</span>"), "{guards}");
    assert!(guards.contains("<span class=\"gap\">418 more guards not shown</span>"));
    // The failed guard of an entry is shown even past the cut.
    assert!(guards.contains(
        "<mark class=\"failed-guard\" title=\"failed in 0&#x2F;1\">| | | +- FALSE_MATCH: L[&#x27;kwargs&#x27;][&#x27;output_attentions&#x27;] == False"
    ));
    // Measured 2026-11-23: 70 KB of guards in a 181 KB page.
    assert!(guards.len() < 150_000, "guards section is {} bytes", guards.len());
    assert!(html.len() < 400_000, "page is {} bytes", html.len());
}

#[test]
fn identical_trees_of_other_ranks_are_folded() {
    // Two gloo ranks compile the same frames; object ids differ per process.
    let html = page("tests/corpus/logs/torch2.15.0/ddp_gloo");
    let guards = section(&html, "guards");
    assert!(
        guards.contains("<p class=\"more\">2 identical trees (other ranks or processes, or after torch._dynamo.reset()) not repeated.</p>"),
        "{guards}"
    );
}
