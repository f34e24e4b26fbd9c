//! Turns Dynamo's guard sources into the names a user would say:
//! `self._modules['pos_encoding']._buffers['pos_enc_cache']` ->
//! `pos_encoding.pos_enc_cache (buffer)`, `L['x']` -> `argument x`,
//! `G['flag']` -> `global flag`.

use regex::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// Older torch prints locals as `L['x']`; newer prints `x`. A byte scan,
/// not a regex: it runs on every guard of every tree, and most have no
/// `L['` at all.
pub fn strip_locals(expr: &str) -> String {
    static LOCAL: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("L['"));
    let bytes = expr.as_bytes();
    let mut out = String::with_capacity(expr.len());
    let (mut copied, mut from) = (0, 0);
    while let Some(found) = LOCAL.find(&bytes[from..]) {
        let name_at = from + found + 3;
        let name_len = identifier_len(&bytes[name_at..]);
        if name_len > 0 && bytes[name_at + name_len..].starts_with(b"']") {
            out.push_str(&expr[copied..from + found]);
            out.push_str(&expr[name_at..name_at + name_len]);
            copied = name_at + name_len + 2;
            from = copied;
        } else {
            from += found + 1;
        }
    }
    out.push_str(&expr[copied..]);
    out
}

/// The length of the Python identifier (ASCII, as `[A-Za-z_][A-Za-z0-9_]*`)
/// at the start of `bytes`, 0 if none starts there.
fn identifier_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => bytes
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count(),
        _ => 0,
    }
}

/// A guard expression in one spelling across torch versions: locals
/// without `L[...]`, `object.__getattribute__(x, 'a')` as `x.a`, and
/// torch 2.11's `___as_tensor(x).item()` around a float as `x`.
pub fn canonical(expr: &str) -> String {
    static GETATTR: OnceLock<Regex> = OnceLock::new();
    static AS_TENSOR: OnceLock<Regex> = OnceLock::new();
    let mut expr = strip_locals(expr);
    // The regexes only where their literal is: most guards hold neither.
    if expr.contains("object.__getattribute__(") {
        expr = re(
            &GETATTR,
            r"object\.__getattribute__\(([^,()]+), '([A-Za-z_][A-Za-z0-9_]*)'\)",
        )
        .replace_all(&expr, "$1.$2")
        .into_owned();
    }
    // `m.__dict__['_modules']['base']` (a wrapper that reaches its
    // submodules through the instance dict, as PEFT's does) is `m._modules['base']`.
    if expr.contains(".__dict__['") {
        static INSTANCE_DICT: OnceLock<Regex> = OnceLock::new();
        expr = re(&INSTANCE_DICT, r"\.__dict__\['([A-Za-z_][A-Za-z0-9_]*)'\]")
            .replace_all(&expr, ".$1")
            .into_owned();
    }
    if expr.contains("___as_tensor(") {
        expr = re(&AS_TENSOR, r"___as_tensor\(([^()]*(?:\([^()]*\))?[^()]*)\)\.item\(\)")
            .replace_all(&expr, "$1")
            .into_owned();
    }
    expr
}

/// The subject of a comparison guard, without the value it was compiled
/// for: `self.param_groups[0]['lr'] == 0.01` -> `self.param_groups[0]['lr']`.
/// A culprit never holds the value, so that seven lr values are one cause.
pub fn subject_of(guard: &str) -> &str {
    let g = guard.trim();
    let g = g.strip_prefix("not ").unwrap_or(g);
    const OPERATORS: [&str; 8] = [" == ", " != ", " is not ", " is ", " <= ", " >= ", " < ", " > "];
    let cut = OPERATORS.iter().filter_map(|op| g.find(op)).min();
    match cut {
        Some(i) => g[..i].trim(),
        None => g,
    }
}

/// A bare Python name (`scale`, `eq`, `hidden_states`): no attribute,
/// index or call in it.
pub fn is_plain_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The name a user would type for a guard source, for advice:
/// `kwargs['input_ids']` -> `input_ids`, `L['x']` -> `x`,
/// `self._modules['enc']._buffers['cache']` -> `self.enc.cache`.
pub fn python_name(expr: &str) -> String {
    static KWARG: OnceLock<Regex> = OnceLock::new();
    let expr = strip_locals(expr.trim());
    if let Some(n) = expr.strip_prefix("args[").and_then(|r| r.strip_suffix(']')) {
        // A wrapper's `*args`: the user passed it without a name we know.
        return format!("<positional argument {n}>");
    }
    let expr = re(&KWARG, r"^kwargs\['([A-Za-z_][A-Za-z0-9_]*)'\]")
        .replace(&expr, "$1")
        .into_owned();
    static MEMBER: OnceLock<Regex> = OnceLock::new();
    let expr = re(&MEMBER, r"\._(?:modules|buffers|parameters)\['([^']+)'\]").replace_all(&expr, ".$1");
    strip_main_module(&expr).to_string()
}

/// Dynamo reaches the script's own globals through `G['__import___main__']`.
fn strip_main_module(expr: &str) -> &str {
    expr.strip_prefix("G['__import___main__'].").unwrap_or(expr)
}

/// Renders one guard source expression.
pub fn render(expr: &str) -> String {
    static MODULE: OnceLock<Regex> = OnceLock::new();
    static GLOBAL: OnceLock<Regex> = OnceLock::new();
    static IDENT: OnceLock<Regex> = OnceLock::new();
    let expr = strip_locals(expr.trim());
    static MAIN: OnceLock<Regex> = OnceLock::new();
    // `G['__import___main__'].flag`, `G['__import_pkg_dot_mod'].flag`: a
    // module's global reached through the module.
    if let Some(c) = re(&MAIN, r"^G\['__import_(?P<module>[A-Za-z0-9_]*)'\]\.(?P<rest>.+)$").captures(&expr) {
        let module = c["module"].trim_start_matches('_').replace("_dot_", ".");
        let prefix = if module == "main__" || module.is_empty() {
            String::new()
        } else {
            format!("{module}.")
        };
        return format!("global {prefix}{}", &c["rest"]);
    }
    // A wrapper's first argument that is the module itself (a Hugging
    // Face `wrapper(self, ...)`): its members read as the module's.
    if let Some(rest) = expr.strip_prefix("args[0]").filter(|r| {
        r.starts_with("._modules[")
            || r.starts_with(".config.")
            || r.starts_with("._buffers[")
            || r.starts_with("._parameters[")
    }) {
        return render(&format!("fn{rest}"));
    }
    // Arguments of a `*args, **kwargs` wrapper (Hugging Face, DDP, inner).
    static ARG: OnceLock<Regex> = OnceLock::new();
    if let Some(c) = re(
        &ARG,
        r"^(?:kwargs\['(?P<kw>[A-Za-z_][A-Za-z0-9_]*)'\]|args\[(?P<pos>\d+)\])(?P<rest>.*)$",
    )
    .captures(&expr)
    {
        return match (c.name("kw"), c.name("pos")) {
            (Some(kw), _) => format!("argument {}{}", kw.as_str(), &c["rest"]),
            (_, Some(pos)) => format!("positional argument {}{}", pos.as_str(), &c["rest"]),
            _ => unreachable!("one of the alternatives matched"),
        };
    }
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
    let rest = rest.split("; ").next().unwrap_or(rest);
    Some(rest.replace('"', "").trim().to_string()).filter(|s| !s.is_empty())
}

/// What a type guard's subject tests the type of: `x` of `type id(x)`.
pub fn typed(subject: &str) -> Option<&str> {
    subject.strip_prefix("type id(")?.strip_suffix(')')
}

/// The list and index of the entry a subject reads, also through the
/// entry's type guard: `(doc_lens, 3)` of `doc_lens[3]` and of
/// `type id(doc_lens[3])`.
pub fn list_entry(subject: &str) -> Option<(&str, usize)> {
    let entry = typed(subject).unwrap_or(subject);
    let (list, index) = entry.strip_suffix(']')?.rsplit_once('[')?;
    Some((list, index.parse().ok()?))
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
            ("G['__import___main__'].metrics.on", "global metrics.on"),
            ("G['__import_pkg_dot_flags'].FAST", "global pkg.flags.FAST"),
            ("kwargs['input_ids']", "argument input_ids"),
            (
                "kwargs['past_key_values'].layers[0].keys",
                "argument past_key_values.layers[0].keys",
            ),
            ("args[0]", "positional argument 0"),
        ];
        for (expr, want) in cases {
            assert_eq!(render(expr), want, "{expr}");
        }
    }

    #[test]
    fn subjects_and_python_names_drop_the_value() {
        assert_eq!(
            subject_of("self.param_groups[0]['lr'] == 0.000625"),
            "self.param_groups[0]['lr']"
        );
        assert_eq!(subject_of("not G['x'].flag"), "G['x'].flag");
        assert_eq!(
            subject_of("self.config.problem_type is None"),
            "self.config.problem_type"
        );
        assert_eq!(python_name("kwargs['input_ids']"), "input_ids");
        assert_eq!(python_name("L['x']"), "x");
        assert_eq!(python_name("self._modules['enc']._buffers['cache']"), "self.enc.cache");
        assert_eq!(python_name("G['__import___main__'].metrics.on"), "metrics.on");
        // Spellings of torch 2.11 seen on real logs.
        assert_eq!(
            canonical("___as_tensor(self.param_groups[0]['lr']).item() == 0.05"),
            "self.param_groups[0]['lr'] == 0.05"
        );
        assert_eq!(
            canonical("object.__getattribute__(self.config, 'problem_type') is None"),
            "self.config.problem_type is None"
        );
        // PEFT's model reaches its submodules through the instance dict
        // (tests/scenarios13 peft_lora_dropout_anneal, torch 2.13 and 2.14).
        assert_eq!(
            canonical("self.__dict__['_modules']['base_model'].__dict__['_modules']['model']._modules['fc1'].p == 0.2"),
            "self._modules['base_model']._modules['model']._modules['fc1'].p == 0.2"
        );
    }

    #[test]
    fn hint_names_the_captured_variable() {
        assert_eq!(
            from_guard_on_hint("guard on \"collector\".capture_activation_norms").as_deref(),
            Some("collector.capture_activation_norms")
        );
        assert_eq!(from_guard_on_hint("type list"), None);
    }

    /// The byte scan spells locals exactly as the regex it replaced, on
    /// strings built from the pieces that matter (`L['`, names, quotes).
    mod strip_locals_as_the_regex {
        use super::super::strip_locals;
        use proptest::prelude::*;

        fn by_regex(expr: &str) -> String {
            regex::Regex::new(r"L\['([A-Za-z_][A-Za-z0-9_]*)'\]")
                .unwrap()
                .replace_all(expr, "$1")
                .into_owned()
        }

        proptest! {
            #[test]
            fn on_guard_like_text(pieces in prop::collection::vec(
                prop::sample::select(vec!["L['", "']", "x", "_a9", "9", "L", "[", "'", "]", ".", " == ", "é", "self", "L['x']"]),
                0..12,
            )) {
                let expr = pieces.concat();
                prop_assert_eq!(strip_locals(&expr), by_regex(&expr));
            }
        }

        #[test]
        fn on_real_spellings() {
            for expr in [
                "L['self'].param_groups[0]['lr'] == 0.01",
                "L['L['x']",
                "GL['a']",
                "L['1x']",
                "x",
                "",
            ] {
                assert_eq!(strip_locals(expr), by_regex(expr), "{expr}");
            }
        }
    }
}
