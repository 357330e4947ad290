#!/usr/bin/env bash
# Runs on the GPU machine (no MLIR there): every case prepare_check.py built,
# through tcc-run-lib, compared with the reference evaluator's outputs.
#   bash benchmarks/gpu/device_check.sh [DIR [PATTERN]]   (default build/gpu-check)
# With PATTERN (a grep -E regex on the libraries' names) only those cases
# run, without the sweep and the timings.
set -uo pipefail
DIR="${1:-$(dirname "${BASH_SOURCE[0]}")/../../build/gpu-check}"
ONLY="${2:-}"
cd "$DIR"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
# cuBLASLt for the libraries' matrix products (dlopen'ed at the first one):
# the loader's path, else the CUDA toolkit's or PyTorch's pip copy.
if [ -z "${TCC_CUBLASLT:-}" ] && ! ldconfig -p 2>/dev/null | grep -q libcublasLt.so; then
  TCC_CUBLASLT=$(find /usr/local/cuda*/lib64 /usr/local/cuda*/targets /opt /usr/lib \
      -name 'libcublasLt.so.1[23]*' 2>/dev/null | sort | head -1)
  export TCC_CUBLASLT
fi
echo "cuBLASLt: ${TCC_CUBLASLT:-found by the loader}"
# cuDNN for the convolutions (dlopen'ed at the first one): the loader's
# path, else PyTorch's pip copy; its directory goes on LD_LIBRARY_PATH,
# where libcudnn.so.9 finds its sub-libraries.
if [ -z "${TCC_CUDNN:-}" ] && ! ldconfig -p 2>/dev/null | grep -q libcudnn.so.9; then
  TCC_CUDNN=$(find / -name 'libcudnn.so.9' -not -path '/proc/*' 2>/dev/null | sort | head -1)
  if [ -n "$TCC_CUDNN" ]; then
    export TCC_CUDNN LD_LIBRARY_PATH="$(dirname "$TCC_CUDNN")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
fi
echo "cuDNN: ${TCC_CUDNN:-found by the loader}"
status=0
while read -r lib fn rtol atol expected specs; do
  [ -z "$lib" ] && continue
  args=()
  for s in $specs; do args+=("--input=$s"); done
  IFS=, read -ra exp <<<"$expected"
  for e in "${exp[@]}"; do args+=("--expected_output=@$e"); done
  echo "== $lib ($fn)"
  ./tcc-run-lib "./$lib" --function="$fn" --rtol="$rtol" --atol="$atol" \
      --benchmark=20 "${args[@]}" || status=1
  # The same call captured as a CUDA graph, replayed, checked again.
  ./tcc-run-lib "./$lib" --function="$fn" --rtol="$rtol" --atol="$atol" \
      --benchmark=20 --graph "${args[@]}" || status=1
  # On a stream of the caller's (tcc_run_on_stream), then the graph
  # replayed there (tcc_graph_launch_on_stream), checked again.
  ./tcc-run-lib "./$lib" --function="$fn" --rtol="$rtol" --atol="$atol" \
      --stream "${args[@]}" | grep -v "^result" || status=1
  ./tcc-run-lib "./$lib" --function="$fn" --rtol="$rtol" --atol="$atol" \
      --stream --graph "${args[@]}" | grep -v "^result" || status=1
done < <(awk '{ specs=""; for (i = 6; i <= NF; ++i) specs = specs " " $i;
               print $1, $2, $3, $4, $5, specs }' cases.txt |
         grep -E "^(${ONLY:-.*})")
[ -n "$ONLY" ] && exit $status

# Every op's integration test (prepare_sweep.py), if built.
if [ -f sweep/sweep.txt ]; then
  bash "$(dirname "${BASH_SOURCE[0]}")/device_sweep.sh" . || status=1
fi

# Timing of the memory-bound kernels at [16384, N] (inputs random, made on
# the host; results unchecked here, the cases above check them). The time
# is tcc_run's: allocation of the result, the kernels, synchronization.
echo "== timing"
./tcc-run-lib ./libsoftmax.so --input=16384x4096xf32=random --benchmark=10 || status=1
./tcc-run-lib ./liblayer_norm.so --input=16384x1024xf32=random \
    --input=1024xf32=random --input=1024xf32=random --benchmark=10 || status=1
./tcc-run-lib ./libbias_gelu.so --input=16384x3072xf32=random \
    --input=3072xf32=random --benchmark=10 || status=1
# The memory-bound kernels at [16384, 4096] f32 (benchmarks/fusion/), kernel
# time per replay of the call as a CUDA graph (no host code): bytes each
# must move over that time. torch_anchors.py memory_bound_ops, if beside
# this script's DIR, measures PyTorch on the same shapes right after.
echo "== memory-bound, 16384 x 4096 f32 (graph replays)"
x=16384x4096xf32=random
for spec in "copy 512 --input=$x" "add_relu_mul 768 --input=$x --input=$x" \
            "bias_gelu 512 --input=$x --input=4096xf32=random" \
            "softmax 512 --input=$x" \
            "layer_norm 512 --input=$x --input=4096xf32=random --input=4096xf32=random"; do
  set -- $spec
  name=$1 mib=$2
  shift 2
  us=$(./tcc-run-lib "./libfusion_$name.so" "$@" --benchmark=20 --graph |
       sed -n 's/^graph replay.*median \([0-9.]*\) us.*/\1/p')
  awk -v n="$name" -v m="$mib" -v t="$us" 'BEGIN {
    printf "%-14s %8.1f us %8.0f GB/s\n", n, t, m * 1048576 / (t * 1e-6) / 1e9 }'
done

# The fused attention kernels at ViT-B/16's shape, [B, 12, 197, 64]
# (kernel time per graph replay): bf16 at batch 32, then PyTorch's SDPA
# backends on the same shape when torch_attention.py is beside this
# script; f32 (the CUDA-core kernel) at batch 4.
attention_time() { # LABEL DTYPE BATCH
  local a="$3x12x197x64x$2=random" us
  echo "== attention, $3 x 12 x 197 x 64 $2 (graph replays)"
  us=$(./tcc-run-lib "./libattention_$2.so" --function="attention_$2" \
       --input=$a --input=$a --input=$a --benchmark=50 --graph |
       sed -n 's/^graph replay.*median \([0-9.]*\) us.*/\1/p')
  awk -v l="$1" -v t="$us" -v b="$3" 'BEGIN { printf "%-18s %8.1f us %7.1f TFLOP/s\n",
    l, t, 4 * b * 12 * 197 * 197 * 64 / (t * 1e6) }'
}
attention_time "tcc attention" bf16 32
[ -f torch_attention.py ] && python3 torch_attention.py 32
attention_time "tcc attention f32" f32 4

# The anchors' memory-bound ops as PyTorch writes them (composite layer_norm
# and softmax, x + b with vectors), f32 and bf16: MiB read + written.
for dt in f32 bf16; do
  [ "$dt" = f32 ] && mib=512 || mib=256
  echo "== memory-bound ops, 16384 x 4096 $dt (graph replays)"
  x=16384x4096x$dt=random v=4096x$dt=random
  for spec in "copy --input=$x" "layer_norm --input=$x --input=$v --input=$v" \
              "softmax --input=$x" "bias_gelu --input=$x --input=$v" \
              "add_relu_mul --input=$x --input=$v --input=$v"; do
    set -- $spec
    name=$1
    shift
    us=$(./tcc-run-lib "./libmemory_bound_$dt.so" --function="$name" "$@" \
         --benchmark=20 --graph |
         sed -n 's/^graph replay.*median \([0-9.]*\) us.*/\1/p')
    awk -v n="$name" -v m="$mib" -v t="$us" -v d="$dt" 'BEGIN {
      printf "%-14s %-5s %8.1f us %8.0f GB/s\n", n, d, t, m * 1048576 / (t * 1e-6) / 1e9 }'
  done
done

# Matrix products through cuBLASLt at a ViT-B/16 MLP's shapes (batch 32 x
# 197 tokens): fc1 + GELU (the GELU a kernel of its own) and fc2 + bias +
# residual (all in the library's epilogue); torch_gemm.py, beside DIR,
# times PyTorch on the same shapes.
echo "== products, 6304 rows (graph replays)"
./tcc-run-lib ./libgemms.so --function=fc1_gelu --input=6304x768xf32=random \
    --input=3072x768xf32=random --input=3072xf32=random --benchmark=20 \
    --graph | grep -i "replay" || status=1
./tcc-run-lib ./libgemms.so --function=fc2_residual \
    --input=6304x3072xf32=random \
    --input=768x3072xf32=random --input=768xf32=random \
    --input=6304x768xf32=random --benchmark=20 --graph | grep -i "replay" ||
  status=1
./tcc-run-lib ./libgemms.so --function=fc1_gelu_bf16 \
    --input=6304x768xbf16=random --input=3072x768xbf16=random \
    --input=3072xbf16=random --benchmark=20 --graph | grep -i "replay" ||
  status=1
vit=$(awk '$1 == "libvit_block_197.so" { for (i = 6; i <= NF; ++i) {
  sub(/^2x197x/, "32x197x", $i); printf " --input=%s", $i } }' cases.txt)
echo "== ViT block, batch 32 x 197 tokens"
./tcc-run-lib ./libvit_block_197.so $vit --benchmark=20 --graph | grep -i "replay" || status=1
[ -f torch_gemm.py ] && python3 torch_gemm.py

# conv_block at batch 32 (two cuDNN convolutions, the batch norms, adds and
# ReLUs as kernels, the pool), f32 and bf16, per graph replay; the
# variances are a positive splat. torch_conv.py times PyTorch's block.
for dt in f32 bf16; do
  v=64x$dt=random
  [ "$dt" = f32 ] && lib=libconv_block.so || lib=libconv_block_bf16.so
  echo "== conv_block, batch 32, $dt (graph replays)"
  ./tcc-run-lib "./$lib" --input=32x64x56x56x$dt=random \
      --input=64x64x3x3x$dt=random*0.05 --input=$v --input=$v --input=$v \
      --input=64x$dt=0.5 --input=64x64x3x3x$dt=random*0.05 --input=$v \
      --input=$v --input=$v --input=64x$dt=0.5 --benchmark=50 --graph |
    grep -i "replay" || status=1
done
[ -f torch_conv.py ] && python3 torch_conv.py 32

# The robot policy at batch 1 (seed 001's 1 kHz loop), per call from the
# host: tcc_run, then the call replayed as a CUDA graph.
policy=$(awk '$1 == "librobot_policy.so" { for (i = 6; i <= NF; ++i) {
  sub(/^8x/, "1x", $i); printf " --input=%s", $i } }' \
  cases.txt)
echo "== robot policy, batch 1 (dynamic batch: cuBLASLt)"
./tcc-run-lib ./librobot_policy.so $policy --benchmark=200 || status=1
./tcc-run-lib ./librobot_policy.so $policy --benchmark=200 --graph || status=1
echo "== robot policy, compiled for batch 1 (--specialize=B=1: matvec kernels)"
./tcc-run-lib ./librobot_policy_b1.so $policy --benchmark=200 || status=1
./tcc-run-lib ./librobot_policy_b1.so $policy --benchmark=200 --graph || status=1
echo "== robot policy, batch 1, replays queued on the caller's stream"
./tcc-run-lib ./librobot_policy_b1.so $policy --benchmark=200 --graph --stream || status=1
exit $status
