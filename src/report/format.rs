//! Text helpers every view shares: counted words, numbers, times, cut and
//! wrapped text. One definition each, so the terminal, the HTML page and
//! the Python events say a thing the same way.

use super::text::{is_unsafe, terminal_safe};
use std::borrow::Cow;
use unicode_width::UnicodeWidthChar;

/// Compile ids named in a list before the rest are counted.
const MAX_IDS: usize = 8;

/// `0/0, 0/1, … 12 more`.
pub fn id_list(ids: &[String]) -> String {
    if ids.len() <= MAX_IDS {
        return ids.join(", ");
    }
    format!("{}, … {} more", ids[..MAX_IDS].join(", "), ids.len() - MAX_IDS)
}

// Every view counts words through `crate::words::plural`; re-exported here
// beside the other text helpers the views import.
pub use crate::words::plural;

/// Ranks as ranges, `0-15, 17, 19-63`, from any order.
pub fn rank_list(ranks: &[u32]) -> String {
    let mut sorted = ranks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", sorted[i], sorted[j])
        } else {
            sorted[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Items that are the same event on several ranks, folded into the first
/// of them with every rank it happened on, in order of first appearance:
/// the same recompile on 64 ranks is read once. `key` says what must match
/// (None: never folded, e.g. an item of a log without ranks); `pick` says
/// whether a later item should stand for its fold instead (the slowest).
pub fn fold_ranks<'a, T, K: PartialEq>(
    items: impl IntoIterator<Item = &'a T>,
    rank: impl Fn(&T) -> Option<u32>,
    key: impl Fn(&'a T) -> Option<K>,
    pick: impl Fn(&T, &T) -> bool,
) -> Vec<(&'a T, Vec<u32>)> {
    let mut out: Vec<(&'a T, Option<K>, Vec<u32>)> = Vec::new();
    for item in items {
        let k = rank(item).and_then(|_| key(item));
        match out.iter_mut().find(|(_, ok, _)| k.is_some() && *ok == k) {
            Some((shown, _, ranks)) => {
                ranks.extend(rank(item));
                if pick(item, shown) {
                    *shown = item;
                }
            }
            None => out.push((item, k, rank(item).into_iter().collect())),
        }
    }
    out.into_iter().map(|(item, _, ranks)| (item, ranks)).collect()
}

/// `text` cut after `max` characters, marked with `…`.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A module path as people read it: the root module's name is empty.
pub fn display_module(name: &str) -> String {
    if name.is_empty() {
        "(root)".to_string()
    } else {
        name.to_string()
    }
}

/// Seconds with precision that suits their size: `0.56 s`, `61.2 s`, `412 s`.
pub fn secs(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.2} s")
    } else if s < 100.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.0} s")
    }
}

pub fn millis(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 10_000.0 {
        format!("{ms:.0} ms")
    } else {
        secs(ms / 1000.0)
    }
}

/// `%g`-like: `sig` significant digits, fixed notation for moderate sizes.
pub fn g(v: f64, sig: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return crate::activation_diff::compare::json_f64(v)
            .as_str()
            .unwrap_or("nan")
            .to_string();
    }
    let exp = v.abs().log10().floor() as i32;
    if (-4..7).contains(&exp) {
        let decimals = (sig as i32 - 1 - exp).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        format!("{v:.prec$e}", prec = sig - 1)
    }
}

/// Unix seconds as `2026-11-21 10:35:12.123 UTC`; `?` for a time no
/// calendar of years -9999 to 9999 holds (a log may say anything).
pub fn utc(unix: f64) -> String {
    if !unix.is_finite() {
        return "?".to_string();
    }
    let millis = (unix * 1000.0).round() as i64;
    let Ok(t) = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000) else {
        return "?".to_string();
    };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03} UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.millisecond()
    )
}

/// Columns `s` takes in a terminal as guardscope prints it: a wide
/// character (CJK, most emoji) takes two, a combining one none, and a
/// character `SafeWriter` escapes the length of its escape (`\x1b`).
pub fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

fn char_width(c: char) -> usize {
    if is_unsafe(c) {
        terminal_safe(c.encode_utf8(&mut [0; 4])).len()
    } else {
        c.width().unwrap_or(0)
    }
}

/// `s` followed by spaces to `columns` columns: `format!`'s padding counts
/// chars, which misaligns a table holding wide ones.
pub fn pad(s: &str, columns: usize) -> String {
    format!("{s}{}", " ".repeat(columns.saturating_sub(width(s))))
}

/// The first `columns` columns' worth of `chars`.
fn take_columns(chars: impl Iterator<Item = char>, columns: usize) -> Vec<char> {
    let mut used = 0;
    chars
        .take_while(|&c| {
            used += char_width(c);
            used <= columns
        })
        .collect()
}

/// Keeps the end of a path, where the file name is; at most `max` columns.
pub fn ellipsize_start(s: &str, max: usize) -> String {
    if width(s) <= max || max < 2 {
        return s.to_string();
    }
    let mut tail = take_columns(s.chars().rev(), max - 1);
    tail.reverse();
    format!("…{}", String::from_iter(tail))
}

/// Keeps both ends of a guard: its root (`self._modules[...]`) and its
/// informative tail (`.capture_activation_norms == False`); at most `max`
/// columns.
pub fn ellipsize_middle(s: &str, max: usize) -> String {
    let s = s.replace('\n', " ⏎ ");
    if width(&s) <= max || max < 5 {
        return s;
    }
    let head = take_columns(s.chars(), (max - 1) / 3);
    let mut tail = take_columns(
        s.chars().rev(),
        max - 1 - head.iter().copied().map(char_width).sum::<usize>(),
    );
    tail.reverse();
    format!("{}…{}", String::from_iter(head), String::from_iter(tail))
}

/// `text` in lines of at most `columns` columns for a terminal, broken
/// between words (runs of whitespace become one space); a word longer than
/// a line stays whole on its own. Unsafe characters come back escaped, so
/// the lines are measured as they will be printed.
pub fn wrap_words(text: &str, columns: usize) -> Vec<String> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = terminal_safe(&words);
    // Every choice spelled out: textwrap's defaults follow its features,
    // which another crate in the build may turn on.
    let options = textwrap::Options::new(columns)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
    textwrap::wrap(&words, options)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_event_on_several_ranks_folds_into_the_slowest() {
        // (rank, what happened, seconds); rank None never folds.
        let items = [
            (Some(0), "a", 1.0),
            (Some(1), "a", 3.0),
            (Some(2), "b", 1.0),
            (None, "a", 1.0),
            (Some(3), "a", 2.0),
        ];
        let folded = fold_ranks(&items, |i| i.0, |i| Some(i.1), |x, y| x.2 > y.2);
        let seen: Vec<(f64, Vec<u32>)> = folded.iter().map(|(i, r)| (i.2, r.clone())).collect();
        assert_eq!(seen, [(3.0, vec![0, 1, 3]), (1.0, vec![2]), (1.0, vec![])]);
    }

    #[test]
    fn ranks_read_as_ranges() {
        assert_eq!(rank_list(&[3, 0, 1, 2, 17, 19, 20]), "0-3, 17, 19-20");
        assert_eq!(rank_list(&[5]), "5");
        assert_eq!(rank_list(&[]), "");
    }

    #[test]
    fn clip_cuts_at_a_character() {
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("héllo", 5), "héllo");
        assert_eq!(display_module(""), "(root)");
        assert_eq!(display_module("layers.0"), "layers.0");
    }

    #[test]
    fn utc_of_known_instants() {
        assert_eq!(utc(0.0), "1970-01-01 00:00:00.000 UTC");
        // 2026-11-21 10:35:12.5 UTC
        assert_eq!(utc(1_795_257_312.5), "2026-11-21 10:35:12.500 UTC");
        assert_eq!(utc(951_782_400.0), "2000-02-29 00:00:00.000 UTC");
        assert_eq!(utc(-0.0015), "1969-12-31 23:59:59.998 UTC");
        assert_eq!(utc(253_402_300_799.999_4), "9999-12-31 23:59:59.999 UTC");
        assert_eq!(utc(1e300), "?");
        assert_eq!(utc(f64::NAN), "?");
    }

    #[test]
    fn seconds_keep_sensible_precision() {
        assert_eq!(secs(0.557695), "0.56 s");
        assert_eq!(secs(61.23), "61.2 s");
        assert_eq!(secs(412.4), "412 s");
    }

    #[test]
    fn g_formats_like_printf_g() {
        assert_eq!(g(0.4774878377950244, 7), "0.4774878");
        assert_eq!(g(-52.41166440676898, 7), "-52.41166");
        assert_eq!(g(2.5e-9, 3), "2.50e-9");
        assert_eq!(g(0.1, 3), "0.1");
        assert_eq!(g(f64::INFINITY, 3), "inf");
        assert_eq!(g(0.0, 3), "0");
    }

    #[test]
    fn ellipsis_keeps_both_ends() {
        let s = "self._modules['a']._forward_hooks[0].__closure__[0].cell_contents.flag == False";
        let e = ellipsize_middle(s, 40);
        assert_eq!(e.chars().count(), 40);
        assert!(e.starts_with("self._modules"));
        assert!(e.ends_with("flag == False"));
        assert_eq!(ellipsize_middle("short", 40), "short");
        assert_eq!(ellipsize_start("/a/very/long/path/model.py:45", 12), "…model.py:45");
    }

    #[test]
    fn ellipsis_counts_columns_not_chars() {
        // Each of these characters takes two columns.
        let path = "/home/用户/项目/模型/训练/model.py:45";
        for max in 2..width(path) {
            let e = ellipsize_start(path, max);
            assert!(width(&e) <= max, "{e} is wider than {max}");
            assert!(width(&e) >= max - 1, "{e} wastes room in {max}");
        }
        assert_eq!(ellipsize_start(path, 12), "…model.py:45");
        assert_eq!(ellipsize_start(path, 16), "…练/model.py:45");
        let guard = "L['x'].size()[0] == 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀 and 汉字汉字汉字汉字 == 3";
        for max in 5..width(guard) {
            let e = ellipsize_middle(guard, max);
            assert!(width(&e) <= max, "{e} is wider than {max}");
            assert!(width(&e) >= max - 1, "{e} wastes room in {max}");
            assert!(e.starts_with('L') && e.ends_with('3'), "{e}");
        }
        assert_eq!(width("汉字 🚀 e\u{301}"), 9);
        assert_eq!(width("a\u{1b}[2J"), 8, "ESC is printed as \\x1b");
        assert_eq!(pad("汉字", 6), "汉字  ");
    }

    #[test]
    fn words_wrap_at_columns_and_long_words_stay_whole() {
        assert_eq!(wrap_words("one two  three\nfour", 9), ["one two", "three", "four"]);
        assert_eq!(wrap_words("a verylongword b", 4), ["a", "verylongword", "b"]);
        assert_eq!(wrap_words("", 10), [""]);
        assert_eq!(wrap_words("汉字 汉字 汉字", 9), ["汉字 汉字", "汉字"]);
        assert_eq!(wrap_words("one-off re-run", 8), ["one-off", "re-run"]);
        assert_eq!(wrap_words("a \u{1b}[2J", 6), ["a", "\\x1b[2J"]);
    }
}
