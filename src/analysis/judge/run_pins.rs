//! What the run's other frames show of a size: a frame whose traced code
//! pins it (its new entry holds the size static although automatic dynamic
//! shapes are on, as a library's code that formats or branches on a length
//! does). The same tensor reaching the frame the user calls cannot be
//! marked dynamic then: torch raises when traced code specialises a dim
//! the user marked. Read once per run, before its frames are judged.

use super::guard_text::{compiled_size, pinned};
use crate::model::Run;
use crate::reasons::subject::size_mismatch_dim;
use std::collections::HashMap;

/// The pinned size changes of each process (pid, generation).
pub type Pins = HashMap<(u64, u32), Vec<PinnedSize>>;

/// One size change a frame's new entry held static.
pub struct PinnedSize {
    pub frame_id: u32,
    /// `frame 4 (_pad_to_window_size)`.
    pub frame: String,
    /// The size the failed entry had and the one the call brought.
    pub sizes: (String, u64),
}

/// Every size change that some frame of the run held static in its new
/// entry, by process (and `torch._dynamo.reset()` generation): a fleet of
/// ranks is looked up one process at a time.
pub fn pinned_sizes(run: &Run) -> Pins {
    let mut out = Pins::default();
    for frame in &run.frames {
        for c in frame
            .compiles
            .iter()
            .filter(|c| c.frame_compile_id.is_some_and(|n| n > 0))
        {
            for g in c.recompile_reasons.iter().filter(|g| pinned(g, c.automatic_dynamic)) {
                let (Some(old), Some(new)) = (compiled_size(&g.guard), super::guard_text::actual_size(&g.guard)) else {
                    continue;
                };
                let function = frame.function.as_deref().unwrap_or("?");
                out.entry((frame.pid, frame.generation)).or_default().push(PinnedSize {
                    frame_id: frame.frame_id,
                    frame: format!("frame {} ({function})", frame.frame_id),
                    sizes: (old.to_string(), new),
                });
            }
        }
    }
    out
}

/// Another frame of the same process that held this guard's size change
/// static, when one did.
pub(super) fn pinned_elsewhere<'p>(
    pins: &'p Pins,
    frame: &crate::model::Frame,
    guard: &crate::reasons::GuardFailure,
) -> Option<&'p PinnedSize> {
    size_mismatch_dim(&guard.guard)?;
    let sizes = (
        compiled_size(&guard.guard)?.to_string(),
        super::guard_text::actual_size(&guard.guard)?,
    );
    pins.get(&(frame.pid, frame.generation))?
        .iter()
        .find(|p| p.frame_id != frame.frame_id && p.sizes == sizes)
}
