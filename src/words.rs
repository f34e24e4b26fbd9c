//! Counted words, for every layer: the input layer names what a directory
//! held as the report names what a run did, so the one helper lives below
//! them all (data flows input -> ... -> report, never back).

/// `1 frame`, `2 frames`; `one` and `many` whole, for the irregular ones
/// (`compile is` / `compiles are`).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_counts_regular_and_irregular_words() {
        assert_eq!(plural(1, "frame", "frames"), "1 frame");
        assert_eq!(plural(0, "frame", "frames"), "0 frames");
        assert_eq!(plural(2, "compile is", "compiles are"), "2 compiles are");
    }
}
