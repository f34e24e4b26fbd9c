//! `check --format sarif`: the verdict as a SARIF 2.1.0 log, for GitHub code
//! scanning (github/codeql-action/upload-sarif) and other SARIF viewers.
//!
//! One result per counted recompile, its rule the category, placed on the
//! user's line. What is not tied to a line (input not read, the verdict,
//! new frames) is an invocation notification, so a failed gate is never a
//! log that reads clean. Shape checked against the OASIS schema by
//! tests/check_formats.rs.

use super::ci::{break_sentence, cut, eager_sentence, sentence, what_changed, FileName, RepoRoot, Site};
use super::text::check::frame;
use super::text::workflow::json_inert;
use crate::analysis::check::{CheckVerdict, FrameKey, Offense};
use crate::analysis::Severity;
use crate::reasons::Category;
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// `homepage` of Cargo.toml, the driver's informationUri once it is set
/// (empty until the project publishes an address).
const HOMEPAGE: &str = env!("CARGO_PKG_HOMEPAGE");
const SRCROOT: &str = "%SRCROOT%";
/// The key of the fingerprint; a new one if what it hashes ever changes, so
/// code scanning does not match old alerts to different findings.
const FINGERPRINT: &str = "guardscope/recompile/v1";

/// Characters a URI path may not hold as they are (RFC 3986): `/` stays.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The SARIF log of a verdict. `exit_code` is the one the command exits
/// with, recorded in the invocation.
pub fn sarif(v: &CheckVerdict, root: &RepoRoot, exit_code: i32) -> String {
    let categories = used_categories(&v.offending);
    let mut rules: Vec<Value> = categories.iter().map(|c| rule(*c)).collect();
    let mut results: Vec<Value> = v
        .offending
        .iter()
        .take(MAX_RESULTS)
        .map(|o| result(o, root, &categories))
        .collect();
    // What the change did to what runs compiled: a rule each, after the
    // categories, and a result at the line that caused it.
    if !v.eager_frames.is_empty() {
        let index = rules.len();
        rules.push(compiled_rule(EAGER_RULE));
        let level = if v.eager_frames_failed { "error" } else { "warning" };
        for e in &v.eager_frames {
            let place = root.site_of(e.user_line.as_deref());
            let keys = [EAGER_RULE.0, e.why, e.frame.function.as_deref().unwrap_or("")];
            results.push(compiled_result(&keys, index, level, &eager_sentence(e, root), place));
        }
    }
    if !v.new_graph_breaks.is_empty() {
        let index = rules.len();
        rules.push(compiled_rule(BREAK_RULE));
        let level = if v.new_graph_breaks_failed { "error" } else { "warning" };
        for g in &v.new_graph_breaks {
            let place = root.site_of(g.user_line.as_deref());
            let keys = [BREAK_RULE.0, g.reason.as_str(), g.registry_id.as_deref().unwrap_or("")];
            results.push(compiled_result(&keys, index, level, &break_sentence(g, root), place));
        }
    }
    let mut notifications = Vec::new();
    // The verdict first: a viewer that shows one notification shows it.
    let level = if v.passed { "note" } else { "error" };
    notifications.push(notification(level, "verdict", &v.message, None));
    for p in v.unread_inputs.iter().take(MAX_RESULTS) {
        notifications.push(notification(
            "error",
            "unreadable_input",
            &format!("input not read: {p}"),
            None,
        ));
    }
    if v.unread_inputs.len() > MAX_RESULTS {
        let text = format!(
            "{} more inputs not read are not listed; `guardscope check` lists them all",
            v.unread_inputs.len() - MAX_RESULTS
        );
        notifications.push(notification("error", "unreadable_input", &text, None));
    }
    if v.offending.len() > MAX_RESULTS {
        let text = format!(
            "{} more counted recompiles are not results: this log lists the first {MAX_RESULTS} \
             (code scanning takes 25,000 results and 10 MB a file); `guardscope check` lists them all",
            v.offending.len() - MAX_RESULTS
        );
        notifications.push(notification("error", "results_left_out", &text, None));
    }
    for k in v.new_frames.iter().take(MAX_RESULTS) {
        let level = if v.new_frames_failed { "error" } else { "warning" };
        let text = format!(
            "frame {} is not in the baseline (a new graph break?)",
            k.function.as_deref().unwrap_or("?")
        );
        notifications.push(notification(level, "new_frame", &text, frame_location(k, root)));
    }
    let document = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver(rules)},
            "originalUriBaseIds": {SRCROOT: {"uri": directory_uri(root)}},
            "invocations": [{
                // The gate ran, but on part of its input: no verdict to trust.
                "executionSuccessful": v.unread_inputs.is_empty(),
                "exitCode": exit_code,
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            "properties": {
                "passed": v.passed,
                "mode": v.mode,
                "maxRecompiles": v.max_recompiles,
                "maxRecompileCauses": v.max_recompile_causes, "failedBudgets": v.failed_budgets,
                "counted": v.offending.len(), "countedCauses": v.offending_causes,
                "eagerFrames": v.eager_frames.len(),
                "newGraphBreaks": v.new_graph_breaks.len(),
                "excused": v.allowed.len(),
                "verdict": v.message,
            },
        }],
    });
    let mut text = json_inert(&serde_json::to_string_pretty(&document).expect("a JSON value serialises"));
    text.push('\n');
    text
}

/// Results (and notifications of one kind) a log lists: with log texts cut
/// to `MAX_TEXT_CHARS`, a log stays a few MB, under code scanning's 10 MB
/// upload and 25,000 results a run.
const MAX_RESULTS: usize = 1_000;
/// Characters of a message, or of a property, taken from a log.
const MAX_TEXT_CHARS: usize = 2_000;
const MAX_PROPERTY_CHARS: usize = 500;

/// A SARIF log for a check that could not run at all (no such input): the
/// upload step still gets a file, and it says the gate failed.
pub fn failure(message: &str, exit_code: i32) -> String {
    let document = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver(Vec::new())},
            "invocations": [{
                "executionSuccessful": false,
                "exitCode": exit_code,
                "toolExecutionNotifications": [notification("error", "failure", message, None)],
            }],
            "results": [],
        }],
    });
    let mut text = serde_json::to_string_pretty(&document).expect("a JSON value serialises");
    text.push('\n');
    text
}

fn driver(rules: Vec<Value>) -> Value {
    let mut driver = json!({
        "name": "guardscope",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if !HOMEPAGE.is_empty() {
        driver["informationUri"] = json!(HOMEPAGE);
    }
    driver
}

fn used_categories(offending: &[Offense]) -> Vec<Category> {
    let mut seen = Vec::new();
    for o in offending {
        if !seen.contains(&o.cause.category) {
            seen.push(o.cause.category);
        }
    }
    seen
}

fn rule(c: Category) -> Value {
    let (level, usually) = if c.expected_once() {
        (
            "warning",
            "Often a one-off (a second shape, eval after train); it still costs a compile.",
        )
    } else {
        ("error", "Usually repeats: each change compiles the frame again.")
    };
    let help = format!(
        "guardscope read the TORCH_TRACE log and found torch.compile recompiling a frame because of {}. \
         {usually} Each result names the value that changed, the line that reads it and the fix; \
         `guardscope summary` on the same log shows the guard, the cost and every rank. \
         Excuse a category a run is meant to have with `guardscope check --allow {}`.",
        c.label(),
        c.name()
    );
    json!({
        "id": c.name(),
        "name": c.name(),
        "shortDescription": {"text": format!("torch.compile recompile: {}", c.label())},
        "fullDescription": {"text": format!("A torch.compile recompile caused by {} ({}).", c.label(), c.name())},
        "help": {"text": help},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": ["torch.compile", "recompile", "performance"]},
    })
}

/// The rules of what runs compiled: id, short and full description.
const EAGER_RULE: (&str, &str, &str) = (
    "eager_frame",
    "A frame torch.compile does not compile: it runs eagerly",
    "Dynamo skipped this function (a graph break inside a loop, an unsupported construct), its compile failed, \
     or it hit the recompile limit: the function runs eagerly, uncompiled, on the calls named. \
     The result sits on the line that caused it and names the fix. Tolerate N with `guardscope check --max-eager-frames N`.",
);
const BREAK_RULE: (&str, &str, &str) = (
    "new_graph_break",
    "A graph break the baseline run does not have",
    "This run breaks the compiled graph where the baseline did not: each call leaves the graph at this line and \
     resumes in another (inside a loop, Dynamo skips the whole function). \
     Tolerate N with `guardscope check --max-new-graph-breaks N`.",
);

fn compiled_rule((id, short, full): (&str, &str, &str)) -> Value {
    json!({
        "id": id,
        "name": id,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": full},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["torch.compile", "graph-break", "performance"]},
    })
}

/// A result of a compiled-code rule; its fingerprint hashes `keys` and the
/// file (no line, compile id or rank), as a recompile's does.
fn compiled_result(keys: &[&str], index: usize, level: &str, text: &str, site: Option<Site>) -> Value {
    let mut r = json!({
        "ruleId": keys[0],
        "ruleIndex": index,
        "level": level,
        "message": {"text": text},
    });
    let file = match site.as_ref().map(|s| &s.file) {
        Some(FileName::Relative(f)) => f.as_str(),
        Some(FileName::Absolute(f)) => f.rsplit(['/', '\\']).next().unwrap_or(f),
        None => "",
    };
    let mut hash = Sha256::new();
    for part in keys.iter().copied().chain([file]) {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    let print: String = hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect();
    r["partialFingerprints"] = json!({COMPILED_FINGERPRINT: print});
    if let Some(site) = &site {
        r["locations"] = json!([location(site)]);
    }
    r
}

/// The fingerprint key of the compiled-code rules.
const COMPILED_FINGERPRINT: &str = "guardscope/compiled/v1";

fn level(o: &Offense) -> &'static str {
    match o.severity {
        Severity::Problem => "error",
        Severity::Expected => "warning",
    }
}

fn result(o: &Offense, root: &RepoRoot, categories: &[Category]) -> Value {
    let site = root.site(o);
    let mut r = Map::new();
    r.insert("ruleId".into(), json!(o.cause.category.name()));
    let index = categories.iter().position(|c| *c == o.cause.category);
    r.insert("ruleIndex".into(), json!(index));
    r.insert("level".into(), json!(level(o)));
    r.insert("message".into(), json!({"text": cut(&sentence(o), MAX_TEXT_CHARS)}));
    if let Some(site) = &site {
        r.insert("locations".into(), json!([location(site)]));
    }
    // The called-from line, when the main location is the guard's.
    let called = o
        .cause
        .source
        .as_ref()
        .and(o.cause.called_from.as_deref())
        .and_then(super::ci::split_site)
        .map(|(file, line)| Site {
            file: root.name(file),
            line,
        })
        .filter(|c| Some(c) != site.as_ref());
    if let Some(called) = called {
        let mut l = location(&called);
        l["id"] = json!(1);
        l["message"] = json!({"text": "called from here"});
        r.insert("relatedLocations".into(), json!([l]));
    }
    r.insert(
        "partialFingerprints".into(),
        json!({FINGERPRINT: fingerprint(o, site.as_ref())}),
    );
    let short = |text: &str| cut(text, MAX_PROPERTY_CHARS).into_owned();
    let mut properties = json!({
        "compileId": o.compile_id,
        "frame": short(&frame(o)),
        "severity": o.severity.name(),
        "culprit": short(&o.cause.culprit),
        "evidence": short(&o.evidence.text),
        "fix": short(&o.cause.advice),
    });
    let changed = what_changed(o);
    if !changed.is_empty() {
        properties["changed"] = json!(short(&changed));
    }
    if let Some(rank) = o.frame.rank {
        properties["rank"] = json!(rank);
    }
    r.insert("properties".into(), properties);
    Value::Object(r)
}

/// Stable across runs and machines: no compile id, rank, line or absolute
/// path, so a line moved by an edit or a rerun on another runner is the
/// same alert; the same cause on every rank is one alert.
fn fingerprint(o: &Offense, site: Option<&Site>) -> String {
    let file = match site.map(|s| &s.file) {
        Some(FileName::Relative(f)) => f.as_str(),
        // An absolute path differs between runners: only its file name.
        Some(FileName::Absolute(f)) => f.rsplit(['/', '\\']).next().unwrap_or(f),
        None => "",
    };
    let mut hash = Sha256::new();
    for part in [
        o.cause.category.name(),
        &o.cause.culprit,
        o.frame.function.as_deref().unwrap_or(""),
        file,
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect()
}

fn location(site: &Site) -> Value {
    let artifact = match &site.file {
        FileName::Relative(f) => json!({"uri": relative_uri(f), "uriBaseId": SRCROOT}),
        // A uriBaseId may only go with a relative reference: an absolute
        // file is a file:// URI of its own (upload-sarif's checkout_path
        // makes one under the checkout relative; others show without a file).
        FileName::Absolute(f) => json!({"uri": file_uri(f)}),
    };
    json!({"physicalLocation": {"artifactLocation": artifact, "region": {"startLine": site.line}}})
}

fn frame_location(k: &FrameKey, root: &RepoRoot) -> Option<Value> {
    let file = k.file.as_deref()?;
    let line = k.line.filter(|l| *l > 0)?;
    Some(location(&Site {
        file: root.name(file),
        line,
    }))
}

/// A path under the root as a relative reference, and never more: a `:`
/// is encoded (`javascript:x`, `https:x` would be a URI with a scheme,
/// which SARIF forbids beside a uriBaseId and a viewer may follow), and a
/// path opening with `/` (`//host/x`, an authority) gets `./` before it.
fn relative_uri(path: &str) -> String {
    let encoded = utf8_percent_encode(path, PATH).to_string().replace(':', "%3A");
    if encoded.starts_with('/') {
        format!(".{encoded}")
    } else {
        encoded
    }
}

fn file_uri(path: &str) -> String {
    let unix = path.replace('\\', "/");
    let encoded = utf8_percent_encode(&unix, PATH).to_string();
    if encoded.starts_with('/') {
        format!("file://{encoded}")
    } else {
        // C:/x: a Windows drive path.
        format!("file:///{encoded}")
    }
}

fn directory_uri(root: &RepoRoot) -> String {
    let mut uri = file_uri(&root.path().to_string_lossy());
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

fn notification(level: &str, id: &str, text: &str, location: Option<Value>) -> Value {
    let mut n = json!({
        "level": level,
        "descriptor": {"id": id},
        "message": {"text": cut(text, MAX_TEXT_CHARS)},
    });
    if let Some(l) = location {
        n["locations"] = json!([l]);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_are_encoded_and_absolute() {
        assert_eq!(file_uri("/a b/c#d.py"), "file:///a%20b/c%23d.py");
        assert_eq!(file_uri("C:\\w\\t.py"), "file:///C:/w/t.py");
        let root = RepoRoot::new(std::path::Path::new("/work/proj"));
        assert_eq!(directory_uri(&root), "file:///work/proj/");
    }

    #[test]
    fn relative_uris_never_have_a_scheme_or_an_authority() {
        assert_eq!(relative_uri("javascript:alert(1)"), "javascript%3Aalert(1)");
        assert_eq!(relative_uri("a b/c.py"), "a%20b/c.py");
        assert_eq!(relative_uri("//evil.host/x.py"), ".//evil.host/x.py");
    }
}
