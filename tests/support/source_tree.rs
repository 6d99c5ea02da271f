//! The crate's source tree as the house tests read it: every `.rs` file and the module path
//! each one is (`tests/no_import_cycles.rs`, `tests/architecture_table.rs`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/a/b.rs` → `["a", "b"]`, `src/a/mod.rs` → `["a"]`, `src/lib.rs` → `[]`.
pub fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// Where each path starting with one of `starts` (such as `"crate::"`) begins in `text`, in
/// the order of `starts`, then of the text: an occurrence counts only where it is not the
/// tail of an identifier (`my_crate::`).
pub fn path_heads<'a>(
    text: &'a str,
    starts: &'a [&'a str],
) -> impl Iterator<Item = (&'a str, usize)> + 'a {
    let bytes = text.as_bytes();
    starts.iter().flat_map(move |&start| {
        let mut from = 0;
        std::iter::from_fn(move || {
            while let Some(i) = text[from..].find(start) {
                let at = from + i;
                from = at + start.len();
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                    continue;
                }
                return Some((start, at));
            }
            None
        })
    })
}
