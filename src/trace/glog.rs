//! The glog prefix torch writes before every structured-trace envelope:
//! `V1121 11:35:10.695000 2524 torch/_dynamo/guards.py:6378] {json}`.

/// Wall-clock time as glog prints it: no year and no time zone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogTime {
    pub month: u8,
    pub day: u8,
    /// Seconds since local midnight, with microseconds.
    pub seconds_of_day: f64,
}

impl LogTime {
    /// Unix seconds, reading the time as UTC in `year`. glog omits both the
    /// year and the zone, so this is only an estimate; guardscope prefers the
    /// `start_time` that `compilation_metrics` carries when there is one.
    pub fn to_unix(self, year: i32) -> f64 {
        let days = days_from_civil(year, self.month as u32, self.day as u32);
        days as f64 * 86_400.0 + self.seconds_of_day
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y } as i64;
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[derive(Debug, PartialEq)]
pub struct GlogLine<'a> {
    pub level: u8,
    pub time: LogTime,
    pub pid: u64,
    /// The torch source location that emitted the line, `file.py:123`.
    pub source: &'a [u8],
    /// Everything after `] `: the JSON envelope.
    pub message: &'a [u8],
}

/// Parses the prefix by hand: it runs on every envelope line, and a regex
/// here would cost more than the JSON parse of a small envelope.
pub fn parse(line: &[u8]) -> Option<GlogLine<'_>> {
    let level = *line.first()?;
    if !matches!(level, b'V' | b'I' | b'W' | b'E' | b'C' | b'D') {
        return None;
    }
    let mut rest = &line[1..];
    let month = take_digits(&mut rest, 2)? as u8;
    let day = take_digits(&mut rest, 2)? as u8;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    expect_spaces(&mut rest)?;
    let hour = take_digits(&mut rest, 2)?;
    expect(&mut rest, b':')?;
    let minute = take_digits(&mut rest, 2)?;
    expect(&mut rest, b':')?;
    let second = take_digits(&mut rest, 2)?;
    let mut fraction = 0.0;
    if rest.first() == Some(&b'.') {
        rest = &rest[1..];
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        let digits = parse_u64(&rest[..n])?;
        fraction = digits as f64 / 10f64.powi(n as i32);
        rest = &rest[n..];
    }
    expect_spaces(&mut rest)?;
    let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 19 {
        return None;
    }
    // Older torch wrote the thread id here (15 digits), not the pid.
    let pid = parse_u64(&rest[..n])?;
    rest = &rest[n..];
    expect_spaces(&mut rest)?;
    // Built once: a search built per line costs more than the search.
    static CLOSE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"] "));
    let close = CLOSE.find(rest)?;
    let source = &rest[..close];
    let message = &rest[close + 2..];
    Some(GlogLine {
        level,
        time: LogTime {
            month,
            day,
            seconds_of_day: (hour * 3600 + minute * 60 + second) as f64 + fraction,
        },
        pid,
        source,
        message,
    })
}

fn take_digits(rest: &mut &[u8], n: usize) -> Option<u32> {
    if rest.len() < n || !rest[..n].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = parse_u64(&rest[..n])? as u32;
    *rest = &rest[n..];
    Some(v)
}

fn parse_u64(digits: &[u8]) -> Option<u64> {
    digits
        .iter()
        .try_fold(0u64, |acc, d| acc.checked_mul(10)?.checked_add((d - b'0') as u64))
}

fn expect(rest: &mut &[u8], byte: u8) -> Option<()> {
    if rest.first() == Some(&byte) {
        *rest = &rest[1..];
        Some(())
    } else {
        None
    }
}

fn expect_spaces(rest: &mut &[u8]) -> Option<()> {
    let n = rest.iter().take_while(|b| **b == b' ').count();
    if n == 0 {
        return None;
    }
    *rest = &rest[n..];
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_real_prefix() {
        let line = br#"V1121 11:35:10.695000 2524 torch/_dynamo/guards.py:6378] {"a": 1}"#;
        let g = parse(line).unwrap();
        assert_eq!(g.level, b'V');
        assert_eq!((g.time.month, g.time.day), (11, 21));
        assert!((g.time.seconds_of_day - (11.0 * 3600.0 + 35.0 * 60.0 + 10.695)).abs() < 1e-9);
        assert_eq!(g.pid, 2524);
        assert_eq!(g.source, b"torch/_dynamo/guards.py:6378");
        assert_eq!(g.message, br#"{"a": 1}"#);
    }

    #[test]
    fn rejects_lines_that_are_not_glog() {
        for bad in [
            &b""[..],
            b"hello world",
            b"V13 11:35:10.695000 1 f.py:1] {}",
            b"V1121 11:35:10.695000 abc f.py:1] {}",
            b"V1121 11:35:10.695000 2524 no-bracket {}",
            b"V1321 11:35:10.695000 2524 f.py:1] {}",
        ] {
            assert!(parse(bad).is_none(), "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn unix_time_of_a_known_date() {
        let t = LogTime {
            month: 1,
            day: 2,
            seconds_of_day: 3.5,
        };
        assert_eq!(t.to_unix(1970), 86_400.0 + 3.5);
        let t = LogTime {
            month: 11,
            day: 21,
            seconds_of_day: 0.0,
        };
        assert_eq!(t.to_unix(2026), 1_795_219_200.0);
    }
}
