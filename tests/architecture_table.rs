//! ARCHITECTURE.md's module table tells the truth (issue 38, item 5): for every row, the
//! "depends on" column names exactly the crate's top-level modules that the row's files use
//! (any `crate::…` path, or a `super::…` path that leaves the row's top-level module). Names in
//! the column that are not modules of this crate (glam, std, wgpu …) are external crates and
//! not checked; `all` (the binary) and `—` (tests) are not checked either, nor unit-test
//! files (`tests.rs`).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use support::source_tree::{module_of, rust_files, top_levels_used};

struct Row {
    module: String,
    depends: String,
}

fn table(text: &str) -> Vec<Row> {
    let start = text
        .find("## Modules")
        .expect("ARCHITECTURE.md has a ## Modules section");
    let mut rows = Vec::new();
    for line in text[start..].lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with("| `") && !line.starts_with("| (") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        let module = cells[0].trim();
        let depends = cells.last().unwrap().trim();
        rows.push(Row {
            module: module.to_string(),
            depends: depends.to_string(),
        });
    }
    rows
}

#[test]
fn the_module_tables_depends_on_column_matches_the_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows = table(&text);
    assert!(rows.len() >= 15, "the module table has {} rows", rows.len());
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let top: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_of(&src, f).first().cloned())
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for row in &rows {
        if row.depends == "all" || row.depends == "—" || !row.module.starts_with('`') {
            continue;
        }
        // `ik::two_bone`, `cli` (binary) → ["ik", "two_bone"], ["cli"].
        let path: Vec<String> = row
            .module
            .split('`')
            .nth(1)
            .unwrap()
            .split("::")
            .map(str::to_string)
            .collect();
        let mine: Vec<&PathBuf> = files
            .iter()
            .filter(|f| module_of(&src, f).starts_with(&path))
            // A module's unit tests (`tests.rs`, compiled only under cfg(test)) are not its
            // dependencies.
            .filter(|f| f.file_name().is_none_or(|n| n != "tests.rs"))
            .collect();
        if mine.is_empty() {
            problems.push(format!(
                "{}: no source file in src/ is this module",
                row.module
            ));
            continue;
        }
        let mut used = BTreeSet::new();
        for f in mine {
            let here = module_of(&src, f);
            let text = std::fs::read_to_string(f).unwrap();
            used.extend(top_levels_used(&text, &here));
        }
        used.remove(&path[0]);
        used.retain(|m| top.contains(m));
        let named: BTreeSet<String> = row
            .depends
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| top.contains(s))
            .collect();
        checked += 1;
        if used != named {
            let missing: Vec<_> = used.difference(&named).collect();
            let extra: Vec<_> = named.difference(&used).collect();
            problems.push(format!(
                "{}: the code uses {used:?}; the column misses {missing:?} and names {extra:?} it does not use",
                row.module
            ));
        }
    }
    assert!(checked >= 12, "only {checked} rows checked");
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md's \"depends on\" column is out of date:\n  {}",
        problems.join("\n  ")
    );
}
