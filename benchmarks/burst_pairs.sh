#!/usr/bin/env bash
# The memory-bound kernels in this VM's bandwidth bursts (docs/benchmarks.md,
# "Fusion"): for SECONDS (default 150) per kernel, kernel_vs_copy's pairs
# (four copies, then one kernel call) are collected; a pair whose fastest
# copy ran at BURST GB/s or more (default 58: the usual copy is 42-49 GB/s,
# a burst 59-71) counts as taken in a burst. Prints, per kernel, the number
# of pairs and the quartiles of the kernel's share of that pair's fastest
# copy, burst pairs and the rest apart. Run on an idle machine:
#   benchmarks/burst_pairs.sh [build-dir]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
SECONDS_PER_KERNEL="${SECONDS_PER_KERNEL:-150}"
BURST="${BURST:-58}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

source "$ROOT/benchmarks/fusion_kernels.sh"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "pairs whose fastest copy ran at $BURST GB/s or more count as a burst;"
echo "share: kernel GB/s over that pair's fastest copy (q1 / median / q3)"
quartiles() {
  sort -n | awk '{a[NR] = $1}
    END { if (NR == 0) { printf "no pairs"; exit }
          printf "%4d pairs: %3.0f %% / %3.0f %% / %3.0f %%", NR,
                 100 * a[int(NR / 4) + 1], 100 * a[int(NR / 2) + 1],
                 100 * a[int(3 * NR / 4) + 1] }'
}
for spec in "${FUSION_KERNELS[@]:1}"; do # all but the copy
  set -- $spec
  name=$1 mib=$2
  shift 2
  "$BUILD/bin/tcc-compile" "$ROOT/benchmarks/fusion/$name.mlir" -o "$TMP/$name.so"
  end=$((SECONDS + SECONDS_PER_KERNEL))
  : > "$TMP/pairs"
  while [ "$SECONDS" -lt "$end" ]; do
    KVC_PRINT_PAIRS=1 "$TMP/kernel_vs_copy" "$TMP/$name.so" "$name" "$mib" 10 "$@" |
      grep '^pair ' >> "$TMP/pairs"
  done
  # "pair NAME copy G kernel K"
  burst=$(awk -v b="$BURST" '$4 >= b { print $6 / $4 }' "$TMP/pairs" | quartiles)
  usual=$(awk -v b="$BURST" '$4 < b { print $6 / $4 }' "$TMP/pairs" | quartiles)
  printf "%-13s burst %s | usual %s\n" "$name" "$burst" "$usual"
done
