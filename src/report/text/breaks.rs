//! The summary's graph breaks: each distinct break once (the analysis's
//! `graph_breaks`, the list the report page's section shows), where it is in
//! the user's code, what broke in one line, its registry id and torch's
//! own fix when the log states one.

use super::fit::{write_labelled, write_site, write_wrapped};
use super::TerminalOptions;
use crate::analysis::GraphBreak;
use crate::report::format::{id_list, plural};
use crate::report::paths::display_site;
use std::io::{self, Write};

/// Breaks listed; `summary --json` has them all.
const SHOWN: usize = 10;

pub fn write_graph_breaks(out: &mut dyn Write, breaks: &[GraphBreak<'_>], opts: &TerminalOptions) -> io::Result<()> {
    if breaks.is_empty() {
        return Ok(());
    }
    let w = opts.width;
    let head = format!(
        "Graph breaks ({} distinct; each splits its frame into separately compiled parts; most logged first):",
        breaks.len()
    );
    write_wrapped(out, &head, w, "", "  ")?;
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
        write_wrapped(out, &head, w, "  ", "      ")?;
        match &g.user_line {
            Some(site) => write_site(out, "      at ", site, g.user_code.as_deref(), w)?,
            None => writeln!(out, "      at no user line the log names")?,
        }
        if let Some(lib) = &g.library_line {
            write_labelled(
                out,
                "      broke in a library: ",
                &display_site(lib),
                opts.width,
                "        ",
            )?;
        }
        if let Some(hint) = g.hints.first() {
            write_wrapped(out, hint, w, "      fix: ", "           ")?;
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
