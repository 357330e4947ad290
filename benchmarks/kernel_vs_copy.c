// The bandwidth yardstick of docs/benchmarks.md ("Fusion"): a plain copy of
// 16384 x 4096 f32 (256 MiB; 512 MiB moved, read + write) split across all
// cores, four ways: glibc's memcpy, a plain loop (ordinary stores), a loop
// of AVX-512 non-temporal stores, and that loop prefetching 16 KiB ahead
// (as tcc's kernels prefetch the next row). The machine's bandwidth is the
// best of the four (on this VM memcpy has run at 55-100 % of the streaming
// loop, depending on the day: alone it is not the machine's bandwidth).
//
//   kernel_vs_copy
//     prints each copy's median GB/s over 20 runs, and the best.
//   kernel_vs_copy LIB ENTRY MIB PAIRS SHAPE...
//     loads LIB (built by tcc-compile), makes one f32 input per SHAPE
//     (16384x4096, 4096, ...) and runs PAIRS pairs of (the four copies
//     once each, ENTRY once), alternating, so that each kernel call is
//     compared with copies made milliseconds before it: this VM's
//     bandwidth moves with its neighbours' from second to second (37 to 68
//     GB/s), more than any kernel differs from the copy. Each pair's share
//     is the kernel's GB/s (MIB mebibytes moved per call: inputs read
//     once, the result written once) over that pair's run of the best
//     copy: the one with the highest median over all pairs. Prints the
//     medians and the quartiles of the shares, and the median share
//     against the fastest of the four in each pair (the larger of four
//     noisy samples, so a yardstick biased upwards).
//
//   KVC_THREADS=N (default: all cores) splits the copies across N threads
//   and gives the kernel N OpenMP threads (OMP_NUM_THREADS, set before LIB
//   is loaded). With N = 1 the copy runs at one core's own limit, which on
//   this VM is half of what both cores reach in a bandwidth burst: the
//   per-core yardstick (docs/benchmarks.md).
//
//   KVC_PRINT_PAIRS=1 also prints each pair ("pair ENTRY copy G kernel K":
//   the fastest copy of the pair and the kernel, GB/s), so that the pairs
//   taken in a bandwidth burst can be picked out (docs/benchmarks.md).
//
//   KVC_IN_CACHE=1 makes no copies: the kernel alone, PAIRS calls after two
//   warm-up calls, best and median call, and the best in ns per 16 result
//   floats (one zmm). With small shapes (256x4096: 4 MiB, in L2 and L3)
//   that is the kernel's arithmetic, not memory.
//
//   gcc -O3 -march=native -pthread kernel_vs_copy.c -ldl -o kernel_vs_copy
#define _GNU_SOURCE
#include <dlfcn.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../include/tcc/Runtime/tcc_model.h"

#define N (16384L * 4096L)
#define COPY_BYTES (2.0 * N * sizeof(float))

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// One thread's part of a copy: [begin, end) in floats, multiples of 16.
typedef struct {
  int method;
  float *dst;
  const float *src;
  long begin, end;
} CopyPart;

static void *copyPart(void *arg) {
  CopyPart *p = arg;
  float *restrict dst = p->dst;
  const float *restrict src = p->src;
  switch (p->method) {
  case 0:
    memcpy(dst + p->begin, src + p->begin, (p->end - p->begin) * sizeof(float));
    break;
  case 1:
    for (long i = p->begin; i < p->end; ++i)
      dst[i] = -src[i]; // keeps the compiler from calling memcpy
    break;
  case 2:
    for (long i = p->begin; i < p->end; i += 16)
      _mm512_stream_ps(dst + i, _mm512_load_ps(src + i));
    _mm_sfence();
    break;
  default:
    for (long i = p->begin; i < p->end; i += 16) {
      _mm_prefetch((const char *)(src + i + 4096), _MM_HINT_T1); // may pass the end: harmless
      _mm512_stream_ps(dst + i, _mm512_load_ps(src + i));
    }
    _mm_sfence();
  }
  return NULL;
}

#define METHODS 4
static const char *methodNames[METHODS] = {"memcpy", "plain loop",
                                           "streaming loop",
                                           "streaming loop with prefetch"};
static int threads;

// Seconds one parallel copy takes.
static double timeCopy(int method, float *dst, const float *src) {
  pthread_t ids[256];
  CopyPart parts[256];
  double start = now();
  for (int t = 0; t < threads; ++t) {
    parts[t] = (CopyPart){method, dst, src, N * t / threads / 16 * 16,
                          N * (t + 1) / threads / 16 * 16};
    if (t > 0)
      pthread_create(&ids[t], NULL, copyPart, &parts[t]);
  }
  copyPart(&parts[0]);
  for (int t = 1; t < threads; ++t)
    pthread_join(ids[t], NULL);
  return now() - start;
}

// Each copy once, GB/s into gbs[METHODS].
static void copyAll(float *dst, const float *src, double *gbs) {
  for (int m = 0; m < METHODS; ++m)
    gbs[m] = COPY_BYTES / timeCopy(m, dst, src) / 1e9;
}

static int copyOnly(float *dst, const float *src) {
  double median[METHODS], best = 0;
  for (int m = 0; m < METHODS; ++m) {
    double times[20];
    for (int i = 0; i < 3; ++i)
      timeCopy(m, dst, src);
    for (int i = 0; i < 20; ++i)
      times[i] = timeCopy(m, dst, src);
    qsort(times, 20, sizeof(double), compare);
    median[m] = COPY_BYTES / times[10] / 1e9;
    best = median[m] > best ? median[m] : best;
  }
  printf("copy 256 MiB, %d threads:", threads);
  for (int m = 0; m < METHODS; ++m)
    printf(" %s %.1f GB/s,", methodNames[m], median[m]);
  printf(" best %.1f GB/s\n", best);
  return 0;
}

typedef int (*RunFn)(const char *, const tcc_tensor *, int, tcc_tensor *, int);
typedef void (*ReleaseFn)(tcc_tensor *);
typedef const char *(*ErrorFn)(void);

int main(int argc, char **argv) {
  threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (getenv("KVC_THREADS")) {
    threads = atoi(getenv("KVC_THREADS"));
    if (threads < 1) {
      fprintf(stderr, "KVC_THREADS must be a positive number\n");
      return 2;
    }
    // libomp reads it when the library's first parallel region starts.
    setenv("OMP_NUM_THREADS", getenv("KVC_THREADS"), 1);
  }
  if (threads > 256)
    threads = 256;
  float *src = aligned_alloc(4096, N * sizeof(float));
  float *dst = aligned_alloc(4096, N * sizeof(float));
  for (long i = 0; i < N; ++i)
    src[i] = (float)i, dst[i] = 0;
  if (argc == 1)
    return copyOnly(dst, src);
  if (argc < 6) {
    fprintf(stderr, "usage: %s [LIB ENTRY MIB PAIRS SHAPE...]\n", argv[0]);
    return 2;
  }
  const char *entry = argv[2];
  double mib = atof(argv[3]);
  int pairs = atoi(argv[4]);
  int numInputs = argc - 5;
  if (pairs < 1 || pairs > 1000 || numInputs > 8) {
    fprintf(stderr, "PAIRS must be 1-1000, at most 8 inputs\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  RunFn run = (RunFn)dlsym(lib, "tcc_run");
  ReleaseFn release = (ReleaseFn)dlsym(lib, "tcc_release");
  ErrorFn lastError = (ErrorFn)dlsym(lib, "tcc_last_error");
  if (!run || !release || !lastError) {
    fprintf(stderr, "%s is not a tcc library\n", argv[1]);
    return 1;
  }
  // Inputs: page-aligned, values in [-3, 3) from a fixed LCG.
  tcc_tensor inputs[8];
  unsigned state = 12345;
  for (int k = 0; k < numInputs; ++k) {
    tcc_tensor *t = &inputs[k];
    memset(t, 0, sizeof *t);
    t->dtype = TCC_F32;
    long elements = 1;
    for (char *s = argv[5 + k]; *s;) {
      if (t->rank == TCC_MAX_RANK) {
        fprintf(stderr, "shape %s: too many dims\n", argv[5 + k]);
        return 2;
      }
      t->shape[t->rank] = strtol(s, &s, 10);
      elements *= t->shape[t->rank++];
      if (*s == 'x')
        ++s;
      else if (*s) {
        fprintf(stderr, "bad shape %s (want e.g. 16384x4096)\n", argv[5 + k]);
        return 2;
      }
    }
    float *data = aligned_alloc(4096, (elements * sizeof(float) + 4095) / 4096 * 4096);
    for (long i = 0; i < elements; ++i) {
      state = state * 1664525u + 1013904223u;
      data[i] = (float)(state >> 8) / (float)(1u << 24) * 6.0f - 3.0f;
    }
    t->data = data;
  }
  // Per pair: the kernel's GB/s and each copy's. The yardstick is the copy
  // with the highest median over the pairs, taken in each pair; the best of
  // the four per pair is printed too (the larger of four noisy samples: a
  // yardstick biased upwards).
  static double kernelGBs[1000], copyGBs[METHODS][1000];
  static double sorted[1000], shares[1000], sharesOfMax[1000];
  const char *inCacheVar = getenv("KVC_IN_CACHE");
  int inCache = inCacheVar && atoi(inCacheVar) != 0;
  const char *printPairsVar = getenv("KVC_PRINT_PAIRS");
  int printPairs = printPairsVar && atoi(printPairsVar) != 0;
  long resultElements = 0;
  for (int i = -2; i < pairs; ++i) { // two warm-up pairs
    double gbs[METHODS] = {0};
    if (!inCache)
      copyAll(dst, src, gbs);
    tcc_tensor result;
    memset(&result, 0, sizeof result);
    double start = now();
    if (run(entry, inputs, numInputs, &result, 1) != 0) {
      fprintf(stderr, "%s: %s\n", entry, lastError());
      return 1;
    }
    double seconds = now() - start;
    resultElements = 1;
    for (int d = 0; d < result.rank; ++d)
      resultElements *= result.shape[d];
    release(&result);
    if (i < 0)
      continue;
    sorted[i] = seconds;
    kernelGBs[i] = mib * 1048576.0 / seconds / 1e9;
    double top = 0;
    for (int m = 0; m < METHODS; ++m) {
      copyGBs[m][i] = gbs[m];
      top = gbs[m] > top ? gbs[m] : top;
    }
    if (printPairs && !inCache)
      printf("pair %s copy %.1f kernel %.1f\n", entry, top, kernelGBs[i]);
  }
  if (inCache) {
    qsort(sorted, pairs, sizeof(double), compare);
    printf("%s: best call %.3f ms, median %.3f ms over %d calls; best %.2f ns "
           "per 16 result floats\n",
           entry, sorted[0] * 1e3, sorted[pairs / 2] * 1e3, pairs,
           sorted[0] * 1e9 / (resultElements / 16.0));
    return 0;
  }
  int best = 0;
  double bestMedian = 0;
  for (int m = 0; m < METHODS; ++m) {
    memcpy(sorted, copyGBs[m], pairs * sizeof(double));
    qsort(sorted, pairs, sizeof(double), compare);
    if (sorted[pairs / 2] > bestMedian)
      bestMedian = sorted[pairs / 2], best = m;
  }
  for (int i = 0; i < pairs; ++i) {
    double top = 0;
    for (int m = 0; m < METHODS; ++m)
      top = copyGBs[m][i] > top ? copyGBs[m][i] : top;
    shares[i] = kernelGBs[i] / copyGBs[best][i];
    sharesOfMax[i] = kernelGBs[i] / top;
  }
  memcpy(sorted, kernelGBs, pairs * sizeof(double));
  qsort(sorted, pairs, sizeof(double), compare);
  double kernel = sorted[pairs / 2];
  qsort(shares, pairs, sizeof(double), compare);
  qsort(sharesOfMax, pairs, sizeof(double), compare);
  double ms = mib * 1048576.0 / 1e9 / kernel * 1e3;
  printf("%s: kernel median %.2f ms (%.1f GB/s), best copy (%s) median %.1f "
         "GB/s, share median %.0f%% (q1 %.0f%%, q3 %.0f%%) over %d pairs; "
         "against the best of the four in each pair %.0f%%\n",
         entry, ms, kernel, methodNames[best], bestMedian,
         100 * shares[pairs / 2], 100 * shares[pairs / 4],
         100 * shares[3 * pairs / 4], pairs, 100 * sharesOfMax[pairs / 2]);
  return 0;
}
