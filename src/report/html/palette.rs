//! One colour per legend entry (each recompile category, a first compile, a
//! failed compile, a slow step), the same in the timeline, the legend and
//! the badges, so a colour means one thing everywhere on the page. No two
//! are alike (tested below), and none is the only signal: the legend names
//! each, failed bars are hatched, slow steps dotted, and recompile bars carry
//! their legend mark.

use crate::reasons::Category;

pub const FIRST_COMPILE: &str = "#9aa5b1";
/// The page's "bad" red; failed bars keep their cause's colour, hatched.
pub const FAILED: &str = "#c92a2a";
pub const SLOW_STEP: &str = "#006600";

pub fn category(c: Category) -> &'static str {
    match c {
        Category::ShapeLazyBuffer => "#e8590c",
        Category::ShapeInput => "#f59f00",
        Category::Stride => "#bb8855",
        Category::Dtype => "#74b816",
        Category::Device => "#2f9e44",
        Category::RequiresGrad => "#0ca678",
        Category::ClosureHookState => "#d6336c",
        Category::ClosureState => "#ae3ec9",
        Category::GlobalVar => "#7048e8",
        Category::TorchGlobalState => "#4263eb",
        Category::NnModuleAttr => "#1c7ed6",
        Category::ObjectId => "#1098ad",
        Category::TypeChange => "#0b7285",
        Category::ConstantValue => "#5c940d",
        Category::ContainerLen => "#a61e4d",
        Category::DictKeys => "#862e9c",
        Category::HooksChanged => "#000088",
        Category::OptimizerHyperparam => "#b35900",
        Category::OptimizerState => "#8f7d00",
        Category::OptimizerRecreated => "#5f3dc4",
        Category::FunctionIdentity => "#087f5b",
        Category::KvCache => "#364fc7",
        Category::NewAttribute => "#770000",
        Category::CacheLimit => "#212529",
        Category::Other => "#6c757d",
    }
}

/// Every colour above: the first compile, failed, a slow step, then each
/// category's.
pub fn all() -> Vec<&'static str> {
    let mut all = vec![FIRST_COMPILE, FAILED, SLOW_STEP];
    all.extend(Category::ALL.iter().map(|c| category(*c)));
    all
}

/// A colour as the dark scheme draws it: those too dark to see on a dark
/// card are lighter there (still no two alike, tested below). The page's
/// dark stylesheet maps each by the colour itself, so a template that
/// writes `fill="#000088"` or `--c: #000088` needs nothing of its own.
pub fn on_dark(color: &'static str) -> &'static str {
    match color {
        "#7048e8" => "#7b56ea",
        "#4263eb" => "#4767eb",
        "#0b7285" => "#0c7e93",
        "#087f5b" => "#08845e",
        "#c92a2a" => "#e03131",
        "#006600" => "#69db7c",
        "#a61e4d" => "#f783ac",
        "#862e9c" => "#e599f7",
        "#5f3dc4" => "#b197fc",
        "#000088" => "#a5b4fc",
        "#364fc7" => "#748ffc",
        "#212529" => "#dee2e6",
        "#770000" => "#ff6b6b",
        same => same,
    }
}

/// The colours `on_dark` changes, light to dark, for the stylesheet.
pub fn dark_overrides() -> Vec<(&'static str, &'static str)> {
    all()
        .into_iter()
        .map(|c| (c, on_dark(c)))
        .filter(|(light, dark)| light != dark)
        .collect()
}

/// The dark scheme's card, which every colour is drawn on.
pub const DARK_CARD: &str = "#1c232c";

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(hex: &str) -> [f64; 3] {
        let n = u32::from_str_radix(&hex[1..], 16).expect("#rrggbb");
        [(n >> 16) as f64, ((n >> 8) & 255) as f64, (n & 255) as f64]
    }

    /// The "redmean" approximation of perceived colour distance.
    fn distance(a: &str, b: &str) -> f64 {
        let (a, b) = (rgb(a), rgb(b));
        let r = (a[0] + b[0]) / 2.0;
        let d: Vec<f64> = (0..3).map(|i| a[i] - b[i]).collect();
        ((2.0 + r / 256.0) * d[0] * d[0] + 4.0 * d[1] * d[1] + (2.0 + (255.0 - r) / 256.0) * d[2] * d[2]).sqrt()
    }

    /// WCAG's contrast ratio of two colours.
    fn contrast(a: &str, b: &str) -> f64 {
        let luminance = |hex: &str| {
            let c = rgb(hex).map(|v| {
                let v = v / 255.0;
                if v <= 0.03928 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            });
            0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        };
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn on_dark_every_colour_stands_out_from_the_card_and_from_each_other() {
        let dark: Vec<&str> = all().into_iter().map(on_dark).collect();
        for c in &dark {
            // 3:1 is WCAG's minimum for graphics; #000088 was 1.02.
            assert!(
                contrast(c, DARK_CARD) >= 3.0,
                "{c} on {DARK_CARD}: {:.2}",
                contrast(c, DARK_CARD)
            );
        }
        for (i, a) in dark.iter().enumerate() {
            for b in &dark[i + 1..] {
                assert!(
                    distance(a, b) >= 60.0,
                    "{a} and {b} look alike on dark ({:.0})",
                    distance(a, b)
                );
            }
        }
        assert_eq!(dark_overrides().len(), 13);
    }

    #[test]
    fn every_legend_entry_has_a_colour_no_other_is_close_to() {
        // The slow-step orange and shape_input's were 39 apart: one colour.
        let mut all: Vec<(String, &str)> = Category::ALL
            .iter()
            .map(|c| (c.name().to_string(), category(*c)))
            .collect();
        all.extend([
            ("first".into(), FIRST_COMPILE),
            ("failed".into(), FAILED),
            ("slow".into(), SLOW_STEP),
        ]);
        for (i, (a, ca)) in all.iter().enumerate() {
            for (b, cb) in &all[i + 1..] {
                assert!(
                    distance(ca, cb) >= 60.0,
                    "{a} {ca} and {b} {cb} look alike ({:.0})",
                    distance(ca, cb)
                );
            }
        }
    }
}
