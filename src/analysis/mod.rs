//! Questions asked of the model: which compiles are recompiles, what caused
//! each one, and the run's totals.

mod cause;
pub mod check;
mod cost;
mod culprits;
mod eager;
mod finding;
mod findings;
mod frame_groups;
mod frame_ref;
mod graph_breaks;
pub mod judge;
mod ranks;
mod shared_causes;
pub mod steps;
mod totals;
mod unfinished;

pub use cause::{call_site, cause_of, frame_call_site, user_calls, CallSite, UserLine};
pub use cost::{Cost, EagerFallback, COSTLY_EXPECTED_SECONDS};
pub use culprits::CulpritGroup;
pub use eager::EagerFrame;
pub use finding::Finding;
pub use findings::{analyse, Findings};
pub use frame_groups::{FrameGroup, RankDifference};
pub use frame_ref::{frame_name, FrameRef};
pub use graph_breaks::GraphBreak;
pub use judge::{EvidenceKind, Judgement, Ownership, Severity, ValueOwner};
pub use ranks::{lone_ranks, mode as rank_mode, LoneRank};
pub use shared_causes::SharedCause;
pub use totals::{totals, Totals};
