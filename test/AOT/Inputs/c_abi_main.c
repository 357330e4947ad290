/* A C program using a tcc-compile library through tcc_model.h only (no
 * MLIR, no C++): runs scaled_softmax on N = 5 and compares with softmax
 * and row max computed here in double precision; then checks that a size
 * mismatch is refused with code 3 and a message, and an unknown entry with
 * code 1. Prints "ok" when everything holds. */
#include "tcc/Runtime/tcc_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 5
#define C 16

int main(void) {
  static float x[N * C], y[N * C];
  for (int i = 0; i < N * C; ++i) {
    x[i] = (float)((i * 37) % 23) / 7.0f - 1.5f;
    y[i] = (float)((i * 11) % 13) / 5.0f - 1.0f;
  }
  tcc_tensor in[2] = {{x, TCC_F32, 2, {N, C}, 0}, {y, TCC_F32, 2, {N, C}, 0}};
  tcc_tensor out[2];
  memset(out, 0, sizeof(out));
  int ni = -1, nr = -1;
  if (tcc_entry_arity("scaled_softmax", &ni, &nr) != 0 || ni != 2 || nr != 2) {
    printf("arity: %d %d\n", ni, nr);
    return 1;
  }
  int rc = tcc_run("scaled_softmax", in, 2, out, 2);
  if (rc != 0) {
    printf("tcc_run failed (%d): %s\n", rc, tcc_last_error());
    return 1;
  }
  if (out[0].rank != 2 || out[0].shape[0] != N || out[0].shape[1] != C ||
      out[1].rank != 2 || out[1].shape[0] != N || out[1].shape[1] != 1 ||
      ((uintptr_t)out[0].data % 64) != 0) {
    printf("unexpected result shapes or alignment\n");
    return 1;
  }
  const float *p = (const float *)out[0].data, *m = (const float *)out[1].data;
  for (int r = 0; r < N; ++r) {
    double s[C], mx = -INFINITY, sum = 0;
    for (int c = 0; c < C; ++c) {
      s[c] = (double)x[r * C + c] * y[r * C + c];
      mx = s[c] > mx ? s[c] : mx;
    }
    for (int c = 0; c < C; ++c)
      sum += exp(s[c] - mx);
    if (fabs(m[r] - mx) > 1e-5) {
      printf("max row %d: %g vs %g\n", r, m[r], mx);
      return 1;
    }
    for (int c = 0; c < C; ++c) {
      double e = exp(s[c] - mx) / sum;
      if (fabs(p[r * C + c] - e) > 1e-5 + 1e-4 * e) {
        printf("softmax [%d, %d]: %g vs %g\n", r, c, p[r * C + c], e);
        return 1;
      }
    }
  }
  tcc_release(&out[0]);
  tcc_release(&out[1]);

  /* N differs between the inputs: refused before anything runs. */
  in[1].shape[0] = N - 1;
  rc = tcc_run("scaled_softmax", in, 2, out, 2);
  printf("mismatch: %d %s\n", rc, tcc_last_error());
  if (rc != 3)
    return 1;
  rc = tcc_run("nope", in, 2, out, 2);
  printf("unknown: %d %s\n", rc, tcc_last_error());
  if (rc != 1)
    return 1;
  /* CUDA graphs need a cuda library: a clear refusal here. */
  in[1].shape[0] = N;
  tcc_graph *graph = (tcc_graph *)1;
  rc = tcc_graph_create("scaled_softmax", in, 2, out, 2, &graph);
  printf("graph: %d %s %s\n", rc, tcc_last_error(),
         graph ? "handle set" : "no handle");
  if (rc != 6)
    return 1;
  /* So does a caller's stream. */
  rc = tcc_run_on_stream("scaled_softmax", in, 2, out, 2, 0);
  printf("stream: %d %s\n", rc, tcc_last_error());
  if (rc != 6)
    return 1;
  printf("entries: %d, first %s\n", tcc_num_entries(), tcc_entry_name(0));
  printf("ok\n");
  return 0;
}
