//! The diff once both sides are done: the verdict, the one-sided groups,
//! and the hint when the two sides name modules with different prefixes.

use super::{Aligner, A, B, MAX_GROUPS};
use crate::activation_diff::names::FastMap;
use crate::activation_diff::outcome::{Diff, DiffVerdict, Divergence, OneSided, OneSidedGroup, SideSummary};

impl Aligner<'_> {
    /// The result, once both sides are done.
    pub fn finish(mut self, a: SideSummary, b: SideSummary) -> Diff {
        self.done = [true, true];
        self.drain();
        let never_compared = self
            .stat_filter
            .iter()
            .flatten()
            .filter(|(_, hits)| *hits == 0)
            .map(|(s, _)| self.names.name(*s).to_string())
            .collect();
        let acc = self.acc;
        let mut kept: Vec<Divergence> = acc.kept.into_sorted_vec().into_iter().map(|k| k.0).collect();
        let first = (!kept.is_empty()).then(|| kept.remove(0));
        let [ga, gb] = acc.groups;
        let only_in_a = one_sided(acc.one_sided[A], ga);
        let only_in_b = one_sided(acc.one_sided[B], gb);
        let hint = prefix_hint(&only_in_a, &only_in_b);
        let missing = acc.one_sided[A] + acc.one_sided[B];
        // Nothing aligned is no evidence of parity, whatever --allow-missing says.
        // Nor is a pairing whose every value was null, `<error>` or junk.
        let numbers_compared = acc.values_compared - acc.not_comparable;
        let verdict = if a.read_errors + b.read_errors > 0 {
            // Fail closed: what was not read might have differed.
            DiffVerdict::Unreadable
        } else if acc.divergent > 0 || acc.compared == 0 || (missing > 0 && !self.opts.allow_missing) {
            DiffVerdict::Divergent
        } else if numbers_compared == 0 {
            DiffVerdict::NothingCompared
        } else {
            DiffVerdict::Equal
        };
        Diff {
            verdict,
            a,
            b,
            tolerance: self.opts.tolerance,
            stats: self.opts.stats,
            allow_missing: self.opts.allow_missing,
            compared: acc.compared,
            equal: acc.compared - acc.divergent,
            divergent: acc.divergent,
            values_compared: acc.values_compared,
            not_comparable: acc.not_comparable,
            first_divergence: first,
            next_divergences: kept,
            only_in_a,
            only_in_b,
            steps: acc.steps,
            steps_omitted: acc.steps_omitted,
            hint,
            stats_never_compared: never_compared,
        }
    }
}

fn one_sided(records: u64, groups: FastMap<(u32, u32), OneSidedGroup>) -> OneSided {
    let mut groups: Vec<OneSidedGroup> = groups.into_values().collect();
    groups.sort_by_key(|g| g.first_seq);
    let omitted = groups.len().saturating_sub(MAX_GROUPS) as u64;
    groups.truncate(MAX_GROUPS);
    OneSided {
        records,
        groups,
        groups_omitted: omitted,
    }
}

/// `transformer.blocks.0` only in A and `blocks.0` only in B share the
/// dotted suffix `blocks.0`: suggest stripping what precedes it.
fn prefix_hint(a: &OneSided, b: &OneSided) -> Option<String> {
    let (ga, gb) = (a.groups.first()?, b.groups.first()?);
    let (pa, pb) = dotted_prefixes(&ga.original, &gb.original)?;
    let mut flags = Vec::new();
    if !pa.is_empty() {
        flags.push(format!("--strip-prefix A={pa}"));
    }
    if !pb.is_empty() {
        flags.push(format!("--strip-prefix B={pb}"));
    }
    Some(format!(
        "{} only in A and {} only in B differ by a prefix: try {}",
        ga.original,
        gb.original,
        flags.join(" ")
    ))
}

/// The prefixes before the longest common suffix of whole dotted parts, when
/// there is such a suffix and the names differ.
fn dotted_prefixes<'s>(a: &'s str, b: &'s str) -> Option<(&'s str, &'s str)> {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    let common = pa.iter().rev().zip(pb.iter().rev()).take_while(|(x, y)| x == y).count();
    if common == 0 || (common == pa.len() && common == pb.len()) {
        return None;
    }
    let cut = |s: &'s str, parts: &[&str]| {
        let keep: usize = parts[parts.len() - common..].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
        &s[..s.len() - keep]
    };
    Some((cut(a, &pa), cut(b, &pb)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_before_a_common_dotted_suffix() {
        assert_eq!(
            dotted_prefixes("transformer.blocks.0.ln", "blocks.0.ln"),
            Some(("transformer.", ""))
        );
        assert_eq!(
            dotted_prefixes("model.h.1", "transformer.h.1"),
            Some(("model.", "transformer."))
        );
        assert_eq!(dotted_prefixes("a.b", "c.d"), None);
        assert_eq!(dotted_prefixes("a.b", "a.b"), None);
    }
}
