#!/usr/bin/env bash
# Side-by-side two-bone timing: Rust (criterion, `cargo bench --bench ik -- two_bone/arm`)
# against ozz-animation's IKTwoBoneJob doing the same arm update
# (scripts/bench_ozz_two_bone.cc: Run, the two corrections applied to the locals, the chain's
# model matrices), in the same run: Rust, ozz, Rust again. Prints the medians and the ratio.
#
#   scripts/bench-two-bone-vs-ozz.sh OZZ_DIR [extra criterion args]
#
# OZZ_DIR is an ozz-animation checkout (include/ and src/ are enough); nothing of it is kept in
# this repository. Needs cargo and g++ (C++17). The ozz side is built with -O3 -march=native.
set -euo pipefail
cd "$(dirname "$0")/.."
ozz=${1:?usage: $0 OZZ_DIR [criterion args]}
shift
out=target/ozz-bench
mkdir -p "$out"
g++ -std=c++17 -O3 -DNDEBUG -march=native -I"$ozz/include" \
    scripts/bench_ozz_two_bone.cc \
    "$ozz/src/animation/runtime/ik_two_bone_job.cc" \
    "$ozz/src/base/maths/simd_math.cc" -o "$out/ozz_two_bone" 2>/dev/null
rust() {
    cargo bench --bench ik -- 'two_bone/arm$' "$@" 2>/dev/null >&2
    python3 -c 'import json; print(json.load(open("target/criterion/two_bone_arm/new/estimates.json"))["median"]["point_estimate"])'
}
r1=$(rust "$@")
ozz_line=$("$out/ozz_two_bone" | grep '^ozz/arm_update')
r2=$(rust "$@")
ozz_ns=$(sed 's/.*median_ns=\([0-9.]*\).*/\1/' <<<"$ozz_line")
python3 - "$r1" "$r2" "$ozz_ns" <<'PY'
import sys
r1, r2, o = map(float, sys.argv[1:])
print("| bench | median |")
print("|---|---:|")
print(f"| two_bone/arm (Rust, before ozz) | {r1:.0f} ns |")
print(f"| ozz IKTwoBoneJob arm update | {o:.0f} ns |")
print(f"| two_bone/arm (Rust, after ozz) | {r2:.0f} ns |")
print(f"Rust / ozz: {min(r1, r2) / o:.2f}–{max(r1, r2) / o:.2f}×")
PY
