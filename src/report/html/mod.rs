//! The HTML report: one self-contained page (inline CSS, JS and SVG, no
//! network) rendered from `templates/` with tera. Autoescaping is on for
//! every template, and no log-derived value is marked safe: guard texts are
//! code and routinely contain `<`, `>` and quotes.

mod format;
mod page;
mod palette;
mod ranks;
mod timeline;

pub use page::{Page, PageInput, MAX_FRAMES};
pub use timeline::MAX_LANES;

use tera::{Context, Tera};

const TEMPLATES: [(&str, &str); 6] = [
    ("report.html.tera", include_str!("../../../templates/report.html.tera")),
    (
        "timeline.html.tera",
        include_str!("../../../templates/timeline.html.tera"),
    ),
    ("frames.html.tera", include_str!("../../../templates/frames.html.tera")),
    ("ranks.html.tera", include_str!("../../../templates/ranks.html.tera")),
    ("style.css.tera", include_str!("../../../templates/style.css.tera")),
    ("script.js.tera", include_str!("../../../templates/script.js.tera")),
];

pub fn render(input: &PageInput<'_>) -> Result<String, tera::Error> {
    let mut tera = Tera::default();
    tera.add_raw_templates(TEMPLATES)?;
    // The default only escapes names ending in .html; ours end in .tera.
    tera.autoescape_on(vec![".tera"]);
    let page = page::build(input);
    let context = Context::from_serialize(&page)?;
    Ok(reveal_invisible(&tera.render("report.html.tera", &context)?))
}

/// Bidirectional overrides and zero-width characters can make a file name
/// or guard read differently from what it is (`evil\u{202e}yp.py`). None
/// occurs in the templates, so every one on the page came from a log: show
/// it as a visible `⟨U+202E⟩`.
fn reveal_invisible(html: &str) -> String {
    let hidden = |c: char| {
        matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{061c}')
    };
    if !html.contains(hidden) {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len() + 64);
    for c in html.chars() {
        if hidden(c) {
            out.push_str(&format!("⟨U+{:04X}⟩", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::reveal_invisible;

    #[test]
    fn bidi_and_zero_width_characters_become_visible() {
        assert_eq!(reveal_invisible("a\u{202e}b\u{200b}c"), "a⟨U+202E⟩b⟨U+200B⟩c");
        assert_eq!(reveal_invisible("plain ünïcödé"), "plain ünïcödé");
    }
}
