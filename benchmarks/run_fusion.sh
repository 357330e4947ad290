#!/usr/bin/env bash
# Fusion benchmarks behind docs/benchmarks.md ("Fusion"). Run on an idle
# machine:
#   benchmarks/run_fusion.sh [build-dir]
# Prints
#   1. each example fused against unfused (--no-fuse), median latency;
#   2. the memory-bound kernels of benchmarks/fusion/ (16384 x 4096 f32,
#      written as separate ops), built by tcc-compile, against a plain copy
#      (benchmarks/kernel_vs_copy.c: the best of memcpy, a plain loop and
#      two streaming-store loops over all cores) in PAIRS (20) alternating
#      pairs of copies and one kernel call each: GB/s of the bytes each
#      kernel must move, and the kernel's share of the copy's bandwidth
#      (median over the pairs, with its quartiles);
#   3. the same kernels on one core against copies on one core (the
#      per-core yardstick of the bandwidth bursts, KVC_THREADS=1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
PAIRS="${PAIRS:-20}"
COMPILE="$BUILD/bin/tcc-compile"
RUN="$BUILD/bin/tcc-run"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
median_us() { sed -n 's/.*median \([0-9.]*\) us.*/\1/p' | head -1; }
compiled_us() { sed -n 's/^compiled code: median \([0-9.]*\) us.*/\1/p'; }

echo
echo "examples, fused vs unfused (median of N calls, random inputs, both cores)"
printf "%-14s %-12s %12s %12s %8s\n" example sizes fused unfused speedup
for spec in "robot_policy B=1 50" "robot_policy B=64 50" "vit_block B=1,S=197 10" \
            "vit_block B=8,S=197 5" "conv_block B=1 10" "conv_block B=8 5"; do
  set -- $spec
  f="$ROOT/examples/$1.mlir"
  tf=$("$RUN" "$f" --random-inputs --sizes="$2" --benchmark="$3" --checksum | median_us)
  tu=$("$RUN" "$f" --random-inputs --sizes="$2" --benchmark="$3" --checksum --no-fuse | median_us)
  awk -v e="$1" -v z="$2" -v a="$tf" -v b="$tu" 'BEGIN {
    printf "%-14s %-12s %9.1f us %9.1f us %8.2f\n", e, z, a, b, b / a }'
done

echo
source "$ROOT/benchmarks/fusion_kernels.sh"
"$TMP/kernel_vs_copy"
echo "memory-bound kernels, 16384 x 4096 f32, compiled by tcc-compile; each"
echo "call paired with the copies made just before it ($PAIRS pairs): the"
echo "machine's bandwidth drifts with its neighbours' from second to second."
echo "MiB moved: inputs read once, the result written once."
for spec in "${FUSION_KERNELS[@]}"; do
  set -- $spec
  name=$1 mib=$2
  shift 2
  "$COMPILE" "$ROOT/benchmarks/fusion/$name.mlir" -o "$TMP/$name.so"
  "$COMPILE" "$ROOT/benchmarks/fusion/$name.mlir" --no-fuse -o "$TMP/${name}_unfused.so"
  fused=$("$TMP/kernel_vs_copy" "$TMP/$name.so" "$name" "$mib" "$PAIRS" "$@")
  unfused=$("$TMP/kernel_vs_copy" "$TMP/${name}_unfused.so" "$name" "$mib" 3 "$@" |
            sed -n 's/.*kernel median \([0-9.]*\) ms.*/\1/p')
  echo "$fused ($mib MiB moved); unfused (--no-fuse): $unfused ms"
done

# One core: the copies on one thread, the kernel on one OpenMP thread. A
# core alone moves about half of what both reach in a burst (this VM's
# shared limit lifted), so this is the bursts' per-core yardstick, and
# unlike them it can be measured at will.
echo
echo "one core (KVC_THREADS=1): each fused kernel on one thread against"
echo "copies on one thread, $PAIRS pairs"
KVC_THREADS=1 "$TMP/kernel_vs_copy"
for spec in "${FUSION_KERNELS[@]:1}"; do # all but the copy
  set -- $spec
  name=$1 mib=$2
  shift 2
  KVC_THREADS=1 "$TMP/kernel_vs_copy" "$TMP/$name.so" "$name" "$mib" "$PAIRS" "$@"
done
