use super::*;
use crate::reasons::split;

#[test]
fn a_size_that_is_also_a_dict_key_names_the_dict() {
    // Hand-made from rope_cache_dict_seqlen's 0/2 (tests/scenarios):
    // the size 32 the entry was compiled for is a key of self.cache.
    let all = [
        split::split("0/1: tensor 'x' size mismatch at index 1. expected 32, actual 64"),
        split::split("0/0: not ___dict_contains(32, self.cache)"),
    ];
    assert_eq!(compiled_size(&all[0].guard), Some("32"));
    assert_eq!(size_keyed_dict(&all[0], &all), Some("self.cache"));
    let other = split::split("0/1: tensor 'x' size mismatch at index 1. expected 16, actual 64");
    assert_eq!(size_keyed_dict(&other, &all), None);
    assert!(from_small_size(
        "tensor 'args[0]' size mismatch at index 0. expected 1, actual 2"
    ));
    assert!(!from_small_size(
        "tensor 'args[0]' size mismatch at index 0. expected 2, actual 1"
    ));
}

#[test]
fn a_declared_range_and_a_traced_bound_are_told_apart() {
    let declared = [("args[0].size()[0]".to_string(), "[2, 16]".to_string())];
    let guard = split::split("0/0: 2 <= args[0].size()[0] <= 16  # return F.linear(input, self.weight, self.bias)  # nn/modules/linear.py:134 in forward");
    assert!(declared_range(&guard, &declared).is_some());
    assert!(declared_range(&guard, &[]).is_none());
    assert!(traced_bound(&guard));
    let branch = split::split("0/1: x.size()[0] <= 16  # if x.shape[0] > 16:  # /home/me/train.py:7 in f");
    assert!(branch_bound(&branch).is_some());
    let specialised = split::split("0/1: 2 <= x.size()[0]");
    assert!(!traced_bound(&specialised));
    assert!(small_size(&specialised.guard));
}

#[test]
fn a_slice_bound_is_read_off_the_line() {
    // tta_views_per_request (tests/scenarios30): a list of flips cut by the
    // number of views the request asks for.
    assert_eq!(
        slice_bound("for dims in FLIPS[:n_views]:", "n_views"),
        Some("FLIPS[:n_views]")
    );
    assert_eq!(
        slice_bound("h = self.blocks[start:n]", "n"),
        Some("self.blocks[start:n]")
    );
    // An index is no slice; another name is not this one.
    assert_eq!(slice_bound("x = FLIPS[n_views]", "n_views"), None);
    assert_eq!(slice_bound("y = x[:, :n_keep]", "n_views"), None);
}
