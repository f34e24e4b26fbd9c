//! `check --junit`: the gate's verdict as a JUnit XML document, so CI systems
//! show it like any other test.

use super::paths::display_site;
use super::text::check::frame;
use crate::analysis::check::CheckVerdict;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::borrow::Cow;
use std::io;

/// One test suite with one test case, failing with every offense listed, so
/// CI systems show the gate like any other test.
pub fn junit(v: &CheckVerdict) -> String {
    let mut body = String::new();
    if !v.failed_budgets.is_empty() {
        body.push_str(&format!("budgets exceeded: {}\n", v.failed_budgets.join(", ")));
    }
    for o in &v.offending {
        body.push_str(&format!(
            "{} {} [{}] {}{}\n",
            o.compile_id,
            frame(o),
            o.cause.category.name(),
            o.cause.culprit,
            o.cause
                .source
                .as_ref()
                .or(o.cause.called_from.as_ref())
                .map(|s| format!(" at {}", display_site(s)))
                .unwrap_or_default()
        ));
    }
    for e in v.eager_frames.iter().filter(|_| v.eager_frames_failed) {
        body.push_str(&format!("runs eagerly: {}\n", e.sentence(display_site)));
    }
    for k in v.new_frames.iter().filter(|_| v.new_frames_failed) {
        body.push_str(&format!("new frame {}\n", k.function.as_deref().unwrap_or("?")));
    }
    for g in v.new_graph_breaks.iter().filter(|_| v.new_graph_breaks_failed) {
        let at = g.user_line.as_deref().unwrap_or("?");
        body.push_str(&format!("new graph break at {at}: {}; {}\n", g.reason, g.per_call));
    }
    for p in &v.unread_inputs {
        body.push_str(&format!("unreadable input: {p}\n"));
    }
    // The failure's type names what failed first: CI lists group by it.
    let kind = match (v.unread_inputs.is_empty(), v.failed_budgets.first().copied()) {
        (false, _) => "unreadable_input",
        (true, Some("--max-recompile-causes")) => "recompile_causes",
        (true, Some("--max-eager-frames")) => "eager_frames",
        (true, Some("--max-new-graph-breaks")) => "new_graph_breaks",
        (true, Some("--max-new-frames")) => "new_frames",
        (true, _) => "recompiles",
    };
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    write_junit(&mut w, v, &body, kind).expect("writing to memory cannot fail");
    let mut xml = String::from_utf8(w.into_inner()).expect("written from str");
    xml.push('\n');
    xml
}

fn write_junit(w: &mut Writer<Vec<u8>>, v: &CheckVerdict, body: &str, kind: &str) -> io::Result<()> {
    let failures = u8::from(!v.passed).to_string();
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("testsuites").write_inner_content(|w| {
        let suite = w.create_element("testsuite").with_attributes([
            ("name", "guardscope check"),
            ("tests", "1"),
            ("failures", &failures),
            ("errors", "0"),
        ]);
        suite.write_inner_content(|w| {
            let case = w.create_element("testcase").with_attributes([
                ("classname", "guardscope"),
                ("name", "no unexpected torch.compile recompiles"),
            ]);
            if v.passed && v.unfinished_allowed && !v.unfinished_compiles.is_empty() {
                // A pass that judged part of a stopped run says so.
                let note = format!("{}\n{}\n", v.message, v.unfinished_compiles.join("\n"));
                case.write_inner_content(|w| {
                    w.create_element("system-out")
                        .write_text_content(BytesText::new(&xml_chars(&note)))?;
                    Ok(())
                })?;
                return Ok(());
            }
            if v.passed {
                case.write_empty()?;
                return Ok(());
            }
            case.write_inner_content(|w| {
                w.create_element("failure")
                    .with_attributes([("message", &*xml_chars(&v.message)), ("type", kind)])
                    .write_text_content(BytesText::new(&xml_chars(body)))?;
                Ok(())
            })?;
            Ok(())
        })?;
        Ok(())
    })?;
    Ok(())
}

/// `s` with the characters XML 1.0 forbids (C0 controls other than tab and
/// newline, U+FFFE, U+FFFF) replaced: a log may hold any of them, and one
/// would make the whole report unreadable to a CI system's parser. CR goes
/// too: a parser would turn it into a newline anyway.
fn xml_chars(s: &str) -> Cow<'_, str> {
    let forbidden = |c: char| (c < ' ' && c != '\n' && c != '\t') || c == '\u{fffe}' || c == '\u{ffff}';
    if s.contains(forbidden) {
        Cow::Owned(s.replace(forbidden, "\u{fffd}"))
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::Offense;
    use crate::analysis::FrameRef;
    use crate::analysis::Severity;
    use crate::reasons::{Category, RecompileReason};
    use quick_xml::{Reader, XmlVersion};

    const HOSTILE: &str = "a<b>&c]]>\"d'e\u{1}\u{1b}[2J\rf\u{fffe}\tg";
    /// What a parser reads back: every forbidden character replaced.
    const READ_BACK: &str = "a<b>&c]]>\"d'e\u{fffd}\u{fffd}[2J\u{fffd}f\u{fffd}\tg";

    fn hostile_verdict() -> CheckVerdict {
        let offense = Offense {
            compile_id: "0/1".into(),
            frame: FrameRef {
                rank: None,
                pid: 1,
                run: 0,
                frame_id: 0,
                name: HOSTILE.into(),
                function: Some(HOSTILE.into()),
                file: None,
                line: None,
            },
            cause: RecompileReason {
                category: Category::ALL[0],
                form: "tensor.size",
                culprit: HOSTILE.into(),
                source: None,
                code: None,
                detail: None,
                advice: String::new(),
                called_from: None,
                called_from_code: None,
                library_line: None,
                changed: Vec::new(),
            },
            duration_s: Some(1.0),
            severity: Severity::Problem,
            evidence: crate::analysis::judge::evidence::Evidence::new(crate::analysis::EvidenceKind::Repeats, HOSTILE),
            owner: crate::analysis::ValueOwner::UserArgument,
            cause_entry: Some(HOSTILE.into()),
            cause_group: 0,
        };
        CheckVerdict {
            passed: false,
            mode: "threshold",
            max_recompiles: Some(0),
            max_recompile_causes: None,
            offending: vec![offense],
            offending_causes: 1,
            failed_budgets: vec!["--max-recompiles"],
            allowed: Vec::new(),
            new_frames: Vec::new(),
            new_frames_failed: false,
            new_graph_breaks: Vec::new(),
            new_graph_breaks_failed: false,
            max_new_graph_breaks: 0,
            eager_frames: Vec::new(),
            eager_frames_failed: false,
            max_eager_frames: 0,
            unrecognised: 0,
            unread_inputs: vec![format!("{HOSTILE}.log")],
            unfinished_compiles: Vec::new(),
            unfinished_allowed: false,
            message: format!("FAIL: {HOSTILE}"),
        }
    }

    /// Every element, attribute and text of a document, as a parser reads it.
    fn parse(xml: &str) -> Vec<String> {
        let mut reader = Reader::from_str(xml);
        reader.config_mut().check_end_names = true;
        let (mut seen, mut text) = (Vec::new(), String::new());
        loop {
            let event = reader.read_event().expect("well-formed XML");
            if !matches!(event, Event::Text(_) | Event::GeneralRef(_)) && !text.trim().is_empty() {
                seen.push(std::mem::take(&mut text));
            }
            match event {
                Event::Start(e) | Event::Empty(e) => {
                    text.clear();
                    seen.push(format!("<{}", e.name().as_ref()));
                    for a in e.attributes() {
                        let a = a.expect("well-formed attribute");
                        let value = a.normalized_value(XmlVersion::Explicit1_0).expect("known entities");
                        // As the XML spec has parsers read a literal tab or newline there.
                        let value = value.replace(['\t', '\n'], " ");
                        seen.push(format!("{}={value}", a.key.as_ref()));
                    }
                }
                Event::Text(t) => text.push_str(&t.xml10_content()),
                Event::GeneralRef(r) => match r.resolve_char_ref().expect("a character") {
                    Some(c) => text.push(c),
                    None => text.push_str(match &*r {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("unknown entity {other}"),
                    }),
                },
                Event::Eof => return seen,
                _ => text.clear(),
            }
        }
    }

    #[test]
    fn hostile_text_reads_back_from_well_formed_junit() {
        let xml = junit(&hostile_verdict());
        let seen = parse(&xml);
        let message = format!("message=FAIL: {}", READ_BACK.replace('\t', " "));
        assert!(seen.contains(&message), "{seen:?}");
        assert!(seen.contains(&"type=unreadable_input".to_string()), "{seen:?}");
        let body = seen.last().expect("the failure's text");
        // The failure's text names the budget that failed, then each offense.
        let first = format!(
            "budgets exceeded: --max-recompiles\n0/1 frame 0 ({READ_BACK}) [{}] {READ_BACK}\n",
            Category::ALL[0].name()
        );
        assert!(body.starts_with(&first), "{body:?}");
        assert!(
            body.ends_with(&format!("unreadable input: {READ_BACK}.log\n")),
            "{body:?}"
        );
        assert!(
            !xml.contains('\u{1b}') && !xml.contains('\r') && !xml.contains("]]>"),
            "{xml}"
        );
    }

    #[test]
    fn a_passing_gate_is_one_test_case_without_failure() {
        let mut v = hostile_verdict();
        v.passed = true;
        v.offending.clear();
        v.unread_inputs.clear();
        assert_eq!(
            parse(&junit(&v)),
            [
                "<testsuites",
                "<testsuite",
                "name=guardscope check",
                "tests=1",
                "failures=0",
                "errors=0",
                "<testcase",
                "classname=guardscope",
                "name=no unexpected torch.compile recompiles",
            ]
        );
    }
}
