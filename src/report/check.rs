//! Rendering a `check` verdict: terminal lines and JUnit XML for CI systems.

use super::paths::display_site;
use crate::analysis::check::{CheckVerdict, Offense};
use crate::analysis::Severity;
use std::io::{self, Write};

pub fn write_verdict(out: &mut dyn Write, v: &CheckVerdict) -> io::Result<()> {
    if !v.offending.is_empty() {
        let what = if v.mode == "baseline" {
            "Recompiles the baseline does not have"
        } else {
            "Recompiles"
        };
        let problems = v.offending.iter().filter(|o| o.severity == Severity::Problem).count();
        writeln!(
            out,
            "{what} ({problems} problem{}, {} expected one-off{}; each counts unless --allow excuses its category):",
            if problems == 1 { "" } else { "s" },
            v.offending.len() - problems,
            if v.offending.len() - problems == 1 { "" } else { "s" }
        )?;
        for o in &v.offending {
            write_offense(out, o)?;
        }
        writeln!(out)?;
    }
    if !v.allowed.is_empty() {
        writeln!(out, "Excused by --allow:")?;
        for o in &v.allowed {
            writeln!(
                out,
                "  {} {} [{}] {}",
                o.compile_id,
                frame(o),
                o.cause.category.name(),
                o.cause.culprit
            )?;
        }
        writeln!(out)?;
    }
    if !v.new_frames.is_empty() {
        let tag = if v.new_frames_failed { "error" } else { "warning" };
        writeln!(out, "{tag}: frames the baseline does not have (new graph breaks?):")?;
        for k in &v.new_frames {
            let at = match (&k.file, k.line) {
                (Some(f), Some(l)) => format!("{f}:{l}"),
                _ => "?".into(),
            };
            writeln!(out, "  {} at {at}", k.function.as_deref().unwrap_or("?"))?;
        }
        writeln!(out)?;
    }
    if !v.unread_inputs.is_empty() {
        writeln!(out, "error: input that could not be read (the gate fails closed):")?;
        for p in &v.unread_inputs {
            writeln!(out, "  {p}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{}", v.message)
}

fn frame(o: &Offense) -> String {
    let f = &o.frame;
    let rank = f
        .rank
        .filter(|r| *r > 0)
        .map(|r| format!("rank {r} "))
        .unwrap_or_default();
    format!("{rank}frame {} ({})", f.frame_id, f.name)
}

fn write_offense(out: &mut dyn Write, o: &Offense) -> io::Result<()> {
    let secs = o.duration_s.map(|d| format!(", {d:.2} s")).unwrap_or_default();
    writeln!(
        out,
        "  {} {} [{}, {}] {}{secs}",
        o.compile_id,
        frame(o),
        o.cause.category.name(),
        o.severity.name(),
        o.cause.culprit
    )?;
    if let Some(from) = &o.cause.called_from {
        writeln!(out, "      called from {}", display_site(from))?;
    }
    if let Some(src) = &o.cause.source {
        writeln!(out, "      at {}", display_site(src))?;
    }
    if !o.cause.advice.is_empty() {
        writeln!(out, "      fix: {}", o.cause.advice)?;
    }
    Ok(())
}

/// One test suite with one test case, failing with every offense listed, so
/// CI systems show the gate like any other test.
pub fn junit(v: &CheckVerdict) -> String {
    let mut body = String::new();
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
    for k in v.new_frames.iter().filter(|_| v.new_frames_failed) {
        body.push_str(&format!("new frame {}\n", k.function.as_deref().unwrap_or("?")));
    }
    for p in &v.unread_inputs {
        body.push_str(&format!("unreadable input: {p}\n"));
    }
    let kind = if v.unread_inputs.is_empty() {
        "recompiles"
    } else {
        "unreadable_input"
    };
    let failure = if v.passed {
        String::new()
    } else {
        format!(
            "\n      <failure message=\"{}\" type=\"{kind}\">{}</failure>\n    ",
            xml_escape(&v.message),
            xml_escape(&body)
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"guardscope check\" tests=\"1\" failures=\"{}\" errors=\"0\">\n    <testcase classname=\"guardscope\" name=\"no unexpected torch.compile recompiles\">{failure}</testcase>\n  </testsuite>\n</testsuites>\n",
        u8::from(!v.passed)
    )
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn xml_escaping() {
        assert_eq!(
            super::xml_escape("a<b>&\"c'\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{fffd}"
        );
    }
}
