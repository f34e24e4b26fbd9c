//! Turns Dynamo's guard sources into the names a user would say:
//! `self._modules['pos_encoding']._buffers['pos_enc_cache']` ->
//! `pos_encoding.pos_enc_cache (buffer)`, `L['x']` -> `argument x`,
//! `G['flag']` -> `global flag`.

use regex::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// Older torch prints locals as `L['x']`; newer prints `x`.
pub fn strip_locals(expr: &str) -> String {
    static L: OnceLock<Regex> = OnceLock::new();
    re(&L, r"L\['([A-Za-z_][A-Za-z0-9_]*)'\]")
        .replace_all(expr, "$1")
        .into_owned()
}

/// Renders one guard source expression.
pub fn render(expr: &str) -> String {
    static MODULE: OnceLock<Regex> = OnceLock::new();
    static GLOBAL: OnceLock<Regex> = OnceLock::new();
    static IDENT: OnceLock<Regex> = OnceLock::new();
    let expr = strip_locals(expr.trim());
    // Dynamo guards a function's identity through its code object.
    if let Some(base) = expr.strip_suffix(".__code__") {
        let name = render(base);
        return format!("function {}", name.strip_prefix("argument ").unwrap_or(&name));
    }
    let module = re(
        &MODULE,
        r"^(?:self|fn)(?P<mods>(?:\._modules\['[^']+'\])*)(?:\._(?P<kind>buffers|parameters)\['(?P<member>[^']+)'\]|\.(?P<attr>[A-Za-z_][A-Za-z0-9_]*))?(?P<rest>.*)$",
    );
    if let Some(c) = module.captures(&expr) {
        let mut path: Vec<&str> = module_names(&c["mods"]);
        let suffix = match c.name("kind").map(|m| m.as_str()) {
            Some("buffers") => " (buffer)",
            Some(_) => " (parameter)",
            None => "",
        };
        if let Some(m) = c.name("member").or(c.name("attr")) {
            path.push(m.as_str());
        }
        let rest = &c["rest"];
        return if path.is_empty() {
            format!("the compiled module{rest}")
        } else if c.name("member").is_none() && c.name("attr").is_none() && rest.is_empty() {
            format!("module {}", path.join("."))
        } else if c["mods"].is_empty() && c.name("attr").is_some() {
            format!("self.{}{rest}{suffix}", path.join("."))
        } else {
            format!("{}{rest}{suffix}", path.join("."))
        };
    }
    if let Some(c) = re(&GLOBAL, r"^G\['(?P<name>[^']+)'\](?P<rest>.*)$").captures(&expr) {
        return format!("global {}{}", &c["name"], &c["rest"]);
    }
    if re(&IDENT, r"^[A-Za-z_][A-Za-z0-9_]*$").is_match(&expr) {
        return format!("argument {expr}");
    }
    expr
}

/// `._modules['a']._modules['b']` -> ["a", "b"].
pub fn module_names(chain: &str) -> Vec<&str> {
    chain
        .split("._modules['")
        .skip(1)
        .filter_map(|s| s.split('\'').next())
        .collect()
}

/// Dynamo's `HINT: guard on "collector".capture_activation_norms` names the
/// captured variable; this returns `collector.capture_activation_norms`.
pub fn from_guard_on_hint(hint: &str) -> Option<String> {
    let rest = hint.strip_prefix("guard on ")?;
    Some(rest.replace('"', "").trim().to_string()).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_sources_as_users_name_them() {
        let cases = [
            (
                "self._modules['pos_encoding']._buffers['pos_enc_cache']",
                "pos_encoding.pos_enc_cache (buffer)",
            ),
            (
                "L['self']._modules['enc']._parameters['weight']",
                "enc.weight (parameter)",
            ),
            ("self._modules['drop'].training", "drop.training"),
            ("self.num_repeats", "self.num_repeats"),
            ("fn._modules['0']", "module 0"),
            ("activation.__code__", "function activation"),
            ("fn", "the compiled module"),
            ("L['x']", "argument x"),
            ("x", "argument x"),
            ("G['USE_FAST_PATH']", "global USE_FAST_PATH"),
            ("G['cfg'].flag", "global cfg.flag"),
        ];
        for (expr, want) in cases {
            assert_eq!(render(expr), want, "{expr}");
        }
    }

    #[test]
    fn hint_names_the_captured_variable() {
        assert_eq!(
            from_guard_on_hint("guard on \"collector\".capture_activation_norms").as_deref(),
            Some("collector.capture_activation_norms")
        );
        assert_eq!(from_guard_on_hint("type list"), None);
    }
}
