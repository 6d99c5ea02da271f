//! The house's layers (issue 38, item 2): the core (rig, ik, fishing, oracle, gltf_io,
//! assetgen and the plain draw data) → stage → render and preset → editor and the binary.
//! A top-level module uses only modules of lower layers (inside the core, any core module:
//! `no_import_cycles.rs` keeps those acyclic). A dependency is any `crate::…` path, or a
//! `super::…` path that leaves the module, comments included (a doc link is a reader's
//! dependency too), as `architecture_table.rs` reads them; unit-test files are left out.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use support::source_tree::{module_of, rust_files, top_levels_used};

/// Each top-level module's layer, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "rig",
            "ik",
            "fishing",
            "oracle",
            "gltf_io",
            "assetgen",
            "draw",
            "test_skip",
        ],
    ),
    ("stage", &["stage"]),
    ("render and preset", &["render", "preset"]),
    (
        "editor and binary",
        &["editor", "cli", "fuzz_entry", "main", "lib"],
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        if f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let here = module_of(&src, f);
        let Some(top) = here.first() else { continue };
        let Some(mine) = layer_of(top) else {
            problems.push(format!("{}: module `{top}` has no layer", f.display()));
            continue;
        };
        *seen.entry(top.clone()).or_default() += 1;
        let text = std::fs::read_to_string(f).unwrap();
        for used in top_levels_used(&text, &here) {
            if used == *top {
                continue;
            }
            let Some(theirs) = layer_of(&used) else {
                continue; // not a module of this crate (a path like `crate::` in a string)
            };
            let allowed = theirs < mine || (theirs == 0 && mine == 0);
            if !allowed {
                problems.push(format!(
                    "{} ({}) uses `{used}` ({})",
                    f.strip_prefix(&src).unwrap_or(f).display(),
                    LAYERS[mine].0,
                    LAYERS[theirs].0
                ));
            }
        }
    }
    // The test reads the tree it guards: every layer's modules exist.
    for (name, modules) in LAYERS {
        for m in *modules {
            let file_module = matches!(*m, "main" | "lib");
            assert!(
                file_module || seen.contains_key(*m),
                "layer {name}: no module `{m}` in src/"
            );
        }
    }
    assert!(
        problems.is_empty(),
        "uses against the layer order:\n  {}",
        problems.join("\n  ")
    );
}

/// The preset format (issue 38, item 2) depends only on the core: the files that define,
/// parse, check and migrate it name nothing of the stage or above; putting a preset on a
/// stage is `preset/on_stage.rs`, `preset/io.rs` and the exports.
#[test]
fn the_preset_format_uses_only_the_core() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for name in [
        "mod.rs",
        "parse.rs",
        "check.rs",
        "migrate.rs",
        "examples.rs",
    ] {
        let f = src.join("preset").join(name);
        let text = std::fs::read_to_string(&f).unwrap();
        let here = module_of(&src, &f);
        for used in top_levels_used(&text, &here) {
            if used != "preset" && layer_of(&used).is_some_and(|l| l > 0) {
                problems.push(format!("preset/{name} uses `{used}`"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
