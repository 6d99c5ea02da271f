#!/usr/bin/env bash
# Runs the whole test suite (the README's test command). Debug build; tests needing
# ../shared/models, node, bpy or a GPU adapter skip loudly when those are absent (unless
# ANGLERPOSE_REQUIRE_GPU=1 / ANGLERPOSE_REQUIRE_BLENDER=1), and the run ends with a summary:
# how many tests passed, failed and were ignored, and every skip with its reason.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export ANGLERPOSE_SKIP_LOG="$PWD/target/test-skips.log"
out="$PWD/target/test-output.log"
rm -f "$ANGLERPOSE_SKIP_LOG"
cargo test --no-fail-fast "$@" 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
echo
echo "==================== test summary ===================="
awk '/^test result:/ {
        for (i = 1; i <= NF; i++) {
            if ($(i) ~ /^passed;?$/) p += $(i-1);
            if ($(i) ~ /^failed;?$/) f += $(i-1);
            if ($(i) ~ /^ignored;?$/) g += $(i-1);
        }
        t++
     }
     END { printf "%d test binaries: %d passed, %d failed, %d ignored\n", t, p, f, g }' "$out"
if [ -s "$ANGLERPOSE_SKIP_LOG" ]; then
    echo "$(wc -l < "$ANGLERPOSE_SKIP_LOG") skip notices (a test that passed without doing all it checks):"
    sort "$ANGLERPOSE_SKIP_LOG" | uniq -c | sort -rn
else
    echo "no test skipped anything"
fi
echo "cargo test exit status: $status"
exit "$status"
