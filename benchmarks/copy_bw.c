// Memory bandwidth yardstick for docs/benchmarks.md: a plain copy of
// 16384 x 4096 f32 (256 MiB) into an already-touched buffer, split across
// all cores (OpenMP), median of 20 after warm-up. Bytes moved: 512 MiB per
// copy (read + write). Prints GB/s for memcpy (glibc), for a plain loop
// (ordinary stores) and for a loop of AVX-512 non-temporal stores, and the
// best of the three: the machine's bandwidth as a copy reaches it. (On this
// VM glibc's memcpy has run at 55-100 % of the streaming loop, depending on
// the day: alone it is not the machine's bandwidth.)
//   gcc -O3 -march=native -fopenmp copy_bw.c -o copy_bw && ./copy_bw
#include <immintrin.h>
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

static void copy_stream(float *restrict dst, const float *restrict src) {
#pragma omp parallel
  {
    long t = omp_get_thread_num(), n = omp_get_num_threads();
    long begin = N * t / n / 16 * 16, end = N * (t + 1) / n / 16 * 16;
    for (long i = begin; i < end; i += 16)
      _mm512_stream_ps(dst + i, _mm512_load_ps(src + i));
    _mm_sfence();
  }
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
  double m = median_gbs(copy_memcpy, dst, src);
  double l = median_gbs(copy_loop, dst, src);
  double s = median_gbs(copy_stream, dst, src);
  double best = m > l ? m : l;
  best = best > s ? best : s;
  printf("copy 256 MiB, %d threads: memcpy %.1f GB/s, plain loop %.1f GB/s, "
         "streaming loop %.1f GB/s, best %.1f GB/s\n",
         omp_get_max_threads(), m, l, s, best);
  free(src);
  free(dst);
  return 0;
}
