//! A type's methods live with the type (issue 38, item 1): every inherent `impl Type { … }`
//! block is in the file that defines `Type`, or in a file of that file's own module folder
//! (`edits/mod.rs` defines `Edits`, `edits/drag_cmd.rs` may add its commands). The editor's
//! state was once one struct implemented across eight files that called back into each
//! other, which `no_import_cycles.rs` cannot see: it reads paths, not method calls.
//! Trait impls may live anywhere.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use support::source_tree::{module_of, rust_files};

/// The names after `keyword` at the start of a line (`struct Name`, `enum Name`), and the
/// types of inherent impl blocks (`impl Name {`, `impl<T> Name<T> {`), as (name, line).
fn items(text: &str) -> (Vec<String>, Vec<(String, usize)>) {
    let mut defined = Vec::new();
    let mut impls = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        for kw in ["struct ", "enum "] {
            if let Some(rest) = t.strip_prefix(kw) {
                defined.push(ident(rest));
            }
        }
        // Inherent impls are written at the start of a line in this crate (rustfmt).
        if let Some(rest) = line.strip_prefix("impl") {
            let rest = if rest.starts_with('<') {
                skip_generics(rest)
            } else {
                rest
            };
            let Some(rest) = rest.strip_prefix(' ') else {
                continue;
            };
            let head = rest.split('{').next().unwrap_or("");
            if head.contains(" for ") || !line.trim_end().ends_with('{') {
                continue;
            }
            let name = ident(head);
            if name.chars().next().is_some_and(char::is_uppercase) {
                impls.push((name, n + 1));
            }
        }
    }
    (defined, impls)
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// `rest` after the generics that open it (`<T: Fn(u8)>`), brackets balanced.
fn skip_generics(rest: &str) -> &str {
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return &rest[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

#[test]
fn every_inherent_impl_lives_with_its_type() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut homes: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut impls: Vec<(PathBuf, String, usize)> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let (defined, found) = items(&text);
        for name in defined {
            homes.entry(name).or_default().insert(module_of(&src, f));
        }
        impls.extend(
            found
                .into_iter()
                .map(|(name, line)| (f.clone(), name, line)),
        );
    }
    assert!(
        homes.contains_key("EditorState") && impls.iter().any(|i| i.1 == "Edits"),
        "the scan found neither the editor's state nor its impls: it reads nothing"
    );
    let mut strays = Vec::new();
    for (file, name, line) in &impls {
        let Some(defined_in) = homes.get(name) else {
            continue; // a type from another crate's trait object, or a macro's
        };
        let module = module_of(&src, file);
        if !defined_in.iter().any(|home| module.starts_with(home)) {
            strays.push(format!(
                "{}:{line}: impl {name} (defined in {:?})",
                file.strip_prefix(&src).unwrap().display(),
                defined_in
            ));
        }
    }
    assert!(
        strays.is_empty(),
        "methods away from their type:\n{}",
        strays.join("\n")
    );
}
