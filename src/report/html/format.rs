//! Numbers and times as the report prints them.

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

/// Characters of one log text (a guard, a graph break, an error) the page
/// shows; summary.json keeps every text whole.
pub const MAX_SHOWN_CHARS: usize = 20_000;

/// `text` as the page shows it: cut after `MAX_SHOWN_CHARS` characters with
/// a note of how many more summary.json holds. A 1 MB guard text made an
/// 11 MB page that took seconds to open.
pub fn shown(text: String) -> String {
    cut(text, "summary.json")
}

/// Like `shown`, for a text that only `whole_in` holds whole (summary.json
/// counts graph breaks, the log has their text).
pub fn cut(text: String, whole_in: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN_CHARS) {
        None => text,
        Some((at, _)) => {
            let more = text[at..].chars().count();
            format!("{}… {more} more characters; full text in {whole_in}", &text[..at])
        }
    }
}

pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Unix seconds as `2026-11-21 10:35:12.123 UTC`.
pub fn utc(unix: f64) -> String {
    if !unix.is_finite() {
        return "?".to_string();
    }
    let millis = (unix * 1000.0).round() as i64;
    let (days, ms_of_day) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let (h, rest) = (ms_of_day / 3_600_000, ms_of_day % 3_600_000);
    let (min, rest) = (rest / 60_000, rest % 60_000);
    let (s, ms) = (rest / 1000, rest % 1000);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02}:{s:02}.{ms:03} UTC")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_at_a_character_with_a_note() {
        let short = "é".repeat(MAX_SHOWN_CHARS);
        assert_eq!(shown(short.clone()), short);
        let long = "é".repeat(MAX_SHOWN_CHARS + 5);
        assert_eq!(
            shown(long),
            format!("{short}… 5 more characters; full text in summary.json")
        );
    }

    #[test]
    fn utc_of_known_instants() {
        assert_eq!(utc(0.0), "1970-01-01 00:00:00.000 UTC");
        // 2026-11-21 10:35:12.5 UTC
        assert_eq!(utc(1_795_257_312.5), "2026-11-21 10:35:12.500 UTC");
        assert_eq!(utc(951_782_400.0), "2000-02-29 00:00:00.000 UTC");
    }

    #[test]
    fn seconds_keep_sensible_precision() {
        assert_eq!(secs(0.557695), "0.56 s");
        assert_eq!(secs(61.23), "61.2 s");
        assert_eq!(secs(412.4), "412 s");
    }
}
