#!/usr/bin/env bash
# Fusion benchmarks behind docs/benchmarks.md ("Fusion"). Run on an idle
# machine:
#   benchmarks/run_fusion.sh [build-dir]
# Prints
#   1. each example fused against unfused (--no-fuse), median latency;
#   2. the memory-bound kernels of benchmarks/fusion/ (16384 x 4096 f32,
#      written as separate ops) against a plain copy measured right before
#      each of ROUNDS (3) runs of the kernel (benchmarks/copy_bw.c: the best
#      of memcpy, a plain loop and a streaming-store loop over both cores),
#      as GB/s of the bytes each kernel must move and as a share of the
#      copy's bandwidth (median over the rounds).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
ROUNDS="${ROUNDS:-3}"
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
gcc -O3 -march=native -fopenmp -o "$TMP/copy_bw" "$ROOT/benchmarks/copy_bw.c"
copy_gbs() { "$TMP/copy_bw" | sed -n 's/.*best \([0-9.]*\) GB\/s.*/\1/p'; }
echo "memory-bound kernels, 16384 x 4096 f32 (compiled code, median of 10"
echo "calls). The machine's bandwidth drifts with its neighbours', so each"
echo "kernel runs $ROUNDS times right after a copy measurement (the best of"
echo "memcpy, a plain loop and a streaming loop); the share is the median"
echo "over those rounds of kernel GB/s / copy GB/s."
printf "%-14s %10s %10s %10s %12s %10s\n" kernel MiB-moved fused GB/s of-copy unfused
# Bytes each kernel must move: inputs read once, the result written once.
for spec in "copy 512" "add_relu_mul 768" "bias_gelu 512" "softmax 512" "layer_norm 512"; do
  set -- $spec
  f="$ROOT/benchmarks/fusion/$1.mlir"
  rounds=""
  for r in $(seq "$ROUNDS"); do
    m=$(copy_gbs)
    t=$("$RUN" "$f" --random-inputs --benchmark=10 --checksum | compiled_us)
    rounds="$rounds $t:$m"
  done
  tu=$("$RUN" "$f" --random-inputs --benchmark=3 --checksum --no-fuse | compiled_us)
  # Per round: kernel ms, kernel GB/s, memcpy GB/s, share.
  per_round=$(echo "$rounds" | tr ' ' '\n' | grep . | awk -F: -v mib="$2" '{
    gbs = mib * 1048576 / ($1 * 1e-6) / 1e9
    printf "%.3f %.2f %.2f %.4f\n", $1 / 1e3, gbs, $2, gbs / $2 }')
  col_median() { awk -v c="$1" '{ print $c }' | sort -g |
                 awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
  detail=$(echo "$per_round" | awk '{ printf " %.1f/%.1f", $2, $3 }')
  awk -v k="$1" -v mib="$2" -v tu="$tu" -v detail="$detail" \
      -v t="$(echo "$per_round" | col_median 1)" \
      -v g="$(echo "$per_round" | col_median 2)" \
      -v sh="$(echo "$per_round" | col_median 4)" 'BEGIN {
    printf "%-14s %10d %7.1f ms %10.1f %11.0f%% %7.1f ms   (GB/s kernel/copy:%s)\n",
      k, mib, t, g, 100 * sh, tu / 1e3, detail }'
done
