// Memory bandwidth yardstick for docs/benchmarks.md: a plain copy of
// 16384 x 4096 f32 (256 MiB) into an already-touched buffer, split across
// all cores (OpenMP), median of 20 after warm-up. Bytes moved: 512 MiB per
// copy (read + write). Prints GB/s for memcpy (glibc: non-temporal stores
// at this size) and for a plain loop (ordinary stores, as compiled kernels
// write).
//   gcc -O3 -march=native -fopenmp copy_bw.c -o copy_bw && ./copy_bw
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (16384L * 4096L)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void copy_memcpy(float *dst, const float *src) {
#pragma omp parallel
  {
    long t = omp_get_thread_num(), n = omp_get_num_threads();
    long begin = N * t / n, end = N * (t + 1) / n;
    memcpy(dst + begin, src + begin, (end - begin) * sizeof(float));
  }
}

static void copy_loop(float *restrict dst, const float *restrict src) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; ++i)
    dst[i] = -src[i]; // keeps the compiler from calling memcpy
}

static double median_gbs(void (*copy)(float *, const float *), float *dst,
                         const float *src) {
  double times[20];
  for (int i = 0; i < 3; ++i)
    copy(dst, src);
  for (int i = 0; i < 20; ++i) {
    double t = now();
    copy(dst, src);
    times[i] = now() - t;
  }
  qsort(times, 20, sizeof(double), cmp);
  return 2.0 * N * sizeof(float) / times[10] / 1e9;
}

int main(void) {
  float *src = aligned_alloc(64, N * sizeof(float));
  float *dst = aligned_alloc(64, N * sizeof(float));
  for (long i = 0; i < N; ++i)
    src[i] = (float)i, dst[i] = 0;
  printf("copy 256 MiB, %d threads: memcpy %.1f GB/s, plain loop %.1f GB/s\n",
         omp_get_max_threads(), median_gbs(copy_memcpy, dst, src),
         median_gbs(copy_loop, dst, src));
  free(src);
  free(dst);
  return 0;
}
