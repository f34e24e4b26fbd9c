//! Whose code a path is (torch's, an installed library's, the user's), the
//! full path behind the shortened one of a guard comment, and the function
//! a resume function's name says it resumes.
//!
//! Guard comments carry `torch.utils._traceback.shorten_filename`, which
//! strips `len(commonpath(file, torch_dir)) + 1` characters: with torch in a
//! virtualenv, `/home/me/proj/train.py` appears as `ome/me/proj/train.py`
//! and `/tmp/run/train.py` as `mp/run/train.py`. The same log holds the full
//! paths (interned file names, `dynamo_start` stacks, user stack traces), so
//! a shortened path is resolved against those and never shown as is.

use std::collections::BTreeSet;

/// `torch_dynamo_resume_in_detect_at_52` -> (`detect`, 52): the function
/// Dynamo resumed after a graph break, and the line it broke at.
pub fn resumed_function(function: &str) -> Option<(&str, u32)> {
    let rest = function.strip_prefix("torch_dynamo_resume_in_")?;
    let (name, line) = rest.rsplit_once("_at_")?;
    Some((name, line.parse().ok()?))
}

/// Who wrote the code at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Torch,
    /// An installed package (site-packages / dist-packages) or Python itself.
    Library,
    User,
}

/// Classifies a full path. A shortened path that could not be resolved is
/// judged by its torch-relative shape (`nn/modules/linear.py`).
pub fn owner(path: &str) -> Owner {
    let p = path.replace('\\', "/");
    if is_torch_path(&p) {
        return Owner::Torch;
    }
    const LIBRARY_MARKERS: [&str; 4] = ["/site-packages/", "/dist-packages/", "/lib/python3", "<frozen "];
    if LIBRARY_MARKERS.iter().any(|m| p.contains(m)) || p.starts_with('<') {
        return Owner::Library;
    }
    Owner::User
}

/// Whether a path (full, or shortened the way guard comments shorten it)
/// points into torch itself rather than into user code.
fn is_torch_path(path: &str) -> bool {
    const TORCH_DIRS: [&str; 14] = [
        "nn/",
        "_dynamo/",
        "_inductor/",
        "_functorch/",
        "_higher_order_ops/",
        "_refs/",
        "_prims/",
        "_decomp/",
        "fx/",
        "utils/",
        "autograd/",
        "distributed/",
        "optim/",
        "amp/",
    ];
    let p = path.replace('\\', "/");
    p.contains("/torch/")
        || p.starts_with("torch/")
        // `site-packages/torchvision/` (torchaudio, torchao) is a library of
        // its own, not torch.
        || p.contains("site-packages/torch/")
        || p.contains("dist-packages/torch/")
        || TORCH_DIRS.iter().any(|d| p.starts_with(d))
        || p == "functional.py"
        || p == "_tensor.py"
}

/// The full paths one process's log mentions, and where torch lives.
#[derive(Clone, Debug, Default)]
pub struct PathResolver {
    known: BTreeSet<String>,
    torch_dir: Option<String>,
}

impl PathResolver {
    pub fn learn(&mut self, path: &str) {
        if !is_absolute(path) {
            return;
        }
        if self.torch_dir.is_none() {
            if let Some(i) = path.find("/torch/") {
                self.torch_dir = Some(path[..i + "/torch".len()].to_string());
            }
        }
        if !self.known.contains(path) {
            self.known.insert(path.to_string());
        }
    }

    /// The full path behind `short`; `short` itself when it is already
    /// absolute; None when the log holds nothing to resolve it with.
    pub fn resolve(&self, short: &str) -> Option<String> {
        if is_absolute(short) {
            return Some(short.to_string());
        }
        // A known path that shortens to exactly this one.
        let exact = self.known.iter().find(|p| {
            p.len() > short.len()
                && p.ends_with(short)
                && self.torch_dir.as_deref().is_none_or(|t| shorten(p, t) == short)
        });
        if let Some(p) = exact {
            return Some(p.clone());
        }
        // A file no stack mentions (a module in another file of the user's
        // project): files in the same tree lose the same prefix, so borrow
        // it from the known file sharing the most leading directories.
        let torch_dir = self.torch_dir.as_deref()?;
        let (prefix, shared) = self
            .known
            .iter()
            .filter(|p| owner(p) == Owner::User)
            .filter_map(|p| {
                let s = shorten(p, torch_dir);
                let shared = leading_dirs_shared(s, short);
                (shared > 0).then(|| (&p[..p.len() - s.len()], shared))
            })
            .max_by_key(|(_, shared)| *shared)?;
        let candidate = format!("{prefix}{short}");
        (shared > 0 && shorten(&candidate, torch_dir) == short).then_some(candidate)
    }
}

fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || path.get(1..3) == Some(":\\") || path.get(1..3) == Some(":/")
}

/// torch's `shorten_filename`: strips `len(commonpath(path, torch_dir)) + 1`.
fn shorten<'a>(path: &'a str, torch_dir: &str) -> &'a str {
    let mut common = 0;
    let mut pa = path.split('/');
    let mut ta = torch_dir.split('/');
    let mut first = true;
    loop {
        match (pa.next(), ta.next()) {
            (Some(a), Some(b)) if a == b => {
                common += a.len() + usize::from(!first);
                first = false;
            }
            _ => break,
        }
    }
    // commonpath("/a", "/b") is "/": one character, not zero.
    let common = common.max(1);
    path.get(common + 1..).unwrap_or(path)
}

fn leading_dirs_shared(a: &str, b: &str) -> usize {
    let (da, db) = (a.rsplit_once('/'), b.rsplit_once('/'));
    let (Some((da, _)), Some((db, _))) = (da, db) else {
        return 0;
    };
    da.split('/').zip(db.split('/')).take_while(|(x, y)| x == y).count()
}

/// The installed package a path is in (`transformers` of
/// `.../site-packages/transformers/generation/logits_process.py`).
pub fn library_name(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    let rest = p
        .split("/site-packages/")
        .nth(1)
        .or_else(|| p.split("/dist-packages/").nth(1))?;
    Some(rest.split('/').next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TORCH: &str = "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/convert_frame.py";

    #[test]
    fn torchvision_is_a_library_not_torch() {
        assert_eq!(owner(TORCH), Owner::Torch);
        let vision = "/opt/gs-torch214/lib/python3.11/site-packages/torchvision/ops/poolers.py";
        assert_eq!(owner(vision), Owner::Library);
    }

    fn resolver(paths: &[&str]) -> PathResolver {
        let mut r = PathResolver::default();
        for p in paths {
            r.learn(p);
        }
        r
    }

    #[test]
    fn shorten_matches_torch() {
        let t = "/opt/venv/lib/python3.11/site-packages/torch";
        assert_eq!(shorten("/home/me/proj/train.py", t), "ome/me/proj/train.py");
        assert_eq!(shorten("/tmp/run/train.py", t), "mp/run/train.py");
        assert_eq!(
            shorten("/opt/venv/lib/python3.11/site-packages/transformers/a.py", t),
            "transformers/a.py"
        );
        assert_eq!(
            shorten("/opt/venv/lib/python3.11/site-packages/torch/nn/l.py", t),
            "nn/l.py"
        );
        assert_eq!(shorten("/work/main/s/m.py", "/work/main/.venv/lib/torch"), "s/m.py");
    }

    #[test]
    fn shortened_user_paths_are_resolved() {
        let r = resolver(&[TORCH, "/home/me/proj/train.py", "/tmp/run/x.py"]);
        assert_eq!(
            r.resolve("ome/me/proj/train.py").as_deref(),
            Some("/home/me/proj/train.py")
        );
        assert_eq!(r.resolve("mp/run/x.py").as_deref(), Some("/tmp/run/x.py"));
        // A file of the same project that no stack names.
        assert_eq!(
            r.resolve("ome/me/proj/models/layers.py").as_deref(),
            Some("/home/me/proj/models/layers.py")
        );
        assert_eq!(r.resolve("/abs/already.py").as_deref(), Some("/abs/already.py"));
        assert_eq!(r.resolve("elsewhere.py"), None);
    }

    #[test]
    fn torch_paths() {
        assert!(is_torch_path("nn/modules/module.py"));
        assert!(is_torch_path("/x/site-packages/torch/_dynamo/eval_frame.py"));
        assert!(!is_torch_path("repro.py"));
        assert!(!is_torch_path("/home/u/proj/nnet/model.py"));
    }

    #[test]
    fn owners() {
        assert_eq!(owner(TORCH), Owner::Torch);
        assert_eq!(owner("nn/modules/linear.py"), Owner::Torch);
        assert_eq!(
            owner("/opt/venv/lib/python3.11/site-packages/transformers/utils/generic.py"),
            Owner::Library
        );
        assert_eq!(owner("/usr/lib/python3.11/contextlib.py"), Owner::Library);
        assert_eq!(owner("/home/me/proj/train.py"), Owner::User);
    }
}
