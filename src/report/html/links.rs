//! Links from a source line on the page to the file: `file://` (the browser
//! shows it) and `vscode://file/PATH:LINE` (the editor opens it at the line).
//! Only the user's own files get one, and only by the absolute path the log
//! holds (or the current directory's copy of a file this machine lacks,
//! `report::paths`): torch's shortened form (`ome/me/proj/train.py`) or a
//! library's file would open the wrong file or one not worth opening.

use crate::reasons::paths::{owner, Owner};
use crate::report::paths::local_copy;
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::Serialize;

/// What a URL path may not hold as is: everything but unreserved
/// characters and `/` (a `#` or `?` in a file name would end the path).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\\')
    .add(b'^')
    .add(b'|')
    .add(b'[')
    .add(b']')
    .add(b'\'')
    .add(b';')
    .add(b'&')
    .add(b'=')
    .add(b'+')
    .add(b'$')
    .add(b',')
    .add(b'!')
    .add(b'*')
    .add(b'(')
    .add(b')')
    .add(b'@');

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SourceLink {
    /// `file:///abs/path.py`
    pub file: String,
    /// `vscode://file/abs/path.py:LINE`
    pub editor: String,
}

/// Whether the page links source lines at all (`--no-links` turns it off,
/// e.g. for a page shared with people who do not have the files).
#[derive(Clone, Copy, Debug)]
pub struct Links(pub bool);

impl Links {
    /// A link for `file:line` (as findings hold a site), when it is the
    /// user's file by an absolute path.
    pub fn site(self, site: &str) -> Option<SourceLink> {
        match site.rsplit_once(':') {
            Some((file, line)) if !line.is_empty() && line.chars().all(|c| c.is_ascii_digit()) => {
                self.file(file, line.parse().ok())
            }
            _ => self.file(site, None),
        }
    }

    pub fn file(self, path: &str, line: Option<u32>) -> Option<SourceLink> {
        if !self.0 || owner(path) != Owner::User {
            return None;
        }
        let copy = local_copy(path);
        let path = copy.as_deref().and_then(|p| p.to_str()).unwrap_or(path);
        let unix = path.replace('\\', "/");
        // `/home/me/x.py`, or a Windows drive `C:/x.py` (which a file URL
        // writes with a leading slash).
        let rooted = if unix.starts_with('/') && !unix.starts_with("//") {
            unix
        } else if unix.len() > 2 && unix.as_bytes()[0].is_ascii_alphabetic() && &unix[1..3] == ":/" {
            format!("/{unix}")
        } else {
            return None;
        };
        let encoded = utf8_percent_encode(&rooted, PATH).to_string();
        let at = line.map(|l| format!(":{l}")).unwrap_or_default();
        Some(SourceLink {
            file: format!("file://{encoded}"),
            editor: format!("vscode://file{encoded}{at}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_absolute_files_only() {
        let on = Links(true);
        assert_eq!(
            on.site("/home/me/proj/train.py:42"),
            Some(SourceLink {
                file: "file:///home/me/proj/train.py".into(),
                editor: "vscode://file/home/me/proj/train.py:42".into(),
            })
        );
        // torch's shortened path, a relative one, torch's and a library's files.
        assert_eq!(on.site("ome/me/proj/train.py:42"), None);
        assert_eq!(on.site("train.py:42"), None);
        assert_eq!(
            on.site("/v/lib/python3.11/site-packages/torch/nn/modules/module.py:1"),
            None
        );
        assert_eq!(on.site("/v/lib/python3.11/site-packages/transformers/x.py:1"), None);
        assert_eq!(on.site("<frozen runpy>:88"), None);
        assert_eq!(Links(false).site("/home/me/proj/train.py:42"), None);
    }

    #[test]
    fn what_would_end_or_break_a_url_is_encoded() {
        let l = Links(true).site("/tmp/a b/#x?\"<y>.py:3").unwrap();
        assert_eq!(l.file, "file:///tmp/a%20b/%23x%3F%22%3Cy%3E.py");
        assert_eq!(l.editor, "vscode://file/tmp/a%20b/%23x%3F%22%3Cy%3E.py:3");
        let w = Links(true).file("C:\\proj\\train.py", Some(7)).unwrap();
        assert_eq!(w.file, "file:///C:/proj/train.py");
        assert_eq!(w.editor, "vscode://file/C:/proj/train.py:7");
    }
}
