// Measures this machine's single-core f32 FMA peak (GFLOP/s) with 16
// independent AVX-512 FMA chains: the ceiling docs/benchmarks.md compares
// tcc's matmul against.
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

int main(void) {
  __m512 acc[16];
  for (int i = 0; i < 16; ++i)
    acc[i] = _mm512_set1_ps((float)i);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  const long iters = 100000000;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long n = 0; n < iters; ++n)
    for (int i = 0; i < 16; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  float sink = 0;
  for (int i = 0; i < 16; ++i)
    sink += _mm512_reduce_add_ps(acc[i]);
  double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  double flops = 2.0 * 16 * 16 * (double)iters;
  printf("single-core f32 FMA peak: %.1f GFLOP/s (checksum %g)\n",
         flops / s / 1e9, sink);
  return 0;
}
