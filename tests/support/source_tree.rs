//! The crate's source tree as the house tests read it: every `.rs` file and the module path
//! each one is (`tests/no_import_cycles.rs`, `tests/architecture_table.rs`).
#![allow(dead_code)]

use std::collections::BTreeSet;
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

/// The top-level module each `crate::x` / `super::…::x` path in `text` reaches, seen from
/// module `here` (comments included: a doc link to another module is a reader's dependency
/// too, and the table is for readers).
pub fn top_levels_used(text: &str, here: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (start, at) in path_heads(text, &["crate::", "super::"]) {
        if at > 0 && bytes[at - 1] == b':' {
            continue; // the tail of a longer path (`super::super::`), read from its head
        }
        let mut rest = &text[at..];
        let mut level = here.len();
        if start == "crate::" {
            level = 0;
            rest = &rest["crate::".len()..];
        } else {
            while let Some(r) = rest.strip_prefix("super::") {
                level = level.saturating_sub(1);
                rest = r;
            }
        }
        if level == 0 {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        } else {
            // Still inside a top-level module: here[0] itself.
            out.insert(here[0].clone());
        }
    }
    out
}
