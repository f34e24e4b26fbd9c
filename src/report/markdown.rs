//! `check --format markdown`: the verdict as GitHub-flavoured Markdown, for
//! $GITHUB_STEP_SUMMARY or a pull-request comment: a heading, the verdict
//! with its counts against the budget, and a table of the counted
//! recompiles.
//!
//! Text from logs is escaped so it reads as text: a `|` would split a
//! cell, a newline end the table, and `<img>` or `[x](url)` in a culprit
//! would render as HTML or a link in the comment.

use super::ci::{cut, inert, what_changed, RepoRoot};
use super::format::plural;
use super::text::check::frame;
use crate::analysis::check::{CheckVerdict, Offense};

pub fn markdown(v: &CheckVerdict, root: &RepoRoot) -> String {
    let mut out = String::new();
    let (mark, word) = if v.passed { ("✅", "PASS") } else { ("❌", "FAIL") };
    out.push_str(&format!("## guardscope check: {mark} {word}\n\n"));
    let noun = plural(v.offending.len(), "recompile", "recompiles");
    let new = if v.mode == "baseline" {
        " not in the baseline"
    } else {
        ""
    };
    let mut recompiles = match v.max_recompiles {
        Some(m) => format!("{noun}{new} counted, budget {m} (`--max-recompiles`)"),
        None => format!("{noun}{new} counted"),
    };
    if !v.allowed.is_empty() {
        recompiles.push_str(&format!("; {} excused by `--allow`", v.allowed.len()));
    }
    // What failed the gate comes first: the line names the real reason.
    let mut failing = Vec::new();
    let mut rest = Vec::new();
    let failed = |flag: &str| v.failed_budgets.contains(&flag);
    if failed("--max-recompiles") {
        &mut failing
    } else {
        &mut rest
    }
    .push(recompiles);
    if let Some(m) = v.max_recompile_causes {
        // One cause can recompile many frames: the budget counts causes.
        let part = format!(
            "{} of those recompiles, budget {m} (`--max-recompile-causes`)",
            plural(v.offending_causes, "cause", "causes")
        );
        if failed("--max-recompile-causes") {
            &mut failing
        } else {
            &mut rest
        }
        .push(part);
    }
    if !v.eager_frames.is_empty() {
        let part = format!(
            "{}{}, budget {} (`--max-eager-frames`)",
            plural(v.eager_frames.len(), "frame runs", "frames run"),
            if v.mode == "baseline" {
                " eagerly that the baseline compiled"
            } else {
                " eagerly, not compiled"
            },
            v.max_eager_frames
        );
        if v.eager_frames_failed { &mut failing } else { &mut rest }.push(part);
    }
    if !v.new_graph_breaks.is_empty() {
        let part = format!(
            "{} not in the baseline, budget {} (`--max-new-graph-breaks`)",
            plural(v.new_graph_breaks.len(), "graph break", "graph breaks"),
            v.max_new_graph_breaks
        );
        if v.new_graph_breaks_failed {
            &mut failing
        } else {
            &mut rest
        }
        .push(part);
    }
    failing.extend(rest);
    out.push_str(&format!("**{word}**: {}.\n\n", failing.join("; ")));
    out.push_str(&format!("> {}\n\n", cell(&v.message)));
    if !v.offending.is_empty() {
        out.push_str("| frame | compile id | category | culprit | file:line | severity | fix |\n");
        out.push_str("|---|---|---|---|---|---|---|\n");
        let rows = v.offending.iter().map(|o| row(o, root));
        bounded(&mut out, rows, v.offending.len(), "recompiles");
        out.push('\n');
    }
    if !v.eager_frames.is_empty() {
        let tag = if v.eager_frames_failed { "Error" } else { "Warning" };
        out.push_str(&format!("**{tag}**: frames that run eagerly (not compiled):\n\n"));
        out.push_str("| not compiled | compile id | cost per call | because | file:line | fix |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for e in &v.eager_frames {
            let frame = match (&e.frame.file, e.frame.line) {
                (Some(f), Some(l)) => format!("{} ({}:{l})", e.frame.name, root.name(f).as_str()),
                _ => e.frame.name.clone(),
            };
            let site = e.user_line.as_deref().map_or_else(|| "?".into(), |s| root.display(s));
            let cells = [
                frame,
                e.compile_id.clone(),
                e.per_call.clone(),
                e.because.clone(),
                site,
                e.fix.clone().unwrap_or_default(),
            ];
            out.push_str(&table_row(&cells));
        }
        out.push('\n');
    }
    if !v.new_graph_breaks.is_empty() {
        let tag = if v.new_graph_breaks_failed { "Error" } else { "Warning" };
        out.push_str(&format!("**{tag}**: graph breaks the baseline does not have:\n\n"));
        out.push_str("| graph break | compile ids | file:line | cost per call | fix |\n");
        out.push_str("|---|---|---|---|---|\n");
        for g in &v.new_graph_breaks {
            let id = g.registry_id.as_deref().map(|i| format!(" [{}]", i.to_uppercase()));
            let site = g.user_line.as_deref().map_or_else(|| "?".into(), |s| root.display(s));
            let cells = [
                format!("{}{}", g.reason, id.unwrap_or_default()),
                g.compile_ids.join(", "),
                site,
                g.per_call.clone(),
                g.hints.first().cloned().unwrap_or_default(),
            ];
            out.push_str(&table_row(&cells));
        }
        out.push('\n');
    }
    if !v.new_frames.is_empty() {
        let tag = if v.new_frames_failed { "Error" } else { "Warning" };
        out.push_str(&format!(
            "**{tag}**: frames the baseline does not have (new graph breaks?):\n\n"
        ));
        let items = v.new_frames.iter().map(|k| {
            let at = match (&k.file, k.line) {
                (Some(f), Some(l)) => format!("{}:{l}", root.name(f).as_str()),
                _ => "?".into(),
            };
            format!("- {} at {}\n", cell(k.function.as_deref().unwrap_or("?")), cell(&at))
        });
        bounded(&mut out, items, v.new_frames.len(), "new frames");
        out.push('\n');
    }
    if !v.unread_inputs.is_empty() {
        out.push_str("**Error**: input that could not be read (the gate fails closed):\n\n");
        let items = v.unread_inputs.iter().map(|p| format!("- {}\n", cell(p)));
        bounded(&mut out, items, v.unread_inputs.len(), "inputs not read");
        out.push('\n');
    }
    out
}

/// GitHub drops a step summary over 1 MiB whole, FAIL heading and all:
/// the document stops growing here, a note saying what was left out.
const MAX_BYTES: usize = 900 * 1024;
/// Characters of one text in a cell: a fix with the culprit it names fits
/// (about 1,000), a guard of a megabyte does not.
const MAX_CELL_CHARS: usize = 2_000;

/// Appends `items` (of `total`) while the document stays under
/// `MAX_BYTES`, then one line counting those left out.
fn bounded(out: &mut String, items: impl Iterator<Item = String>, total: usize, what: &str) {
    let mut shown = 0;
    for item in items {
        // Room for the note and the other sections' notes.
        if out.len() + item.len() > MAX_BYTES - 4096 {
            break;
        }
        out.push_str(&item);
        shown += 1;
    }
    if shown < total {
        out.push_str(&format!(
            "\n_… {} more {what} not shown: GitHub drops a step summary over 1 MiB; \
             `guardscope check` lists them all._\n",
            total - shown
        ));
    }
}

/// The document for a check that could not run at all (no such input).
pub fn failure(message: &str) -> String {
    format!(
        "## guardscope check: ❌ FAIL\n\n**FAIL**: the check could not run.\n\n> {}\n",
        cell(message)
    )
}

fn row(o: &Offense, root: &RepoRoot) -> String {
    let site = root
        .site(o)
        .map(|s| format!("{}:{}", s.file.as_str(), s.line))
        .unwrap_or_else(|| "?".into());
    let mut culprit = o.cause.culprit.clone();
    let changed = what_changed(o);
    if !changed.is_empty() {
        culprit.push_str(&format!(" ({changed})"));
    }
    let cells = [
        frame(o),
        o.compile_id.clone(),
        o.cause.category.name().to_string(),
        culprit,
        site,
        o.severity.name().to_string(),
        o.cause.advice.clone(),
    ];
    let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    format!("| {} |\n", cells.join(" | "))
}

fn table_row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// Text made safe for a table cell: `|` and link brackets backslash-escaped,
/// `<` and `&` as entities (no tag, no entity of the log's), line breaks as `<br>` (the one way to
/// break a line inside a cell). `_` and `*` stay: inside identifiers and
/// paths (`pos_enc_cache`) Markdown reads them as text, and file names stay
/// greppable in the raw document.
///
/// Nothing from a log links or mentions when the table is posted: a zero
/// width joiner (U+200D, invisible) follows each `@` (no `@user` or
/// `@org/team` notification, no e-mail link), the `:` of `://` and the
/// `www` of `www.` (no autolinked URL), and a `#` before a digit (no
/// `#123` issue link). Cells are cut after 2,000 characters.
pub fn cell(s: &str) -> String {
    let s = inert(&cut(s, MAX_CELL_CHARS));
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let joined = match c {
            '@' => true,
            ':' => out.ends_with(|p: char| p.is_ascii_alphanumeric()) && s_starts(&chars, "//"),
            '#' => chars.peek().is_some_and(char::is_ascii_digit),
            'w' | 'W' => {
                out.chars()
                    .rev()
                    .take(2)
                    .filter(|p| p.eq_ignore_ascii_case(&'w'))
                    .count()
                    == 2
                    && chars.peek() == Some(&'.')
            }
            _ => false,
        };
        match c {
            '\\' | '|' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '\n' => out.push_str("<br>"),
            '\t' => out.push(' '),
            c => out.push(c),
        }
        if joined {
            out.push('\u{200d}');
        }
    }
    out
}

/// Whether the characters coming next start with `prefix`.
fn s_starts(chars: &std::iter::Peekable<std::str::Chars<'_>>, prefix: &str) -> bool {
    chars.clone().take(prefix.len()).eq(prefix.chars())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_to_one_cell_and_render_as_text() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cell("x\ny"), "x<br>y");
        assert_eq!(cell("<img src=x> & ->"), "&lt;img src=x> &amp; ->");
        assert_eq!(cell("[a](b)"), "\\[a\\](b)");
        assert_eq!(cell("p_q\\"), "p_q\\\\");
        assert_eq!(cell("\u{1b}[2J"), "\\\\x1b\\[2J");
    }

    #[test]
    fn log_text_never_links_or_mentions() {
        const J: &str = "\u{200d}";
        assert_eq!(cell("see https://x.io/a"), format!("see https:{J}//x.io/a"));
        assert_eq!(
            cell("WWW.x.io @alice a@b.io"),
            format!("WWW{J}.x.io @{J}alice a@{J}b.io")
        );
        assert_eq!(cell("#12 #x"), format!("#{J}12 #x"));
        assert_eq!(
            cell("x\n::warning::y ##[add-mask]"),
            "x<br>::warning::y ##\\[add-mask\\]"
        );
    }
}
