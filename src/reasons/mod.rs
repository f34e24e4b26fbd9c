//! Recompile reasons: splitting Dynamo's guard-failure text into its parts,
//! and classifying it (category, culprit, source, detail, advice).

pub mod assignment;
pub mod category;
pub mod change;
pub mod classify;
pub mod culprit;
pub mod graph_break;
mod guard_cache;
pub mod guard_line;
pub mod guard_site;
pub mod guard_tree;
pub mod limit;
pub mod paths;
pub mod rule;
pub mod rules;
pub mod split;
pub mod subject;

pub use change::{GuardChange, GuardedNow};
pub use classify::{classify, Category, RecompileReason, NO_REASON, UNRECOGNISED};
pub use guard_cache::GuardCache;
pub use guard_line::{FailedGuard, TreeLine};
pub use guard_site::{graph_read_site, guard_sites, locate, locate_read, tensorified, GuardSite};
pub use guard_tree::{constant_comparison, guarded_now, GuardSet};
pub use split::{guard_test, split, Assignment, GuardFailure, Location};
pub use subject::failed_subject;
