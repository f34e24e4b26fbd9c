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
    for e in frames {
        write_wrapped(out, &e.sentence(display_site), w, "  ", "      ")?;
        if let Some(fix) = &e.fix {
            write_wrapped(out, fix, w, "      fix: ", "           ")?;
        }
    }
    Ok(())
}
