# Sourced by run_fusion.sh and burst_pairs.sh (after ROOT and TMP are set):
# the memory-bound kernels of benchmarks/fusion/ as "NAME MIB SHAPE...",
# MIB the mebibytes each call must move (inputs read once, the result
# written once), and the yardstick, benchmarks/kernel_vs_copy.c, built
# into $TMP.
FUSION_KERNELS=("copy 512 16384x4096"
                "add_relu_mul 768 16384x4096 16384x4096"
                "bias_gelu 512 16384x4096 4096"
                "softmax 512 16384x4096"
                "layer_norm 512 16384x4096 4096 4096")
# libomp's idle threads spin for 200 ms after each parallel region by
# default: they would slow the copies between kernel calls.
export KMP_BLOCKTIME=0
gcc -O3 -march=native -pthread -o "$TMP/kernel_vs_copy" \
  "$ROOT/benchmarks/kernel_vs_copy.c" -ldl
