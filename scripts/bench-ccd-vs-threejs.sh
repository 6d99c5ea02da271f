#!/usr/bin/env bash
# Side-by-side CCD timing: Rust (criterion, `cargo bench --bench ik -- ccd/`) against three.js
# r187's CCDIKSolver (node, scripts/bench_threejs_ccd.mjs) on every scene of tests/fixtures/ccd,
# in the same run. Prints a markdown table of medians (ns per restore + update, see
# benches/ik/ccd.rs) and the ratio three.js / Rust.
#
#   scripts/bench-ccd-vs-threejs.sh [--oracle DIR] [extra criterion args, e.g. --measurement-time 3]
#
# Needs cargo and node >= 18; the node script installs three@0.187.0 into a temp copy of the
# oracle folder on first use (npm registry).
set -euo pipefail
cd "$(dirname "$0")/.."

oracle_args=()
if [[ "${1:-}" == "--oracle" ]]; then
    oracle_args=(--oracle "$2")
    shift 2
fi

cargo bench --bench ik -- ccd/ "$@" >&2
js=$(node scripts/bench_threejs_ccd.mjs "${oracle_args[@]}")

JS="$js" python3 - <<'PY'
import json, os, pathlib
crit = pathlib.Path("target/criterion/ccd")
js = {r["scene"]: r["median_ns"] for r in map(json.loads, os.environ["JS"].splitlines())}
print("| scene | Rust median | three.js r187 median | three.js / Rust |")
print("|---|---:|---:|---:|")
def fmt(ns):
    return f"{ns:.0f} ns" if ns < 1e4 else f"{ns / 1e3:.1f} µs"
worst = None
for scene in sorted(js):
    est = crit / scene / "new" / "estimates.json"
    if not est.exists():
        print(f"| {scene} | (no criterion result) | {fmt(js[scene])} | |")
        continue
    rust = json.loads(est.read_text())["median"]["point_estimate"]
    ratio = js[scene] / rust
    worst = ratio if worst is None else min(worst, ratio)
    print(f"| {scene} | {fmt(rust)} | {fmt(js[scene])} | {ratio:.1f}× |")
if worst is not None:
    print(f"\nSmallest ratio: {worst:.1f}× (target ≥ 20×).")
PY
