//! The summary's frames that run eagerly: each frame Dynamo did not compile
//! (skipped, failed, over the recompile limit), named as such, with the
//! cost per call, the line that caused it and the fix.

use super::fit::write_wrapped;
use super::TerminalOptions;
use crate::analysis::EagerFrame;
use crate::report::paths::display_site;
use std::io::{self, Write};

pub fn write_eager_frames(out: &mut dyn Write, frames: &[EagerFrame], opts: &TerminalOptions) -> io::Result<()> {
    if frames.is_empty() {
        return Ok(());
    }
    let w = opts.width;
    write_wrapped(
        out,
        "Not compiled (these frames run eagerly; the frames they call are compiled on their own):",
        w,
        "",
        "  ",
    )?;
    // Every rank's copy of a frame says the same: each sentence once,
    // with the ranks that share it.
    let mut shown: Vec<(String, usize, Option<&String>)> = Vec::new();
    for e in frames {
        let sentence = e.sentence(display_site);
        match shown.iter_mut().find(|(s, _, _)| *s == sentence) {
            Some((_, copies, _)) => *copies += 1,
            None => shown.push((sentence, 1, e.fix.as_ref())),
        }
    }
    for (sentence, copies, fix) in shown {
        let line = if copies > 1 {
            format!("{sentence} on {copies} ranks")
        } else {
            sentence
        };
        write_wrapped(out, &line, w, "  ", "      ")?;
        if let Some(fix) = fix {
            write_wrapped(out, fix, w, "      fix: ", "           ")?;
        }
    }
    Ok(())
}
