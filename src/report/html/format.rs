//! Log texts as the page shows them: cut, with a note of where the whole
//! text is. Shared text helpers are in `report::format`.

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
}
