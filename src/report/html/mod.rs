//! The HTML report: one self-contained page (inline CSS, JS and SVG, no
//! network) rendered from `templates/` with tera. Autoescaping is on for
//! every template, and no log-derived value is marked safe: guard texts are
//! code and routinely contain `<`, `>` and quotes.

mod activations;
mod breaks;
mod cost;
mod format;
mod frames;
mod guards;
mod links;
mod page;
mod palette;
mod ranks;
mod timeline;
mod verdict;

pub use frames::MAX_FRAMES;
pub use page::{Page, PageInput};
pub use timeline::MAX_LANES;

use crate::analysis::Findings;
use tera::{Context, Tera};

/// How the page is written, beside what it shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageOptions {
    /// No `file://` or `vscode://` links on source lines (`--no-links`).
    pub no_links: bool,
    /// compile_trace.json is written beside the page, so the page links it.
    pub compile_trace: bool,
}

/// The page's only script. It is inserted verbatim and the page's
/// Content-Security-Policy allows exactly this script by its hash, so even
/// markup that slipped past escaping could not run one of its own.
const SCRIPT: &str = include_str!("../../../templates/script.js");

const TEMPLATES: [(&str, &str); 12] = [
    ("report.html.tera", include_str!("../../../templates/report.html.tera")),
    (
        "findings.html.tera",
        include_str!("../../../templates/findings.html.tera"),
    ),
    (
        "notebook.html.tera",
        include_str!("../../../templates/notebook.html.tera"),
    ),
    (
        "timeline.html.tera",
        include_str!("../../../templates/timeline.html.tera"),
    ),
    ("frames.html.tera", include_str!("../../../templates/frames.html.tera")),
    ("ranks.html.tera", include_str!("../../../templates/ranks.html.tera")),
    ("breaks.html.tera", include_str!("../../../templates/breaks.html.tera")),
    (
        "activations.html.tera",
        include_str!("../../../templates/activations.html.tera"),
    ),
    ("style.css.tera", include_str!("../../../templates/style.css.tera")),
    ("guards.html.tera", include_str!("../../../templates/guards.html.tera")),
    ("guards.css.tera", include_str!("../../../templates/guards.css.tera")),
    ("cost.html.tera", include_str!("../../../templates/cost.html.tera")),
];

fn templates() -> Result<Tera, tera::Error> {
    let mut tera = Tera::default();
    tera.add_raw_templates(TEMPLATES)?;
    // The default only escapes names ending in .html; ours end in .tera.
    tera.autoescape_on(vec![".tera"]);
    Ok(tera)
}

pub fn render(input: &PageInput<'_>) -> Result<String, tera::Error> {
    let tera = templates()?;
    let page = page::build(input);
    let mut context = Context::from_serialize(&page)?;
    context.insert("script", SCRIPT);
    context.insert("slow_color", palette::SLOW_STEP);
    context.insert("slow_color_dark", palette::on_dark(palette::SLOW_STEP));
    context.insert("dark_palette", &palette::dark_overrides());
    context.insert("dark_card", palette::DARK_CARD);
    context.insert("script_hash", &script_hash());
    context.insert("fragment", &false);
    context.insert("id_prefix", "");
    Ok(reveal_invisible(&tera.render("report.html.tera", &context)?))
}

/// The page's verdict and "What to fix" cards alone, for a notebook cell
/// (the Python `Run._repr_html_`): the same template the page includes.
pub fn render_fragment(findings: &Findings<'_>) -> Result<String, tera::Error> {
    let tera = templates()?;
    let mut context = Context::from_serialize(page::headline(findings))?;
    // The page's stylesheet, shared: the same variables as `render`.
    context.insert("slow_color", palette::SLOW_STEP);
    context.insert("slow_color_dark", palette::on_dark(palette::SLOW_STEP));
    context.insert("dark_palette", &palette::dark_overrides());
    context.insert("dark_card", palette::DARK_CARD);
    // A notebook shows many runs in one document: each fragment's ids are
    // its own, and it links to no section it does not hold (the frames).
    static SHOWN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let shown = SHOWN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    context.insert("fragment", &true);
    context.insert("id_prefix", &format!("guardscope-{shown}-"));
    let html = tera.render("notebook.html.tera", &context)?;
    // The page's styles sit nested under the fragment's class, so its
    // `body`, `section` and `h2` rules stay off the rest of the notebook;
    // `:root`'s colour variables become the fragment's own (`&`). Only the
    // style element is touched: a log's text must stay as it was.
    let (style, rest) = html.split_once("</style>").unwrap_or((&html, ""));
    let html = format!("{}</style>{rest}", style.replace(":root", "&"));
    Ok(reveal_invisible(&html))
}

/// `sha256-<base64>` of the script, as CSP's `script-src` wants it.
fn script_hash() -> String {
    use sha2::{Digest, Sha256};
    format!("sha256-{}", base64(&Sha256::digest(SCRIPT.as_bytes())))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
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
    use super::{base64, reveal_invisible};

    #[test]
    fn base64_matches_the_rfc_examples() {
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn bidi_and_zero_width_characters_become_visible() {
        assert_eq!(reveal_invisible("a\u{202e}b\u{200b}c"), "a⟨U+202E⟩b⟨U+200B⟩c");
        assert_eq!(reveal_invisible("plain ünïcödé"), "plain ünïcödé");
    }
}
