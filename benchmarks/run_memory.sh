#!/usr/bin/env bash
# Memory plans of the examples behind docs/benchmarks.md ("Memory
# planning") and docs/memory/: for each example at the sizes below, the
# plan's JSON report and SVG picture, and a table of the arena's peak, the
# lower bound (the largest sum of live bytes at any op of the order the
# plan follows), the bytes without reuse, the heap allocations one call
# makes, and the whole arena one call takes (the plan plus the groups' own
# large temporaries that tcc-place-scratch-buffers appends: padded conv
# inputs, transposed weights).
#   benchmarks/run_memory.sh [build-dir] [out-dir]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="${2:-$ROOT/docs/memory}"
RUN="$BUILD/bin/tcc-run"
mkdir -p "$OUT"

printf "%-14s %-12s %12s %12s %12s %10s %7s %12s\n" example sizes peak lower-bound no-reuse peak/bound allocs arena
for spec in "vit_block B=32,S=197" "vit_block B=1,S=197" "robot_policy B=1" \
            "robot_policy B=64" "conv_block B=1" "conv_block B=8"; do
  set -- $spec
  tag="$1_$(echo "$2" | tr ',=' '_-')"
  allocs=$("$RUN" "$ROOT/examples/$1.mlir" --random-inputs --sizes="$2" \
      --count-allocations --memory-report="$OUT/$tag.json" \
      --memory-plan-svg="$OUT/$tag.svg" |
    sed -n 's/^heap allocations per call: \([0-9]*\).*/\1/p')
  arena=$("$RUN" "$ROOT/examples/$1.mlir" --random-inputs --sizes="$2" \
      --count-allocations --workspace=grow |
    sed -n 's/^arena bytes per call: \([0-9]*\).*/\1/p')
  python3 - "$OUT/$tag.json" "$1" "$2" "$allocs" "$arena" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["functions"][0]
mib = lambda b: ("%.2f MiB" % (b / 2**20)) if b >= 2**20 else ("%.1f KiB" % (b / 1024))
print("%-14s %-12s %12s %12s %12s %10.3f %7s %12s" % (sys.argv[2], sys.argv[3],
      mib(f["peak_bytes"]), mib(f["lower_bound_bytes"]), mib(f["naive_bytes"]),
      f["peak_bytes"] / max(1, f["lower_bound_bytes"]), sys.argv[4],
      mib(int(sys.argv[5]))))
PY
done
