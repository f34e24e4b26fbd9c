//! The summary's graph breaks: each distinct break once (the analysis's
//! `graph_breaks`, the list the report page's section shows), where it is in
//! the user's code, what broke in one line, its registry id and torch's
//! own fix when the log states one.

use super::TerminalOptions;
use crate::analysis::GraphBreak;
use crate::report::format::{ellipsize_middle, id_list, plural, width, wrap_words};
use crate::report::paths::display_site;
use std::io::{self, Write};

/// Breaks listed; `summary --json` has them all.
const SHOWN: usize = 10;

pub fn write_graph_breaks(out: &mut dyn Write, breaks: &[GraphBreak<'_>], opts: &TerminalOptions) -> io::Result<()> {
    if breaks.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "Graph breaks ({} distinct; each splits its frame into separately compiled parts; most logged first):",
        breaks.len()
    )?;
    let wrap = opts.width.saturating_sub(6).max(40);
    for g in breaks.iter().take(SHOWN) {
        let id = g
            .registry_id
            .as_deref()
            .map(|i| format!(" [{}]", i.to_uppercase()))
            .unwrap_or_default();
        let head = format!(
            "{}{id}, logged {} ({})",
            g.reason,
            plural(g.count, "time", "times"),
            id_list(&g.compile_ids)
        );
        for (i, line) in wrap_words(&head, wrap + 4).iter().enumerate() {
            writeln!(out, "{}{line}", if i == 0 { "  " } else { "      " })?;
        }
        match (&g.user_line, &g.user_code) {
            (Some(site), code) => {
                let site = display_site(site);
                let code = code.as_deref().map(|c| format!(": {c}")).unwrap_or_default();
                let room = wrap.saturating_sub(width(&site) + 3);
                writeln!(out, "      at {site}{}", ellipsize_middle(&code, room))?;
            }
            (None, _) => writeln!(out, "      at no user line the log names")?,
        }
        if let Some(lib) = &g.library_line {
            writeln!(out, "      broke in a library: {}", display_site(lib))?;
        }
        if let Some(hint) = g.hints.first() {
            for (i, line) in wrap_words(hint, wrap.saturating_sub(5)).iter().enumerate() {
                writeln!(out, "      {}{line}", if i == 0 { "fix: " } else { "     " })?;
            }
        }
    }
    if breaks.len() > SHOWN {
        writeln!(
            out,
            "  … {} more (summary --json lists them all)",
            plural(breaks.len() - SHOWN, "graph break", "graph breaks")
        )?;
    }
    Ok(())
}
