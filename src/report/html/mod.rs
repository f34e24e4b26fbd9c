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
    tera.render("report.html.tera", &context)
}
