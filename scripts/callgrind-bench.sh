#!/usr/bin/env bash
# Instructions per call of one function under one criterion bench, counted by callgrind:
#
#   scripts/callgrind-bench.sh BENCH_TARGET 'BENCH_NAME$' 'FUNCTION_GLOB'
#   scripts/callgrind-bench.sh ik 'two_bone/arm$' '*TwoBoneJob*solve'
#
# Builds the bench target (release, line tables), runs the named bench for 1 s of profiling
# under valgrind, and prints the function's inclusive instructions, its calls, and their
# ratio. FUNCTION_GLOB must name a function that is not inlined into the bench loop.
# Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?bench target}
bench=${2:?bench name}
func=${3:?function glob}
exe=$(cargo bench --config 'profile.bench.package.anglerpose.debug="line-tables-only"' \
    --bench "$target" --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["bench"]:
        print(m["executable"])')
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
    "$exe" --bench --profile-time 1 "$bench" >/dev/null 2>&1
# Every call site of FUNCTION_GLOB is listed as "COST => file:function (CALLSx)" with the
# inclusive cost of those calls.
callgrind_annotate --tree=calling "$out/cg" 2>/dev/null | python3 -c '
import fnmatch, re, sys
glob = sys.argv[1]
cost = calls = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+)\s.*=>\s+[^:]+:(\S+) \(([\d,]+)x\)", line)
    if m and fnmatch.fnmatch(m.group(2), glob):
        cost += int(m.group(1).replace(",", ""))
        calls += int(m.group(3).replace(",", ""))
print(f"{glob}: {cost} instructions in {calls} calls, {cost / max(calls, 1):.0f} per call")
' "$func"
