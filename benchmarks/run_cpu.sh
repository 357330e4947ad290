#!/usr/bin/env bash
# CPU benchmarks behind docs/benchmarks.md. Run on an idle machine:
#   benchmarks/run_cpu.sh [build-dir]
# Prints: the single-core FMA peak, tcc's f32 matmul GFLOP/s (1 and all
# threads) next to numpy's (OpenBLAS, the peer, measured in the same run),
# the examples' median latency, and dynamic-shape compiles against
# static-specialized ones.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
RUN="$BUILD/bin/tcc-run"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
gcc -O3 -funroll-loops -mavx512f -o "$TMP/peak" "$ROOT/benchmarks/peak_fma.c"
"$TMP/peak"

# numpy as the peer (pip, into a throwaway venv so nothing global changes).
python3 -m venv "$TMP/venv" >/dev/null
"$TMP/venv/bin/pip" install -q numpy >/dev/null

median_us() { sed -n 's/.*median \([0-9.]*\) us.*/\1/p'; }

echo
echo "f32 matmul C[N,N] = A[N,N] @ B[N,N]: GFLOP/s (median of 20 calls)"
printf "%6s %14s %14s %14s %10s\n" N tcc-1-thread tcc-threads numpy-threads tcc/numpy
for n in 256 512 1024; do
  cat > "$TMP/mm.mlir" <<MLIR
func.func @mm(%a: tensor<${n}x${n}xf32>, %b: tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32> {
  %0 = tcc.matmul %a, %b : (tensor<${n}x${n}xf32>, tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %0 : tensor<${n}x${n}xf32>
}
MLIR
  t1=$("$RUN" "$TMP/mm.mlir" --random-inputs --benchmark=20 --no-parallel | median_us)
  tp=$("$RUN" "$TMP/mm.mlir" --random-inputs --benchmark=20 | median_us)
  tn=$("$TMP/venv/bin/python" - "$n" <<'PY'
import sys, time, numpy as np
n = int(sys.argv[1]); a = np.random.rand(n, n).astype(np.float32); b = np.random.rand(n, n).astype(np.float32)
for _ in range(3): a @ b
ts = []
for _ in range(20):
    t = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t)
print(sorted(ts)[len(ts) // 2] * 1e6)
PY
)
  awk -v n="$n" -v t1="$t1" -v tp="$tp" -v tn="$tn" 'BEGIN {
    f = 2 * n * n * n / 1e3;
    printf "%6d %14.1f %14.1f %14.1f %10.2f\n", n, f / t1, f / tp, f / tn, tn / tp }'
done

echo
echo "examples (random inputs, median of 20 calls after warm-up)"
for spec in "robot_policy B=1" "robot_policy B=64" "vit_block B=1,S=197" "vit_block B=8,S=197" "conv_block B=1" "conv_block B=8"; do
  set -- $spec
  t=$("$RUN" "$ROOT/examples/$1.mlir" --random-inputs --sizes="$2" --benchmark=20 | median_us)
  t1=$("$RUN" "$ROOT/examples/$1.mlir" --random-inputs --sizes="$2" --benchmark=20 --no-parallel | median_us)
  printf "%-14s %-12s %10.1f us (threads)  %10.1f us (1 thread)\n" "$1" "$2" "$t" "$t1"
done

# One compile for every size against a compile specialized to the size:
# the dynamic version's latency over the static one's (goal <= 1.05), and
# shape buckets (B:1,8,64: B = 1 static, 2..8, 9..64, any).
echo
echo "dynamic vs static-specialized (median; ratio = dynamic / static)"
printf "%-12s %-12s %12s %12s %12s %8s %8s\n" example sizes dynamic static buckets dyn/st bkt/st
for spec in "robot_policy B=1 20" "robot_policy B=8 20" "robot_policy B=64 20" \
            "vit_block B=1,S=197 10" "vit_block B=8,S=197 5" "vit_block B=64,S=197 3"; do
  set -- $spec
  f="$ROOT/examples/$1.mlir"
  td=$("$RUN" "$f" --random-inputs --sizes="$2" --benchmark="$3" | median_us)
  ts=$("$RUN" "$f" --random-inputs --sizes="$2" --specialize="$2" --benchmark="$3" | median_us)
  tb=$("$RUN" "$f" --random-inputs --sizes="$2" --buckets=B:1,8,64 --benchmark="$3" | median_us)
  awk -v e="$1" -v z="$2" -v td="$td" -v ts="$ts" -v tb="$tb" 'BEGIN {
    printf "%-12s %-12s %10.1f us %10.1f us %10.1f us %8.2f %8.2f\n", e, z, td, ts, tb, td / ts, tb / ts }'
done
echo; "$ROOT/benchmarks/run_fusion.sh" "$BUILD"
