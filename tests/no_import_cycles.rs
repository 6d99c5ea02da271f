//! No two source files import each other (issue 17): a file-level dependency is any
//! `crate::…` / `super::…` / `self::…` path in a file (including `use` groups), resolved to the
//! longest module path that is a file. A module's `mod.rs` (or `foo.rs` beside `foo/`) is
//! exempt: it declares its children.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use support::source_tree::{module_of, path_heads, rust_files};

fn ident_chain(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seg in s.split("::") {
        let id: String = seg
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if id.is_empty() || id != seg.trim() && !seg.starts_with(&id) {
            break;
        }
        out.push(id);
        if seg.len() != out.last().unwrap().len() {
            break;
        }
    }
    out
}

/// Every path starting with `crate`, `super` or `self` in `text` (groups expanded one level).
fn paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (_, at) in path_heads(text, &["crate::", "super::", "self::"]) {
        let rest = &text[at..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let head = rest[..end].trim_end_matches("::");
        let chain = ident_chain(head);
        if rest[end..].starts_with('{') {
            let close = rest[end..].find('}').map_or(rest.len(), |c| end + c);
            for item in rest[end + 1..close].split(',') {
                let mut p = chain.clone();
                p.extend(ident_chain(item.trim()));
                out.push(p);
            }
        } else {
            out.push(chain);
        }
    }
    out
}

#[test]
fn no_two_source_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut deps: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for f in &files {
        let here = module_of(&src, f);
        let text = std::fs::read_to_string(f).unwrap();
        let set = deps.entry(f.clone()).or_default();
        for p in paths(&text) {
            let (mut base, rest): (Vec<String>, &[String]) = match p.first().map(String::as_str) {
                Some("crate") => (Vec::new(), &p[1..]),
                Some("self") => (here.clone(), &p[1..]),
                _ => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let keep = here.len().saturating_sub(ups);
                    (here[..keep].to_vec(), &p[ups..])
                }
            };
            for k in (1..=rest.len()).rev() {
                let mut m = base.clone();
                m.extend_from_slice(&rest[..k]);
                if let Some(target) = modules.get(&m)
                    && target != f
                {
                    set.insert(target.clone());
                    break;
                }
            }
            base.clear();
        }
    }
    let parent = |f: &Path| {
        f.ends_with("mod.rs")
            || f.with_extension("").is_dir()
            || f.ends_with("lib.rs")
            || f.ends_with("main.rs")
    };
    let mut cycles = Vec::new();
    for (a, set) in &deps {
        for b in set {
            if a < b && deps.get(b).is_some_and(|s| s.contains(a)) && !parent(a) && !parent(b) {
                cycles.push(format!("{} <-> {}", a.display(), b.display()));
            }
        }
    }
    assert!(files.len() > 100, "only {} files read", files.len());
    assert!(
        cycles.is_empty(),
        "files that import each other:\n{}",
        cycles.join("\n")
    );
}
